; @name binary_search
; @description Binary search in R2 sorted words at 0: 68 is at index 11 (R6), 50 is absent (R7)
; @init R2=16
; @mem-size 32
; @mem 0: -40 -12 -5 0 3 8 15 21 33 47 52 68 71 80 95 101
; @expect R6=11 R7=-1 halted=1
;
; Keep the half-open range [lo, hi) that could hold the key and halve it
; each round: at most 5 probes for 16 words. mid = (lo + hi) >> 1 cannot
; overflow at these sizes.

        MOV R1, 68
        CALL bsearch
        MOV R6, R0
        MOV R1, 50
        CALL bsearch
        MOV R7, R0
        HALT

; bsearch: R0 = index of R1 in mem[0..R2), or -1. Clobbers R3-R5.
bsearch:
        MOV R3, 0           ; lo
        MOV R4, R2          ; hi (exclusive)
probe:  CMP R3, R4
        JGE missing         ; empty range
        ADD R5, R3, R4
        SHR R5, R5, 1       ; mid
        LOAD R0, [R5]
        CMP R0, R1
        JEQ found
        JL go_right         ; mem[mid] < key: look above mid
        MOV R4, R5          ; mem[mid] > key: look below mid
        JMP probe
go_right:
        ADD R3, R5, 1
        JMP probe
found:  MOV R0, R5
        RET
missing:
        MOV R0, -1
        RET
