"""`ncpu coprocessor eval --model PATH` on a tiny random model saved with
save_pretrained, `ncpu coprocessor train` on the tiny config, and bad input."""

import json

import pytest

from ncpu.cli import main
from ncpu.coprocessor.lm import build_lm
from ncpu.coprocessor.tokenizer import CharTokenizer, check_digit_tokens

from coprocessor_helpers import tiny_model


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    directory = tmp_path_factory.mktemp("random-qwen2")
    build_lm("qwen2", "small", len(CharTokenizer()), seed=7).save_pretrained(directory)  # random weights
    CharTokenizer().save(directory)
    return directory


def test_eval_a_local_pretrained_model(saved, capsys):
    status = main(["coprocessor", "eval", "--model", str(saved), "--n", "3", "--lengths", "1-4",
                   "--coprocessor-steps", "200", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0
    assert set(out["exact"]) == {"base", "alu", "nalu"}
    assert set(out["exact"]["alu"]["ADD"]) == {"1", "2", "3", "4"}
    assert out["perplexity"]["alu"] == pytest.approx(out["perplexity"]["base"], rel=0.02)
    # after a short training on a random base, the gate already sends answers (and only them) to the ALU
    assert out["routing"]["alu"]["answer"] > 0.9 and out["routing"]["alu"]["equals"] > 0.9
    assert out["routing"]["alu"]["text"] == 0.0 and out["routing"]["alu"]["operand digit"] == 0.0


def test_train_then_eval_a_directory(tmp_path, capsys):
    assert main(["coprocessor", "train", "--size", "tiny", "--lm-steps", "3", "--coprocessor-steps", "3",
                 "--nalu-steps", "3", "--out", str(tmp_path)]) == 0
    assert {"config.json", "model.safetensors", "coprocessor.pt", "nalu.pt"} <= {p.name for p in tmp_path.iterdir()}
    capsys.readouterr()
    assert main(["coprocessor", "eval", "--dir", str(tmp_path), "--n", "1", "--lengths", "2", "--no-nalu"]) == 0
    out = capsys.readouterr().out
    assert "ADD  alu" in out and "prose perplexity base" in out


@pytest.mark.parametrize("argv, message", [
    (["--lengths", "0-12"], "--lengths"),
    (["--lengths", "x"], "--lengths"),
    (["--n", "0"], "--n"),
    (["--model", "/nonexistent/model"], "not a directory"),
    (["--dir", "/nonexistent/dir"], "no trained model"),
    (["--device", "nosuchdevice"], "device"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    assert main(["coprocessor", "eval", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ncpu: error:") and message in err and "\n" not in err


def test_a_tokenizer_without_digits_is_refused(tmp_path, capsys):
    tiny_model("qwen2").save_pretrained(tmp_path)
    (tmp_path / "ncpu_chars.json").write_text(json.dumps({"alphabet": "\0\nabc"}))
    assert main(["coprocessor", "eval", "--model", str(tmp_path), "--n", "1"]) == 2
    assert "outside the tokenizer's alphabet" in capsys.readouterr().err


def test_a_tokenizer_that_groups_digits_is_refused():
    class Grouping(CharTokenizer):  # '12' is one token, as in BPE vocabularies
        def encode(self, text):
            return [0 if text[i:i + 2] == "12" else self.index[text[i]]
                    for i in range(len(text)) if not (i and text[i - 1:i + 1] == "12")]

    with pytest.raises(ValueError, match="one character per token"):
        check_digit_tokens(Grouping())
