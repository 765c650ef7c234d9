; @name stack_reverse
; @description Reverse 6 words at address 0 through the stack with PUSH and POP
; @mem-size 16
; @mem 0: 10 20 30 40 50 60
; @expect-mem 0: 60 50 40 30 20 10
; @expect-mem 10: 60 50 40 30 20 10
; @expect sp=0 halted=1
;
; The stack is last in, first out, so pushing in order and popping in order
; reverses. sp starts at 0 and the first PUSH wraps it to the top of memory
; (15); six pushes use 15 down to 10. POP does not erase, so the stack's old
; contents are still visible at 10..15 afterwards.

        MOV R1, 0
        MOV R2, 6
push_all:
        LOAD R3, [R1]
        PUSH R3
        INC R1
        CMP R1, R2
        JL push_all
        MOV R1, 0
pop_all:
        POP R3
        STORE R3, [R1]
        INC R1
        CMP R1, R2
        JL pop_all
        HALT
