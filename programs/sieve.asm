; @name sieve
; @description Sieve of Eratosthenes over 0..R1-1 in memory; primes listed from address 64
; @init R1=50
; @mem-size 128
; @expect R0=15 halted=1
; @expect-mem 0: 0 0 0 0 1 0 1 0 1 1 1 0 1 0 1 1
; @expect-mem 64: 2 3 5 7 11 13 17 19 23 29 31 37 41 43 47 0
;
; mem[i] becomes 1 once i is known to be composite. Each prime p crosses out
; p*p, p*p+p, ... (smaller multiples were crossed out by smaller primes), and
; only p with p*p < N need to cross anything. Then a scan copies the
; survivors (from 2 up) into a list at 64 and counts them in R0.

        MOV R2, 2           ; p
outer:  MUL R3, R2, R2
        CMP R3, R1
        JGE collect         ; p*p >= N: the sieve is complete
        LOAD R4, [R2]
        CMP R4, 0
        JNZ next_p          ; p was crossed out: not a prime
        MOV R4, 1
cross:  STORE R4, [R3]      ; mark the multiple as composite
        ADD R3, R3, R2
        CMP R3, R1
        JL cross
next_p: INC R2
        JMP outer

collect:
        MOV R0, 0           ; primes written so far
        MOV R2, 2
scan:   LOAD R4, [R2]
        CMP R4, 0
        JNZ skip
        STORE R2, [R0+64]   ; a survivor: append it to the list
        INC R0
skip:   INC R2
        CMP R2, R1
        JL scan
        HALT
