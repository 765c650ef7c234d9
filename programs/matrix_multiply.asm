; @name matrix_multiply
; @description C = A * B for 3x3 row-major matrices: A at 0, B at 16, C at 32
; @mem-size 64
; @mem 0: 1 2 3 4 5 6 7 8 9
; @mem 16: -1 0 2 3 1 -2 0 4 1
; @expect-mem 32: 5 14 1 11 29 4 17 44 7
; @expect halted=1
;
; C[i][j] = sum over k of A[i][k] * B[k][j]; element (r, c) of a 3x3
; row-major matrix lives at base + 3r + c.

        MOV R7, 3           ; the dimension
        MOV R1, 0           ; i
row:    MOV R2, 0           ; j
column: MOV R0, 0           ; the dot product
        MOV R3, 0           ; k
dot:    MUL R4, R1, R7
        ADD R4, R4, R3      ; 3i + k
        LOAD R5, [R4]       ; A[i][k]
        MUL R4, R3, R7
        ADD R4, R4, R2      ; 3k + j
        LOAD R6, [R4+16]    ; B[k][j]
        MUL R5, R5, R6
        ADD R0, R0, R5
        INC R3
        CMP R3, R7
        JLT dot
        MUL R4, R1, R7
        ADD R4, R4, R2      ; 3i + j
        STORE R0, [R4+32]
        INC R2
        CMP R2, R7
        JLT column
        INC R1
        CMP R1, R7
        JLT row
        HALT
