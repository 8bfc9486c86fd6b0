#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Write a flow file in the HPCC simulator's format (hpcc-run reads it):
each host starts flows as a Poisson process at --load of its link's
rate, each to a uniformly drawn other host, with sizes drawn from a
flow-size CDF, until --seconds; optionally --incast: bursts of
--incast-senders flows of --incast-bytes into one random receiver,
Poisson in time, adding --incast-load of the network's capacity.

The CDF file has a line "size percent" a point, sizes in bytes rising,
percent 0 to 100 (the form of the published WebSearch and FB_Hadoop
distributions HPCC's traffic generator reads); sizes between points are
interpolated linearly.

usage: traffic.py --hosts N --cdf FILE [options] > flows.txt
"""
import argparse
import bisect
import random
import sys


def read_cdf(path):
    pts = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                size, pct = (float(x) for x in line.split())
            except ValueError:
                sys.exit(f"traffic: {path}:{n}: expected \"size percent\"")
            if pts and (size < pts[-1][0] or pct < pts[-1][1]):
                sys.exit(f"traffic: {path}:{n}: sizes and percents must rise")
            if not 0 <= pct <= 100 or size < 0:
                sys.exit(f"traffic: {path}:{n}: percent 0..100, size >= 0")
            pts.append((size, pct))
    if len(pts) < 2 or pts[-1][1] != 100:
        sys.exit(f"traffic: {path}: two points at least, the last at 100")
    return pts


def draw(pts, rng):
    """A size by inverse transform, linear between the CDF's points."""
    u = rng.uniform(pts[0][1], 100)
    pcts = [p for _, p in pts]
    i = max(1, bisect.bisect_left(pcts, u))
    (s0, p0), (s1, p1) = pts[i - 1], pts[i]
    size = s1 if p1 == p0 else s0 + (s1 - s0) * (u - p0) / (p1 - p0)
    return max(1, int(round(size)))


def mean(pts):
    m = 0.0
    for (s0, p0), (s1, p1) in zip(pts, pts[1:]):
        m += (s0 + s1) / 2 * (p1 - p0) / 100
    return m


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hosts", type=int, required=True)
    p.add_argument("--cdf", required=True)
    p.add_argument("--load", type=float, default=0.3)
    p.add_argument("--rate-gbps", type=float, default=100)
    p.add_argument("--seconds", type=float, default=0.1)
    p.add_argument("--priority", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--incast-load", type=float, default=0)
    p.add_argument("--incast-senders", type=int, default=60)
    p.add_argument("--incast-bytes", type=int, default=500000)
    a = p.parse_args()
    if a.hosts < 2 or not 0 < a.load <= 1 or a.seconds <= 0:
        p.error("--hosts >= 2, --load in (0, 1], --seconds > 0")
    if not 0 <= a.priority <= 7:
        p.error("--priority 0..7")
    if a.incast_load > 0 and not 1 <= a.incast_senders < a.hosts:
        p.error("--incast-senders 1 to fewer than --hosts")
    pts = read_cdf(a.cdf)
    rng = random.Random(a.seed)
    bps = a.rate_gbps * 1e9
    # Flows a second a host: the load's bytes over the mean flow size.
    per_host = a.load * bps / 8 / mean(pts)
    flows = []
    for src in range(a.hosts):
        t = rng.expovariate(per_host)
        while t < a.seconds:
            dst = rng.randrange(a.hosts - 1)
            dst += dst >= src
            flows.append((t, src, dst, draw(pts, rng)))
            t += rng.expovariate(per_host)
    if a.incast_load > 0:
        burst = a.incast_senders * a.incast_bytes
        per_s = a.incast_load * a.hosts * bps / 8 / burst
        t = rng.expovariate(per_s)
        while t < a.seconds:
            dst = rng.randrange(a.hosts)
            others = [h for h in range(a.hosts) if h != dst]
            for src in rng.sample(others, a.incast_senders):
                flows.append((t, src, dst, a.incast_bytes))
            t += rng.expovariate(per_s)
    flows.sort()
    out = sys.stdout
    out.write(f"{len(flows)}\n")
    for t, src, dst, size in flows:
        out.write(f"{src} {dst} {a.priority} 100 {size} {t:.9f}\n")


if __name__ == "__main__":
    main()
