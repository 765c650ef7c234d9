"""Generate the hot loop's per-row code (run.py, between the GENERATED markers).

    python -m ncpu.arm64.cpu.gen_loop          # rewrite the generated part of run.py
    python -m ncpu.arm64.cpu.gen_loop --check  # exit 1 if it is stale

For each table row with an executor family (rows.py), in op-id order, the loop
gets `elif op == ID:` and a copy of the family's body in which `op` is that
row's id, every `if` whose test is then a constant is folded away, locals are
prefixed with the row's name, `m.pt`/`V.d` become the loop's own bindings
(HOISTED) and `return X` becomes `pc = X`; helpers marked `@inlined` (rows.py)
are copied in at their calls the same way, and guest_access's slow paths of a load or store
become calls through the loop's frame pointer (SLOW_PATHS).  A final `else: break` sends the
other rows to the loop's out-of-line paths.  So each instruction is written
once, in its family, and the loop still runs it with no call: numba does not
inline calls between compiled functions, and a call per instruction costs more
than most instructions (docs/arm64.md, "Adding an instruction", has the
measurements).  A flat chain of `op ==` tests compiles to one jump table.
Each row has its own copy, even where two copies come out the same code.
A family reads a field by name, `fld(op, w, T.FLD_SIZE)`; with `op` a
constant that becomes `(w >> 22) & 3` here.

Cold rows.  Rows of the classes in COLD_CLASSES (Advanced SIMD: rare in hot
loops, and many) and rows registered with `@executes(..., cold=True)` (rare
scalar FP rows, the vector structure loads and stores) are not copied into the
loop: the package cold_rows (written whole
by this generator) gets one out-of-line function per cold family
(`cold_vec3_pairwise`, `cold_supervisor_call`, ...: cold_groups) that calls the family
with the loop's arguments, in a module named after the family's (cold_rows/exec_vec3.py),
and the loop calls the row's function (the generated COLD_GROUP table says which) through
its address when the row leaves the inner loop.  Each address is resolved the first time
one of its rows runs, so a program compiles only the families it uses (the whole of the
out-of-line code, one function, was 45% of the cold compile of a loop that ends with SVC;
one function per module of families, until 2026-11-29, compiled the families of the module
a program did not use: docs/arm64.md).  numba inlines the family into its function
(rows.INLINE_INTO), so it is compiled once, not also on its own; and since ncpu.jitcache
stamps a function with the sources its module reaches, an edit of a family module
recompiles the functions of its own cold_rows module only.  So the
loop does not contain the cold families' code: an edit of a family does not recompile
the loop.  (Calling the families by address from one
function per module made an edit recompile the family alone, 3.1 s instead of 6.2,
but cost arm64_fp, whose vectorised loops run many cold rows, about 15% of its time
against 8%: docs/arm64.md.)  A cold family
that takes the memory arrays `m` (the vector structure loads and stores) gets them from
its function's last argument, a pointer to the loop's own copy (calls.pointer_to): numba
passes a tuple field by field, and the twelve arrays would be copied at every call.
Every row of the table has a family (a test checks it), so every row the loop does not
carry is run by one of these functions.  So the hot loop's compile does not grow with the SIMD rows.
The few SIMD rows that vectorised loops live on are registered hot
(rows.executes(hot=True)) and copied in like any other.

Rare cases.  A family the loop carries may leave a rare case to a helper registered with
rows.rare (the FP families: NaN operands and single precision, `_arith_rare`): the loop's copy
calls the family's own cold_rows function by address there instead (rare_groups; numbered
after the cold families'), which runs the instruction again, whole, and is compiled the first
time such a case runs; so the loop's cold compile leaves the helper out (_leave_for_rare).

tests/arm64/cpu/test_arm64cpu_rows.py checks that run.py and cold_rows
are current.
"""
from __future__ import annotations

import ast
import builtins
import copy
import inspect
import sys
import textwrap
from pathlib import Path

from . import decode_table as T
from . import (exec_fp, exec_int, exec_mem, exec_vacross, exec_vdiff, exec_vec3,  # noqa: F401  (register their families)
               exec_velem, exec_vestimate, exec_vfparith, exec_vmisc, exec_vmove, exec_vperm, exec_vrdm,
               exec_vfhm, exec_vscalar, exec_vshift, exec_vstruct)
