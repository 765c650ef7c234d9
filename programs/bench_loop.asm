; @name bench_loop
; @description A long, branchy loop for timing engines: R0 = iteration count
; @init R0=25000000
; @max-steps 1000000000
; @expect R0=0 R1=-761532352 R2=0x9E37 R3=1 N=0 Z=1 C=1 V=0 halted=1 steps=150000005
; @test-init R0=1000
; @test-expect R1=155378168 steps=6005
;
; Counts i = R0 down to 1. Odd i: R1 = R1 * 0x9E37 + i (a multiplicative
; hash step); even i: R1 = R1 ^ i. The branch goes a different way on every
; pass, so a predictor-free engine pays for it; the multiply keeps the
; arithmetic honest. Steps: 4 setup + 7 per odd i + 5 per even i + HALT,
; i.e. 6*R0 + 5 when R0 is even (150,000,005 for the default 25,000,000).

        MOV R1, 0
        MOV R2, 0x9E37      ; the hash multiplier
        CMP R0, 0
        JLE done            ; nothing to do for R0 <= 0
loop:   AND R3, R0, 1       ; low bit of i: odd or even?
        JZ even
        MUL R1, R1, R2      ; odd: hash step
        ADD R1, R1, R0
        JMP next
even:   XOR R1, R1, R0      ; even: fold i in
next:   DEC R0
        JNZ loop
done:   HALT
