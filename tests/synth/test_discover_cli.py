"""`ncpu discover`: JSON shape, exit statuses, one-line errors."""

import argparse
import json

from ncpu.commands import discover


def _main(argv):
    parser = argparse.ArgumentParser(prog="ncpu")
    discover.register(parser.add_subparsers(dest="command"))
    from ncpu.cli import CommandError

    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except CommandError as error:
        return f"error: {error}"


def test_json_shape_and_success(capsys):
    status = _main(["discover", "--example", "3,5->8", "--example", "7,2->9", "--example=-4,1->-3",
                    "--families", "enumerative", "--timeout", "20", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert status == 0
    assert set(result) == {"solved", "asm", "python", "solver", "seconds", "underdetermined", "disagreement",
                           "chance_fit", "queries", "contradicted"}
    assert result["solved"] and result["solver"] == "enumerative" and "def f(r0, r1)" in result["python"]


def test_unsolvable_exits_non_zero(capsys):
    # A lookup table with no short formula over the allowed operations.
    examples = ["1->982451653", "2->-17", "3->123456789", "4->0", "5->31337", "6->-999999"]
    argv = ["discover", "--families", "enumerative", "--timeout", "2", "--json"]
    status = _main(argv + [x for e in examples for x in ("--example", e)])
    assert status == 1
    assert json.loads(capsys.readouterr().out)["solved"] is False


def test_bad_input_is_a_one_line_error(tmp_path):
    assert "inconsistent examples" in _main(["discover", "--example", "1->2", "--example", "1->3"])
    assert "unknown register" in _main(["discover", "--example", "1->2", "--outputs", "R12"])
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    assert "malformed JSON" in _main(["discover", "--spec", str(bad)])
