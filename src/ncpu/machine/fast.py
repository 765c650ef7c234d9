"""The `fast` engine: B machines as `[B, ...]` torch tensors, one step at a time.

Each step, every live machine executes the instruction at its own pc:
gather the instruction's fields by pc, split the machines by what they run
(one "kind" per ALU op, plus MOV, MOVT, CMP, memory, stack, jumps, HALT,
NOP), compute each kind present for just its machines, then scatter the
register writes, flags, memory, sp and pc back. Halted machines, trapped
ones (a SYS waits for its caller: see `MachineState.trapped`) and those out
of budget are left untouched.

All arithmetic and flags go through a `TensorALU` (see `tensor_alu.py`);
pass a subclass as `alu=` to run the same engine on other circuits. The
engine works on any torch device; it never names one.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np
import torch
from torch import Tensor

from ncpu.isa import semantics as sem
from ncpu.machine.decoded import CODE, DecodedProgram, decode_words
from ncpu.machine.state import BatchState, MachineState
from ncpu.machine.tensor_alu import OPS, UNARY_OPS, TensorALU

# Kinds: ALU ops first (kind i computes OPS[i]), then the non-ALU handlers.
_HANDLERS = ("MOV", "MOVT", "CMP", "LOAD", "STORE", "PUSH", "POP", "CALL", "RET", "JUMP", "HALT", "NOP", "SYS")
KINDS = OPS + _HANDLERS
_KIND = {name: index for index, name in enumerate(KINDS)}


def _kind_of(mnemonic: str) -> tuple[int, str | None]:
    """(kind, source of `a`) for a mnemonic; `a` is 'rs1' or 'rd'."""
    if mnemonic in sem.BINARY or mnemonic in UNARY_OPS:
        return _KIND[mnemonic], "rs1"
    if mnemonic in sem.IMMEDIATE_TO_BINARY:
        return _KIND[sem.IMMEDIATE_TO_BINARY[mnemonic]], "rs1"
    if mnemonic in ("INC", "DEC"):
        return _KIND["ADD" if mnemonic == "INC" else "SUB"], "rd"
    if mnemonic in ("MOV", "MOVI"):
        return _KIND["MOV"], "rs1"
    if mnemonic in ("CMP", "CMPI"):
        return _KIND["CMP"], "rs1"
    if mnemonic in sem.CONDITIONS:
        return _KIND["JUMP"], None
    return _KIND[mnemonic], "rs1"


def _condition_mask(mnemonic: str) -> int:
    """Bit (8n + 4z + 2c + v) is set when the jump is taken under those flags."""
    test = sem.CONDITIONS.get(mnemonic)
    if test is None:
        return 0
    return sum(1 << (8 * n + 4 * z + 2 * c + v)
               for n in (0, 1) for z in (0, 1) for c in (0, 1) for v in (0, 1) if test(n, z, c, v))


# Columns of TensorProgram.table.
COLUMNS = ("kind", "a_reg", "b_reg", "b_const", "b_is_reg", "rd", "imm", "cond")
KIND, A_REG, B_REG, B_CONST, B_IS_REG, RD, IMM, COND = range(len(COLUMNS))


@dataclass
class TensorProgram:
    """The program as one int64 table [L, 8] on the device, row = pc, so a
    step fetches every machine's instruction with a single gather.

    Columns (see COLUMNS): kind: index into KINDS. a_reg: register read as
    operand a (rs1, or rd for INC/DEC/MOVT). b_reg / b_const / b_is_reg:
    operand b is `regs[b_reg]` when b_is_reg else `b_const` (the immediate,
    or 1 for INC/DEC). rd: destination. imm: the raw immediate / jump
    address. cond: truth table of the branch condition (`_condition_mask`).
    """

    table: Tensor

    @property
    def length(self) -> int:
        return int(self.table.shape[0])

    @classmethod
    def from_decoded(cls, program: DecodedProgram, device: torch.device | str | None = None) -> TensorProgram:
        table = np.zeros((len(program), len(COLUMNS)), np.int64)
        for i, row in enumerate(table):
            name = program.mnemonic(i)
            kind, a_source = _kind_of(name)
            rd, rs1, rs2, imm = (int(x[i]) for x in (program.rd, program.rs1, program.rs2, program.imm))
            row[KIND] = kind
            row[A_REG] = rd if a_source == "rd" or name == "MOVT" else rs1
            # MOV reads rs1 as its `b`; MOVI is a MOV whose `b` is the immediate.
            row[B_REG] = rs1 if name == "MOV" else rs2
            row[B_IS_REG] = name in sem.BINARY or name in ("CMP", "MOV")
            row[B_CONST] = 1 if name in ("INC", "DEC") else imm
            row[RD] = rd
            row[IMM] = imm
            row[COND] = _condition_mask(name)
        return cls(torch.as_tensor(table, device=device))


@dataclass
class TensorState:
    """A batch of machines on a device: registers int64[B, 8], memory
    int64[B, M], flags bool[B, 4] (N Z C V), pc/sp/steps int64[B],
    halted/trapped bool[B]. Values are signed 32-bit held in int64."""

    registers: Tensor
    memory: Tensor
    flags: Tensor
    pc: Tensor
    sp: Tensor
    steps: Tensor
    halted: Tensor
    trapped: Tensor

    @classmethod
    def from_batch(cls, batch: BatchState, device: torch.device | str | None = None) -> TensorState:
        def put(array: np.ndarray, dtype: torch.dtype) -> Tensor:
            # copy=True: a tensor must never share memory with the caller's arrays.
            return torch.as_tensor(np.ascontiguousarray(array)).to(device=device, dtype=dtype, copy=True)
        return cls(put(batch.registers, torch.int64), put(batch.memory, torch.int64),
                   put(batch.flags, torch.bool), put(batch.pc, torch.int64), put(batch.sp, torch.int64),
                   put(batch.steps, torch.int64), put(batch.halted, torch.bool), put(batch.trapped, torch.bool))

    def to_batch(self) -> BatchState:
        def get(t: Tensor, dtype) -> np.ndarray:
            return t.detach().cpu().numpy().astype(dtype)
        return BatchState(get(self.registers, np.int32), get(self.memory, np.int32), get(self.flags, np.bool_),
                          get(self.pc, np.int64), get(self.sp, np.int64), get(self.steps, np.int64),
                          get(self.halted, np.bool_), get(self.trapped, np.bool_))

    def clone(self) -> TensorState:
        return TensorState(*(getattr(self, f.name).clone() for f in fields(self)))


def step(program: TensorProgram, st: TensorState, budget: Tensor, alu: TensorALU) -> int:
    """Advance every runnable machine by one instruction, in place.
    Returns how many machines executed an instruction (0: all done)."""
    live = ~st.halted & ~st.trapped
    off = live & ((st.pc < 0) | (st.pc >= program.length))
    st.halted |= off  # leaving the program halts without counting a step
    active = live & ~off & (st.steps < budget)
    idx = active.nonzero().squeeze(1)
    total = idx.numel()
    if total == 0:
        return 0
    p = st.pc[idx]
    fetched = program.table.index_select(0, p)
    kind = fetched[:, KIND]
    counts = torch.bincount(kind, minlength=len(KINDS)).tolist()
    regs, mem, size = st.registers, st.memory, st.memory.shape[1]
    nxt = p + 1
    written: list[tuple[Tensor, Tensor, Tensor]] = []  # (machines, register, value)

    for k, count in enumerate(counts):
        if not count:
            continue
        sel = None if count == total else (kind == k).nonzero().squeeze(1)
        m = idx if sel is None else idx[sel]
        q = p if sel is None else p[sel]
        ins = fetched if sel is None else fetched.index_select(0, sel)
        name = KINDS[k]
        if k < len(OPS) or name in ("CMP", "MOV"):
            a = _take(regs, m, ins[:, A_REG])
            b = None if name in UNARY_OPS else torch.where(
                ins[:, B_IS_REG] != 0, _take(regs, m, ins[:, B_REG]), ins[:, B_CONST])
            if name == "CMP":
                _put(st.flags, m, None, torch.stack(alu.compare(a, b), dim=1))
            elif name == "MOV":
                written.append((m, ins[:, RD], b))
            else:
                written.append((m, ins[:, RD], alu.compute(name, a, b)))
        elif name == "MOVT":
            high = alu.compute("SHL", ins[:, IMM], torch.full_like(q, 16))
            low = alu.compute("AND", _take(regs, m, ins[:, A_REG]), torch.full_like(q, 0xFFFF))
            written.append((m, ins[:, RD], alu.compute("OR", high, low)))
        elif name == "LOAD":
            address = (_take(regs, m, ins[:, A_REG]) + ins[:, IMM]) % size
            written.append((m, ins[:, RD], _take(mem, m, address)))
        elif name == "STORE":
            address = (_take(regs, m, ins[:, A_REG]) + ins[:, IMM]) % size
            _put(mem, m, address, _take(regs, m, ins[:, B_REG]))
        elif name in ("PUSH", "CALL"):
            sp = (st.sp[m] - 1) % size
            _put(mem, m, sp, _take(regs, m, ins[:, A_REG]) if name == "PUSH" else q + 1)
            st.sp[m] = sp
            if name == "CALL":
                _set(nxt, sel, ins[:, IMM])
        elif name in ("POP", "RET"):
            sp = st.sp[m] % size
            value = _take(mem, m, sp)
            st.sp[m] = (sp + 1) % size
            if name == "POP":
                written.append((m, ins[:, RD], value))
            else:
                _set(nxt, sel, value)
        elif name == "JUMP":
            f = st.flags.index_select(0, m).long()
            row = f[:, 0] * 8 + f[:, 1] * 4 + f[:, 2] * 2 + f[:, 3]
            taken = ((ins[:, COND] >> row) & 1) != 0
            _set(nxt, sel, torch.where(taken, ins[:, IMM], q + 1))
        elif name == "HALT":
            st.halted[m] = True
            _set(nxt, sel, q)  # pc stays on the HALT
        elif name == "SYS":  # trap before executing: pc stays, no step counted
            st.trapped[m] = True
            st.steps[m] -= 1  # undoes the count every machine of the step gets below
            _set(nxt, sel, q)
        # NOP: nothing but pc + 1.

    if written:
        m, r, value = (torch.cat(parts) if len(parts) > 1 else parts[0] for parts in zip(*written))
        _put(regs, m, r, value)
        z, n = alu.zero_negative(value)
        _put(st.flags, m, torch.zeros_like(m), n)
        _put(st.flags, m, torch.ones_like(m), z)
    st.pc[idx] = nxt
    st.steps[idx] += 1
    return total


# 2-D advanced indexing (`t[rows, cols]`) takes a slow generic path in torch;
# flat 1-D indices through take/put_ are an order of magnitude faster.
def _take(table: Tensor, rows: Tensor, cols: Tensor) -> Tensor:
    return torch.take(table, rows * table.shape[1] + cols)


def _put(table: Tensor, rows: Tensor, cols: Tensor | None, values: Tensor) -> None:
    """table[rows, cols] = values (whole rows when cols is None); each
    (row, col) at most once, as one machine writes one place per step."""
    if cols is None:
        table.index_copy_(0, rows, values)
    else:
        table.put_(rows * table.shape[1] + cols, values)


def _set(target: Tensor, sel: Tensor | None, value: Tensor) -> None:
    if sel is None:
        target.copy_(value)
    else:
        target[sel] = value


def run_tensor(program: TensorProgram, st: TensorState, max_steps: int, alu: TensorALU | None = None) -> TensorState:
    """Run a device-resident batch in place until every machine has halted
    or spent `max_steps` more steps; returns `st`."""
    alu = alu if alu is not None else TensorALU()
    # Clamped like the reference treats it: negative runs nothing; huge stays inside int64.
    budget = st.steps + min(max(max_steps, 0), 1 << 62)
    while step(program, st, budget, alu):
        pass
    return st


def run_batch(words, batch: BatchState, max_steps: int, device: torch.device | str | None = None,
              alu: TensorALU | None = None) -> BatchState:
    """Run `batch` (not modified) on `device` (default CPU); same contract as
    the reference engine, every machine independent."""
    decoded = words if isinstance(words, DecodedProgram) else decode_words(words)
    program = TensorProgram.from_decoded(decoded, device)
    state = TensorState.from_batch(batch, device)
    return run_tensor(program, state, max_steps, alu).to_batch()


def run(words, state: MachineState, max_steps: int, device: torch.device | str | None = None,
        alu: TensorALU | None = None) -> MachineState:
    """One machine: a batch of one."""
    return run_batch(words, BatchState.stack([state]), max_steps, device, alu).machine(0)


def warm_up(device: torch.device | str | None = None) -> None:
    """Make torch's first calls (one step of one machine), so that a caller
    can time start-up apart from running."""
    run([CODE["ADD"] << 24, CODE["HALT"] << 24], MachineState(), 2, device)


__all__ = ["KINDS", "TensorALU", "TensorProgram", "TensorState", "run", "run_batch", "run_tensor", "step", "warm_up"]
