"""Shared set-up for the Linux user-mode tests: tools, compiled C programs, busybox, the Debian root."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import arm64linux_harness as harness  # noqa: E402


@pytest.fixture(scope="session")
def busybox_path() -> Path:
    try:
        return harness.busybox()
    except harness.ToolMissing as error:
        pytest.fail(str(error))


@pytest.fixture(scope="session", autouse=False)
def tools():
    try:
        harness.require(harness.GCC)
        harness.require(harness.QEMU)
    except harness.ToolMissing as error:
        pytest.fail(str(error))


@pytest.fixture(scope="session")
def debian_root() -> Path:
    """The Debian arm64 root of userland_harness.PACKAGES (built once by `ncpu arm64-root`, cached)."""
    import userland_harness
    try:
        return userland_harness.root()
    except harness.ToolMissing as error:
        pytest.fail(str(error))
