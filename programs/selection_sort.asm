; @name selection_sort
; @description Selection sort (signed, ascending) of R1 words at address 16
; @init R1=8
; @mem-size 64
; @mem 16: 64 25 12 22 11 -1 90 0
; @expect-mem 16: -1 0 11 12 22 25 64 90
; @expect R1=8 halted=1
;
; For each position i, find the smallest element of a[i..n) and swap it
; into place: at most n-1 swaps, which matters when writes are expensive.
; The array lives at 16; indices are kept 0-based and the base is folded
; into each LOAD/STORE offset.

        MOV R2, 0           ; i
outer:  SUB R6, R1, 1
        CMP R2, R6
        JGE done            ; the last element is in place by elimination
        MOV R3, R2          ; index of the smallest so far
        ADD R4, R2, 1       ; j
scan:   CMP R4, R1
        JGE swap
        LOAD R5, [R4+16]
        LOAD R6, [R3+16]
        CMP R5, R6
        JGE not_smaller
        MOV R3, R4          ; a new minimum
not_smaller:
        INC R4
        JMP scan
swap:   LOAD R5, [R2+16]
        LOAD R6, [R3+16]
        STORE R6, [R2+16]
        STORE R5, [R3+16]
        INC R2
        JMP outer
done:   HALT
