#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Host-side checks of the Wren QEMU device, no guest kernel needed.

QEMU's qtest accelerator lets this script act as the CPU: it writes PCI
config space through ports 0xcf8/0xcfc, places the BARs, and reads and
writes them, so the glue (hw/qemu/wren_pci.c) and the model behind it are
checked exactly as a driver would see them.  Contract constants come from
include/linux/wren/wren_regs.h, parsed here, so there is one source of truth.

TAP goes to stdout and to $BUILD/check/qemu.tap; exit status 1 on any failure.
"""

import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

# hw/qemu/tests/qemu-check.py: the top of the tree is three folders up.
TOP = os.environ.get("TOP") or os.path.abspath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
BUILD = os.environ.get("BUILD") or os.path.join(TOP, "build")
QEMU = os.environ.get("QEMU") or os.path.join(BUILD, "qemu", "qemu-system-x86_64")
FW_ARGS = (os.environ.get("QEMU_FW_ARGS") or "").split()
TIMEOUT = 60


# The contract's numbers, through the tree's one reader of the headers.
sys.path.insert(0, os.path.join(TOP, "dcb", "lib"))
from wrenqos import contract  # noqa: E402

C = contract.load(os.path.join(TOP, "include", "linux", "wren"))

sys.path.insert(0, os.path.join(TOP, "selftests", "lib"))
import tap  # noqa: E402


def load_tool(name):
    """A tool of the tree that is a script, not a module (its name has a
    dash), loaded as one."""
    path = os.path.join(TOP, "tools", "testbench", name)
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# The QMP client of vmrun.sh's HANG_DUMP serves the checks here too.
QMP_VIRTIO = load_tool("qmp-virtio.py")


def layout():
    """Offsets of the few structure fields used here, from the C headers
    themselves (offsetof), so the check follows the contract."""
    fields = {
        "cmd.opcode": "wren_aq_cmd, opcode", "cmd.cmd_id": "wren_aq_cmd, cmd_id",
        "cmd.out_len": "wren_aq_cmd, out_len", "cmd.out_addr": "wren_aq_cmd, out_addr",
        "acq.cmd_id": "wren_acq_entry, cmd_id", "acq.status": "wren_acq_entry, status",
        "acq.out_len": "wren_acq_entry, out_len", "acq.owner": "wren_acq_entry, owner",
        "dev.contract_major": "wren_device_attr, contract_major",
        "dev.num_msix": "wren_device_attr, num_msix",
        "dev.mac": "wren_device_attr, mac",
        "dev.size": None,
    }
    prog = ["#include <stddef.h>", "#include <stdio.h>",
            "#include <linux/wren/wren_hw.h>", "int main(void) {"]
    for name, f in fields.items():
        expr = "offsetof(struct %s)" % f if f else "sizeof(struct wren_device_attr)"
        prog.append('printf("%s %%zu\\n", %s);' % (name, expr))
    prog.append("return 0; }")
    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, "layout")
        subprocess.run(["cc", "-std=gnu11", "-I" + os.path.join(TOP, "include"),
                        "-x", "c", "-", "-o", exe], input="\n".join(prog),
                       text=True, check=True)
        out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    return {k: int(v) for k, v in (line.split() for line in out.splitlines())}

# PCI config space offsets and bits (include/uapi/linux/pci_regs.h).
PCI_VENDOR_ID, PCI_COMMAND, PCI_REVISION_ID = 0x00, 0x04, 0x08
PCI_BAR0, PCI_SUBSYSTEM_VENDOR_ID, PCI_CAPABILITY_LIST = 0x10, 0x2c, 0x34
PCI_INTERRUPT_PIN = 0x3d
PCI_COMMAND_MEMORY, PCI_COMMAND_MASTER = 0x2, 0x4
PCI_CAP_ID_EXP, PCI_CAP_ID_MSIX = 0x10, 0x11
PCI_EXP_FLAGS, PCI_EXP_DEVCAP, PCI_EXP_DEVCTL = 0x2, 0x4, 0x8
PCI_EXP_DEVCAP_FLR, PCI_EXP_DEVCTL_BCR_FLR = 0x10000000, 0x8000
PCI_EXP_TYPE_ENDPOINT, PCI_EXP_TYPE_RC_END = 0x0, 0x9
PCI_MSIX_FLAGS, PCI_MSIX_TABLE, PCI_MSIX_PBA = 0x2, 0x4, 0x8

# Where this script places the BARs (free PCI memory on pc and q35).
BAR_ADDR = {0: 0xc0000000, 2: 0xd0000000, 4: 0xc8000000}


class QTest:
    """A QEMU started under qtest: this object is its only CPU."""

    def __init__(self, args, qmp=False):
        self.qmp_path = None
        extra = []
        if qmp:
            self.tmp = tempfile.mkdtemp(prefix="wren-qtest.")
            self.qmp_path = os.path.join(self.tmp, "qmp")
            extra = ["-qmp", "unix:%s,server=on,wait=off" % self.qmp_path]
        cmd = [QEMU] + FW_ARGS + ["-accel", "qtest", "-qtest", "stdio",
                                  "-display", "none", "-nodefaults",
                                  "-monitor", "none", "-qtest-log", "/dev/null",
                                  "-m", "128M"] + extra + args
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)

    def cmd(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        while True:
            reply = self.proc.stdout.readline()
            if not reply:
                raise RuntimeError("QEMU exited: " + self.proc.stderr.read().strip())
            if not reply.startswith("IRQ"):
                break
        words = reply.split()
        if words[0] != "OK":
            raise RuntimeError("qtest %r -> %r" % (line, reply))
        return int(words[1], 0) if len(words) > 1 else None

    def qmp(self, command, **arguments):
        if not hasattr(self, "qmp_conn"):
            for _ in range(100):
                if os.path.exists(self.qmp_path):
                    break
                time.sleep(0.05)
            self.qmp_conn = QMP_VIRTIO.Qmp(self.qmp_path)
        reply = self.qmp_conn.cmd(command, **arguments)
        if "error" in reply:
            raise RuntimeError("QMP %s: %s" % (command, reply["error"]))
        return reply["return"]

    def close(self):
        """SIGTERM, as libqtest does: QEMU shuts down cleanly and exits 0."""
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdin.close()

    # Configuration mechanism #1; devfn may carry a bus number in bits 15:8
    # (bus << 8 | devfn, a BDF), for devices behind bridges set up here.
    def cfg_addr(self, devfn, off):
        self.cmd("outl 0xcf8 0x%x" % (0x80000000 | devfn << 8 | (off & 0xfc)))
        return 0xcfc + (off & 3)

    def cfg_read(self, devfn, off, size=4):
        port = self.cfg_addr(devfn, off)
        return self.cmd("in%s 0x%x" % ({1: "b", 2: "w", 4: "l"}[size], port))

    def cfg_write(self, devfn, off, val, size=4):
        port = self.cfg_addr(devfn, off)
        self.cmd("out%s 0x%x 0x%x" % ({1: "b", 2: "w", 4: "l"}[size], port, val))

    def read(self, addr, size):
        return self.cmd("read%s 0x%x" % ({1: "b", 2: "w", 4: "l", 8: "q"}[size], addr))

    def write(self, addr, val, size):
        self.cmd("write%s 0x%x 0x%x" % ({1: "b", 2: "w", 4: "l", 8: "q"}[size], addr, val))


class Tap(tap.Tap):
    """The tree's TAP, with the two things these checks add to it."""

    def result(self, ok, desc, diag=None):
        self.ok(ok, desc, diag)

    def eq(self, got, want, desc):
        self.ok(got == want, desc,
                None if got == want else "got %r, want %r" % (got, want))

    def write(self, path):
        """The plan and the results, diagnostics left out."""
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("1..%d\n" % len(self.results))
            f.write("\n".join(self.results) + "\n")


