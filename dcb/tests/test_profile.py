#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Unit test of wren-qos's profile parser (dcb/lib/wrenqos/profile.py),
no device and no tools: the shipped profiles parse to the values the
tools read back, "default" is the NIC's power-on value, and every kind of
bad input is refused with a ProfileError naming the key, its line and
what is wrong.  TAP on stdout (selftests/lib/tap.py); run by
wren-qos-host.sh, or alone: python3 -m unittest discover dcb/tests.
"""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "selftests", "lib"))
from wrenqos import profile  # noqa: E402
from wrenqos.profile import ProfileError, parse  # noqa: E402

C = profile.C
PROFILES = os.path.join(HERE, "..", "profiles")
ETS = "prio_tc = all:0 3:3\ntc_tsa = all:ets\ntc_bw = all:0 0:40 3:60\n"


class Good(unittest.TestCase):
    def test_shipped(self):
        """every shipped profile parses and passes the cross-key checks"""
        names = profile.names()
        self.assertIn("lossless", names)
        for name in names:
            with self.subTest(profile=name):
                p = profile.load(os.path.join(PROFILES, name + ".conf"))
                self.assertEqual(p.name, name)
                self.assertTrue(p.get("description"))

    def test_lossless_values(self):
        """lossless.conf: values normalised to what the tools read back"""
        p = profile.load(os.path.join(PROFILES, "lossless.conf"))
        self.assertEqual(p.get("prio_tc"), (0, 0, 0, 3, 0, 0, 6, 0))
        self.assertEqual(p.get("tc_tsa"), ("ets",) * 6 + ("strict", "ets"))
        self.assertEqual(p.get("tc_bw"), (40, 0, 0, 60, 0, 0, 0, 0))
        self.assertEqual(p.get("pfc"), 1 << 3)
        self.assertEqual(p.get("buffer_size"),
                         (256 * 1024, 256 * 1024) + (0,) * 6)
        self.assertEqual(p.get("dscp_prio"), ((26, 3), (48, 6)))
        self.assertEqual(p.get("pfc_prevention_tout"), profile.TOUT_AUTO)
        self.assertEqual(p.get("dcbx"), ("host", "ieee"))
        with open(os.path.join(PROFILES, "lossless.conf")) as f:
            where = [n for n, line in enumerate(f, 1)
                     if line.startswith("pfc =")]
        self.assertEqual([p.lines["pfc"]], where)

    def test_by_name(self):
        """a bare name is a file of the profile folder, a path is itself"""
        self.assertEqual(profile.find("/x/y.conf"), "/x/y.conf")
        self.assertEqual(profile.find("my.conf"), "my.conf")
        self.assertTrue(profile.find("lossless").endswith(
            os.path.join("profiles", "lossless.conf")))

    def test_comments_and_blanks(self):
        """comments, blank lines and spaces around '=' are nothing"""
        p = parse("# a comment\n\n  pfc=3   # trailing\n\tpause = off\n")
        self.assertEqual(p.values, {"pfc": 8, "pause": "off"})
        self.assertEqual(p.lines, {"pfc": 3, "pause": 4})

    def test_empty(self):
        """an empty profile changes nothing: every key keeps its default"""
        p = parse("")
        self.assertEqual(p.values, {})
        for k in profile.KEYS:
            self.assertEqual(p.get(k.name), k.default)

    def test_units(self):
        """sizes take K and M (1024-based), rates kbit, mbit and gbit"""
        p = parse("prio_buffer = all:0\nbuffer_size = all:2k 0:1M\n"
                  "tc_maxrate = all:0 1:5gbit 2:7mbit 3:9kbit\n")
        self.assertEqual(p.get("buffer_size"), (1 << 20,) + (2048,) * 7)
        self.assertEqual(p.get("tc_maxrate")[:4], (0, 5000000, 7000, 9))

    def test_prio_sets(self):
        """priority sets: a list, or none"""
        self.assertEqual(parse("cc_ecn_enable = 1, 3 5").get("cc_ecn_enable"),
                         0b101010)
        self.assertEqual(parse("cc_np_enable = none").get("cc_np_enable"), 0)

    def test_timeouts(self):
        """pfc_prevention_tout: off, auto or a number of ms in range"""
        self.assertEqual(parse("pfc_prevention_tout = off").values,
                         {"pfc_prevention_tout": 0})
        v = profile.TOUT_MIN
        self.assertEqual(parse(f"pfc_prevention_tout = {v}").values,
                         {"pfc_prevention_tout": v})

    def test_default(self):
        """'default' is the NIC's power-on value of a DCQCN key"""
        p = parse("rp_ai_rate = default\nrp_time_reset = default\n"
                  "rp_clamp_tgt_rate = default\nnp_cnp_dscp = default\n")
        self.assertEqual(p.get("rp_ai_rate"),
                         C["WREN_DCQCN_RP_AI_RATE_DEFAULT_MBPS"])
        self.assertEqual(p.get("rp_time_reset"),
                         C["WREN_DCQCN_RP_TIME_RESET_DEFAULT_US"])
        self.assertEqual(p.get("rp_clamp_tgt_rate"),
                         bool(C["WREN_DCQCN_RP_CLAMP_TGT_RATE_DEFAULT"]))
        self.assertEqual(p.get("np_cnp_dscp"),
                         C["WREN_DCQCN_NP_CNP_DSCP_DEFAULT"])
        self.assertEqual(p.get("rp_ai_rate"),
                         profile.KEY["rp_ai_rate"].default)

    def test_default_only_dcqcn(self):
        """'default' is no value of a key without a power-on number"""
        self.bad("pfc = default", "pfc", 1, "'default' is not an integer")


