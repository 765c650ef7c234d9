; @name lcm
; @description Least common multiple: R0 = lcm(R1, R2) = R1 / gcd * R2
; @init R1=21 R2=6
; @expect R0=42 R1=21 R2=6 R3=3 halted=1
;
; Dividing before multiplying keeps the intermediate value small: a / gcd
; is exact, and the product is then the lcm itself.

        MOV R3, R1          ; gcd(a, b) in R3, working on copies
        MOV R4, R2
gcd:    CMP R4, 0
        JEQ gcd_done
        MOD R5, R3, R4
        MOV R3, R4
        MOV R4, R5
        JMP gcd
gcd_done:
        DIV R0, R1, R3      ; a / gcd (exact)
        MUL R0, R0, R2      ; ... * b
        HALT
