# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""The experiments that run each case twice, PFC alone and with DCQCN
(E2, E3), print a figure line a run; read_pairs() gathers them for a
plot.  The line's regex names the run's mode ("PFC alone" or "DCQCN
<profile>") and the fields to keep."""
import sys


def read_pairs(paths, line, key, fields, who):
    """The cases that have both runs, sorted by key(match), and
    {key: {"pfc" | "dcqcn": {field: float}}} from the lines of @paths
    that @line matches; exits naming @who if no case has both."""
    runs = {}
    for path in paths:
        with open(path) as f:
            for text in f:
                m = line.match(text)
                if m:
                    mode = "pfc" if m["mode"] == "PFC alone" else "dcqcn"
                    runs.setdefault(key(m), {})[mode] = {k: float(m[k]) for k in fields}
    keys = sorted(k for k, r in runs.items() if len(r) == 2)
    if not keys:
        sys.exit(f"{who}: no run with both PFC alone and DCQCN figures")
    return keys, runs