class Bad(unittest.TestCase):
    def bad(self, text, key, line, msg):
        with self.assertRaises(ProfileError) as cm:
            parse(text)
        e = cm.exception
        self.assertEqual((e.key, e.line), (key, line), str(e))
        self.assertIn(msg, str(e))
        self.assertTrue(str(e).startswith(
            f"{key} (line {line}): " if line else f"{key}: "), str(e))

    def test_syntax(self):
        """lines that are not key = value, unknown, twice or empty keys"""
        for text, key, line, msg in [
                ("pfc 3", "pfc 3", 1, "'pfc 3' is not key = value"),
                ("\n= 3", "?", 2, "'= 3' is not key = value"),
                ("pfcs = 3", "pfcs", 1, "unknown key"),
                ("pfc = 3\n\npfc = 3", "pfc", 3, "given twice (first on line 1)"),
                ("pfc =", "pfc", 1, "has no value"),
                ("pfc = # none", "pfc", 1, "has no value")]:
            with self.subTest(text=text):
                self.bad(text, key, line, msg)

    def test_values(self):
        """each kind of value refuses what it cannot take"""
        for text, key, msg in [
                ("roce_prio = three", "roce_prio", "'three' is not an integer"),
                ("roce_prio = 8", "roce_prio", "value 8 is out of range 0..7"),
                ("pfc = 3,3", "pfc", "priority 3 is listed twice"),
                ("pfc = 9", "pfc", "priority 9 is out of range 0..7"),
                ("buffer_size = all:1G", "buffer_size", "'1G' is not a size"),
                ("buffer_size = all:8M 0:5000M", "buffer_size",
                 "size 5000 is out of range"),
                ("tc_maxrate = all:5tbit", "tc_maxrate", "'5tbit' is not a rate"),
                ("prio_tc = 0:0 1:1", "prio_tc",
                 "no value for prio 2,3,4,5,6,7 (give all 8"),
                ("prio_tc = all=0", "prio_tc", "'all=0' is not prio:VALUE"),
                ("prio_tc = all:0 8:1", "prio_tc", "prio 8 is out of range"),
                ("tc_tsa = all:cbs", "tc_tsa", "TSA 'cbs' is not strict or ets"),
                ("dscp_prio = 26:3 26:4", "dscp_prio", "DSCP 26 is mapped twice"),
                ("dscp_prio = 26", "dscp_prio", "'26' is not DSCP:PRIO"),
                ("dscp_prio = 64:1", "dscp_prio", "DSCP 64 is out of range 0..63"),
                ("trust = both", "trust", "'both' is not one of pcp, dscp"),
                ("pause = maybe", "pause", "'maybe' is not one of off, rx, tx, on"),
                ("dcbx = host cisco", "dcbx", "'cisco' is not a DCBX mode word"),
                ("pfc_prevention_tout = 1", "pfc_prevention_tout",
                 f"timeout 1 ms is not off, auto or {profile.TOUT_MIN}.."),
                ("rp_clamp_tgt_rate = sometimes", "rp_clamp_tgt_rate",
                 "'sometimes' is not on or off"),
                ("np_cnp_dscp = 64", "np_cnp_dscp", "value 64 is out of range"),
                ("rp_time_reset = -1", "rp_time_reset", "value -1 is out of range")]:
            with self.subTest(text=text):
                self.bad(text, key, 1, msg)

    def test_ets(self):
        """ETS is set whole, strict TCs have no share, shares sum to 100"""
        self.bad("prio_tc = all:0", "tc_tsa", 0,
                 "ETS is set as a whole: give prio_tc, tc_tsa and tc_bw")
        self.bad(ETS.replace("all:ets", "all:ets 3:strict"), "tc_bw", 3,
                 "TC 3 is strict: its share must be 0, not 60")
        self.bad(ETS.replace("0:40 3:60", "0:100"), "tc_bw", 3,
                 "TC 3 is ets and carries priorities but has a 0% share")
        self.bad(ETS.replace("3:60", "3:50"), "tc_bw", 3,
                 "the ETS shares sum to 90%, not 100%")
        self.assertEqual(parse(ETS).get("tc_bw")[3], 60)

    def test_buffers(self):
        """buffers are set whole, and a buffer that holds a priority has a size"""
        self.bad("prio_buffer = all:0", "buffer_size", 0,
                 "buffers are set as a whole")
        self.bad("prio_buffer = all:0 3:1\nbuffer_size = all:0 0:64K",
                 "buffer_size", 2, "buffer 1 holds priority 3 but has size 0")

    def test_trust(self):
        """DSCP trust needs entries, PCP trust none, RoCE and CNPs land right"""
        self.bad("trust = dscp", "dscp_prio", 0,
                 "trust = dscp needs at least one DSCP entry")
        self.bad("trust = pcp\ndscp_prio = 26:3", "dscp_prio", 2,
                 "trust = pcp needs no DSCP entries")
        self.bad("trust = dscp\ndscp_prio = 26:4", "dscp_prio", 2,
                 "RoCE's DSCP 26 lands on priority 4, not on the RoCE priority 3")
        self.bad("trust = dscp\ndscp_prio = 26:3\ncc_np_enable = 3\n"
                 "np_cnp_dscp = 48\nnp_cnp_prio = 5", "dscp_prio", 2,
                 "the CNP DSCP 48 lands on priority 6, not on the CNP priority 5")

    def test_cross_keys(self):
        """pause and PFC exclude each other; rates; PFC on the RoCE priority"""
        self.bad("pause = on\npfc = 3", "pause", 1,
                 "802.3x pause and PFC exclude each other")
        self.bad("rp_min_rate = 100\nrp_max_rate = 50", "rp_max_rate", 2,
                 "is below rp_min_rate")
        self.bad("roce_prio = 3\npfc = 4", "pfc", 2,
                 "PFC is on for some priorities but not for the RoCE priority 3")

    def test_files(self):
        """a missing file is an OSError; a bad one names its key and line"""
        with self.assertRaises(OSError):
            profile.load(os.path.join(PROFILES, "no-such-profile.conf"))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "mine.conf")
            with open(path, "w") as f:
                f.write("description = x\npfc = 3\nroce_prio = 9\n")
            with self.assertRaises(ProfileError) as cm:
                profile.load(path)
            self.assertEqual(str(cm.exception),
                             "roce_prio (line 3): value 9 is out of range 0..7")


Good.bad = Bad.bad


def main():
    from tap import Tap  # pylint: disable=import-outside-toplevel

    t = Tap()
    t.unittest(unittest.defaultTestLoader.loadTestsFromModule(
        sys.modules[__name__]))
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
