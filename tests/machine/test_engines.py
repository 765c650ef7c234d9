"""The engine registry."""

from __future__ import annotations


import pytest

from ncpu.machine.engines import ENGINES, EngineUnavailable, get_engine


@pytest.mark.parametrize("mode", ["reference", "compute", "fast"])
def test_engines_expose_run_and_run_batch(mode):
    module = get_engine(mode)
    assert callable(module.run) and callable(module.run_batch)


def test_unknown_engine():
    with pytest.raises(EngineUnavailable, match="unknown engine 'warp'"):
        get_engine("warp")
