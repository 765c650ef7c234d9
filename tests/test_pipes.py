"""ncpu/pipes.py: a script whose reader goes away ends quietly with SIGPIPE's status."""
import subprocess
import sys

_SCRIPT = """
from ncpu.pipes import run_script

def main():
    for k in range(1_000_000):
        print("line", k)
    return 0

run_script(main)
"""


def _run_into_a_reader_that_leaves(code: str):
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()                 # the reader goes away (`| head -1`)
    _, err = proc.communicate(timeout=60)
    return first, proc.returncode, err.decode()


def test_closed_pipe_ends_the_script_quietly():
    first, status, err = _run_into_a_reader_that_leaves(_SCRIPT)
    assert first == b"line 0\n"
    assert status == 128 + 13
    assert err == ""


def test_without_it_python_prints_a_traceback():
    """What run_script is for (if Python stops doing this, the helper can go)."""
    plain = _SCRIPT.replace("run_script(main)", "main()")
    _, status, err = _run_into_a_reader_that_leaves(plain)
    assert status != 0 and "BrokenPipeError" in err


def test_the_scripts_own_status_otherwise():
    done = subprocess.run([sys.executable, "-c", "from ncpu.pipes import run_script; run_script(lambda: 3)"])
    assert done.returncode == 3
