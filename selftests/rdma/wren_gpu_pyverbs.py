#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""
pyverbs over GPU memory: rdma-core's own dma-buf tests (tests/test_mr.py)
allocate their dma-bufs from amdgpu or i915 render nodes and skip without
one.  These cases take the dma-buf from the stand-in GPU driver instead
(gpu/, /dev/wren_gpu0), register it with pyverbs' DmaBufMR given the
fd, and run rdma-core's own traffic helpers (tests/utils.py) through it
between two RC players on the device: SEND/RECV, RDMA WRITE and RDMA READ.
The MR's bytes are read and written through the GPU memory's mapping.

Run with rdma-core's tests on the path, like its run_tests.py:
  wren_gpu_pyverbs.py --dev wren_0 --port 1 --gid N [-v]
"""
import fcntl
import mmap
import os
import struct
import sys
import unittest

SRC = os.path.join(os.environ["WREN_RDMA_CORE"], "..", "src")
sys.path[:0] = [os.path.join(os.environ["WREN_RDMA_CORE"], "python"), SRC,
                os.path.join(SRC, "tests")]

from args_parser import parser  # noqa: E402  rdma-core's tests/args_parser.py
from pyverbs.mr import DmaBufMR  # noqa: E402
import pyverbs.enums as e  # noqa: E402
from tests.base import RCResources, RDMATestCase  # noqa: E402
import tests.utils as u  # noqa: E402

GPU = os.environ.get("WVT_GPU_DEV", "/dev/wren_gpu0")
GPU_PAGE = 1 << 16


def _iowr(nr, size):
    # _IOWR(0xb7, nr, size) / _IOW: gpu/wren_test_gpu.h
    return (3 << 30) | (size << 16) | (0xb7 << 8) | nr


def _iow(nr, size):
    return (1 << 30) | (size << 16) | (0xb7 << 8) | nr


WTGPU_ALLOC = _iowr(0, 16)
WTGPU_FREE = _iow(1, 8)
WTGPU_EXPORT = _iowr(2, 24)


class GpuMemory:
    """An allocation of the stand-in GPU, mapped, and a dma-buf of it."""

    def __init__(self, size):
        self.fd = os.open(GPU, os.O_RDWR | os.O_CLOEXEC)
        size = (size + GPU_PAGE - 1) & ~(GPU_PAGE - 1)
        out = fcntl.ioctl(self.fd, WTGPU_ALLOC, struct.pack("QQ", size, 0))
        self.size, self.offset = struct.unpack("QQ", out)
        self.map = mmap.mmap(self.fd, self.size, mmap.MAP_SHARED,
                             mmap.PROT_READ | mmap.PROT_WRITE,
                             offset=self.offset)
        out = fcntl.ioctl(self.fd, WTGPU_EXPORT,
                          struct.pack("QQIi", self.offset, self.size,
                                      os.O_CLOEXEC, -1))
        self.dmabuf = struct.unpack("QQIi", out)[3]

    def close(self):
        os.close(self.dmabuf)
        self.map.close()
        fcntl.ioctl(self.fd, WTGPU_FREE, struct.pack("Q", self.offset))
        os.close(self.fd)


class GpuDmaBufMR(DmaBufMR):
    """DmaBufMR over a GPU dma-buf fd; data through the GPU mapping."""

    def __init__(self, pd, length, access, gpu):
        self.gpu = gpu
        super().__init__(pd, length, access, dmabuf=gpu.dmabuf, offset=0)

    def write(self, data, length, offset=0):
        if isinstance(data, str):
            data = data.encode()
        self.gpu.map[offset:offset + length] = data[:length]

    def read(self, length, offset):
        return bytes(self.gpu.map[offset:offset + length])


class GpuDmaBufRC(RCResources):
    def __init__(self, dev_name, ib_port, gid_index):
        self.gpu = None
        super().__init__(dev_name=dev_name, ib_port=ib_port,
                         gid_index=gid_index)

    def create_mr(self):
        access = (e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE |
                  e.IBV_ACCESS_REMOTE_READ)
        self.gpu = GpuMemory(self.msg_size)
        self.mr = GpuDmaBufMR(self.pd, self.msg_size, access, self.gpu)

    def create_qp_attr(self):
        attr = super().create_qp_attr()
        attr.qp_access_flags = (e.IBV_ACCESS_LOCAL_WRITE |
                                e.IBV_ACCESS_REMOTE_WRITE |
                                e.IBV_ACCESS_REMOTE_READ)
        return attr


class GpuDmaBufTest(RDMATestCase):
    def setUp(self):
        super().setUp()
        self.iters = 20
        if not os.path.exists(GPU):
            raise unittest.SkipTest(f"{GPU} is missing (wren_test_gpu.ko)")

    def tearDown(self):
        for p in (getattr(self, "client", None), getattr(self, "server", None)):
            if p is not None and p.gpu is not None:
                p.mr.close()
                p.gpu.close()
        super().tearDown()

    def test_gpu_dmabuf_rc_send(self):
        """SEND/RECV through DmaBufMRs of GPU memory over RC"""
        self.create_players(GpuDmaBufRC)
        u.traffic(**self.traffic_args)

    def test_gpu_dmabuf_rdma_write(self):
        """RDMA WRITE between DmaBufMRs of GPU memory"""
        self.create_players(GpuDmaBufRC)
        u.rdma_traffic(**self.traffic_args, send_op=e.IBV_WR_RDMA_WRITE)

    def test_gpu_dmabuf_rdma_read(self):
        """RDMA READ from a DmaBufMR of GPU memory"""
        self.create_players(GpuDmaBufRC)
        u.rdma_traffic(**self.traffic_args, send_op=e.IBV_WR_RDMA_READ)


if __name__ == "__main__":
    parser.parse_args()
    unittest.main(argv=[sys.argv[0], "-v"])
