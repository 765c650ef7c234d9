"""The `ncpu` command: parse arguments, call the library, print.

Each subcommand lives in its own module under `ncpu.commands` and exposes
`register(subparsers)`, which adds its parser and sets `func` to a callable
taking the parsed namespace and returning an exit status.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ncpu import __version__

# Module names under ncpu.commands, in the order `ncpu --help` lists them.
COMMANDS = ["run", "asm", "disasm", "bench", "train", "verify", "discover", "arm64", "coprocessor"]


class CommandError(Exception):
    """A user-facing error: printed as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ncpu",
        description="nCPU: a computer built from neural networks and tensor programs.",
    )
    parser.add_argument("--version", action="version", version=f"ncpu {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"ncpu.commands.{name}")
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except CommandError as error:
        print(f"ncpu: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ncpu: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
