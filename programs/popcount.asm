; @name popcount
; @description Count set bits with Kernighan's trick: R0 = popcount(R1)
; @init R1=0xDEADBEEF
; @expect R0=24 R1=0 Z=1 halted=1
;
; x & (x - 1) clears the lowest set bit, so the loop runs once per set bit
; rather than once per bit position. The register is signed, but the trick
; only looks at bits, so a negative input (as 0xDEADBEEF is) works too.

        MOV R0, 0
loop:   CMP R1, 0
        JZ done
        SUB R2, R1, 1       ; x - 1 flips the lowest set bit and those below it
        AND R1, R1, R2      ; ... so the AND drops exactly that bit
        INC R0
        JMP loop
done:   HALT
