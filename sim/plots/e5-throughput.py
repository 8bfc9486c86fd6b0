#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""E5's figure: the throughput delivered to the receivers per 10 ms in
each run (deadlock, watchdog, loop-free routes, light load), one panel a
fabric, from the CSV that e5-deadlock --trace writes.

usage: e5-throughput.py TRACE.csv OUT.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")  # no display: a file only
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    """{fabric: {run: ([ms], [Gb/s])}} in the file's order."""
    runs = {}
    with open(path, newline="") as f:
        for n, row in enumerate(csv.DictReader(f), 2):
            try:
                ms, gbps = float(row["ms"]), float(row["gbps"])
                fabric, run = row["fabric"], row["run"]
            except (KeyError, TypeError, ValueError):
                sys.exit(f"e5-throughput: {path}:{n}: expected fabric,run,ms,gbps")
            xs, ys = runs.setdefault(fabric, {}).setdefault(run, ([], []))
            xs.append(ms)
            ys.append(gbps)
    if not runs:
        sys.exit(f"e5-throughput: {path}: no rows")
    return runs


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    runs = read(sys.argv[1])
    fig, axes = plt.subplots(len(runs), 1, figsize=(8, 3 * len(runs)), squeeze=False)
    for ax, (fabric, by_run) in zip(axes[:, 0], runs.items()):
        for run, (xs, ys) in by_run.items():
            ax.step(xs, ys, where="post", label=run)
        ax.set_title(f"E5, {fabric}: throughput to the receivers")
        ax.set_xlabel("simulated ms (10 ms bins)")
        ax.set_ylabel("Gb/s")
        ax.legend(loc="upper right")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=80)


if __name__ == "__main__":
    main()
