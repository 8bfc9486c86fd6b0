# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Profile files: parse, normalise and check them, without a device.

A profile is one "key = value" per line; '#' starts a comment.  Every key
is optional: a key the profile leaves out is neither read nor changed.
Values are normalised to what the tools read back (tuples of eight for
per-priority and per-TC maps, bitmasks for priority sets, kb/s for rates,
bytes for buffers), so that applying compares like with like.
"""
import os
import re

from . import contract

# The contract's numbers: the DCQCN parameters' ranges and power-on
# values, the storm timeouts the driver takes (include/linux/wren/).
C = contract.load()
NUM_PRIO = C["WREN_NUM_PRIO"]
NUM_TC = C["WREN_NUM_TC"]
NUM_DSCP = C["WREN_NUM_DSCP"]
TOUT_AUTO = 0xffff              # ethtool's "auto" pfc-prevention-tout
TOUT_MIN = C["WREN_PFC_TOUT_MIN_MS"]
TOUT_MAX = C["WREN_PFC_TOUT_MAX_MS"]
TOUT_AUTO_MS = C["WREN_PFC_TOUT_AUTO_MS"]


class ProfileError(Exception):
    """A profile value is wrong; key names it, line is 0 when unknown."""

    def __init__(self, key, msg, line=0):
        super().__init__(msg)
        self.key = key
        self.line = line

    def __str__(self):
        where = f" (line {self.line})" if self.line else ""
        return f"{self.key}{where}: {self.args[0]}"


# ---------------------------------------------------------------- values
def _int(text, lo, hi, what="value"):
    try:
        v = int(text, 0)
    except ValueError:
        raise ValueError(f"'{text}' is not an integer") from None
    if not lo <= v <= hi:
        raise ValueError(f"{what} {v} is out of range {lo}..{hi}")
    return v


def _prio_set(text):
    """'3', '3,4', 'none' -> a bitmask of priorities."""
    if text.strip() == "none":
        return 0
    mask = 0
    for word in re.split(r"[,\s]+", text.strip()):
        p = _int(word, 0, NUM_PRIO - 1, "priority")
        if mask & (1 << p):
            raise ValueError(f"priority {p} is listed twice")
        mask |= 1 << p
    return mask


def _size(text):
    """Bytes, or with K/M (1024-based, as iproute2's dcb buffer)."""
    m = re.fullmatch(r"(\d+)([KkMm]?)[Bb]?", text)
    if not m:
        raise ValueError(f"'{text}' is not a size (bytes, or NK, NM)")
    scale = {"": 1, "k": 1024, "m": 1024 * 1024}[m.group(2).lower()]
    return _int(m.group(1), 0, 0xffffffff // scale, "size") * scale


def _rate(text):
    """'0' (unlimited) or N with kbit/mbit/gbit -> kb/s."""
    if text == "0":
        return 0
    m = re.fullmatch(r"(\d+)(kbit|mbit|gbit)", text.lower())
    if not m:
        raise ValueError(f"'{text}' is not a rate (0, or N kbit/mbit/gbit)")
    return int(m.group(1)) * {"kbit": 1, "mbit": 1000,
                              "gbit": 1000000}[m.group(2)]


def _map(text, nkeys, value, what_key):
    """'all:V K:V ...' -> a tuple of nkeys values; every key must get one."""
    out = [None] * nkeys
    for word in text.split():
        k, sep, v = word.partition(":")
        if not sep:
            raise ValueError(f"'{word}' is not {what_key}:VALUE")
        val = value(v)
        if k == "all":
            out = [val] * nkeys
            continue
        out[_int(k, 0, nkeys - 1, what_key)] = val
    missing = [str(i) for i, v in enumerate(out) if v is None]
    if missing:
        raise ValueError(f"no value for {what_key} {','.join(missing)} "
                         f"(give all {nkeys}, or start with all:VALUE)")
    return tuple(out)


def _tsa(text):
    if text not in ("strict", "ets"):
        raise ValueError(f"TSA '{text}' is not strict or ets (the NIC has "
                         "no CBS or vendor TSA)")
    return text


def _dscp_map(text):
    """'26:3 48:6' or 'none' -> a sorted tuple of (dscp, prio)."""
    if text.strip() == "none":
        return ()
    seen = {}
    for word in text.split():
        d, sep, p = word.partition(":")
        if not sep:
            raise ValueError(f"'{word}' is not DSCP:PRIO")
        d = _int(d, 0, NUM_DSCP - 1, "DSCP")
        if d in seen:
            raise ValueError(f"DSCP {d} is mapped twice")
        seen[d] = _int(p, 0, NUM_PRIO - 1, "priority")
    return tuple(sorted(seen.items()))


def _choice(*choices):
    def parse(text):
        if text not in choices:
            raise ValueError(f"'{text}' is not one of {', '.join(choices)}")
        return text
    return parse


def _dcbx(text):
    words = text.split()
    for w in words:
        if w not in ("host", "lld-managed", "cee", "ieee", "static"):
            raise ValueError(f"'{w}' is not a DCBX mode word")
    return tuple(sorted(set(words)))


def _tout(text):
    if text == "auto":
        return TOUT_AUTO
    if text == "off":
        return 0
    v = _int(text, 0, TOUT_AUTO, "timeout")
    if v not in (0, TOUT_AUTO) and not TOUT_MIN <= v <= TOUT_MAX:
        raise ValueError(f"timeout {v} ms is not off, auto or "
                         f"{TOUT_MIN}..{TOUT_MAX}")
    return v


def _bool(text):
    if text in ("on", "true", "1", "yes"):
        return True
    if text in ("off", "false", "0", "no"):
        return False
    raise ValueError(f"'{text}' is not on or off")


def _ranged(lo, hi):
    return lambda text: _int(text, lo, hi)


def _or_default(parse, default):
    """'default' is the NIC's power-on value, so that a profile that
    wants it need not copy the number."""
    return lambda text: default if text == "default" else parse(text)


def _dcqcn(name, unit="", lo=None, hi=0xffffffff):
    """A wren_cc_params field's parser and power-on value, by its name in
    the contract (WREN_DCQCN_<name>_{MIN,MAX,DEFAULT}[_<unit>]): a bound
    the contract does not name is its type's, as in the driver."""
    unit = "_" + unit if unit else ""
    lo = C.get(f"WREN_DCQCN_{name}_MIN{unit}", 0) if lo is None else lo
    hi = C.get(f"WREN_DCQCN_{name}_MAX{unit}", hi)
    default = C[f"WREN_DCQCN_{name}_DEFAULT{unit}"]
    return _or_default(_ranged(lo, hi), default), default


# ------------------------------------------------------------------ keys
class Key:
    """One profile key: the group the tools read and write it in."""

    def __init__(self, name, group, parse, default, doc):
        self.name, self.group, self.parse = name, group, parse
        self.default, self.doc = default, doc


# The NIC's power-on state (hw/src/cmd/cmd_dcb.c whw_dcb_defaults, the
# contract's WREN_DCQCN_*_DEFAULT, hw/src/core/device.c): what a device
# without a feature behaves like, and what profiles/default.conf sets.
_BUF0 = 512 * 1024
_US_MAX = C["WREN_DCQCN_TIME_MAX_US"]
KEYS = [Key(*k) for k in [
    ("description", "meta", str, "", "one line shown by wren-qos list"),
    ("roce_prio", "meta", _ranged(0, 7), 3,
     "the RoCE priority (checks only)"),
    ("roce_dscp", "meta", _ranged(0, 63), 26,
     "the DSCP RoCE traffic is sent with (checks only)"),
    ("prio_tc", "ets", lambda t: _map(t, NUM_PRIO, _ranged(0, 7), "prio"),
     tuple(range(8)), "priority -> traffic class"),
    ("tc_tsa", "ets", lambda t: _map(t, NUM_TC, _tsa, "tc"),
     ("ets",) * 8, "per TC: strict or ets"),
    ("tc_bw", "ets", lambda t: _map(t, NUM_TC, _ranged(0, 100), "tc"),
     (12, 12, 12, 12, 13, 13, 13, 13), "per TC: ETS share, percent"),
    ("tc_maxrate", "maxrate", lambda t: _map(t, NUM_TC, _rate, "tc"),
     (0,) * 8, "per TC: rate limit (0 = none)"),
    ("pfc", "pfc", _prio_set, 0, "priorities with PFC on"),
    ("pfc_delay", "pfc", _ranged(0, 65535), 0,
     "cable delay in bit times (headroom)"),
    ("prio_buffer", "buffer",
     lambda t: _map(t, NUM_PRIO, _ranged(0, 7), "prio"), (0,) * 8,
     "priority -> receive buffer"),
    ("buffer_size", "buffer", lambda t: _map(t, 8, _size, "buffer"),
     (_BUF0,) + (0,) * 7, "per buffer: bytes"),
    ("trust", "trust", _choice("pcp", "dscp"), "pcp",
     "classify received traffic by PCP or DSCP"),
    ("dscp_prio", "app", _dscp_map, (), "DSCP -> priority app entries"),
    ("dcbx", "dcbx", _dcbx, ("host", "ieee"), "DCBX mode"),
    ("pause", "pause", _choice("off", "rx", "tx", "on"), "off",
     "802.3x global pause"),
    ("pfc_prevention_tout", "tunable", _tout, 0,
     f"PFC storm prevention: off, auto ({TOUT_AUTO_MS} ms) or "
     f"{TOUT_MIN}..{TOUT_MAX} ms"),
    ("cc_ecn_enable", "cc", _prio_set, 0, "priorities sent as ECT(0)"),
    ("cc_np_enable", "cc", _prio_set, 0,
     "priorities answering CE with CNPs"),
    ("cc_rp_enable", "cc", _prio_set, 0,
     "priorities cutting their rate on CNPs"),
    ("np_min_time_between_cnps", "cc",
     *_dcqcn("NP_MIN_TIME_BETWEEN_CNPS", "US", hi=_US_MAX),
     "us between CNPs to one QP"),
    ("np_cnp_dscp", "cc", *_dcqcn("NP_CNP_DSCP", hi=NUM_DSCP - 1),
     "DSCP of CNPs"),
    ("np_cnp_prio", "cc", *_dcqcn("NP_CNP_PRIO", hi=NUM_PRIO - 1),
     "priority (PCP) of CNPs"),
    ("rp_time_reset", "cc", *_dcqcn("RP_TIME_RESET", "US", hi=_US_MAX),
     "us: rate increase timer T"),
    ("rp_byte_reset", "cc", *_dcqcn("RP_BYTE_RESET"),
     "bytes: rate increase byte counter B"),
    ("rp_threshold", "cc", *_dcqcn("RP_THRESHOLD"),
     "fast recovery rounds F"),
    ("rp_ai_rate", "cc", *_dcqcn("RP_AI_RATE", "MBPS"),
     "Mb/s: additive increase"),
    ("rp_hai_rate", "cc", *_dcqcn("RP_HAI_RATE", "MBPS"),
     "Mb/s: hyper increase"),
    ("rp_min_dec_fac", "cc", *_dcqcn("RP_MIN_DEC_FAC"),
     "percent of the rate a cut keeps at least"),
    ("rp_min_rate", "cc", *_dcqcn("RP_MIN_RATE", "MBPS"),
     "Mb/s: rate floor"),
    ("rp_max_rate", "cc", *_dcqcn("RP_MAX_RATE", "MBPS"),
     "Mb/s: rate ceiling (0 = link)"),
    ("rp_rate_to_set_on_first_cnp", "cc",
     *_dcqcn("RP_RATE_ON_FIRST_CNP", "MBPS"),
     "Mb/s: rate after the first CNP (0 = cut)"),
    ("rp_dce_tcp_g", "cc", *_dcqcn("RP_G"), "alpha gain g in 1/1024"),
    ("rp_dce_tcp_rtt", "cc", *_dcqcn("RP_ALPHA_UPDATE", "US", hi=_US_MAX),
     "us: alpha update period"),
    ("rp_rate_reduce_monitor_period", "cc",
     *_dcqcn("RP_RATE_REDUCE_PERIOD", "US", hi=_US_MAX),
     "us: at most one cut per period"),
    ("rp_initial_alpha_value", "cc",
     *_dcqcn("RP_INITIAL_ALPHA", hi=C["WREN_DCQCN_ALPHA_MAX"]),
     "alpha of a new flow, 1023 = 1"),
    ("rp_gd", "cc", *_dcqcn("RP_GD"), "cut = rate * alpha / 2^gd"),
    ("rp_clamp_tgt_rate", "cc",
     _or_default(_bool, bool(C["WREN_DCQCN_RP_CLAMP_TGT_RATE_DEFAULT"])),
     bool(C["WREN_DCQCN_RP_CLAMP_TGT_RATE_DEFAULT"]),
     "every CNP sets the target rate to the current one"),
]]
KEY = {k.name: k for k in KEYS}
CC_ENABLES = ("cc_ecn_enable", "cc_np_enable", "cc_rp_enable")
# The link-speed bound DCQCN rates (Mb/s), checked against the device.
CC_RATES = ("rp_ai_rate", "rp_hai_rate", "rp_min_rate", "rp_max_rate",
            "rp_rate_to_set_on_first_cnp")


def dscp_effective(dscp_prio, dscp):
    """The priority a DSCP lands on: its entry, else the NIC's DSCP >> 3."""
    return dict(dscp_prio).get(dscp, dscp >> 3)


class Profile:
    """A parsed, checked profile: values maps key name -> normalised value."""

    def __init__(self, name, values, lines):
        self.name, self.values, self.lines = name, values, lines

    def err(self, key, msg):
        return ProfileError(key, msg, self.lines.get(key, 0))

    def get(self, key):
        return self.values.get(key, KEY[key].default)


def parse(text, name="profile"):
    """Parse and check a profile's text; raises ProfileError."""
    values, lines = {}, {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, val = line.partition("=")
        key, val = key.strip(), val.strip()
        if not sep or not key:
            raise ProfileError(key or "?", f"'{line}' is not key = value", n)
        if key not in KEY:
            raise ProfileError(key, "unknown key", n)
        if key in values:
            raise ProfileError(key, f"given twice (first on line "
                               f"{lines[key]})", n)
        if not val:
            raise ProfileError(key, "has no value", n)
        try:
            values[key] = KEY[key].parse(val)
        except ValueError as e:
            raise ProfileError(key, str(e), n) from None
        lines[key] = n
    prof = Profile(name, values, lines)
    check(prof)
    return prof


def _check_ets(p):
    if not {"prio_tc", "tc_tsa", "tc_bw"} & p.values.keys():
        return
    for k in ("prio_tc", "tc_tsa", "tc_bw"):
        if k not in p.values:
            raise p.err(k, "ETS is set as a whole: give prio_tc, tc_tsa "
                        "and tc_bw together")
    tsa, bw, prio_tc = p.get("tc_tsa"), p.get("tc_bw"), p.get("prio_tc")
    ets = [tc for tc in range(NUM_TC) if tsa[tc] == "ets"]
    for tc in range(NUM_TC):
        if tsa[tc] == "strict" and bw[tc]:
            raise p.err("tc_bw", f"TC {tc} is strict: its share must be 0, "
                        f"not {bw[tc]}")
        if tsa[tc] == "ets" and not bw[tc] and tc in prio_tc:
            raise p.err("tc_bw", f"TC {tc} is ets and carries priorities "
                        "but has a 0% share")
    total = sum(bw[tc] for tc in ets)
    if ets and total != 100:
        raise p.err("tc_bw", f"the ETS shares sum to {total}%, not 100%")


def _check_buffers(p):
    if not {"prio_buffer", "buffer_size"} & p.values.keys():
        return
    for k in ("prio_buffer", "buffer_size"):
        if k not in p.values:
            raise p.err(k, "buffers are set as a whole: give prio_buffer "
                        "and buffer_size together")
    size = p.get("buffer_size")
    for prio, buf in enumerate(p.get("prio_buffer")):
        if not size[buf]:
            raise p.err("buffer_size", f"buffer {buf} holds priority "
                        f"{prio} but has size 0")


def _check_trust(p):
    trust, entries = p.get("trust"), p.get("dscp_prio")
    if "trust" not in p.values and "dscp_prio" not in p.values:
        return
    # Without apptrust, the first DSCP app entry is what switches the
    # port to DSCP trust (and removing the last one switches it back).
    if trust == "dscp" and not entries:
        raise p.err("dscp_prio", "trust = dscp needs at least one DSCP "
                    "entry (kernels without apptrust trust DSCP only "
                    "while the app table has one)")
    if trust == "pcp" and entries:
        raise p.err("dscp_prio", "trust = pcp needs no DSCP entries (a "
                    "DSCP app entry switches the port to DSCP trust)")
    if trust != "dscp":
        return
    roce, rprio = p.get("roce_dscp"), p.get("roce_prio")
    if dscp_effective(entries, roce) != rprio:
        raise p.err("dscp_prio", f"RoCE's DSCP {roce} lands on priority "
                    f"{dscp_effective(entries, roce)}, not on the RoCE "
                    f"priority {rprio}")
    if p.get("cc_np_enable"):
        cnp, cprio = p.get("np_cnp_dscp"), p.get("np_cnp_prio")
        if dscp_effective(entries, cnp) != cprio:
            raise p.err("dscp_prio", f"the CNP DSCP {cnp} lands on "
                        f"priority {dscp_effective(entries, cnp)}, not "
                        f"on the CNP priority {cprio}")


def check(p):
    """Cross-key checks of a parsed profile; raises ProfileError."""
    _check_ets(p)
    _check_buffers(p)
    _check_trust(p)
    if p.get("pause") != "off" and p.get("pfc"):
        raise p.err("pause", "802.3x pause and PFC exclude each other: "
                    "pause must be off while pfc names priorities")
    if p.get("rp_max_rate") and p.get("rp_max_rate") < p.get("rp_min_rate"):
        raise p.err("rp_max_rate", "is below rp_min_rate")
    if "roce_prio" in p.values and p.get("pfc") and \
            not p.get("pfc") & (1 << p.get("roce_prio")):
        raise p.err("pfc", f"PFC is on for some priorities but not for "
                    f"the RoCE priority {p.get('roce_prio')}")


def profile_dir():
    """Where profiles live: $WREN_QOS_PROFILES, else dcb/profiles."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.environ.get("WREN_QOS_PROFILES",
                          os.path.join(here, "..", "..", "profiles"))


def find(name):
    """A profile by name (profiles/NAME.conf) or by path."""
    if os.sep in name or name.endswith(".conf"):
        return name
    return os.path.join(profile_dir(), name + ".conf")


def load(name):
    """Read and check a profile; raises ProfileError or OSError."""
    path = find(name)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return parse(text, os.path.basename(path).removesuffix(".conf"))


def names():
    """The installed profiles' names, sorted."""
    try:
        files = os.listdir(profile_dir())
    except OSError:
        return []
    return sorted(f[:-5] for f in files if f.endswith(".conf"))
