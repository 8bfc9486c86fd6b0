#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Print the state of every virtio device of a running QEMU, over QMP.

usage: qmp-virtio.py QMP_SOCKET

For vmrun.sh's HANG_DUMP: when a guest hangs, whether QEMU still takes
the buffers of a queue.  QMP gives QEMU's own indices only
(shadow-avail-idx is QEMU's last read of the guest's avail index, not
the index now); the rings' own indices in guest memory, avail_event
and used_event are in qemu-net.gdb's reading beside it.
Prints one JSON object a line: the run state, the netdevs ("info
network"), then each device's status and each of its queues' status.
Exits 1 when QMP cannot be reached or stops answering.
"""
import json
import socket
import sys

TIMEOUT_S = 10


class Qmp:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(TIMEOUT_S)
        self.sock.connect(path)
        self.buf = b""
        self._reply()  # the greeting
        self.cmd("qmp_capabilities")

    def _reply(self):
        while True:
            while b"\n" not in self.buf:
                data = self.sock.recv(65536)
                if not data:
                    raise ConnectionError("QMP closed the connection")
                self.buf += data
            line, self.buf = self.buf.split(b"\n", 1)
            msg = json.loads(line)
            if "event" not in msg:
                return msg

    def cmd(self, command, /, **args):
        # positional-only: QMP commands have arguments called "name" too
        req = {"execute": command}
        if args:
            req["arguments"] = args
        self.sock.sendall(json.dumps(req).encode() + b"\n")
        return self._reply()


def dump(qmp):
    print(json.dumps({"query-status": qmp.cmd("query-status")}), flush=True)
    # the netdevs and their links: a stream netdev whose peer went away
    print(json.dumps({"info network": qmp.cmd(
        "human-monitor-command", **{"command-line": "info network"})}))
    devices = qmp.cmd("x-query-virtio").get("return", [])
    for dev in devices:
        path = dev["path"]
        st = qmp.cmd("x-query-virtio-status", path=path)
        print(json.dumps({"device": dev, "status": st}))
        for q in range(st.get("return", {}).get("num-vqs", 0)):
            qs = qmp.cmd("x-query-virtio-queue-status", path=path, queue=q)
            print(json.dumps({"path": path, "queue": q, "status": qs}),
                  flush=True)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        dump(Qmp(sys.argv[1]))
    except (OSError, ValueError, ConnectionError) as e:
        print(f"qmp-virtio: {sys.argv[1]}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
