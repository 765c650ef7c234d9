; @name ackermann
; @description Ackermann's function by recursion: A(2,3) = 9 in R6, A(3,3) = 61 in R7
; @expect R6=9 R7=61 sp=0 halted=1
;
; A(0, n) = n + 1
; A(m, 0) = A(m - 1, 1)
; A(m, n) = A(m - 1, A(m, n - 1))
; Not primitive recursive: it grows faster than any loop nest. The routine
; keeps m (R0) intact for its caller, so only the outer m must be saved
; around the inner call.

        MOV R0, 2
        MOV R1, 3
        CALL ack
        MOV R6, R1
        MOV R0, 3
        MOV R1, 3
        CALL ack
        MOV R7, R1
        HALT

; ack: R1 = A(R0, R1); R0 is preserved.
ack:    CMP R0, 0
        JNZ m_positive
        INC R1              ; A(0, n) = n + 1
        RET
m_positive:
        CMP R1, 0
        JNZ both_positive
        DEC R0
        MOV R1, 1
        CALL ack            ; A(m-1, 1)
        INC R0              ; give m back
        RET
both_positive:
        PUSH R0
        DEC R1
        CALL ack            ; R1 = A(m, n-1)
        POP R0
        DEC R0
        CALL ack            ; R1 = A(m-1, A(m, n-1))
        INC R0
        RET
