; @name factorial_recursive
; @description n! by recursion through CALL/RET: R0 = fact(R0)
; @init R0=12
; @expect R0=479001600 sp=0 halted=1
;
; fact(n) = n * fact(n-1), fact(n <= 1) = 1. Each level keeps its n on the
; stack below its return address. 12! is the largest that fits 31 bits.

        CALL fact
        HALT

; fact: R0 = R0!; clobbers R1.
fact:   CMP R0, 1
        JLE one
        PUSH R0             ; save n
        SUB R0, R0, 1
        CALL fact           ; R0 = (n-1)!
        POP R1
        MUL R0, R0, R1      ; n * (n-1)!
        RET
one:    MOV R0, 1
        RET
