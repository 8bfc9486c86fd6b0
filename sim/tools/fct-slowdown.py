#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""FCT slowdown by flow size, as HPCC's paper plots it: the flows of an
FCT file (HPCC's columns, hpcc-run's output) sorted by size and cut into
--bins bins of as many flows each; per bin its largest size and the
median, 95th and 99th percentile of slowdown (FCT over standalone FCT,
at least 1).  Optionally drawn to --png.

usage: fct-slowdown.py FCT [--bins 20] [--png OUT --title T]
"""
import argparse
import sys


def pct(sorted_vals, p):
    i = min(len(sorted_vals) - 1, int(p / 100 * len(sorted_vals)))
    return sorted_vals[i]


def read(path):
    flows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            v = line.split()
            if len(v) != 8:
                sys.exit(f"fct-slowdown: {path}:{n}: expected 8 columns")
            try:
                size, fct, alone = int(v[4]), int(v[6]), int(v[7])
            except ValueError:
                sys.exit(f"fct-slowdown: {path}:{n}: sizes and times are integers")
            if alone <= 0:
                sys.exit(f"fct-slowdown: {path}:{n}: no standalone FCT")
            flows.append((size, max(1.0, fct / alone)))
    return sorted(flows)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("fct")
    p.add_argument("--bins", type=int, default=20)
    p.add_argument("--png")
    p.add_argument("--title", default="")
    a = p.parse_args()
    flows = read(a.fct)
    if len(flows) < a.bins or a.bins < 1:
        sys.exit(f"fct-slowdown: {a.fct}: {len(flows)} flows, fewer than "
                 f"{a.bins} bins")
    rows = []
    for b in range(a.bins):
        part = flows[b * len(flows) // a.bins:(b + 1) * len(flows) // a.bins]
        sd = sorted(s for _, s in part)
        rows.append((part[-1][0], pct(sd, 50), pct(sd, 95), pct(sd, 99)))
    print(f"# {a.fct}: {len(flows)} flows, {a.bins} bins of equal count")
    print("# bin  max_bytes  median    95th    99th")
    for i, (size, m, p95, p99) in enumerate(rows):
        print(f"{i:5d} {size:10d} {m:7.2f} {p95:7.2f} {p99:7.2f}")
    if a.png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        x = [100 * (i + 1) / a.bins for i in range(a.bins)]
        fig, ax = plt.subplots(figsize=(8, 4))
        for col, name in ((1, "median"), (2, "95th"), (3, "99th")):
            ax.plot(x, [r[col] for r in rows], marker="o", markersize=3,
                    label=name)
        ax.set_xticks(x[::2])
        ax.set_xticklabels([str(rows[i][0]) for i in range(0, a.bins, 2)],
                           rotation=45, fontsize="small")
        ax.set_xlabel("flow size, bytes (the largest of each 5 % bin)")
        ax.set_ylabel("FCT slowdown")
        ax.set_yscale("log")
        ax.legend()
        ax.set_title(a.title)
        fig.tight_layout()
        fig.savefig(a.png, dpi=90)


if __name__ == "__main__":
    main()
