; @name adler32
; @description Adler-32 checksum of "Wikipedia" stored one byte per word: R0 = 0x11E60398
; @init R1=0 R2=9
; @mem-size 16
; @mem 0: 87 105 107 105 112 101 100 105 97
; @expect R0=0x11E60398 R3=0x398 R4=0x11E6 halted=1
;
; a = 1 + sum of bytes, b = sum of the successive a's, both mod 65521 (the
; largest prime below 2**16); the checksum is b << 16 | a. The expected
; value is the textbook one (Wikipedia's own example), also what zlib gives.

        MOV R3, 1           ; a
        MOV R4, 0           ; b
        MOV R7, 65521
loop:   CMP R2, 0
        JZ done
        LOAD R5, [R1]
        ADD R3, R3, R5
        MOD R3, R3, R7
        ADD R4, R4, R3
        MOD R4, R4, R7
        INC R1
        DEC R2
        JMP loop
done:   SHL R0, R4, 16
        OR R0, R0, R3
        HALT
