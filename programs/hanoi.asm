; @name hanoi
; @description Towers of Hanoi by recursion: R4 = moves for R0 disks, R5 = a checksum of the moves
; @init R0=10 R1=1 R2=3 R3=2 R7=31
; @expect R4=1023 R5=-908661502 R0=10 R1=1 R2=3 R3=2 sp=0 halted=1
;
; hanoi(n, from, to, via): move n-1 disks out of the way to `via`, move the
; largest from `from` to `to`, then bring the n-1 back on top of it. That
; is 2**n - 1 moves. To check the order of the moves, not just their
; number, each move (f, t) updates checksum = checksum * 31 + (4f + t).
; R0-R3 hold (n, from, to, via); the routine saves and restores them.

        CALL hanoi
        HALT

hanoi:  CMP R0, 0
        JZ leave            ; no disks: nothing to do
        PUSH R0
        PUSH R1
        PUSH R2
        PUSH R3
        DEC R0
        MOV R6, R2          ; hanoi(n-1, from, via, to): swap to and via
        MOV R2, R3
        MOV R3, R6
        CALL hanoi
        MOV R6, R2          ; swap them back
        MOV R2, R3
        MOV R3, R6
        INC R4              ; move disk n: from -> to
        SHL R6, R1, 2
        ADD R6, R6, R2
        MUL R5, R5, R7
        ADD R5, R5, R6
        MOV R6, R1          ; hanoi(n-1, via, to, from): swap from and via
        MOV R1, R3
        MOV R3, R6
        CALL hanoi
        POP R3
        POP R2
        POP R1
        POP R0
leave:  RET