def run_qemu(args):
    return subprocess.run([QEMU] + FW_ARGS + args, capture_output=True,
                          text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)


def find_wren(q):
    for dev in range(32):
        if q.cfg_read(dev << 3, PCI_VENDOR_ID) == (C["WREN_PCI_DEVICE_ID"] << 16 |
                                                   C["WREN_PCI_VENDOR_ID"]):
            return dev << 3
    raise RuntimeError("no Wren function on bus 0")


def find_cap(q, devfn, cap_id):
    pos = q.cfg_read(devfn, PCI_CAPABILITY_LIST, 1) & 0xfc
    for _ in range(48):
        if not pos:
            break
        if q.cfg_read(devfn, pos, 1) == cap_id:
            return pos
        pos = q.cfg_read(devfn, pos + 1, 1) & 0xfc
    return 0


def bar_info(q, devfn, bar):
    """Size a BAR the way firmware does; returns (flags, size)."""
    off = PCI_BAR0 + 4 * bar
    lo = q.cfg_read(devfn, off)
    q.cfg_write(devfn, off, 0xffffffff)
    q.cfg_write(devfn, off + 4, 0xffffffff)
    mask = q.cfg_read(devfn, off) | q.cfg_read(devfn, off + 4) << 32
    return lo & 0xf, (~(mask & ~0xf) + 1) & 0xffffffffffffffff


def place_bars(q, devfn):
    for bar, addr in BAR_ADDR.items():
        q.cfg_write(devfn, PCI_BAR0 + 4 * bar, addr & 0xffffffff)
        q.cfg_write(devfn, PCI_BAR0 + 4 * bar + 4, addr >> 32)
    q.cfg_write(devfn, PCI_COMMAND, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, 2)


def reg(q, name, size=4):
    return q.read(BAR_ADDR[0] + C[name], size)


def check_identity(t, q, devfn, machine):
    t.eq(q.cfg_read(devfn, PCI_VENDOR_ID),
         C["WREN_PCI_DEVICE_ID"] << 16 | C["WREN_PCI_VENDOR_ID"],
         "%s: vendor:device is %04x:%04x" % (machine, C["WREN_PCI_VENDOR_ID"],
                                            C["WREN_PCI_DEVICE_ID"]))
    t.eq(q.cfg_read(devfn, PCI_REVISION_ID),
         C["WREN_PCI_CLASS"] << 8 | C["WREN_PCI_REVISION"],
         "%s: class 0x%06x, revision 0x%02x" % (machine, C["WREN_PCI_CLASS"],
                                               C["WREN_PCI_REVISION"]))
    t.eq(q.cfg_read(devfn, PCI_SUBSYSTEM_VENDOR_ID),
         C["WREN_PCI_SUBSYS_ID"] << 16 | C["WREN_PCI_SUBSYS_VENDOR_ID"],
         "%s: subsystem %04x:%04x" % (machine, C["WREN_PCI_SUBSYS_VENDOR_ID"],
                                      C["WREN_PCI_SUBSYS_ID"]))
    t.eq(q.cfg_read(devfn, PCI_INTERRUPT_PIN, 1), 0,
         "%s: no INTx pin (MSI-X only)" % machine)


