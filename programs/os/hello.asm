; @name hello
; @description writes "Hello, nCPU!\n" with the write system call, then exits with status 0
        MOV  R2, 200          ; the buffer: one byte per word from address 200
        MOV  R1, 72           ; H
        STORE R1, [R2+0]
        MOV  R1, 101          ; e
        STORE R1, [R2+1]
        MOV  R1, 108          ; l
        STORE R1, [R2+2]
        STORE R1, [R2+3]
        MOV  R1, 111          ; o
        STORE R1, [R2+4]
        MOV  R1, 44           ; ,
        STORE R1, [R2+5]
        MOV  R1, 32           ; space
        STORE R1, [R2+6]
        MOV  R1, 110          ; n
        STORE R1, [R2+7]
        MOV  R1, 67           ; C
        STORE R1, [R2+8]
        MOV  R1, 80           ; P
        STORE R1, [R2+9]
        MOV  R1, 85           ; U
        STORE R1, [R2+10]
        MOV  R1, 33           ; !
        STORE R1, [R2+11]
        MOV  R1, 10           ; newline
        STORE R1, [R2+12]
        MOV  R0, 1            ; write(stdout, 200, 13)
        MOV  R1, 1
        MOV  R3, 13
        SYS
        MOV  R0, 0            ; exit(0)
        MOV  R1, 0
        SYS
