; @name files
; @description writes "abc" to the file "log", closes it, reads it back to stdout, then exits with its pid
        MOV  R2, 40           ; the name "log\0" at 40
        MOV  R1, 108
        STORE R1, [R2+0]
        MOV  R1, 111
        STORE R1, [R2+1]
        MOV  R1, 103
        STORE R1, [R2+2]
        MOV  R1, 0
        STORE R1, [R2+3]
        MOV  R2, 100          ; "abc" at 100
        MOV  R1, 97
        STORE R1, [R2+0]
        MOV  R1, 98
        STORE R1, [R2+1]
        MOV  R1, 99
        STORE R1, [R2+2]
        MOV  R0, 8            ; open("log", write)
        MOV  R1, 40
        MOV  R2, 1
        SYS
        MOV  R4, R0
        MOV  R0, 1            ; write(fd, 100, 3)
        MOV  R1, R4
        MOV  R2, 100
        MOV  R3, 3
        SYS
        MOV  R0, 9            ; close(fd)
        MOV  R1, R4
        SYS
        MOV  R0, 8            ; open("log", read)
        MOV  R1, 40
        MOV  R2, 0
        SYS
        MOV  R4, R0
        MOV  R0, 2            ; read(fd, 300, 10): 3
        MOV  R1, R4
        MOV  R2, 300
        MOV  R3, 10
        SYS
        MOV  R3, R0           ; write(stdout, 300, 3)
        MOV  R0, 1
        MOV  R1, 1
        MOV  R2, 300
        SYS
        MOV  R0, 6            ; getpid
        SYS
        MOV  R1, R0           ; exit(pid)
        MOV  R0, 0
        SYS
