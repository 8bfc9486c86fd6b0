// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Host unit test of libwren's WQE encoding and CQE decoding (wren_wqe.h)
 * against the hardware contract: every field lands at the byte offset and
 * in the byte order that Documentation/.../wren/queues.rst gives, ring
 * geometry fits the strides, inline data is padded, the phase bit and
 * 16-bit WQE indexes are interpreted as the contract says.  TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wren_wqe.h"

/* TAP on the kernel's kselftest.h (selftests/lib/tap.h). */
#define TAP_IMPLEMENTATION
#include "tap.h"

static void ok(int cond, const char *what)
{
	tap_ok(cond, "%s", what);
}

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_le64(const uint8_t *p)
{
	return get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

static int all_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

static void test_sizes(void)
{
	ok(sizeof(struct wren_wqe_ctrl) == 16 &&
	   sizeof(struct wren_wqe_raddr) == 16 &&
	   sizeof(struct wren_wqe_atomic) == 16 &&
	   sizeof(struct wren_wqe_ud) == 16 &&
	   sizeof(struct wren_wqe_sge) == 16 &&
	   sizeof(struct wren_wqe_inline) == 16 &&
	   sizeof(struct wren_rqe) == 16,
	   "WQE segments are 16 bytes");
	ok(sizeof(struct wren_cqe) == WREN_CQE_SIZE &&
	   offsetof(struct wren_cqe, owner) == 31,
	   "CQE is 32 bytes with owner last");
}

static void test_geometry(void)
{
	ok(wren_sq_wqe_shift(1, 0) == 6 && wren_sq_wqe_shift(2, 0) == 6,
	   "1-2 SGEs fit a 64-byte send WQE");
	ok(wren_sq_wqe_shift(3, 0) == 7 && wren_sq_wqe_shift(6, 0) == 7,
	   "3-6 SGEs take 128 bytes");
	ok(wren_sq_max_sge(6) == 2 && wren_sq_max_sge(7) == 6 &&
	   wren_sq_max_inline(6) == 16 && wren_sq_max_inline(7) == 80,
	   "capacity of 64- and 128-byte strides");
	ok(wren_sq_wqe_shift(1, 64) == 7 && wren_sq_wqe_shift(1, 80) == 7 &&
	   wren_sq_wqe_shift(1, 81) == 8,
	   "inline data sizes the stride");
	ok(wren_rq_wqe_shift(1) == 6 && wren_rq_wqe_shift(3) == 6 &&
	   wren_rq_wqe_shift(4) == 7 && wren_rq_max_sge(6) == 3,
	   "receive strides: 16-byte header plus SGEs, at least 64 bytes");
	ok(wren_sq_fixed_size(WREN_WQE_ATOMIC_CMP_SWP, false) +
	   WREN_WQE_DS_SIZE == 64 &&
	   wren_sq_fixed_size(WREN_WQE_SEND, true) == 32 &&
	   wren_sq_fixed_size(WREN_WQE_SEND, false) == 16 &&
	   wren_sq_fixed_size(WREN_WQE_RDMA_READ, false) == 32 &&
	   wren_sq_fixed_size(WREN_WQE_REG_MR, false) == 64 &&
	   wren_sq_fixed_size(WREN_WQE_NOP, true) == 16,
	   "fixed segment sizes per opcode (atomic WQE is 64 bytes)");
	ok(wren_wq_log_size_max(0) == 1 && wren_wq_log_size_max(5) == 2 &&
	   wren_wq_log_size_max(4096) == 12 &&
	   wren_wq_log_size_max(0xffffffffu) == WREN_WQ_LOG_SIZE_MAX &&
	   wren_inline_ds(0) == 1 && wren_inline_ds(16) == 2 &&
	   wren_inline_ds(17) == 3,
	   "ring size limit from max_wr; inline data segments");
	ok(wren_roundup_pow2(1) == 1 && wren_roundup_pow2(5) == 8 &&
	   wren_ilog2(1) == 0 && wren_ilog2(4096) == 12,
	   "power-of-two helpers");
}

static void test_send_wqe(void)
{
	uint8_t w[64];

	memset(w, 0xa5, sizeof(w));
	wren_wqe_ctrl_set((struct wren_wqe_ctrl *)w, WREN_WQE_RDMA_WRITE_IMM,
			  WREN_WQE_F_SIGNALED | WREN_WQE_F_SOLICITED, 2,
			  0x12345);
	wren_wqe_ctrl_set_imm((struct wren_wqe_ctrl *)w, htobe32(0xdeadbeef));
	ok(w[0] == 0x05 && w[1] == 0x05 && w[2] == 2 && w[3] == 0,
	   "ctrl: opcode, flags, ds_count at bytes 0-2");
	ok(w[4] == 0x45 && w[5] == 0x23 && w[6] == 0 && w[7] == 0,
	   "ctrl: wqe_idx is the low 16 bits, little-endian, at byte 4");
	ok(w[8] == 0xde && w[9] == 0xad && w[10] == 0xbe && w[11] == 0xef &&
	   all_zero(w + 12, 4),
	   "ctrl: imm_data in network order at byte 8, xrc_srqn zero");

	memset(w, 0xa5, 16);
	wren_wqe_ctrl_set((struct wren_wqe_ctrl *)w, WREN_WQE_SEND, 0, 0, 1);
	wren_wqe_ctrl_set_xrc_srqn((struct wren_wqe_ctrl *)w, 0xff123456);
	ok(get_le32(w + 12) == 0x123456 && all_zero(w + 8, 4),
	   "ctrl: an XRC initiator's remote SRQ at byte 12, 24 bits, little-endian");

	wren_wqe_raddr_set((struct wren_wqe_raddr *)(w + 16),
			   0x1122334455667788ull, 0xcafef00d);
	ok(get_le64(w + 16) == 0x1122334455667788ull &&
	   get_le32(w + 24) == 0xcafef00d && all_zero(w + 28, 4),
	   "raddr: address and rkey little-endian");

	wren_sge_set((struct wren_wqe_sge *)(w + 32), 0x7fff00001000ull,
		     4096, 0x100);
	ok(get_le64(w + 32) == 0x7fff00001000ull && get_le32(w + 40) == 4096 &&
	   get_le32(w + 44) == 0x100,
	   "sge: addr, length, lkey little-endian");

	wren_wqe_ctrl_set((struct wren_wqe_ctrl *)w, WREN_WQE_SEND_INV, 0, 0, 7);
	wren_wqe_ctrl_set_inv((struct wren_wqe_ctrl *)w, 0x01020304);
	ok(get_le32(w + 8) == 0x01020304, "ctrl: inv_rkey little-endian");

	wren_wqe_atomic_set((struct wren_wqe_atomic *)(w + 32), 5, 9);
	ok(get_le64(w + 32) == 5 && get_le64(w + 40) == 9,
	   "atomic: swap_add then compare");

	memset(w, 0xa5, sizeof(w));
	wren_wqe_ud_set((struct wren_wqe_ud *)w, 3, 0xff123456, 0x80000000);
	ok(get_le32(w) == 3 && get_le32(w + 4) == 0x123456 &&
	   get_le32(w + 8) == 0x80000000 && all_zero(w + 12, 4),
	   "ud: ah, 24-bit dest_qpn, qkey, rsvd zero");
}

static void test_iba15_wqe(void)
{
	ok(sizeof(struct wren_wqe_flush) == 16 &&
	   offsetof(struct wren_wqe_flush, length) == 0 &&
	   offsetof(struct wren_wqe_flush, type) == 4 &&
	   offsetof(struct wren_wqe_flush, level) == 5 &&
	   sizeof(struct wren_wqe_atomic_write) == 16 &&
	   offsetof(struct wren_wqe_atomic_write, rsvd) == 8,
	   "flush: length, type, level; atomic_write: 8 bytes, then reserved");
	ok(wren_sq_fixed_size(WREN_WQE_FLUSH, false) == 48 &&
	   wren_sq_fixed_size(WREN_WQE_ATOMIC_WRITE, false) == 48 &&
	   wren_wqe_is_rd_atomic(WREN_WQE_FLUSH) &&
	   wren_wqe_is_rd_atomic(WREN_WQE_ATOMIC_WRITE) &&
	   !wren_wqe_is_atomic(WREN_WQE_ATOMIC_WRITE),
	   "FLUSH and ATOMIC_WRITE: 48 bytes, need a responder resource, not atomics");
}

static void test_bind_mw_wqe(void)
{
	uint8_t w[64];

	ok(sizeof(struct wren_wqe_bind_mw) == 32 &&
	   offsetof(struct wren_wqe_bind_mw, mw_key) == 0 &&
	   offsetof(struct wren_wqe_bind_mw, mr_key) == 4 &&
	   offsetof(struct wren_wqe_bind_mw, addr) == 8 &&
	   offsetof(struct wren_wqe_bind_mw, length) == 16 &&
	   offsetof(struct wren_wqe_bind_mw, access) == 24 &&
	   offsetof(struct wren_wqe_bind_mw, type) == 28,
	   "bind_mw: 32 bytes, mw_key, mr_key, addr, length, access, type");
	ok(wren_sq_fixed_size(WREN_WQE_BIND_MW, false) == 48 &&
	   wren_sq_fixed_size(WREN_WQE_BIND_MW, true) == 48 &&
	   wren_sq_fixed_size(WREN_WQE_BIND_MW, false) <=
	   1u << WREN_WQE_SHIFT_MIN,
	   "BIND_MW: ctrl + bind_mw, 48 bytes, fits the smallest stride");

	memset(w, 0xa5, sizeof(w));
	wren_wqe_ctrl_set((struct wren_wqe_ctrl *)w, WREN_WQE_BIND_MW,
			  WREN_WQE_F_SIGNALED, 0, 0x10009);
	wren_wqe_bind_mw_set((struct wren_wqe_bind_mw *)(w + 16), 0x00123457,
			     0x00000a01, 0x7f0011223344ull, 0x100000001ull,
			     WREN_ACCESS_REMOTE_WRITE | WREN_ACCESS_REMOTE_READ,
			     WREN_MW_TYPE_2);
	ok(w[0] == 0x0b && w[1] == WREN_WQE_F_SIGNALED && w[2] == 0 &&
	   w[3] == 0 && w[4] == 0x09 && w[5] == 0 && all_zero(w + 6, 10),
	   "ctrl: BIND_MW is opcode 0x0b, no data segments, rest zero");
	ok(w[16] == 0x57 && w[17] == 0x34 && w[18] == 0x12 && w[19] == 0 &&
	   get_le32(w + 20) == 0xa01,
	   "bind_mw: mw_key at 16 (tag in the low byte), mr_key at 20, little-endian");
	ok(get_le64(w + 24) == 0x7f0011223344ull &&
	   get_le64(w + 32) == 0x100000001ull,
	   "bind_mw: addr at 24, 64-bit length at 32, little-endian");
	ok(get_le32(w + 40) == 0x6 && w[44] == 2 && all_zero(w + 45, 3) &&
	   w[48] == 0xa5,
	   "bind_mw: access at 40, type at 44, reserved zero, nothing beyond 48");
	ok(WREN_CQE_MW_BIND_ERR == 6 && wren_cqe_status_known(WREN_CQE_MW_BIND_ERR),
	   "MW_BIND_ERR is status 6 (IB_WC_MW_BIND_ERR), a known status");
}

static void test_inline(void)
{
	const char a[] = "0123456789abc";	/* 13 bytes */
	const char b[] = "XYZWVUT";		/* 7 bytes */
	struct wren_inline_buf bufs[] = { { a, 13 }, { b, 7 } };
	uint8_t ds[64];
	int n;

	memset(ds, 0xa5, sizeof(ds));
	n = wren_inline_write(ds, bufs, 2, 80);
	ok(n == 3, "20 inline bytes take header + 2 segments");
	ok(get_le32(ds) == 20 && all_zero(ds + 4, 12),
	   "inline header: length, reserved zero");
	ok(!memcmp(ds + 16, a, 13) && !memcmp(ds + 29, b, 7) &&
	   all_zero(ds + 36, 12) && ds[48] == 0xa5,
	   "inline payload concatenated, padded with zeros to 16 bytes");

	memset(ds, 0xa5, sizeof(ds));
	ok(wren_inline_write(ds, bufs, 2, 19) == -EINVAL && ds[0] == 0xa5,
	   "inline beyond max_inline is refused before writing");
	ok(wren_inline_write(ds, bufs, 0, 16) == 1 && get_le32(ds) == 0,
	   "empty inline payload is just the header");
}

static void test_rqe(void)
{
	uint8_t r[16];

	memset(r, 0xa5, sizeof(r));
	wren_rqe_set((struct wren_rqe *)r, 3, 0x10002);
	ok(r[0] == 3 && r[1] == 0 && r[2] == 2 && r[3] == 0 &&
	   all_zero(r + 4, 12),
	   "rqe: ds_count, wqe_idx low 16 bits, reserved zero");
}

static void test_cqe(void)
{
	ok(wren_cqe_owned(1, 0, 2) && !wren_cqe_owned(0, 0, 2) &&
	   wren_cqe_owned(1, 3, 2),
	   "phase 1 is valid on the first pass");
	ok(wren_cqe_owned(0, 4, 2) && !wren_cqe_owned(1, 4, 2) &&
	   wren_cqe_owned(1, 8, 2),
	   "phase flips at every wrap");
	ok(wren_cqe_owned(0xff, 0, 2) && !wren_cqe_owned(0xfe, 0, 2),
	   "only bit 0 of owner is the phase");
	ok(wren_ring_phase(0, 4) == 1 && wren_ring_phase(15, 4) == 1 &&
	   wren_ring_phase(16, 4) == 0 && wren_ring_phase(32, 4) == 1 &&
	   wren_ring_phase(0x80000000u, 1) == 1,
	   "the device writes phase 1 on even passes, 0 on odd ones");
	ok(wren_cqe_is_recv(WREN_CQE_OP_RECV) &&
	   wren_cqe_is_recv(WREN_CQE_OP_RECV_RDMA_IMM) &&
	   !wren_cqe_is_recv(WREN_WQE_SEND),
	   "receive completions are told apart by opcode");
	ok(WREN_CQE_F_XRC == 0x20 && offsetof(struct wren_cqe, src_qp) == 12 &&
	   offsetof(struct wren_cqe, qpn) == 8,
	   "an XRC receive: flag 0x20, SRQ in src_qp at byte 12, target QP at 8");
	ok(wren_wqe_idx_expand(0, 5) == 5 &&
	   wren_wqe_idx_expand(0xfffe, 0x0001) == 0x10001 &&
	   wren_wqe_idx_expand(0x12345, 0x2345) == 0x12345 &&
	   wren_wqe_idx_expand(0xfffffff0, 0x0003) == 0x3,
	   "16-bit CQE index expands from the tail, across wraps");
}

int main(void)
{
	tap_plan(41);
	test_sizes();
	test_geometry();
	test_send_wqe();
	test_bind_mw_wqe();
	test_iba15_wqe();
	test_inline();
	test_rqe();
	test_cqe();
	return tap_done();
}
