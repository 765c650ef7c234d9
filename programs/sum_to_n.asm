; @name sum_to_n
; @description Sum of 1..n by a count-down loop: R0 = n(n+1)/2 for n in R1 (n >= 1)
; @init R1=100
; @expect R0=5050 R1=0 Z=1 halted=1 steps=302
;
; Adding n, n-1, ..., 1 and stopping when the counter reaches zero saves a
; compare: DEC sets Z itself. Steps: 1 + 3 per term + HALT.

        MOV R0, 0
loop:   ADD R0, R0, R1      ; running total += counter
        DEC R1
        JNZ loop            ; DEC set Z when the counter hit zero
        HALT
