; @name power
; @description R0 = R1 ** R2 by square-and-multiply (mod 2**32)
; @init R1=3 R2=13
; @expect R0=1594323 R2=0 halted=1
;
; Binary exponentiation: walk the exponent's bits from the low end; every
; bit squares the base, and set bits multiply it into the result.
; 13 = 0b1101, so the result is 3^1 * 3^4 * 3^8 = 3 * 81 * 6561.

        MOV R0, 1           ; result
        MOV R3, R1          ; base, squared at each bit
bit:    CMP R2, 0
        JZ done
        AND R4, R2, 0b1     ; lowest exponent bit
        JZ skip
        MUL R0, R0, R3      ; bit set: multiply this power in
skip:   MUL R3, R3, R3      ; next power of two of the base
        SHR R2, R2, 1
        JMP bit
done:   HALT
