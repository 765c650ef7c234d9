; @name is_power_of_two
; @description For each word at 0..7, write 1 at 16+i if it is a power of two (as unsigned)
; @mem-size 32
; @mem 0: 1 2 3 64 96 4096 0 0x80000000
; @expect-mem 16: 1 1 0 1 0 1 0 1
; @expect R1=8 halted=1
;
; x is a power of two when exactly one bit is set: x != 0 and
; x & (x - 1) == 0. 0x80000000 is negative as a signed word but is 2**31
; as an unsigned one, and the bit test does not care about signs.

        MOV R1, 0           ; index
next:   LOAD R2, [R1]
        MOV R0, 0           ; answer, assumed no
        CMP R2, 0
        JZ save             ; zero has no set bit
        SUB R3, R2, 1
        AND R3, R3, R2      ; sets Z when at most one bit was set
        JNZ save
        MOV R0, 1
save:   STORE R0, [R1+16]
        INC R1
        CMP R1, 8
        JL next
        HALT
