"""Assembly routines the compiled code calls, emitted only when used.

`rt_print_int` writes R0 in decimal through the write system call. Digits
come from MOD and DIV by 10 on the value itself, never on its absolute
value, so INT_MIN needs no special case: the remainder has the sign of
the dividend and is negated digit by digit. Clobbers R0-R4.
"""

from __future__ import annotations

# Words of the scratch buffer print_int fills from its end: ten digits and a sign.
PRINT_BUFFER_WORDS = 12

from ncpu.isa.syscalls import EXIT as SYS_EXIT, STDOUT, WRITE as SYS_WRITE  # noqa: F401 (codegen imports them here)


def print_int(buffer: int) -> list[str]:
    """The routine, for a scratch buffer at absolute address `buffer` (R6 = 0)."""
    end = PRINT_BUFFER_WORDS
    return f"""
rt_print_int:                 ; R0 = the value
        MOV  R1, R0           ; n: divided by 10 until 0
        MOV  R2, {end}        ; the next digit goes before buffer[R2]
        MOV  R3, 10
.Lrt_digit:
        MOD  R4, R1, R3       ; the last digit, with the sign of n
        DIV  R1, R1, R3
        CMP  R4, 0
        JGE  .Lrt_positive
        NEG  R4, R4
.Lrt_positive:
        ADD  R4, R4, 48       ; '0' + digit
        DEC  R2
        STORE R4, [R2+{buffer}]
        CMP  R1, 0
        JNZ  .Lrt_digit
        CMP  R0, 0
        JGE  .Lrt_write
        MOV  R4, 45           ; '-'
        DEC  R2
        STORE R4, [R2+{buffer}]
.Lrt_write:
        MOV  R3, {end}
        SUB  R3, R3, R2       ; count
        ADD  R2, R2, {buffer} ; address
        MOV  R1, {STDOUT}
        MOV  R0, {SYS_WRITE}
        SYS
        RET""".strip("\n").splitlines()