from .rows import EXECUTOR, HOT, INLINED, OUT_OF_LINE, RARE

RUN = Path(__file__).with_name("run.py")
COLD = Path(__file__).with_name("cold_rows")     # a generated package
COLD_CLASSES = ("simd",)
BEGIN_IMPORTS, END_IMPORTS = "# ---- GENERATED IMPORTS BEGIN", "# ---- GENERATED IMPORTS END"
BEGIN, END = "# ---- GENERATED ROWS BEGIN", "# ---- GENERATED ROWS END"
# The loop's own names a family's parameters may use (bound by name; `op` becomes the row id).
LOOP_NAMES = ("op", "w", "imm", "pc", "R", "V", "m", "st", "a", "b", "c", "d", "steps")
# A rare case in the loop's copy (_leave_for_rare): its family's cold_rows function, number k, by
# address; the names it uses besides LOOP_NAMES are the loop's own, not the family's globals
RARE_CALL = ("if fp[{k}]:\n"
             "    return call_at(fp[{k}], op, w, imm, pc, R, V, st, rg, mp, steps)\n"
             "return unresolved(st, {k}, pc)\n")
RARE_CALL_NAMES = {n.id for n in ast.walk(ast.parse(RARE_CALL.format(k=0))) if isinstance(n, ast.Name)} - set(LOOP_NAMES)
INDENT = " " * 12


def _constant(node: ast.AST):
    """The value of an expression made only of constants and T.NAME, else None."""
    if any(isinstance(n, ast.Name) and n.id != "T" for n in ast.walk(node)):
        return None
    try:
        return eval(compile(ast.Expression(node), "<row>", "eval"), {"T": T})
    except Exception:       # not constant after all (e.g. a call): keep the test
        return None


# Arrays of the loop-invariant tuples that the loop binds once, before it starts
# (`m.pt` -> `m_pt`): reading a field of a tuple inside the loop costs a
# reference-count call per read, more than the access it serves.
HOISTED = {"m": ("pt", "perm", "data", "d16", "d32", "d64", "dc_row", "dc_op", "dc_word", "dc_imm",
                 "dc_regs", "dc_meta"),
           "V": ("d", "b", "h", "s", "f32", "f64")}


class _Specialise(ast.NodeTransformer):
    """`op` -> the row id, locals -> prefixed, `m.pt` -> `m_pt` (HOISTED),
    constant tests and `if`s folded."""

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name) and node.attr in HOISTED.get(node.value.id, ()):
            return ast.copy_location(ast.Name(f"{node.value.id}_{node.attr}", node.ctx), node)
        self.generic_visit(node)
        return node

    def __init__(self, op_id: int, prefix: str, local_names: set[str]):
        self.op_id, self.prefix, self.local_names = op_id, prefix, local_names

    def visit_Name(self, node):
        if node.id == "op":
            return ast.copy_location(ast.Constant(self.op_id), node)
        if node.id in self.local_names:
            return ast.copy_location(ast.Name(self.prefix + node.id, node.ctx), node)
        return node

    def _fold(self, node):
        self.generic_visit(node)
        value = _constant(node)
        return node if value is None else ast.copy_location(ast.Constant(value), node)

    visit_Compare = _fold          # `op == T.SUB_I or ...` passed as an argument

    def visit_BoolOp(self, node):
        """Constant operands fold as Python evaluates them: `False and x` -> False,
        `True and x` -> x (and the same for `or`)."""
        node = self._fold(node)
        if not isinstance(node, ast.BoolOp):
            return node
        stop = isinstance(node.op, ast.Or)          # the value that decides the whole test
        values = []
        for v in node.values:
            if isinstance(v, ast.Constant) and type(v.value) is bool:
                if bool(v.value) == stop:
                    return ast.copy_location(ast.Constant(stop), node) if not values else node
                continue                              # a neutral operand: drop it
            values.append(v)
        if not values:
            return ast.copy_location(ast.Constant(not stop), node)
        if len(values) == 1:
            return values[0]
        node.values = values
        return node

    def visit_Call(self, node):
        """fld(ROW, w, T.FLD_X) -> (w >> lsb) & mask, from the table."""
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "fld" and len(node.args) == 3:
            op, k = _constant(node.args[0]), _constant(node.args[2])
            if op is not None and k is not None:
                if T.FIELD_NAMES[k] not in T.TABLE[op].fields:      # as fld: a row without the field reads 0
                    return ast.copy_location(ast.Constant(0), node)
                lsb, width = T.TABLE[op].fields[T.FIELD_NAMES[k]]
                shifted = ast.BinOp(node.args[1], ast.RShift(), ast.Constant(lsb))
                return ast.copy_location(ast.BinOp(shifted, ast.BitAnd(), ast.Constant((1 << width) - 1)), node)
        return node

    # The test first: a branch the row never takes is dropped unvisited (its
    # fields may not exist in this row, e.g. the size of NOT in `0 if op == T.NOT_v else fld(...)`).
    def visit_If(self, node):
        node.test = self.visit(node.test)
        value = _constant(node.test)
        if value is None:
            node.body, node.orelse = self._statements(node.body), self._statements(node.orelse)
            return node
        return self._statements(node.body if value else node.orelse) or [ast.Pass()]

    def visit_IfExp(self, node):
        node.test = self.visit(node.test)
        value = _constant(node.test)
        if value is None:
            node.body, node.orelse = self.visit(node.body), self.visit(node.orelse)
            return node
        return self.visit(node.body if value else node.orelse)

    def _statements(self, stmts):
        out = []
        for stmt in stmts:
            new = self.visit(stmt)
            out.extend(new if isinstance(new, list) else [] if new is None else [new])
        return out