def check_q35(t):
    vectors = 32
    q = QTest(["-machine", "q35", "-netdev", "user,id=n0",
               "-device", "wren,netdev=n0,mac=52:54:00:12:34:56,vectors=%d" % vectors],
              qmp=True)
    try:
        devfn = find_wren(q)
        check_identity(t, q, devfn, "q35")

        exp = find_cap(q, devfn, PCI_CAP_ID_EXP)
        t.result(exp != 0, "q35: PCI Express capability present")
        if exp:
            ptype = q.cfg_read(devfn, exp + PCI_EXP_FLAGS, 2) >> 4 & 0xf
            t.result(ptype in (PCI_EXP_TYPE_ENDPOINT, PCI_EXP_TYPE_RC_END),
                     "q35: PCIe device type is an endpoint", "type %d" % ptype)
            t.result(q.cfg_read(devfn, exp + PCI_EXP_DEVCAP) & PCI_EXP_DEVCAP_FLR != 0,
                     "q35: DEVCAP advertises FLR")

        msix = find_cap(q, devfn, PCI_CAP_ID_MSIX)
        t.result(msix != 0, "q35: MSI-X capability present")
        if msix:
            t.eq((q.cfg_read(devfn, msix + PCI_MSIX_FLAGS, 2) & 0x7ff) + 1, vectors,
                 "q35: MSI-X table has %d vectors" % vectors)
            t.eq((q.cfg_read(devfn, msix + PCI_MSIX_TABLE) & 7,
                  q.cfg_read(devfn, msix + PCI_MSIX_PBA) & 7),
                 (C["WREN_BAR_MSIX"], C["WREN_BAR_MSIX"]),
                 "q35: MSI-X table and PBA live in BAR%d" % C["WREN_BAR_MSIX"])

        flags0, size0 = bar_info(q, devfn, C["WREN_BAR_REGS"])
        t.eq((flags0, size0), (0x4, C["WREN_REGS_SIZE"]),
             "q35: BAR0 is 64-bit memory, %d KiB" % (C["WREN_REGS_SIZE"] >> 10))
        flags2, size2 = bar_info(q, devfn, C["WREN_BAR_DB"])
        t.result(flags2 == 0xc and size2 >= C["WREN_DB_PAGE_SIZE"] and
                 size2 & (size2 - 1) == 0,
                 "q35: BAR2 is 64-bit prefetchable memory, whole doorbell pages",
                 "flags 0x%x size 0x%x" % (flags2, size2))
        flags4, size4 = bar_info(q, devfn, C["WREN_BAR_MSIX"])
        t.result(flags4 == 0x4 and size4 >= vectors * 16,
                 "q35: BAR4 is 64-bit memory holding the MSI-X table",
                 "flags 0x%x size 0x%x" % (flags4, size4))

        place_bars(q, devfn)
        t.eq(reg(q, "WREN_REG_MAGIC"), C["WREN_MAGIC"],
             "q35: BAR0 MAGIC register reads 'WREN' through the model")
        t.eq(reg(q, "WREN_REG_NUM_MSIX"), vectors,
             "q35: NUM_MSIX register matches the vectors property")
        pages = reg(q, "WREN_REG_NUM_DB_PAGES")
        t.result(0 < pages and pages * C["WREN_DB_PAGE_SIZE"] <= size2,
                 "q35: NUM_DB_PAGES doorbell pages fit in BAR2",
                 "%d pages, BAR2 0x%x" % (pages, size2))
        t.eq(q.read(BAR_ADDR[0] + C["WREN_REG_MAGIC"], 1), 0xff,
             "q35: 1-byte register read answers all-ones")
        t.eq(q.read(BAR_ADDR[0] + C["WREN_REG_MAGIC"], 2), 0xffff,
             "q35: 2-byte register read answers all-ones")
        t.eq(q.read(BAR_ADDR[0] + C["WREN_REG_MAGIC"] + 2, 4), 0xffffffff,
             "q35: misaligned 4-byte read answers all-ones")
        t.eq(q.read(BAR_ADDR[4] + 12, 4), 1,
             "q35: MSI-X vector 0 starts masked (table mapped in BAR4)")

        # A RW register survives until a Function Level Reset clears it.
        base = "WREN_REG_AQ_BASE_LO"
        q.write(BAR_ADDR[0] + C[base], 0x12345000, 4)
        before = reg(q, base)
        q.write(BAR_ADDR[0] + C[base], 0x0badf000, 2)  # dropped: bad size
        t.eq((before, reg(q, base)), (0x12345000, 0x12345000),
             "q35: AQ_BASE_LO holds a 4-byte write, ignores a 2-byte one")
        if exp:
            q.cfg_write(devfn, exp + PCI_EXP_DEVCTL,
                        q.cfg_read(devfn, exp + PCI_EXP_DEVCTL, 2) |
                        PCI_EXP_DEVCTL_BCR_FLR, 2)
            t.eq(q.cfg_read(devfn, PCI_COMMAND, 2) & PCI_COMMAND_MEMORY, 0,
                 "q35: FLR resets the function's config space")
            place_bars(q, devfn)
            t.eq(reg(q, base), 0, "q35: FLR resets the model (AQ_BASE_LO back to 0)")
            t.eq(reg(q, "WREN_REG_MAGIC"), C["WREN_MAGIC"],
                 "q35: the model answers again after FLR")

        link = C["WREN_STATUS_LINK_UP"]
        up = reg(q, "WREN_REG_STATUS") & link
        q.qmp("set_link", name="n0", up=False)
        down = reg(q, "WREN_REG_STATUS") & link
        q.qmp("set_link", name="n0", up=True)
        again = reg(q, "WREN_REG_STATUS") & link
        t.eq((up, down, again), (link, 0, link),
             "q35: STATUS.LINK_UP follows the netdev link (set_link down/up)")
    except Exception as e:  # a dead QEMU fails the remaining checks below
        t.result(False, "q35: qtest session ran to the end", e)
    finally:
        q.close()
    t.eq(q.proc.returncode, 0, "q35: QEMU exited cleanly")


def poll(q, fn, tries=200, secs=10):
    """Let the device work (bottom halves run between qtest commands, timers
    need virtual time) until fn() is true; returns fn()'s last value.
    Frames from a wire= socket arrive through the wire's reading thread,
    in wall time, not between qtest commands: on a loaded host the tries
    can be spent before it runs, so polling goes on, 1 ms apart, for up
    to secs more."""
    deadline = None
    for n in range(tries + secs * 1000):
        v = fn()
        if v:
            return v
        if n >= tries:
            deadline = deadline or time.monotonic() + secs
            if time.monotonic() > deadline:
                break
            time.sleep(0.001)
        q.cmd("clock_step 100000")
    return fn()


