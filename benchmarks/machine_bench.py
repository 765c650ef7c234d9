"""Instructions per second of the nCPU engines (the table `ncpu bench` prints).

    python benchmarks/machine_bench.py [--engines reference,compute,fast] [--batches 1,64,4096]

The measurement code lives in `ncpu.commands.bench` so that the installed
`ncpu bench` command and this script print the same figures from one place.
"""

from ncpu.commands.bench import main

if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
