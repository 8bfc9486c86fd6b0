#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""E1's figure: each flow's rate per ms and the receiver's queue over time,
from the CSV that e1-convergence --trace writes, as a PNG.

usage: e1-rates.py TRACE.csv OUT.png [TITLE]
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")  # no display: a file only
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    """Per-flow Gb/s per ms, and (ms, bytes) queue samples."""
    ms, flows, queue = [], [], []
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row or row[0].startswith("#") or row[0] == "ms":
                if row and row[0] == "ms":
                    flows = [[] for _ in row[1:]]
                continue
            if row[0] == "q":
                queue.append((float(row[1]), int(row[2])))
                continue
            ms.append(int(row[0]))
            for i, v in enumerate(row[1:]):
                flows[i].append(float(v))
    return ms, flows, queue


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    ms, flows, queue = read(sys.argv[1])
    if not ms or not flows:
        sys.exit(f"e1-rates: {sys.argv[1]}: no rates in it")
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(8, 6))
    for i, rates in enumerate(flows):
        top.plot(ms, rates, linewidth=0.8, label=f"flow {i}")
    top.set_ylabel("rate, Gb/s (1 ms bins)")
    if len(flows) <= 8:
        top.legend(fontsize="small", ncol=4)
    bottom.plot([t for t, _ in queue], [b / 1e6 for _, b in queue],
                linewidth=0.6)
    bottom.set_ylabel("receiver queue, MB")
    bottom.set_xlabel("ms")
    if len(sys.argv) > 3:
        top.set_title(sys.argv[3])
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=90)


if __name__ == "__main__":
    main()
