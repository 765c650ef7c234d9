; @name collatz
; @description Collatz steps from R1 down to 1 (R0) and the highest value reached (R2)
; @init R1=27
; @expect R0=111 R1=1 R2=9232 halted=1
;
; n -> n/2 when even, 3n+1 when odd. 27 is the famous small start that
; wanders up to 9232 before falling to 1 after 111 steps.

        MOV R0, 0           ; steps taken
        MOV R2, R1          ; peak
loop:   CMP R1, 1
        JLE done
        AND R3, R1, 1
        JZ even
        ADD R3, R1, R1      ; odd: n = 3n + 1, as n + 2n + 1
        ADD R1, R1, R3
        INC R1
        JMP counted
even:   SHR R1, R1, 1       ; even: n = n / 2
counted:
        INC R0
        CMP R1, R2
        JLE loop
        MOV R2, R1          ; a new peak
        JMP loop
done:   HALT
