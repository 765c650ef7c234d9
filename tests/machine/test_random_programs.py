"""The random program generator: valid, reproducible, and covering the ISA."""

from __future__ import annotations

from collections import Counter

from ncpu.isa.encoding import decode
from ncpu.isa.opcodes import OPCODES
from ncpu.machine import compute
from ncpu.machine.random_programs import random_batch, random_case, random_program


def test_same_seed_same_case():
    assert random_case(123) == random_case(123)
    assert random_program(5) != random_program(6)


def test_programs_decode_and_cover_every_opcode():
    seen = Counter()
    for seed in range(400):
        for word in random_program(seed, syscalls=True):
            seen[decode(word).op.mnemonic] += 1
    assert set(seen) == {op.mnemonic for op in OPCODES}


def test_most_programs_halt_some_do_not():
    halted = sum(compute.run(*random_case(seed), 500).halted for seed in range(500))
    assert 300 < halted < 500


def test_batches_share_memory_size():
    batch = random_batch(9, 17, program_length=10)
    assert batch.memory.shape[0] == 17 and batch.registers.shape == (17, 8)
