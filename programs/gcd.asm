; @name gcd
; @description Euclid's algorithm by repeated MOD: R0 = gcd(R0, R1)
; @init R0=48 R1=18
; @expect R0=6 R1=0 Z=1 pc=6 halted=1 steps=21
;
; gcd(a, b) = gcd(b, a mod b), and gcd(a, 0) = a. For 48 and 18 the pairs
; are (48,18) (18,12) (12,6) (6,0): three passes of six instructions, plus
; the final test (2) and HALT: 21 steps.

loop:   CMP R1, 0
        JZ done
        MOD R2, R0, R1
        MOV R0, R1
        MOV R1, R2
        JMP loop
done:   HALT
