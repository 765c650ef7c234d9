"""nCPU machine code to an equivalent Python function.

Straight-line code becomes one statement per instruction. Code with jumps
becomes a loop over a `pc` variable, one branch per instruction: not pretty,
but a faithful transcription of any control flow the searches produce.
Only the helpers and flags the program needs are emitted.
"""

from __future__ import annotations

import inspect
import re
import time

from ncpu.isa import assemble, decode
from ncpu.isa import semantics as sem
from ncpu.machine.state import DEFAULT_MEM_SIZE
from ncpu.synth.spec import Spec

# The helpers emitted code calls are the definition's own functions, their
# source copied from `ncpu.isa.semantics` (so they cannot drift from it).
_HELPERS = {name: inspect.getsource(getattr(sem, name)) for name in (
    "wrap", "unsigned", "divide", "modulo", "shift_left", "shift_right_logical", "shift_right_arithmetic",
    "compare_flags")}
_CONSTANTS = {"MASK32": f"MASK32 = {sem.MASK32:#x}\n"}
_BINARY = {
    "ADD": "wrap({a} + {b})", "SUB": "wrap({a} - {b})", "MUL": "wrap({a} * {b})",
    "DIV": "divide({a}, {b})", "MOD": "modulo({a}, {b})", "AND": "{a} & {b}", "OR": "{a} | {b}",
    "XOR": "{a} ^ {b}", "SHL": "shift_left({a}, {b})", "SHR": "shift_right_logical({a}, {b})",
    "SAR": "shift_right_arithmetic({a}, {b})",
}
_IMM = {"ADDI": "ADD", "ANDI": "AND", "ORI": "OR", "XORI": "XOR", "SHLI": "SHL", "SHRI": "SHR", "SARI": "SAR"}
_CONDITIONS = {
    "JMP": "True", "JZ": "z", "JNZ": "not z", "JS": "n", "JNS": "not n", "JL": "n != v", "JGE": "n == v",
    "JG": "not z and n == v", "JLE": "z or n != v", "JB": "not c", "JAE": "c", "JA": "c and not z",
    "JBE": "not c or z",
}
_CONTROL = set(_CONDITIONS) | {"CALL", "RET"}


def _statements(ins, flags: bool, size: int) -> list[str]:
    """Python lines for one instruction (control flow is handled by the caller)."""
    name, rd, a, b, imm = ins.op.mnemonic, f"r{ins.rd}", f"r{ins.rs1}", f"r{ins.rs2}", ins.imm
    value = None
    if name == "MOV":
        value = a
    elif name == "MOVI":
        value = str(imm)
    elif name == "MOVT":
        value = f"wrap(({imm} << 16) | ({rd} & 0xFFFF))"
    elif name in _BINARY:
        value = _BINARY[name].format(a=a, b=b)
    elif name in _IMM:
        value = _BINARY[_IMM[name]].format(a=a, b=imm)
    elif name == "NOT":
        value = f"~{a}"
    elif name == "NEG":
        value = f"wrap(-{a})"
    elif name in ("INC", "DEC"):
        value = f"wrap({rd} {'+' if name == 'INC' else '-'} 1)"
    elif name == "LOAD":
        value = f"mem[({a} + {imm}) % {size}]"
    elif name == "POP":
        return [f"{rd} = mem[sp]", "sp = (sp + 1) % " + str(size)] + ([f"z = {rd} == 0", f"n = {rd} < 0"] if flags else [])
    elif name == "STORE":
        return [f"mem[({a} + {imm}) % {size}] = {b}"]
    elif name == "PUSH":
        return [f"sp = (sp - 1) % {size}", f"mem[sp] = {a}"]
    elif name in ("CMP", "CMPI"):
        return [f"n, z, c, v = compare_flags({a}, {b if name == 'CMP' else imm})"] if flags else []
    elif name == "NOP":
        return []
    else:  # pragma: no cover - control flow never reaches here
        raise NotImplementedError(name)
    return [f"{rd} = {value}"] + ([f"z = {rd} == 0", f"n = {rd} < 0"] if flags else [])


def to_python(asm: str, spec: Spec, name: str = "f") -> str:
    """Source of `def f(r0, ...)` returning the output register(s)."""
    program = [decode(w) for w in assemble(asm).words]
    names = {i.op.mnemonic for i in program}
    branching = bool(names & _CONTROL)
    flags = bool(names & (set(_CONDITIONS) - {"JMP"}))
    size = DEFAULT_MEM_SIZE
    params = [f"r{r}" for r in spec.inputs] + (["mem=None"] if spec.uses_memory else [])
    body = [f"r{r} = 0" for r in sorted(uninitialised(program, spec)) if r not in spec.inputs]
    if spec.uses_memory:
        body.append(f"mem = [0] * {size} if mem is None else mem")
    if flags:
        body.append("n = z = c = v = False")
    if names & {"PUSH", "POP", "CALL", "RET"}:
        body.append("sp = 0")
    outputs = ", ".join(f"r{r}" for r in spec.outputs) or "None"
    if not branching:
        for ins in program:
            if ins.op.mnemonic == "HALT":
                break
            body += _statements(ins, flags, size)
    else:
        body += ["pc = 0", "while True:"]
        for index, ins in enumerate(program):
            op = ins.op.mnemonic
            body.append(f"    {'if' if index == 0 else 'elif'} pc == {index}:")
            if op == "HALT":
                body.append("        break")
                continue
            if op in _CONDITIONS:
                body.append(f"        pc = {ins.imm} if {_CONDITIONS[op]} else {index + 1}")
            elif op == "CALL":
                body += [f"        sp = (sp - 1) % {size}", f"        mem[sp] = {index + 1}", f"        pc = {ins.imm}"]
            elif op == "RET":
                body += ["        pc = mem[sp]", f"        sp = (sp + 1) % {size}"]
            else:
                body += ["        " + line for line in _statements(ins, flags, size)] + [f"        pc = {index + 1}"]
        body += ["    else:", "        break"]
    body.append(f"return {outputs}")
    source = f"def {name}({', '.join(params)}):\n" + "".join(f"    {line}\n" for line in body)
    helpers = "".join(_HELPERS[h] + "\n\n" for h in _needed(source))
    constants = "".join(line for name, line in _CONSTANTS.items() if name in helpers)
    return constants + ("\n\n" if constants else "") + helpers + source


