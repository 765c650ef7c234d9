; @name factorial
; @description Iterative factorial: R0 = n! for n in R1
; @init R1=10
; @expect R0=3628800 R1=0 halted=1
;
; 10! = 3,628,800 fits easily; 13! would not (see mul_overflow.asm).

        MOV R0, 1
loop:   CMP R1, 1
        JLE done            ; 0! = 1! = 1
        MUL R0, R0, R1
        DEC R1
        JMP loop
done:   MOV R1, 0           ; leave the counter clear for a tidy final state
        HALT
