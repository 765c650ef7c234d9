; @name primes_trial_division
; @description Count the primes below R1 by trial division; R5 = the largest one
; @init R1=100
; @expect R0=25 R5=97 R2=100 halted=1
;
; A candidate n is prime when no d with d*d <= n divides it. Checking up to
; the square root suffices: a factor above it pairs with one below.

        MOV R0, 0           ; primes found
        MOV R2, 2           ; candidate n
candidate:
        CMP R2, R1
        JGE done
        MOV R3, 2           ; trial divisor d
try:    MUL R4, R3, R3
        CMP R4, R2
        JG prime            ; d*d > n: no divisor, n is prime
        MOD R4, R2, R3
        JZ composite        ; MOD set Z: d divides n
        INC R3
        JMP try
prime:  INC R0
        MOV R5, R2          ; largest prime so far
composite:
        INC R2
        JMP candidate
done:   HALT