def aq_start(t, q, devfn, name, ram):
    """Reset the NIC at devfn (BARs placed), point MSI-X vector 1 at
    ram["msi"], bring up AQ/ACQ/AEQ in ram; returns submit(slot, cmd_id,
    out_addr), which posts one QUERY_DEVICE and waits for its completion."""
    L = layout()
    regs = BAR_ADDR[0]
    status = lambda: reg(q, "WREN_REG_STATUS")
    q.write(regs + C["WREN_REG_CONTROL"], C["WREN_CONTROL_RESET"], 4)
    ready = poll(q, lambda: status() & C["WREN_STATUS_READY"] and
                 not status() & C["WREN_STATUS_RESETTING"])
    t.result(bool(ready), "%s: device READY after CONTROL.RESET" % name)

    # MSI-X vector 1 writes 0x5151 to guest RAM, where qtest can see it.
    msix = find_cap(q, devfn, PCI_CAP_ID_MSIX)
    entry = BAR_ADDR[4] + 1 * 16
    q.write(entry, ram["msi"], 4)
    q.write(entry + 4, 0, 4)
    q.write(entry + 8, 0x5151, 4)
    q.write(entry + 12, 0, 4)
    q.cfg_write(devfn, msix + PCI_MSIX_FLAGS, 0x8000, 2)
    q.write(regs + C["WREN_REG_MGMT_VECTOR"], 1, 4)

    q.cmd("memset 0x%x 0x4000 0" % ram["aq"])
    for ring in ("aq", "acq", "aeq"):
        q.write(regs + C["WREN_REG_%s_BASE_LO" % ring.upper()], ram[ring], 4)
        q.write(regs + C["WREN_REG_%s_BASE_HI" % ring.upper()], 0, 4)
        q.write(regs + C["WREN_REG_%s_LOG_SIZE" % ring.upper()], 2, 4)
    q.write(regs + C["WREN_REG_CONTROL"],
            C["WREN_CONTROL_AQ_ENABLE"] | C["WREN_CONTROL_AEQ_ENABLE"], 4)
    aq_ready = poll(q, lambda: status() & C["WREN_STATUS_AQ_READY"])
    t.result(bool(aq_ready), "%s: AQ_READY after enable" % name,
             "AQ_ERROR %d" % reg(q, "WREN_REG_AQ_ERROR"))
    q.write(regs + C["WREN_REG_ACQ_CI"], C["WREN_ARM"], 4)

    def submit(slot, cmd_id, out_addr):
        cmd = ram["aq"] + slot * C["WREN_AQ_CMD_SIZE"]
        q.write(cmd + L["cmd.opcode"], C["WREN_AQ_OP_QUERY_DEVICE"], 1)
        q.write(cmd + L["cmd.cmd_id"], cmd_id, 2)
        q.write(cmd + L["cmd.out_len"], L["dev.size"], 4)
        q.write(cmd + L["cmd.out_addr"], out_addr, 8)
        q.write(regs + C["WREN_REG_AQ_PI"], slot + 1, 4)
        cqe = ram["acq"] + slot * C["WREN_ACQ_ENTRY_SIZE"]
        done = poll(q, lambda: q.read(cqe + L["acq.owner"], 1) & 1)
        return done, (q.read(cqe + L["acq.cmd_id"], 2),
                      q.read(cqe + L["acq.status"], 1),
                      q.read(cqe + L["acq.out_len"], 4))
    return submit


def check_admin_queue(t, iommu=False):
    """One admin command end to end: the model fetches it by DMA, completes it
    by DMA and signals MSI-X, all through the glue; then a DMA the bus
    refuses, and bus mastering switched off.  With iommu, the same with
    intel-iommu in the machine (translation off until a guest enables it),
    so DMA takes the IOMMU's address space."""
    L = layout()
    vectors, mac = 8, "52:54:00:ab:cd:ef"
    ram = {"msi": 0x200000, "aq": 0x300000, "acq": 0x301000, "aeq": 0x302000,
           "out": 0x303000}
    extra = ["-device", "intel-iommu,intremap=off"] if iommu else []
    q = QTest(["-machine", "q35"] + extra +
              ["-device", "wren,mac=%s,vectors=%d" % (mac, vectors)])
    name = "admin queue" + (" (intel-iommu)" if iommu else "")
    try:
        devfn = find_wren(q)
        place_bars(q, devfn)
        regs = BAR_ADDR[0]
        status = lambda: reg(q, "WREN_REG_STATUS")
        submit = aq_start(t, q, devfn, name, ram)

        done, cqe = submit(0, 0x77, ram["out"])
        t.eq((bool(done), cqe), (True, (0x77, 0, L["dev.size"])),
             "%s: QUERY_DEVICE fetched and completed by DMA (id, OK, length)" % name)
        out = ram["out"]
        got_mac = ":".join("%02x" % q.read(out + L["dev.mac"] + i, 1) for i in range(6))
        t.eq((q.read(out + L["dev.contract_major"], 2),
              q.read(out + L["dev.num_msix"], 2), got_mac),
             (C["WREN_CONTRACT_MAJOR"], vectors, mac),
             "%s: device attributes DMA'd to RAM carry the contract, vectors, mac" % name)
        t.eq(q.read(ram["msi"], 4), 0x5151,
             "%s: the completion raised MSI-X vector 1 (MGMT_VECTOR)" % name)

        # 1 TiB is nowhere in this machine: the bus refuses the write.
        done, cqe = submit(1, 0x78, 1 << 40)
        t.eq((bool(done), cqe[:2]), (True, (0x78, C["WREN_AQ_STATUS_DMA_ERROR"])),
             "%s: output to an unbacked bus address completes with DMA_ERROR" % name)

        if iommu:
            return
        # Without bus mastering the device cannot even fetch the command.
        q.cfg_write(devfn, PCI_COMMAND, PCI_COMMAND_MEMORY, 2)
        q.write(ram["aq"] + 2 * C["WREN_AQ_CMD_SIZE"], C["WREN_AQ_OP_QUERY_DEVICE"], 1)
        q.write(regs + C["WREN_REG_AQ_PI"], 3, 4)
        fatal = poll(q, lambda: status() & C["WREN_STATUS_FATAL"])
        t.eq((bool(fatal), reg(q, "WREN_REG_FATAL_SYNDROME")), (True, C["WREN_FATAL_AQ_DMA"]),
             "%s: with bus mastering off the AQ fetch fails (FATAL, AQ_DMA)" % name)
    except Exception as e:
        t.result(False, "%s: qtest session ran to the end" % name, e)
    finally:
        q.close()


