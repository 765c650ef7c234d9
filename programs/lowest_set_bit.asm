; @name lowest_set_bit
; @description Isolate (x & -x) and clear (x & (x-1)) the lowest set bit of R1
; @init R1=0b101100
; @expect R0=0b100 R2=0b101000 R1=44 halted=1
;
; Two classic two's-complement identities:
;   -x = ~x + 1 flips every bit above the lowest set bit, so x & -x keeps it;
;   x - 1 flips that bit and the zeros below it, so x & (x-1) drops it.

        NEG R0, R1
        AND R0, R0, R1      ; R0 = lowest set bit alone
        SUB R2, R1, 1
        AND R2, R2, R1      ; R2 = x with its lowest set bit cleared
        HALT
