#!/usr/bin/env bash
# Set up nCPU in .venv. With --test, also install what the tests need:
# Debian's qemu-user, aarch64 cross-compiler, gdb-multiarch (apt-get, as root) and the
# Python test dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[[ "${1:-}" == "--test" ]] && want_test=1

if [[ $want_test == 1 ]]; then
    missing=()
    command -v qemu-aarch64 >/dev/null || missing+=(qemu-user)
    command -v aarch64-linux-gnu-gcc >/dev/null || missing+=(gcc-aarch64-linux-gnu)
    command -v dpkg >/dev/null || missing+=(dpkg)
    command -v gdb-multiarch >/dev/null || missing+=(gdb-multiarch)
    if (( ${#missing[@]} )); then
        if [[ $(id -u) != 0 ]]; then
            echo "setup: need root to install ${missing[*]} (apt-get)" >&2
            exit 1
        fi
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
fi

if [[ ! -x .venv/bin/python ]]; then
    python3 -m venv .venv
fi
# torch is pinned to the CPU build (see pyproject.toml).
extras=""
[[ $want_test == 1 ]] && extras="[test]"
.venv/bin/pip install -q --disable-pip-version-check -e ".${extras}" 2>&1 | grep -v "is ignored: it is neither a file nor a directory" || true
.venv/bin/python -c "import ncpu, torch, numba" || { echo "setup: installation failed" >&2; exit 1; }
