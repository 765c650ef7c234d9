"""Spec parsing: good specs load, bad ones fail with one clear line."""

import json

import pytest

from ncpu.synth import SpecError, load_spec, parse_example, parse_spec

GOOD = {"name": "add", "inputs": ["R0", "R1"], "outputs": ["R7"],
        "examples": [{"in": [3, 5], "out": [8]}, {"in": [7, 2], "out": [9]}]}


def test_good_spec_parses():
    spec = parse_spec(GOOD)
    assert spec.inputs == (0, 1) and spec.outputs == (7,)
    assert spec.examples[0].inputs == (3, 5)


def test_unsigned_values_wrap_to_signed():
    spec = parse_spec({**GOOD, "examples": [{"in": [0xFFFFFFFF, 1], "out": [0]}]})
    assert spec.examples[0].inputs == (-1, 1)


@pytest.mark.parametrize("change, message", [
    ({"examples": [{"in": [1, 2], "out": [3]}, {"in": [1, 2], "out": [4]}]}, "inconsistent examples"),
    ({"inputs": ["R0", "R9"]}, "unknown register 'R9'"),
    ({"outputs": ["X1"]}, "unknown register 'X1'"),
    ({"examples": [{"in": [1], "out": [3]}]}, "1 input(s) given, 2 register(s) declared"),
    ({"examples": []}, "non-empty list"),
    ({"examples": [{"in": [1, 2], "out": [1 << 40]}]}, "not a 32-bit value"),
    ({"opcodes": ["ADD", "FROB"]}, "unknown mnemonic 'FROB'"),
    ({"max_length": 0}, "positive integer"),
    ({"colour": "red"}, "unknown field(s): colour"),
])
def test_bad_specs_name_the_problem(change, message):
    with pytest.raises(SpecError) as error:
        parse_spec({**GOOD, **change})
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_malformed_json_names_line_and_column(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"inputs": ["R0",\n  ]}')
    with pytest.raises(SpecError, match=r"malformed JSON at line 2 column 3"):
        load_spec(path)


def test_memory_regions_and_canonical_key():
    spec = parse_spec({"inputs": ["R0"], "outputs": [],
                       "examples": [{"in": [100], "memory_out": {"base": 100, "values": [1, 2]}}]})
    assert spec.uses_memory and spec.examples[0].memory_out == ((100, (1, 2)),)
    # The key ignores the name and the order of examples.
    a = parse_spec(GOOD)
    b = parse_spec({**GOOD, "name": "other", "examples": GOOD["examples"][::-1]})
    assert a.canonical_key() == b.canonical_key()
    assert a.canonical_key() != parse_spec({**GOOD, "max_length": 3}).canonical_key()
    assert json.loads(json.dumps(a.to_json())) == {k: v for k, v in GOOD.items()}


def test_parse_example():
    assert parse_example("3,5->8") == ([3, 5], [8])
    assert parse_example(" -1 0x10 -> 15, 2") == ([-1, 16], [15, 2])
    with pytest.raises(SpecError):
        parse_example("3,5")
