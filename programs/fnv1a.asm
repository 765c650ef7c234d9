; @name fnv1a
; @description 32-bit FNV-1a over R2 words at address R1 (one word per step): R0 = hash
; @init R1=0 R2=8
; @mem-size 16
; @mem 0: 1 2 3 0x41424344 -1 0 7 0x12345678
; @expect R0=0x8588E2D5 R2=0 halted=1
;
; FNV-1a: h = offset basis; for each item, h ^= item; h *= prime (mod 2**32).
; Classic FNV feeds bytes; here each whole word is one item, so the result
; is FNV-style rather than the byte-wise standard value. MUL keeps the low
; 32 bits, which is exactly the modulus FNV wants. Both constants need more
; than 21 bits, so MOV assembles each as MOVI + MOVT.

        MOV R0, 0x811C9DC5  ; offset basis 2166136261
        MOV R3, 0x01000193  ; FNV prime 16777619
loop:   CMP R2, 0
        JZ done
        LOAD R4, [R1]
        XOR R0, R0, R4
        MUL R0, R0, R3
        INC R1
        DEC R2
        JMP loop
done:   HALT
