"""The meaning of an nsl program, written to be read: a tree-walking interpreter.

It is the oracle the compiler is tested against (compiled code on every
engine must print what this prints and exit with the same status), and it
states the semantics in one place: values are signed 32-bit words, every
operator computes what the nCPU instruction it compiles to computes
(`ncpu.nsl.fold.evaluate`, which calls `ncpu.isa.semantics`), && and ||
stop at the first operand that decides, locals start at 0, array indexes
are not checked (an address wraps modulo the memory size, as on the machine).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ncpu.isa.semantics import wrap
from ncpu.nsl import syntax as ast
from ncpu.nsl.fold import evaluate, evaluate_unary


class _Return(Exception):
    def __init__(self, value: int):
        self.value = value


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Exit(Exception):
    def __init__(self, status: int):
        self.status = status


class StepLimit(Exception):
    """The program ran longer than the interpreter's budget."""


@dataclass
class Outcome:
    output: bytes
    status: int                 # exit status: main's result or exit()'s argument
    memory: dict[int, int] = field(default_factory=dict)


class Interpreter:
    def __init__(self, module: ast.Module, layout: dict[str, int], mem_size: int, max_steps: int = 10_000_000):
        self.functions = {f.name: f for f in module.functions}
        self.globals = {g.name: g for g in module.globals}
        self.layout = layout            # global name -> address (the compiler's layout, for peek/poke)
        self.mem_size = mem_size
        self.memory: dict[int, int] = {}
        for g in module.globals:
            for offset, value in enumerate(g.values):
                self.memory[(layout[g.name] + offset) % mem_size] = value
        self.output = bytearray()
        self.budget = max_steps

    def run(self, args: list[int]) -> Outcome:
        main = self.functions["main"]
        try:
            status = self.call(main, [wrap(a) for a in args] + [0] * (len(main.params) - len(args)))
        except _Exit as stop:
            status = stop.status
        return Outcome(bytes(self.output), status, self.memory)

    # -- memory: globals and arrays live at the compiler's addresses -----------------

    def load(self, address: int) -> int:
        return self.memory.get(address % self.mem_size, 0)

    def store(self, address: int, value: int) -> None:
        self.memory[address % self.mem_size] = value

    # -- statements ------------------------------------------------------------------

    def call(self, function: ast.Function, args: list[int]) -> int:
        frame = [dict(zip(function.params, args))]
        try:
            self.execute(function.body, frame)
        except _Return as result:
            return result.value
        return 0

    def tick(self) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise StepLimit("the program did not finish within the interpreter's budget")

    def execute(self, node: ast.Node, scopes: list[dict[str, int]]) -> None:
        self.tick()
        if isinstance(node, ast.Block):
            scopes.append({})
            try:
                for inner in node.body:
                    self.execute(inner, scopes)
            finally:
                scopes.pop()
        elif isinstance(node, ast.Declare):
            value = 0 if node.value is None else self.value(node.value, scopes)
            scopes[-1][node.name] = value
        elif isinstance(node, ast.Assign):
            self.assign(node, scopes)
        elif isinstance(node, ast.ExprStmt):
            self.value(node.expr, scopes)
        elif isinstance(node, ast.If):
            if self.value(node.cond, scopes):
                self.execute(node.then, scopes)
            elif node.otherwise is not None:
                self.execute(node.otherwise, scopes)
        elif isinstance(node, ast.While):
            self.loop(node.cond, None, node.body, scopes)
        elif isinstance(node, ast.For):
            scopes.append({})
            try:
                if node.init is not None:
                    self.execute(node.init, scopes)
                self.loop(node.cond, node.step, node.body, scopes)
            finally:
                scopes.pop()
        elif isinstance(node, ast.Return):
            raise _Return(0 if node.value is None else self.value(node.value, scopes))
        elif isinstance(node, ast.Break):
            raise _Break
        elif isinstance(node, ast.Continue):
            raise _Continue

    def loop(self, cond, step, body, scopes) -> None:
        while cond is None or self.value(cond, scopes):
            try:
                self.execute(body, scopes)
            except _Break:
                return
            except _Continue:
                pass
            if step is not None:
                self.execute(step, scopes)

    def assign(self, node: ast.Assign, scopes) -> None:
        target = node.target
        if isinstance(target, ast.Index):
            address = self.layout[target.name] + self.value(target.index, scopes)
            value = self.value(node.value, scopes)
            if node.op is not None:
                value = evaluate(node.op, self.load(address), value)
            self.store(address, value)
            return
        value = self.value(node.value, scopes)
        if node.op is not None:
            value = evaluate(node.op, self.variable(target.name, scopes), value)
        for scope in reversed(scopes):
            if target.name in scope:
                scope[target.name] = value
                return
        self.store(self.layout[target.name], value)

    # -- expressions -----------------------------------------------------------------

    def variable(self, name: str, scopes) -> int:
        for scope in reversed(scopes):
            if name in scope:
                return scope[name]
        return self.load(self.layout[name])

    def value(self, node: ast.Node, scopes) -> int:
        if isinstance(node, ast.Num):
            return node.value
        if isinstance(node, ast.Name):
            return self.variable(node.name, scopes)
        if isinstance(node, ast.Index):
            return self.load(self.layout[node.name] + self.value(node.index, scopes))
        if isinstance(node, ast.Unary):
            return evaluate_unary(node.op, self.value(node.operand, scopes))
        if isinstance(node, ast.Binary):
            left = self.value(node.left, scopes)
            if node.op == "&&" and not left:
                return 0
            if node.op == "||" and left:
                return 1
            return evaluate(node.op, left, self.value(node.right, scopes))
        if isinstance(node, ast.Conditional):
            return self.value(node.then if self.value(node.cond, scopes) else node.otherwise, scopes)
        if isinstance(node, ast.Call):
            return self.call_named(node, scopes)
        raise TypeError(type(node).__name__)

    def call_named(self, node: ast.Call, scopes) -> int:
        if node.name == "print":
            for arg in node.args:
                if isinstance(arg, ast.Str):
                    self.output += arg.text.encode("latin-1")
                else:
                    self.output += str(self.value(arg, scopes)).encode()
            return 0
        if node.name == "putc":
            self.output.append(self.value(node.args[0], scopes) & 0xFF)
            return 0
        if node.name == "exit":
            raise _Exit(self.value(node.args[0], scopes))
        if node.name == "peek":
            return self.load(self.value(node.args[0], scopes))
        if node.name == "poke":
            address = self.value(node.args[0], scopes)
            self.store(address, self.value(node.args[1], scopes))
            return 0
        args = [self.value(arg, scopes) for arg in node.args]
        return self.call(self.functions[node.name], args)


def interpret(source: str, args: list[int] = (), max_steps: int = 10_000_000) -> Outcome:
    """Run nsl source directly (after the compiler's checks, so that only
    valid programs are run); the output bytes and exit status."""
    from ncpu.nsl import compile_source, parse

    compiled = compile_source(source)
    return Interpreter(parse(source), compiled.globals, compiled.mem_size, max_steps).run(list(args))
