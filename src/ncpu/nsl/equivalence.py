"""Proof that two straight-line windows of nCPU code do the same thing.

A window is a run of instructions with no control flow (no jump, CALL,
RET, SYS or HALT). `prove(old, new, live, mem_size)` asks the SMT solver
cvc5 whether any machine state exists from which the two windows end in
states that differ in something that matters afterwards:

* every register and flag in `live` (what the rest of the program may
  read before writing it: `ncpu.nsl.peephole.liveness`),
* the stack pointer, and the whole data memory (as an SMT array, so a
  changed store anywhere, aliasing included, is a difference).

Registers are 32-bit bit-vectors, flags booleans, memory an array from
address to word with every address computed as the machine does,
`(base + offset) mod mem_size`. The only assumption about the start state
is one every reachable state satisfies: `0 <= sp < mem_size`. "unsat"
is the proof; "sat" comes with a counterexample; a solver that gives up
(time limit) counts as not proven. `symbolic_step` is the machine's
meaning in SMT terms; tests/nsl/test_equivalence.py runs it on concrete
states against the reference engine, so the proof is about the real machine.
"""

from __future__ import annotations

from dataclasses import dataclass

from ncpu.isa.encoding import Instruction
from ncpu.isa.semantics import IMMEDIATE_TO_BINARY

FLAGS = ("N", "Z", "C", "V")
REGISTERS = tuple(f"R{i}" for i in range(8))
# Instructions a window may hold: everything but control flow.
STRAIGHT = {"NOP", "MOV", "MOVI", "MOVT", "ADD", "SUB", "MUL", "DIV", "MOD", "AND", "OR", "XOR", "SHL", "SHR",
            "SAR", "ADDI", "ANDI", "ORI", "XORI", "SHLI", "SHRI", "SARI", "NOT", "NEG", "INC", "DEC", "CMP",
            "CMPI", "LOAD", "STORE", "PUSH", "POP"}
TIME_LIMIT_MS = 3000


@dataclass
class Verdict:
    proven: bool
    reason: str        # "unsat" (proven), "sat" (a counterexample), or why not checked


def _z3():
    import cvc5.pythonic as z

    return z


def _binary(z, name: str, a, b):
    if name == "ADD":
        return a + b
    if name == "SUB":
        return a - b
    if name == "MUL":
        return a * b
    if name == "DIV":   # x/0 = 0; bvsdiv truncates and wraps INT_MIN/-1 as the machine does
        return z.If(b == 0, z.BitVecVal(0, 32), a / b)
    if name == "MOD":   # x%0 = x; bvsrem has the sign of the dividend
        return z.If(b == 0, a, z.SRem(a, b))
    if name == "AND":
        return a & b
    if name == "OR":
        return a | b
    if name == "XOR":
        return a ^ b
    if name == "SHL":   # SMT shifts by >= 32 give 0 (or the sign), as the machine's do
        return a << b
    if name == "SHR":
        return z.LShR(a, b)
    if name == "SAR":
        return a >> b
    raise ValueError(name)


class SymbolicState:
    """Registers, flags, sp and memory as SMT terms."""

    def __init__(self, z, mem_size: int, prefix: str = ""):
        self.z = z
        self.size = mem_size
        self.regs = [z.BitVec(f"{prefix}R{i}", 32) for i in range(8)]
        self.flags = {f: z.Bool(f"{prefix}{f}") for f in FLAGS}
        self.sp = z.BitVec(f"{prefix}sp", 32)
        self.mem = z.Array(f"{prefix}mem", z.BitVecSort(32), z.BitVecSort(32))

    def copy(self) -> "SymbolicState":
        other = object.__new__(SymbolicState)
        other.z, other.size = self.z, self.size
        other.regs, other.flags, other.sp, other.mem = list(self.regs), dict(self.flags), self.sp, self.mem
        return other

    def address(self, base, offset: int):
        """(base + offset) mod mem_size, Python's mod on the signed sum."""
        z = self.z
        wide = z.SignExt(32, base) + z.BitVecVal(offset, 64)
        return z.Extract(31, 0, z.SMod(wide, z.BitVecVal(self.size, 64)))

    def write(self, register: int, value) -> None:
        self.regs[register] = value
        self.flags["Z"] = value == 0
        self.flags["N"] = value < 0


