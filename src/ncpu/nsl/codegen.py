"""The syntax tree -> nCPU assembly text.

Conventions of the generated code (docs/nsl.md has the picture):

    R0       the value of the expression being computed; a function's result
    R1       the second operand of a binary operation
    R2-R5    scratch (runtime routines, system call arguments)
    R6       always 0: the base register of absolute addresses [R6+addr]
    R7       the frame pointer: slot k of the current function is [R7+k]

Frames live on a software stack in data memory that grows upward from the
end of the global data: a function's parameters are its first slots, its
locals the next ones. A caller moves R7 up by its own frame size, stores
the arguments into the new frame, CALLs, and moves R7 back; so nothing
but the return address (CALL/RET) and the temporaries of an expression
being computed (PUSH/POP) go on the machine's stack, which grows down from
the top of memory. `main`'s parameters are the machine's initial R1..R5.

Memory: words 0..1023 are left alone (the machine's default memory, with
the text screen of the neural display at 256..736); global data starts at
DATA_BASE, then the frames; the machine's stack takes the top.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ncpu.isa.encoding import field_range
from ncpu.nsl import syntax as ast
from ncpu.nsl.errors import NslError
from ncpu.nsl.fold import ALU_OPS, COMPARISONS, constant
from ncpu.nsl.runtime import PRINT_BUFFER_WORDS, STDOUT, SYS_EXIT, SYS_WRITE, print_int

DATA_BASE = 1024
FRAME_STACK_WORDS = 2048     # software stack of frames (parameters and locals)
MACHINE_STACK_WORDS = 1024   # return addresses and expression temporaries
MAIN_ARGUMENT_REGISTERS = ("R1", "R2", "R3", "R4", "R5")
IMM_LO, IMM_HI = field_range("imm15")

# Builtins: name -> number of arguments (None: any), and whether they give a value.
BUILTINS = {"print": (None, False), "putc": (1, False), "exit": (1, False), "peek": (1, True), "poke": (2, False)}
# Operators with an immediate form in the ISA (ADDI, ANDI, ... SHRI).
IMMEDIATE_OPS = {"+", "-", "&", "|", "^", "<<", ">>", ">>>"}
SHIFTS = {"<<", ">>", ">>>"}
JUMPS = {"==": "JZ", "!=": "JNZ", "<": "JL", "<=": "JLE", ">": "JG", ">=": "JGE"}
NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
BOOLEAN_OPS = set(COMPARISONS) | {"&&", "||"}


@dataclass
class Symbol:
    kind: str           # 'local', 'global', 'array', 'function'
    address: int = 0    # local: frame slot; global/array: absolute address
    size: int = 1       # array length; function: parameter count
    label: str = ""     # function label


@dataclass
class CompiledProgram:
    """The assembly text and the layout a runner or a debugger needs."""

    assembly: str
    mem_size: int
    globals: dict[str, int]            # global name -> address (arrays: their first word)
    main_params: list[str]             # main's parameters, read from R1.. at start
    data: dict[int, int] = field(default_factory=dict)   # initial data words, address -> value
    frames_base: int = 0


def calls(node: ast.Node) -> bool:
    """Whether computing `node` may call a function (which could change a variable)."""
    if isinstance(node, ast.Call):
        return True
    return any(calls(child) for child in vars(node).values() if isinstance(child, ast.Node))


class _Function:
    """Codegen state of one function: scopes of locals and the frame size."""

    def __init__(self, node: ast.Function):
        self.node = node
        self.scopes: list[dict[str, int]] = [{name: slot for slot, name in enumerate(node.params)}]
        self.next_slot = len(node.params)
        self.frame_size = len(node.params)
        self.loops: list[tuple[str, str]] = []   # (continue label, break label)


class CodeGenerator:
    def __init__(self, module: ast.Module, source: str = "", name: str = "program.nsl"):
        self.module = module
        self.source_lines = source.splitlines()
        self.name = name
        self.lines: list[str] = []
        self.label_count = 0
        self.symbols: dict[str, Symbol] = {}
        self.strings: dict[str, int] = {}
        self.data: dict[int, int] = {}
        self.used_print_int = False
        self.commented_line = 0
        self.function: _Function | None = None
        self.print_buffer = DATA_BASE
        self.char_buffer = DATA_BASE + PRINT_BUFFER_WORDS
        self.data_end = self.char_buffer + 1

    # -- output helpers --------------------------------------------------------------

    def emit(self, text: str) -> None:
        self.lines.append("        " + text)

    def place(self, label: str) -> None:
        self.lines.append(f"{label}:")

    def new_label(self) -> str:
        self.label_count += 1
        return f".L{self.label_count}"

    def error(self, node: ast.Node, reason: str):
        raise NslError(node.line, node.column, reason)

    # -- the module ------------------------------------------------------------------

    def generate(self) -> CompiledProgram:
        self.declare_globals()
        body_start = len(self.lines)
        for function in self.module.functions:
            self.generate_function(function)
        body = self.lines[body_start:]
        self.lines = self.lines[:body_start]
        if self.used_print_int:
            body += [""] + print_int(self.print_buffer)
        frames_base = self.data_end
        mem_size = -(-(frames_base + FRAME_STACK_WORDS + MACHINE_STACK_WORDS) // 1024) * 1024
        main = self.symbols.get("main")
        if main is None or main.kind != "function":
            raise NslError(1, 1, "no function 'main'")
        main_node = next(f for f in self.module.functions if f.name == "main")
        if len(main_node.params) > len(MAIN_ARGUMENT_REGISTERS):
            self.error(main_node, f"main takes at most {len(MAIN_ARGUMENT_REGISTERS)} parameters (R1..R5)")
        header = [f"; compiled from {self.name} by `ncpu compile` (nsl, docs/nsl.md)",
                  f"; @mem-size {mem_size}",
                  f"; data {DATA_BASE}..{frames_base - 1}, frames from {frames_base}, machine stack at the top",
                  "_start:",
                  "        MOV  R6, 0"]
        self.lines = header
        for address, value in sorted(self.data.items()):
            if value:
                self.emit(f"MOV  R0, {value}")
                self.emit(f"STORE R0, [R6+{address}]")
        self.emit(f"MOV  R7, {frames_base}")
        for slot, register in enumerate(MAIN_ARGUMENT_REGISTERS[:len(main_node.params)]):
            self.emit(f"STORE {register}, [R7+{slot}]      ; main's {main_node.params[slot]}")
        self.emit(f"CALL {main.label}")
        self.emit("MOV  R1, R0            ; exit(main's result)")
        self.emit(f"MOV  R0, {SYS_EXIT}")
        self.emit("SYS")
        self.emit("HALT")
        self.lines += body
        globals_ = {name: s.address for name, s in self.symbols.items() if s.kind in ("global", "array")}
        params = list(main_node.params)
        return CompiledProgram("\n".join(self.lines) + "\n", mem_size, globals_, params, dict(self.data), frames_base)

    def declare_globals(self) -> None:
        for index, function in enumerate(self.module.functions):
            self.check_new_name(function, function.name)
            self.symbols[function.name] = Symbol("function", size=len(function.params),
                                                 label=f"fn{index}_{function.name}")
        for node in self.module.globals:
            self.check_new_name(node, node.name)
            size = node.size or 1
            symbol = Symbol("array" if node.size is not None else "global", self.data_end, size)
            self.symbols[node.name] = symbol
            for offset, value in enumerate(node.values):
                self.data[symbol.address + offset] = value
            self.data_end += size
        if self.data_end > IMM_HI:
            raise NslError(1, 1, f"global data of {self.data_end - DATA_BASE} words does not fit below "
                                 f"address {IMM_HI} (absolute addresses are 15-bit offsets)")

    def check_new_name(self, node: ast.Node, name: str) -> None:
        if name in BUILTINS:
            self.error(node, f"'{name}' is a builtin and cannot be redefined")
        if name in self.symbols:
            self.error(node, f"'{name}' is defined twice")

    def string_address(self, text: str) -> int:
        """Strings are data: one word per byte, deduplicated."""
        if text not in self.strings:
            if self.data_end + len(text) > IMM_HI:
                raise NslError(1, 1, "global data and strings do not fit below address 16383")
            self.strings[text] = self.data_end
            for offset, char in enumerate(text):
                self.data[self.data_end + offset] = ord(char)
            self.data_end += len(text)
        return self.strings[text]

    # -- functions -------------------------------------------------------------------

    def generate_function(self, node: ast.Function) -> None:
        self.function = _Function(node)
        symbol = self.symbols[node.name]
        self.lines.append("")
        self.place(symbol.label)
        start = len(self.lines)
        self.statement(node.body)
        self.emit("MOV  R0, 0")
        self.emit("RET")
        size = self.function.frame_size
        if size > IMM_HI:
            self.error(node, f"function '{node.name}' has {size} locals; at most {IMM_HI}")
        # The frame size is known only now: fill it into this function's calls.
        out = self.lines[:start]
        for line in self.lines[start:]:
            if "{FRAME}" in line:
                if size:
                    out.append(line.replace("{FRAME}", str(size)))
            else:
                out.append(line)
        self.lines = out
        self.function = None

    def lookup(self, node: ast.Node, name: str) -> Symbol:
        for scope in reversed(self.function.scopes):
            if name in scope:
                return Symbol("local", scope[name])
        if name in self.symbols:
            return self.symbols[name]
        self.error(node, f"'{name}' is not defined")

    def declare_local(self, node: ast.Node, name: str) -> int:
        f = self.function
        if name in f.scopes[-1]:
            self.error(node, f"'{name}' is already declared in this block")
        if name in BUILTINS:
            self.error(node, f"'{name}' is a builtin and cannot be a variable")
        slot = f.next_slot
        f.scopes[-1][name] = slot
        f.next_slot += 1
        f.frame_size = max(f.frame_size, f.next_slot)
        return slot

    def push_scope(self) -> None:
        self.function.scopes.append({})

    def pop_scope(self, saved_slot: int) -> None:
        self.function.scopes.pop()
        self.function.next_slot = saved_slot     # a block's slots are free again after it

    # -- statements ------------------------------------------------------------------

    def comment(self, node: ast.Node) -> None:
        """The source line above its code, once."""
        if node.line == self.commented_line:
            return
        self.commented_line = node.line
        if 0 < node.line <= len(self.source_lines):
            text = self.source_lines[node.line - 1].strip()
            self.lines.append(f"        ; {node.line}: {text[:70]}")

    def statement(self, node: ast.Node) -> None:
        if isinstance(node, ast.Block):
            saved = self.function.next_slot
            self.push_scope()
            for inner in node.body:
                self.statement(inner)
            self.pop_scope(saved)
            return
        self.comment(node)
        if isinstance(node, ast.Declare):
            if node.value is not None:
                self.expression(node.value)
            else:
                self.emit("MOV  R0, 0")
            slot = self.declare_local(node, node.name)
            self.emit(f"STORE R0, [R7+{slot}]")
        elif isinstance(node, ast.Assign):
            self.assign(node)
        elif isinstance(node, ast.ExprStmt):
            self.call(node.expr, want_value=False)
        elif isinstance(node, ast.If):
            otherwise, end = self.new_label(), self.new_label()
            self.branch(node.cond, otherwise, False)
            self.statement(node.then)
            if node.otherwise is not None:
                self.emit(f"JMP  {end}")
            self.place(otherwise)
            if node.otherwise is not None:
                self.statement(node.otherwise)
                self.place(end)
        elif isinstance(node, ast.While):
            self.loop(node.cond, None, node.body)
        elif isinstance(node, ast.For):
            saved = self.function.next_slot
            self.push_scope()
            if node.init is not None:
                self.statement(node.init)
            self.loop(node.cond, node.step, node.body)
            self.pop_scope(saved)
        elif isinstance(node, ast.Return):
            if node.value is not None:
                self.expression(node.value)
            else:
                self.emit("MOV  R0, 0")
            self.emit("RET")
        elif isinstance(node, (ast.Break, ast.Continue)):
            if not self.function.loops:
                self.error(node, f"'{'break' if isinstance(node, ast.Break) else 'continue'}' outside a loop")
            go_on, leave = self.function.loops[-1]
            self.emit(f"JMP  {leave if isinstance(node, ast.Break) else go_on}")
        else:  # pragma: no cover - the parser builds only the nodes above
            self.error(node, f"unexpected {type(node).__name__}")

    def loop(self, cond, step, body) -> None:
        """Test at the bottom: one conditional jump per iteration."""
        top, go_on, test, end = (self.new_label() for _ in range(4))
        self.emit(f"JMP  {test}")
        self.place(top)
        self.function.loops.append((go_on, end))
        self.statement(body)
        self.function.loops.pop()
        self.place(go_on)
        if step is not None:
            self.statement(step)
        self.place(test)
        if cond is None:
            self.emit(f"JMP  {top}")
        else:
            self.branch(cond, top, True)
        self.place(end)

    def assign(self, node: ast.Assign) -> None:
        target = node.target
        value = node.value if node.op is None else ast.Binary(node.line, node.column, node.op, target, node.value)
        if isinstance(target, ast.Name):
            symbol = self.lookup(target, target.name)
            self.expression(value)
            self.store_variable(target, symbol)
            return
        base = self.array(target)
        index = constant(target.index)
        if index is not None and 0 <= base + index <= IMM_HI:
            self.expression(value)
            self.emit(f"STORE R0, [R6+{base + index}]")
        elif node.op is None and self.is_leaf(node.value):
            self.expression(target.index)
            self.emit("MOV  R1, R0")
            self.leaf(node.value, "R0")
            self.emit(f"STORE R0, [R1+{base}]")
        elif node.op is None:
            self.expression(target.index)
            self.emit("PUSH R0")
            self.expression(node.value)
            self.emit("POP  R1")
            self.emit(f"STORE R0, [R1+{base}]")
        else:   # a[i] op= v: the index is computed once
            self.expression(target.index)
            self.emit("PUSH R0")
            self.emit(f"LOAD R0, [R0+{base}]")
            self.operate(node.op, node.value, node)
            self.emit("POP  R1")
            self.emit(f"STORE R0, [R1+{base}]")

    def store_variable(self, node: ast.Node, symbol: Symbol) -> None:
        if symbol.kind == "local":
            self.emit(f"STORE R0, [R7+{symbol.address}]")
        elif symbol.kind == "global":
            self.emit(f"STORE R0, [R6+{symbol.address}]")
        else:
            self.error(node, f"cannot assign to {symbol.kind} '{node.name}'")

    def array(self, node: ast.Index) -> int:
        symbol = self.lookup(node, node.name)
        if symbol.kind != "array":
            self.error(node, f"'{node.name}' is not an array")
        return symbol.address

    # -- expressions: the value into R0 ------------------------------------------------

    def is_leaf(self, node: ast.Node) -> bool:
        """Loadable into any register in one instruction, touching nothing else."""
        if constant(node) is not None:
            return True
        if isinstance(node, ast.Name):
            symbol = self.lookup(node, node.name)
            return symbol.kind in ("local", "global")
        return False

    def leaf(self, node: ast.Node, register: str) -> None:
        value = constant(node)
        if value is not None:
            self.emit(f"MOV  {register}, {value}")
            return
        symbol = self.lookup(node, node.name)
        base = "R7" if symbol.kind == "local" else "R6"
        self.emit(f"LOAD {register}, [{base}+{symbol.address}]")

    def expression(self, node: ast.Node) -> None:
        if constant(node) is not None:
            self.leaf(node, "R0")
        elif isinstance(node, ast.Name):
            symbol = self.lookup(node, node.name)
            if symbol.kind == "array":
                self.error(node, f"array '{node.name}' needs an index")
            if symbol.kind == "function":
                self.error(node, f"function '{node.name}' is not a value; call it")
            self.leaf(node, "R0")
        elif isinstance(node, ast.Index):
            base = self.array(node)
            index = constant(node.index)
            if index is not None and 0 <= base + index <= IMM_HI:
                self.emit(f"LOAD R0, [R6+{base + index}]")
            else:
                self.expression(node.index)
                self.emit(f"LOAD R0, [R0+{base}]")
        elif isinstance(node, ast.Unary) and node.op in ("-", "~"):
            self.expression(node.operand)
            self.emit(f"{'NEG' if node.op == '-' else 'NOT'}  R0, R0")
        elif isinstance(node, ast.Binary) and node.op in ALU_OPS:
            self.binary(node)
        elif isinstance(node, (ast.Binary, ast.Unary)):  # comparisons, && || !: 0 or 1
            false, end = self.new_label(), self.new_label()
            self.branch(node, false, False)
            self.emit("MOV  R0, 1")
            self.emit(f"JMP  {end}")
            self.place(false)
            self.emit("MOV  R0, 0")
            self.place(end)
        elif isinstance(node, ast.Conditional):
            otherwise, end = self.new_label(), self.new_label()
            self.branch(node.cond, otherwise, False)
            self.expression(node.then)
            self.emit(f"JMP  {end}")
            self.place(otherwise)
            self.expression(node.otherwise)
            self.place(end)
        elif isinstance(node, ast.Call):
            self.call(node, want_value=True)
        elif isinstance(node, ast.Str):
            self.error(node, "a string can only be an argument of print")
        else:  # pragma: no cover
            self.error(node, f"unexpected {type(node).__name__}")

    def operate(self, op: str, right: ast.Node, node: ast.Node) -> None:
        """R0 = R0 op right."""
        mnemonic = ALU_OPS[op]
        value = constant(right)
        if value is not None and op in IMMEDIATE_OPS and (
                (0 <= value <= 31) if op in SHIFTS else IMM_LO < value <= IMM_HI):
            self.emit(f"{mnemonic:4} R0, R0, {value}")
            return
        if self.is_leaf(right):
            self.leaf(right, "R1")
        else:
            self.emit("PUSH R0")
            self.expression(right)
            self.emit("MOV  R1, R0")
            self.emit("POP  R0")
        self.emit(f"{mnemonic:4} R0, R0, R1")

    def binary(self, node: ast.Binary) -> None:
        """R0 = left op right. A leaf on the left (a constant or a variable)
        is loaded after the right side is computed, so nothing is pushed."""
        if self.is_leaf(node.left) and not self.is_leaf(node.right) and not calls(node.right):
            self.expression(node.right)
            self.leaf(node.left, "R1")
            self.emit(f"{ALU_OPS[node.op]:4} R0, R1, R0")
        else:
            self.expression(node.left)
            self.operate(node.op, node.right, node)

    def compare(self, node: ast.Binary) -> None:
        """Flags from left - right."""
        if self.is_leaf(node.left) and not self.is_leaf(node.right) and not calls(node.right):
            self.expression(node.right)
            self.leaf(node.left, "R1")
            self.emit("CMP  R1, R0")
            return
        self.expression(node.left)
        value = constant(node.right)
        if value is not None and IMM_LO <= value <= IMM_HI:
            self.emit(f"CMP  R0, {value}")
            return
        if self.is_leaf(node.right):
            self.leaf(node.right, "R1")
        else:
            self.emit("PUSH R0")
            self.expression(node.right)
            self.emit("MOV  R1, R0")
            self.emit("POP  R0")
        self.emit("CMP  R0, R1")

    def branch(self, node: ast.Node, label: str, jump_if: bool) -> None:
        """Jump to `label` when the condition's truth is `jump_if`; fall through otherwise."""
        value = constant(node)
        if value is not None:
            if bool(value) == jump_if:
                self.emit(f"JMP  {label}")
            return
        if isinstance(node, ast.Unary) and node.op == "!":
            self.branch(node.operand, label, not jump_if)
        elif isinstance(node, ast.Binary) and node.op in COMPARISONS:
            self.compare(node)
            self.emit(f"{JUMPS[node.op if jump_if else NEGATED[node.op]]:4} {label}")
        elif isinstance(node, ast.Binary) and node.op in ("&&", "||"):
            # a && b jumps on false as soon as a is false; a || b on true as soon as a is true.
            decided = node.op == "||"
            if jump_if == decided:
                self.branch(node.left, label, jump_if)
                self.branch(node.right, label, jump_if)
            else:
                skip = self.new_label()
                self.branch(node.left, skip, decided)
                self.branch(node.right, label, jump_if)
                self.place(skip)
        else:
            self.expression(node)
            self.emit("CMP  R0, 0")
            self.emit(f"{'JNZ' if jump_if else 'JZ'}  {label}")

    # -- calls -------------------------------------------------------------------------

    def call(self, node: ast.Node, want_value: bool) -> None:
        if not isinstance(node, ast.Call):
            self.error(node, "expected a call")
        if node.name in BUILTINS:
            self.builtin(node, want_value)
            return
        symbol = self.lookup(node, node.name)
        if symbol.kind != "function":
            self.error(node, f"'{node.name}' is not a function")
        if len(node.args) != symbol.size:
            self.error(node, f"'{node.name}' takes {symbol.size} argument(s), given {len(node.args)}")
        # Arguments are computed in the caller's frame and pushed; the last one
        # stays in R0 (moving R7 does not touch it).
        for position, arg in enumerate(node.args):
            self.expression(arg)
            if position < len(node.args) - 1:
                self.emit("PUSH R0")
        self.emit("ADD  R7, R7, {FRAME}")
        for slot in reversed(range(len(node.args))):
            if slot < len(node.args) - 1:
                self.emit("POP  R0")
            self.emit(f"STORE R0, [R7+{slot}]")
        self.emit(f"CALL {symbol.label}")
        self.emit("SUB  R7, R7, {FRAME}")

    def builtin(self, node: ast.Call, want_value: bool) -> None:
        count, gives_value = BUILTINS[node.name]
        if count is not None and len(node.args) != count:
            self.error(node, f"'{node.name}' takes {count} argument(s), given {len(node.args)}")
        if want_value and not gives_value:
            self.error(node, f"'{node.name}' gives no value")
        if node.name == "print":
            for arg in node.args:
                if isinstance(arg, ast.Str):
                    if arg.text:
                        self.write(self.string_address(arg.text), len(arg.text))
                else:
                    self.expression(arg)
                    self.used_print_int = True
                    self.emit("CALL rt_print_int")
        elif node.name == "putc":
            self.expression(node.args[0])
            self.emit(f"STORE R0, [R6+{self.char_buffer}]")
            self.write(self.char_buffer, 1)
        elif node.name == "exit":
            self.expression(node.args[0])
            self.emit("MOV  R1, R0")
            self.emit(f"MOV  R0, {SYS_EXIT}")
            self.emit("SYS")
            self.emit("HALT")
        elif node.name == "peek":
            self.expression(node.args[0])
            self.emit("LOAD R0, [R0+0]")
        elif node.name == "poke":
            if self.is_leaf(node.args[1]):
                self.expression(node.args[0])
                self.emit("MOV  R1, R0")
                self.leaf(node.args[1], "R0")
            else:
                self.expression(node.args[0])
                self.emit("PUSH R0")
                self.expression(node.args[1])
                self.emit("POP  R1")
            self.emit("STORE R0, [R1+0]")

    def write(self, address: int, count: int) -> None:
        self.emit(f"MOV  R0, {SYS_WRITE}")
        self.emit(f"MOV  R1, {STDOUT}")
        self.emit(f"MOV  R2, {address}")
        self.emit(f"MOV  R3, {count}")
        self.emit("SYS")
