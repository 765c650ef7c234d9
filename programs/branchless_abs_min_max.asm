; @name branchless_abs_min_max
; @description abs(R1), min(R2,R3), max(R2,R3) without a single branch
; @init R1=-12345 R2=-7 R3=5
; @expect R0=12345 R4=-7 R5=5 halted=1 steps=11
;
; m = x >> 31 (arithmetic) is all ones for negative x and zero otherwise, so
; (x ^ m) - m is x or -x. For min/max, d = a - b and m = d >> 31 select
; d or 0: min = b + (d & m), max = a - (d & m). (Valid while a - b does not
; overflow, i.e. for inputs of like magnitude.)

        SAR R6, R1, 31      ; sign mask of x
        XOR R0, R1, R6
        SUB R0, R0, R6      ; abs(x)
        SUB R6, R2, R3      ; d = a - b
        SAR R7, R6, 31      ; -1 if a < b else 0
        AND R6, R6, R7      ; d if a < b else 0
        ADD R4, R3, R6      ; min = b + (d or 0)
        SUB R5, R2, R6      ; max = a - (d or 0)
        XOR R6, R6, R6      ; clear scratch registers
        MOV R7, R6
        HALT
