#!/usr/bin/env bash
# Set up everything the tests need, then run the default test suite.
# Slow exhaustive checks run separately: .venv/bin/python -m pytest -m slow
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
exec .venv/bin/python -m pytest -n 2 -q "$@"
