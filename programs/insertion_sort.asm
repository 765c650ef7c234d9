; @name insertion_sort
; @description Insertion sort (signed, ascending) of R1 words at address 0
; @init R1=10
; @mem-size 32
; @mem 0: 31 -4 15 9 0 -4 100 7 2 -50
; @expect-mem 0: -50 -4 -4 0 2 7 9 15 31 100
; @expect R1=10 R2=10 halted=1
;
; a[0..i) is sorted; take key = a[i] and shift the larger elements of the
; sorted part one place right until the key's slot opens. Equal keys are
; not moved past each other (the test is a[j] > key), so the sort is stable.

        MOV R2, 1           ; i
outer:  CMP R2, R1
        JGE done
        LOAD R3, [R2]       ; key
        SUB R4, R2, 1       ; j
shift:  CMP R4, 0
        JL place            ; ran off the front
        LOAD R5, [R4]
        CMP R5, R3
        JLE place           ; a[j] <= key: the key goes after it
        STORE R5, [R4+1]    ; move a[j] up one
        DEC R4
        JMP shift
place:  STORE R3, [R4+1]
        INC R2
        JMP outer
done:   HALT
