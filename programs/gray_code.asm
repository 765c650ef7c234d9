; @name gray_code
; @description Binary to Gray code (R0) and back again (R2)
; @init R1=0b1011011
; @expect R0=0b1110110 R2=0b1011011 halted=1 steps=12
;
; Gray code: g = x ^ (x >> 1), so consecutive numbers differ in one bit.
; Decoding is a prefix XOR from the top bit down; doing it in doubling
; strides (1, 2, 4, 8, 16) takes five shifts for a 32-bit word.

        SHR R0, R1, 1
        XOR R0, R0, R1      ; encode
        MOV R2, R0          ; decode: x = g ^ g>>1 ^ g>>2 ^ ...
        SHR R3, R2, 1
        XOR R2, R2, R3
        SHR R3, R2, 2
        XOR R2, R2, R3
        SHR R3, R2, 4
        XOR R2, R2, R3
        SHR R3, R2, 8
        XOR R2, R2, R3
        HALT                ; (a 16 stride would also be needed above 2**16)