# The test GPU (hw/qemu/wren_gpu.c): our own ID next to the NIC's, class
# 0x030200 (3D controller), BAR2 64-bit prefetchable = its memdev.
GPU_ID = 0x0002 << 16 | 0x1f57
GPU_CLASS, GPU_BAR = 0x030200, 2
GPU_SIZE = 256 << 20
GPU_ADDR = 0xe0000000   # free on q35, below the IOAPIC, naturally aligned

# PCI-to-PCI bridge registers (type 1 header).
PCI_SECONDARY_BUS, PCI_SUBORDINATE_BUS = 0x19, 0x1a
PCI_MEMORY_BASE, PCI_PREF_MEMORY_BASE = 0x20, 0x24
PCI_PREF_BASE_UPPER32, PCI_PREF_LIMIT_UPPER32 = 0x28, 0x2c


def gpu_args(path, size=GPU_SIZE, dev_id="gpu0", extra=""):
    return ["-object", "memory-backend-file,id=%s-mem,size=%d,mem-path=%s,share=on"
            % (dev_id, size, path),
            "-device", "wren-gpu,id=%s,memdev=%s-mem%s" % (dev_id, dev_id, extra)]


def file_read(path, off, n):
    with open(path, "rb") as f:
        f.seek(off)
        return f.read(n)


def file_write(path, off, data):
    with open(path, "r+b") as f:
        f.seek(off)
        f.write(data)


def set_bridge(q, bdf, secondary, subordinate, mem, pref):
    """Give a bridge its buses and its memory and 64-bit prefetchable
    windows (each an inclusive (base, limit) pair), as firmware would."""
    q.cfg_write(bdf, PCI_SECONDARY_BUS, secondary, 1)
    q.cfg_write(bdf, PCI_SUBORDINATE_BUS, subordinate, 1)
    q.cfg_write(bdf, PCI_MEMORY_BASE, (mem[0] >> 16 & 0xfff0) |
                (mem[1] >> 16 & 0xfff0) << 16)
    q.cfg_write(bdf, PCI_PREF_MEMORY_BASE, (pref[0] >> 16 & 0xfff0) |
                (pref[1] >> 16 & 0xfff0) << 16)
    q.cfg_write(bdf, PCI_PREF_BASE_UPPER32, pref[0] >> 32)
    q.cfg_write(bdf, PCI_PREF_LIMIT_UPPER32, pref[1] >> 32)
    q.cfg_write(bdf, PCI_COMMAND, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, 2)


def check_gpu(t):
    """The test GPU alone on q35: identity, BAR2, and its memory shared
    with the host file both ways."""
    name = "wren-gpu"
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "gpu-mem")
        q = QTest(["-machine", "q35"] + gpu_args(path, extra=",addr=5"))
        try:
            devfn = 5 << 3
            t.eq(q.cfg_read(devfn, PCI_VENDOR_ID), GPU_ID,
                 "%s: vendor:device is 1f57:0002" % name)
            t.eq(q.cfg_read(devfn, PCI_REVISION_ID) >> 8, GPU_CLASS,
                 "%s: class 0x%06x (3D controller)" % (name, GPU_CLASS))
            t.result(find_cap(q, devfn, PCI_CAP_ID_EXP) != 0,
                     "%s: PCI Express capability present" % name)
            t.eq(bar_info(q, devfn, GPU_BAR), (0xc, GPU_SIZE),
                 "%s: BAR2 is 64-bit prefetchable memory of the memdev's 256 MiB" % name)
            t.eq(os.path.getsize(path), GPU_SIZE,
                 "%s: the backing file has the BAR's size" % name)
            q.cfg_write(devfn, PCI_BAR0 + 4 * GPU_BAR, GPU_ADDR & 0xffffffff)
            q.cfg_write(devfn, PCI_BAR0 + 4 * GPU_BAR + 4, GPU_ADDR >> 32)
            q.cfg_write(devfn, PCI_COMMAND, PCI_COMMAND_MEMORY, 2)
            q.write(GPU_ADDR + 0x1000, 0x0123456789abcdef, 8)
            q.write(GPU_ADDR + GPU_SIZE - 4, 0xfeedf00d, 4)
            t.eq((file_read(path, 0x1000, 8), file_read(path, GPU_SIZE - 4, 4)),
                 ((0x0123456789abcdef).to_bytes(8, "little"),
                  (0xfeedf00d).to_bytes(4, "little")),
                 "%s: CPU writes to BAR2 (first page, last word) land in the host file" % name)
            file_write(path, 0x2000, b"HOSTSIDE")
            t.eq(q.read(GPU_ADDR + 0x2000, 8), int.from_bytes(b"HOSTSIDE", "little"),
                 "%s: what the host writes into the file reads back through BAR2" % name)
        except Exception as e:
            t.result(False, "%s: qtest session ran to the end" % name, e)
        finally:
            q.close()
        t.eq(q.proc.returncode, 0, "%s: QEMU exited cleanly" % name)

    for bad, why, what in (([], "memdev", "without memdev"),
                           (["small"], "256 MiB", "with a 1 MiB memdev"),
                           (["shared"], "in use", "with a memdev another wren-gpu has")):
        with tempfile.TemporaryDirectory() as d:
            if not bad:
                args = ["-device", "wren-gpu"]
            elif bad[0] == "small":
                args = gpu_args(os.path.join(d, "m"), size=1 << 20)
            else:
                args = gpu_args(os.path.join(d, "m")) + \
                    ["-device", "wren-gpu,memdev=gpu0-mem"]
            r = run_qemu(["-machine", "q35", "-accel", "qtest", "-display", "none",
                          "-nodefaults"] + args)
            t.result(r.returncode == 1 and why in r.stderr,
                     "%s %s is refused with an error" % (name, what),
                     "rc %d: %s" % (r.returncode, r.stderr.strip()))


