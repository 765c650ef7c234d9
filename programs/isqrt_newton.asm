; @name isqrt_newton
; @description Integer square root by Newton's method: R0 = floor(sqrt(R1))
; @init R1=123456789
; @expect R0=11111 R1=123456789 halted=1
;
; Start from x = n and iterate y = (x + n/x) / 2 while it keeps falling;
; the first y >= x means x = floor(sqrt(n)). The sum x + n/x can reach
; 2**31, so the halving is a logical shift (SHR), which reads it unsigned.

        CMP R1, 2
        JL small            ; isqrt(0) = 0, isqrt(1) = 1
        MOV R0, R1          ; x = n
        ADD R2, R0, 1
        SHR R2, R2, 1       ; y = (x + 1) / 2
loop:   CMP R2, R0
        JGE done            ; no longer decreasing: x is the answer
        MOV R0, R2
        DIV R3, R1, R0
        ADD R2, R0, R3
        SHR R2, R2, 1       ; y = (x + n/x) / 2
        JMP loop
small:  MOV R0, R1
done:   HALT
