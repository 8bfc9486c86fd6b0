#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Send one raw DCB_CMD_IEEE_SET and print the status the kernel returns.

iproute2 6.1's dcb hides the driver's errno for ETS, PFC, max rate and
buffer objects (and checks some values itself before any reach the
kernel), so wren-dcb.sh uses this to see the errno of a bad value:

    wren_dcb_nl.py IFNAME CASE    prints e.g. "EINVAL" or "0"
    wren_dcb_nl.py IFNAME CASE CASE...
                                  prints "CASE STATUS same|changed" for
                                  each, "changed" when the IEEE_GET
                                  reply (the NIC's whole DCB state)
                                  differs after the set from before it

CASE is one of the names in CASES below.  Several cases share one run:
a Python start costs seconds under TCG.  iproute2 6.1 has no
`dcb apptrust` either, so the apptrust table (Linux 6.2 and later) is set
with the apptrust-* cases and read back with

    wren_dcb_nl.py IFNAME apptrust-get    prints e.g. "dscp pcp", or
                                          "absent" when the kernel (or
                                          the driver) has no apptrust
"""
import errno
import socket
import struct
import sys

RTM_GETDCB, RTM_SETDCB = 78, 79
DCB_CMD_IEEE_SET = 20
DCB_ATTR_IFNAME = 1
DCB_ATTR_IEEE = 13
DCB_CMD_IEEE_GET = 21
IEEE_ETS, IEEE_PFC, IEEE_MAXRATE, DCB_BUFFER = 1, 2, 7, 10
DCB_APP_TRUST_TABLE = 11
# Trust table entries: IEEE selectors as DCB_ATTR_IEEE_APP, PCP (255) as
# DCB_ATTR_DCB_APP.
ATTR_IEEE_APP, ATTR_DCB_APP = 1, 2
SEL_ETHTYPE, SEL_DSCP, SEL_PCP = 1, 5, 255
SEL_NAMES = {SEL_ETHTYPE: "ethtype", SEL_DSCP: "dscp", SEL_PCP: "pcp"}
TSA_STRICT, TSA_ETS, TSA_VENDOR = 0, 2, 255


def attr(kind, payload):
    n = 4 + len(payload)
    return struct.pack("=HH", n, kind) + payload + b"\0" * (-n % 4)


def ets(tsa=None, bw=None, prio_tc=None):
    """struct ieee_ets (59 bytes): all ETS at 12/13 % unless told."""
    tsa = tsa or [TSA_ETS] * 8
    bw = bw or [12, 12, 12, 12, 13, 13, 13, 13]
    prio_tc = prio_tc or list(range(8))
    return (IEEE_ETS, struct.pack("3B8B8B8B8B8B8B8B", 0, 8, 0, *bw,
                                  *[0] * 8, *tsa, *prio_tc, *[0] * 24))


def pfc(mbc=0):
    """struct ieee_pfc (136 bytes)."""
    return (IEEE_PFC, struct.pack("=3BxH2x16Q", 8, 0, mbc, 0, *[0] * 16))


def maxrate(rates):
    return (IEEE_MAXRATE, struct.pack("=8Q", *rates))


def buffer(prio2buffer, sizes):
    """struct dcbnl_buffer (44 bytes)."""
    return (DCB_BUFFER, struct.pack("=8B9I", *prio2buffer, *sizes, 0))


def pfc_en(mask):
    """struct ieee_pfc with pfc_en = mask."""
    return (IEEE_PFC, struct.pack("=3BxH2x16Q", 8, mask, 0, 0, *[0] * 16))


def apptrust(*sels):
    """DCB_ATTR_DCB_APP_TRUST_TABLE with the selectors in order."""
    return (DCB_APP_TRUST_TABLE,
            b"".join(attr(ATTR_DCB_APP if s == SEL_PCP else ATTR_IEEE_APP,
                          bytes([s])) for s in sels))


CASES = {
    "ets-vendor": ets(tsa=[TSA_ETS] * 2 + [TSA_VENDOR] + [TSA_ETS] * 5),
    "ets-cbs": ets(tsa=[TSA_ETS] * 2 + [1] + [TSA_ETS] * 5),
    "ets-tsa-7": ets(tsa=[7] + [TSA_ETS] * 7),
    "ets-sum-80": ets(bw=[10] * 8),
    "ets-bw-101": ets(tsa=[TSA_ETS] + [TSA_STRICT] * 7, bw=[101] + [0] * 7),
    "ets-prio-tc-8": ets(prio_tc=[8] + [0] * 7),
    "pfc-mbc": pfc(mbc=1),
    "maxrate-above-link": maxrate([10 ** 12] + [0] * 7),
    "buffer-prio-8": buffer([8] + [0] * 7, [0] * 8),
    "buffer-over-total": buffer([0] * 8, [1 << 20] + [0] * 7),
    "pfc-prio3": pfc_en(0x08),
    "apptrust-pcp": apptrust(SEL_PCP),
    "apptrust-dscp-pcp": apptrust(SEL_DSCP, SEL_PCP),
    "apptrust-pcp-dscp": apptrust(SEL_PCP, SEL_DSCP),
    "apptrust-ethtype": apptrust(SEL_ETHTYPE, SEL_PCP),
}


def errname(err):
    """errno.errorcode names 95 ENOTSUP; the kernel's name is EOPNOTSUPP."""
    if err == errno.EOPNOTSUPP:
        return "EOPNOTSUPP"
    return errno.errorcode.get(err, str(err))


def attrs(buf, off, end):
    """(kind, payload) of each attribute in buf[off:end]."""
    while off + 4 <= end:
        n, kind = struct.unpack_from("=HH", buf, off)
        if n < 4:
            return
        yield kind & 0x3fff, buf[off + 4:off + n]
        off += (n + 3) & ~3


def request(ifname, cmd, ieee):
    body = struct.pack("=BBH", socket.AF_UNSPEC, cmd, 0)
    body += attr(DCB_ATTR_IFNAME, ifname.encode() + b"\0")
    if ieee is not None:
        body += attr(DCB_ATTR_IEEE, ieee)
    mtype = RTM_SETDCB if cmd == DCB_CMD_IEEE_SET else RTM_GETDCB
    msg = struct.pack("=IHHII", 16 + len(body), mtype, 1, 1, 0)
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    s.send(msg + body)
    return s.recv(65536)


def apptrust_get(ifname):
    """The trust order in the IEEE GET reply, or "absent"."""
    reply = request(ifname, DCB_CMD_IEEE_GET, None)
    _, mtype, _, _, _ = struct.unpack_from("=IHHII", reply)
    if mtype == 2:
        (err,) = struct.unpack_from("=i", reply, 16)
        return "netlink:" + errname(-err)
    for kind, payload in attrs(reply, 20, len(reply)):
        if kind != DCB_ATTR_IEEE:
            continue
        for k2, table in attrs(payload, 0, len(payload)):
            if k2 == DCB_APP_TRUST_TABLE:
                return " ".join(SEL_NAMES.get(p[0], str(p[0]))
                                for _, p in attrs(table, 0, len(table))
                                ) or "empty"
    return "absent"


def ieee_set(ifname, case):
    """The status of one IEEE_SET of CASE, as an errno name or "0"."""
    kind, payload = CASES[case]
    reply = request(ifname, DCB_CMD_IEEE_SET, attr(kind, payload))
    _, mtype, _, _, _ = struct.unpack_from("=IHHII", reply)
    if mtype == 2:  # NLMSG_ERROR: the request itself was refused
        (err,) = struct.unpack_from("=i", reply, 16)
        return "netlink:" + (errname(-err) if err else "0")
    # RTM_SETDCB reply: dcbmsg, then DCB_ATTR_IEEE as a u8 (-errno).
    off = 20
    while off + 4 <= len(reply):
        n, kind = struct.unpack_from("=HH", reply, off)
        if kind == DCB_ATTR_IEEE:
            (st,) = struct.unpack_from("b", reply, off + 4)
            return errname(-st) if st else "0"
        off += (n + 3) & ~3
    return "no-status"


def ieee_state(ifname):
    """The IEEE_GET reply past its netlink header: the NIC's DCB state."""
    return request(ifname, DCB_CMD_IEEE_GET, None)[16:]


def main():
    ifname, cases = sys.argv[1], sys.argv[2:]
    if cases == ["apptrust-get"]:
        print(apptrust_get(ifname))
        return
    if len(cases) == 1:
        print(ieee_set(ifname, cases[0]))
        return
    for case in cases:
        before = ieee_state(ifname)
        status = ieee_set(ifname, case)
        same = "same" if ieee_state(ifname) == before else "changed"
        print(case, status, same)


if __name__ == "__main__":
    main()
