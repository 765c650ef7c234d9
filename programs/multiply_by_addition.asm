; @name multiply_by_addition
; @description R0 = R1 * R2 by adding R1 to itself R2 times (R2 >= 0)
; @init R1=37 R2=23
; @expect R0=851 R1=37 R2=0 halted=1
;
; How a machine without MUL multiplies: repeated addition. A guard handles
; R2 = 0, which would otherwise count down through 2**32 passes.

        mov r0, 0
        cmp r2, 0
        jle done            ; x * 0 = 0 (and negative counts are refused)
again:  add r0, r0, r1
        dec r2
        jnz again
done:   halt
