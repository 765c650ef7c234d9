"""`ncpu bench synth`: the synthesis suite, our portfolio beside cvc5.

Hooked into `ncpu bench` by the lead: `add_synth_bench_arguments(parser)`
adds the options, `run_synth_bench(args)` runs and returns an exit status.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import defaultdict
from functools import lru_cache, partial
from pathlib import Path

from ncpu.commands._cluster import add_cluster_arguments, shard_runner


def add_synth_bench_arguments(parser) -> None:
    parser.add_argument("--timeout", type=float, default=60.0, metavar="S", help="budget per problem (default 60)")
    parser.add_argument("--family", action="append", default=[], help="only this problem family (repeatable)")
    parser.add_argument("--problem", action="append", default=[], help="only this problem (repeatable)")
    parser.add_argument("--limit", type=int, default=0, help="at most N problems (after filtering)")
    parser.add_argument("--no-cvc5", action="store_true", help="skip the cvc5 comparison")
    parser.add_argument("--cvc5-timeout", type=float, default=None, metavar="S",
                        help="cvc5's budget per problem (default: --timeout)")
    parser.add_argument("--solvers", help="comma-separated solver families (default: all)")
    parser.add_argument("--report", default="bench-results/synth.json", help="where to write the JSON report")
    add_cluster_arguments(parser)  # one shard per problem, one portfolio per worker
    parser.add_argument("--unseen", type=int, default=10_000, metavar="N",
                        help="unseen inputs each solved program is run on (half from the problem's distribution, "
                             "half with edge values mixed in; default 10,000)")
    parser.add_argument("--list", action="store_true", help="also print one line per problem")
    parser.add_argument("--trace", action="store_true",
                        help="also print, per problem, when each search family sent its first candidate and its "
                             "first verified program (wall seconds into the race) and how many it sent")
    parser.add_argument("--oracle", action="store_true",
                        help="also solve each register problem with its reference function as an oracle "
                             "(asked about inputs on which fitting programs disagree; docs/synthesis.md), "
                             "same budget, and report the questions asked and exactness")
    parser.add_argument("--confirm", type=int, default=0, metavar="N",
                        help="with --oracle: when no fitting program disagrees, check on N more inputs the oracle "
                             "answers (default 0: distinguishing inputs only)")


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def generalisation(problem, asm: str, count: int = 50) -> float:
    """Fraction of unseen inputs (`count` plain draws plus `count` with edge
    values) on which the program matches the reference."""
    from ncpu.isa import assemble
    from ncpu.synth.verify import matches, run_examples

    fresh = problem.fresh_spec(count)
    final = run_examples(assemble(asm).words, fresh)
    return float(matches(final, fresh).mean())


def run_synth_bench(args) -> int:
    from tqdm import tqdm

    from ncpu.cli import CommandError
    from ncpu.cluster import Job
    from ncpu.synth import FAMILIES, Portfolio, sygus
    from ncpu.synth.benchmarks import load_suite

    problems = load_suite()
    if args.family:
        problems = [p for p in problems if p.family in args.family]
    if args.problem:
        problems = [p for p in problems if p.name in args.problem]
    if args.limit:
        problems = problems[: args.limit]
    use_cvc5 = not args.no_cvc5 and sygus.available()
    solvers = [f.strip() for f in args.solvers.split(",")] if args.solvers else None
    if solvers is not None and (unknown := [f for f in solvers if f not in FAMILIES]):
        raise CommandError(f"--solvers: unknown family {unknown[0]!r} (choose from {', '.join(FAMILIES)})")
    cvc5_timeout = args.timeout if getattr(args, "cvc5_timeout", None) is None else args.cvc5_timeout
    started = time.monotonic()
    oracle = (getattr(args, "oracle", False), max(0, getattr(args, "confirm", 0)))
    shards = [(p.name, args.timeout, use_cvc5, cvc5_timeout, max(1, args.unseen // 2), oracle) for p in problems]
    job = Job("bench.synth", shards, solve_problem, context=partial(Portfolio, solvers))
    with tqdm(total=len(shards), desc="synth", file=sys.stderr, disable=not sys.stderr.isatty()) as bar:
        rows = shard_runner(args)(job, progress=lambda index: bar.update())
    summary = _summarise(rows, args.timeout, use_cvc5)
    summary["unseen_inputs"] = 2 * max(1, args.unseen // 2)
    if use_cvc5:
        summary["cvc5"]["timeout"] = cvc5_timeout
    summary["wall_seconds"] = round(time.monotonic() - started, 1)
    _print(summary, rows)
    if args.list:
        _print_rows(rows)
    if getattr(args, "trace", False):
        _print_traces(rows)
    path = Path(args.report)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"summary": summary, "problems": rows}, indent=1) + "\n")
    print(f"report: {path}")
    return 0


@lru_cache(maxsize=1)
def _suite_by_name() -> dict:
    from ncpu.synth.benchmarks import load_suite
    return {p.name: p for p in load_suite()}


def solve_problem(portfolio, shard: tuple) -> dict:
    """One problem's report row: a shard of the suite, run by a worker that
    holds its own `portfolio`."""
    from ncpu.synth import sygus

    name, timeout, use_cvc5, cvc5_timeout, unseen_half, (with_oracle, confirm) = shard
    problem = _suite_by_name()[name]
    called = time.monotonic()
    result = portfolio.solve(problem.spec, timeout, use_cache=False)
    row = {"name": problem.name, "family": problem.family, "solved": result.solved,
           "solver": result.solver, "seconds": round(result.seconds, 4),
           "returned_after": round(time.monotonic() - called, 4),
           "cpu_seconds": result.cpu_seconds, "cpu_to_answer": result.cpu_to_answer, "trace": result.trace}
    if result.solved:
        row["generalisation"] = generalisation(problem, result.asm, unseen_half)
        row["underdetermined"] = result.underdetermined
        row["chance_fit"] = result.chance_fit
        row["differs_on_edges"] = result.disagreement is not None and not result.underdetermined
        row["asm"] = result.asm
    if with_oracle and not problem.spec.uses_memory and problem.spec.outputs:
        row["oracle"] = _with_oracle(portfolio, problem, timeout, confirm, unseen_half)
    if use_cvc5 and sygus.expressible(problem.spec):
        solved, seconds = sygus.solve(problem.spec, cvc5_timeout)
        row["cvc5"] = {"solved": solved, "seconds": round(seconds, 4)}
    return row


def _reference_oracle(problem):
    """The problem's reference function, asked as a user would be; an input
    it cannot answer (P20's 0 divides by zero, P19's negative shift) is
    skipped: the search asks about another."""
    from ncpu.synth.oracle import NoAnswer

    def oracle(inputs):
        try:
            return problem.definition.ref(*inputs)
        except (ArithmeticError, ValueError) as error:
            raise NoAnswer(str(error)) from None
    return oracle


def _with_oracle(portfolio, problem, timeout: float, confirm: int, unseen_half: int) -> dict:
    called = time.monotonic()
    result = portfolio.solve_with_oracle(problem.spec, timeout, _reference_oracle(problem), confirm=confirm)
    out = {"solved": result.solved, "seconds": round(result.seconds, 4), "queries": len(result.queries),
           "returned_after": round(time.monotonic() - called, 4), "underdetermined": result.underdetermined,
           "differs_on_edges": result.disagreement is not None and not result.underdetermined,
           "contradicted": len(result.contradicted)}
    if result.solved:
        out["generalisation"] = generalisation(problem, result.asm, unseen_half)
        out["asm"] = result.asm
    return out


def _summarise(rows: list[dict], timeout: float, use_cvc5: bool) -> dict:
    solved = [r for r in rows if r["solved"]]
    times = [r["seconds"] for r in solved]
    by_family = defaultdict(lambda: [0, 0])
    for r in rows:
        by_family[r["family"]][1] += 1
        by_family[r["family"]][0] += r["solved"]
    by_solver = defaultdict(int)
    for r in solved:
        by_solver[r["solver"]] += 1
    summary = {
        "timeout": timeout, "problems": len(rows), "solved": len(solved),
        "median_seconds": round(statistics.median(times), 3) if times else None,
        "p90_seconds": round(_percentile(times, 0.9), 3) if times else None,
        # CPU seconds of the whole race (this process and every worker, from
        # the problem's start until its answer came back), solved or not.
        "median_cpu_seconds": _median([r["cpu_seconds"] for r in rows if r.get("cpu_seconds") is not None]),
        "cpu_seconds_total": round(sum(r.get("cpu_seconds") or 0 for r in rows), 1),
        # ... and until the returned program was verified (solved problems)
        "median_cpu_to_answer": _median([r["cpu_to_answer"] for r in solved if r.get("cpu_to_answer") is not None]),
        "median_returned_after": _median([r["returned_after"] for r in rows]),
        "by_family": {k: {"solved": v[0], "total": v[1]} for k, v in by_family.items()},
        "by_solver": dict(by_solver),
        "generalisation_mean": round(statistics.mean(r["generalisation"] for r in solved), 3) if solved else None,
        "generalising_fully": sum(1 for r in solved if r["generalisation"] == 1.0),
        "underdetermined": [r["name"] for r in solved if r.get("underdetermined")],
        "differs_on_edges": [r["name"] for r in solved if r.get("differs_on_edges")],
        # The honesty check: an answer that is wrong on unseen inputs but
        # says nothing about it.
        "not_exact_unflagged": [r["name"] for r in solved if r["generalisation"] < 1.0
                                and not r.get("underdetermined")],
        "latest_return_over_budget": round(max(r["returned_after"] - timeout for r in rows), 3) if rows else None,
    }
    asked = [r["oracle"] for r in rows if "oracle" in r]
    if asked:
        summary["oracle"] = {
            "problems": len(asked), "solved": sum(a["solved"] for a in asked),
            "exact": sum(1 for a in asked if a.get("generalisation") == 1.0),
            "queries_total": sum(a["queries"] for a in asked),
            "queries_max": max(a["queries"] for a in asked),
            "median_seconds": _median([a["seconds"] for a in asked if a["solved"]]),
            "underdetermined": sum(1 for a in asked if a["solved"] and a["underdetermined"]),
            "contradicted": [r["name"] for r in rows if r.get("oracle", {}).get("contradicted")],
            "not_exact": [r["name"] for r in rows if r.get("oracle", {}).get("solved")
                          and r["oracle"]["generalisation"] < 1.0],
        }
    if use_cvc5:
        both = [r for r in rows if "cvc5" in r]
        ours = [r for r in both if r["solved"]]
        theirs = [r for r in both if r["cvc5"]["solved"]]
        common = [r for r in both if r["solved"] and r["cvc5"]["solved"]]
        summary["cvc5"] = {
            "expressible": len(both), "ours_solved": len(ours), "cvc5_solved": len(theirs),
            "ours_median": _median([r["seconds"] for r in ours]),
            "cvc5_median": _median([r["cvc5"]["seconds"] for r in theirs]),
            "both_solved": len(common),
            "ours_median_on_both": _median([r["seconds"] for r in common]),
            "cvc5_median_on_both": _median([r["cvc5"]["seconds"] for r in common]),
        }
    return summary


def _median(values: list[float]):
    return round(statistics.median(values), 3) if values else None


def _print(summary: dict, rows: list[dict]) -> None:
    print(f"synthesis suite: {summary['solved']}/{summary['problems']} solved at {summary['timeout']:g}s per problem; "
          f"median {summary['median_seconds']}s, p90 {summary['p90_seconds']}s")
    print(f"CPU time (this process and every worker): median {summary['median_cpu_to_answer']} s until the answer "
          f"was verified, {summary['median_cpu_seconds']} s per call in all ({summary['cpu_seconds_total']} s for the "
          f"suite); calls returned after a median {summary['median_returned_after']} s of wall time")
    print("by problem family:")
    for family, v in sorted(summary["by_family"].items()):
        print(f"  {family:<12} {v['solved']:>4}/{v['total']:<4}")
    print("by solver family:")
    for solver, n in sorted(summary["by_solver"].items(), key=lambda kv: -kv[1]):
        print(f"  {solver:<12} {n:>4}")
    unseen = summary.get("unseen_inputs", 100)
    print(f"generalisation on {unseen:,} unseen inputs ({unseen // 2:,} random + {unseen // 2:,} with edge values): "
          f"mean {summary['generalisation_mean']}, "
          f"{summary['generalising_fully']} of {summary['solved']} solved programs exact on all")
    if summary["underdetermined"]:
        print(f"only consistent with the examples (verified programs disagree on inputs drawn like the examples): "
              f"{len(summary['underdetermined'])}: {', '.join(summary['underdetermined'])}")
    if summary.get("differs_on_edges"):
        print(f"fitting programs differ only on edge words outside the examples' range (not flagged): "
              f"{len(summary['differs_on_edges'])}")
    print(f"not exact on the unseen inputs and not flagged: {len(summary['not_exact_unflagged'])}"
          + (f": {', '.join(summary['not_exact_unflagged'])}" if summary["not_exact_unflagged"] else ""))
    print(f"time budget: the latest answer came {summary['latest_return_over_budget']:+.3f}s after --timeout")
    if "oracle" in summary:
        o = summary["oracle"]
        print(f"with the reference as an oracle ({o['problems']} register problems, same budget): {o['solved']} solved, "
              f"{o['exact']} exact on all unseen inputs, {o['queries_total']} questions in all (at most "
              f"{o['queries_max']} for one problem), median {o['median_seconds']}s, {o['underdetermined']} still "
              f"underdetermined" + (f"; not exact: {', '.join(o['not_exact'])}" if o["not_exact"] else "")
              + (f"; the last program found, which gets an answer wrong: {', '.join(o['contradicted'])}"
                 if o["contradicted"] else ""))
    if "cvc5" in summary:
        c = summary["cvc5"]
        print(f"vs cvc5 SyGuS on the {c['expressible']} register-only problems "
              f"(nCPU {summary['timeout']:g}s, cvc5 {c['timeout']:g}s per problem):")
        print(f"  {'':<10} {'solved':>7} {'median s':>9} {'median s (both solved)':>24}")
        print(f"  {'nCPU':<10} {c['ours_solved']:>7} {str(c['ours_median']):>9} {str(c['ours_median_on_both']):>24}")
        print(f"  {'cvc5':<10} {c['cvc5_solved']:>7} {str(c['cvc5_median']):>9} {str(c['cvc5_median_on_both']):>24}")


def _print_rows(rows: list[dict]) -> None:
    oracle = any("oracle" in r for r in rows)
    print(f"{'problem':<44} {'nCPU s':>8} {'CPU s':>6} {'exact':>7} {'note':<16} {'cvc5 s':>8}  "
          + (f"{'asked':>5} {'exact':>7} {'s':>6}  " if oracle else "") + "program")
    for r in rows:
        ours = f"{r['seconds']:.2f}" if r["solved"] else "-"
        exact = f"{r['generalisation']:.4f}" if r["solved"] else ""
        note = "underdetermined" if r.get("underdetermined") else "edge words" if r.get("differs_on_edges") else ""
        theirs = f"{r['cvc5']['seconds']:.2f}" if r.get("cvc5", {}).get("solved") else ("-" if "cvc5" in r else "n/a")
        program = "; ".join(line for line in r.get("asm", "").splitlines() if line != "HALT")
        asked = ""
        if oracle:
            a = r.get("oracle")
            asked = "" if a is None else f"{a['queries']:>5} " + (
                f"{a['generalisation']:>7.4f} {a['seconds']:>6.2f}  " if a["solved"] else f"{'-':>7} {'-':>6}  ")
            asked = asked or f"{'':>5} {'':>7} {'':>6}  "
        cpu = f"{r['cpu_to_answer']:.2f}" if r.get("cpu_to_answer") is not None else "-"
        print(f"{r['name']:<44} {ours:>8} {cpu:>6} {exact:>7} {note:<16} {theirs:>8}  {asked}{program}")


def _print_traces(rows: list[dict]) -> None:
    print("per family: first candidate s / first verified s / candidates sent (winner marked *)")
    for r in rows:
        parts = [f"{'*' if family == r.get('solver') else ''}{family} {first:.2f}/"
                 + (f"{verified:.2f}" if verified is not None else "-") + f"/{count}"
                 for family, (first, verified, count) in sorted(r.get("trace", {}).items(), key=lambda kv: kv[1][0])]
        print(f"{r['name']:<44} {'  '.join(parts) or '(no candidate)'}")
