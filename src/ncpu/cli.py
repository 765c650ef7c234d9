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
from ncpu.pipes import closed_pipe
from ncpu.settings import SettingError

# Module names under ncpu.commands, in the order `ncpu --help` lists them.
COMMANDS = ["run", "asm", "disasm", "compile", "pipeline", "bench", "train", "verify", "discover", "arm64", "arm64_root",
            "debug", "muxleq", "world", "coprocessor", "os"]


class CommandError(Exception):
    """A user-facing error: printed as one line, exit status 2."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or (`only`, a module name from COMMANDS) one with just that subcommand.

    Each command module imports what it needs at module level (numpy, torch, the
    engines...), so registering all of them costs a tenth of a second or more;
    a command line that names its subcommand imports only that module."""
    parser = argparse.ArgumentParser(
        prog="ncpu",
        description="nCPU: a computer built from neural networks and tensor programs.",
    )
    parser.add_argument("--version", action="version", version=f"ncpu {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if only is None else [only]:
        module = importlib.import_module(f"ncpu.commands.{name}")
        module.register(subparsers)
    return parser


def _named_command(argv: list[str]) -> str | None:
    """The COMMANDS module that argv's first word names (`arm64-root` -> arm64_root), else None
    (no word, an option such as --help, or an unknown name: the whole parser answers those)."""
    if not argv:
        return None
    module = argv[0].replace("-", "_")
    return module if module in COMMANDS and argv[0] == module.replace("_", "-") else None


def main(argv: list[str] | None = None) -> int:
    from ncpu.commands._startup import heavy_imports, own_process

    if argv is None:            # the `ncpu` program itself (not a caller passing arguments)
        own_process()
    argv = sys.argv[1:] if argv is None else list(argv)
    with heavy_imports():        # the command modules' own imports (numpy, the engines' packages...)
        parser = build_parser(_named_command(argv))
    if any("\0" in arg for arg in argv):
        # a real command line cannot carry one (exec ends strings there); a path with one cannot be opened
        print("ncpu: error: an argument contains a NUL byte", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except (CommandError, SettingError) as error:
        print(f"ncpu: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ncpu: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return closed_pipe()


if __name__ == "__main__":
    raise SystemExit(main())
