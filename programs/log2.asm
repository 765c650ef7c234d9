; @name log2
; @description R0 = floor(log2(R1)) for R1 as unsigned; -1 for zero
; @init R1=1000000
; @expect R0=19 R2=0 halted=1
;
; The index of the highest set bit: count how many logical shifts it takes
; to empty the word. 2**19 = 524288 <= 1000000 < 2**20.

        MOV R0, -1
        MOV R2, R1
loop:   CMP R2, 0
        JZ done
        INC R0
        SHR R2, R2, 1
        JMP loop
done:   HALT
