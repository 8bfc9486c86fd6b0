// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Every RC opcode between two models, data checked byte for byte:
 * SEND with immediate and with invalidate, RDMA WRITE (with immediate),
 * RDMA READ, compare-and-swap and fetch-and-add, multi-SGE and unaligned
 * buffers on both sides, inline data, unsignalled completions, 64 KiB
 * pages, and the responder's CPU-free side: no CQE for WRITE or READ.
 */
#include <stdlib.h>

#include "roce_tests.h"

#define ALL_ACCESS	(WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE | \
			 WREN_ACCESS_REMOTE_READ | WREN_ACCESS_REMOTE_ATOMIC)

static void write_sizes(void)
{
	static const uint32_t sizes[] = { 0, 1, 4095, 4096, 4097, 65537,
					  300000 };

	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint32_t len = sizes[i];
		struct ro_wqe w = { .opcode = WREN_WQE_RDMA_WRITE,
				    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
		struct rc_env e;
		struct wren_cqe c;
		uint8_t *pat;
		bool ok;

		rc_env_init(&e, NULL);
		pat = rc_pattern(&e, 0, 7, len, len);
		w.sge[0] = rc_sge(&e, 0, 7, len);
		w.raddr = e.mr[1].iova + 13;
		w.rkey = e.mr[1].key;
		ro_post_send(&e.qp[0], &w);
		ro_settle(&e.p, 1000000000ull);
		ok = rc_one_cqe(&e.cq[0], &c) && c.status == 0 &&
		     c.opcode == WREN_WQE_RDMA_WRITE &&
		     ro_cq_drain(&e.cq[1], NULL, 0) == 0 &&
		     rc_same(&e, 1, 13, pat, len);
		tap_ok(ok, "RDMA WRITE %u bytes: data there, no responder CQE",
		       len);
		free(pat);
		rc_env_fini(&e);
	}
}

static void read_sizes(void)
{
	static const uint32_t sizes[] = { 0, 8, 4096, 4097, 20000, 262144 };

	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint32_t len = sizes[i];
		struct ro_wqe w = { .opcode = WREN_WQE_RDMA_READ,
				    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
		struct rc_env e;
		struct wren_cqe c;
		uint8_t *pat;
		bool ok;

		rc_env_init(&e, NULL);
		pat = rc_pattern(&e, 1, 3, len, len + 1);
		w.sge[0] = rc_sge(&e, 0, 11, len);
		w.raddr = e.mr[1].iova + 3;
		w.rkey = e.mr[1].key;
		ro_post_send(&e.qp[0], &w);
		ro_settle(&e.p, 1000000000ull);
		ok = rc_one_cqe(&e.cq[0], &c) && c.status == 0 &&
		     c.opcode == WREN_WQE_RDMA_READ && c.byte_len == len &&
		     ro_cq_drain(&e.cq[1], NULL, 0) == 0 &&
		     rc_same(&e, 0, 11, pat, len);
		tap_ok(ok, "RDMA READ %u bytes: data here, no responder CQE",
		       len);
		free(pat);
		rc_env_fini(&e);
	}
}

