; @name isqrt_bisection
; @description Integer square root by bisection: R0 = floor(sqrt(R1)), R1 >= 0
; @init R1=2147483647
; @expect R0=46340 R1=0x7FFFFFFF halted=1
;
; Invariant lo*lo <= n < hi*hi. hi starts at 46341, whose square already
; exceeds the largest signed word, so every mid*mid below it fits in 31
; bits and the signed compare is safe. 46340**2 = 2147395600.

        MOV R2, 0           ; lo
        MOV R3, 46341       ; hi
loop:   SUB R4, R3, R2
        CMP R4, 1
        JLE done            ; hi = lo + 1: lo is the root
        ADD R5, R2, R3
        SHR R5, R5, 1       ; mid
        MUL R6, R5, R5
        CMP R6, R1
        JG too_big
        MOV R2, R5          ; mid*mid <= n: the root is at least mid
        JMP loop
too_big:
        MOV R3, R5
        JMP loop
done:   MOV R0, R2
        HALT
