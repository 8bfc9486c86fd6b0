#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Write a fat-tree topology in the HPCC simulator's format (hpcc-run
reads it): hosts first (ids 0 ..), then the ToRs, aggregation and core
switches.  Each ToR serves --hosts-per-tor hosts and links to every
aggregation switch of its pod; aggregation switch a of each pod links to
cores a * --cores-per-agg onwards.  The defaults are the HPCC paper's
evaluation topology: 320 hosts at 100 Gb/s, 16 a ToR, 20 ToRs and 20
aggregation switches in 5 pods of 4, 16 cores, 400 Gb/s between
switches, every link 1000 ns.

usage: fat-tree.py [options] > topology.txt
"""
import argparse
import sys


def build(a):
    hosts = a.pods * a.tors_per_pod * a.hosts_per_tor
    tors = a.pods * a.tors_per_pod
    aggs = a.pods * a.aggs_per_pod
    cores = a.aggs_per_pod * a.cores_per_agg
    tor0, agg0 = hosts, hosts + tors
    core0 = agg0 + aggs
    links = []
    for h in range(hosts):
        links.append((h, tor0 + h // a.hosts_per_tor, a.host_rate))
    for t in range(tors):
        pod = t // a.tors_per_pod
        for i in range(a.aggs_per_pod):
            links.append((tor0 + t, agg0 + pod * a.aggs_per_pod + i,
                          a.fabric_rate))
    for g in range(aggs):
        i = g % a.aggs_per_pod
        for c in range(a.cores_per_agg):
            links.append((agg0 + g, core0 + i * a.cores_per_agg + c,
                          a.fabric_rate))
    switches = list(range(hosts, core0 + cores))
    return hosts + len(switches), switches, links


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pods", type=int, default=5)
    p.add_argument("--tors-per-pod", type=int, default=4)
    p.add_argument("--aggs-per-pod", type=int, default=4)
    p.add_argument("--hosts-per-tor", type=int, default=16)
    p.add_argument("--cores-per-agg", type=int, default=4)
    p.add_argument("--host-rate", default="100Gbps")
    p.add_argument("--fabric-rate", default="400Gbps")
    p.add_argument("--delay", default="1000ns")
    a = p.parse_args()
    for name in ("pods", "tors_per_pod", "aggs_per_pod", "hosts_per_tor",
                 "cores_per_agg"):
        if not 1 <= getattr(a, name) <= 1000:
            p.error(f"--{name.replace('_', '-')} must be 1 to 1000")
    nodes, switches, links = build(a)
    out = sys.stdout
    out.write(f"{nodes} {len(switches)} {len(links)}\n")
    out.write(" ".join(str(s) for s in switches) + "\n")
    for x, y, rate in links:
        out.write(f"{x} {y} {rate} {a.delay} 0\n")


if __name__ == "__main__":
    main()
