; @name array_max
; @description R0 = largest of R2 signed words at 8, R4 = its index (the first, on ties)
; @init R2=10
; @mem-size 32
; @mem 8: 12 -5 7 100 -33 0 8 19 -2 44
; @expect R0=100 R4=3 halted=1
;
; Start with element 0 as the champion; each later element must beat it
; strictly (JG), so ties keep the earlier index.

        LOAD R0, [R7+8]     ; R7 starts at 0: the champion is element 0
        MOV R4, 0
        MOV R1, 1           ; next index to look at
loop:   CMP R1, R2
        JGE done
        LOAD R3, [R1+8]
        CMP R3, R0
        JLE not_bigger
        MOV R0, R3          ; a new maximum
        MOV R4, R1
not_bigger:
        INC R1
        JMP loop
done:   HALT
