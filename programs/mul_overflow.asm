; @name mul_overflow
; @description Arithmetic wraps modulo 2**32: products and sums that do not fit
; @expect R0=0 R1=-2147483648 R2=1932053504 R3=-2147479015 R4=-2147483648 R5=13
; @expect N=1 Z=0 C=0 V=1 halted=1
;
; Registers are 32-bit two's complement and every operation keeps the low
; 32 bits: no traps, no saturation.
;   65536 * 65536 = 2**32          -> 0
;   0x7FFFFFFF + 1                 -> -2**31 (INT_MIN)
;   13! = 6227020800               -> 6227020800 - 2**32 = 1932053504
;   46341 * 46341 = 2147488281     -> just past INT_MAX: -2147479015
;   INT_MIN * -1                   -> INT_MIN again (its negation does not fit)
; Finally CMP INT_MAX, -1 computes INT_MAX + 1: signed overflow, so V=1, and
; the wrapped result is negative (N=1). C=0: as unsigned, INT_MAX is below
; 0xFFFFFFFF, so the subtraction borrows.

        MOV R0, 65536
        MUL R0, R0, R0
        MOV R1, 0x7FFFFFFF
        ADD R1, R1, 1
        MOV R2, 1           ; 13! by a loop, R5 counting 1..13
        MOV R5, 1
fact:   MUL R2, R2, R5
        INC R5
        CMP R5, 13
        JLE fact
        DEC R5              ; back to 13, the last factor used
        MOV R3, 46341
        MUL R3, R3, R3
        MOV R6, -1
        MUL R4, R1, R6
        MOV R7, 0x7FFFFFFF
        CMP R7, R6
        HALT