def _reads_writes(ins) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Registers one instruction reads and writes (flags and sp aside)."""
    name, rd, a, b = ins.op.mnemonic, ins.rd, ins.rs1, ins.rs2
    if name in _CONTROL or name in ("HALT", "NOP"):
        return (), ()
    if name == "MOVI":
        return (), (rd,)
    if name in ("MOV", "NOT", "NEG", "LOAD") or name in _IMM:
        return (a,), (rd,)
    if name in _BINARY:
        return (a, b), (rd,)
    if name in ("MOVT", "INC", "DEC"):
        return (rd,), (rd,)
    if name == "POP":
        return (), (rd,)
    if name == "STORE":
        return (a, b), ()
    if name == "PUSH":
        return (a,), ()
    if name == "CMP":
        return (a, b), ()
    if name == "CMPI":
        return (a,), ()
    return tuple(range(8)), ()  # unknown: assume it reads everything


def uninitialised(program, spec: Spec) -> set[int]:
    """Registers that some path may read (or return) before writing them:
    only those need the machine's initial `= 0`. A forward "definitely
    assigned" analysis over the control-flow graph (RET and CALL are
    treated as reaching every instruction, conservatively)."""
    everything = frozenset(range(8))
    n = len(program)
    succ: list[list[int]] = []
    for i, ins in enumerate(program):
        op = ins.op.mnemonic
        if op == "HALT":
            succ.append([])
        elif op == "JMP":
            succ.append([ins.imm])
        elif op in _CONDITIONS:
            succ.append([ins.imm, i + 1])
        elif op in ("CALL", "RET"):
            succ.append(list(range(n)))
        else:
            succ.append([i + 1])
    assigned: list[frozenset | None] = [None] * n  # None = not reached yet
    assigned[0] = frozenset(spec.inputs) if n else None
    work = [0] if n else []
    while work:
        i = work.pop()
        reads, writes = _reads_writes(program[i])
        out = assigned[i] | frozenset(writes)
        for j in succ[i]:
            if not 0 <= j < n:
                continue
            new = out if assigned[j] is None else assigned[j] & out
            if new != assigned[j]:
                assigned[j] = new
                work.append(j)
    need: set[int] = set()
    for i, ins in enumerate(program):
        if assigned[i] is None:
            continue
        reads, writes = _reads_writes(ins)
        need.update(r for r in reads if r not in assigned[i])
        if ins.op.mnemonic == "HALT" or not 0 <= i + 1 <= n:
            need.update(r for r in spec.outputs if r not in assigned[i])
    # Falling off the end (no HALT reached) still returns the outputs.
    if n and program[-1].op.mnemonic != "HALT" and assigned[-1] is not None:
        reads, writes = _reads_writes(program[-1])
        need.update(r for r in spec.outputs if r not in assigned[-1] | frozenset(writes))
    return need & everything


def _needed(source: str) -> list[str]:
    """The helpers `source` calls, and those they call, in definition order."""
    found: set[str] = set()
    todo = [source]
    while todo:
        text = todo.pop()
        for h, helper in _HELPERS.items():
            if h not in found and re.search(rf"\b{h}\(", text):
                found.add(h)
                todo.append(helper)
    return [h for h in _HELPERS if h in found]


def compile_python(source: str, name: str = "f"):
    namespace: dict = {}
    exec(compile(source, "<synthesised>", "exec"), namespace)  # noqa: S102 - our own emitted code
    return namespace[name]


def check_python(source: str, spec: Spec, deadline: float | None = None) -> bool:
    """Run the emitted function on every example (False when `deadline`,
    a time.monotonic() value, passes first)."""
    f = compile_python(source)
    for index, example in enumerate(spec.examples):
        if deadline is not None and index % 256 == 0 and time.monotonic() > deadline:
            return False
        args = list(example.inputs)
        mem = None
        if spec.uses_memory:
            mem = [0] * DEFAULT_MEM_SIZE
            for base, values in example.memory_in:
                mem[base:base + len(values)] = list(values)
            args.append(mem)
        result = f(*args)
        got = () if not spec.outputs else (tuple(result) if len(spec.outputs) > 1 else (result,))
        if got != example.outputs:
            return False
        for base, values in example.memory_out:
            if tuple(mem[base:base + len(values)]) != values:
                return False
    return True
