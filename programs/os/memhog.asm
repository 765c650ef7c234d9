; @name memhog
; @description writes i at word 64*i+5 of a 4,096-word address space (one word on each of 64 pages), sums them back and exits with the sum (2016): 63 page faults
; @mem-size 4096
        MOV  R1, 0
        MOV  R2, 5
fill:   STORE R1, [R2+0]
        ADD  R2, R2, 64
        INC  R1
        CMP  R1, 64
        JL   fill
        MOV  R1, 0
        MOV  R2, 5
        MOV  R5, 0
sum:    LOAD R3, [R2+0]
        ADD  R5, R5, R3
        ADD  R2, R2, 64
        INC  R1
        CMP  R1, 64
        JL   sum
        MOV  R0, 0            ; exit(sum)
        MOV  R1, R5
        SYS
