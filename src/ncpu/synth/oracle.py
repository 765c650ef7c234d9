"""Oracle-guided synthesis: when the examples underdetermine the answer, ask.

Jha, Gulwani, Seshia and Tiwari ("Oracle-guided component-based program
synthesis", ICSE 2010, where the Hacker's Delight problems come from) close
the gap between "fits the examples" and "is the program" with an I/O
oracle: find two programs that fit every example but differ on some input,
ask the oracle for that input's output, add it as an example, search again;
stop when no fitting program behaves otherwise. Here the portfolio finds the
fitting programs and the input they disagree on
(`portfolio.Shortest.disagreement`); this module runs the loop.

The oracle is any callable from a tuple of input values (signed 32-bit, in
the spec's input order) to the outputs: an int or a sequence (one value per
output register), or None when it will answer no more (a person who
gives up: the loop stops there). An oracle that cannot answer one input (a
reference function that divides by the input, shifts by it, ...) raises
`NoAnswer`: the loop asks about another input where the programs disagree.
Time spent in the oracle (a person typing an answer) does not count against
the search budget.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence

from ncpu.isa.semantics import wrap
from ncpu.synth.spec import Example, Spec, SpecError
from ncpu.synth.verify import disagreement_pool, domain_inputs, outputs_on

Oracle = Callable[[tuple[int, ...]], "int | Sequence[int] | None"]

# Questions asked at most (Jha et al. report a handful per problem).
MAX_QUERIES = 32


# Distinguishing inputs kept per disagreement: the ones after the first are
# asked when the oracle cannot answer the first (`NoAnswer`).
DISTINGUISHING = 8
# Inputs drawn like the examples asked about when a result may fit them by
# chance (`SynthResult.chance_fit`): each answer is one more example, which
# a chance fit soon gets wrong and which lowers the chance of a true one.
CHANCE_QUESTIONS = 4
# Steps per input when candidates are compared (a loop still running counts
# as behaving otherwise).
COMPARE_STEPS = 20_000


class NoAnswer(Exception):
    """Raised by an oracle that cannot answer this input (but may answer others)."""


def answer(oracle: Oracle, spec: Spec, inputs: Sequence[int]) -> tuple[int, ...] | None:
    """The oracle's outputs for `inputs`, as signed 32-bit words (None: no
    more answers; `NoAnswer` propagates)."""
    got = oracle(tuple(inputs))
    if got is None:
        return None
    values = (got,) if isinstance(got, int) else tuple(got)
    if len(values) != len(spec.outputs) or not all(isinstance(v, int) for v in values):
        raise SpecError(f"the oracle answered {got!r} for {list(inputs)}: expected "
                        f"{len(spec.outputs)} integer output(s)")
    return tuple(wrap(v) for v in values)


def with_example(spec: Spec, inputs: Sequence[int], outputs: Sequence[int]) -> Spec:
    return dataclasses.replace(spec, examples=spec.examples + (Example(tuple(inputs), tuple(outputs)),))


def check_oracle_spec(spec: Spec) -> None:
    if spec.uses_memory or not spec.outputs or not spec.inputs:
        raise SpecError("an oracle answers register inputs with register outputs: "
                        "the spec needs inputs and outputs and no memory")


def solve_with_oracle(solve_round, spec: Spec, oracle: Oracle, max_queries: int = MAX_QUERIES,
                      confirm: int = 0, engine: str = "compute"):
    """`solve_round(spec, oracle_seconds, candidates)` runs one search (the
    portfolio's solve, with its budget moved on by the time spent in the
    oracle so far, offering `candidates`: the previous round's programs)
    and returns a SynthResult. Returns the last round's result with every
    answered query in `queries`; a round that finds nothing after a query
    falls back on the previous program when the answer agreed with it, and
    otherwise on the last program found, with the answers it gets wrong in
    `contradicted` (rather than no program at all).

    `confirm`: when no fitting program disagrees, also ask about this many
    inputs of `verify.disagreement_pool` (not asked before) and go on if the
    program is wrong on one. The search can fail to find the program that
    would disagree, and Jha et al.'s completeness (an SMT solver over the
    whole component library) is not had here; with a cheap oracle (a
    function) testing closes much of that gap, with a person it costs too
    many questions (default 0)."""
    check_oracle_spec(spec)
    queries: list[dict] = []
    oracle_seconds = 0.0
    previous = None

    def ask(inputs) -> tuple[int, ...] | None:
        """The oracle's answer, recorded; None: it stops answering; NoAnswer: not this input."""
        nonlocal oracle_seconds
        asked = time.monotonic()
        try:
            outputs = answer(oracle, spec, inputs)
        finally:
            oracle_seconds += time.monotonic() - asked
        if outputs is not None:
            queries.append({"in": list(inputs), "out": list(outputs)})
        return outputs

    def ask_first_answerable(rows):
        """(row index, outputs) for the first row the oracle can answer; None: no answer."""
        for n, row in enumerate(rows):
            try:
                outputs = ask(row)
            except NoAnswer:
                continue
            return None if outputs is None else (n, outputs)
        return None

    candidates: tuple[str, ...] = ()
    last_found = None
    while True:
        result = solve_round(spec, oracle_seconds, candidates)
        if not result.solved and previous is not None:
            # Still fits every example, the answered ones too; a round that
            # found nothing has no new disagreement to ask about.
            previous.queries = queries
            return previous
        if not result.solved and last_found is not None:
            # The answers ruled the last program out and nothing found since
            # fits them: that program, with what it gets wrong said.
            last_found.queries = queries
            last_found.contradicted = _wrong_answers(last_found.asm, spec, queries, engine)
            return last_found
        result.queries = queries
        if result.solved:
            last_found = result
        if not result.solved or len(queries) >= max_queries:
            return result
        if result.disagreement is not None:
            # Fitting programs disagree (on inputs like the examples or only
            # on edge words: the oracle settles both). Each answer rules out
            # the round's programs that computed otherwise; while those left
            # still disagree, the next question is asked at once (a round
            # is a whole race: P11's intended test was the 28th of 40
            # fitting nested tests, one question per race ran out of time).
            survivors = [result.asm, *result.alternatives]
            rows = [d["in"] for d in [result.disagreement] + result.disagreement.get("more", [])]
            while rows and len(queries) < max_queries:
                got = ask_first_answerable(rows)
                if got is None:
                    return result
                n, outputs = got
                spec = with_example(spec, rows[n], outputs)
                survivors = [asm for asm, out in zip(survivors, _outputs_of(survivors, spec, [rows[n]], engine))
                             if out[0] == outputs]
                rows = _disagreeing_rows(survivors, spec, engine)
            # The programs no answer has ruled out (checked again by the next
            # round) stay candidates: a longer one that agrees with every
            # answer is not lost when the shorter ones are.
            candidates = tuple(survivors)
            previous = result if result.asm in survivors else None
            if len(queries) >= max_queries:
                return previous or result
            continue
        # Nothing disagrees: test the program on inputs the oracle answers:
        # CHANCE_QUESTIONS drawn like the examples when the fit may be a
        # coincidence (the chance-fit test flagged it: no rival in hand to
        # ask about, but more examples tell), and `confirm` edge words.
        chance = result.underdetermined
        rows = domain_inputs(spec)[:CHANCE_QUESTIONS if chance else 0]
        rows += disagreement_pool(spec)[:confirm]
        rows = rows[:max_queries - len(queries)]
        if not rows:
            return result
        wrong = False
        for row, mine in zip(rows, outputs_on(result.asm, spec, rows, engine)):
            try:
                outputs = ask(row)
            except NoAnswer:
                continue
            if outputs is None:
                return result
            spec = with_example(spec, row, outputs)
            if not mine[0] or tuple(mine[1:]) != outputs:
                wrong = True  # a counterexample: search again with it
                break
        if not wrong and not chance:
            return result
        # Search again: with the counterexample, or (a possible chance fit
        # that agreed with every answer) to test the fit on more examples.
        previous = None if wrong else result
        candidates = tuple(result.alternatives) if wrong else (result.asm, *result.alternatives)