class _Rename(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]):
        self.names = names

    def visit_Name(self, node):
        new = self.names.get(node.id)
        return node if new is None else ast.copy_location(ast.Name(new, node.ctx), node)


def _helper_call(stmt):
    """(call, target name or None) when `stmt` is `x = helper(...)` or `helper(...)`."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        value, target = stmt.value, stmt.targets[0].id
    elif isinstance(stmt, ast.Expr):
        value, target = stmt.value, None
    else:
        return None, None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in INLINED:
        return value, target
    return None, None


def _inline_helpers(stmts: list, count: list) -> list:
    """Replace each call statement of an INLINED helper by the helper's body:
    parameters bound to the arguments (a plain name is substituted, anything
    else assigned once), its locals renamed apart, `return X` -> `target = X`."""
    out = []
    for stmt in stmts:
        for field in ("body", "orelse"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                setattr(stmt, field, _inline_helpers(inner, count))
        call, target = _helper_call(stmt)
        if call is None:
            nested = [n.func.id for n in ast.walk(stmt) if isinstance(n, ast.Call)
                      and isinstance(n.func, ast.Name) and n.func.id in INLINED]
            if nested and not any(isinstance(stmt, t) for t in (ast.If, ast.For, ast.While)):
                raise ValueError(f"call {nested[0]}(...) as a statement or `x = {nested[0]}(...)`, "
                                 "so that the loop generator can copy it in")
            out.append(stmt)
            continue
        func = _family_ast(INLINED[call.func.id], check=False)
        count[0] += 1
        prefix = f"{call.func.id}{count[0]}_"
        params = [a.arg for a in func.args.args]
        names, pre = {}, []
        for param, arg in zip(params, call.args, strict=True):
            if isinstance(arg, ast.Name):
                names[param] = arg.id
            else:
                names[param] = prefix + param
                pre.append(ast.Assign([ast.Name(prefix + param, ast.Store())], arg))
        for n in ast.walk(func):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id not in names:
                names[n.id] = prefix + n.id
        body = _docless(func.body)
        body = [_Rename(names).visit(copy.deepcopy(b)) for b in body]
        body = _inline_helpers(body, count)
        out += pre + _returns_to(body, target)
    return out


def _docless(body: list) -> list:
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        return body[1:]
    return body


def _ends_in_return(stmts: list) -> bool:
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and _ends_in_return(last.body) and _ends_in_return(last.orelse)


def _returns_to(stmts: list, target: str | None) -> list:
    """`return X` -> `target = X` (nothing when target is None); an early return
    inside an `if` takes the rest into its `else`."""
    out = []
    for k, stmt in enumerate(stmts):
        if isinstance(stmt, ast.Return):
            if target is not None:
                out.append(ast.Assign([ast.Name(target, ast.Store())], stmt.value))
            return out or [ast.Pass()]
        if isinstance(stmt, ast.If) and (_ends_in_return(stmt.body) or _ends_in_return(stmt.orelse)):
            rest = stmts[k + 1:]
            body = stmt.body if _ends_in_return(stmt.body) else stmt.body + rest
            orelse = stmt.orelse if _ends_in_return(stmt.orelse) else stmt.orelse + rest
            out.append(ast.If(stmt.test, _returns_to(body, target), _returns_to(orelse, target)))
            return out
        out.append(stmt)
    if target is None:                  # a helper that returns nothing may fall off its end
        return out or [ast.Pass()]
    raise ValueError("every path must end with `return`")


def _family_ast(fn, check: bool = True) -> ast.FunctionDef:
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn.py_func)))
    func = tree.body[0]
    params = [a.arg for a in func.args.args]
    if check and (params[:1] != ["op"] or not set(params) <= set(LOOP_NAMES)):
        raise ValueError(f"{fn.__name__}: parameters must be `op` and some of {LOOP_NAMES}")
    return func


def row_body(name: str) -> tuple[ast.Module, set[str]]:
    """The row's family specialised to it (helpers copied in, constant tests folded, locals
    prefixed), its `return`s still there, and its local names.  native.py reads what a row
    does to pc from these returns, also for cold rows whose returns the loop could not place."""
    func = _family_ast(EXECUTOR[name])
    module = ast.Module(body=_inline_helpers(copy.deepcopy(_docless(func.body)), [0]), type_ignores=[])
    local_names = {n.id for n in ast.walk(module) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    module = _Specialise(T.BY_NAME_ID[name], f"{name.lower()}_", local_names).visit(module)
    return ast.fix_missing_locations(module), local_names


def _leave_for_rare(name: str, body: list, numbers: dict[str, int]) -> list:
    """The loop's copy of a family that calls a rare case (rows.rare) at the top of its body:
    `rare(...)` and the `return` after it become a call of the family's cold_rows function (its
    fp entry: `numbers`) by its address (resolved the first time, like a cold row's: calls.unresolved
    stops the loop before the instruction), which runs the instruction again, whole.  So only
    before anything changed: what comes before the call at the top level sets local names or
    returns early."""
    out = []
    for k, stmt in enumerate(body):
        call = stmt.value if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) else None
        if call is not None and isinstance(call.func, ast.Name) and call.func.id in RARE:
            if len(body) != k + 2 or not isinstance(body[k + 1], ast.Return):
                raise ValueError(f"{name}: call {call.func.id}(...) followed by `return`, last in the family")
            for prior in out:
                targets = [n for tgt in getattr(prior, "targets", ()) for n in getattr(tgt, "elts", [tgt])]
                names_only = isinstance(prior, ast.Assign) and all(isinstance(n, ast.Name) for n in targets)
                returns = isinstance(prior, ast.Pass) or (
                    isinstance(prior, ast.If) and _ends_in_return(prior.body) and not prior.orelse)
                if not (names_only or returns):
                    raise ValueError(f"{name}: before {call.func.id}(...) the family may only set local names "
                                     f"or return early (the loop runs the instruction again out of line)")
            return out + ast.parse(RARE_CALL.format(k=numbers["cold_" + EXECUTOR[name].__name__])).body
        out.append(stmt)
    return out


def _rare_calls(module: ast.AST) -> set[str]:
    return {n.func.id for n in ast.walk(module)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in RARE}


# guest_access's slow paths, called as `load(m, st, ...)` in a family: the loop's copies and
# native.py's row functions call them through the frame pointer `cp`, as calls LLVM keeps
# (guest_access's docstring says why; a page function calls the copy already loaded)
SLOW_PATHS = {"load": "slow_load", "store": "slow_store", "writable": "slow_writable"}


class _SlowPathCalls(ast.NodeTransformer):
    """`load(m, st, x...)` -> `slow_load(cp, x...)` where `load` is guest_access's."""

    def __init__(self, family_globals: dict):
        from . import guest_access
        self.names = {n for n in SLOW_PATHS if family_globals.get(n) is getattr(guest_access, n)}

    def visit_Call(self, node):
        self.generic_visit(node)
        if (isinstance(node.func, ast.Name) and node.func.id in self.names
                and [ast.unparse(a) for a in node.args[:2]] == ["m", "st"]):
            return ast.Call(ast.Name(SLOW_PATHS[node.func.id], ast.Load()),
                            [ast.Name("cp", ast.Load()), *node.args[2:]], node.keywords)
        return node


