"""Shared set-up for the guest software tests: the built root tree."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import guest_harness as gh  # noqa: E402


@pytest.fixture(scope="session")
def tree() -> Path:
    try:
        return gh.build_tree()
    except gh.harness.ToolMissing as error:
        pytest.fail(str(error))
