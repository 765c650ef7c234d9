; @name xor_swap
; @description Swap two registers without a third, by XOR, then swap back through the stack
; @init R1=0x1234 R2=-77
; @expect R1=-77 R2=0x1234 R3=0x1234 R4=-77 sp=0 halted=1 steps=10
;
; a ^= b; b ^= a; a ^= b exchanges a and b because x ^ x = 0. The stack
; gives another way: push both, pop in the same order.

        XOR R1, R1, R2
        XOR R2, R2, R1      ; R2 = original R1
        XOR R1, R1, R2      ; R1 = original R2
        MOV R3, R1          ; copy, then swap the copies the other way
        MOV R4, R2
        PUSH R3
        PUSH R4
        POP R3              ; R3 = R4's value
        POP R4              ; R4 = R3's value
        HALT
