#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""E3's figure: per incast size and buffer, the flows' completion times
(median and 99th) and the switch's total XOFF time, PFC alone beside
DCQCN; read from the figure lines of e3-incast runs (one file a run).

usage: e3-incast.py OUT.png RUN.txt...
"""
import re
import sys

import matplotlib

matplotlib.use("Agg")  # no display: a file only
import matplotlib.pyplot as plt  # noqa: E402

from pfc_pairs import read_pairs  # noqa: E402

LINE = re.compile(
    r"^# e3: (?P<n>\d+) x \d+ KB incast, .*?, (?P<mb>\d+) MiB buffer, "
    r"(?P<mode>PFC alone|DCQCN \w+): .*?FCT median (?P<med>\d+) us, 95th \d+, "
    r"99th (?P<p99>\d+), .*?XOFF held (?P<xoff>\d+) us in all")


def read(paths):
    """(senders, MiB) cases, {case: {"pfc" | "dcqcn": {med, p99, xoff}}}"""
    return read_pairs(paths, LINE, lambda m: (int(m["n"]), int(m["mb"])),
                      ("med", "p99", "xoff"), "e3-incast")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    keys, runs = read(sys.argv[2:])
    labels = [f"{n}, {mb} MiB" for n, mb in keys]
    x = range(len(keys))
    w = 0.2
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    ax = axes[0]
    for i, (mode, key, label) in enumerate((("pfc", "med", "PFC alone, median"),
                                             ("pfc", "p99", "PFC alone, 99th"),
                                             ("dcqcn", "med", "DCQCN, median"),
                                             ("dcqcn", "p99", "DCQCN, 99th"))):
        ax.bar([j + (i - 1.5) * w for j in x], [runs[k][mode][key] / 1000 for k in keys],
               w, label=label)
    ax.set_xticks(list(x), labels)
    ax.set_xlabel("senders x 500 KB, switch buffer")
    ax.set_ylabel("FCT, ms")
    ax.set_title("E3, flow completion")
    ax.legend(fontsize=7)
    ax = axes[1]
    ax.bar([j - w / 2 for j in x], [runs[k]["pfc"]["xoff"] / 1000 for k in keys], w,
           label="PFC alone")
    ax.bar([j + w / 2 for j in x], [runs[k]["dcqcn"]["xoff"] / 1000 for k in keys], w,
           label="DCQCN")
    ax.set_xticks(list(x), labels)
    ax.set_xlabel("senders x 500 KB, switch buffer")
    ax.set_ylabel("XOFF held, ms (summed over ports)")
    ax.set_title("E3, pause")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(sys.argv[1], dpi=80)


if __name__ == "__main__":
    main()
