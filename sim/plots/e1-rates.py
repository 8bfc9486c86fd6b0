#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""E1's figure: each flow's rate per ms and the receiver's queue over time,
from the CSV that e1-convergence --trace writes, beside the DCQCN fluid
model (dcqcn_fluid.py) integrated for the same flows, profile and switch;
and the steady state against the model's fixed point, as TAP lines that
say "met" or "NOT met" (within 20 %: the measured window's mean queue and
each flow's mean rate).

usage: e1-rates.py TRACE.csv OUT.png [TITLE]
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")  # no display: a file only
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import dcqcn_fluid  # noqa: E402

# The steady state within this of the model's fixed point.
WITHIN = 0.20


def read(path):
    """Per-flow Gb/s per ms, (ms, bytes) queue samples, the parameters."""
    ms, flows, queue, params = [], [], [], {}
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row or row[0].startswith("#"):
                continue
            if row[0] == "ms":
                flows = [[] for _ in row[1:]]
            elif row[0] == "q":
                queue.append((float(row[1]), int(row[2])))
            elif row[0] == "p":
                params[row[1]] = float(row[2])
            else:
                ms.append(int(row[0]))
                for i, v in enumerate(row[1:]):
                    flows[i].append(float(v))
    return ms, flows, queue, params


class Tap:
    """TAP lines, as the experiments print them (report.h)."""

    def __init__(self):
        self.n = 0

    def criterion(self, met, text):
        self.n += 1
        print(f"{'ok' if met else 'not ok'} {self.n} - {text}: "
              f"{'met' if met else 'NOT met'}")


def compare(name, prm, params, flows, queue, model, tap):
    """The measured window's means against the fixed point."""
    start, end = params["start_ms"], params["end_ms"]
    fp = dcqcn_fluid.fixed_point(prm)
    q_sim = np.mean([b for t, b in queue if start <= t < end] or [0])
    bins = range(int(np.ceil(start)), int(np.floor(end)))
    means = [np.mean([f[b] for b in bins if b < len(f)] or [0]) for f in flows]
    t, rc, q = model
    sel = (t * 1e3 >= start) & (t * 1e3 < end)
    print(f"# {name}: measured {start:.0f}-{end:.0f} ms: queue mean "
          f"{q_sim / 1e3:.0f} KB, flows {min(means):.2f} to {max(means):.2f} "
          f"Gb/s")
    print(f"# {name}: fluid model integrated, same window: queue mean "
          f"{np.mean(q[sel]) / 1e3:.0f} KB, flows "
          f"{prm.to_gbps(np.min(np.mean(rc[sel], axis=0))):.2f} to "
          f"{prm.to_gbps(np.max(np.mean(rc[sel], axis=0))):.2f} Gb/s")
    if fp is None or fp["q"] is None:
        why = "none" if fp is None else f"p {fp['p']:.3f} is above Pmax"
        print(f"# {name}: fluid model fixed point: {why}")
        tap.criterion(False, f"{name}: steady state within 20 % of the fluid "
                      "model's fixed point (it has none below Kmax)")
        return fp
    share = prm.to_gbps(fp["rate"])
    print(f"# {name}: fluid model fixed point: each flow {share:.2f} Gb/s, "
          f"p {fp['p']:.5f}, alpha {fp['alpha']:.4f}, queue "
          f"{fp['q'] / 1e3:.0f} KB")
    worst = max(abs(m - share) / share for m in means)
    tap.criterion(abs(q_sim - fp["q"]) <= WITHIN * fp["q"],
                  f"{name}: mean queue {q_sim / 1e3:.0f} KB within 20 % of "
                  f"the fluid model's fixed point {fp['q'] / 1e3:.0f} KB "
                  f"({(q_sim - fp['q']) / fp['q'] * 100:+.0f} %)")
    tap.criterion(worst <= WITHIN,
                  f"{name}: every flow's mean rate within 20 % of the fixed "
                  f"point's {share:.2f} Gb/s (worst {worst * 100:.0f} % off)")
    return fp


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    ms, flows, queue, params = read(sys.argv[1])
    if not ms or not flows:
        sys.exit(f"e1-rates: {sys.argv[1]}: no rates in it")
    title = sys.argv[3] if len(sys.argv) > 3 else "E1"
    model = fp = prm = None
    tap = Tap()
    if "senders" in params:
        prm = dcqcn_fluid.Params(params)
        model = dcqcn_fluid.integrate(prm, params["end_ms"] / 1e3)
        fp = compare(title, prm, params, flows, queue, model, tap)
    rows = 3 if model else 2
    fig, axes = plt.subplots(rows, 1, sharex=True, figsize=(8, 2.6 * rows + 0.6))
    top, bottom = axes[0], axes[-1]
    for i, rates in enumerate(flows):
        top.plot(ms, rates, linewidth=0.8, label=f"flow {i}")
    top.set_ylabel("simulated rate,\nGb/s (1 ms bins)")
    if len(flows) <= 8:
        top.legend(fontsize="small", ncol=4)
    bottom.plot([t for t, _ in queue], [b / 1e6 for _, b in queue],
                linewidth=0.6, label="simulated (10 us samples)")
    if model:
        t, rc, q = model
        # The model's Rc averaged over the same 1 ms bins.
        per_ms = int(round(1e-3 / (t[1] - t[0])))
        n = len(t) // per_ms * per_ms
        bins = rc[:n].reshape(-1, per_ms, rc.shape[1]).mean(axis=1)
        mid = axes[1]
        for i in range(bins.shape[1]):
            mid.plot(np.arange(bins.shape[0]), prm.to_gbps(bins[:, i]),
                     linewidth=0.8)
        mid.set_ylabel("fluid model Rc,\nGb/s (1 ms means)")
        bottom.plot(t * 1e3, q / 1e6, linewidth=0.8, label="fluid model")
        bottom.axhline(prm.kmin / 1e6, color="grey", linestyle=":",
                       linewidth=0.8, label="Kmin, Kmax")
        bottom.axhline(prm.kmax / 1e6, color="grey", linestyle=":",
                       linewidth=0.8)
        if fp and fp["q"] is not None:
            bottom.axhline(fp["q"] / 1e6, color="black", linestyle="--",
                           linewidth=0.8, label="model's fixed point")
            for ax in axes[:2]:
                ax.axhline(prm.to_gbps(fp["rate"]), color="black",
                           linestyle="--", linewidth=0.8)
        for ax in axes:
            ax.axvspan(params["start_ms"], params["end_ms"], color="0.92")
        bottom.legend(fontsize="small", ncol=2)
    bottom.set_ylabel("receiver queue, MB")
    bottom.set_xlabel("ms")
    top.set_title(title)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=90)
    if tap.n:
        print(f"1..{tap.n}")


if __name__ == "__main__":
    main()
