import pytest


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    # Never read or write the user's real solution cache from tests.
    monkeypatch.setenv("NCPU_CACHE_DIR", str(tmp_path / "cache"))
