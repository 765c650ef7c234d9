; @name screen_hello
; @description Writes "Hello, nCPU!" on the text screen a character at a time, moving the cursor, then counts 00..99 on the next line
; @mem 0: 72 101 108 108 111 44 32 110 67 80 85 33 0
; @expect R0=100 R1=12 R2=54 halted=1
;
; The screen (see docs/display.md): 40 x 12 character cells at memory words
; 256..735, row by row; word 736 holds the cursor's cell index. R6 stays 0
; and serves as the base register of the screen stores.

        MOV R1, 0           ; message pointer (the text is at word 0)
        MOV R2, 42          ; cell index: row 1, column 2
msg:    LOAD R3, [R1]
        CMP R3, 0
        JZ count
        STORE R3, [R2+256]
        INC R1
        INC R2
        STORE R2, [R6+736]  ; the cursor follows the text
        JMP msg
count:  MOV R0, 0
        MOV R5, 10
        MOV R7, 84          ; cursor: row 2, column 4
        STORE R7, [R6+736]
next:   DIV R3, R0, R5      ; tens digit
        MOD R4, R0, R5      ; units digit
        ADD R3, R3, 48      ; '0'
        ADD R4, R4, 48
        STORE R3, [R6+338]  ; row 2, column 2
        STORE R4, [R6+339]
        INC R0
        CMP R0, 100
        JL next
        HALT