static void imm_and_inv(void)
{
	struct ro_wqe w = { .opcode = WREN_WQE_SEND_IMM,
			    .flags = WREN_WQE_F_SIGNALED | WREN_WQE_F_SOLICITED,
			    .imm = 0xdeadbeef, .nsge = 1 };
	struct rc_env e;
	struct wren_cqe c;
	struct ro_mr fr;
	uint8_t *pat;
	bool ok;

	rc_env_init(&e, NULL);
	pat = rc_pattern(&e, 0, 0, 5000, 9);
	rc_post_recv(&e, 1, 0, 8192);
	w.sge[0] = rc_sge(&e, 0, 0, 5000);
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	ok = rc_one_cqe(&e.cq[1], &c) && c.status == 0 &&
	     c.opcode == WREN_CQE_OP_RECV && c.byte_len == 5000 &&
	     (c.flags & WREN_CQE_F_IMM) && c.imm_data == 0xdeadbeef &&
	     rc_same(&e, 1, 0, pat, 5000);
	tap_ok(ok, "SEND with immediate: CQE has IMM and the value");
	ro_cq_drain(&e.cq[0], NULL, 0);
	free(pat);

	/* WRITE with immediate: data in place and a receive consumed. */
	pat = rc_pattern(&e, 0, 100, 9000, 10);
	rc_post_recv(&e, 1, 0, 0);
	w.opcode = WREN_WQE_RDMA_WRITE_IMM;
	w.imm = 0x01020304;
	w.sge[0] = rc_sge(&e, 0, 100, 9000);
	w.raddr = e.mr[1].iova + 50000;
	w.rkey = e.mr[1].key;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	ok = rc_one_cqe(&e.cq[1], &c) && c.status == 0 &&
	     c.opcode == WREN_CQE_OP_RECV_RDMA_IMM && c.byte_len == 9000 &&
	     (c.flags & WREN_CQE_F_IMM) && c.imm_data == 0x01020304 &&
	     c.wqe_idx == 1 && rc_same(&e, 1, 50000, pat, 9000);
	tap_ok(ok, "RDMA WRITE with immediate: data, RECV_RDMA_IMM CQE on "
	       "a zero-length receive");
	ro_cq_drain(&e.cq[0], NULL, 0);
	free(pat);

	/* SEND with invalidate names a fast-registration MR of the PD. */
	{
		struct wren_create_mr_in in;
		struct td_res r;

		memset(&in, 0, sizeof(in));
		in.pdn = e.p.n[1].pd;
		in.access = ALL_ACCESS;
		in.num_mtt = 4;
		in.page_shift = 12;
		in.key_tag = 0x33;
		in.flags = WREN_MR_F_FAST_REG;
		r = td_cmd(e.p.n[1].d, WREN_AQ_OP_CREATE_MR, NULL, 0, &in,
			   sizeof(in), NULL, 0);
		fr.key = r.result2;
	}
	rc_post_recv(&e, 1, 0, 64);
	w.opcode = WREN_WQE_SEND_INV;
	w.imm = fr.key;
	w.sge[0] = rc_sge(&e, 0, 0, 64);
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	ok = rc_one_cqe(&e.cq[1], &c) && c.status == 0 &&
	     (c.flags & WREN_CQE_F_INV) && c.inv_rkey == fr.key &&
	     rc_one_cqe(&e.cq[0], &c) && c.status == 0 &&
	     c.opcode == WREN_WQE_SEND_INV;
	tap_ok(ok, "SEND with invalidate: CQE has INV and the key");
	rc_env_fini(&e);
}

