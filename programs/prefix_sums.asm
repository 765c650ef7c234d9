; @name prefix_sums
; @description Running totals in place: a[i] = a[0] + ... + a[i] for R1 words at 0
; @init R1=10
; @mem-size 16
; @mem 0: 3 1 4 1 5 9 2 6 5 3
; @expect-mem 0: 3 4 8 9 14 23 25 31 36 39
; @expect R0=39 halted=1
;
; One pass, carrying the total in R0: each element becomes the sum so far.

        MOV R0, 0           ; running total
        MOV R2, 0           ; i
loop:   CMP R2, R1
        JGE done
        LOAD R3, [R2]
        ADD R0, R0, R3
        STORE R0, [R2]
        INC R2
        JMP loop
done:   HALT
