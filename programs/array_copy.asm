; @name array_copy
; @description memcpy: copy R3 words from address R1 to address R2
; @init R1=0 R2=32 R3=8
; @mem-size 64
; @mem 0: 0xCAFE -1 2 0x7FFFFFFF -2147483648 0b1010 99 -99
; @expect-mem 32: 0xCAFE -1 2 0x7FFFFFFF -2147483648 10 99 -99
; @expect-mem 0: 51966 -1 2 2147483647 0x80000000 10 99 -99
; @expect R1=8 R2=40 R3=0 halted=1
;
; Two walking pointers and a count. The source is left untouched (the
; second @expect-mem spells the same words differently: 0x80000000 is the
; unsigned reading of -2147483648).

copy:   CMP R3, 0
        JEQ done
        LOAD R4, [R1]
        STORE R4, [R2]
        ADD R1, R1, 1
        ADD R2, R2, 1
        SUB R3, R3, 1
        JMP copy
done:   HALT
