#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""A fake Wren port behind fake dcb, ethtool, devlink, ip and rdma.

The host test puts dcb/tests/fake first on PATH; each tool there runs
this file with its own name.  State lives in $WREN_QOS_FAKE/state.json
and starts as the NIC's power-on state.  The output imitates iproute2
6.1 and ethtool 6.1 (dcb -j, devlink -j, rdma -j, ethtool's text) for
the subcommands wren-qos uses, and the driver's habits: iproute2 6.1's
dcb exits 0 when the driver refuses ETS, PFC, buffer or max rate (the
state simply stays), PFC and 802.3x pause exclude each other, DSCP app
entries switch the port to DSCP trust.  The DCQCN params' power-on
values and the tunable's range are the contract's (include/linux/wren/),
read as wren-qos reads them.

$WREN_QOS_FAKE/features (words): apptrust (dcb has apptrust), nocc (no
devlink congestion control params), notunable, nodcb, nohealth.
$WREN_QOS_FAKE/fail (words TOOL:WHAT[:HOW][@N[-M]]): sets of WHAT (a dcb
object, a devlink param name, ethtool's "pause" or "tunable") fail, from
the Nth on (to the Mth).  Without HOW: devlink, ethtool and dcb
app/apptrust exit 1, the other dcb objects keep the state and exit 0 as
iproute2 6.1 does on a driver error.  HOW (dcb only) imitates iproute2
6.1's stale netlink ACK (dcb.rst, Known issues): "eproto" applies the
set and exits 1 with "Attribute write: Protocol error" (what the bug
does), "eproto-lost" prints the same without applying it.
$WREN_QOS_FAKE/log: every command line, one a line.
"""
import os
import sys

DIR = os.environ["WREN_QOS_FAKE"]
DEV = "eth1"
BDF = "0000:00:04.0"
HANDLE = "pci/" + BDF
SPEED = int(os.environ.get("WREN_QOS_FAKE_SPEED", "25000"))
TOTAL = 512 * 1024
TOUT_AUTO = 0xffff      # ethtool's PFC_STORM_PREVENTION_AUTO
# The devlink params and the contract's names of their power-on values
# (WREN_DCQCN_*_DEFAULT, include/linux/wren/wren_admin.h).
CC = {
    "cc_ecn_enable": None, "cc_np_enable": None, "cc_rp_enable": None,
    "np_min_time_between_cnps": "NP_MIN_TIME_BETWEEN_CNPS_DEFAULT_US",
    "np_cnp_dscp": "NP_CNP_DSCP_DEFAULT",
    "np_cnp_prio": "NP_CNP_PRIO_DEFAULT",
    "rp_time_reset": "RP_TIME_RESET_DEFAULT_US",
    "rp_byte_reset": "RP_BYTE_RESET_DEFAULT",
    "rp_threshold": "RP_THRESHOLD_DEFAULT",
    "rp_ai_rate": "RP_AI_RATE_DEFAULT_MBPS",
    "rp_hai_rate": "RP_HAI_RATE_DEFAULT_MBPS",
    "rp_min_dec_fac": "RP_MIN_DEC_FAC_DEFAULT",
    "rp_min_rate": "RP_MIN_RATE_DEFAULT_MBPS",
    "rp_max_rate": "RP_MAX_RATE_DEFAULT_MBPS",
    "rp_rate_to_set_on_first_cnp": "RP_RATE_ON_FIRST_CNP_DEFAULT_MBPS",
    "rp_dce_tcp_g": "RP_G_DEFAULT",
    "rp_dce_tcp_rtt": "RP_ALPHA_UPDATE_DEFAULT_US",
    "rp_rate_reduce_monitor_period": "RP_RATE_REDUCE_PERIOD_DEFAULT_US",
    "rp_initial_alpha_value": "RP_INITIAL_ALPHA_DEFAULT",
    "rp_gd": "RP_GD_DEFAULT",
}
CC_BOOL = {"rp_clamp_tgt_rate": "RP_CLAMP_TGT_RATE_DEFAULT"}


def contract():
    """The contract's numbers, read from include/linux/wren/ as wren-qos
    reads them.  Only the calls that need them pay for it: the reader's
    re costs about as much as the rest of a call (see dumps)."""
    sys.path.insert(0, os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "..", "..", "lib"))
    from wrenqos import contract as c  # pylint: disable=import-outside-toplevel
    return c.load()


def initial():
    c = contract()
    cc = {k: c["WREN_DCQCN_" + v] if v else 0 for k, v in CC.items()}
    cc.update({k: bool(c["WREN_DCQCN_" + v]) for k, v in CC_BOOL.items()})
    return {
        "prio_tc": list(range(8)), "tc_tsa": ["ets"] * 8,
        "tc_bw": [12, 12, 12, 12, 13, 13, 13, 13],
        "tc_maxrate": [0] * 8, "pfc_en": 0, "delay": 0,
        "prio_buffer": [0] * 8, "buffer_size": [TOTAL] + [0] * 7,
        "app": [], "trust": "pcp", "apptrust": ["pcp"],
        "pause_rx": False, "pause_tx": False, "tout": 0, "cc": cc,
    }


def words(name):
    try:
        with open(os.path.join(DIR, name), encoding="utf-8") as f:
            return f.read().split()
    except OSError:
        return []


# No json module: with the enum and re it pulls in, importing it costs
# about as much as the rest of a call (a Python start and this file), and
# a test run makes hundreds of calls.  The state and the tools' output
# need JSON's simplest part only: objects, arrays, plain strings,
# integers, true, false, null.
def dumps(obj, sort=False):
    """JSON as json.dumps writes it, for ASCII (sort: keys sorted)."""
    if obj is None:
        return "null"
    if isinstance(obj, bool):
        return "true" if obj else "false"
    if isinstance(obj, int):
        return str(obj)
    if isinstance(obj, str):
        return '"' + "".join("\\" + c if c in '"\\' else
                             f"\\u{ord(c):04x}" if c < " " else c
                             for c in obj) + '"'
    if isinstance(obj, dict):
        keys = sorted(obj) if sort else obj
        return "{" + ", ".join(f"{dumps(str(k))}: {dumps(obj[k], sort)}"
                               for k in keys) + "}"
    return "[" + ", ".join(dumps(v, sort) for v in obj) + "]"


LITERALS = {"__builtins__": {}, "true": True, "false": False, "null": None}


def loads(text):
    """That JSON is a Python literal once true, false and null are
    names; and nothing else is one (no builtins)."""
    return eval(text, dict(LITERALS))  # pylint: disable=eval-used


def load():
    try:
        with open(os.path.join(DIR, "state.json"), encoding="utf-8") as f:
            return loads(f.read())
    except OSError:
        return initial()


def save(st):
    with open(os.path.join(DIR, "state.json"), "w", encoding="utf-8") as f:
        f.write(dumps(st, sort=True) + "\n")


def fails(tool, what):
    """How this set of WHAT fails: None (it does not), "" (a plain
    failure) or the word's HOW.  "@N" limits a word to the Nth set of
    WHAT and later ones, "@N-M" to the Nth to the Mth (counted in
    $WREN_QOS_FAKE/count.TOOL.WHAT)."""
    mine = []
    for w in words("fail"):
        spec, _, nth = w.partition("@")
        t, _, rest = spec.partition(":")
        name, _, how = rest.partition(":")
        if (t, name) != (tool, what):
            continue
        if how not in ("", "eproto", "eproto-lost") or \
                (how and tool != "dcb"):
            die(f"fakenic: bad fail word {w}", 99)
        mine.append((how, nth))
    if not mine:
        return None
    path = os.path.join(DIR, f"count.{tool}.{what}")
    try:
        with open(path, encoding="utf-8") as f:
            n = int(f.read()) + 1
    except OSError:
        n = 1
    with open(path, "w", encoding="utf-8") as f:
        f.write(str(n))
    for how, nth in mine:
        lo, _, hi = nth.partition("-")
        if n >= int(lo or 1) and (not hi or n <= int(hi)):
            return how
    return None


def die(msg, rc=1):
    print(msg, file=sys.stderr)
    sys.exit(rc)


def out(obj):
    print(dumps(obj))


def need_dev(dev):
    if dev != DEV:
        die(f'Device "{dev}" does not exist.')


# ------------------------------------------------------------------ dcb
def dcb_maps(args, keys):
    """{keyword: {index: value}} of a dcb set command line."""
    res, cur = {}, None
    for a in args:
        if a in keys:
            cur = res.setdefault(a, {})
        elif cur is not None and ":" in a:
            k, v = a.split(":", 1)
            if k == "all":
                for i in range(8):
                    cur[i] = v
            else:
                cur[int(k)] = v
        elif cur is not None:
            cur[None] = a
        else:
            die(f'What is "{a}"?')
    return res


def rate(text):
    scale = {"bit": 1, "kbit": 1000, "mbit": 10 ** 6, "gbit": 10 ** 9}
    for s in sorted(scale, key=len, reverse=True):
        if text.lower().endswith(s):
            return int(text[:-len(s)]) * scale[s] // 8
    return int(text) // 8


def size(text):
    t = text.lower().rstrip("b")
    if t.endswith("k"):
        return int(t[:-1]) * 1024
    if t.endswith("m"):
        return int(t[:-1]) * 1024 * 1024
    return int(t)


def dcb_show(st, obj, feats):
    if obj == "ets":
        out({"willing": False, "ets_cap": 8, "cbs": False,
             "tc_bw": st["tc_bw"], "pg_bw": [0] * 8,
             "tc_tsa": st["tc_tsa"], "prio_tc": st["prio_tc"],
             "reco_tc_bw": [0] * 8, "reco_tc_tsa": ["strict"] * 8,
             "reco_prio_tc": [0] * 8})
    elif obj == "pfc":
        out({"pfc_cap": 8, "macsec_bypass": False, "delay": st["delay"],
             "prio_pfc": [bool(st["pfc_en"] & (1 << i)) for i in range(8)]})
    elif obj == "buffer":
        out({"prio_buffer": st["prio_buffer"],
             "buffer_size": st["buffer_size"], "total_size": TOTAL})
    elif obj == "maxrate":
        out({"tc_maxrate": st["tc_maxrate"]})
    elif obj == "dcbx":
        out({"host": True, "ieee": True})
    elif obj == "app":
        out({"dscp_prio": sorted(st["app"])} if st["app"] else {})
    elif obj == "apptrust" and "apptrust" in feats:
        out({"order": st["apptrust"]})
    else:
        die(f'Object "{obj}" is unknown')


def app_trust(st):
    if not st["app"]:
        st["trust"] = "pcp"
    else:
        st["trust"] = "dscp"


def dcb_set(st, obj, args, feats, refuse):
    if obj == "ets":
        m = dcb_maps(args, ("tc-tsa", "tc-bw", "prio-tc"))
        new = dict(st)
        for kw, key in (("tc-tsa", "tc_tsa"), ("tc-bw", "tc_bw"),
                        ("prio-tc", "prio_tc")):
            arr = list(st[key])
            for i, v in m.get(kw, {}).items():
                arr[i] = v if kw == "tc-tsa" else int(v)
            new[key] = arr
        ets = [i for i in range(8) if new["tc_tsa"][i] == "ets"]
        total = sum(new["tc_bw"])
        if total != 100 and not (not ets and total == 0):
            die(f"Bandwidth percentages in tc-bw sum to {total}%, "
                "expected 100%")
        if refuse or any(t not in ("ets", "strict") for t in new["tc_tsa"]):
            return
        st.update(new)
    elif obj == "pfc":
        m = dcb_maps(args, ("prio-pfc", "delay"))
        en = st["pfc_en"]
        for i, v in m.get("prio-pfc", {}).items():
            en = en | (1 << i) if v == "on" else en & ~(1 << i)
        delay = int(m.get("delay", {}).get(None, st["delay"]))
        if refuse or (en and (st["pause_rx"] or st["pause_tx"])):
            return      # the driver's -EBUSY, which dcb 6.1 hides
        st["pfc_en"], st["delay"] = en, delay
    elif obj == "buffer":
        m = dcb_maps(args, ("prio-buffer", "buffer-size"))
        pb, bs = list(st["prio_buffer"]), list(st["buffer_size"])
        for i, v in m.get("prio-buffer", {}).items():
            pb[i] = int(v)
        for i, v in m.get("buffer-size", {}).items():
            bs[i] = size(v)
        if refuse or sum(bs) > TOTAL:
            return
        st["prio_buffer"], st["buffer_size"] = pb, bs
    elif obj == "maxrate":
        m = dcb_maps(args, ("tc-maxrate",))
        mr = list(st["tc_maxrate"])
        for i, v in m.get("tc-maxrate", {}).items():
            mr[i] = rate(v)
        if refuse or any(r > SPEED * 1000 for r in mr):
            return
        st["tc_maxrate"] = mr
    elif obj == "dcbx":
        if sorted(args) != ["host", "ieee"]:
            die("Attribute write: Invalid argument")
    elif obj == "apptrust" and "apptrust" in feats:
        if args[:1] != ["order"] or not set(args[1:]) <= {"dscp", "pcp"}:
            die("Invalid list of selectors")
        if refuse:
            die("Attribute write: Invalid argument")
        st["apptrust"] = args[1:]
        st["trust"] = args[1] if len(args) > 1 else "pcp"
    else:
        die(f'Object "{obj}" is unknown')


def dcb_app(st, cmd, args, refuse):
    if args[:1] != ["dscp-prio"]:
        die(f'What is "{args[0] if args else ""}"?')
    pairs = [[int(x) for x in a.split(":")] for a in args[1:]]
    if refuse:
        die("Attribute write: Invalid argument")
    if cmd == "add":
        for p in pairs:
            if p in st["app"]:
                die("Attribute write: File exists")
            # The driver keeps one priority per DSCP.
            st["app"] = [e for e in st["app"] if e[0] != p[0]] + [p]
    elif cmd == "replace":
        for p in pairs:
            st["app"] = [e for e in st["app"] if e[0] != p[0]] + [p]
    elif cmd == "del":
        for p in pairs:
            if p not in st["app"]:
                die("Attribute write: No such file or directory")
            st["app"].remove(p)
    app_trust(st)


# iproute2 6.1's dcb when the answer it reads to a set is the ACK of its
# previous request (the GET of a read-modify-write), sent a second
# earlier: libmnl's sequence check fails with EPROTO.
EPROTO = "Attribute write: Protocol error"


def dcb(argv, st, feats):
    if "nodcb" in feats:
        die("Attribute read: Operation not supported")
    if argv[:1] == ["-j"]:
        argv = argv[1:]
    obj, cmd, args = argv[0], argv[1], argv[2:]
    if args[:1] != ["dev"]:
        die("Expected `dev DEV'")
    need_dev(args[1])
    rest = args[2:]
    if cmd == "show":
        dcb_show(st, obj, feats)
        return False
    if obj == "app" and cmd in ("add", "del", "replace"):
        def change(refuse):
            dcb_app(st, cmd, rest, refuse)
    elif cmd == "set":
        def change(refuse):
            dcb_set(st, obj, rest, feats, refuse)
    else:
        die(f'What is "{cmd}"?')
    how = fails("dcb", obj)
    if how == "eproto-lost":
        die(EPROTO)
    change(how == "")
    if how == "eproto":
        save(st)        # the kernel applied it; dcb then read a stale ACK
        die(EPROTO)
    return True


# -------------------------------------------------------------- ethtool
STATS = (["rx_packets", "tx_packets", "port_rx_pause", "port_tx_pause"] +
         [f"{d}_prio{p}_{n}" for p in range(8)
          for d, n in (("rx", "pause"), ("rx", "pause_duration"),
                       ("tx", "pause"), ("tx", "pause_duration"),
                       ("rx", "pause_transition"))] +
         ["tx_pause_storm_warning_events", "tx_pause_storm_error_events"])


def ethtool(argv, st, feats):
    if len(argv) == 1:
        need_dev(argv[0])
        print(f"Settings for {DEV}:\n\tSpeed: {SPEED}Mb/s\n\tDuplex: Full\n"
              "\tLink detected: yes")
        return False
    opt, dev, rest = argv[0], argv[1], argv[2:]
    need_dev(dev)
    if opt == "-a":
        onoff = {True: "on", False: "off"}
        print(f"Pause parameters for {DEV}:\nAutonegotiate:\toff\n"
              f"RX:\t\t{onoff[st['pause_rx']]}\n"
              f"TX:\t\t{onoff[st['pause_tx']]}\n")
        return False
    if opt == "-A":
        kv = dict(zip(rest[::2], rest[1::2]))
        rx = kv.get("rx", "on" if st["pause_rx"] else "off") == "on"
        tx = kv.get("tx", "on" if st["pause_tx"] else "off") == "on"
        if fails("ethtool", "pause") is not None or \
                ((rx or tx) and st["pfc_en"]):
            die("netlink error: Device or resource busy")
        st["pause_rx"], st["pause_tx"] = rx, tx
        return True
    if opt in ("--get-tunable", "--set-tunable"):
        if "notunable" in feats:
            die("pfc-prevention-tout: Cannot get tunable")
        if opt == "--get-tunable":
            v = st["tout"]
            if v == TOUT_AUTO:
                v = contract()["WREN_PFC_TOUT_AUTO_MS"]
            print(f"pfc-prevention-tout: {v}")
            return False
        v = int(rest[1])
        ok = v in (0, TOUT_AUTO)
        if not ok:
            c = contract()
            ok = c["WREN_PFC_TOUT_MIN_MS"] <= v <= c["WREN_PFC_TOUT_MAX_MS"]
        if fails("ethtool", "tunable") is not None or not ok:
            die("pfc-prevention-tout: Invalid argument")
        st["tout"] = v
        return True
    if opt == "-S":
        print("NIC statistics:")
        for n in STATS:
            print(f"     {n}: {7 if n == 'rx_prio3_pause' else 0}")
        return False
    die(f"ethtool: bad command line {argv}")
    return False


# -------------------------------------------------------------- devlink
def devlink(argv, st, feats):
    if argv[:1] == ["-j"]:
        argv = argv[1:]
    if argv[:3] == ["dev", "param", "show"]:
        # devlink 6.1: a handle needs a name; no handle dumps them all.
        args = argv[3:]
        if args and args[0] != HANDLE:
            die("kernel answers: No such device")
        if args and args[1:2] != ["name"]:
            die("Parameter name expected.")
        params = [] if "nocc" in feats else [
            {"name": n, "type": "driver-specific",
             "values": [{"cmode": "runtime", "value": v}]}
            for n, v in st["cc"].items() if not args or n == args[2]]
        if args and not params:
            die("kernel answers: Invalid argument")
        out({"param": {HANDLE: params}} if params else {})
        return False
    if argv[:3] == ["dev", "param", "set"]:
        kv = dict(zip(argv[4::2], argv[5::2]))
        name, val = kv.get("name"), kv.get("value")
        if argv[3] != HANDLE or kv.get("cmode") != "runtime":
            die("Configuration mode not supported")
        if "nocc" in feats or name not in st["cc"]:
            die("kernel answers: No such file or directory")
        if fails("devlink", name) is not None:
            die("Error: wren: the NIC refused the value.\n"
                "kernel answers: Invalid argument")
        if name in CC_BOOL:
            st["cc"][name] = val == "true"
        else:
            st["cc"][name] = int(val)
        return True
    if argv[:2] == ["health", "show"]:
        if "nohealth" in feats:
            die("kernel answers: No such file or directory")
        out({"health": {HANDLE: [{"reporter": "pfc_storm",
                                  "state": "healthy", "error": 0,
                                  "recover": 0, "grace_period": 0,
                                  "auto_recover": True,
                                  "auto_dump": False}]}})
        return False
    die(f"devlink: bad command line {argv}")
    return False


# --------------------------------------------------------- ip and rdma
def ip(argv, _st, _feats):
    dev = argv[argv.index("dev") + 1]
    need_dev(dev)
    link = {"ifindex": 3, "ifname": DEV, "flags": ["UP"], "mtu": 1500,
            "operstate": "UP", "parentbus": "pci", "parentdev": BDF}
    if "-j" in argv:
        out([link])
    else:
        print(f"3: {DEV}: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500")
    return False


def rdma(argv, _st, _feats):
    if argv == ["-j", "link", "show"]:
        out([{"ifindex": 0, "ifname": "wren_0", "port": 1,
              "state": "ACTIVE", "physical_state": "LINK_UP",
              "netdev": DEV, "netdev_index": 3}])
    elif argv[:4] == ["-j", "statistic", "show", "link"]:
        out([{"ifname": "wren_0", "port": 1, "np_cnp_sent": 11,
              "np_ecn_marked_roce_packets": 12, "rp_cnp_handled": 13,
              "rp_cnp_ignored": 0}])
    else:
        die(f"rdma: bad command line {argv}")
    return False


def main():
    tool, argv = sys.argv[1], sys.argv[2:]
    if tool == "init":          # the power-on state, for a test's start
        save(initial())
        return
    with open(os.path.join(DIR, "log"), "a", encoding="utf-8") as f:
        f.write(" ".join([tool] + argv) + "\n")
    feats = words("features")
    st = load()
    tools = {"dcb": dcb, "ethtool": ethtool, "devlink": devlink, "ip": ip,
             "rdma": rdma}
    if tools[tool](argv, st, feats):
        save(st)


if __name__ == "__main__":
    main()
