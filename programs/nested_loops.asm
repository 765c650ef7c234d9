; @name nested_loops
; @description Sum of the 10x10 multiplication table: R0 = sum of i*j for i, j in 1..10
; @expect R0=3025 R1=11 R2=11 halted=1
;
; Two counting loops, the inner one restarting for each outer pass. The
; answer is (1 + ... + 10)**2 = 55**2.

        MOV R0, 0
        MOV R1, 1           ; i
outer:  MOV R2, 1           ; j
inner:  MUL R3, R1, R2
        ADD R0, R0, R3
        INC R2
        CMP R2, 10
        JLE inner
        INC R1
        CMP R1, 10
        JLE outer
        HALT
