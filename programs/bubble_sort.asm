; @name bubble_sort
; @description Bubble sort (signed, ascending) of R1 words at address 0, stopping early once sorted
; @init R1=8
; @mem-size 64
; @mem 0: 5 -3 8 1 0 12 -7 4
; @expect-mem 0: -7 -3 0 1 4 5 8 12
; @expect R1=8 halted=1
;
; Each pass swaps neighbours that are out of order, which carries the
; largest remaining value to the end; the next pass can stop one earlier.
; A pass with no swaps proves the array sorted.
;
; Note the explicit CMP before JLE: DEC sets N and Z but leaves V as the
; last CMP left it, and the signed conditions read V.

        MOV R2, R1          ; R2 = one past the last index still unsorted
outer:  DEC R2
        CMP R2, 0
        JLE done            ; one element left: sorted
        MOV R3, 0           ; i
        MOV R6, 0           ; swaps in this pass
inner:  LOAD R4, [R3]
        LOAD R5, [R3+1]
        CMP R4, R5
        JLE in_order
        STORE R5, [R3]      ; a[i] > a[i+1]: swap them
        STORE R4, [R3+1]
        MOV R6, 1
in_order:
        INC R3
        CMP R3, R2
        JL inner
        CMP R6, 0
        JNZ outer           ; something moved: another pass
done:   HALT
