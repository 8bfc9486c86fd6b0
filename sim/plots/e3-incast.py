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

LINE = re.compile(
    r"^# e3: (?P<n>\d+) x \d+ KB incast, .*?, (?P<mb>\d+) MiB buffer, "
    r"(?P<mode>PFC alone|DCQCN \w+): .*?FCT median (?P<med>\d+) us, 95th \d+, "
    r"99th (?P<p99>\d+), .*?XOFF held (?P<xoff>\d+) us in all")


def read(paths):
    """{(senders, MiB): {"pfc" | "dcqcn": {med, p99, xoff}}}"""
    runs = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                m = LINE.match(line)
                if m:
                    mode = "pfc" if m["mode"] == "PFC alone" else "dcqcn"
                    runs.setdefault((int(m["n"]), int(m["mb"])), {})[mode] = {
                        k: int(m[k]) for k in ("med", "p99", "xoff")}
    keys = sorted(k for k, r in runs.items() if len(r) == 2)
    if not keys:
        sys.exit("e3-incast: no run with both PFC alone and DCQCN figures")
    return keys, runs


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
