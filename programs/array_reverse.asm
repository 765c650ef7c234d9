; @name array_reverse
; @description Reverse R1 words at address 0 in place, swapping from both ends
; @init R1=7
; @mem-size 16
; @mem 0: 1 2 3 4 5 6 7
; @expect-mem 0: 7 6 5 4 3 2 1 0
; @expect halted=1
;
; Two pointers walk towards each other; with an odd length the middle
; element stays where it is.

        MOV R2, 0           ; left
        SUB R3, R1, 1       ; right
loop:   CMP R2, R3
        JGE done            ; pointers met or crossed
        LOAD R4, [R2]
        LOAD R5, [R3]
        STORE R5, [R2]
        STORE R4, [R3]
        INC R2
        DEC R3
        JMP loop
done:   HALT
