#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Take kernel reports that are not Wren's out of a kernel log.

Reads a log on stdin and writes it back without them; with --known FILE
the removed reports go to FILE, blank-line separated.  The kinds:

- nvme-rdma maps each 16-byte completion capsule, kmalloc'd one by one,
  DMA_FROM_DEVICE (nvme_rdma_alloc_qe), so several mappings share a
  cacheline: a debug kernel's DMA-API checks warn "cacheline tracking
  EEXIST" and name the device they were mapped for, ours.  Harmless on a
  coherent x86 bus; no Wren change can avoid it.

  The report runs from its "cut here" line through dma-debug's "Mapped
  at:" stack (five frames).
- The same warning for user memory that ib_core's ib_umem_get() maps:
  verbs lets a process register one buffer in several MRs, or MRs over
  buffers that share a page (rping's send and receive buffers sit in one
  struct), and ib_umem_get() maps each registration of the pages anew,
  for any RDMA device that DMA-maps (rdma_rxe does not).  dma-debug
  stays quiet for mappings made with DMA_ATTR_SKIP_CPU_SYNC, which
  ib_umem_get() does not pass, and a driver does not pin user memory
  behind ib_core's back.  Told apart by ib_umem_get in the "Mapped at:"
  stack.
- lockdep's circular dependency between nvmet's nvmet_config_sem and the
  RDMA CM's handler_mutex: nvmet-rdma handles a connect under the CM's
  handler_mutex and takes the config semaphore, and removing a port
  destroys its listening CM id under that semaphore.  Both are the
  kernel's NVMe target and CM, whatever the RDMA device.  The report runs
  from lockdep's "=====" line through its stack backtrace.
"""
import argparse
import sys


def split(lines):
    out, known, i = [], [], 0
    while i < len(lines):
        if "cacheline tracking EEXIST" in lines[i]:
            end = i + 1
            while (end < len(lines) and end < i + 120 and
                   "DMA-API: Mapped at:" not in lines[end]):
                end += 1
            end = min(end + 6, len(lines))
            if any("nvme_rdma_alloc_qe" in line or "ib_umem_get" in line
                   for line in lines[i:end]):
                start = i
                if out and "cut here" in out[-1]:
                    start = i - 1
                    out.pop()
                known.append("\n".join(lines[start:end]))
                i = end
                continue
        if "WARNING: possible circular locking dependency detected" in lines[i]:
            end = i + 1
            while (end < len(lines) and end < i + 400 and
                   "stack backtrace:" not in lines[end]):
                end += 1
            end += 1
            while end < len(lines) and (lines[end].startswith(" ") or
                                        lines[end].split(":")[0] in
                                        ("CPU", "Hardware name", "Call Trace")):
                end += 1
            block = "\n".join(lines[i:end])
            if "nvmet_config_sem" in block and "handler_mutex" in block:
                start = i
                if out and out[-1].startswith("====="):
                    start = i - 1
                    out.pop()
                known.append("\n".join(lines[start:end]))
                i = end
                continue
        out.append(lines[i])
        i += 1
    return out, known


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--known", help="write the removed reports here")
    args = ap.parse_args()
    out, known = split(sys.stdin.read().split("\n"))
    if args.known:
        with open(args.known, "w") as f:
            f.write("\n\n".join(known))
    sys.stdout.write("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
