"""The digit classifier on our machine equals the Python fixed-point model, prediction
for prediction, on the held-out 30 % of scikit-learn's digits (never trained on)."""

from __future__ import annotations

import importlib.util
import shutil

import numpy as np
import pytest

import guest_harness as gh

spec = importlib.util.spec_from_file_location("digits_train", gh.GUEST / "apps" / "digits_train.py")
digits_train = importlib.util.module_from_spec(spec)
spec.loader.exec_module(digits_train)


@pytest.fixture(scope="module")
def held_out():
    _, test_x, _, test_y = digits_train.split()
    return test_x, test_y


@pytest.mark.parametrize("build", ["gcc", "ncc"])
def test_machine_predictions_equal_python_fixed_point(tree, tmp_path, held_out, build):
    test_x, test_y = held_out
    want = digits_train.fixed_point_predict(*digits_train.read_header(), test_x)
    root = tmp_path / "root"
    shutil.copytree(tree, root, ignore=shutil.ignore_patterns(".done"))
    name = "digits" if build == "gcc" else "digits.ncc"
    stdin = "".join(" ".join(str(v) for v in row) + "\n" for row in test_x).encode()
    out = gh.harness.run_ncpu(root / "bin" / name, [name], root, stdin=stdin)
    got = np.array([int(v) for v in out.stdout.split()])
    assert got.shape == want.shape
    assert (got == want).all()
    assert (got == test_y).mean() >= 0.95
