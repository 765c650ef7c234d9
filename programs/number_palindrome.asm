; @name number_palindrome
; @description Reverse the decimal digits of R1 into R2; R0 = 1 when the number reads the same backwards
; @init R1=12321
; @expect R0=1 R1=12321 R2=12321 halted=1
;
; Peel digits off the bottom with MOD 10 and push them onto the bottom of
; the reversed number with * 10. DIV and MOD need the 10 in a register.

        MOV R7, 10
        MOV R2, 0           ; reversed
        MOV R3, R1          ; digits still to peel
peel:   CMP R3, 0
        JEQ compare
        MOD R4, R3, R7      ; lowest digit
        MUL R2, R2, R7
        ADD R2, R2, R4
        DIV R3, R3, R7
        JMP peel
compare:
        MOV R0, 0
        CMP R1, R2
        JNE done
        MOV R0, 1
done:   HALT
