# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""`wren-qos show`: a port's whole QoS state as one table.

One row per priority (its TC and the TC's scheduling, PFC, buffer, the
DSCPs that land on it, the ECN/NP/RP enables, pause counters), then the
port's settings: trust, 802.3x pause, the PFC storm timeout, DCBX, the
DCQCN parameters, the congestion control counters and the storm state.
"""
from .port import Unsupported, group_keys
from .profile import NUM_DSCP, NUM_PRIO, dscp_effective


def _ranges(nums):
    """[24, 25, 26, 30] -> '24-26,30'."""
    out, start, prev = [], None, None
    for n in sorted(nums) + [None]:
        if start is not None and (n is None or n != prev + 1):
            out.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = None
        if n is not None and start is None:
            start = n
        prev = n
    return ",".join(out) or "-"


def _size(b):
    if b and b % (1024 * 1024) == 0:
        return f"{b // (1024 * 1024)}M"
    if b and b % 1024 == 0:
        return f"{b // 1024}K"
    return str(b)


def _rate(kbps):
    if not kbps:
        return "-"
    for unit, div in (("gbit", 1000000), ("mbit", 1000)):
        if kbps % div == 0:
            return f"{kbps // div}{unit}"
    return f"{kbps}kbit"


def _val(v):
    return ("on" if v else "off") if isinstance(v, bool) else v


def _read(port, group, notes):
    try:
        return port.read(group)
    except Unsupported as e:
        notes.append(f"{group}: not supported by this device ({e})")
        return {}


def _row(cells, widths):
    return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()


def show(port):
    """Print the table; returns an exit status."""
    notes = []
    st = {g: _read(port, g, notes) for g in
          ("ets", "maxrate", "pfc", "buffer", "app", "trust", "dcbx",
           "pause", "tunable", "cc")}
    stats = port.ethtool_stats()
    ets, cc = st["ets"], st["cc"]
    trust = st["trust"].get("trust", "?")
    entries = st["app"].get("dscp_prio", ())
    head = ["prio", "tc", "tsa", "bw%", "maxrate", "pfc", "buffer",
            "dscp", "ecn", "np", "rp", "rx_pause", "tx_pause",
            "rx_pause_us", "tx_pause_us"]
    rows = []
    for p in range(NUM_PRIO):
        tc = ets.get("prio_tc", (None,) * 8)[p]
        buf = st["buffer"].get("prio_buffer", (None,) * 8)[p]
        size = st["buffer"].get("buffer_size", (0,) * 8)

        def bit(name, prio=p):
            if name not in cc:
                return "?"
            return "on" if cc[name] & (1 << prio) else "-"

        dscps = [d for d in range(NUM_DSCP)
                 if dscp_effective(entries, d) == p]
        rows.append([
            p,
            "?" if tc is None else tc,
            ets["tc_tsa"][tc] if tc is not None else "?",
            ets["tc_bw"][tc] if tc is not None else "?",
            _rate(st["maxrate"]["tc_maxrate"][tc])
            if tc is not None and st["maxrate"] else "?",
            ("on" if st["pfc"]["pfc"] & (1 << p) else "-")
            if st["pfc"] else "?",
            f"{buf}:{_size(size[buf])}" if buf is not None else "?",
            _ranges(dscps),
            bit("cc_ecn_enable"), bit("cc_np_enable"), bit("cc_rp_enable"),
            stats.get(f"rx_prio{p}_pause", "?"),
            stats.get(f"tx_prio{p}_pause", "?"),
            stats.get(f"rx_prio{p}_pause_duration", "?"),
            stats.get(f"tx_prio{p}_pause_duration", "?"),
        ])
    widths = [max(len(str(r[i])) for r in rows + [head])
              for i in range(len(head))]
    print(f"{port.dev} ({port.handle() if port.bdf() else 'no PCI device'})")
    print(_row(head, widths))
    for r in rows:
        print(_row(r, widths))
    print()

    how = "apptrust" if port.has_apptrust() else "app table"
    tout = st["tunable"].get("pfc_prevention_tout")
    tout = ("?" if tout is None else "off" if tout == 0 else
            "auto" if tout == 0xffff else f"{tout} ms")
    lines = [
        ("trust", f"{trust} (from the {how}; DSCPs without an app entry "
                  "land on DSCP >> 3)"),
        ("802.3x pause", st["pause"].get("pause", "?")),
        ("pfc delay", f"{st['pfc'].get('pfc_delay', '?')} bit times"),
        ("buffer total", _size(getattr(port, "buffer_total", 0))),
        ("pfc-prevention-tout", tout),
        ("dcbx", " ".join(st["dcbx"].get("dcbx", ("?",)))),
    ]
    params = [f"{k}={_val(cc[k])}" for k in group_keys("cc")
              if k in cc and not k.endswith("_enable")]
    if not params:
        lines.append(("dcqcn", "not supported by this device"))
    for i in range(0, len(params), 4):
        lines.append(("dcqcn" if not i else "", " ".join(params[i:i + 4])))
    rdma = port.rdma_stats()
    ccnt = [f"{k}={rdma[k]}" for k in ("np_cnp_sent",
                                       "np_ecn_marked_roce_packets",
                                       "rp_cnp_handled", "rp_cnp_ignored")
            if k in rdma]
    lines.append(("cc counters", " ".join(ccnt) if ccnt else
                  "none (no rdma statistic for this port)"))
    h = port.health()
    storm = [f"pfc_storm {h.get('state', '?')}"]
    for k in ("error", "recover"):
        if k in h:
            storm.append(f"{k} {h[k]}")
    for k in ("tx_pause_storm_warning_events", "tx_pause_storm_error_events"):
        if k in stats:
            storm.append(f"{k}={stats[k]}")
    lines.append(("storm", " ".join(storm)))
    w = max(len(k) for k, _ in lines)
    for k, v in lines:
        print(f"{k.ljust(w)}  {v}")
    for n in notes:
        print("note: " + n)
    return 0
