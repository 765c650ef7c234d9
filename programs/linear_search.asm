; @name linear_search
; @description Find the first index of a key among R2 words at 0: found (R6) and missing (R7)
; @init R2=10
; @mem-size 32
; @mem 0: 7 13 -2 42 8 42 0 5 1 9
; @expect R6=3 R7=-1 halted=1
;
; A subroutine searched twice: once for 42 (first seen at index 3, though
; it occurs again at 5) and once for 99, which is absent.

        MOV R1, 42
        CALL find
        MOV R6, R0
        MOV R1, 99
        CALL find
        MOV R7, R0
        HALT

; find: R0 = first i < R2 with mem[i] == R1, else -1. Clobbers R3.
find:   MOV R0, 0
next:   CMP R0, R2
        JGE absent
        LOAD R3, [R0]
        CMP R3, R1
        JEQ found
        INC R0
        JMP next
absent: MOV R0, -1
found:  RET
