"""`ncpu run --display`: the final screen or a sequence of screens as images."""

from __future__ import annotations

import argparse

from ncpu.cli import CommandError


def add_display_options(parser: argparse.ArgumentParser, positive) -> None:
    parser.add_argument("--display", metavar="OUT.png",
                        help="render the text screen (memory words 256..736, see docs/display.md) "
                             "through the neural display and write it as a PNG")
    parser.add_argument("--display-every", type=positive, metavar="N",
                        help="with --display: a frame every N steps; OUT.gif writes an animated GIF, "
                             "any other name numbered PNGs (OUT-0000.png, ...)")


def run_displayed(args: argparse.Namespace, engine, words, state, max_steps: int):
    """Run with frames captured; writes the images; the final state."""
    from ncpu.display.capture import render_memories, run_with_memories
    from ncpu.display.image import PillowMissing, save_frames, save_png
    from ncpu.display.screen import ScreenUnavailable

    if args.display_every and not args.display:
        raise CommandError("--display-every needs --display OUT")
    final, memories = run_with_memories(engine, words, state, max_steps, args.display_every)
    try:
        frames = render_memories(memories)
        if args.display_every:
            save_frames(frames, args.display)
        else:
            save_png(frames[-1], args.display)
    except (ScreenUnavailable, PillowMissing) as error:
        raise CommandError(str(error)) from None
    except OSError as error:
        raise CommandError(f"cannot write {args.display}: {error.strerror or error}") from None
    return final
