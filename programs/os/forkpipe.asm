; @name forkpipe
; @description a pipe and a fork: the child writes "ping\n" three times into the pipe (slowly) and exits 7; the parent relays the pipe to stdout until the end of input, waits for the child and exits with the child's status plus the bytes relayed (22)
        MOV  R0, 7            ; pipe(fds at 50: read end, 51: write end)
        MOV  R1, 50
        SYS
        MOV  R0, 4            ; fork
        SYS
        JZ   child
        MOV  R6, R0           ; parent: the child's pid
        MOV  R7, 0
        LOAD R1, [R7+51]      ; close our write end, so the pipe can end
        MOV  R0, 9
        SYS
        MOV  R5, 0            ; bytes relayed
relay:  MOV  R7, 0
        LOAD R1, [R7+50]
        MOV  R0, 2            ; read(pipe, 100, 16): blocks while the pipe is empty
        MOV  R2, 100
        MOV  R3, 16
        SYS
        JZ   drained
        ADD  R5, R5, R0
        MOV  R3, R0           ; write(stdout, 100, what came)
        MOV  R0, 1
        MOV  R1, 1
        MOV  R2, 100
        SYS
        JMP  relay
drained: MOV R0, 5            ; wait(child, status at 60)
        MOV  R1, R6
        MOV  R2, 60
        SYS
        MOV  R7, 0
        LOAD R1, [R7+60]
        ADD  R1, R1, R5
        MOV  R0, 0            ; exit(child's status + bytes)
        SYS
child:  MOV  R7, 0
        LOAD R1, [R7+50]      ; close the read end
        MOV  R0, 9
        SYS
        MOV  R2, 200          ; "ping\n" at 200
        MOV  R1, 112
        STORE R1, [R2+0]
        MOV  R1, 105
        STORE R1, [R2+1]
        MOV  R1, 110
        STORE R1, [R2+2]
        MOV  R1, 103
        STORE R1, [R2+3]
        MOV  R1, 10
        STORE R1, [R2+4]
        MOV  R4, 3
again:  MOV  R7, 0
        LOAD R1, [R7+51]
        MOV  R0, 1            ; write(pipe, 200, 5)
        MOV  R2, 200
        MOV  R3, 5
        SYS
        MOV  R6, 300          ; work a while, so the parent finds the pipe empty
spin:   DEC  R6
        JNZ  spin
        DEC  R4
        JNZ  again
        MOV  R0, 0            ; exit(7)
        MOV  R1, 7
        SYS
