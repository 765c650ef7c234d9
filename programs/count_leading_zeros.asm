; @name count_leading_zeros
; @description R0 = number of leading zero bits of R1 (32 when R1 = 0)
; @init R1=0x00F00000
; @expect R0=8 halted=1
;
; Shift left until the top bit (the sign) is set. The sign flag N reports it
; for free after each shift, so the test is a single JS. A zero input never
; sets the sign: the counter's bound of 32 stops it.

        MOV R0, 0
        MOV R2, R1          ; work on a copy (also sets N from the input)
loop:   JS done             ; top bit set: no more leading zeros
        CMP R0, 32
        JZ done             ; all 32 bits were zero
        INC R0
        SHL R2, R2, 1       ; sets N from the new top bit
        JMP loop
done:   HALT
