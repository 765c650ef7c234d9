; @name palindrome
; @description Is a string of words (one character code each) a palindrome? "racecar" -> R6=1, "nCPU" -> R7=0
; @mem-size 32
; @mem 0: 114 97 99 101 99 97 114
; @mem 16: 110 67 80 85
; @expect R6=1 R7=0 halted=1
;
; Strings here are arrays of words, one character code per word. The test
; compares the ends and walks inwards; the first mismatch answers no.

        MOV R1, 0           ; "racecar" at 0, 7 characters
        MOV R2, 7
        CALL is_palindrome
        MOV R6, R0
        MOV R1, 16          ; "nCPU" at 16, 4 characters
        MOV R2, 4
        CALL is_palindrome
        MOV R7, R0
        HALT

; is_palindrome: R0 = 1 if the R2 words at R1 read the same both ways, else 0.
; Clobbers R3-R5.
is_palindrome:
        MOV R0, 1
        ADD R3, R1, R2
        SUB R3, R3, 1       ; address of the last character
compare:
        CMP R1, R3
        JGE yes             ; the ends met: every pair matched
        LOAD R4, [R1]
        LOAD R5, [R3]
        CMP R4, R5
        JNE no
        INC R1
        DEC R3
        JMP compare
no:     MOV R0, 0
yes:    RET
