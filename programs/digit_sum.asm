; @name digit_sum
; @description Sum (R0) and count (R2) of the decimal digits of R1
; @init R1=987654321
; @expect R0=45 R2=9 R3=0 halted=1
;
; n MOD 10 is the last digit and n DIV 10 drops it.

        MOV R7, 10
        MOV R0, 0
        MOV R2, 0
        MOV R3, R1
next:   MOD R4, R3, R7
        ADD R0, R0, R4
        INC R2
        DIV R3, R3, R7      ; sets Z once no digits remain
        JNZ next            ; (a do-while: 0 still has one digit)
        HALT
