; @name xorshift32
; @description Marsaglia's xorshift32 PRNG: five outputs from seed 2463534242 into memory at 0
; @init R0=2463534242
; @mem-size 16
; @expect-mem 0: 723471715 -1797600390 2064144800 2008045182 -762662687
; @expect R0=-762662687 R1=5 halted=1
;
; x ^= x << 13; x ^= x >> 17; x ^= x << 5. The right shift must be logical
; (SHR): an arithmetic one would drag the sign bit in. 723471715 is the
; first output Marsaglia's paper lists for this seed. Words print signed.

        MOV R1, 0           ; outputs written
next:   SHL R2, R0, 13
        XOR R0, R0, R2
        SHR R2, R0, 17
        XOR R0, R0, R2
        SHL R2, R0, 5
        XOR R0, R0, R2
        STORE R0, [R1]
        INC R1
        CMP R1, 5
        JLT next
        HALT