def _row_code(name: str, numbers: dict[str, int] | None = None) -> tuple[str, set[str]]:
    """The row's body as loop code, and the global names it uses: the slow paths of loads and
    stores are calls through `cp` (SLOW_PATHS); given `numbers` (the loop's copy: cold_rows'
    functions and their fp entries), a rare case calls the family's cold_rows function instead
    (_leave_for_rare)."""
    module, local_names = row_body(name)
    module = _SlowPathCalls(EXECUTOR[name].py_func.__globals__).visit(module)
    if numbers is not None:
        module.body = _leave_for_rare(name, module.body, numbers)
        if _rare_calls(module):
            raise ValueError(f"{name}: a rare case (rows.rare) is called at the top of the family's body only")
    module.body = _returns_to(module.body, "pc")
    if any(isinstance(n, ast.Return) for n in ast.walk(module)):
        raise ValueError(f"{name}: a `return` nested where the loop cannot turn it into `pc =`; "
                         "return early only from an `if` at the top of the family's body")
    ast.fix_missing_locations(module)
    used = {n.id for n in ast.walk(module) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    prefixed = {f"{name.lower()}_{v}" for v in local_names}
    hoisted = {f"{t}_{f}" for t, fields in HOISTED.items() for f in fields}
    free = used - prefixed - set(LOOP_NAMES) - hoisted - set(dir(builtins)) - {"T", "np", "cp"} - RARE_CALL_NAMES
    return ast.unparse(module), free


def _cold(name: str) -> bool:
    return (T.BY_NAME[name].cls in COLD_CLASSES and name not in HOT) or name in OUT_OF_LINE


def rows() -> list[str]:
    """Rows the loop runs itself, in op-id order."""
    return [e.name for e in T.TABLE if e.name in EXECUTOR and not _cold(e.name)]


def _home(name: str) -> str:
    """The module the loop imports a family's global from: where a function is defined,
    else the first family module (by name) holding it, so that the output does not
    depend on the order in which the families were imported."""
    if name in SLOW_PATHS.values():
        return "guest_access"
    homes = sorted(fn.py_func.__module__ for fn in EXECUTOR.values() if name in fn.py_func.__globals__)
    obj = sys.modules[homes[0]].__dict__[name]
    defined = getattr(getattr(obj, "py_func", obj), "__module__", None)
    if isinstance(defined, str) and defined.rsplit(".", 1)[0] == homes[0].rsplit(".", 1)[0]:
        return defined.rsplit(".", 1)[-1]
    return homes[0].rsplit(".", 1)[-1]


def generated() -> tuple[str, str]:
    """(imports, row code) for run.py."""
    lines, free = [], set()
    groups = out_of_line_groups()
    numbers = {group: k for k, group in enumerate(groups)}
    # one copy per row, even where two rows' copies are the same code (LDST_UI and LDST_UNSC):
    # one copy for both made arm64_calls and arm64_bench slower (docs/arm64.md, "One copy per row")
    for name in rows():
        code, names = _row_code(name, numbers)
        free |= names
        lines.append(f"{INDENT}{'elif' if lines else 'if'} op == {T.BY_NAME_ID[name]}:  # {name}")
        lines += [f"{INDENT}    {line}" for line in code.splitlines()]
    lines += [f"{INDENT}else:                                          # a cold row (cold_rows)",
              f"{INDENT}    break"]
    by_module: dict[str, list[str]] = {}
    for name in sorted(free):
        by_module.setdefault(_home(name), []).append(name)
    imports = []
    for mod, names in sorted(by_module.items()):
        imports.append(f"from .{mod} import (  # noqa: F811")
        imports += [f"    {', '.join(names[k:k + 8])}," for k in range(0, len(names), 8)]
        imports.append(")")
    ids = ", ".join(str(T.BY_NAME_ID[name]) for name in rows())
    imports.append("# the rows that run in the generated code (the others: cold_rows)")
    imports.append(f"DISPATCHED = np.zeros({T.NOPS}, np.bool_)")
    imports.append("DISPATCHED[np.array([")
    imports += textwrap.wrap(ids, 96, initial_indent="    ", subsequent_indent="    ")
    imports.append("])] = True")
    group = [-1] * T.NOPS
    for k, (_, ids) in enumerate(groups.values()):
        for i in ids:
            group[i] = k
    imports.append("# each row's function of cold_rows (cold_rows.group(k), whose address is fp[k]); -1: a row the loop runs,")
    imports.append("# without a rare case (rows.rare) that its copy calls that function for")
    imports.append("COLD_GROUP = np.array([")
    imports += textwrap.wrap(", ".join(map(str, group)), 96, initial_indent="    ", subsequent_indent="    ")
    imports.append("], np.int8)")
    imports.append(f"NATIVE = {len(groups)}                     # fp[NATIVE]: native.py's threshold, after the addresses")
    return "\n".join(imports), "\n".join(lines)


def cold_rows() -> list[str]:
    """Rows with a family that run out of line, in op-id order."""
    return [e.name for e in T.TABLE if e.name in EXECUTOR and _cold(e.name)]


def cold_groups() -> dict[str, tuple[object, list[int]]]:
    """The cold rows' families (cold_rows' functions, `cold_` + the family's name), each
    with its rows' ids, in order of first row."""
    groups: dict[str, tuple[object, list[int]]] = {}
    for name in cold_rows():
        fn = EXECUTOR[name]
        groups.setdefault("cold_" + fn.__name__, (fn, []))[1].append(T.BY_NAME_ID[name])
    return groups


def rare_groups() -> dict[str, tuple[object, list[int]]]:
    """The families the loop carries whose rare case runs out of line (rows.rare), each with
    its rows' ids: their cold_rows function runs a row's instruction when its copy in the loop
    met the rare case."""
    loop_rows = rows()
    rare = {fn for fn in {EXECUTOR[name] for name in loop_rows} if _rare_calls(_family_ast(fn))}
    groups: dict[str, tuple[object, list[int]]] = {}
    for name in loop_rows:
        if EXECUTOR[name] in rare:
            groups.setdefault("cold_" + EXECUTOR[name].__name__, (EXECUTOR[name], []))[1].append(T.BY_NAME_ID[name])
    return groups


def out_of_line_groups() -> dict[str, tuple[object, list[int]]]:
    """cold_rows' functions in the order of their numbers (fp[k]): the cold families', then
    those of the loop's families with a rare case."""
    return {**cold_groups(), **rare_groups()}


def _module_of(fn) -> str:
    return fn.py_func.__module__.rsplit(".", 1)[-1]


def _import_lines(module: str, names: list[str]) -> list[str]:
    line = f"from {module} import {', '.join(names)}"
    if len(line) <= 100:
        return [line]
    return [f"from {module} import (", *textwrap.wrap(", ".join(names) + ",", 96, initial_indent="    ",
                                                     subsequent_indent="    "), ")"]


def cold_sources() -> dict[Path, str]:
    """The generated package cold_rows: for each module of cold families a module of the same
    name with one function per family, which calls the family with the loop's arguments (the
    loop calls these by address, so the families' code stays out of the loop: calls.py; each is
    compiled the first time a row of its own needs it), and __init__.py, their index.  One module
    per family module because ncpu.jitcache stamps a function with the sources its module
    imports: an edit of exec_vshift.py recompiles the functions of cold_rows/exec_vshift.py only."""
    groups = out_of_line_groups()
    modules: dict[str, dict] = {}       # family module -> its families, its functions' names, their code
    for group, (fn, ids) in groups.items():
        params = [a.arg for a in _family_ast(fn).args.args]
        mod = modules.setdefault(_module_of(fn), {"families": [], "groups": [], "code": [], "m": False})
        mod["families"].append(fn.__name__)
        mod["groups"].append(group)
        mod["m"] |= "m" in params       # the memory arrays, by address (module docstring)
        mod["code"] += [
            "", "", "@njit(cache=True)", f"def {group}(op, w, imm, pc, R, V, st, rg, mp, steps):",
            *(f"    # {line}" for line in textwrap.wrap(", ".join(T.TABLE[i].name for i in ids), 92)),
            *(f"    {r} = (rg >> {8 * j}) & 0xFF" if j else f"    {r} = rg & 0xFF"
              for j, r in enumerate("abcd") if r in params),
            f"    return {fn.__name__}({', '.join('value_at(mp)' if p == 'm' else p for p in params)})"]
    out = {}
    for name, mod in modules.items():
        out[COLD / f"{name}.py"] = "\n".join([
            f'"""The out-of-line rows of {name}.py\'s families: GENERATED by gen_loop.py (do not edit; see',
            '__init__.py)."""',
            "from ..jit import njit",
            *(["from ..calls import value_at"] if mod["m"] else []),
            *_import_lines(f"..{name}", sorted(mod["families"])),
            *mod["code"], ""])
    out[COLD / "__init__.py"] = "\n".join([
        '"""Out-of-line rows: GENERATED by gen_loop.py from rows.py (do not edit).',
        "",
        "The hot loop (run.py) calls one of these functions, through its address, for the rows it",
        "does not run itself (run.COLD_GROUP says which), and for the rare cases of some it does",
        "(rows.rare): one function per executor family, which",
        "calls the family with the row's operands, in a module named after the family's.  The loop",
        "resolves each the first time one of its rows runs, so a program compiles only the families",
        "it uses.  rg: the row's register fields packed a byte each; mp: the address of the loop's",
        "memory arrays (calls.pointer_to).",
        "",
        "A function's module is imported when the function is first asked for (`group`), so a",
        "process imports the modules of the families it runs only (importing all of them, and the",
        "family modules they import, took about 23 ms of every `ncpu arm64` start-up).",
        '"""',
        "from importlib import import_module",
        "",
        "# in run.COLD_GROUP's numbering, (module, function): the address of group(k) is the loop's fp[k]",
        "GROUP_HOMES = (",
        *(f'    ("{_module_of(fn)}", "{group}"),' for group, (fn, _) in groups.items()),
        ")",
        "",
        "",
        "def group(k: int):",
        '    """The function GROUP_HOMES[k] names, its module imported if it was not yet."""',
        "    module, name = GROUP_HOMES[k]",
        "    return getattr(import_module(f\".{module}\", __name__), name)",
        "",
        "",
        "def all_groups() -> tuple:",
        '    """Every function, in GROUP_HOMES\' order (every module imported)."""',
        "    return tuple(group(k) for k in range(len(GROUP_HOMES)))",
        "",
    ])
    return out


# ---- native_rows.py: the rows as functions, for native code (native.py) ------------------------

NATIVE_ROWS = Path(__file__).with_name("native_rows.py")
NATIVE_FACTS = Path(__file__).with_name("native_facts.py")

# The row functions take the machine's arrays as one pointer to the tuple (R, V, st, m), which
# the page function stores once in its frame: numba passes an array as seven values and a
# tuple field by field, so passing them as values made each call's IR about 150 arguments long
# (LLVM folds the pointer away once the row is inlined).
ROW_PARAMS = "cp, w, imm, pc, a, b, c, d, steps"
FAMILY_PARAMS = "cp, op, w, imm, pc, a, b, c, d, steps"


def _row_function(name: str) -> tuple[str, set[str]]:
    """A row the loop carries as a function of its own: the loop's code for it (with its
    slow-path calls, without its rare-case exits), pc returned."""
    code, free = _row_code(name)
    binds = ["    R, V, st, m = borrowed_at(cp)"]
    binds += [f"    {t}_{f} = {t}.{f}" for t, fields in HOISTED.items() for f in fields if f"{t}_{f}" in code]
    body = "\n".join(f"    {line}" for line in code.splitlines())
    return f"@njit(cache=True)\ndef row_{name}({ROW_PARAMS}):\n" + "\n".join(binds) + "\n" + body + "\n    return pc\n", free


def _family_function(fn) -> str:
    """For a family of rows the loop runs out of line (cold_rows), a function that calls it as
    cold_rows does, the arrays taken from cp: inlined into a page with the row's operands
    constant, its tests of `op` fold away, where a call of the cold group passed every array by
    value and dispatched on op at run time (57% of arm64_fp's time, natively)."""
    params = [a.arg for a in _family_ast(fn).args.args]
    return (f"@njit(cache=True)\ndef family_{fn.__name__}({FAMILY_PARAMS}):\n"
            f"    R, V, st, m = borrowed_at(cp)\n    return {fn.__name__}({', '.join(params)})\n")


def native_facts_source() -> str:
    """native_facts.py: which cold row goes through which family function (FAMILY) and every
    row's facts (row_facts.read: FACTS).  A module of its own, without native_rows: a run whose
    pages all load from the object cache reads the facts (to choose what to translate) but
    compiles no row, and importing native_rows (202 dispatchers) cost 0.09 s of each such run."""
    from . import row_facts
    inline = set(rows())
    facts = {e.name: tuple(row_facts.read(row_body(e.name)[0], e.name not in inline))
             for e in T.TABLE if e.name in EXECUTOR}
    return "\n".join([
        '"""What native code needs to know of each row (native.py): GENERATED by gen_loop.py from',
        "the rows' code (do not edit).  FAMILY: a cold row's function in native_rows; FACTS: each",
        "row's row_facts.RowFacts (flow, may_stop, may_write, cold, links).\"\"\"",
        "",
        "FAMILY = {",
        *(f"    {name!r}: 'family_{EXECUTOR[name].__name__}'," for name in cold_rows()),
        "}",
        "",
        "FACTS = {",
        *(f"    {name!r}: {value!r}," for name, value in facts.items()),
        "}",
        ""])


def native_rows_source() -> str:
    """native_rows.py: a function per row the loop carries (`row_NAME`) and one per cold family
    (`family_NAME`); what each row does is in native_facts.py."""
    parts, free = [], set()
    for name in rows():
        text, names = _row_function(name)
        parts.append(text)
        free |= names
    by_module: dict[str, set[str]] = {}
    for name in free:
        by_module.setdefault(_home(name), set()).add(name)
    for fn, _ in cold_groups().values():
        parts.append(_family_function(fn))
        by_module.setdefault(_module_of(fn), set()).add(fn.__name__)
    imports = [line for mod, names in sorted(by_module.items()) for line in _import_lines(f".{mod}", sorted(names))]
    return "\n".join([
        '"""Row functions for native code (native.py): GENERATED by gen_loop.py from the rows\' code',
        "(do not edit).  row_NAME runs a row the loop carries, as the loop's copy of it does;",
        "family_NAME runs a cold row through its family, as cold_rows does (native_facts.py says",
        "which).  Compiled one function at a time, when a page first needs it.\"\"\"",
        "import numpy as np  # noqa: F401",
        "",
        "from . import decode_table as T  # noqa: F401",
        "from .borrowed import borrowed_at",
        "from .jit import njit",
        *imports,
        "", "", "\n\n".join(parts)])


def _splice(text: str, begin: str, end: str, new: str) -> str:
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    indent = head[head.rfind("\n") + 1:]
    return f"{head}{begin}\n{new}\n{indent}{end}{tail}"


def updated_run_source() -> str:
    imports, code = generated()
    text = RUN.read_text()
    text = _splice(text, BEGIN_IMPORTS, END_IMPORTS, imports)
    return _splice(text, BEGIN, END, code)


def main(argv: list[str]) -> int:
    outputs = {RUN: updated_run_source(), **cold_sources(), NATIVE_ROWS: native_rows_source(),
               NATIVE_FACTS: native_facts_source()}
    extra = sorted(set(COLD.glob("*.py")) - set(outputs))       # a family module's that went
    if "--check" in argv:
        stale = [p.name for p, new in outputs.items() if not p.exists() or p.read_text() != new]
        stale += [f"{p.name} (to remove)" for p in extra]
        if stale:
            print(f"{', '.join(stale)} stale: run python -m ncpu.arm64.cpu.gen_loop", file=sys.stderr)
            return 1
        return 0
    COLD.mkdir(exist_ok=True)
    for path, new in outputs.items():
        if not path.exists() or path.read_text() != new:
            path.write_text(new)
    for path in extra:
        path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
