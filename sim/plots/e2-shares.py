#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""E2's figure: per incast size, the rates of sender A (alone on its
port), of each incast sender on T1 and of the victim beside its max-min
share, with PFC alone and with DCQCN, and the PFC frames of both; read
from the figure lines of e2-pfc-harm runs (one output file a size).

usage: e2-shares.py OUT.png RUN.txt...
"""
import re
import sys

import matplotlib

matplotlib.use("Agg")  # no display: a file only
import matplotlib.pyplot as plt  # noqa: E402

from pfc_pairs import read_pairs  # noqa: E402

LINE = re.compile(
    r"^# e2: (?P<mode>PFC alone|DCQCN \w+), (?P<n>\d+) incast senders .*?: "
    r"A (?P<a>[\d.]+) Gb/s, T1 senders (?P<t1>[\d.]+) Gb/s each .*?"
    r"victim (?P<v>[\d.]+) Gb/s of a (?P<share>[\d.]+) share; (?P<pfc>\d+) PFC frames")


def read(paths):
    """Incast sizes, {n: {"pfc" | "dcqcn": {a, t1, v, share, pfc}}}"""
    return read_pairs(paths, LINE, lambda m: int(m["n"]), ("a", "t1", "v", "share", "pfc"),
                      "e2-shares")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    sizes, runs = read(sys.argv[2:])
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    x = range(len(sizes))
    w = 0.2
    for ax, mode, title in ((axes[0], "pfc", "PFC alone"), (axes[1], "dcqcn", "DCQCN")):
        for i, (key, label) in enumerate((("a", "A (alone on its port)"),
                                          ("t1", "each T1 sender"),
                                          ("v", "victim"),
                                          ("share", "victim's max-min share"))):
            ax.bar([j + (i - 1.5) * w for j in x], [runs[n][mode][key] for n in sizes],
                   w, label=label)
        ax.set_xticks(list(x), [str(n) for n in sizes])
        ax.set_xlabel("incast senders")
        ax.set_ylabel("Gb/s")
        ax.set_title(f"E2, {title}")
    axes[0].legend(fontsize=7)
    ax = axes[2]
    ax.bar([j - w / 2 for j in x], [runs[n]["pfc"]["pfc"] for n in sizes], w, label="PFC alone")
    ax.bar([j + w / 2 for j in x], [runs[n]["dcqcn"]["pfc"] for n in sizes], w, label="DCQCN")
    ax.set_yscale("log")
    ax.set_xticks(list(x), [str(n) for n in sizes])
    ax.set_xlabel("incast senders")
    ax.set_ylabel("PFC frames")
    ax.set_title("E2, pause frames")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(sys.argv[1], dpi=80)


if __name__ == "__main__":
    main()
