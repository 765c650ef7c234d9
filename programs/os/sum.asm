; @name sum
; @description sums 1..2000, sleeps two ticks, prints the sum (2001000) in decimal and exits 0
        MOV  R4, 2000
        MOV  R5, 0
loop:   ADD  R5, R5, R4
        DEC  R4
        JNZ  loop
        MOV  R0, 3            ; sleep(2)
        MOV  R1, 2
        SYS
        MOV  R6, 120          ; digits are written downward from 119; "\n" at 120
        MOV  R3, 10
        STORE R3, [R6+0]
        MOV  R4, 1            ; length so far
digit:  MOD  R1, R5, R3
        ADD  R1, R1, 48
        DEC  R6
        STORE R1, [R6+0]
        INC  R4
        DIV  R5, R5, R3
        JNZ  digit
        MOV  R0, 1            ; write(stdout, R6, R4)
        MOV  R1, 1
        MOV  R2, R6
        MOV  R3, R4
        SYS
        MOV  R0, 0
        MOV  R1, 0
        SYS
