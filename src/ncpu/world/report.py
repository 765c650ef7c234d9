"""The held-out evaluation as text: the tables `ncpu world eval` prints and the README quotes."""

from __future__ import annotations


def format_report(r: dict, flag: str = "calibrated") -> str:
    """The eval result as the tables the README quotes; `flag` is the score whose
    threshold the "caught" column uses."""
    p, o = r["programs"], r["one_step"]
    lines = [f"held-out programs: {p['random']} random + corpus {', '.join(p['corpus'])} "
             f"({p['transitions']:,} transitions)", "",
             f"{'1-step prediction':<22}{'latent MSE':>12}{'bit acc':>10}{'state acc':>11}"]
    lines += one_step_lines(o)
    if "per_op" in o:
        ranked = sorted(o["per_op"].items(), key=lambda kv: kv[1]["state_accuracy"])
        lines += ["whole next state exact, per opcode (worst first): " + "  ".join(
            f"{name} {v['state_accuracy']:.0%}" for name, v in ranked)]
    ro = r["rollouts"]
    lines += ["", f"{'open-loop rollout':<22}{'state acc':>11}{'bit acc':>10}"]
    for k in ("k=1", "k=4", "k=16", "k=64"):
        lines.append(f"{k:<22}{ro[k]['state_accuracy']:>11.2%}{ro[k]['bit_accuracy']:>10.2%}")
    d = ro["steps_to_divergence"]
    lines.append(f"mean exact steps before the first divergence: {d['mean']:.2f} "
                 f"(horizon {d['horizon']}, {d['never_diverged']:.1%} never diverged)")
    an = r["anomalies"]
    scores = [k[len("auroc_"):] for k in an["alu"] if k.startswith("auroc_")]
    lines += ["", "anomaly AUROC (faulty steps against all clean held-out steps)",
              f"{'fault':<10}{'count':>7}" + "".join(f"{name:>13}" for name in scores)
              + f"{'caught*':>10}{'visible**':>11}"]
    for kind in ("register", "alu", "skip", "memory", "branch"):
        if kind in an:
            row = an[kind]
            caught = f"{row['detected_' + flag]:.1%}" if f"detected_{flag}" in row else "-"
            lines.append(f"{kind:<10}{row['faults']:>7}" + "".join(f"{row['auroc_' + n]:>13.4f}" for n in scores)
                         + f"{caught:>10}" + (f"{row['visible']:>11.1%}" if "visible" in row else ""))
    if "false_positive_rate" in an and flag in an["false_positive_rate"]:
        lines.append(f"* caught by the {flag} threshold, which flags "
                     f"{an['false_positive_rate'][flag]:.2%} of clean held-out steps "
                     f"(set to flag 1% of the clean steps of validation programs)")
        lines.append("** faults whose changed bits the decoded prediction does not already show: the rest look, "
                     "bit for bit, like what the model predicted for the clean step")
    sp = r["speculation"]
    branches = {k: v for k, v in sp.items() if k.startswith("branch")}
    if branches:
        majority = max(next(iter(branches.values()))["taken_share"], 1 - next(iter(branches.values()))["taken_share"])
        lines += ["", "branch direction predicted k steps ahead (held-out corpus): " + "  ".join(
            f"{k.split('_')[1]} {v['accuracy']:.1%} of {v['branches']}" for k, v in branches.items())
            + f"  (always guessing the majority direction: {majority:.1%})"]
    sv = sp["speculate_verify"]
    lines.append(f"speculate-then-verify (horizon {sv['horizon']}): {sv['steps']} steps in {sv['rounds']} rounds, "
                 f"{sv['sequential_steps_saved']} sequential steps saved ({sv['saved_share']:.1%})")
    if "trip_counts" in r:
        lines += [""] + trip_lines(r["trip_counts"])
    return "\n".join(lines)


def trip_lines(trips: dict) -> list[str]:
    t = trips["held_out"]
    lines = [f"loop trip counts from latents (held-out, {t['latches']} loop-branch executions, "
             f"{t['entries']} loop entries)",
             f"  remaining count right at every loop branch: {t['accuracy']:.1%} "
             f"(always guessing the training majority, {t['majority_count']}: {t['majority_accuracy']:.1%})",
             f"  at loop entry: {t['entry_accuracy']:.1%} (majority: {t['entry_majority_accuracy']:.1%}); by how far "
             "ahead the exit lies: " + "  ".join(f"{k} {v['accuracy']:.1%} of {v['entries']}"
                                                 for k, v in t["by_distance"].items() if v["entries"])]
    for name, label in (("held_out", "held-out programs"), ("held_out_corpus", "held-out corpus")):
        if name not in trips:
            continue
        sv = trips[name]["speculate_verify"]
        lines.append(f"  speculate-then-verify at loop entry ({label}): {sv['instances_right']} of "
                     f"{sv['loop_instances']} loops right, {sv['steps_covered']} of {sv['steps_in_loops']} loop steps "
                     f"run as verified blocks, {sv['sequential_steps_saved']} sequential steps saved")
    return lines


def one_step_lines(o: dict) -> list[str]:
    """The 1-step rows under the header: model and baselines, the probe, per field and
    class, the latents' spread (both targets print them alike)."""
    lines = []
    for name in ("model", "no_change", "linear"):
        row = o[name]
        lines.append(f"{name.replace('_', ' '):<22}{row['latent_mse']:>12.4g}{row['bit_accuracy']:>10.2%}"
                     f"{row['state_accuracy']:>11.2%}")
    probe = o["probe_on_true_latents"]
    lines.append(f"{'probe on true latents':<22}{'':>12}{probe['bit_accuracy']:>10.2%}{probe['state_accuracy']:>11.2%}")
    lines += ["", "model bit accuracy by field: " + "  ".join(f"{k} {v:.2%}" for k, v in o["model"]["fields"].items()),
              "by instruction class:  " + "  ".join(
                  f"{k} {v['bit_accuracy']:.2%} bits / {v['state_accuracy']:.2%} states ({v['steps']})"
                  for k, v in o["per_class"].items())]
    lat = o["latent"]
    lines.append(f"byte latents ({lat['byte_dims']} dims): per-dim variance min {lat['variance_min']:.3g} / median "
                 f"{lat['variance_median']:.3g} / max {lat['variance_max']:.3g}, dims with std < 0.1: "
                 f"{lat['dims_std_below_0.1']}, effective rank {lat['byte_effective_rank']:.1f}; "
                 f"state latent ({lat['dims']} dims): effective rank {lat['effective_rank']:.1f}")
    return lines