def check_gpu_dma(t, switch, iommu):
    """The NIC DMAs into the GPU's BAR: a QUERY_DEVICE whose output buffer
    is a bus address inside BAR2 shows up in the GPU's host file.  On the
    root bus, or with NIC and GPU under one x3130/xio3130 switch (buses and
    windows set up here as firmware would); with or without intel-iommu
    (translation off, so DMA still takes the IOMMU's address space)."""
    L = layout()
    mac = "52:54:00:67:70:75"
    ram = {"msi": 0x200000, "aq": 0x300000, "acq": 0x301000, "aeq": 0x302000}
    name = "NIC DMA into GPU BAR (%s%s)" % ("switch" if switch else "root bus",
                                            ", intel-iommu" if iommu else "")
    extra = ["-device", "intel-iommu,intremap=off"] if iommu else []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "gpu-mem")
        if switch:
            topo = ["-device", "pcie-root-port,id=rp0,chassis=1,addr=4",
                    "-device", "x3130-upstream,id=up0,bus=rp0",
                    "-device", "xio3130-downstream,id=dn0,bus=up0,addr=0,chassis=2,slot=0",
                    "-device", "xio3130-downstream,id=dn1,bus=up0,addr=1,chassis=3,slot=0",
                    "-device", "wren,bus=dn0,mac=%s,vectors=8" % mac]
            topo += gpu_args(path, extra=",bus=dn1")
            nic, gpu = 3 << 8, 4 << 8
        else:
            topo = ["-device", "wren,addr=6,mac=%s,vectors=8" % mac] + \
                gpu_args(path, extra=",addr=5")
            nic, gpu = 6 << 3, 5 << 3
        q = QTest(["-machine", "q35"] + extra + topo)
        try:
            if switch:
                mem = (0xc0000000, 0xcfffffff)          # NIC BAR0, BAR4
                pref = (0xd0000000, 0xefffffff)         # NIC BAR2, GPU BAR2
                set_bridge(q, 4 << 3, 1, 4, mem, pref)  # root port
                set_bridge(q, 1 << 8, 2, 4, mem, pref)  # switch upstream
                set_bridge(q, 2 << 8 | 0 << 3, 3, 3, mem, (0xd0000000, 0xdfffffff))
                set_bridge(q, 2 << 8 | 1 << 3, 4, 4, (0xfff00000, 0),  # no window
                           (GPU_ADDR, GPU_ADDR + GPU_SIZE - 1))
            t.eq((q.cfg_read(nic, PCI_VENDOR_ID), q.cfg_read(gpu, PCI_VENDOR_ID)),
                 (C["WREN_PCI_DEVICE_ID"] << 16 | C["WREN_PCI_VENDOR_ID"], GPU_ID),
                 "%s: NIC and GPU found where placed" % name)
            place_bars(q, nic)
            q.cfg_write(gpu, PCI_BAR0 + 4 * GPU_BAR, GPU_ADDR & 0xffffffff)
            q.cfg_write(gpu, PCI_BAR0 + 4 * GPU_BAR + 4, GPU_ADDR >> 32)
            q.cfg_write(gpu, PCI_COMMAND, PCI_COMMAND_MEMORY, 2)
            t.eq(reg(q, "WREN_REG_MAGIC"), C["WREN_MAGIC"],
                 "%s: NIC registers reachable" % name)
            submit = aq_start(t, q, nic, name, ram)
            off = 0x40000
            # Control: with the GPU's memory decoding off nothing answers
            # at that bus address, so the same DMA fails and leaves no trace.
            q.cfg_write(gpu, PCI_COMMAND, 0, 2)
            done, cqe = submit(0, 0x98, GPU_ADDR + off)
            t.eq((bool(done), cqe[:2], file_read(path, off, L["dev.size"]).count(0)),
                 (True, (0x98, C["WREN_AQ_STATUS_DMA_ERROR"]), L["dev.size"]),
                 "%s: with the GPU's BAR disabled the same DMA fails (DMA_ERROR)" % name)
            q.cfg_write(gpu, PCI_COMMAND, PCI_COMMAND_MEMORY, 2)
            slot = 1
            if switch:
                # Control: the GPU's downstream port without a window
                # forwards nothing to it: the switch's routing is modelled.
                dn1 = 2 << 8 | 1 << 3
                q.cfg_write(dn1, PCI_PREF_MEMORY_BASE, 0x0000fff0)
                done, cqe = submit(slot, 0x97, GPU_ADDR + off)
                t.eq((bool(done), cqe[:2]), (True, (0x97, C["WREN_AQ_STATUS_DMA_ERROR"])),
                     "%s: with the GPU's downstream port window closed it fails" % name)
                q.cfg_write(dn1, PCI_PREF_MEMORY_BASE, (GPU_ADDR >> 16 & 0xfff0) |
                            ((GPU_ADDR + GPU_SIZE - 1) >> 16 & 0xfff0) << 16)
                slot += 1
            done, cqe = submit(slot, 0x99, GPU_ADDR + off)
            t.eq((bool(done), cqe), (True, (0x99, 0, L["dev.size"])),
                 "%s: QUERY_DEVICE into BAR2 completes OK" % name)
            t.eq((file_read(path, off + L["dev.mac"], 6).hex(":"),
                  int.from_bytes(file_read(path, off + L["dev.contract_major"], 2), "little")),
                 (mac, C["WREN_CONTRACT_MAJOR"]),
                 "%s: the device attributes are in the GPU's host file" % name)
        except Exception as e:
            t.result(False, "%s: qtest session ran to the end" % name, e)
        finally:
            q.close()



def hot_remove(q, dev_id, slot):
    """device_del, then the eject the guest's ACPI code would do (pc):
    whether the wren is gone."""
    q.qmp("device_del", id=dev_id)
    q.cmd("outl 0xae08 0x%x" % (1 << slot))   # ACPI PCI eject register
    return poll(q, lambda: "wren" not in qom_devices(q), tries=20)


