"""The CHIP-8 emulator on our machine, on ROMs assembled by tests/guest/chip8_asm.py:
each opcode group checked against registers and screens worked out by hand."""

from __future__ import annotations

import re
import shutil

import pytest

import guest_harness as gh
from chip8_asm import assemble

BUILDS = ["gcc", "ncc"]


@pytest.fixture(scope="module")
def root(tree, tmp_path_factory):
    path = tmp_path_factory.mktemp("chip8") / "root"
    shutil.copytree(tree, path, ignore=shutil.ignore_patterns(".done"))
    return path


def run_rom(root, build, source, keys=""):
    (root / "rom.ch8").write_bytes(assemble(source))
    name = "chip8" if build == "gcc" else "chip8.ncc"
    out = gh.harness.run_ncpu(root / "bin" / name, [name, "/rom.ch8", "100000", *([keys] if keys else [])], root)
    assert out.status == 0
    lines = out.stdout.decode().splitlines()
    screen, regs, misc = lines[:32], lines[32], lines[33]
    v = [int(m, 16) for m in re.findall(r"V[0-9A-F]=([0-9a-f]{2})", regs)]
    state = {k: int(val, 16) if k in ("I", "PC") else int(val) for k, val in re.findall(r"(\w+)=(\w+)", misc)}
    return screen, v, state


@pytest.mark.parametrize("build", BUILDS)
def test_arithmetic_and_flags(root, build):
    _, v, state = run_rom(root, build, """
        LD V0, 200
        ADD V0, 100      ; 7XNN wraps, no flag: 44
        LD V1, 250
        LD V2, 10
        ADD V1, V2       ; 260 -> 4, VF=1
        LD V3, 5
        LD V4, 7
        SUB V3, V4       ; 5-7 -> 254, VF=0 (borrow)
        LD V5, 0x0F
        LD V6, 0xF0
        OR V5, V6        ; FF
        LD V7, 0x3C
        AND V7, V6       ; 30
        LD V8, 0xFF
        XOR V8, V6       ; 0F
        LD V9, 0x81
        SHR VA, V9       ; 40, VF=1
        SHL VB, V9       ; 02, VF=1
        LD VC, 3
        LD VD, 10
        SUBN VC, VD      ; 10-3 = 7, VF=1
        LD VE, 0x55
    halt:
        JP halt
    """)
    assert v == [44, 4, 10, 254, 7, 0xFF, 0xF0, 0x30, 0x0F, 0x81, 0x40, 0x02, 7, 10, 0x55, 1]
    assert state["PC"] == 0x200 + 2 * 22


@pytest.mark.parametrize("build", BUILDS)
def test_flags_of_each_flag_op(root, build):
    _, v, _ = run_rom(root, build, """
        LD V0, 1
        LD V1, 2
        ADD V0, V1       ; no carry
        LD V2, VF        ; 0
        LD V0, 9
        SUB V0, V1       ; no borrow
        LD V3, VF        ; 1
        LD V0, 0x80
        SHL V4, V0       ; bit 7 out
        LD V5, VF        ; 1
        LD V0, 2
        SHR V6, V0       ; bit 0 out: 0
        LD V7, VF        ; 0
        LD V0, 9
        LD V1, 2
        SUBN V0, V1      ; 2 - 9 borrows
        LD V8, VF        ; 0
    halt:
        JP halt
    """)
    assert v[2:4] == [0, 1] and v[4:9] == [0, 1, 1, 0, 0] and v[0] == 249


@pytest.mark.parametrize("build", BUILDS)
def test_jumps_calls_and_skips(root, build):
    _, v, state = run_rom(root, build, """
        LD V0, 0
        LD V1, 10
    loop:
        ADD V0, 3
        ADD V1, 255      ; minus one
        SE V1, 0
        JP loop
        CALL sub
        SNE V0, 30       ; equal: no skip
        LD V3, 1
        SE V0, V2        ; 30 != 0x42: no skip
        LD V4, 1
        SNE V0, V2       ; skip
        LD V5, 1
        LD V0, 4
        JP V0, table     ; table + 4
    table:
        LD V6, 1
        LD V7, 1
        LD V8, 1
    halt:
        JP halt
    sub:
        LD V2, 0x42
        RET
    """)
    assert v[:9] == [4, 0, 0x42, 1, 1, 0, 0, 0, 1]
    assert state["SP"] == 0


@pytest.mark.parametrize("build", BUILDS)
def test_bcd_store_load_and_index(root, build):
    _, v, state = run_rom(root, build, """
        LD V0, 137
        LD I, 0x300
        LD B, V0
        LD V2, [I]       ; V0..V2 = 1, 3, 7
        LD V5, 9
        LD V6, 8
        LD I, 0x310
        LD V3, 200
        LD VA, 5
        ADD I, VA        ; 0x315
        LD [I], V6       ; stores V0..V6
        LD V0, 0
        LD V6, 0
        LD V6, [I]
    halt:
        JP halt
    """)
    assert v[:7] == [1, 3, 7, 200, 0, 9, 8]
    assert state["I"] == 0x315


SEVEN = ["####....", "...#....", "..#.....", ".#......", ".#......"]


@pytest.mark.parametrize("build", BUILDS)
def test_draw_font_sprite_and_collision(root, build):
    screen, v, _ = run_rom(root, build, """
        CLS
        LD V0, 7
        LD F, V0
        LD V1, 2
        LD V2, 3
        DRW V1, V2, 5
        LD V9, VF        ; no collision: 0
    halt:
        JP halt
    """)
    assert v[9] == 0
    assert [row[2:10] for row in screen[3:8]] == SEVEN
    assert sum(row.count("#") for row in screen) == sum(r.count("#") for r in SEVEN)
    screen, v, _ = run_rom(root, build, """
        LD V0, 7
        LD F, V0
        LD V1, 62        ; wraps around the right edge
        LD V2, 3
        DRW V1, V2, 5
        DRW V1, V2, 5    ; erases: collision
    halt:
        JP halt
    """)
    assert v[15] == 1 and all(set(row) == {"."} for row in screen)


@pytest.mark.parametrize("build", BUILDS)
def test_keys_timer_and_random(root, build):
    _, v, state = run_rom(root, build, """
        LD V0, 5
        SKP V0           ; key 5 held: skip
        LD V1, 1
        SKNP V0          ; no skip
        LD V2, 2
        LD V3, K         ; 5
        LD V4, 20
        LD DT, V4
    wait:
        LD V5, DT
        SE V5, 0
        JP wait
        RND V6, 0xFF
        RND V7, 0x0F
    halt:
        JP halt
    """, keys="5")
    seed = 1
    rnd = []
    for _ in range(2):
        seed = (seed * 1103515245 + 12345) & 0xFFFFFFFF
        rnd.append((seed >> 16) & 0xFF)
    assert v[:8] == [5, 0, 2, 5, 20, 0, rnd[0], rnd[1] & 0x0F]
    assert state["DT"] == 0
