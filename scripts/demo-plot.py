#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""`make demo`'s picture: the congestion episode of its lossless-RoCE part,
as server 1 (the sender) recorded it - the DCQCN rate of its QP (the
driver's wren_cc_rate tracepoint events, and rdma -dd res samples between
them) and the depth of the fabric's queue towards server 0 - over time.

usage: demo-plot.py RESULTS OUT.png [SUBTITLE]
  RESULTS: server 1's results folder (demo-cc.trace, demo-queue.txt,
  demo-episode.txt, scripts/demo-guest.sh); prints one line saying what
  it plotted, exits 1 when there is nothing to plot.
"""
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")  # no display: a file only
import matplotlib.pyplot as plt  # noqa: E402

EVENT = re.compile(r"(\d+\.\d+): wren_cc_rate: \S+ qpn \d+ (cut|recovered) "
                   r"rate (\d+) kb/s")


def main():
    if len(sys.argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    res, out = sys.argv[1], sys.argv[2]
    sub = sys.argv[3] if len(sys.argv) > 3 else ""
    events, qs, rs = [], [], []
    try:
        with open(os.path.join(res, "demo-episode.txt")) as f:
            t0, t_end, t_ack = (float(x) for x in f.read().split()[:3])
        with open(os.path.join(res, "demo-cc.trace")) as f:
            for line in f:
                m = EVENT.search(line)
                if m:
                    events.append((float(m.group(1)) - t0, m.group(2),
                                   int(m.group(3)) / 1e6))
        with open(os.path.join(res, "demo-queue.txt")) as f:
            for line in f:
                w = line.split()
                if len(w) < 3:
                    continue
                t = float(w[0]) - t0
                if w[1] != "-":
                    qs.append((t, int(w[1]) / 1024))
                # 0: DCQCN holds no rate for the QP (line rate).
                if w[2] not in ("-", "0"):
                    rs.append((t, int(w[2]) / 1e6))
    except (OSError, ValueError) as e:
        print(f"demo-plot: no episode to plot: {e}", file=sys.stderr)
        return 1
    if not events or not qs:
        print(f"demo-plot: nothing to plot ({len(events)} tracepoint events, "
              f"{len(qs)} queue samples)", file=sys.stderr)
        return 1

    fig, (ax_r, ax_q) = plt.subplots(2, 1, sharex=True, figsize=(8, 5.5))
    if rs:
        ax_r.plot([t for t, _ in rs], [r for _, r in rs], "-", color="tab:blue",
                  lw=1, label="QP rate while DCQCN limits it, rdma -dd res samples")
    for kind, colour in (("cut", "tab:red"), ("recovered", "tab:green")):
        pts = [(t, r) for t, k, r in events if k == kind]
        if pts:
            ax_r.plot([t for t, _ in pts], [r for _, r in pts], ".",
                      color=colour, ms=3, alpha=0.6,
                      label=f"wren_cc_rate: {kind} ({len(pts)})")
    ax_r.set_ylabel("DCQCN rate (Gb/s)")
    ax_r.set_yscale("log")
    ax_r.legend(loc="lower right", fontsize=8)
    ax_r.grid(True, alpha=0.3)
    ax_q.plot([t for t, _ in qs], [q for _, q in qs], "o-", color="tab:orange",
              lw=1, ms=3, label="fabric port 0, queue 3 (wren-fabric ctl qdepth)")
    for k, ls in ((16, ":"), (64, "--")):
        ax_q.axhline(k, color="grey", ls=ls, lw=0.8)
    ax_q.set_ylabel("queue depth (KiB)")
    ax_q.set_xlabel("seconds since the flow started (guest clock, TCG)")
    ax_q.legend(loc="upper right", fontsize=8)
    ax_q.grid(True, alpha=0.3)
    for ax in (ax_r, ax_q):
        ax.axvspan(t_end - t0, t_ack - t0, color="grey", alpha=0.2)
    ax_q.annotate("port rate back to 25 Gb/s\n(fabric_ctl sent .. answered)",
                  (t_ack - t0, ax_q.get_ylim()[1] * 0.75), fontsize=8,
                  ha="left")
    fig.suptitle("make demo: ECN marks, CNPs and DCQCN at a 100 Mb/s port"
                 + (f"\n{sub}" if sub else ""), fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"{len(events)} wren_cc_rate events, {len(rs)} rate and {len(qs)} "
          f"queue samples over {max(t for t, _ in qs):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
