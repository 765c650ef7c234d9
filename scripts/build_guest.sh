#!/usr/bin/env bash
# Build the guest software into a root tree for `ncpu arm64 --root DIR`:
#   DIR/bin/ncc            the C compiler (stage 0: built by aarch64-linux-gnu-gcc)
#   DIR/usr/lib/ncc/       ncc's C library and headers (ncc's default -L)
#   DIR/src/ncc/ncc.c      ncc's own source (to compile it on the machine)
#   DIR/bin/APP            each application in guest/apps/, built by gcc -static -O2
#   DIR/bin/APP.ncc        the same application built by ncc
# Usage: scripts/build_guest.sh DIR
set -euo pipefail
DIR=${1:?usage: scripts/build_guest.sh DIR}
HERE=$(cd "$(dirname "$0")/.." && pwd)
CC=${CC:-aarch64-linux-gnu-gcc}

mkdir -p "$DIR/bin" "$DIR/usr/lib/ncc" "$DIR/src/ncc"
cp -R "$HERE"/guest/ncc/lib/. "$DIR/usr/lib/ncc/"    # headers (some in sys/, netinet/, arpa/) and libc.c
cp "$HERE"/guest/ncc/ncc.c "$DIR/src/ncc/"
"$CC" -static -O2 -fwrapv -w -o "$DIR/bin/ncc" "$HERE/guest/ncc/ncc.c"

# ncc for this host, to build the applications quickly (its output is the same
# bytes as the guest ncc's: the self-hosting test checks that)
HOSTNCC="$DIR/.ncc-host"
if command -v cc >/dev/null; then
    cc -O2 -fwrapv -w -o "$HOSTNCC" "$HERE/guest/ncc/ncc.c"
    run_ncc() { "$HOSTNCC" -L "$HERE/guest/ncc/lib" "$@"; }
else
    run_ncc() { qemu-aarch64 "$DIR/bin/ncc" -L "$HERE/guest/ncc/lib" "$@"; }
fi

shopt -s nullglob
for src in "$HERE"/guest/apps/*.c; do
    name=$(basename "$src" .c)
    "$CC" -static -O2 -w -o "$DIR/bin/$name" "$src"
    # an application that needs more than ncc's subset says so in its first line
    if ! head -1 "$src" | grep -q "gcc only"; then
        run_ncc -o "$DIR/bin/$name.ncc" "$src"
    fi
done
for extra in "$HERE"/guest/apps/*.bf "$HERE"/guest/apps/*.fs; do
    mkdir -p "$DIR/share"
    cp "$extra" "$DIR/share/"
done
rm -f "$HOSTNCC"
