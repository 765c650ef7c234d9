"""The SIMD scratch row (vregs.VR.tmp) is used by one function at a time.

An executor collects its result lanes in V.tmp and then writes them to the
destination; if it called another function that also fills V.tmp in
between, the second would overwrite the first's lanes.  This walks the
compiled functions of the CPU package and checks that no function that
uses V.tmp reaches, through the compiled functions it calls, another that
does."""
import ast
import importlib
import inspect
import pkgutil

import ncpu.arm64.cpu as cpu_package


def _compiled_functions():
    """{python function: module} for every compiled function the CPU package defines."""
    found = {}
    for info in pkgutil.walk_packages(cpu_package.__path__, cpu_package.__name__ + "."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            py_func = getattr(value, "py_func", None)
            if py_func is not None and py_func.__module__ == module.__name__:
                found[py_func] = module
    return found


def _uses_scratch(tree) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == "tmp" and isinstance(n.value, ast.Name)
               and n.value.id == "V" for n in ast.walk(tree))


def _callees(tree, module, compiled) -> set:
    names = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    return {getattr(module, name).py_func for name in names
            if getattr(getattr(module, name, None), "py_func", None) in compiled}


def test_no_function_that_fills_the_scratch_row_reaches_another_that_does():
    compiled = _compiled_functions()
    trees = {f: ast.parse(inspect.getsource(f).lstrip()) for f in compiled}
    users = {f for f, tree in trees.items() if _uses_scratch(tree)}
    assert len(users) >= 20          # the SIMD executors' families: the walk found them
    calls = {f: _callees(trees[f], compiled[f], compiled) for f in compiled}
    for user in users:
        seen, todo = set(), list(calls[user])
        while todo:
            f = todo.pop()
            if f not in seen:
                seen.add(f)
                todo += calls[f]
        clash = sorted(f.__qualname__ for f in seen & users)
        assert not clash, f"{user.__qualname__} fills V.tmp and calls {clash}, which do too"
