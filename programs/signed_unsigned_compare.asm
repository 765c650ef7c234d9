; @name signed_unsigned_compare
; @description One CMP, two readings: -1 < 1 signed (JL taken), but 0xFFFFFFFF > 1 unsigned (JB not taken)
; @init R6=-1 R7=1
; @expect R0=1 R1=0 R2=1 R3=0 N=1 Z=0 C=1 V=0 halted=1
;
; CMP sets the flags once; the jump picks the interpretation. Signed
; conditions (JL JG ...) read N and V; unsigned ones (JB JA ...) read C.
; -1 - 1 = -2: N=1, and no borrow as unsigned (C=1), no signed overflow.
; R0 = (a <s b), R1 = (a <u b), R2 = (a >u b), R3 = (a >s b).

        CMP R6, R7
        JL signed_less
        JMP check_unsigned
signed_less:
        MOV R0, 1
check_unsigned:
        CMP R6, R7          ; MOV set N and Z: compare again for the next test
        JB unsigned_below
        JMP check_above
unsigned_below:
        MOV R1, 1
check_above:
        CMP R6, R7
        JA unsigned_above
        JMP check_greater
unsigned_above:
        MOV R2, 1
check_greater:
        CMP R6, R7
        JG signed_greater
        JMP done
signed_greater:
        MOV R3, 1
done:   CMP R6, R7          ; leave the flags of -1 vs 1 in the final state
        HALT
