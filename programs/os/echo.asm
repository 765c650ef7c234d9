; @name echo
; @description copies stdin to stdout, 8 bytes at a time, until the end of input; exits with the byte count
        MOV  R5, 0            ; bytes copied
loop:   MOV  R0, 2            ; read(stdin, 100, 8)
        MOV  R1, 0
        MOV  R2, 100
        MOV  R3, 8
        SYS
        JZ   done             ; 0 words read: end of input
        ADD  R5, R5, R0
        MOV  R3, R0           ; write(stdout, 100, what was read)
        MOV  R0, 1
        MOV  R1, 1
        SYS
        JMP  loop
done:   MOV  R0, 0            ; exit(bytes copied)
        MOV  R1, R5
        SYS
