"""Tetris on our machine: key scripts (from a small placement-searching player) against a
Python model of the same rules: final screen, score, lines, end message."""

from __future__ import annotations

import copy
import random
import shutil

import pytest

import guest_harness as gh

W, H = 10, 20
CLEAR = "\033[H\033[2J"
SHAPES = {  # box size, cells (x, y)
    "I": (4, [(0, 1), (1, 1), (2, 1), (3, 1)]), "O": (2, [(0, 0), (1, 0), (0, 1), (1, 1)]),
    "T": (3, [(1, 0), (0, 1), (1, 1), (2, 1)]), "S": (3, [(1, 0), (2, 0), (0, 1), (1, 1)]),
    "Z": (3, [(0, 0), (1, 0), (1, 1), (2, 1)]), "J": (3, [(0, 0), (0, 1), (1, 1), (2, 1)]),
    "L": (3, [(2, 0), (0, 1), (1, 1), (2, 1)]),
}
NAMES = "IOTSZJL"
POINTS = [0, 100, 300, 500, 800]


class TetrisModel:
    def __init__(self, seed: int):
        self.seed = seed
        self.board = [[None] * W for _ in range(H)]
        self.score = self.lines = 0
        self.alive = self.spawn()

    def rnd(self) -> int:
        self.seed = (self.seed * 1103515245 + 12345) & 0xFFFFFFFF
        return (self.seed >> 16) & 0x7FFF

    def fits(self, cells, ox, oy) -> bool:
        return all(0 <= ox + x < W and 0 <= oy + y < H and self.board[oy + y][ox + x] is None for x, y in cells)

    def spawn(self) -> bool:
        self.kind = NAMES[self.rnd() % 7]
        self.cells = list(SHAPES[self.kind][1])
        self.px, self.py = 3, 0
        return self.fits(self.cells, self.px, self.py)

    def lock(self) -> bool:
        for x, y in self.cells:
            self.board[self.py + y][self.px + x] = self.kind
        rows = [row for row in self.board if None in row]
        cleared = H - len(rows)
        self.board = [[None] * W for _ in range(cleared)] + rows
        self.score += POINTS[cleared]
        self.lines += cleared
        return self.spawn()

    def key(self, c: str) -> None:
        if c == "a" and self.fits(self.cells, self.px - 1, self.py):
            self.px -= 1
        elif c == "d" and self.fits(self.cells, self.px + 1, self.py):
            self.px += 1
        elif c == "w":
            n = SHAPES[self.kind][0]
            turned = [(n - 1 - y, x) for x, y in self.cells]
            if self.fits(turned, self.px, self.py):
                self.cells = turned
        elif c == "s" and self.fits(self.cells, self.px, self.py + 1):
            self.py += 1
        if c == " ":
            while self.fits(self.cells, self.px, self.py + 1):
                self.py += 1
            self.alive = self.lock()
        elif self.fits(self.cells, self.px, self.py + 1):
            self.py += 1
        else:
            self.alive = self.lock()

    def screen(self) -> str:
        piece = {(self.px + x, self.py + y) for x, y in self.cells}
        rows = ["|" + "".join("@" if (x, y) in piece else "." if self.board[y][x] is None else "#"
                              for x in range(W)) + "|" for y in range(H)]
        return CLEAR + "\n".join(rows) + f"\n+----------+\nscore {self.score} lines {self.lines} next-seed {self.seed}\n"

    def play(self, keys: str) -> str:
        """Everything the program prints for `keys`."""
        out = [self.screen()]
        for c in keys:
            if c == "q":
                break
            self.key(c)
            out.append(self.screen())
            if not self.alive:
                break
        out.append(f"{'quit' if self.alive else 'GAME OVER'} score {self.score} lines {self.lines}\n")
        return "".join(out)


def _badness(model: TetrisModel) -> float:
    heights = [next((H - y for y in range(H) if model.board[y][x] is not None), 0) for x in range(W)]
    holes = sum(1 for x in range(W) for y in range(H - heights[x], H) if model.board[y][x] is None)
    return -100 * model.lines + 8 * holes + sum(heights) + 2 * max(heights)


def player_keys(seed: int, pieces: int, rng: random.Random) -> str:
    """For each piece, the rotation and column whose hard drop leaves the best board."""
    model = TetrisModel(seed)
    keys = ""
    for _ in range(pieces):
        best = None
        for turns in range(4):
            for dx in range(-5, 6):
                plan = "w" * turns + ("a" if dx < 0 else "d") * abs(dx) + " "
                trial = copy.deepcopy(model)
                for c in plan:
                    trial.key(c)
                    if not trial.alive:
                        break
                score = _badness(trial) + (1000 if not trial.alive else 0) + rng.random()
                if best is None or score < best[0]:
                    best = (score, plan)
        keys += best[1]
        for c in best[1]:
            model.key(c)
        if not model.alive:
            break
    return keys


def _run(tree, tmp_path, build, seed, keys):
    root = tmp_path / "root"
    shutil.copytree(tree, root, ignore=shutil.ignore_patterns(".done"))
    name = "tetris" if build == "gcc" else "tetris.ncc"
    return gh.harness.run_ncpu(root / "bin" / name, [name, str(seed)], root, stdin=keys.encode())


@pytest.mark.parametrize("build", ["gcc", "ncc"])
@pytest.mark.parametrize("seed", [7, 1234])
def test_scripted_game_clears_lines(tree, tmp_path, build, seed):
    keys = player_keys(seed, 40, random.Random(seed)) + "q"
    want = TetrisModel(seed).play(keys)
    out = _run(tree, tmp_path, build, seed, keys)
    assert out.stdout.decode() == want
    model = TetrisModel(seed)
    model.play(keys)
    assert model.lines > 0 and model.score > 0


@pytest.mark.parametrize("build", ["gcc", "ncc"])
def test_stacking_ends_the_game(tree, tmp_path, build):
    keys = " " * 40
    want = TetrisModel(11).play(keys)
    assert "GAME OVER" in want.splitlines()[-1]
    out = _run(tree, tmp_path, build, 11, keys)
    assert out.stdout.decode() == want
