"""`ncpu arm64-root`: build a Debian arm64 root tree for `ncpu arm64 --root`.

    ncpu arm64-root DIR [--update] [--json] PACKAGE...
"""

from __future__ import annotations

import json
import sys

from ncpu.cli import CommandError

# What the README and the tests use: each of these is tested under the machine.
DEFAULT_PACKAGES = ["bash", "coreutils", "grep", "sed", "gawk", "findutils", "diffutils", "gzip", "xz-utils",
                    "tar", "bc", "file", "python3-minimal", "libpython3-stdlib", "perl-base", "sqlite3", "make",
                    "gcc", "libc6-dev"]


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "arm64-root", help="build a Debian arm64 root tree (for ncpu arm64 --root)",
        description="Resolve PACKAGE... and their dependencies for Debian arm64 with apt, download the "
                    ".debs (cached in the nCPU cache directory), unpack them into DIR with dpkg -x and do "
                    "what the maintainer scripts would that programs need (merged /usr links, alternatives, "
                    "/etc/passwd, /etc/group, /etc/nsswitch.conf). Needs a Debian host (apt-get, dpkg). "
                    f"With no PACKAGE: {' '.join(DEFAULT_PACKAGES)}.")
    parser.add_argument("dir", metavar="DIR", help="directory to build the root in (created; may already hold one)")
    parser.add_argument("packages", metavar="PACKAGE", nargs="*", help="Debian package names")
    parser.add_argument("--update", action="store_true", help="refresh apt's package lists first")
    parser.add_argument("--json", action="store_true", help="print the installed packages as JSON")
    parser.set_defaults(func=main)


def main(args) -> int:
    from tqdm import tqdm

    from ncpu.arm64.linux.rootfs import RootError, build

    bars: dict[str, tqdm] = {}

    def progress(stage: str, fraction: float, text: str) -> None:
        bar = bars.get(stage)
        if bar is None:
            bar = bars[stage] = tqdm(total=1000, desc=stage, file=sys.stderr, leave=False,
                                     disable=not sys.stderr.isatty(),
                                     bar_format="{desc}: {percentage:3.0f}%|{bar}| {postfix}")
        bar.n = int(fraction * 1000)
        bar.set_postfix_str(text[:40])

    try:
        packages = build(args.dir, args.packages or DEFAULT_PACKAGES, update=args.update, progress=progress)
    except RootError as error:
        raise CommandError(str(error)) from None
    finally:
        for bar in bars.values():
            bar.close()
    if args.json:
        print(json.dumps({"root": args.dir, "packages": [{"name": p.name, "version": p.version, "arch": p.arch}
                                                          for p in packages]}, indent=1))
    else:
        print(f"{args.dir}: {len(packages)} packages")
    return 0
