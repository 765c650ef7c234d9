; @name parity
; @description Parity of a word by folding halves with XOR: R0 = popcount(R1) mod 2
; @init R1=0x12345678
; @expect R0=1 R1=0x12345678 halted=1
;
; XOR of the two halves keeps the parity of the whole, so five folds bring
; the parity of all 32 bits into bit 0. SHR (logical) keeps the sign bit
; from smearing into the folds. 0x12345678 has 13 set bits: odd.

        MOV R0, R1
        SHR R2, R0, 16
        XOR R0, R0, R2      ; bits 0..15 now carry the parity of all 32
        SHR R2, R0, 8
        XOR R0, R0, R2
        SHR R2, R0, 4
        XOR R0, R0, R2
        SHR R2, R0, 2
        XOR R0, R0, R2
        SHR R2, R0, 1
        XOR R0, R0, R2
        AND R0, R0, 1       ; the answer is bit 0
        HALT
