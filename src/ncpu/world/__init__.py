"""A JEPA-style world model of the nCPU machine.

Read in this order:
  model.py     the network: state and action encoders, EMA target encoder,
               predictor, probes, the JEPA + VICReg loss (start here)
  features.py  how a machine state and an instruction become bit vectors
  traces.py    transitions recorded from the reference engine; the split of
               programs into train / valid / eval by content
  train.py     the training loop with checkpoints
  faults.py    injected faults for the anomaly benchmark
  calibrate.py the calibrated anomaly score: error rates measured per context
  trips.py     loop trip counts speculated from latents (the trip head)
  evaluate.py  held-out figures: baselines, probes, rollouts, AUROC, speculation
  watch.py     one program beside the predictor, step by step
  arm64.py     the ARM64 machine as a second target: traces, bits, faults
  arm64_eval.py  its held-out figures and calibrated score
  arm64_watch.py an ARM64 program (hex words) beside its model, step by step
"""

from pathlib import Path

WEIGHTS = Path(__file__).resolve().parent / "weights"  # the shipped checkpoints (`ncpu world eval` reads them)
