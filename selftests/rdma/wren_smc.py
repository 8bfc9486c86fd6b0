#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""AF_SMC sockets for the guest tests, with no smc-tools (Debian does not
package them): the kernel's SMC generic netlink for the user EID and the
link groups, sock_diag for each socket's mode, and one verified transfer.

  wren_smc.py ueid-add EID           add a user EID (SMC-Rv2 needs one)
  wren_smc.py serve IP PORT BYTES EID
                                     add EID, accept one AF_SMC connection,
                                     receive BYTES of wren-pattern's stream,
                                     check it, send "ok", print the
                                     socket's mode and the SMC-R links
  wren_smc.py send IP PORT BYTES EID add EID, connect (retrying while the
                                     server is not up), send BYTES, wait for
                                     "ok", print the socket's mode and the
                                     SMC-R links
  wren_smc.py lgr                    the SMC-R link groups' links: the
                                     ib device and port of each

The mode line is "mode smcr ibdev wren_0 port 1" or "mode fallback
reason 0x... peer 0x..." (the CLC decline codes of net/smc/smc_clc.h);
a link line is "link ibdev wren_0 port 1".  One process a side: a
Python start costs seconds in a TCG guest.  Exit status 0 only when the
data arrived equal.
"""

import os
import socket
import struct
import subprocess
import sys
import time

# The tree's one test pattern (tools/pattern), by its program.
PATTERN = os.path.join(os.environ.get("WREN_TOP", "."), "build/tools/wren-pattern")
PATTERN_SEED = "9751"
AF_SMC = 43
SMCPROTO_SMC = 0
NETLINK_GENERIC = 16
NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLM_F_REQUEST = 1
NLM_F_ACK = 4
NLM_F_DUMP = 0x300
NLMSG_ERROR = 2
NLMSG_DONE = 3
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
SMC_GENL_FAMILY_NAME = b"SMC_GEN_NETLINK"
SMC_NETLINK_GET_LINK_SMCR = 3
SMC_NETLINK_ADD_UEID = 10
SMC_NLA_EID_TABLE_ENTRY = 1
SMC_MAX_EID_LEN = 32
# sock_diag for AF_SMC (uapi linux/smc_diag.h)
SMC_DIAG_CONNINFO = 1
SMC_DIAG_LGRINFO = 2
SMC_DIAG_FALLBACK = 5
SMC_DIAG_MODE = {0: "smcr", 1: "fallback", 2: "smcd"}
# link attributes of SMC_NETLINK_GET_LINK_SMCR (uapi linux/smc.h)
SMC_GEN_LINK_SMCR = 3
SMC_NLA_LINK_IB_DEV = 2
SMC_NLA_LINK_IB_PORT = 3


def nla(kind, data):
    n = 4 + len(data)
    return struct.pack("=HH", n, kind) + data + b"\0" * ((4 - n % 4) % 4)


def nla_parse(buf):
    out = {}
    off = 0
    while off + 4 <= len(buf):
        n, kind = struct.unpack_from("=HH", buf, off)
        if n < 4:
            break
        out.setdefault(kind & 0x3FFF, buf[off + 4:off + n])
        off += (n + 3) & ~3
    return out


class Netlink:
    def __init__(self, proto):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, proto)
        self.sock.bind((0, 0))
        self.seq = 0

    def request(self, kind, flags, payload):
        """Send one message; return the payloads of the answers (a dump's
        every part), raising OSError on a netlink error."""
        self.seq += 1
        msg = struct.pack("=IHHII", 16 + len(payload), kind,
                          NLM_F_REQUEST | flags, self.seq, 0) + payload
        self.sock.send(msg)
        parts = []
        while True:
            data = self.sock.recv(65536)
            off = 0
            while off + 16 <= len(data):
                n, t, _, seq, _ = struct.unpack_from("=IHHII", data, off)
                body = data[off + 16:off + n]
                off += (n + 3) & ~3
                if seq != self.seq:
                    continue
                if t == NLMSG_ERROR:
                    err = struct.unpack_from("=i", body)[0]
                    if err:
                        raise OSError(-err, os.strerror(-err))
                    return parts
                if t == NLMSG_DONE:
                    return parts
                parts.append(body)
                if not flags & NLM_F_DUMP and not flags & NLM_F_ACK:
                    return parts


def smc_genl():
    nl = Netlink(NETLINK_GENERIC)
    hdr = struct.pack("=BBH", CTRL_CMD_GETFAMILY, 1, 0)
    ans = nl.request(GENL_ID_CTRL, 0,
                     hdr + nla(CTRL_ATTR_FAMILY_NAME, SMC_GENL_FAMILY_NAME + b"\0"))
    attrs = nla_parse(ans[0][4:])
    return nl, struct.unpack("=H", attrs[CTRL_ATTR_FAMILY_ID][:2])[0]


def ueid_add(eid):
    raw = eid.upper().ljust(SMC_MAX_EID_LEN).encode()[:SMC_MAX_EID_LEN]
    nl, fam = smc_genl()
    try:
        nl.request(fam, NLM_F_ACK, struct.pack("=BBH", SMC_NETLINK_ADD_UEID, 1, 0) +
                   nla(SMC_NLA_EID_TABLE_ENTRY, raw + b"\0"))
    except FileExistsError:
        pass
    return 0


def lgr():
    nl, fam = smc_genl()
    parts = nl.request(fam, NLM_F_DUMP,
                       struct.pack("=BBH", SMC_NETLINK_GET_LINK_SMCR, 1, 0))
    for p in parts:
        link = nla_parse(nla_parse(p[4:]).get(SMC_GEN_LINK_SMCR, b""))
        if SMC_NLA_LINK_IB_DEV not in link:
            continue  # a link group's own record
        dev = link[SMC_NLA_LINK_IB_DEV].split(b"\0")[0].decode()
        port = link.get(SMC_NLA_LINK_IB_PORT, b"\0")[0]
        print("link ibdev %s port %d" % (dev, port))
    return 0


def pattern(n):
    """The bytes of the transfer: wren-pattern's stream PATTERN_SEED."""
    return subprocess.run([PATTERN, "gen", PATTERN_SEED, str(n)],
                          stdout=subprocess.PIPE, check=True).stdout


