"""neurOS: processes, system calls, virtual memory, pipes, files; the same
results under every policy, time slice and engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from ncpu.isa import assemble
from ncpu.machine.state import MachineState
from ncpu.os.kernel import Image, Kernel
from ncpu.os.neural import NeuralPolicies
from ncpu.os.policies import ClassicalPolicies
from ncpu.os.workload import load_images

OS_PROGRAMS = Path(__file__).resolve().parents[2] / "programs" / "os"
WORKLOAD = sorted(OS_PROGRAMS.glob("*.asm"))


def results(kernel: Kernel) -> list[tuple]:
    """What a process computed: never how it was scheduled."""
    return [(p["pid"], p["program"], p["exit_status"], p["ended"], p["stdout"], p["steps"])
            for p in kernel.report()["processes"]]


def image(text: str, name: str = "inline", mem_size: int = 256, max_steps: int = 100_000) -> Image:
    return Image(name, assemble(text).words, MachineState(memory=[0] * mem_size), max_steps)


@pytest.fixture(scope="module")
def classical():
    return Kernel(load_images(WORKLOAD), ClassicalPolicies(), stdin=b"typed", memory_stats=True).run()


def test_workload_results(classical):
    by_name = {(p["program"], p["parent"] != 0): p for p in classical.report()["processes"]}
    assert by_name[("hello", False)]["stdout"] == "Hello, nCPU!\n"
    assert by_name[("echo", False)]["stdout"] == "typed" and by_name[("echo", False)]["exit_status"] == 5
    assert by_name[("forkpipe", False)]["stdout"] == "ping\n" * 3
    assert by_name[("forkpipe", False)]["exit_status"] == 22 and by_name[("forkpipe", True)]["exit_status"] == 7
    assert by_name[("sum", False)]["stdout"] == "2001000\n"
    assert by_name[("memhog", False)]["exit_status"] == 2016 and by_name[("memhog", False)]["page_faults"] == 63
    assert classical.report()["files"] == {"log": "abc"}
    assert classical.memory.in_use == 0, "every frame is freed when its process ends"


def test_neural_policy_gives_the_same_results(classical):
    neural = Kernel(load_images(WORKLOAD), NeuralPolicies(), stdin=b"typed").run()
    assert results(neural) == results(classical)
    assert neural.report()["files"] == classical.report()["files"]
    assert neural.policies.decisions["mmu"] > 1000 and neural.policies.decisions["interrupt"] > 50
    assert not (neural.policies.overrides["mmu"] or neural.policies.overrides["interrupt"]), \
        "the exact parts needed no override"
    # The learned memory-hierarchy parts decided too, over the same accesses.
    memory, reference = neural.report()["memory"], classical.report()["memory"]
    assert neural.policies.decisions["cache"] > 0 and neural.policies.decisions["tlb"] > 0
    assert memory["cache_hits"] + memory["cache_misses"] == reference["cache_hits"] + reference["cache_misses"] > 100
    # The learned parts were asked at run time too (their guards may override them).
    assert neural.policies.decisions["schedule"] > 20 and neural.policies.decisions["watchdog"] > 20


@pytest.mark.parametrize("slice_steps", [3, 1000])
def test_time_slice_does_not_change_results(classical, slice_steps):
    kernel = Kernel(load_images(WORKLOAD), slice_steps=slice_steps, stdin=b"typed").run()
    assert results(kernel) == results(classical)


def test_reference_engine_gives_the_same_results():
    paths = [OS_PROGRAMS / "forkpipe.asm", OS_PROGRAMS / "files.asm"]
    want = results(Kernel(load_images(paths)).run())
    assert results(Kernel(load_images(paths), engine="reference").run()) == want


def test_address_spaces_are_private():
    """Two copies of memhog write the same virtual words; each sums its own."""
    kernel = Kernel(load_images([OS_PROGRAMS / "memhog.asm"] * 2), slice_steps=13).run()
    assert [p.exit_status for p in kernel.processes.values()] == [2016, 2016]
    assert kernel.peak_frames == 2 * 63  # 63 written pages each (page 0 is written only with a 0)


def test_running_out_of_frames_ends_the_process():
    kernel = Kernel(load_images([OS_PROGRAMS / "memhog.asm", OS_PROGRAMS / "hello.asm"]), frames=10).run()
    memhog, hello = kernel.processes.values()
    assert memhog.reason == "out of memory" and hello.stdout == b"Hello, nCPU!\n"


def test_spawn_wait_getpid_and_sleep():
    parent = image("""
        MOV R0, 10          ; spawn(program 1)
        MOV R1, 1
        SYS
        MOV R6, R0
        MOV R0, 5           ; wait(any, status at 20)
        MOV R1, -1
        MOV R2, 20
        SYS
        CMP R0, R6
        JNZ bad
        MOV R7, 0
        LOAD R1, [R7+20]
        MOV R0, 0           ; exit(child's status)
        SYS
    bad: MOV R0, 0
        MOV R1, 99
        SYS
    """)
    child = image("""
        MOV R0, 3           ; sleep(3)
        MOV R1, 3
        SYS
        MOV R0, 6           ; getpid
        SYS
        MOV R1, R0
        ADD R1, R1, 40
        MOV R0, 0           ; exit(pid + 40)
        SYS
    """)
    kernel = Kernel([parent, child]).run()
    first, second, spawned = kernel.processes.values()
    assert (spawned.pid, spawned.parent, spawned.exit_status) == (3, 1, 43)
    assert first.exit_status == 43 and second.exit_status == 42
    assert kernel.stats["irq_wakeup"] == 2


def test_a_process_waiting_on_itself_is_a_deadlock():
    """Reading a pipe whose only write end the reader holds can never finish."""
    stuck = image("""
        MOV R0, 7
        MOV R1, 30
        SYS
        MOV R7, 0
        LOAD R1, [R7+30]
        MOV R0, 2
        MOV R2, 40
        MOV R3, 1
        SYS
        HALT
    """)
    kernel = Kernel([stuck, image("MOV R0, 0\nMOV R1, 5\nSYS")]).run()
    first, second = kernel.processes.values()
    assert first.reason == "deadlock" and second.exit_status == 5


def test_bad_calls_return_minus_one():
    program = image("""
        MOV R0, 1           ; write(fd 9)
        MOV R1, 9
        SYS
        MOV R5, R0
        MOV R0, 8           ; open("", read)
        MOV R1, 100
        MOV R2, 0
        SYS
        ADD R5, R5, R0
        MOV R0, 77          ; no such call
        SYS
        ADD R5, R5, R0
        MOV R0, 5           ; wait: no children
        MOV R1, -1
        SYS
        ADD R1, R5, R0
        MOV R0, 0
        SYS
    """)
    assert Kernel([program]).run().processes[1].exit_status == -4
