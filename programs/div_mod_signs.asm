; @name div_mod_signs
; @description DIV truncates toward zero and MOD takes the dividend's sign; the edge cases
; @mem-size 16
; @expect-mem 0: 3 -3 -3 3 1 -1 1 -1
; @expect-mem 8: 0 7 -2147483648 0
; @expect halted=1
;
; Like C (and unlike Python's // and %): 7/2 = 3, -7/2 = -3, 7/-2 = -3,
; -7/-2 = 3, and a == (a/b)*b + a%b always, so -7 % 2 = -1.
; The edges are defined rather than trapping: x/0 = 0, x%0 = x,
; INT_MIN/-1 = INT_MIN (the true answer 2**31 wraps), INT_MIN%-1 = 0.
; Results go to memory: quotients at 0..3, remainders at 4..7, edges at 8..11.

        MOV R1, 7
        MOV R2, -7
        MOV R3, 2
        MOV R4, -2
        DIV R0, R1, R3      ;  7 /  2
        STORE R0, [R7+0]
        DIV R0, R2, R3      ; -7 /  2
        STORE R0, [R7+1]
        DIV R0, R1, R4      ;  7 / -2
        STORE R0, [R7+2]
        DIV R0, R2, R4      ; -7 / -2
        STORE R0, [R7+3]
        MOD R0, R1, R3      ;  7 %  2
        STORE R0, [R7+4]
        MOD R0, R2, R3      ; -7 %  2
        STORE R0, [R7+5]
        MOD R0, R1, R4      ;  7 % -2
        STORE R0, [R7+6]
        MOD R0, R2, R4      ; -7 % -2
        STORE R0, [R7+7]
        MOV R5, 0
        DIV R0, R1, R5      ; 7 / 0
        STORE R0, [R7+8]
        MOD R0, R1, R5      ; 7 % 0
        STORE R0, [R7+9]
        MOV R5, -2147483648 ; INT_MIN
        MOV R6, -1
        DIV R0, R5, R6
        STORE R0, [R7+10]
        MOD R0, R5, R6
        STORE R0, [R7+11]
        HALT