static void atomics(void)
{
	struct ro_wqe w = { .opcode = WREN_WQE_ATOMIC_CMP_SWP,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	uint64_t v = 1000, got, orig;
	struct rc_env e;
	struct wren_cqe c;
	bool ok;

	rc_env_init(&e, NULL);
	ro_mr_write(&e.mr[1], e.mr[1].iova + 64, &v, 8);
	w.raddr = e.mr[1].iova + 64;
	w.rkey = e.mr[1].key;
	w.cmp = 1000;
	w.swap = 0x1122334455667788ull;
	w.sge[0] = rc_sge(&e, 0, 8, 8);
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	ro_mr_read(&e.mr[1], e.mr[1].iova + 64, &got, 8);
	ro_mr_read(&e.mr[0], e.mr[0].iova + 8, &orig, 8);
	ok = rc_one_cqe(&e.cq[0], &c) && c.status == 0 &&
	     c.opcode == WREN_WQE_ATOMIC_CMP_SWP &&
	     got == 0x1122334455667788ull && orig == 1000;
	tap_ok(ok, "compare-and-swap, equal: swapped, original returned");
	w.cmp = 5;
	w.swap = 6;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	ro_mr_read(&e.mr[1], e.mr[1].iova + 64, &got, 8);
	ro_mr_read(&e.mr[0], e.mr[0].iova + 8, &orig, 8);
	ok = rc_one_cqe(&e.cq[0], &c) && c.status == 0 &&
	     got == 0x1122334455667788ull && orig == got;
	tap_ok(ok, "compare-and-swap, different: unchanged, original returned");
	w.opcode = WREN_WQE_ATOMIC_FETCH_ADD;
	w.swap = 0x10;
	for (int i = 0; i < 10; i++)
		ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	ro_mr_read(&e.mr[1], e.mr[1].iova + 64, &got, 8);
	ro_mr_read(&e.mr[0], e.mr[0].iova + 8, &orig, 8);
	ok = ro_cq_drain(&e.cq[0], NULL, 0) == 10 &&
	     got == 0x1122334455667788ull + 0xa0 &&
	     orig == 0x1122334455667788ull + 0x90;
	tap_ok(ok, "ten fetch-and-adds (max_rd_atomic 4): sum and last "
	       "original right");
	rc_env_fini(&e);
}

static void sge_and_inline(void)
{
	struct ro_wqe w = { .opcode = WREN_WQE_SEND,
			    .flags = WREN_WQE_F_SIGNALED };
	static const uint32_t pieces[] = { 1, 4096, 3, 0, 777, 5000, 2 };
	struct wren_wqe_sge rs[5];
	uint8_t want[12000], inl[200];
	struct rc_env e;
	struct wren_cqe c;
	uint32_t total = 0, off = 1;
	bool ok;

	rc_env_init(&e, NULL);
	/* Seven send pieces scattered through the buffer, odd offsets. */
	for (unsigned int i = 0; i < 7; i++) {
		uint8_t *pat = rc_pattern(&e, 0, off, pieces[i], i + 40);

		memcpy(want + total, pat, pieces[i]);
		free(pat);
		w.sge[i] = rc_sge(&e, 0, off, pieces[i]);
		total += pieces[i];
		off += pieces[i] + 333;
	}
	w.nsge = 7;
	/* Five receive pieces elsewhere. */
	rs[0] = rc_sge(&e, 1, 100001, 10);
	rs[1] = rc_sge(&e, 1, 3, 4000);
	rs[2] = rc_sge(&e, 1, 200000, 1);
	rs[3] = rc_sge(&e, 1, 50001, 5000);
	rs[4] = rc_sge(&e, 1, 300003, 3000);
	ro_post_recv(&e.qp[1], rs, 5);
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	ok = rc_one_cqe(&e.cq[1], &c) && c.status == 0 && c.byte_len == total &&
	     rc_same(&e, 1, 100001, want, 10) &&
	     rc_same(&e, 1, 3, want + 10, 4000) &&
	     rc_same(&e, 1, 200000, want + 4010, 1) &&
	     rc_same(&e, 1, 50001, want + 4011, 5000) &&
	     rc_same(&e, 1, 300003, want + 9011, total - 9011);
	tap_ok(ok, "SEND of 7 unaligned SGEs into 5 unaligned receive SGEs");
	ro_cq_drain(&e.cq[0], NULL, 0);

	ro_fill(inl, sizeof(inl), 77);
	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_RDMA_WRITE;
	w.flags = WREN_WQE_F_SIGNALED | WREN_WQE_F_INLINE;
	w.inl = inl;
	w.inl_len = 200;
	w.raddr = e.mr[1].iova + 700001;
	w.rkey = e.mr[1].key;
	ro_write_send(&e.qp[0], &w);
	/* The caller's buffer may change at once: the WQE holds the bytes. */
	ro_ring(&e.qp[0]);
	ro_settle(&e.p, 1000000000ull);
	ok = rc_one_cqe(&e.cq[0], &c) && c.status == 0 &&
	     rc_same(&e, 1, 700001, inl, 200);
	tap_ok(ok, "inline RDMA WRITE of 200 bytes");
	rc_env_fini(&e);
}

static void unsignaled(void)
{
	struct ro_wqe w = { .opcode = WREN_WQE_RDMA_WRITE, .nsge = 1 };
	struct wren_cqe c[8];
	struct rc_env e;
	unsigned int n;

	rc_env_init(&e, NULL);
	w.sge[0] = rc_sge(&e, 0, 0, 100);
	w.raddr = e.mr[1].iova;
	w.rkey = e.mr[1].key;
	for (int i = 0; i < 5; i++)
		ro_post_send(&e.qp[0], &w);
	w.flags = WREN_WQE_F_SIGNALED;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	n = ro_cq_drain(&e.cq[0], c, 8);
	tap_ok(n == 1 && c[0].wqe_idx == 5 && c[0].status == 0,
	       "5 unsignalled WRITEs and a signalled one: one CQE, index 5");
	rc_env_fini(&e);
}

static void gpu_pages(void)
{
	struct ro_wqe w = { .opcode = WREN_WQE_RDMA_WRITE,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	struct rc_env e;
	struct ro_mr big;
	struct wren_cqe c;
	uint8_t *pat, *got;
	bool ok;

	rc_env_init(&e, NULL);
	/* 64 KiB pages, scattered, MR starting mid-page. */
	ro_mr_reg(&e.p.n[1], &big, e.p.n[1].pd, 0x5000000012345ull, 300000,
		  ALL_ACCESS, 16, true);
	pat = rc_pattern(&e, 0, 0, 200000, 5);
	w.sge[0] = rc_sge(&e, 0, 0, 200000);
	w.raddr = big.iova + 99999;
	w.rkey = big.key;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	got = malloc(200000);
	ro_mr_read(&big, big.iova + 99999, got, 200000);
	ok = rc_one_cqe(&e.cq[0], &c) && c.status == 0 &&
	     !memcmp(got, pat, 200000);
	tap_ok(ok, "WRITE into an MR of scattered 64 KiB pages");
	free(got);
	free(pat);
	ro_mr_free(&big);
	rc_env_fini(&e);
}

static void pingpong(void)
{
	struct rc_env e;
	unsigned int good = 0;

	rc_env_init(&e, NULL);
	/* Both directions at once: SENDs each way, 50 rounds. */
	for (int i = 0; i < 50; i++) {
		for (int s = 0; s < 2; s++) {
			struct ro_wqe w = { .opcode = WREN_WQE_SEND,
					    .flags = WREN_WQE_F_SIGNALED,
					    .nsge = 1 };

			rc_post_recv(&e, !s, 4096 * (uint64_t)s, 3000);
			w.sge[0] = rc_sge(&e, s, 65536, 2000 + i);
			ro_post_send(&e.qp[s], &w);
		}
		ro_settle(&e.p, 1000000000ull);
		if (ro_cq_drain(&e.cq[0], NULL, 0) == 2 &&
		    ro_cq_drain(&e.cq[1], NULL, 0) == 2)
			good++;
	}
	tap_ok(good == 50, "50 rounds of SENDs both ways at once (%u good)",
	       good);
	rc_env_fini(&e);
}

static void fast_reg(void)
{
	struct ro_wqe w = { .flags = WREN_WQE_F_SIGNALED };
	struct ro_node *n;
	struct rc_env e;
	struct wren_cqe c;
	struct wren_create_mr_in in;
	struct td_res r;
	uint64_t pages[3], pbl;
	uint32_t idx, key;
	uint8_t *pat, got[10000];
	bool ok;

	rc_env_init(&e, NULL);
	n = &e.p.n[1];
	memset(&in, 0, sizeof(in));
	in.pdn = n->pd;
	in.num_mtt = 8;
	in.page_shift = 12;
	in.flags = WREN_MR_F_FAST_REG;
	r = td_cmd(n->d, WREN_AQ_OP_CREATE_MR, NULL, 0, &in, sizeof(in), NULL,
		   0);
	idx = (uint32_t)r.result;
	key = idx << 8 | 0x77;
	for (int i = 2; i >= 0; i--)
		pages[i] = td_alloc(n->d, 8192, 4096);	/* scattered */
	pbl = td_alloc(n->d, sizeof(pages), 8);
	th_mem_write(n->d->h, pbl, pages, sizeof(pages));
	w.opcode = WREN_WQE_REG_MR;
	w.reg.key = key;
	w.reg.access = WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE;
	w.reg.iova = 0x123010;
	w.reg.length = 10000;
	w.reg.pbl_addr = pbl;
	w.reg.npages = 3;
	w.reg.page_shift = 12;
	ro_post_send(&e.qp[1], &w);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[1], &c) && c.status == 0 &&
	       c.opcode == WREN_WQE_REG_MR,
	       "REG_MR: a FREE fast-registration MR becomes VALID");
	pat = rc_pattern(&e, 0, 0, 10000, 21);
	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_RDMA_WRITE;
	w.flags = WREN_WQE_F_SIGNALED;
	w.nsge = 1;
	w.sge[0] = rc_sge(&e, 0, 0, 10000);
	w.raddr = 0x123010;
	w.rkey = key;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	/* Read back through the page list: 0x10 into page 0, and on. */
	th_mem_read(n->d->h, pages[0] + 0x10, got, 4096 - 0x10);
	th_mem_read(n->d->h, pages[1], got + 4096 - 0x10, 4096);
	th_mem_read(n->d->h, pages[2], got + 8192 - 0x10, 10000 - 8176);
	ok = rc_one_cqe(&e.cq[0], &c) && c.status == 0 &&
	     !memcmp(got, pat, 10000);
	tap_ok(ok, "RDMA WRITE through the registered key lands in the "
	       "page list's pages");
	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_LOCAL_INV;
	w.flags = WREN_WQE_F_SIGNALED;
	w.imm = key;
	ro_post_send(&e.qp[1], &w);
	ro_settle(&e.p, 1000000000ull);
	ok = rc_one_cqe(&e.cq[1], &c) && c.status == 0 &&
	     c.opcode == WREN_WQE_LOCAL_INV;
	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_RDMA_WRITE;
	w.flags = WREN_WQE_F_SIGNALED;
	w.nsge = 1;
	w.sge[0] = rc_sge(&e, 0, 0, 100);
	w.raddr = 0x123010;
	w.rkey = key;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(ok && rc_one_cqe(&e.cq[0], &c) &&
	       c.status == WREN_CQE_REM_ACCESS_ERR,
	       "LOCAL_INV: the key is gone, a WRITE through it REM_ACCESS_ERR");
	free(pat);
	rc_env_fini(&e);

	rc_env_init(&e, NULL);
	n = &e.p.n[1];
	r = td_cmd(n->d, WREN_AQ_OP_CREATE_MR, NULL, 0, &in, sizeof(in), NULL,
		   0);
	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_REG_MR;
	w.flags = WREN_WQE_F_SIGNALED;
	w.reg.key = (uint32_t)r.result << 8 | 1;
	w.reg.access = WREN_ACCESS_LOCAL_WRITE;
	w.reg.iova = 0;
	w.reg.length = 9 * 4096;
	w.reg.pbl_addr = td_alloc(n->d, 72, 8);
	w.reg.npages = 9;
	w.reg.page_shift = 12;
	ro_post_send(&e.qp[1], &w);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[1], &c) && c.status == WREN_CQE_LOC_PROT_ERR,
	       "REG_MR of 9 pages into an MR of 8: LOC_PROT_ERR");
	rc_env_fini(&e);
}

void test_roce_ops(void)
{
	fast_reg();
	write_sizes();
	read_sizes();
	imm_and_inv();
	atomics();
	sge_and_inline();
	unsignaled();
	gpu_pages();
	pingpong();
}
