"""Snake on our machine: scripted key sequences against a Python model of the same rules
(final score, final screen, end message)."""

from __future__ import annotations

import random
import shutil

import pytest

import guest_harness as gh

W, H = 20, 10
CLEAR = "\033[H\033[2J"


class SnakeModel:
    def __init__(self, seed: int):
        self.seed = seed
        self.body = [(W // 2 - i, H // 2) for i in range(3)]
        self.dir = 0
        self.score = 0
        self.food = None
        self.place_food()

    def rnd(self) -> int:
        self.seed = (self.seed * 1103515245 + 12345) & 0xFFFFFFFF
        return (self.seed >> 16) & 0x7FFF

    def place_food(self) -> bool:
        free = [(x, y) for y in range(H) for x in range(W) if (x, y) not in self.body]
        if not free:
            return False
        self.food = free[self.rnd() % len(free)]
        return True

    def screen(self) -> str:
        rows = ["+" + "-" * W + "+"]
        for y in range(H):
            row = ""
            for x in range(W):
                row += "@" if (x, y) == self.body[0] else "o" if (x, y) in self.body[1:] else \
                    "*" if (x, y) == self.food else " "
            rows.append("|" + row + "|")
        rows.append("+" + "-" * W + "+")
        return CLEAR + "\n".join(rows) + f"\nscore {self.score}  length {len(self.body)}\n"

    def play(self, keys: str) -> tuple[str, str]:
        """(last screen, end message)"""
        last = self.screen()
        dx, dy = (1, 0, -1, 0), (0, 1, 0, -1)
        for key in keys:
            if key == "q":
                return last, f"quit score {self.score}\n"
            nd = {"d": 0, "s": 1, "a": 2, "w": 3}.get(key, self.dir)
            if (nd + 2) % 4 != self.dir:
                self.dir = nd
            head = (self.body[0][0] + dx[self.dir], self.body[0][1] + dy[self.dir])
            ate = head == self.food
            hits_body = head in self.body and not (head == self.body[-1] and not ate)
            if not (0 <= head[0] < W and 0 <= head[1] < H) or hits_body:
                return last, f"GAME OVER score {self.score}\n"
            self.body = [head] + (self.body if ate else self.body[:-1])
            if ate:
                self.score += 10
                if not self.place_food():
                    return self.screen(), f"YOU WIN score {self.score}\n"
            last = self.screen()
        return last, f"quit score {self.score}\n"


def greedy_keys(seed: int, n: int, rng: random.Random) -> str:
    """Keys that chase the food and avoid dying when they can (so games score), with random
    detours; the script ends in a crash now and then, which the test also covers."""
    import copy
    model = SnakeModel(seed)
    keys = ""
    for _ in range(n):
        (hx, hy), (fx, fy) = model.body[0], model.food
        want = "d" if fx > hx else "a" if fx < hx else "s" if fy > hy else "w"
        order = [want] + rng.sample("wasd", 4)
        if rng.random() < 0.1:
            order = rng.sample("wasd.", 5)
        for key in order:
            trial = copy.deepcopy(model)
            if trial.play(key)[1].startswith("quit"):
                break
        keys += key
        if not model.play(key)[1].startswith("quit"):
            break
    return keys


@pytest.mark.parametrize("build", ["gcc", "ncc"])
@pytest.mark.parametrize("seed", [1, 42, 2024])
def test_scripted_game(tree, tmp_path, build, seed):
    rng = random.Random(seed)
    keys = greedy_keys(seed, 150, rng) + "q"
    want_screen, want_end = SnakeModel(seed).play(keys)
    root = tmp_path / "root"
    shutil.copytree(tree, root, ignore=shutil.ignore_patterns(".done"))
    name = "snake" if build == "gcc" else "snake.ncc"
    out = gh.harness.run_ncpu(root / "bin" / name, [name, str(seed)], root, stdin=keys.encode())
    assert out.stdout.decode().endswith(want_screen + want_end)
    assert int(want_end.split()[-1]) > 0  # the script does eat


@pytest.mark.parametrize("build", ["gcc", "ncc"])
def test_arrow_keys_and_wall(tree, tmp_path, build):
    keys = "\033[B" * 6  # down into the bottom wall
    want_screen, want_end = SnakeModel(3).play("ssssss")
    root = tmp_path / "root"
    shutil.copytree(tree, root, ignore=shutil.ignore_patterns(".done"))
    name = "snake" if build == "gcc" else "snake.ncc"
    out = gh.harness.run_ncpu(root / "bin" / name, [name, "3"], root, stdin=keys.encode())
    assert want_end == "GAME OVER score 0\n"
    assert out.stdout.decode().endswith(want_screen + want_end)
