; @name wide_constants
; @description MOV of any 32-bit constant: one MOVI word when it fits 21 signed bits, else MOVI + MOVT
; @expect R0=0xDEADBEEF R1=-2147483648 R2=1048575 R3=1048576 R4=0xFFFF1234 R5=-1048576 halted=1 steps=11
;
; MOVI carries 21 signed bits (-1048576 .. 1048575). Wider values take a
; second word: MOVI sets the low half, MOVT the high half. The step count
; shows it: three two-word MOVs (R0, R1, R3), one-word MOVs for R2 and R5,
; MOVI + MOVT by hand for R4, and HALT: 3*2 + 2 + 2 + 1 = 11.

        MOV R0, 0xDEADBEEF      ; two words
        mov r1, -0x80000000     ; two words
        MOV R2, 0xFFFFF         ; 1048575: the largest one-word value
        MOV R3, 0x100000        ; 1048576: one too many, two words
        MOV R4, 0x1234          ; by hand: low half ...
        MOVT R4, 0xFFFF         ; ... then high half
        MOV R5, -1048576        ; the smallest one-word value
        HALT
