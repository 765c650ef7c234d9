; @name fibonacci
; @description Iterative Fibonacci: R0 = fib(n) for n in R1, with fib(0)=0, fib(1)=1
; @init R1=30
; @expect R0=832040 R1=0 R2=1346269 pc=9 halted=1 steps=215
;
; The README's first example. Two registers walk along the sequence:
; R0 holds fib(k) and R2 holds fib(k+1); each pass of the loop moves k on
; by one, so after n passes R0 = fib(n).
; Steps: 2 setup + 7 per pass + 2 for the last test + HALT = 2 + 7*30 + 3.

        MOV R0, 0           ; fib(0)
        MOV R2, 1           ; fib(1)
loop:   CMP R1, 0
        JZ done             ; n passes made: R0 = fib(n)
        ADD R3, R0, R2      ; fib(k+2) = fib(k) + fib(k+1)
        MOV R0, R2
        MOV R2, R3
        DEC R1
        JMP loop
done:   HALT
