; @name fibonacci_recursive
; @description fib(n) by the doubly recursive definition, with CALL/RET and the stack
; @init R0=15
; @expect R0=610 sp=0 halted=1
;
; fib(n) = fib(n-1) + fib(n-2): exponential, which is the point; it makes
; 2*fib(n+1)-1 = 1973 calls for n = 15. The argument and the result travel
; in R0; n, and then fib(n-1), wait on the stack across the inner calls.

        CALL fib
        HALT

; fib: R0 = fib(R0); clobbers R1.
fib:    CMP R0, 2
        JL base             ; fib(0) = 0, fib(1) = 1: n itself
        PUSH R0             ; keep n across the first call
        SUB R0, R0, 1
        CALL fib            ; R0 = fib(n-1)
        POP R1              ; R1 = n
        PUSH R0             ; keep fib(n-1) across the second call
        SUB R0, R1, 2
        CALL fib            ; R0 = fib(n-2)
        POP R1
        ADD R0, R0, R1
base:   RET
