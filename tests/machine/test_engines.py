"""The engine registry."""

from __future__ import annotations

import importlib.util

import pytest

from ncpu.machine.engines import ENGINES, EngineUnavailable, available_engines, get_engine


@pytest.mark.parametrize("mode", ["reference", "compute", "fast"])
def test_engines_expose_run_and_run_batch(mode):
    module = get_engine(mode)
    assert callable(module.run) and callable(module.run_batch)


def test_unknown_engine():
    with pytest.raises(EngineUnavailable, match="unknown engine 'warp'"):
        get_engine("warp")


@pytest.mark.skipif(importlib.util.find_spec("ncpu.machine.neural") is not None,
                    reason="the neural engine exists in this checkout")
def test_neural_engine_not_there_yet():
    with pytest.raises(EngineUnavailable, match=r"neural ALU \(issue 3\)"):
        get_engine("neural")
    assert "neural" in ENGINES and "neural" not in available_engines()
