; @name reverse_bits
; @description Reverse the 32 bits of R1 into R0
; @init R1=0x12345678
; @expect R0=0x1E6A2C48 R1=0 R3=0 halted=1
;
; Shift bits out of the bottom of R1 and into the bottom of R0; after 32
; rounds the first bit out is the top bit in. SHR is logical, so R1 drains
; to zero whatever its sign.

        MOV R0, 0
        MOV R3, 32          ; rounds left
loop:   SHL R0, R0, 1       ; make room at the bottom of the result
        AND R2, R1, 1       ; next bit from the bottom of the input
        OR R0, R0, R2
        SHR R1, R1, 1
        DEC R3
        JNZ loop
        HALT
