; @name array_sum
; @description R0 = sum of R2 signed words starting at address R1
; @init R1=8 R2=10
; @mem-size 32
; @mem 8: 12 -5 7 100 -33 0 8 19 -2 44
; @expect R0=150 R2=0 halted=1
;
; Walk a pointer instead of an index: LOAD [R1] then INC R1.

        MOV R0, 0
loop:   CMP R2, 0
        JZ done
        LOAD R3, [R1]
        ADD R0, R0, R3
        INC R1              ; next word
        DEC R2
        JMP loop
done:   HALT