def symbolic_step(state: SymbolicState, ins: Instruction) -> None:
    """One instruction of a window, in place (the reference engine's meaning)."""
    z, regs, name = state.z, state.regs, ins.op.mnemonic
    const = lambda v: z.BitVecVal(v & 0xFFFFFFFF, 32)  # noqa: E731
    if name == "NOP":
        return
    if name == "MOV":
        state.write(ins.rd, regs[ins.rs1])
    elif name == "MOVI":
        state.write(ins.rd, const(ins.imm))
    elif name == "MOVT":
        state.write(ins.rd, const(ins.imm << 16) | (regs[ins.rd] & const(0xFFFF)))
    elif name in IMMEDIATE_TO_BINARY:
        state.write(ins.rd, _binary(z, IMMEDIATE_TO_BINARY[name], regs[ins.rs1], const(ins.imm)))
    elif name in ("ADD", "SUB", "MUL", "DIV", "MOD", "AND", "OR", "XOR", "SHL", "SHR", "SAR"):
        state.write(ins.rd, _binary(z, name, regs[ins.rs1], regs[ins.rs2]))
    elif name == "NOT":
        state.write(ins.rd, ~regs[ins.rs1])
    elif name == "NEG":
        state.write(ins.rd, -regs[ins.rs1])
    elif name == "INC":
        state.write(ins.rd, regs[ins.rd] + 1)
    elif name == "DEC":
        state.write(ins.rd, regs[ins.rd] - 1)
    elif name in ("CMP", "CMPI"):
        a = regs[ins.rs1]
        b = regs[ins.rs2] if name == "CMP" else const(ins.imm)
        result = a - b
        state.flags["N"] = result < 0
        state.flags["Z"] = a == b
        state.flags["C"] = z.UGE(a, b)
        state.flags["V"] = z.And((a < 0) != (b < 0), (result < 0) != (a < 0))
    elif name == "LOAD":
        state.write(ins.rd, z.Select(state.mem, state.address(regs[ins.rs1], ins.imm)))
    elif name == "STORE":
        state.mem = z.Store(state.mem, state.address(regs[ins.rs1], ins.imm), regs[ins.rs2])
    elif name == "PUSH":
        state.sp = z.If(state.sp == 0, const(state.size - 1), state.sp - 1)
        state.mem = z.Store(state.mem, state.sp, regs[ins.rs1])
    elif name == "POP":
        value = z.Select(state.mem, state.sp)
        state.sp = z.If(state.sp == state.size - 1, const(0), state.sp + 1)
        state.write(ins.rd, value)
    else:
        raise ValueError(f"{name} is not straight-line code")


def differences(z, a: SymbolicState, b: SymbolicState, live: frozenset[str]) -> list:
    """Terms, one per observable part, that are true where the two end states differ."""
    diff = [a.sp != b.sp, a.mem != b.mem]
    diff += [a.regs[i] != b.regs[i] for i in range(8) if f"R{i}" in live]
    diff += [a.flags[f] != b.flags[f] for f in FLAGS if f in live]
    return diff


def prove(old: list[Instruction], new: list[Instruction], live: frozenset[str], mem_size: int,
          time_limit_ms: int = TIME_LIMIT_MS) -> Verdict:
    """Whether `new` may replace `old` when `live` is what is read afterwards."""
    for ins in (*old, *new):
        if ins.op.mnemonic not in STRAIGHT:
            return Verdict(False, f"{ins.op.mnemonic} is not straight-line code")
    z = _z3()
    start = SymbolicState(z, mem_size)
    one, two = start.copy(), start.copy()
    for ins in old:
        symbolic_step(one, ins)
    for ins in new:
        symbolic_step(two, ins)
    solver = z.Solver()
    solver.set("tlimit-per", time_limit_ms)
    solver.add(z.ULT(start.sp, mem_size))
    solver.add(z.Or(*differences(z, one, two, live)))
    answer = str(solver.check())
    return Verdict(answer == "unsat", answer)


def solver_available() -> bool:
    try:
        import cvc5.pythonic  # noqa: F401
    except ImportError:
        return False
    return True
