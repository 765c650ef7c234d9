; @name alu_loop
; @description A long straight ALU loop for timing one machine: R0 = iteration count
; @init R0=20000
; @max-steps 1000000000
; @expect R0=0 R1=20001 R2=200010000 R3=249128176 R4=1600080000 N=0 Z=1 C=0 V=0 halted=1 steps=120003
; @test-init R0=500
; @test-expect R1=501 R2=125250 R3=96054 R4=1002000 steps=3003
;
; Each iteration: R2 += R1; R3 ^= R2; R4 = R2 << 3; R1 += 1; R0 -= 1;
; loop while R0 != 0. Five ALU operations and a branch per iteration, so
; almost every step is an operation of the ALU (in neural mode, a run of
; the circuits). Steps: 2 setup + 6 per iteration + HALT.

        MOV R1, 1
        MOV R2, 0
loop:   ADD R2, R2, R1
        XOR R3, R3, R2
        SHL R4, R2, 3
        INC R1
        DEC R0
        JNZ loop
        HALT