def _wrong_answers(asm: str, spec: Spec, queries: list[dict], engine: str) -> list[dict]:
    """The answered queries on which program `asm` computes something else."""
    rows = [q["in"] for q in queries]
    mine = _outputs_of([asm], spec, rows, engine)[0] if rows else []
    return [q for q, out in zip(queries, mine) if out != tuple(q["out"])]


def _outputs_of(programs: list[str], spec: Spec, rows: list[list[int]], engine: str) -> list[list[tuple | None]]:
    """Per program, its outputs on each row (None where it did not halt)."""
    return [[tuple(out[1:]) if out[0] else None for out in outputs_on(asm, spec, rows, engine, COMPARE_STEPS)]
            for asm in programs]


def _disagreeing_rows(programs: list[str], spec: Spec, engine: str) -> list[list[int]]:
    """Up to DISTINGUISHING inputs on which some of `programs` differ: drawn
    like the examples first, then edge words (`verify.disagreement_pool`)."""
    if len(programs) < 2:
        return []
    for pool in (domain_inputs(spec), disagreement_pool(spec)):
        outputs = _outputs_of(programs, spec, pool, engine)
        differ = [i for i in range(len(pool)) if any(o[i] != outputs[0][i] for o in outputs[1:])]
        if differ:
            return [pool[i] for i in differ[:DISTINGUISHING]]
    return []
