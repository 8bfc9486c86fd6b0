#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""wren_peer_mem.ko and wren_ib.ko's peer MRs with the test client of
selftests/driver/peer_mem (wren_peer_test.ko, host memory in 64 KiB "GPU
pages" mapped VM_PFNMAP): registration through each kind of client, the
MTT at 64 KiB, the table trimmed and given back intact, the counters in
/sys/kernel/mm/memory_peers, invalidation with and without
PEER_MEM_INVALIDATE_UNMAPS, deregistration after it, rereg refused, an
unclaimed range failing with EFAULT, registrations racing with a process
that invalidates in a loop, and unregistering a client waiting
for its last MR (rmmod wren_peer_test).  One "ok - ..." or
"not ok - ..." line per check, diagnostics as "# ..." lines.

usage: wren_peer_mem.py IBDEV
"""
import ctypes
import os
import re
import subprocess
import sys
import time

import pyverbs.enums as e
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD

CHUNK = 1 << 16
PAGE = os.sysconf('SC_PAGE_SIZE')
PEERS = '/sys/kernel/mm/memory_peers'
ACCESS = (e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE |
          e.IBV_ACCESS_REMOTE_READ)
COUNTERS = ('num_alloc_mrs', 'num_dealloc_mrs', 'num_reg_pages',
            'num_dereg_pages', 'num_reg_bytes', 'num_dereg_bytes',
            'num_free_callbacks')

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                      ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
MAP_FAILED = ctypes.c_void_p(-1).value

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
from tap import Tap  # noqa: E402

# Unnumbered: wren-peer-mem.sh counts the lines into its own stream.
tap = Tap(numbered=False)


def result(ok, desc, why=''):
    """A failure's reason goes on its result line, where the relay keeps it."""
    tap.ok(ok, desc + (f' ({why})' if why and not ok else ''))


def diag(text):
    tap.diag(str(text))


class Buf:
    """One open file of wren_peer_test.ko with LENGTH bytes mapped 64 KiB aligned."""

    def __init__(self, node, length):
        self.fd = os.open(f'/dev/{node}', os.O_RDWR)
        self.length = length
        res = libc.mmap(None, length + CHUNK, 0, 0x22, -1, 0)  # PROT_NONE, PRIVATE|ANON
        if res in (None, MAP_FAILED):
            raise OSError(ctypes.get_errno(), 'mmap reserve')
        addr = (res + CHUNK - 1) & ~(CHUNK - 1)
        got = libc.mmap(addr, length, 3, 0x11, self.fd, 0)  # RW, SHARED|FIXED
        if got in (None, MAP_FAILED):
            raise OSError(ctypes.get_errno(), f'mmap /dev/{node}')
        if addr > res:
            libc.munmap(res, addr - res)
        if res + length + CHUNK > addr + length:
            libc.munmap(addr + length, res + CHUNK - addr)
        self.addr = addr

    def counters(self):
        os.lseek(self.fd, 0, os.SEEK_SET)
        text = os.read(self.fd, 4096).decode()
        return {k: int(v) for k, v in (line.split() for line in text.splitlines())}

    def invalidate(self):
        os.write(self.fd, b'x')

    def close(self):
        if self.addr:
            libc.munmap(self.addr, self.length)
            self.addr = 0
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def peer_counters(client):
    return {c: int(open(f'{PEERS}/{client}/{c}').read()) for c in COUNTERS}


def delta(before, after):
    return {k: after[k] - before[k] for k in before}


def mr_line(mr):
    out = subprocess.run(['rdma', 'resource', 'show', 'mr', '-dd'],
                         capture_output=True, text=True, check=False).stdout
    for line in out.splitlines():
        if re.search(rf'\blkey 0x0*{mr.lkey:x}\b', line):
            return line
    diag(out)
    return ''


def attrs_ok(desc, line, want):
    # iproute2 prints the driver's attributes with a drv_ prefix.
    missing = [w for w in want if not re.search(rf'\bdrv_{re.escape(w)}\b', line)]
    result(not missing, desc, f'missing {missing} in: {line}')


def page_count(addr, length):
    first = addr & ~(PAGE - 1)
    end = (addr + length + PAGE - 1) & ~(PAGE - 1)
    return (end - first) // PAGE


def test_unmaps(pd):
    """Client wren_test: PEER_MEM_INVALIDATE_UNMAPS, as nv_mem."""
    buf = Buf('wren_peer_test', 1 << 20)
    before = peer_counters('wren_test')
    mr = MR(pd, buf.length, ACCESS, address=buf.addr)
    result(True, 'a VM_PFNMAP range of wren_test registers (1 MiB)')
    attrs_ok('restrack: kind peer, page_shift 16, 16 MTT entries, client wren_test',
             mr_line(mr), ['kind peer', 'page_shift 16', 'num_mtt 16',
                           'peer_client wren_test', 'invalidated 0'])
    # A sub-range not aligned to anything: the table is trimmed.
    sub_addr, sub_len = buf.addr + 2 * PAGE + 100, 100000
    sub = MR(pd, sub_len, ACCESS, address=sub_addr)
    attrs_ok('a sub-range at +8292, 100000 bytes: page_shift 16, 2 MTT entries',
             mr_line(sub), ['kind peer', 'page_shift 16', 'num_mtt 2'])
    d = delta(before, peer_counters('wren_test'))
    pages = buf.length // PAGE + page_count(sub_addr, sub_len)
    want = {'num_alloc_mrs': 2, 'num_reg_pages': pages,
            'num_reg_bytes': buf.length + sub_len}
    result(all(d[k] == v for k, v in want.items()),
           f'sysfs wren_test: 2 MRs, {pages} pages, {buf.length + sub_len} bytes', d)
    c = buf.counters()
    result(c['acquires'] == 2 and c['get_pages'] == 2 and c['dma_maps'] == 2,
           'the client saw 2 acquire, get_pages, dma_map', c)

    buf.invalidate()
    c = buf.counters()
    result(c['invalidations'] == 2 and c['dma_unmaps'] == 0 and
           c['put_pages'] == 0 and c['self_unmaps'] == 2,
           'invalidation with PEER_MEM_INVALIDATE_UNMAPS: no dma_unmap or put_pages from the core', c)
    d = delta(before, peer_counters('wren_test'))
    result(d['num_free_callbacks'] == 2 and d['num_dereg_pages'] == pages and
           d['num_dereg_bytes'] == buf.length + sub_len and d['num_dealloc_mrs'] == 0,
           'sysfs wren_test: 2 free callbacks, the pages and bytes deregistered', d)
    attrs_ok('restrack: the MR is invalidated', mr_line(mr), ['kind peer', 'invalidated 1'])
    try:
        mr.rereg(e.IBV_REREG_MR_CHANGE_ACCESS, access=e.IBV_ACCESS_LOCAL_WRITE)
        result(False, 'rereg of a peer MR fails with EOPNOTSUPP', 'it succeeded')
    except Exception as ex:  # pylint: disable=broad-except
        result('95' in str(ex) or 'EOPNOTSUPP' in str(ex) or 'not supported' in str(ex),
               'rereg of a peer MR fails with EOPNOTSUPP', ex)
    mr.close()
    sub.close()
    result(True, 'both invalidated MRs deregister')
    c = buf.counters()
    result(c['releases'] == 2 and c['dma_unmaps'] == 0 and c['bad_tables'] == 0,
           'release() only, after an invalidation', c)
    d = delta(before, peer_counters('wren_test'))
    result(d['num_dealloc_mrs'] == 2 and d['num_dereg_pages'] == pages,
           'sysfs wren_test: 2 MRs deallocated, pages counted once', d)
    buf.close()


def test_release(pd):
    """A never-invalidated MR: dma_unmap, put_pages, release, with the table as handed out."""
    buf = Buf('wren_peer_test', 4 * CHUNK)
    mr = MR(pd, 100000, ACCESS, address=buf.addr + 3 * PAGE + 1)
    mr.close()
    c = buf.counters()
    result(c['dma_unmaps'] == 1 and c['put_pages'] == 1 and c['releases'] == 1 and
           c['bad_tables'] == 0,
           'dereg of a trimmed MR: dma_unmap, put_pages, release, table restored', c)
    buf.close()


def test_legacy(pd):
    """Client wren_test_legacy: the core unmaps in the invalidation."""
    buf = Buf('wren_peer_test_legacy', 4 * CHUNK)
    before = peer_counters('wren_test_legacy')
    mr = MR(pd, buf.length, ACCESS, address=buf.addr)
    attrs_ok('wren_test_legacy registers: page_shift 16, 4 MTT entries',
             mr_line(mr), ['peer_client wren_test_legacy', 'page_shift 16', 'num_mtt 4'])
    buf.invalidate()
    c = buf.counters()
    result(c['invalidations'] == 1 and c['dma_unmaps'] == 1 and c['put_pages'] == 1 and
           c['self_unmaps'] == 0 and c['bad_tables'] == 0,
           'invalidation without the flag: the core calls dma_unmap and put_pages', c)
    mr.close()
    c = buf.counters()
    result(c['releases'] == 1 and c['dma_unmaps'] == 1 and c['put_pages'] == 1,
           'dereg after it: release() only', c)
    d = delta(before, peer_counters('wren_test_legacy'))
    result(d['num_alloc_mrs'] == 1 and d['num_dealloc_mrs'] == 1 and
           d['num_free_callbacks'] == 1 and d['num_dereg_pages'] == d['num_reg_pages'] == 64,
           'sysfs wren_test_legacy counters', d)
    buf.close()


def test_nc(pd):
    """Client wren_test_nc, registered without an invalidate callback."""
    buf = Buf('wren_peer_test_nc', 2 * CHUNK)
    mr = MR(pd, buf.length, ACCESS, address=buf.addr)
    attrs_ok('wren_test_nc (cannot invalidate) registers', mr_line(mr),
             ['peer_client wren_test_nc', 'page_shift 16'])
    buf.invalidate()
    result(buf.counters()['invalidations'] == 0, 'wren_test_nc has no invalidate function')
    mr.close()
    buf.close()


def test_none(pd):
    buf = Buf('wren_peer_test_none', CHUNK)
    try:
        MR(pd, buf.length, ACCESS, address=buf.addr).close()
        result(False, 'a VM_PFNMAP range no client claims fails with EFAULT', 'registered')
    except Exception as ex:  # pylint: disable=broad-except
        result('14' in str(ex) or 'Bad address' in str(ex),
               'a VM_PFNMAP range no client claims fails with EFAULT', ex)
    buf.close()


def test_race(pd, node, client, rounds=300):
    """Registrations and deregistrations while a child invalidates in a loop."""
    buf = Buf(node, 4 * CHUNK)
    before = peer_counters(client)
    child = os.fork()
    if child == 0:
        # The file is shared with the parent: its registrations are ours to invalidate.
        try:
            while True:
                os.write(buf.fd, b'x')
        finally:
            os._exit(0)
    errors = []
    start = time.time()
    for i in range(rounds):
        try:
            mr = MR(pd, 100000 + (i % 32) * PAGE, ACCESS, address=buf.addr + (i % 4) * PAGE)
            if i % 2:
                time.sleep(0.002)   # the child's turn, with the MR live
            mr.close()
        except Exception as ex:  # pylint: disable=broad-except
            errors.append(str(ex))
    os.kill(child, 9)
    os.waitpid(child, 0)
    took = time.time() - start
    c = buf.counters()
    d = delta(before, peer_counters(client))
    diag(f'{client}: {rounds} rounds in {took:.1f} s, {c["invalidations"]} invalidation calls, '
         f'{d["num_free_callbacks"]} free callbacks')
    result(not errors, f'{client}: {rounds} reg/dereg rounds under invalidations all succeed',
           errors[:3])
    result(c['bad_tables'] == 0 and c['acquires'] == c['releases'] == rounds,
           f'{client}: every acquire released, every table handed back intact', c)
    result(d['num_alloc_mrs'] == d['num_dealloc_mrs'] == rounds and
           d['num_reg_pages'] == d['num_dereg_pages'] and
           d['num_reg_bytes'] == d['num_dereg_bytes'],
           f'{client}: sysfs counters balance', d)
    buf.close()


def test_unregister_waits(pd):
    buf = Buf('wren_peer_test', 2 * CHUNK)
    mr = MR(pd, buf.length, ACCESS, address=buf.addr)
    buf.close()     # the module's last file: rmmod may start
    rm = subprocess.Popen(['rmmod', 'wren_peer_test'], stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    result(rm.poll() is None and os.path.exists(f'{PEERS}/wren_test'),
           'rmmod wren_peer_test waits while one of its MRs lives',
           f'rmmod ended: {rm.returncode} {rm.stderr.read() if rm.poll() is not None else ""}')
    mr.close()
    try:
        rc = rm.wait(timeout=60)
    except subprocess.TimeoutExpired:
        rc = 'still waiting after 60 s'
    result(rc == 0, 'it returns once the MR is deregistered', rc)
    result(not os.path.exists(f'{PEERS}/wren_test'),
           'memory_peers/wren_test is gone with the client')


def main():
    ctx = Context(name=sys.argv[1])
    pd = PD(ctx)
    race = [lambda pd, n=n, c=c: test_race(pd, n, c) for n, c in
            (('wren_peer_test', 'wren_test'), ('wren_peer_test_legacy', 'wren_test_legacy'))]
    for t in (test_unmaps, test_release, test_legacy, test_nc, test_none,
              *race, test_unregister_waits):
        try:
            t(pd)
        except Exception as ex:  # pylint: disable=broad-except
            result(False, f'{getattr(t, "__name__", "a test")} ran to its end',
                   f'{type(ex).__name__}: {ex}')
    pd.close()
    ctx.close()
    return tap.exit_code()


if __name__ == '__main__':
    sys.exit(main())
