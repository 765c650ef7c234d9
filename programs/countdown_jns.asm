; @name countdown_jns
; @description Original nCPU style: DEC R0 then JNS loop, summing 10..0 into R1
; @expect R0=-1 R1=55 N=1 Z=0 halted=1 steps=36
;
; JNS ("jump if not negative") keeps looping while the counter is >= 0, so
; the body runs for R0 = 10, 9, ..., 0: eleven passes, and R0 ends at -1.
; Steps: 2 + 3*11 + HALT = 36.

        MOV R0, 10
        MOV R1, 0
loop:
        ADD R1, R1, R0
        DEC R0
        JNS loop
        HALT
