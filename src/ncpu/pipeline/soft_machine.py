"""The nCPU machine with every value as bits on torch's tape: the soft engine.

Registers and memory words are float bit tensors [1, 32] (LSB first), and
every ALU instruction is the neural ALU's circuit on them
(`NeuralALU.op_bits` with a temperature): each threshold unit keeps its
exact 0/1 value in the forward pass and passes the gradient of
sigmoid(pre / temperature) backwards (the straight-through estimator of
`ncpu.alu.threshold`). So a run computes exactly what the reference engine
computes, and the result bits are differentiable, in that surrogate sense,
in the initial registers and memory and in the circuits' parameters.

What is discrete (no gradient flows through it, by construction):
  * control: which instruction runs next. Branch conditions are the flag
    neurons' hard outputs; a gradient never asks a branch to go the other way.
  * addresses: LOAD/STORE addresses, sp, return addresses and system call
    arguments are decoded to integers; the *words* moved keep their gradients.
  * MUL, DIV, MOD: their circuits end in a value read-out, not bits. The
    read-out is differentiable; back to bits it is a straight-through step
    whose backward pass spreads d(loss)/d(value) over the bits by the
    minimum-norm inverse of the bits' weighted sum (weak on low bits:
    programs that should be steered by gradients avoid these three).

The code follows `ncpu.machine.reference.step`, instruction by instruction.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch
from torch import Tensor

from ncpu.alu import NeuralALU
from ncpu.alu.alu import VALUE_OPS
from ncpu.isa import semantics as sem
from ncpu.isa import syscalls as sc
from ncpu.isa.encoding import Instruction, decode
from ncpu.pipeline.terminal import Terminal

WIDTH = 32


@dataclass
class SoftRun:
    """The end of a soft run."""

    registers: list[Tensor]           # [1, 32] bits each
    memory: dict[int, Tensor]         # written words only; the rest are the initial memory
    terminal: Terminal                # the output bytes' bits, laid out on the screen
    steps: int
    halted: bool
    exit_status: int | None = None
    output: bytes = b""
    pc: int = 0
    flags: dict[str, bool] = field(default_factory=dict)


class SoftMachine:
    def __init__(self, alu: NeuralALU, temperature: float = 1.0):
        self.alu = alu
        self.t = temperature
        self.weights = alu.bit_weights.to(torch.float64)
        self.inverse = self.weights / (self.weights ** 2).sum()   # min-norm inverse of the weighted sum

    # -- the bit interface ----------------------------------------------------------

    def const(self, value: int) -> Tensor:
        return self.alu.to_bits(torch.tensor([sem.wrap(value)]))

    def value(self, bits: Tensor) -> int:
        return int(self.alu.to_int(bits)[0])

    def bits_of_value(self, value: Tensor) -> Tensor:
        """A value read-out float [1] -> bits [1, 32]: exact forward, the
        min-norm straight-through backward (see the module docstring)."""
        hard = self.alu.to_bits(value.detach().round().to(torch.int64))
        soft = (value - value.detach())[:, None] * self.inverse
        return hard + soft.to(hard.dtype)

    def zn(self, bits: Tensor) -> tuple[bool, bool]:
        z, n = self.alu.flags(bits.detach())
        return bool(z[0] > 0.5), bool(n[0] > 0.5)

    def binary(self, name: str, a: Tensor, b: Tensor) -> Tensor:
        if name in VALUE_OPS:
            return self.bits_of_value(self.alu.op_value_zn(name, a, b, self.t)[:, 0])
        return self.alu.op_bits(name, a, b, self.t)

    # -- running --------------------------------------------------------------------

    def run(self, words: list[int], registers: list[Tensor], memory: list[int], max_steps: int,
            memory_bits: dict[int, Tensor] | None = None) -> SoftRun:
        """Run from pc 0 with the given registers (bit tensors [1, 32], which
        may require grad) and memory (ints; `memory_bits` replaces words of it
        by bit tensors, e.g. an input to differentiate against)."""
        program = [decode(word) for word in words]
        size = len(memory)
        words_in = {a: v for a, v in enumerate(memory) if v}
        mem: dict[int, Tensor] = dict(memory_bits or {})
        zero = self.const(0)

        def load(address: int) -> Tensor:
            address %= size
            if address not in mem:
                return self.const(words_in[address]) if address in words_in else zero
            return mem[address]

        regs = list(registers)
        n = z = c = v = False
        pc = sp = steps = 0
        halted, status = False, None
        terminal = Terminal()

        def write(rd: int, bits: Tensor) -> None:
            nonlocal z, n
            regs[rd] = bits
            z, n = self.zn(bits)

        while not halted and steps < max_steps:
            if not 0 <= pc < len(program):
                halted = True
                break
            ins: Instruction = program[pc]
            name = ins.op.mnemonic
            next_pc = pc + 1
            steps += 1
            if name == "HALT":
                halted, next_pc = True, pc
            elif name == "NOP":
                pass
            elif name == "MOV":
                write(ins.rd, regs[ins.rs1])
            elif name == "MOVI":
                write(ins.rd, self.const(ins.imm))
            elif name == "MOVT":
                low = self.alu.op_bits("AND", regs[ins.rd], self.const(0xFFFF), self.t)
                write(ins.rd, self.alu.op_bits("OR", self.const(ins.imm << 16), low, self.t))
            elif name in sem.BINARY:
                write(ins.rd, self.binary(name, regs[ins.rs1], regs[ins.rs2]))
            elif name in sem.IMMEDIATE_TO_BINARY:
                write(ins.rd, self.binary(sem.IMMEDIATE_TO_BINARY[name], regs[ins.rs1], self.const(ins.imm)))
            elif name in ("NOT", "NEG"):
                write(ins.rd, self.alu.op_bits(name, regs[ins.rs1], None, self.t))
            elif name in ("INC", "DEC"):
                write(ins.rd, self.alu.op_bits("ADD" if name == "INC" else "SUB", regs[ins.rd], self.const(1), self.t))
            elif name in ("CMP", "CMPI"):
                b = regs[ins.rs2] if name == "CMP" else self.const(ins.imm)
                n, z, c, v = (bool(f[0] > 0.5) for f in self.alu.compare_bits(regs[ins.rs1], b, self.t))
            elif name == "LOAD":
                write(ins.rd, load(self.value(regs[ins.rs1]) + ins.imm))
            elif name == "STORE":
                mem[(self.value(regs[ins.rs1]) + ins.imm) % size] = regs[ins.rs2]
            elif name == "PUSH":
                sp = (sp - 1) % size
                mem[sp] = regs[ins.rs1]
            elif name == "POP":
                write(ins.rd, load(sp))
                sp = (sp + 1) % size
            elif name == "CALL":
                sp = (sp - 1) % size
                mem[sp] = self.const(next_pc)
                next_pc = ins.imm
            elif name == "RET":
                next_pc = self.value(load(sp))
                sp = (sp + 1) % size
            elif name in sem.CONDITIONS:
                if sem.CONDITIONS[name](n, z, c, v):
                    next_pc = ins.imm
            elif name == "SYS":
                number, a, address, count = (self.value(regs[r]) for r in range(4))
                if number == sc.EXIT:
                    halted, status, next_pc = True, a, pc
                elif number == sc.WRITE and a in (sc.STDOUT, sc.STDERR) and count >= 0:
                    for k in range(count):
                        word = load(address + k)
                        if a == sc.STDOUT:
                            terminal.write(self.value(word), word[:, :8])
                    write(0, self.const(count))
                else:
                    write(0, self.const(-1))
            else:  # pragma: no cover - the opcode table and this function must agree
                raise NotImplementedError(name)
            pc = next_pc
        return SoftRun(regs, mem, terminal, steps, halted, status, bytes(terminal.text), pc,
                       {"N": n, "Z": z, "C": c, "V": v})