def check_hotplug(t, rounds=3):
    """Hot-add and hot-remove (ACPI PCI hotplug on pc, the eject done here as
    the guest's ACPI code would), so realize and exit run in pairs."""
    slot = 6
    q = QTest(["-machine", "pc", "-netdev", "user,id=n0"], qmp=True)
    name = "pc hotplug"
    try:
        for i in range(rounds):
            q.qmp("device_add", driver="wren", id="hp", bus="pci.0",
                  addr="0x%x" % slot, netdev="n0")
            added = q.cfg_read(slot << 3, PCI_VENDOR_ID) & 0xffff
            gone = hot_remove(q, "hp", slot)
            if added != C["WREN_PCI_VENDOR_ID"] or not gone:
                break
        t.result(added == C["WREN_PCI_VENDOR_ID"] and gone,
                 "%s: %d rounds of device_add/device_del of wren" % (name, rounds),
                 "round %d: vendor 0x%x, removed %s" % (i, added, gone))
    except Exception as e:
        t.result(False, "%s: qtest session ran to the end" % name, e)
    finally:
        q.close()
    t.eq(q.proc.returncode, 0, "%s: QEMU exited cleanly" % name)


def check_pc(t):
    pages = 100     # not a power of two: the BAR rounds up, the model does not
    q = QTest(["-machine", "pc", "-device", "wren,db-pages=%d" % pages])
    try:
        devfn = find_wren(q)
        check_identity(t, q, devfn, "pc")
        t.eq(bar_info(q, devfn, C["WREN_BAR_DB"])[1], 512 << 10,
             "pc: db-pages=%d gives a 512 KiB BAR2" % pages)
        place_bars(q, devfn)
        t.eq(reg(q, "WREN_REG_MAGIC"), C["WREN_MAGIC"],
             "pc: BAR0 MAGIC register reads through the model")
        t.eq(reg(q, "WREN_REG_NUM_DB_PAGES"), pages,
             "pc: NUM_DB_PAGES reports the db-pages property")
    except Exception as e:
        t.result(False, "pc: qtest session ran to the end", e)
    finally:
        q.close()


def check_topologies(t):
    """Realize behind a root port and behind a PCIe switch (no config needed)."""
    for name, args in (
        ("q35 root port", ["-device", "pcie-root-port,id=rp0,chassis=1",
                           "-device", "wren,bus=rp0"]),
        ("q35 PCIe switch", ["-device", "pcie-root-port,id=rp0,chassis=1",
                             "-device", "x3130-upstream,id=up0,bus=rp0",
                             "-device", "xio3130-downstream,id=dn0,bus=up0,chassis=2,slot=0",
                             "-device", "wren,bus=dn0",
                             "-device", "xio3130-downstream,id=dn1,bus=up0,chassis=3,slot=0",
                             "-device", "wren,bus=dn1"]),
        ("q35 PCIe switch, wren beside wren-gpu",
         ["-device", "pcie-root-port,id=rp0,chassis=1",
          "-device", "x3130-upstream,id=up0,bus=rp0",
          "-device", "xio3130-downstream,id=dn0,bus=up0,chassis=2,slot=0",
          "-device", "wren,bus=dn0",
          "-device", "xio3130-downstream,id=dn1,bus=up0,chassis=3,slot=0",
          "-object", "memory-backend-ram,id=gm,size=256M",
          "-device", "wren-gpu,bus=dn1,memdev=gm"]),
    ):
        q = QTest(["-machine", "q35"] + args, qmp=True)
        try:
            found = [d for d in qom_devices(q) if d == "wren"]
            t.eq(len(found), sum(a.startswith("wren,") for a in args),
                 "%s: wren realizes there" % name)
            if any(a.startswith("wren-gpu") for a in args):
                t.eq(qom_devices(q).count("wren-gpu"), 1,
                     "%s: wren-gpu realizes there" % name)
        except Exception as e:
            t.result(False, "%s: wren realizes there" % name, e)
        finally:
            q.close()


def qom_devices(q):
    """Type names of every device in the machine (walks /machine)."""
    types = []

    def walk(path):
        for prop in q.qmp("qom-list", path=path):
            if prop["type"].startswith("child<"):
                child = path + "/" + prop["name"]
                types.append(prop["type"][6:-1])
                walk(child)
    walk("/machine")
    return types


def phy_frame(up, speed=100000):
    """The fabric's PHY status frame (hw/src/port/port.c)."""
    return (bytes([0x02, 0x57, 0x52, 0x45, 0x4e, 0x00]) + bytes(6) +
            b"\x88\xb6" + b"WPHY" + bytes([1, 1 if up else 0, 0, 0]) +
            speed.to_bytes(4, "big"))


def stream_record(frame):
    return len(frame).to_bytes(4, "big") + frame


def check_wire(t):
    """-device wren,wire=: the device's own cable to a fabric port, played
    here by a unix socket server: batched frames in one write, a frame
    split across writes, bad framing and a closed peer."""
    tmp = tempfile.mkdtemp(prefix="wren-wire.")
    path = os.path.join(tmp, "port0.sock")
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)
    srv.settimeout(TIMEOUT)
    for bad in (",netdev=n0", ""):
        args = ["-machine", "q35", "-accel", "qtest", "-display", "none",
                "-nodefaults", "-netdev", "user,id=n0",
                "-device", "wren,wire=%s%s" % (os.path.join(tmp, "none.sock")
                                               if not bad else path, bad)]
        r = run_qemu(args)
        what = "with a netdev too" if bad else "to a missing socket"
        t.result(r.returncode == 1 and "wire" in r.stderr,
                 "wire: -device wren,wire= %s is refused with an error" % what,
                 "rc %d: %s" % (r.returncode, r.stderr.strip()))
    link_up = C["WREN_STATUS_LINK_UP"]
    for end in ("bad length", "peer close"):
        q = QTest(["-machine", "q35", "-device", "wren,wire=" + path])
        conn = None
        try:
            conn, _ = srv.accept()
            devfn = find_wren(q)
            place_bars(q, devfn)
            status = lambda: reg(q, "WREN_REG_STATUS")
            t.result(status() & link_up, "wire (%s): link up once connected" % end)
            # Nine frames the model drops, then PHY down, in one write.
            junk = stream_record(bytes(60))
            conn.sendall(junk * 9 + stream_record(phy_frame(False)))
            t.result(poll(q, lambda: not status() & link_up),
                     "wire (%s): the 10th frame of one write is received" % end)
            rec = stream_record(phy_frame(True))
            conn.sendall(rec[:7])
            time.sleep(0.05)
            conn.sendall(rec[7:])
            t.result(poll(q, lambda: status() & link_up),
                     "wire (%s): a frame split across writes is received" % end)
            if end == "bad length":
                conn.sendall(bytes(4))
            else:
                conn.close()
                conn = None
            t.result(poll(q, lambda: not status() & link_up),
                     "wire (%s): link down afterwards, QEMU still running" % end)
        except Exception as e:
            t.result(False, "wire (%s): qtest session ran to the end" % end, e)
        finally:
            if conn:
                conn.close()
            q.close()
            err = q.proc.stderr.read()
            t.result(q.proc.returncode == 0 and "wire closed" in err,
                     "wire (%s): QEMU says why the wire closed, exits 0" % end,
                     "rc %s: %s" % (q.proc.returncode, err.strip()))
    check_wire_unplug(t, srv, path)
    srv.close()
    os.unlink(path)
    os.rmdir(tmp)


