"""The behaviour every tiny world model is held to, whichever variant it is
(test_world.py: the learned one; test_world_exact_alu.py: exact_alu)."""

import random

import numpy as np

from ncpu.world.evaluate import Transitions, anomaly_scores, linear_baseline, one_step
from ncpu.world.faults import inject
from ncpu.world.traces import random_traces


def beats_no_change_on_held_out_programs(model) -> None:
    data = Transitions.of(random_traces("eval", 10**9, 60))
    result = one_step(model, data, linear_baseline(model, random_traces("train", 77, 60)))
    assert result["model"]["latent_mse"] < result["no_change"]["latent_mse"]
    assert result["latent"]["dims_std_below_0.1"] == 0


def scores_injected_alu_faults_above_clean_steps(model) -> None:
    rng = random.Random(3)
    data = Transitions.of(random_traces("eval", 10**9, 60))
    rows, faulty = [], []
    for i in range(len(data.action)):
        bad = inject("alu", data.before[i], data.action[i], data.after[i], rng)
        if bad is not None:
            rows.append(i)
            faulty.append(bad)
    clean = anomaly_scores(model, Transitions(data.before[rows], data.action[rows], data.after[rows]))
    fault = anomaly_scores(model, Transitions(data.before[rows], data.action[rows], np.array(faulty)))
    # The same steps, with and without the fault: the fault must raise the
    # probe's surprise at the observed state on most of them, and on average.
    assert (fault["probe"] > clean["probe"]).float().mean() > 0.7
    assert fault["probe"].mean() > clean["probe"].mean()
