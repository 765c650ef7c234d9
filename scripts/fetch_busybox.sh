#!/bin/sh
# Fetch Debian's arm64 busybox-static into DIR (default .cache/busybox) as DIR/busybox.
# Uses apt with a private package list, so it needs no root and leaves the host's apt state alone.
set -eu
dir=${1:-$(dirname "$0")/../.cache/busybox}
mkdir -p "$dir"
[ -x "$dir/busybox" ] && exit 0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
o="-oAPT::Architecture=arm64 -oAPT::Architectures=arm64 -oDir::State::Lists=$work/lists -oDir::Cache=$work/cache -oDebug::NoLocking=1 -oAPT::Sandbox::User=root"
mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
command -v apt-get >/dev/null || { echo "fetch_busybox.sh: apt-get not found" >&2; exit 1; }
apt-get $o update >/dev/null
(cd "$work" && apt-get $o download busybox-static >/dev/null)
dpkg -x "$work"/busybox-static_*.deb "$work/x"
cp "$work/x/bin/busybox" "$dir/busybox.tmp"
chmod 755 "$dir/busybox.tmp"
mv "$dir/busybox.tmp" "$dir/busybox"
