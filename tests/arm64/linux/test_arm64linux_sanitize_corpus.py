"""`ncpu debug sanitize` makes no false reports: every C program of the corpus
that runs to its end (tests/arm64/linux/c, built -O2, the same argv as the qemu
comparison) is reported free of heap errors.  Slow: malloc_churn alone is
about 100 s of CPU under the sanitizer's trace hooks."""

from __future__ import annotations

import pytest

import arm64linux_harness as harness
from test_arm64linux_c_programs import FAULTS, PROGRAMS

from ncpu.debug import sanitize

# The programs that end by themselves (the FAULTS ones die of a signal on purpose). Forked children run
# without hooks (their heap is not watched); every program here is static glibc, with malloc/free symbols.
CLEAN = [name for name in PROGRAMS if name not in FAULTS]


@pytest.mark.slow
@pytest.mark.parametrize("name", CLEAN)
def test_sanitize_reports_no_heap_error_on_the_corpus(name, tools, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    binary = harness.compile_c(name, "-O2")
    report = sanitize.sanitize(str(binary), PROGRAMS[name])
    assert report["errors"] == [], sanitize.format_report(report)