def read_to_eof(conn):
    """Whether the peer closes conn within TIMEOUT (what it sends is read)."""
    conn.settimeout(TIMEOUT)
    try:
        while conn.recv(65536):
            pass
        return True
    except OSError:
        return False


def check_wire_unplug(t, srv, path, rounds=2, slot=6):
    """Hot-remove a wired NIC while the fabric is still sending: the wire's
    reading thread ends (QEMU waits for it) and the socket is closed."""
    name = "wire (unplug)"
    q = QTest(["-machine", "pc"], qmp=True)
    closed = gone = False
    try:
        for i in range(rounds):
            q.qmp("device_add", driver="wren", id="hp", bus="pci.0",
                  addr="0x%x" % slot, wire=path)
            conn, _ = srv.accept()
            # Frames the model drops, in flight while the device goes.
            conn.sendall(stream_record(bytes(60)) * 2000)
            gone = hot_remove(q, "hp", slot)
            closed = read_to_eof(conn)
            conn.close()
            if not gone or not closed:
                break
        t.result(gone and closed,
                 "%s: %d rounds of device_add/device_del, the socket closed each time"
                 % (name, rounds),
                 "round %d: removed %s, closed %s" % (i, gone, closed))
    except Exception as e:
        t.result(False, "%s: qtest session ran to the end" % name, e)
    finally:
        q.close()
    t.eq(q.proc.returncode, 0, "%s: QEMU exited cleanly" % name)


def check_cli(t):
    r = run_qemu(["-device", "help"])
    t.result(r.returncode == 0 and re.search(r'^name "wren"', r.stdout, re.M),
             "-device help lists wren", r.stderr)
    r = run_qemu(["-device", "help"])
    t.result(r.returncode == 0 and re.search(r'^name "wren-gpu"', r.stdout, re.M),
             "-device help lists wren-gpu", r.stderr)
    r = run_qemu(["-device", "wren-gpu,help"])
    t.result(r.returncode == 0 and "memdev=" in r.stdout,
             "-device wren-gpu,help lists memdev", r.stdout + r.stderr)
    r = run_qemu(["-device", "wren,help"])
    t.result(r.returncode == 0 and all(p in r.stdout for p in
                                       ("netdev=", "wire=", "mac=", "vectors=",
                                        "db-pages=")),
             "-device wren,help lists netdev, wire, mac, vectors, db-pages", r.stdout + r.stderr)
    for bad in ("vectors=1", "vectors=4096", "db-pages=0"):
        r = run_qemu(["-machine", "q35", "-accel", "qtest", "-display", "none",
                      "-nodefaults", "-device", "wren," + bad])
        t.result(r.returncode == 1 and bad.split("=")[0] in r.stderr,
                 "-device wren,%s is refused with an error, not a crash" % bad,
                 "rc %d: %s" % (r.returncode, r.stderr.strip()))


def check_qmp_virtio(t):
    """vmrun.sh's HANG_DUMP reads a hung guest's virtio queues with
    tools/testbench/qmp-virtio.py: it must keep working with our QEMU."""
    tool = QMP_VIRTIO.__file__
    q = QTest(["-machine", "q35", "-device", "virtio-net-pci"], qmp=True)
    try:
        for _ in range(100):
            if os.path.exists(q.qmp_path):
                break
            time.sleep(0.05)
        r = subprocess.run([sys.executable, tool, q.qmp_path],
                           capture_output=True, text=True, timeout=TIMEOUT)
        lines = [json.loads(line) for line in r.stdout.splitlines()]
        queues = [x for x in lines if "queue" in x]
        t.result(r.returncode == 0 and lines and "query-status" in lines[0],
                 "qmp-virtio.py: QEMU's run state over QMP", r.stderr)
        t.result(any(x.get("device", {}).get("name") == "virtio-net"
                     for x in lines),
                 "qmp-virtio.py: the virtio-net device and its status",
                 r.stdout)
        t.eq(sorted((x["queue"], "last-avail-idx" in x["status"].get("return", {}))
                    for x in queues),
             [(0, True), (1, True), (2, True)],
             "qmp-virtio.py: each virtio-net queue's indices (rx, tx, ctrl)")
    finally:
        q.close()
    r = subprocess.run([sys.executable, tool, os.path.join(q.tmp, "none")],
                       capture_output=True, text=True, timeout=TIMEOUT)
    t.result(r.returncode == 1 and "qmp-virtio:" in r.stderr,
             "qmp-virtio.py: no QMP socket is exit 1 with a message",
             "rc %d: %s" % (r.returncode, r.stderr))


def main():
    t = Tap()
    if not os.access(QEMU, os.X_OK):
        t.result(False, "QEMU binary %s exists (make qemu)" % QEMU)
    else:
        check_cli(t)
        check_qmp_virtio(t)
        check_q35(t)
        check_wire(t)
        check_admin_queue(t)
        check_admin_queue(t, iommu=True)
        check_pc(t)
        check_hotplug(t)
        check_topologies(t)
        check_gpu(t)
        for switch in (False, True):
            for iommu in (False, True):
                check_gpu_dma(t, switch, iommu)
    t.write(os.path.join(BUILD, "check", "qemu.tap"))
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