def pattern_check(got, n):
    """wren-pattern's verdict on GOT as the first N bytes of the stream
    (it names the first byte that differs); True when equal."""
    r = subprocess.run([PATTERN, "check", PATTERN_SEED, str(n)], input=bytes(got),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    if r.stdout:
        print(r.stdout.decode(errors="replace").rstrip())
    return r.returncode == 0


def diag_mode(sock):
    """The socket's SMC mode by sock_diag (smc_diag.ko): its inode is
    matched in a dump of every AF_SMC socket."""
    inode = os.fstat(sock.fileno()).st_ino
    nl = Netlink(NETLINK_SOCK_DIAG)
    # struct smc_diag_req: family, pad[2], diag_ext, inet_diag_sockid (48)
    req = struct.pack("=BBBB", AF_SMC, 0, 0,
                      (1 << (SMC_DIAG_CONNINFO - 1)) | (1 << (SMC_DIAG_LGRINFO - 1)))
    req += b"\0" * 48
    for p in nl.request(SOCK_DIAG_BY_FAMILY, NLM_F_DUMP, req):
        # struct smc_diag_msg: family, state, mode, shutdown, sockid (48),
        # uid (4), then a u64 inode 8-aligned: offset 56
        mode = p[2]
        ino = struct.unpack_from("=Q", p, 56)[0]
        if ino != inode:
            continue
        attrs = nla_parse(p[64:])
        if mode == 0 and SMC_DIAG_LGRINFO in attrs:
            # struct smc_diag_lgrinfo: lnk[1] {link_id, ibname[64],
            # ibport, gid[40], peer_gid[40]}, role
            li = attrs[SMC_DIAG_LGRINFO]
            name = li[1:65].split(b"\0")[0].decode()
            return "mode smcr ibdev %s port %d" % (name, li[65])
        if mode == 1 and SMC_DIAG_FALLBACK in attrs:
            reason, peer = struct.unpack_from("=II", attrs[SMC_DIAG_FALLBACK])
            return "mode fallback reason 0x%08x peer 0x%08x" % (reason, peer)
        return "mode %s" % SMC_DIAG_MODE.get(mode, str(mode))
    return "mode unknown (no sock_diag entry)"


def smc_socket():
    """An AF_SMC socket whose addresses Python handles as AF_INET's: SMC
    takes sockaddr_in, and Python has no address format for AF_SMC."""
    fd = socket.socket(AF_SMC, socket.SOCK_STREAM, SMCPROTO_SMC).detach()
    return socket.socket(socket.AF_INET, socket.SOCK_STREAM, 0, fileno=fd)


def serve(ip, port, n):
    srv = smc_socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((ip, port))
    srv.listen(1)
    conn, _ = srv.accept()
    got = bytearray()
    while len(got) < n:
        chunk = conn.recv(min(1 << 20, n - len(got)))
        if not chunk:
            break
        got += chunk
    print(diag_mode(conn))
    equal = pattern_check(got, n)
    print("received %d bytes, %s" % (len(got), "equal" if equal else "DIFFERENT"))
    conn.sendall(b"ok" if equal else b"no")
    conn.close()
    return 0 if equal else 1


def send(ip, port, n):
    # The server listens once its own Python has started: retry.
    deadline = time.monotonic() + 60
    while True:
        c = smc_socket()
        c.settimeout(60)
        try:
            c.connect((ip, port))
            break
        except ConnectionRefusedError:
            c.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    c.sendall(pattern(n))
    ans = c.recv(2)
    print(diag_mode(c))
    print("sent %d bytes, the peer says %s" % (n, ans.decode() or "nothing"))
    c.close()
    return 0 if ans == b"ok" else 1


def main(argv):
    if len(argv) == 3 and argv[1] == "ueid-add":
        return ueid_add(argv[2])
    if len(argv) == 2 and argv[1] == "lgr":
        return lgr()
    if len(argv) == 6 and argv[1] in ("serve", "send"):
        ueid_add(argv[5])
        fn = serve if argv[1] == "serve" else send
        rc = fn(argv[2], int(argv[3]), int(argv[4]))
        lgr()
        return rc
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
