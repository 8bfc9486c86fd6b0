# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""One port's QoS state, read from and written with the standard tools.

The state is grouped as the tools read and write it: one `dcb OBJECT`
each for ETS, max rate, PFC, buffers, DSCP app entries, apptrust and
DCBX; `ethtool -a/-A` for 802.3x pause; `ethtool --get/--set-tunable`
for pfc-prevention-tout; one devlink param each for the congestion
control knobs.  A group the device (or the tools) cannot read raises
Unsupported.  Values come back normalised as profile.py writes them.
"""
import os
import re

from .profile import KEY, KEYS, NUM_PRIO, NUM_TC, TOUT_AUTO_MS
from .tools import ToolError

GROUPS = ("ets", "maxrate", "pfc", "buffer", "app", "trust", "dcbx",
          "pause", "tunable", "cc")
TUNABLE = "pfc-prevention-tout"


class Unsupported(Exception):
    """The device, its driver or the installed tools lack this group."""


def group_keys(group):
    return [k.name for k in KEYS if k.group == group]


def _first_line(err):
    text = err.out.strip().splitlines()
    return text[-1] if text else f"exit {err.rc}"


def _prio_map(values):
    return " ".join(f"{i}:{v}" for i, v in enumerate(values))


class Port:
    """A netdev and, through its PCI parent, its devlink instance."""

    def __init__(self, netdev, run):
        self.dev, self.run = netdev, run
        self._bdf = self._iplink = self._apptrust = None

    # ----------------------------------------------------------- identity
    def _link(self):
        """ip -d link's JSON for the netdev ({} when there is none)."""
        if self._iplink is None:
            try:
                link = self.run.json(["ip", "-d", "-j", "link", "show",
                                      "dev", self.dev])
            except ToolError:
                link = []
            self._iplink = link[0] if isinstance(link, list) and link \
                else {}
        return self._iplink

    def bdf(self):
        """The netdev's PCI address (ip -d link's parentdev)."""
        if self._bdf is None:
            self._bdf = self._link().get("parentdev", "")
            if not self._bdf:
                path = f"/sys/class/net/{self.dev}/device"
                if os.path.exists(path):
                    self._bdf = os.path.basename(os.path.realpath(path))
        return self._bdf

    def handle(self):
        return f"pci/{self.bdf()}"

    def exists(self):
        return bool(self._link())

    def link_speed(self):
        """Mb/s from ethtool, or None when unknown."""
        try:
            out = self.run.read(["ethtool", self.dev])
        except ToolError:
            return None
        m = re.search(r"Speed:\s*(\d+)Mb/s", out)
        return int(m.group(1)) if m else None

    # -------------------------------------------------------------- reads
    def _dcb(self, obj):
        try:
            return self.run.json(["dcb", "-j", obj, "show", "dev",
                                  self.dev])
        except ToolError as e:
            raise Unsupported(f"dcb {obj}: {_first_line(e)}") from None

    def has_apptrust(self):
        """Whether dcb and the driver have apptrust (iproute2 6.2+)."""
        if self._apptrust is None:
            try:
                self._dcb("apptrust")
                self._apptrust = True
            except Unsupported:
                self._apptrust = False
        return self._apptrust

    def read(self, group):
        """The group's keys as a dict; raises Unsupported."""
        return getattr(self, "_read_" + group)()

    def _read_ets(self):
        j = self._dcb("ets")
        return {"prio_tc": tuple(j["prio_tc"]),
                "tc_tsa": tuple(j["tc_tsa"]),
                "tc_bw": tuple(j["tc_bw"])}

    def _read_maxrate(self):
        j = self._dcb("maxrate")
        return {"tc_maxrate": tuple(j["tc_maxrate"])}

    def _read_pfc(self):
        j = self._dcb("pfc")
        mask = sum(1 << i for i, on in enumerate(j["prio_pfc"]) if on)
        return {"pfc": mask, "pfc_delay": j["delay"]}

    def _read_buffer(self):
        j = self._dcb("buffer")
        self.buffer_total = j.get("total_size", 0)
        return {"prio_buffer": tuple(j["prio_buffer"]),
                "buffer_size": tuple(j["buffer_size"])}

    def _read_app(self):
        j = self._dcb("app")
        return {"dscp_prio": tuple(sorted(tuple(e) for e in
                                          j.get("dscp_prio", [])))}

    def _read_trust(self):
        if self.has_apptrust():
            order = self._dcb("apptrust").get("order") or ["pcp"]
            return {"trust": "dscp" if order[0] == "dscp" else "pcp"}
        # No apptrust: a DSCP app entry is what makes the port trust DSCP.
        return {"trust": "dscp" if self._read_app()["dscp_prio"] else "pcp"}

    def _read_dcbx(self):
        j = self._dcb("dcbx")
        words = [k.replace("_", "-") for k, v in j.items() if v is True]
        return {"dcbx": tuple(sorted(words))}

    def _read_pause(self):
        try:
            out = self.run.read(["ethtool", "-a", self.dev])
        except ToolError as e:
            raise Unsupported(f"ethtool -a: {_first_line(e)}") from None
        rx = re.search(r"^RX:\s*(\w+)", out, re.M)
        tx = re.search(r"^TX:\s*(\w+)", out, re.M)
        if not rx or not tx:
            raise Unsupported("ethtool -a: no RX/TX lines")
        rx, tx = rx.group(1) == "on", tx.group(1) == "on"
        return {"pause": {(0, 0): "off", (1, 0): "rx", (0, 1): "tx",
                          (1, 1): "on"}[(rx, tx)]}

    def _read_tunable(self):
        try:
            out = self.run.read(["ethtool", "--get-tunable", self.dev,
                                 TUNABLE])
        except ToolError as e:
            raise Unsupported(f"ethtool --get-tunable {TUNABLE}: "
                              f"{_first_line(e)}") from None
        m = re.search(TUNABLE + r":\s*(\d+)", out)
        if not m:
            raise Unsupported(f"ethtool --get-tunable {TUNABLE}: "
                              f"{out.strip()}")
        return {"pfc_prevention_tout": int(m.group(1))}

    def params(self):
        """Every devlink param of the device: name -> runtime value."""
        if not self.bdf():
            raise Unsupported("no PCI device behind " + self.dev)
        # devlink 6.1 wants a param name after a handle: dump them all.
        try:
            j = self.run.json(["devlink", "-j", "dev", "param", "show"])
        except ToolError as e:
            raise Unsupported(f"devlink dev param show: {_first_line(e)}") \
                from None
        out = {}
        for handle, plist in j.get("param", {}).items():
            if handle != self.handle():
                continue
            for p in plist:
                for v in p.get("values", []):
                    if v.get("cmode") == "runtime":
                        out[p["name"]] = v.get("value")
        return out

    def _read_cc(self):
        have = self.params()
        out = {}
        for name in group_keys("cc"):
            if name in have:
                v = have[name]
                out[name] = bool(v) if isinstance(v, bool) else int(v)
        if not out:
            raise Unsupported("no congestion control devlink params")
        return out

    # --------------------------------------------------------- counters
    def ethtool_stats(self):
        try:
            out = self.run.read(["ethtool", "-S", self.dev])
        except ToolError:
            return {}
        return {m.group(1): int(m.group(2)) for m in
                re.finditer(r"^\s+([\w.\-]+):\s+(\d+)\s*$", out, re.M)}

    def rdma_stats(self):
        """rdma statistic of the RDMA port on this netdev ({} if none)."""
        try:
            links = self.run.json(["rdma", "-j", "link", "show"])
            link = next(lk for lk in links if lk.get("netdev") == self.dev)
            j = self.run.json(["rdma", "-j", "statistic", "show", "link",
                               f"{link['ifname']}/{link['port']}"])
        except (ToolError, StopIteration, KeyError, TypeError):
            return {}
        j = j[0] if isinstance(j, list) and j else {}
        return {k: v for k, v in j.items() if k not in ("ifname", "port",
                                                       "ifindex")}

    def health(self, reporter="pfc_storm"):
        try:
            j = self.run.json(["devlink", "-j", "health", "show",
                               self.handle(), "reporter", reporter])
        except ToolError as e:
            return {"state": "not supported by this device (" +
                    _first_line(e) + ")"}
        for lst in j.get("health", {}).values():
            for r in lst:
                if r.get("reporter") == reporter:
                    return r
        return {"state": "not reported"}

    # ------------------------------------------------------------ writes
    def write(self, group, want, cur):
        """Commands that take the group from cur to want (both full)."""
        return getattr(self, "_write_" + group)(want, cur)

    def took(self, group, argv, want):
        """Whether the port, read afresh, holds what argv (one of the
        commands write() gave for the group on the way to want) asked
        for; raises Unsupported.  Each `dcb ... set` writes its whole
        group, so it took when the group reads as want; the app table
        takes up to three commands, so each is judged by its own
        entries."""
        now = self.read(group)
        if argv[:2] == ["dcb", "app"]:
            pairs = {tuple(int(x) for x in a.split(":"))
                     for a in argv[argv.index("dscp-prio") + 1:]}
            table = set(now["dscp_prio"])
            if argv[2] == "del":
                return not pairs & table
            # add, replace: each DSCP named maps to the asked priority
            # and to no other (the driver keeps one priority per DSCP).
            dscps = {d for d, _ in pairs}
            return {e for e in table if e[0] in dscps} == pairs
        return all(same(k, want[k], now.get(k)) for k in want)

    def _dcb_set(self, obj, *args):
        return ["dcb", obj, "set", "dev", self.dev] + list(args)

    def _write_ets(self, w, _):
        return [self._dcb_set("ets", "tc-tsa", *_prio_map(w["tc_tsa"]).split(),
                              "tc-bw", *_prio_map(w["tc_bw"]).split(),
                              "prio-tc", *_prio_map(w["prio_tc"]).split())]

    def _write_maxrate(self, w, _):
        # dcb takes bits/s and hands the kernel bytes/s; the driver reads
        # that number as kb/s (mlx5's unit): 8 "bit" per kb/s.
        rates = [f"{i}:{r * 8}bit" if r else f"{i}:0"
                 for i, r in enumerate(w["tc_maxrate"])]
        return [self._dcb_set("maxrate", "tc-maxrate", *rates)]

    def _write_pfc(self, w, _):
        onoff = [f"{i}:{'on' if w['pfc'] & (1 << i) else 'off'}"
                 for i in range(NUM_PRIO)]
        return [self._dcb_set("pfc", "prio-pfc", *onoff,
                              "delay", str(w["pfc_delay"]))]

    def _write_buffer(self, w, _):
        return [self._dcb_set("buffer",
                              "prio-buffer", *_prio_map(w["prio_buffer"]).split(),
                              "buffer-size", *_prio_map(w["buffer_size"]).split())]

    def _write_app(self, w, c):
        want, cur = set(w["dscp_prio"]), set(c["dscp_prio"])
        cur_dscp = {d for d, _ in cur}
        want_dscp = {d for d, _ in want}
        new = sorted(want - cur)
        add = [f"{d}:{p}" for d, p in new if d not in cur_dscp]
        repl = [f"{d}:{p}" for d, p in new if d in cur_dscp]
        gone = [f"{d}:{p}" for d, p in sorted(cur) if d not in want_dscp]
        base = ["dcb", "app"]
        cmds = []
        # Adds first, deletes last: the port keeps trusting DSCP while
        # one map replaces another, and drops to PCP only at the end.
        if add:
            cmds.append(base + ["add", "dev", self.dev, "dscp-prio"] + add)
        if repl:
            cmds.append(base + ["replace", "dev", self.dev, "dscp-prio"] +
                        repl)
        if gone:
            cmds.append(base + ["del", "dev", self.dev, "dscp-prio"] + gone)
        return cmds

    def _write_trust(self, w, _):
        if not self.has_apptrust():
            return []   # follows the app table (_write_app)
        return [self._dcb_set("apptrust", "order", w["trust"])]

    def _write_dcbx(self, w, _):
        return [self._dcb_set("dcbx", *w["dcbx"])]

    def _write_pause(self, w, _):
        rx = "on" if w["pause"] in ("rx", "on") else "off"
        tx = "on" if w["pause"] in ("tx", "on") else "off"
        return [["ethtool", "-A", self.dev, "rx", rx, "tx", tx]]

    def _write_tunable(self, w, _):
        return [["ethtool", "--set-tunable", self.dev, TUNABLE,
                 str(w["pfc_prevention_tout"])]]

    def _write_cc(self, w, c):
        names = [n for n in group_keys("cc") if n in w and w[n] != c.get(n)]
        # The NIC refuses rp_max_rate below rp_min_rate at every step.
        if "rp_max_rate" in names and "rp_min_rate" in names and \
                w["rp_min_rate"] > c.get("rp_max_rate", 0) > 0:
            names.remove("rp_max_rate")
            names.insert(names.index("rp_min_rate"), "rp_max_rate")
        # Enables last when turning on, first when turning off.
        enables = [n for n in names if n.endswith("_enable")]
        rest = [n for n in names if n not in enables]
        on = any(w[n] for n in enables)
        names = rest + enables if on else enables + rest
        cmds = []
        for n in names:
            v = w[n]
            v = ("true" if v else "false") if isinstance(v, bool) else str(v)
            cmds.append(["devlink", "dev", "param", "set", self.handle(),
                         "name", n, "value", v, "cmode", "runtime"])
        return cmds


def same(key, want, cur):
    """Whether a read-back value is what the profile asked for."""
    if key == "pfc_prevention_tout" and want == KEY[key].parse("auto"):
        # "auto" reads back as the timeout it stands for.
        return cur in (want, TOUT_AUTO_MS)
    return want == cur


# The order groups are written in; pause comes first when it goes off
# and last when it goes on, as PFC and 802.3x pause exclude each other.
def order(want_pause):
    mid = ["dcbx", "ets", "maxrate", "pfc", "buffer", "app", "trust",
           "tunable", "cc"]
    return (["pause"] + mid) if want_pause == "off" else (mid + ["pause"])


__all__ = ["Port", "Unsupported", "GROUPS", "group_keys", "same", "order",
           "NUM_TC"]
