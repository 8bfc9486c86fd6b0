// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Host test of libwren's data path without a NIC: the provider's own code
 * (compiled in here, so that its static functions are reachable) posts
 * into rings in plain memory and rings doorbells into a page of plain
 * memory; the test plays the device - it reads WQEs and doorbells the way
 * the contract defines them and writes CQEs with the owner/phase bit - and
 * checks what verbs users see: wr_ids, opcodes, flags, statuses, queue-full
 * errors, unsignalled completions retired in order, phase wrap-around, SRQ
 * slots freed out of order, the ibv_wr_* and ibv_cq_ex interfaces, CQ
 * arming and memory windows (ibv_bind_mw, IBV_WR_BIND_MW, ibv_wr_bind_mw
 * and their completions), 64-byte CQEs with completion timestamps, the
 * clock page's reader, and XRC (an initiator's WQEs naming remote SRQs,
 * receives polled through the SRQN table, what is refused up front).
 * Links against the bench's rdma-core build (make rdma-core).  TAP output.
 */
#include "../wren.c"
#include "../buf.c"
#include "../clock.c"
#include "../pd.c"
#include "../qp_table.c"
#include "../cq.c"
#include "../post.c"
#include "../qp.c"
#include "../verbs.c"
#include "../srq.c"
#include "../xrc.c"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* TAP on the kernel's kselftest.h (selftests/lib/tap.h). */
#define TAP_IMPLEMENTATION
#include "tap.h"

static void ok(int cond, const char *what)
{
	tap_ok(cond, "%s", what);
}

static uint64_t db_read(struct wren_context *ctx, unsigned int off)
{
	return le64toh(*(uint64_t *)((uint8_t *)ctx->db_page + off));
}

static void *zalloc_pages(size_t len)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, len))
		abort();
	memset(p, 0, len);
	return p;
}

static struct wren_context ctx;
static struct wren_cq cq;
static struct wren_qp qp;

static void setup(void)
{
	ctx.db_page = zalloc_pages(4096);
	ctx.db_length = 4096;
	ctx.page_size = 4096;
	ctx.max_inline = 256;
	ctx.max_sge = 16;
	wren_table_init(&ctx.qp_table);
	wren_table_init(&ctx.srq_table);

	cq.verbs_cq.cq.context = &ctx.ibv_ctx.context;
	pthread_spin_init(&cq.lock, PTHREAD_PROCESS_PRIVATE);
	cq.log_size = 2;			/* 4 entries: wraps often */
	cq.stride = WREN_CQE_SIZE;
	cq.buf.addr = zalloc_pages(4096);
	cq.ring = cq.buf.addr;
	cq.dbrec = (struct wren_cq_dbrec *)((uint8_t *)cq.buf.addr + 128);
	cq.cqn = 7;

	qp.verbs_qp.qp.context = &ctx.ibv_ctx.context;
	qp.verbs_qp.qp.send_cq = &cq.verbs_cq.cq;
	qp.verbs_qp.qp.recv_cq = &cq.verbs_cq.cq;
	qp.verbs_qp.qp.state = IBV_QPS_RTS;
	qp.verbs_qp.qp.qp_num = 0x42;
	qp.qpn = 0x42;
	if (wren_wq_init(&qp.sq, 8, 7, 15) || wren_wq_init(&qp.rq, 4, 6, 15))
		abort();
	qp.sq.max_sge = wren_sq_max_sge(7);
	qp.rq.max_sge = wren_rq_max_sge(6);
	qp.max_inline = wren_sq_max_inline(7);
	qp.buf.addr = zalloc_pages(8192);
	qp.sq.ring = qp.buf.addr;
	qp.rq.ring = (uint8_t *)qp.buf.addr + 4096;
	qp.dbrec = (struct wren_qp_dbrec *)((uint8_t *)qp.buf.addr + 4096 + 256);
	if (wren_store_qp(&ctx, &qp))
		abort();
}

/* The device's side: write a CQE at the CQ's next producer slot. */
static uint32_t dev_cq_pi;

static void dev_cqe_qp(uint32_t qpn, uint32_t src_qp, uint8_t opcode,
		       uint8_t status, uint32_t wqe_idx, uint16_t flags,
		       uint32_t byte_len, uint32_t imm_be)
{
	struct wren_cqe *e = (struct wren_cqe *)
		(cq.ring + wren_cqe_offset(dev_cq_pi, cq.log_size, cq.stride));
	uint8_t phase = wren_ring_phase(dev_cq_pi, cq.log_size);

	memset(e, 0, sizeof(*e) - 1);
	e->byte_len = htole32(byte_len);
	e->imm_data = imm_be;
	e->qpn = htole32(qpn);
	e->src_qp = htole32(src_qp);
	e->wqe_idx = htole16(wqe_idx);
	e->flags = htole16(flags);
	e->opcode = opcode;
	e->status = status;
	e->owner = phase;			/* last, as the device does */
	dev_cq_pi++;
}

/* A CQE of the test's QP. */
static void dev_cqe(uint8_t opcode, uint8_t status, uint32_t wqe_idx,
		    uint16_t flags, uint32_t byte_len, uint32_t imm_be)
{
	dev_cqe_qp(qp.qpn, 0, opcode, status, wqe_idx, flags, byte_len, imm_be);
}

static struct ibv_send_wr send_wr(uint64_t wr_id, enum ibv_wr_opcode op,
				  struct ibv_sge *sge, unsigned int flags)
{
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .opcode = op, .sg_list = sge,
		.num_sge = sge ? 1 : 0, .send_flags = flags,
	};
	return wr;
}

static void test_post_send(void)
{
	struct ibv_sge sge = { .addr = 0x1000, .length = 100, .lkey = 0x55 };
	struct ibv_send_wr wr[3], *bad = NULL;
	uint8_t *w;
	int i;

	for (i = 0; i < 3; i++) {
		wr[i] = send_wr(100 + i, IBV_WR_SEND, &sge,
				i == 2 ? IBV_SEND_SIGNALED : 0);
		wr[i].next = i < 2 ? &wr[i + 1] : NULL;
	}
	ok(wren_post_send(&qp.verbs_qp.qp, wr, &bad) == 0, "post 3 SENDs");
	w = wren_wq_slot(&qp.sq, 2);
	ok(w[0] == WREN_WQE_SEND && w[1] == WREN_WQE_F_SIGNALED && w[2] == 1 &&
	   le16toh(*(uint16_t *)(w + 4)) == 2,
	   "WQE 2: SEND, signalled, one data segment, wqe_idx 2");
	ok(le64toh(*(uint64_t *)(w + 16)) == 0x1000 &&
	   le32toh(*(uint32_t *)(w + 24)) == 100 &&
	   le32toh(*(uint32_t *)(w + 28)) == 0x55,
	   "RC SEND: the SGE right after the control segment");
	ok(((uint8_t *)wren_wq_slot(&qp.sq, 0))[1] == 0,
	   "WQE 0 unsignalled");
	ok(db_read(&ctx, WREN_DB_SQ) == WREN_DB_VAL(0x42, 0, 3),
	   "one SQ doorbell: qpn 0x42, producer index 3");

	dev_cqe(WREN_WQE_SEND, WREN_CQE_SUCCESS, 2, 0, 0, 0);
	{
		struct ibv_wc wc[4];
		int n = wren_poll_cq(&cq.verbs_cq.cq, 4, wc);

		ok(n == 1 && wc[0].wr_id == 102 && wc[0].status == IBV_WC_SUCCESS &&
		   wc[0].opcode == IBV_WC_SEND && wc[0].qp_num == 0x42,
		   "the signalled WQE's CQE gives its wr_id, SEND, success");
		ok(qp.sq.tail == 3 && le32toh(cq.dbrec->ci) == 1,
		   "it retires the unsignalled WQEs before it; CQ ci published");
		ok(wren_poll_cq(&cq.verbs_cq.cq, 4, wc) == 0,
		   "an unwritten slot polls as empty");
	}

	/* 8 slots, 0 outstanding: 8 fit, the 9th does not. */
	{
		struct ibv_send_wr many[9];

		for (i = 0; i < 9; i++) {
			many[i] = send_wr(200 + i, IBV_WR_SEND, &sge, 0);
			many[i].next = i < 8 ? &many[i + 1] : NULL;
		}
		bad = NULL;
		ok(wren_post_send(&qp.verbs_qp.qp, many, &bad) == ENOMEM &&
		   bad == &many[8] && qp.sq.pi == 11,
		   "a full SQ refuses the 9th WR with ENOMEM and bad_wr");
		ok(db_read(&ctx, WREN_DB_SQ) == WREN_DB_VAL(0x42, 0, 11),
		   "the 8 that fit were rung");
	}
	/*
	 * The device fails WQE 5 (unsignalled) and flushes the rest; the CQ
	 * has 4 slots, so the test polls as the device goes, across wraps.
	 */
	{
		struct ibv_wc wc[8];
		int n = 0, got;

		dev_cqe(WREN_WQE_SEND, WREN_CQE_REM_ACCESS_ERR, 5, 0, 0, 0);
		for (i = 6; i < 11; i++) {
			dev_cqe(WREN_WQE_SEND, WREN_CQE_WR_FLUSH_ERR, i, 0, 0, 0);
			if (i % 2)
				continue;
			while ((got = wren_poll_cq(&cq.verbs_cq.cq, 2, wc + n)) > 0)
				n += got;
		}
		while ((got = wren_poll_cq(&cq.verbs_cq.cq, 2, wc + n)) > 0)
			n += got;
		ok(n == 6 && wc[0].wr_id == 202 &&
		   wc[0].status == IBV_WC_REM_ACCESS_ERR &&
		   wc[1].wr_id == 203 && wc[1].status == IBV_WC_WR_FLUSH_ERR &&
		   wc[5].wr_id == 207,
		   "an error CQE of an unsignalled WQE and the flushes, across CQ wraps");
		ok(qp.sq.tail == 11, "all of them retired");
	}
}

static void test_wqe_layouts(void)
{
	char data[40];
	struct ibv_sge isge = { .addr = (uintptr_t)data, .length = 40 };
	struct ibv_sge asge = { .addr = 0x2000, .length = 8, .lkey = 9 };
	struct ibv_send_wr wr, *bad;
	uint8_t *w;
	uint32_t idx;

	memset(data, 'x', sizeof(data));
	wr = send_wr(1, IBV_WR_RDMA_WRITE_WITH_IMM, &isge,
		     IBV_SEND_INLINE | IBV_SEND_SIGNALED);
	wr.wr.rdma.remote_addr = 0xabcdef000ull;
	wr.wr.rdma.rkey = 0x1234;
	wr.imm_data = htobe32(0x01020304);
	idx = qp.sq.pi;
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == 0,
	   "post an inline RDMA WRITE with immediate");
	w = wren_wq_slot(&qp.sq, idx);
	ok(w[0] == WREN_WQE_RDMA_WRITE_IMM &&
	   w[1] == (WREN_WQE_F_SIGNALED | WREN_WQE_F_INLINE) && w[2] == 4 &&
	   !memcmp(w + 8, "\x01\x02\x03\x04", 4),
	   "ctrl: opcode, INLINE flag, ds_count 1 + 3, imm in network order");
	ok(le64toh(*(uint64_t *)(w + 16)) == 0xabcdef000ull &&
	   le32toh(*(uint32_t *)(w + 24)) == 0x1234 &&
	   le32toh(*(uint32_t *)(w + 32)) == 40 && !memcmp(w + 48, data, 40) &&
	   w[88] == 0 && w[95] == 0,
	   "raddr at 16, inline header at 32, 40 bytes at 48, zero padding");

	wr = send_wr(2, IBV_WR_ATOMIC_CMP_AND_SWP, &asge, IBV_SEND_SIGNALED);
	wr.wr.atomic.remote_addr = 0x8000;
	wr.wr.atomic.rkey = 3;
	wr.wr.atomic.compare_add = 11;
	wr.wr.atomic.swap = 22;
	idx = qp.sq.pi;
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == 0, "post a CMP_SWP");
	w = wren_wq_slot(&qp.sq, idx);
	ok(w[0] == WREN_WQE_ATOMIC_CMP_SWP && w[2] == 1 &&
	   le64toh(*(uint64_t *)(w + 32)) == 22 &&
	   le64toh(*(uint64_t *)(w + 40)) == 11 &&
	   le64toh(*(uint64_t *)(w + 48)) == 0x2000 &&
	   le32toh(*(uint32_t *)(w + 56)) == 8,
	   "atomic: swap at 32, compare at 40, the 8-byte SGE at 48");

	asge.length = 4;
	bad = NULL;
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == EINVAL && bad == &wr,
	   "an atomic with a 4-byte SGE is refused");
	isge.length = qp.max_inline + 1;
	wr = send_wr(3, IBV_WR_SEND, &isge, IBV_SEND_INLINE);
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == EINVAL,
	   "inline beyond max_inline is refused");
	wr = send_wr(4, IBV_WR_RDMA_READ, &isge, IBV_SEND_INLINE);
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == EINVAL,
	   "inline RDMA READ is refused");
	qp.verbs_qp.qp.state = IBV_QPS_RTR;
	wr = send_wr(5, IBV_WR_SEND, NULL, 0);
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == EINVAL,
	   "a send before RTS is refused");
	qp.verbs_qp.qp.state = IBV_QPS_RTS;

	dev_cqe(WREN_WQE_RDMA_WRITE_IMM, WREN_CQE_SUCCESS, idx - 1, 0, 0, 0);
	dev_cqe(WREN_WQE_ATOMIC_CMP_SWP, WREN_CQE_SUCCESS, idx, 0, 8, 0);
	{
		struct ibv_wc wc[2];

		ok(wren_poll_cq(&cq.verbs_cq.cq, 2, wc) == 2 &&
		   wc[0].wr_id == 1 && wc[0].opcode == IBV_WC_RDMA_WRITE &&
		   wc[1].wr_id == 2 && wc[1].opcode == IBV_WC_COMP_SWAP,
		   "RDMA WRITE and CMP_SWP completions");
	}
}

static void test_recv(void)
{
	struct ibv_sge sge[2] = { { 0x3000, 64, 1 }, { 0x4000, 64, 2 } };
	struct ibv_recv_wr wr[5], *bad = NULL;
	uint8_t *r;
	int i;

	for (i = 0; i < 5; i++) {
		wr[i] = (struct ibv_recv_wr){ .wr_id = 300 + i, .sg_list = sge,
					      .num_sge = 2 };
		wr[i].next = i < 4 ? &wr[i + 1] : NULL;
	}
	ok(wren_post_recv(&qp.verbs_qp.qp, wr, &bad) == ENOMEM &&
	   bad == &wr[4] && le32toh(qp.dbrec->rq_pi) == 4,
	   "4 receives fit a 4-entry RQ; producer index in the doorbell record");
	r = wren_wq_slot(&qp.rq, 1);
	ok(r[0] == 2 && le16toh(*(uint16_t *)(r + 2)) == 1 &&
	   le64toh(*(uint64_t *)(r + 32)) == 0x4000,
	   "RQE: ds_count 2, wqe_idx 1, SGEs after the 16-byte header");

	dev_cqe(WREN_CQE_OP_RECV, WREN_CQE_SUCCESS, 0, WREN_CQE_F_IMM, 77,
		htobe32(0xcafe));
	dev_cqe(WREN_CQE_OP_RECV_RDMA_IMM, WREN_CQE_SUCCESS, 1, WREN_CQE_F_IMM,
		0, htobe32(5));
	{
		struct ibv_wc wc[2];

		ok(wren_poll_cq(&cq.verbs_cq.cq, 2, wc) == 2 &&
		   wc[0].wr_id == 300 && wc[0].opcode == IBV_WC_RECV &&
		   wc[0].byte_len == 77 && (wc[0].wc_flags & IBV_WC_WITH_IMM) &&
		   wc[0].imm_data == htobe32(0xcafe) &&
		   wc[1].wr_id == 301 && wc[1].opcode == IBV_WC_RECV_RDMA_WITH_IMM,
		   "receive completions: RECV with imm, RECV_RDMA_WITH_IMM");
		ok(qp.rq.tail == 2, "RQ slots freed in order");
	}
	bad = NULL;
	ok(wren_post_recv(&qp.verbs_qp.qp, &wr[4], &bad) == 0 &&
	   le32toh(qp.dbrec->rq_pi) == 5,
	   "a freed slot takes a new receive");

	/* UD receives: the SL field carries the RoCE packet type. */
	dev_cqe(WREN_CQE_OP_RECV, WREN_CQE_SUCCESS, 2,
		WREN_CQE_F_GRH | WREN_CQE_F_IPV4, 40 + 8, 0);
	dev_cqe(WREN_CQE_OP_RECV, WREN_CQE_SUCCESS, 3, WREN_CQE_F_GRH,
		40 + 8, 0);
	{
		struct ibv_wc wc[2];

		memset(wc, 0xff, sizeof(wc));
		ok(wren_poll_cq(&cq.verbs_cq.cq, 2, wc) == 2 &&
		   (wc[0].wc_flags & IBV_WC_GRH) && wc[0].sl == 2 &&
		   (wc[1].wc_flags & IBV_WC_GRH) && wc[1].sl == 1 &&
		   !wc[0].slid && !wc[0].dlid_path_bits && !wc[0].pkey_index,
		   "UD receive: SL 2 for an IPv4 sender, 1 for IPv6 (a valid priority), no LID");
	}
}

/* A 4-entry SRQ in plain memory, as wren_srq_create() lays one out. */
static void srq_setup(struct wren_srq *srq)
{
	srq->wq.entries = 4;
	srq->wq.log_size = 2;
	srq->wq.wqe_shift = 6;
	srq->wq.max_sge = 3;
	srq->wq.wrid = calloc(4, sizeof(uint64_t));
	srq->busy = calloc(4, 1);
	srq->wq.ring = zalloc_pages(4096);
	srq->dbrec = zalloc_pages(4096);
	srq->backlog = srq->wq;
	srq->backlog.wrid = calloc(4, sizeof(uint64_t));
	srq->backlog.ring = zalloc_pages(4096);
	pthread_spin_init(&srq->wq.lock, PTHREAD_PROCESS_PRIVATE);
}

static void srq_teardown(struct wren_srq *srq)
{
	pthread_spin_destroy(&srq->wq.lock);
	free(srq->backlog.ring);
	free(srq->backlog.wrid);
	free(srq->wq.ring);
	free(srq->dbrec);
	free(srq->busy);
	free(srq->wq.wrid);
}

static void test_srq(void)
{
	struct wren_srq srq = {};
	struct wren_qp sqp = {};
	struct ibv_sge sge = { 0x5000, 32, 4 };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	int i, n = 0;

	srq_setup(&srq);

	for (i = 0; i < 5; i++) {
		wr.wr_id = 400 + i;
		if (wren_post_srq_recv(&srq.verbs_srq.srq, &wr, &bad) == 0)
			n++;
	}
	ok(n == 4 && le32toh(srq.dbrec->pi) == 4, "4 receives fill a 4-entry SRQ");

	/* Two QPs consumed slots 0 and 1; slot 1 completes first. */
	sqp.srq = &srq;
	ok(wren_cqe_wr_id(&sqp, &(struct wren_cqe){ .opcode = WREN_CQE_OP_RECV,
						    .wqe_idx = htole16(1) }) == 401,
	   "an SRQ completion out of order finds its wr_id");
	wr.wr_id = 404;
	ok(wren_post_srq_recv(&srq.verbs_srq.srq, &wr, &bad) == 0 &&
	   le32toh(srq.dbrec->pi) == 4,
	   "slot 0 still busy: a new receive waits in the backlog, the NIC is not told");
	ok(wren_cqe_wr_id(&sqp, &(struct wren_cqe){ .opcode = WREN_CQE_OP_RECV,
						    .wqe_idx = htole16(0) }) == 400 &&
	   le32toh(srq.dbrec->pi) == 5 && srq.wq.wrid[0] == 404 &&
	   le16toh(((struct wren_rqe *)srq.wq.ring)->wqe_idx) == 4,
	   "slot 0 completes: the backlogged receive moves in as WQE 4");
	wr.wr_id = 405;
	ok(wren_post_srq_recv(&srq.verbs_srq.srq, &wr, &bad) == 0 &&
	   le32toh(srq.dbrec->pi) == 6,
	   "slot 1 is free: the next receive goes straight to the NIC");
	ok(wren_post_srq_recv(&srq.verbs_srq.srq, &wr, &bad) == ENOMEM &&
	   bad == &wr,
	   "4 receives outstanding: ENOMEM");

	/* Slot 3 completes; WQE 6 waits behind WQE 2 (slot 2) in the backlog. */
	ok(wren_cqe_wr_id(&sqp, &(struct wren_cqe){ .opcode = WREN_CQE_OP_RECV,
						    .wqe_idx = htole16(3) }) == 403,
	   "WQE 3 completes");
	wr.wr_id = 406;
	ok(wren_post_srq_recv(&srq.verbs_srq.srq, &wr, &bad) == 0 &&
	   le32toh(srq.dbrec->pi) == 6 && srq.spi == 7,
	   "slot 2 still busy: WQE 6 waits in the backlog");
	{
		uint8_t *ring = zalloc_pages(8 << 6), busy[8] = {};
		uint64_t wrid[8] = {};
		bool good = true;

		wren_srq_move(&srq, ring, wrid, busy, 8);
		for (i = 0; i < 8; i++) {
			bool want = i == 2 || i == 4 || i == 5 || i == 6;
			const struct wren_rqe *r = (void *)(ring + (i << 6));

			good &= busy[i] == want;
			if (want)
				good &= wrid[i] == 400u + i &&
					le16toh(r->wqe_idx) == i;
		}
		ok(good, "growing to 8 slots: WQEs 2, 4, 5 and the backlogged 6 at their slots with their wr_ids, the completed 3 not");
		free(ring);
	}
	srq_teardown(&srq);
}

static void test_wr_api(void)
{
	struct ibv_qp_init_attr_ex attr = {
		.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_SEND,
	};
	struct ibv_qp_ex *qpx = &qp.verbs_qp.qp_ex;
	uint32_t start, tail;
	char buf[300], hello[] = "hello";
	uint8_t *w;

	/* Drain what earlier tests left outstanding. */
	tail = qp.sq.pi;
	qp.sq.tail = tail;
	wren_qp_fill_wr_ops(&qp, &attr);
	ok(qpx->wr_rdma_write && qpx->wr_send && !qpx->wr_rdma_read &&
	   !qpx->wr_atomic_cmp_swp,
	   "ibv_qp_ex ops follow send_ops_flags");

	start = qp.sq.pi;
	ibv_wr_start(qpx);
	qpx->wr_id = 500;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_write(qpx, 0x77, 0x9000);
	ibv_wr_set_sge(qpx, 0x33, 0x6000, 4096);
	qpx->wr_id = 501;
	qpx->wr_flags = 0;
	ibv_wr_send(qpx);
	ibv_wr_set_inline_data(qpx, hello, 5);
	ok(ibv_wr_complete(qpx) == 0 && qp.sq.pi == start + 2 &&
	   db_read(&ctx, WREN_DB_SQ) == WREN_DB_VAL(0x42, 0, start + 2),
	   "wr_start/rdma_write/send/wr_complete: 2 WQEs, one doorbell");
	w = wren_wq_slot(&qp.sq, start);
	ok(w[0] == WREN_WQE_RDMA_WRITE && w[1] == WREN_WQE_F_SIGNALED &&
	   w[2] == 1 && le32toh(*(uint32_t *)(w + 24)) == 0x77 &&
	   le64toh(*(uint64_t *)(w + 32)) == 0x6000,
	   "wr_rdma_write + wr_set_sge layout");
	w = wren_wq_slot(&qp.sq, start + 1);
	ok(w[0] == WREN_WQE_SEND && w[1] == WREN_WQE_F_INLINE && w[2] == 2 &&
	   le32toh(*(uint32_t *)(w + 16)) == 5 && !memcmp(w + 32, "hello", 5),
	   "wr_send + wr_set_inline_data layout");

	ibv_wr_start(qpx);
	ibv_wr_send(qpx);
	ibv_wr_abort(qpx);
	ok(qp.sq.pi == start + 2, "wr_abort posts nothing");

	memset(buf, 1, sizeof(buf));
	ibv_wr_start(qpx);
	ibv_wr_send(qpx);
	ibv_wr_set_inline_data(qpx, buf, sizeof(buf));
	ok(ibv_wr_complete(qpx) == EINVAL && qp.sq.pi == start + 2 &&
	   db_read(&ctx, WREN_DB_SQ) == WREN_DB_VAL(0x42, 0, start + 2),
	   "a session with an error returns it and posts nothing");
	qp.sq.tail = qp.sq.pi;
}

/*
 * IBA 1.5 through the extended API: FLUSH and ATOMIC WRITE WQEs carry
 * everything in their fixed segments; a bad type or level, or an SGE
 * after them, fails the session; ibv_post_send() refuses both opcodes.
 */
static void test_wr_iba15(void)
{
	struct ibv_qp_init_attr_ex attr = {
		.send_ops_flags = IBV_QP_EX_WITH_FLUSH |
				  IBV_QP_EX_WITH_ATOMIC_WRITE,
	};
	struct ibv_qp_ex *qpx = &qp.verbs_qp.qp_ex;
	const uint8_t v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct ibv_send_wr wr = send_wr(700, IBV_WR_FLUSH, NULL,
					IBV_SEND_SIGNALED), *bad;
	uint32_t start;
	uint8_t *w;

	qp.sq.tail = qp.sq.pi;
	wren_qp_fill_wr_ops(&qp, &attr);
	ok(qpx->wr_flush && qpx->wr_atomic_write,
	   "IBV_QP_EX_WITH_FLUSH and _ATOMIC_WRITE give wr_flush and wr_atomic_write");
	start = qp.sq.pi;
	ibv_wr_start(qpx);
	qpx->wr_id = 701;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_flush(qpx, 0x55, 0x9008, 60000, IBV_FLUSH_GLOBAL,
		     IBV_FLUSH_RANGE);
	ibv_wr_atomic_write(qpx, 0x56, 0xa000, v);
	ok(ibv_wr_complete(qpx) == 0 && qp.sq.pi == start + 2 &&
	   db_read(&ctx, WREN_DB_SQ) == WREN_DB_VAL(0x42, 0, start + 2),
	   "wr_flush and wr_atomic_write: 2 WQEs, one doorbell");
	w = wren_wq_slot(&qp.sq, start);
	ok(w[0] == WREN_WQE_FLUSH && w[2] == 0 &&
	   le64toh(*(uint64_t *)(w + 16)) == 0x9008 &&
	   le32toh(*(uint32_t *)(w + 24)) == 0x55 &&
	   le32toh(*(uint32_t *)(w + 32)) == 60000 &&
	   w[36] == WREN_FLUSH_GLOBAL && w[37] == WREN_FLUSH_RANGE &&
	   !w[38] && !w[39],
	   "FLUSH: raddr, rkey, then length, type, level; no data segment");
	w = wren_wq_slot(&qp.sq, start + 1);
	ok(w[0] == WREN_WQE_ATOMIC_WRITE && w[2] == 0 &&
	   le64toh(*(uint64_t *)(w + 16)) == 0xa000 &&
	   !memcmp(w + 32, v, 8) && !le64toh(*(uint64_t *)(w + 40)),
	   "ATOMIC_WRITE: raddr, rkey, the 8 bytes as in memory, reserved zero");

	ibv_wr_start(qpx);
	ibv_wr_flush(qpx, 0x55, 0x9008, 64, 0, IBV_FLUSH_RANGE);
	ok(ibv_wr_complete(qpx) == EINVAL && qp.sq.pi == start + 2,
	   "a FLUSH of no placement type fails the session, nothing posted");
	ibv_wr_start(qpx);
	ibv_wr_flush(qpx, 0x55, 0x9008, 64, IBV_FLUSH_GLOBAL, 2);
	ok(ibv_wr_complete(qpx) == EINVAL && qp.sq.pi == start + 2,
	   "so does a FLUSH of an unknown level");
	ibv_wr_start(qpx);
	ibv_wr_flush(qpx, 0x55, 0x9008, 1ull << 32, IBV_FLUSH_GLOBAL,
		     IBV_FLUSH_RANGE);
	ok(ibv_wr_complete(qpx) == EINVAL && qp.sq.pi == start + 2,
	   "and one of 4 GiB (the RETH says 32 bits)");
	ibv_wr_start(qpx);
	ibv_wr_atomic_write(qpx, 0x56, 0xa000, v);
	ibv_wr_set_sge(qpx, 0x33, 0x6000, 8);
	ok(ibv_wr_complete(qpx) == EINVAL && qp.sq.pi == start + 2,
	   "an SGE after an ATOMIC WRITE fails the session");
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == EINVAL && bad == &wr &&
	   qp.sq.pi == start + 2,
	   "ibv_post_send() refuses IBV_WR_FLUSH");
	wr.opcode = IBV_WR_ATOMIC_WRITE;
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == EINVAL && bad == &wr,
	   "and IBV_WR_ATOMIC_WRITE");
	qp.sq.tail = qp.sq.pi;
}

static void test_cq_ex_and_arm(void)
{
	struct ibv_cq_init_attr_ex attr = {
		.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_QP_NUM |
			    IBV_WC_EX_WITH_SL,
	};
	struct ibv_cq_ex *cqx = &cq.verbs_cq.cq_ex;
	struct ibv_poll_cq_attr pattr = {};
	uint32_t idx = qp.sq.pi;
	struct ibv_send_wr wr = send_wr(600, IBV_WR_RDMA_READ, NULL,
					IBV_SEND_SIGNALED), *bad;
	struct ibv_sge sge = { 0x7000, 16, 1 };

	wr.sg_list = &sge;
	wr.num_sge = 1;
	wren_cq_fill_ops(&cq, &attr);
	ok(cqx->read_byte_len && cqx->read_qp_num && !cqx->read_imm_data,
	   "ibv_cq_ex readers follow wc_flags");
	ok(ibv_start_poll(cqx, &pattr) == ENOENT, "start_poll on an empty CQ: ENOENT");
	wren_post_send(&qp.verbs_qp.qp, &wr, &bad);
	wr.wr_id = 601;
	wren_post_send(&qp.verbs_qp.qp, &wr, &bad);
	dev_cqe(WREN_WQE_RDMA_READ, WREN_CQE_SUCCESS, idx, 0, 16, 0);
	dev_cqe(WREN_WQE_RDMA_READ, WREN_CQE_SUCCESS, idx + 1, 0, 16, 0);
	ok(ibv_start_poll(cqx, &pattr) == 0 && cqx->wr_id == 600 &&
	   cqx->status == IBV_WC_SUCCESS &&
	   ibv_wc_read_opcode(cqx) == IBV_WC_RDMA_READ &&
	   ibv_wc_read_byte_len(cqx) == 16 && ibv_wc_read_qp_num(cqx) == 0x42,
	   "start_poll reads the first CQE");
	ok(ibv_next_poll(cqx) == 0 && cqx->wr_id == 601 &&
	   ibv_wc_read_sl(cqx) == 0 && ibv_next_poll(cqx) == ENOENT,
	   "next_poll reads the second (SL 0: no GRH), then ENOENT");
	ibv_end_poll(cqx);
	ok(le32toh(cq.dbrec->ci) == dev_cq_pi, "end_poll publishes the consumer index");

	wren_arm_cq(&cq.verbs_cq.cq, 0);
	ok(db_read(&ctx, WREN_DB_CQ) ==
	   WREN_DB_VAL(7, WREN_DB_CQ_ARM_NEXT, dev_cq_pi),
	   "req_notify_cq: CQ doorbell with ARM_NEXT and the consumer index");
	wren_arm_cq(&cq.verbs_cq.cq, 1);
	ok(db_read(&ctx, WREN_DB_CQ) ==
	   WREN_DB_VAL(7, WREN_DB_CQ_ARM_SOLICITED, dev_cq_pi),
	   "req_notify_cq(solicited_only): ARM_SOLICITED");
}

/*
 * A CQ of 64-byte entries: the CQE sits in the second half of each, the
 * device clock in the first; both timestamp readers return it, and a
 * reader not asked for stays unset.  The clock page's reader joins HI,
 * LO, HI and refuses a context without the page.
 */
static void test_cq_timestamps(void)
{
	struct ibv_cq_init_attr_ex attr = {
		.wc_flags = IBV_WC_EX_WITH_BYTE_LEN |
			    IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK,
	};
	struct ibv_cq_ex *cqx = &cq.verbs_cq.cq_ex;
	struct ibv_values_ex v = { .comp_mask = IBV_VALUES_MASK_RAW_CLOCK };
	struct ibv_poll_cq_attr pattr = {};
	uint32_t idx = qp.sq.pi, saved_ci = cq.ci, saved_pi = dev_cq_pi;
	uint8_t *saved_ring = cq.ring, *ring = zalloc_pages(4096);
	struct ibv_send_wr wr = send_wr(640, IBV_WR_RDMA_READ, NULL,
					IBV_SEND_SIGNALED), *bad;
	struct ibv_sge sge = { 0x7000, 16, 1 };
	uint32_t page[WREN_DB_PAGE_SIZE / 4] = {};
	struct wren_cqe_ts *ts;

	wr.sg_list = &sge;
	wr.num_sge = 1;
	cq.ring = ring;
	cq.stride = WREN_CQE64_SIZE;
	cq.ci = 0;
	dev_cq_pi = 0;
	wren_cq_fill_ops(&cq, &attr);
	ok(cqx->read_completion_wallclock_ns && !cqx->read_completion_ts,
	   "a CQ asked for wall-clock timestamps reads those only");
	wren_post_send(&qp.verbs_qp.qp, &wr, &bad);
	wr.wr_id = 641;
	wren_post_send(&qp.verbs_qp.qp, &wr, &bad);
	ts = (struct wren_cqe_ts *)ring;
	ts->timestamp = htole64(0x1800000000000123ull);
	dev_cqe(WREN_WQE_RDMA_READ, WREN_CQE_SUCCESS, idx, 0, 16, 0);
	ts = (struct wren_cqe_ts *)(ring + WREN_CQE64_SIZE);
	ts->timestamp = htole64(0x1800000000000456ull);
	dev_cqe(WREN_WQE_RDMA_READ, WREN_CQE_SUCCESS, idx + 1, 0, 16, 0);
	ok(((struct wren_cqe *)(ring + 32))->byte_len == htole32(16) &&
	   ring[63] == wren_ring_phase(0, cq.log_size),
	   "the device's side writes the CQE in the entry's second half");
	ok(ibv_start_poll(cqx, &pattr) == 0 && cqx->wr_id == 640 &&
	   ibv_wc_read_completion_wallclock_ns(cqx) == 0x1800000000000123ull &&
	   ibv_next_poll(cqx) == 0 && cqx->wr_id == 641 &&
	   ibv_wc_read_completion_wallclock_ns(cqx) == 0x1800000000000456ull &&
	   ibv_next_poll(cqx) == ENOENT,
	   "each completion reads its own entry's timestamp");
	ibv_end_poll(cqx);
	attr.wc_flags = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	cqx->read_completion_wallclock_ns = NULL;	/* a fresh CQ's */
	wren_cq_fill_ops(&cq, &attr);
	ok(cqx->read_completion_ts && !cqx->read_completion_wallclock_ns,
	   "and one asked for device timestamps reads those");

	cq.ring = saved_ring;
	cq.stride = WREN_CQE_SIZE;
	cq.ci = saved_ci;
	dev_cq_pi = saved_pi;
	free(ring);

	ok(wren_query_rt_values(&ctx.ibv_ctx.context, &v) == EOPNOTSUPP,
	   "ibv_query_rt_values_ex without the clock page: EOPNOTSUPP");
	page[(WREN_REG_CLOCK_LO - WREN_CLOCK_PAGE) / 4] = htole32(0x89abcdef);
	page[(WREN_REG_CLOCK_HI - WREN_CLOCK_PAGE) / 4] = htole32(0x17);
	ctx.clock_page = (const volatile uint8_t *)page;
	v.comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
	ok(wren_query_rt_values(&ctx.ibv_ctx.context, &v) == 0 &&
	   v.comp_mask == IBV_VALUES_MASK_RAW_CLOCK && v.raw_clock.tv_sec == 0 &&
	   v.raw_clock.tv_nsec == 0x1789abcdefll,
	   "ibv_query_rt_values_ex reads HI:LO from the clock page");
	ctx.clock_page = NULL;
}

static void test_clean(void)
{
	struct ibv_wc wc;

	dev_cqe(WREN_CQE_OP_RECV, WREN_CQE_WR_FLUSH_ERR, 2, 0, 0, 0);
	wren_cq_clean(&cq, qp.qpn, NULL);
	ok(wren_poll_cq(&cq.verbs_cq.cq, 1, &wc) == 0 && cq.ci == dev_cq_pi,
	   "CQEs of a destroyed QP are dropped");
}

/* The dropped receive completions of a QP on an SRQ free their slots. */
static void test_srq_clean(void)
{
	struct wren_srq srq = {};
	uint8_t busy[4] = { 1, 1, 1, 0 };
	uint64_t wrid[4] = {};
	struct ibv_wc wc;

	srq.wq.entries = 4;
	srq.wq.wrid = wrid;
	srq.busy = busy;
	srq.outstanding = 3;
	pthread_spin_init(&srq.wq.lock, PTHREAD_PROCESS_PRIVATE);
	dev_cqe(WREN_CQE_OP_RECV, WREN_CQE_WR_FLUSH_ERR, 1, 0, 0, 0);
	dev_cqe(WREN_CQE_OP_RECV, WREN_CQE_SUCCESS, 6, 0, 64, 0);
	dev_cqe(WREN_WQE_SEND, WREN_CQE_SUCCESS, 0, 0, 0, 0);
	wren_cq_clean(&cq, qp.qpn, &srq);
	ok(wren_poll_cq(&cq.verbs_cq.cq, 1, &wc) == 0 &&
	   !busy[1] && !busy[2] && busy[0] && srq.outstanding == 1,
	   "a destroyed QP's SRQ receive completions free their slots, its send completion none");
	pthread_spin_destroy(&srq.wq.lock);
}

/* A parent domain's allocator, counting what it is asked and answering
 * what the test sets up. */
static struct {
	int allocs, frees;
	size_t size, alignment;
	uint64_t alloc_type, free_type;
	void *freed;
	enum { GIVE_PAGES, GIVE_DEFAULT, GIVE_NULL, GIVE_MISALIGNED } give;
} pda;

static void *pd_alloc(struct ibv_pd *pd, void *pd_context, size_t size,
		      size_t alignment, uint64_t type)
{
	static uint8_t *misaligned;

	pda.allocs++;
	pda.size = size;
	pda.alignment = alignment;
	pda.alloc_type = type;
	switch (pda.give) {
	case GIVE_DEFAULT:
		return IBV_ALLOCATOR_USE_DEFAULT;
	case GIVE_NULL:
		return NULL;
	case GIVE_MISALIGNED:
		if (!misaligned)
			misaligned = zalloc_pages(8192);
		return misaligned + 64;
	default:
		break;
	}
	/* Dirty, to show that the rings are zeroed all the same. */
	return memset(zalloc_pages(size), 0xa5, size);
}

static void pd_free(struct ibv_pd *pd, void *pd_context, void *ptr,
		    uint64_t type)
{
	pda.frees++;
	pda.freed = ptr;
	pda.free_type = type;
	if (pda.give == GIVE_PAGES)
		free(ptr);
}

static bool all_zero(const uint8_t *p, size_t len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

static void test_parent_domain(void)
{
	struct wren_pd pd = { .ibv_pd = { .context = &ctx.ibv_ctx.context,
					  .handle = 9 } };
	struct ibv_td_init_attr td_attr = {};
	struct ibv_parent_domain_init_attr attr = {
		.pd = &pd.ibv_pd,
		.comp_mask = IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS |
			     IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT,
		.alloc = pd_alloc, .free = pd_free, .pd_context = &pda,
	};
	struct ibv_context *ibctx = &ctx.ibv_ctx.context;
	struct wren_pd *parent, *held;
	struct ibv_pd *ibparent, *bad;
	struct wren_buf buf = {};
	struct ibv_td *td;
	void *addr;

	atomic_init(&pd.refcount, 1);
	td = wren_alloc_td(ibctx, &td_attr);
	ok(td && td->context == ibctx, "alloc_td gives a thread domain of the context");
	attr.td = td;
	ibparent = wren_alloc_parent_domain(ibctx, &attr);
	parent = ibparent ? to_wren_pd(ibparent) : NULL;
	ok(parent && ibparent->handle == 9 && ibparent->context == ibctx &&
	   parent->protection == &pd && atomic_load(&pd.refcount) == 2 &&
	   atomic_load(&to_wren_td(td)->refcount) == 2,
	   "a parent domain carries its PD's handle and holds the PD and the TD");

	errno = 0;
	attr.pd = ibparent;
	bad = wren_alloc_parent_domain(ibctx, &attr);
	ok(!bad && errno == EINVAL, "a parent domain over a parent domain: EINVAL");
	attr.pd = &pd.ibv_pd;
	attr.comp_mask |= 1u << 7;
	errno = 0;
	bad = wren_alloc_parent_domain(ibctx, &attr);
	ok(!bad && errno == EOPNOTSUPP, "an unknown comp_mask bit: EOPNOTSUPP");
	attr.comp_mask &= ~(1u << 7);
	attr.free = NULL;
	errno = 0;
	bad = wren_alloc_parent_domain(ibctx, &attr);
	ok(!bad && errno == EINVAL, "allocators without a free: EINVAL");
	attr.free = pd_free;
	if (!parent)
		return;

	pda.give = GIVE_PAGES;
	ok(!wren_buf_alloc(&buf, 5000, 4096, parent, WREN_RES_TYPE_SRQ) &&
	   pda.allocs == 1 && pda.size == 8192 && pda.alignment == 4096 &&
	   pda.alloc_type == WREN_RES_TYPE_SRQ && buf.pd == parent &&
	   all_zero(buf.addr, 8192),
	   "a ring from the allocator: whole pages, page-aligned, its type, zeroed");
	addr = buf.addr;
	wren_buf_free(&buf);
	ok(pda.frees == 1 && pda.freed == addr && pda.free_type == WREN_RES_TYPE_SRQ &&
	   !buf.addr, "freed through the parent domain's free, with its type");

	pda.give = GIVE_DEFAULT;
	ok(!wren_buf_alloc(&buf, 100, 4096, parent, WREN_RES_TYPE_CQ) &&
	   pda.allocs == 2 && !buf.pd && buf.length == 4096,
	   "IBV_ALLOCATOR_USE_DEFAULT: libwren's own memory");
	wren_buf_free(&buf);
	ok(pda.frees == 1, "... freed by libwren, not by the application");

	pda.give = GIVE_NULL;
	ok(wren_buf_alloc(&buf, 100, 4096, parent, WREN_RES_TYPE_QP) == ENOMEM,
	   "an allocator that gives nothing: ENOMEM");
	pda.give = GIVE_MISALIGNED;
	ok(wren_buf_alloc(&buf, 100, 4096, parent, WREN_RES_TYPE_QP) == EINVAL &&
	   pda.frees == 2, "memory not on a page boundary: given back, EINVAL");

	held = wren_pd_hold(ibparent);
	ok(held == parent && !wren_pd_hold(&pd.ibv_pd),
	   "a queue holds a parent domain, not a plain PD");
	ok(wren_dealloc_pd(ibparent) == EBUSY, "a parent domain with a queue on it: EBUSY");
	ok(wren_dealloc_td(td) == EBUSY, "a thread domain with a parent domain on it: EBUSY");
	wren_pd_release(held);
	ok(wren_dealloc_pd(ibparent) == 0 && atomic_load(&pd.refcount) == 1 &&
	   atomic_load(&to_wren_td(td)->refcount) == 1,
	   "the parent domain goes once its queues have, and lets go of its PD and TD");
	ok(wren_dealloc_td(td) == 0, "then the thread domain goes");
}

/* Thread domain: a QP made in one posts without taking its SQ lock. */
static void test_thread_domain(void)
{
	struct ibv_sge sge = { .addr = 0x1000, .length = 8, .lkey = 0x55 };
	struct ibv_send_wr wr = send_wr(7, IBV_WR_SEND, &sge, 0), *bad = NULL;
	uint32_t pi = qp.sq.pi;
	int ret;

	/* Held by "another thread": a locking post would spin for good. */
	pthread_spin_lock(&qp.sq.lock);
	qp.sq.lockless = true;
	alarm(10);
	ret = wren_post_send(&qp.verbs_qp.qp, &wr, &bad);
	alarm(0);
	qp.sq.lockless = false;
	pthread_spin_unlock(&qp.sq.lock);
	ok(!ret && qp.sq.pi == pi + 1, "a thread domain's QP posts without its SQ lock");
}

/* ------------------------------------------------------ memory windows */

static struct ibv_pd mw_pd, mw_other_pd;
static struct verbs_mr mw_mr;

static uint32_t wqe32(const uint8_t *w, unsigned int off)
{
	return le32toh(*(const uint32_t *)(w + off));
}

static uint64_t wqe64(const uint8_t *w, unsigned int off)
{
	return le64toh(*(const uint64_t *)(w + off));
}

/* The completion of the send WQE @idx, as ibv_poll_cq reports it. */
static bool mw_poll_one(uint8_t opcode, uint8_t status, uint32_t idx,
			struct ibv_wc *wc)
{
	dev_cqe(opcode, status, idx, 0, 0, 0);
	return wren_poll_cq(&cq.verbs_cq.cq, 1, wc) == 1;
}

static void test_mw_bind_type1(void)
{
	struct ibv_mw mw = { .context = &ctx.ibv_ctx.context, .pd = &mw_pd,
			     .rkey = 0x000400ff, .type = IBV_MW_TYPE_1 };
	struct ibv_mw_bind bind = {
		.wr_id = 700, .send_flags = IBV_SEND_SIGNALED,
		.bind_info = { .mr = &mw_mr.ibv_mr, .addr = 0x10000,
			       .length = 0x2000,
			       .mw_access_flags = IBV_ACCESS_REMOTE_WRITE |
						  IBV_ACCESS_REMOTE_READ |
						  IBV_ACCESS_LOCAL_WRITE },
	};
	uint32_t idx = qp.sq.pi;
	struct ibv_wc wc;
	uint8_t *w;

	ok(ibv_bind_mw(&qp.verbs_qp.qp, &mw, &bind) == 0 &&
	   mw.rkey == 0x00040000 && qp.sq.pi == idx + 1 &&
	   db_read(&ctx, WREN_DB_SQ) == WREN_DB_VAL(0x42, 0, idx + 1),
	   "ibv_bind_mw posts one WQE, rings, and gives the window the next key (tag wraps, index kept)");
	w = wren_wq_slot(&qp.sq, idx);
	ok(w[0] == WREN_WQE_BIND_MW && w[1] == WREN_WQE_F_SIGNALED &&
	   w[2] == 0 && le16toh(*(uint16_t *)(w + 4)) == (uint16_t)idx &&
	   wqe32(w, 8) == 0,
	   "BIND_MW ctrl: opcode 0x0b, signalled, ds_count 0, wqe_idx");
	ok(wqe32(w, 16) == 0x00040000 && wqe32(w, 20) == 0x1201 &&
	   wqe64(w, 24) == 0x10000 && wqe64(w, 32) == 0x2000 &&
	   wqe32(w, 40) == (WREN_ACCESS_REMOTE_WRITE |
			    WREN_ACCESS_REMOTE_READ) &&
	   w[44] == WREN_MW_TYPE_1 && !w[45] && !w[46] && !w[47],
	   "bind_mw: new key, the MR's lkey, range, remote rights only (LOCAL_WRITE dropped), type 1");
	ok(mw_poll_one(WREN_WQE_BIND_MW, WREN_CQE_SUCCESS, idx, &wc) &&
	   wc.wr_id == 700 && wc.status == IBV_WC_SUCCESS &&
	   wc.opcode == IBV_WC_BIND_MW,
	   "its completion: the bind's wr_id, IBV_WC_BIND_MW");

	/* A rebind: the next tag again. */
	bind.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_ATOMIC;
	ok(ibv_bind_mw(&qp.verbs_qp.qp, &mw, &bind) == 0 &&
	   mw.rkey == 0x00040001 &&
	   wqe32(wren_wq_slot(&qp.sq, idx + 1), 16) == 0x00040001 &&
	   wqe32(wren_wq_slot(&qp.sq, idx + 1), 40) == WREN_ACCESS_REMOTE_ATOMIC,
	   "a rebind carries the next key and the new rights");

	/* Unbind: no MR, no range. */
	bind = (struct ibv_mw_bind){ .wr_id = 701 };
	ok(ibv_bind_mw(&qp.verbs_qp.qp, &mw, &bind) == 0 &&
	   mw.rkey == 0x00040002,
	   "an unbind (no MR, length 0) posts too, with the next key");
	w = wren_wq_slot(&qp.sq, idx + 2);
	ok(w[0] == WREN_WQE_BIND_MW && w[1] == 0 && w[2] == 0 &&
	   wqe32(w, 16) == 0x00040002 && wqe32(w, 20) == 0 &&
	   wqe64(w, 24) == 0 && wqe64(w, 32) == 0 && wqe32(w, 40) == 0 &&
	   w[44] == WREN_MW_TYPE_1,
	   "unbind WQE: MR key, address, length and rights 0; unsignalled");
	ok(mw_poll_one(WREN_WQE_BIND_MW, WREN_CQE_MW_BIND_ERR, idx + 2, &wc) &&
	   wc.wr_id == 701 && wc.status == IBV_WC_MW_BIND_ERR &&
	   wc.opcode == IBV_WC_BIND_MW && qp.sq.tail == idx + 3,
	   "a refused bind completes with IBV_WC_MW_BIND_ERR");
}

static void test_mw_bind_errors(void)
{
	struct ibv_mw mw = { .context = &ctx.ibv_ctx.context, .pd = &mw_pd,
			     .rkey = 0x00070010, .type = IBV_MW_TYPE_1 };
	struct ibv_mw mw2 = mw;
	struct verbs_mr zmr = mw_mr;
	struct ibv_mw_bind bind = {
		.wr_id = 702,
		.bind_info = { .mr = &mw_mr.ibv_mr, .addr = 0x10000,
			       .length = 0x100,
			       .mw_access_flags = IBV_ACCESS_REMOTE_WRITE },
	};
	struct ibv_mw_bind b;
	uint32_t pi = qp.sq.pi;

	b = bind;
	b.bind_info.mr = NULL;
	ok(ibv_bind_mw(&qp.verbs_qp.qp, &mw, &b) == EINVAL,
	   "ibv_bind_mw: a range without an MR: EINVAL");
	b = bind;
	mw_mr.ibv_mr.pd = &mw_other_pd;
	ok(ibv_bind_mw(&qp.verbs_qp.qp, &mw, &b) == EPERM,
	   "ibv_bind_mw: an MR of another PD: EPERM");
	mw_mr.ibv_mr.pd = &mw_pd;
	mw2.type = IBV_MW_TYPE_2;
	ok(ibv_bind_mw(&qp.verbs_qp.qp, &mw2, &bind) == EINVAL &&
	   wren_bind_mw(&qp.verbs_qp.qp, &mw2, &bind) == EINVAL,
	   "ibv_bind_mw of a type 2 window: EINVAL (libibverbs and libwren)");
	b = bind;
	b.bind_info.mw_access_flags |= IBV_ACCESS_ZERO_BASED;
	ok(ibv_bind_mw(&qp.verbs_qp.qp, &mw, &b) == EINVAL,
	   "ibv_bind_mw with IBV_ACCESS_ZERO_BASED: EINVAL");
	zmr.access |= IBV_ACCESS_ZERO_BASED;
	b = bind;
	b.bind_info.mr = &zmr.ibv_mr;
	ok(ibv_bind_mw(&qp.verbs_qp.qp, &mw, &b) == EINVAL,
	   "ibv_bind_mw to a zero-based MR: EINVAL");
	qp.ud = true;
	ok(ibv_bind_mw(&qp.verbs_qp.qp, &mw, &bind) == EINVAL,
	   "ibv_bind_mw on a UD QP: EINVAL");
	qp.ud = false;
	qp.verbs_qp.qp.state = IBV_QPS_RTR;
	ok(ibv_bind_mw(&qp.verbs_qp.qp, &mw, &bind) == EINVAL,
	   "ibv_bind_mw before RTS: EINVAL");
	qp.verbs_qp.qp.state = IBV_QPS_RTS;
	ok(qp.sq.pi == pi && mw.rkey == 0x00070010 && mw2.rkey == 0x00070010,
	   "a refused ibv_bind_mw posts nothing and keeps the window's key");

	qp.uc = true;
	ok(ibv_bind_mw(&qp.verbs_qp.qp, &mw, &bind) == 0 &&
	   mw.rkey == 0x00070011 && qp.sq.pi == pi + 1,
	   "ibv_bind_mw on a UC QP posts");
	qp.uc = false;
	qp.sq.tail = qp.sq.pi;
}

static void test_mw_post_send(void)
{
	struct ibv_mw mw = { .context = &ctx.ibv_ctx.context, .pd = &mw_pd,
			     .rkey = 0x00050010, .type = IBV_MW_TYPE_2 };
	struct ibv_send_wr wr = {
		.wr_id = 720, .opcode = IBV_WR_BIND_MW,
		.send_flags = IBV_SEND_INLINE,
	}, *bad = NULL;
	struct ibv_sge sge = { .addr = 0x1000, .length = 8, .lkey = 0x55 };
	uint32_t idx = qp.sq.pi;
	struct ibv_wc wc;
	uint8_t *w;

	wr.bind_mw.mw = &mw;
	wr.bind_mw.rkey = ibv_inc_rkey(mw.rkey);
	wr.bind_mw.bind_info = (struct ibv_mw_bind_info){
		.mr = &mw_mr.ibv_mr, .addr = 0x10800, .length = 0x800,
		.mw_access_flags = IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_ATOMIC };
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == 0 &&
	   qp.sq.pi == idx + 1 && mw.rkey == 0x00050010,
	   "IBV_WR_BIND_MW of a type 2 window posts (the caller keeps the key)");
	w = wren_wq_slot(&qp.sq, idx);
	ok(w[0] == WREN_WQE_BIND_MW && w[1] == 0 && w[2] == 0 &&
	   wqe32(w, 16) == 0x00050011 && wqe32(w, 20) == 0x1201 &&
	   wqe64(w, 24) == 0x10800 && wqe64(w, 32) == 0x800 &&
	   wqe32(w, 40) == (WREN_ACCESS_REMOTE_WRITE |
			    WREN_ACCESS_REMOTE_ATOMIC) &&
	   w[44] == WREN_MW_TYPE_2,
	   "IBV_WR_BIND_MW WQE: wr.bind_mw.rkey, type 2, no INLINE flag, no segments");

	/* The window's key through LOCAL_INV and SEND_WITH_INV unchanged. */
	{
		struct ibv_send_wr inv[2] = {
			{ .wr_id = 721, .opcode = IBV_WR_LOCAL_INV,
			  .invalidate_rkey = 0x00050011, .next = &inv[1] },
			{ .wr_id = 722, .opcode = IBV_WR_SEND_WITH_INV,
			  .invalidate_rkey = 0x00050012, .sg_list = &sge,
			  .num_sge = 1, .send_flags = IBV_SEND_SIGNALED },
		};

		ok(wren_post_send(&qp.verbs_qp.qp, inv, &bad) == 0 &&
		   ((uint8_t *)wren_wq_slot(&qp.sq, idx + 1))[0] ==
		   WREN_WQE_LOCAL_INV &&
		   wqe32(wren_wq_slot(&qp.sq, idx + 1), 8) == 0x00050011 &&
		   ((uint8_t *)wren_wq_slot(&qp.sq, idx + 1))[2] == 0 &&
		   wqe32(wren_wq_slot(&qp.sq, idx + 2), 8) == 0x00050012,
		   "LOCAL_INV and SEND_WITH_INV carry a window's key unchanged");
	}
	ok(mw_poll_one(WREN_WQE_SEND_INV, WREN_CQE_SUCCESS, idx + 2, &wc) &&
	   wc.wr_id == 722 && qp.sq.tail == idx + 3,
	   "... and complete in order after the bind");

	bad = NULL;
	wr.bind_mw.rkey = 0x00060011;
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == EINVAL && bad == &wr,
	   "IBV_WR_BIND_MW with a key of another index: EINVAL, bad_wr");
	wr.bind_mw.rkey = 0x00050012;
	wr.bind_mw.mw = NULL;
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == EINVAL,
	   "IBV_WR_BIND_MW without a window: EINVAL");
	wr.bind_mw.mw = &mw;
	wr.bind_mw.bind_info.mw_access_flags |= IBV_ACCESS_ZERO_BASED;
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == EINVAL,
	   "IBV_WR_BIND_MW with IBV_ACCESS_ZERO_BASED: EINVAL");
	wr.bind_mw.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_READ;
	wr.bind_mw.bind_info.mr = NULL;
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == EINVAL,
	   "IBV_WR_BIND_MW with a range and no MR: EINVAL");
	wr.bind_mw.bind_info.mr = &mw_mr.ibv_mr;
	qp.ud = true;
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == EINVAL,
	   "IBV_WR_BIND_MW on a UD QP: EINVAL, as other unsupported opcodes");
	qp.ud = false;
	ok(qp.sq.pi == idx + 3, "none of them posted anything");

	wr.send_flags = IBV_SEND_SIGNALED;
	ok(wren_post_send(&qp.verbs_qp.qp, &wr, &bad) == 0 &&
	   mw_poll_one(WREN_WQE_BIND_MW, WREN_CQE_MW_BIND_ERR, idx + 3, &wc) &&
	   wc.wr_id == 720 && wc.status == IBV_WC_MW_BIND_ERR &&
	   wc.opcode == IBV_WC_BIND_MW,
	   "an IBV_WR_BIND_MW the device refuses: IBV_WC_MW_BIND_ERR");
}

static void test_mw_wr_api(void)
{
	struct ibv_qp_init_attr_ex attr = {
		.send_ops_flags = IBV_QP_EX_WITH_BIND_MW |
				  IBV_QP_EX_WITH_LOCAL_INV,
	};
	struct ibv_mw mw = { .context = &ctx.ibv_ctx.context, .pd = &mw_pd,
			     .rkey = 0x00080020, .type = IBV_MW_TYPE_2 };
	struct ibv_mw_bind_info info = {
		.mr = &mw_mr.ibv_mr, .addr = 0x11000, .length = 0x1000,
		.mw_access_flags = IBV_ACCESS_REMOTE_READ,
	};
	struct ibv_qp_ex *qpx = &qp.verbs_qp.qp_ex;
	struct ibv_poll_cq_attr pattr = {};
	struct ibv_cq_ex *cqx = &cq.verbs_cq.cq_ex;
	uint32_t start = qp.sq.pi;
	uint8_t *w;

	wren_qp_fill_wr_ops(&qp, &attr);
	ok(qpx->wr_bind_mw && qpx->wr_local_inv,
	   "IBV_QP_EX_WITH_BIND_MW gives wr_bind_mw");
	ibv_wr_start(qpx);
	qpx->wr_id = 730;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_bind_mw(qpx, &mw, ibv_inc_rkey(mw.rkey), &info);
	qpx->wr_id = 731;
	qpx->wr_flags = 0;
	ibv_wr_local_inv(qpx, 0x00080021);
	ok(ibv_wr_complete(qpx) == 0 && qp.sq.pi == start + 2 &&
	   db_read(&ctx, WREN_DB_SQ) == WREN_DB_VAL(0x42, 0, start + 2),
	   "wr_bind_mw + wr_local_inv: 2 WQEs, one doorbell");
	w = wren_wq_slot(&qp.sq, start);
	ok(w[0] == WREN_WQE_BIND_MW && w[1] == WREN_WQE_F_SIGNALED &&
	   w[2] == 0 && wqe32(w, 16) == 0x00080021 && wqe32(w, 20) == 0x1201 &&
	   wqe64(w, 24) == 0x11000 && wqe64(w, 32) == 0x1000 &&
	   wqe32(w, 40) == WREN_ACCESS_REMOTE_READ && w[44] == WREN_MW_TYPE_2,
	   "wr_bind_mw WQE layout");

	dev_cqe(WREN_WQE_BIND_MW, WREN_CQE_SUCCESS, start, 0, 0, 0);
	ok(ibv_start_poll(cqx, &pattr) == 0 && cqx->wr_id == 730 &&
	   cqx->status == IBV_WC_SUCCESS &&
	   ibv_wc_read_opcode(cqx) == IBV_WC_BIND_MW,
	   "ibv_cq_ex: a bind reads as IBV_WC_BIND_MW");
	ibv_end_poll(cqx);
	qp.sq.tail = qp.sq.pi;

	start = qp.sq.pi;
	ibv_wr_start(qpx);
	ibv_wr_bind_mw(qpx, &mw, 0x00090021, &info);
	ok(ibv_wr_complete(qpx) == EINVAL && qp.sq.pi == start,
	   "wr_bind_mw with a key of another index fails the session");
	ibv_wr_start(qpx);
	ibv_wr_bind_mw(qpx, &mw, 0x00080022, &info);
	ibv_wr_set_sge(qpx, 0x55, 0x1000, 8);
	ok(ibv_wr_complete(qpx) == EINVAL && qp.sq.pi == start,
	   "a bind with an SGE fails the session");

	ibv_wr_start(qpx);
	qpx->wr_id = 732;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_bind_mw(qpx, &mw, 0x00080022, &info);
	ok(ibv_wr_complete(qpx) == 0 && qp.sq.pi == start + 1,
	   "a good session after failed ones posts");
	dev_cqe(WREN_WQE_BIND_MW, WREN_CQE_MW_BIND_ERR, start, 0, 0, 0);
	ok(ibv_start_poll(cqx, &pattr) == 0 && cqx->wr_id == 732 &&
	   cqx->status == IBV_WC_MW_BIND_ERR &&
	   ibv_wc_read_opcode(cqx) == IBV_WC_BIND_MW,
	   "ibv_cq_ex: IBV_WC_MW_BIND_ERR with IBV_WC_BIND_MW");
	ibv_end_poll(cqx);
	qp.sq.tail = qp.sq.pi;
}

static void test_mw_control(void)
{
	struct ibv_qp_init_attr_ex attr = {
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = &mw_pd, .qp_type = IBV_QPT_RC,
		.send_cq = &cq.verbs_cq.cq, .recv_cq = &cq.verbs_cq.cq,
		.send_ops_flags = IBV_QP_EX_WITH_BIND_MW,
	};
	uint64_t caps = ctx.caps;

	ctx.caps = WREN_CAP_RDMA_MW;
	ok(!wren_qp_check(&ctx, &attr), "RC QP with IBV_QP_EX_WITH_BIND_MW");
	attr.qp_type = IBV_QPT_UC;
	ctx.caps |= WREN_CAP_RDMA_UC;
	ok(!wren_qp_check(&ctx, &attr), "UC QP with IBV_QP_EX_WITH_BIND_MW");
	attr.qp_type = IBV_QPT_UD;
	ok(wren_qp_check(&ctx, &attr) == EOPNOTSUPP,
	   "UD QP with IBV_QP_EX_WITH_BIND_MW: EOPNOTSUPP");
	attr.qp_type = IBV_QPT_RC;
	ctx.caps = 0;
	ok(wren_qp_check(&ctx, &attr) == EOPNOTSUPP,
	   "no WREN_CAP_RDMA_MW: IBV_QP_EX_WITH_BIND_MW is EOPNOTSUPP");

	errno = 0;
	ok(!wren_alloc_mw(&mw_pd, IBV_MW_TYPE_2) && errno == EOPNOTSUPP,
	   "alloc_mw without WREN_CAP_RDMA_MW: EOPNOTSUPP");
	ctx.caps = WREN_CAP_RDMA_MW;
	errno = 0;
	ok(!wren_alloc_mw(&mw_pd, 3) && errno == EINVAL,
	   "alloc_mw of a type other than 1 and 2: EINVAL");
	ctx.caps = caps;
}

static void test_mw(void)
{
	mw_pd.context = &ctx.ibv_ctx.context;
	mw_other_pd.context = &ctx.ibv_ctx.context;
	mw_mr.ibv_mr = (struct ibv_mr){
		.context = &ctx.ibv_ctx.context, .pd = &mw_pd,
		.addr = (void *)0x10000, .length = 0x4000,
		.lkey = 0x1201, .rkey = 0x1201,
	};
	mw_mr.mr_type = IBV_MR_TYPE_MR;
	mw_mr.access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND;
	/* What verbs_set_ops() would have set; ibv_bind_mw() calls it. */
	ctx.ibv_ctx.context.ops.bind_mw = wren_bind_mw;
	qp.verbs_qp.qp.qp_type = IBV_QPT_RC;
	qp.sq.tail = qp.sq.pi;

	test_mw_bind_type1();
	test_mw_bind_errors();
	test_mw_post_send();
	test_mw_wr_api();
	test_mw_control();
}

/* ----------------------------------------------------------------- XRC */

/* An XRC initiator: an SQ on the test's CQ, no receive side. */
static struct wren_qp xqp;

static void xqp_setup(void)
{
	xqp.verbs_qp.qp.context = &ctx.ibv_ctx.context;
	xqp.verbs_qp.qp.send_cq = &cq.verbs_cq.cq;
	xqp.verbs_qp.qp.qp_type = IBV_QPT_XRC_SEND;
	xqp.verbs_qp.qp.state = IBV_QPS_RTS;
	xqp.verbs_qp.qp.qp_num = 0x43;
	xqp.qpn = 0x43;
	xqp.xrc_send = true;
	if (wren_wq_init(&xqp.sq, 8, 7, 15))
		abort();
	xqp.sq.max_sge = wren_sq_max_sge(7);
	xqp.max_inline = wren_sq_max_inline(7);
	xqp.buf.addr = zalloc_pages(4096);
	xqp.sq.ring = xqp.buf.addr;
	xqp.dbrec = (struct wren_qp_dbrec *)((uint8_t *)xqp.buf.addr + 1024);
	if (wren_store_qp(&ctx, &xqp))
		abort();
}

static void test_xrc_post_send(void)
{
	struct ibv_sge sge = { .addr = 0x1000, .length = 64, .lkey = 0x55 };
	struct ibv_send_wr wr[2], *bad = NULL;
	struct ibv_recv_wr rwr = { .wr_id = 1 }, *rbad = NULL;
	struct ibv_wc wc;
	uint8_t *w;

	memset(xqp.sq.ring, 0xa5, 8 << 7);
	wr[0] = send_wr(800, IBV_WR_SEND, &sge, 0);
	wr[0].qp_type.xrc.remote_srqn = 0x1234;
	wr[0].next = &wr[1];
	wr[1] = send_wr(801, IBV_WR_RDMA_WRITE, &sge, IBV_SEND_SIGNALED);
	wr[1].wr.rdma.remote_addr = 0x9000;
	wr[1].wr.rdma.rkey = 0x77;
	wr[1].qp_type.xrc.remote_srqn = 0xff005678;
	ok(wren_post_send(&xqp.verbs_qp.qp, wr, &bad) == 0 &&
	   db_read(&ctx, WREN_DB_SQ) == WREN_DB_VAL(0x43, 0, 2),
	   "XRC_SEND: post a SEND and an RDMA WRITE, one doorbell");
	w = wren_wq_slot(&xqp.sq, 0);
	ok(w[0] == WREN_WQE_SEND && w[2] == 1 && wqe32(w, 8) == 0 &&
	   wqe32(w, 12) == 0x1234 && wqe64(w, 16) == 0x1000,
	   "XRC_SEND WQE: the remote SRQ in ctrl.xrc_srqn, the SGE after the control segment");
	w = wren_wq_slot(&xqp.sq, 1);
	ok(w[0] == WREN_WQE_RDMA_WRITE && wqe32(w, 12) == 0x005678 &&
	   wqe64(w, 16) == 0x9000 && wqe32(w, 24) == 0x77,
	   "every WQE names its own SRQ (24 bits), RDMA after it as on RC");
	dev_cqe_qp(0x43, 0, WREN_WQE_RDMA_WRITE, WREN_CQE_SUCCESS, 1, 0, 0, 0);
	ok(wren_poll_cq(&cq.verbs_cq.cq, 1, &wc) == 1 && wc.wr_id == 801 &&
	   wc.qp_num == 0x43 && wc.opcode == IBV_WC_RDMA_WRITE &&
	   xqp.sq.tail == 2,
	   "its send completion as an RC QP's, retiring the unsignalled SEND");

	wr[0] = send_wr(802, IBV_WR_BIND_MW, NULL, 0);
	ok(wren_post_send(&xqp.verbs_qp.qp, wr, &bad) == EINVAL &&
	   bad == &wr[0] && xqp.sq.pi == 2,
	   "XRC_SEND: IBV_WR_BIND_MW is refused (the device takes none)");
	{
		struct ibv_mw mw = { .context = &ctx.ibv_ctx.context,
				     .pd = &mw_pd, .rkey = 0x00040000,
				     .type = IBV_MW_TYPE_1 };
		struct ibv_mw_bind bind = { .wr_id = 803 };

		ok(wren_bind_mw(&xqp.verbs_qp.qp, &mw, &bind) == EINVAL &&
		   mw.rkey == 0x00040000 && xqp.sq.pi == 2,
		   "XRC_SEND: ibv_bind_mw is refused, the key kept");
	}
	ok(wren_post_recv(&xqp.verbs_qp.qp, &rwr, &rbad) == EINVAL &&
	   rbad == &rwr,
	   "XRC_SEND: post_recv is EINVAL (no receive side)");

	/* Any other QP writes 0 there, whatever the WR's union holds. */
	qp.sq.tail = qp.sq.pi;
	memset(wren_wq_slot(&qp.sq, qp.sq.pi), 0xa5, 1 << qp.sq.wqe_shift);
	w = wren_wq_slot(&qp.sq, qp.sq.pi);
	wr[0] = send_wr(804, IBV_WR_SEND, &sge, 0);
	wr[0].qp_type.xrc.remote_srqn = 0x999;
	ok(wren_post_send(&qp.verbs_qp.qp, wr, &bad) == 0 &&
	   wqe32(w, 12) == 0,
	   "an RC QP's WQE has xrc_srqn 0 (the device refuses anything else)");
	qp.sq.tail = qp.sq.pi;
}

static void test_xrc_wr_api(void)
{
	struct ibv_qp_init_attr_ex attr = {
		.send_ops_flags = IBV_QP_EX_WITH_SEND |
				  IBV_QP_EX_WITH_RDMA_WRITE,
	};
	struct ibv_qp_ex *qpx = &xqp.verbs_qp.qp_ex;
	uint32_t start = xqp.sq.pi;
	char data[] = "xrc";
	uint8_t *w;

	wren_qp_fill_wr_ops(&xqp, &attr);
	ok(qpx->wr_set_xrc_srqn && !qp.verbs_qp.qp_ex.wr_set_xrc_srqn,
	   "wr_set_xrc_srqn on an XRC initiator only");
	memset(xqp.sq.ring, 0xa5, 8 << 7);
	ibv_wr_start(qpx);
	qpx->wr_id = 810;
	qpx->wr_flags = 0;
	ibv_wr_send(qpx);
	ibv_wr_set_xrc_srqn(qpx, 0xabc);
	ibv_wr_set_sge(qpx, 0x33, 0x6000, 16);
	qpx->wr_id = 811;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_write(qpx, 0x78, 0xa000);
	ibv_wr_set_xrc_srqn(qpx, 0xdef);
	ibv_wr_set_inline_data(qpx, data, 3);
	qpx->wr_id = 812;
	ibv_wr_send(qpx);
	ok(ibv_wr_complete(qpx) == 0 && xqp.sq.pi == start + 3 &&
	   db_read(&ctx, WREN_DB_SQ) == WREN_DB_VAL(0x43, 0, start + 3),
	   "wr_send/wr_rdma_write with wr_set_xrc_srqn: 3 WQEs, one doorbell");
	w = wren_wq_slot(&xqp.sq, start);
	ok(w[0] == WREN_WQE_SEND && wqe32(w, 12) == 0xabc &&
	   wqe64(w, 16) == 0x6000,
	   "wr_set_xrc_srqn names the SRQ of the WQE it follows");
	w = wren_wq_slot(&xqp.sq, start + 1);
	ok(w[0] == WREN_WQE_RDMA_WRITE && wqe32(w, 12) == 0xdef &&
	   wqe32(w, 24) == 0x78 && w[1] == (WREN_WQE_F_SIGNALED |
					    WREN_WQE_F_INLINE),
	   "... each its own");
	ok(wqe32(wren_wq_slot(&xqp.sq, start + 2), 12) == 0,
	   "a WQE without wr_set_xrc_srqn names SRQ 0");
	xqp.sq.tail = xqp.sq.pi;
}

/* An XRC target, made or opened: a handle, no rings. */
static void test_xrc_recv_qp(void)
{
	struct wren_qp tqp = {
		.verbs_qp.qp = { .context = &ctx.ibv_ctx.context,
				 .qp_type = IBV_QPT_XRC_RECV,
				 .state = IBV_QPS_RTS, .qp_num = 0x44 },
		.qpn = 0x44, .xrc_recv = true,
	};
	struct ibv_sge sge = { .addr = 0x1000, .length = 8, .lkey = 0x55 };
	struct ibv_send_wr wr = send_wr(820, IBV_WR_SEND, &sge, 0), *bad = NULL;
	struct ibv_recv_wr rwr = { .wr_id = 821 }, *rbad = NULL;

	ok(wren_post_send(&tqp.verbs_qp.qp, &wr, &bad) == EINVAL && bad == &wr,
	   "XRC_RECV: post_send is EINVAL (no SQ)");
	ok(wren_post_recv(&tqp.verbs_qp.qp, &rwr, &rbad) == EINVAL &&
	   rbad == &rwr,
	   "XRC_RECV: post_recv is EINVAL (it receives through XRC SRQs)");
}

/* What is refused before the kernel hears of anything. */
static void test_xrc_control(void)
{
	struct ibv_context *ibctx = &ctx.ibv_ctx.context;
	struct wren_context other = {};
	struct wren_cq ocq = { .verbs_cq.cq.context = &other.ibv_ctx.context };
	struct ibv_xrcd xrcd = { .context = ibctx };
	struct wren_srq srq = { .verbs_srq.srq.context = ibctx,
				.srqn = 0x1234 };
	struct ibv_qp_init_attr_ex qattr = {
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = &mw_pd, .qp_type = IBV_QPT_XRC_SEND,
		.send_cq = &cq.verbs_cq.cq,
		.cap = { .max_send_sge = 1, .max_recv_wr = 1 << 20 },
	};
	struct ibv_qp_init_attr_ex rattr = {
		.comp_mask = IBV_QP_INIT_ATTR_XRCD, .xrcd = &xrcd,
		.qp_type = IBV_QPT_XRC_RECV,
	};
	struct ibv_srq_init_attr_ex sattr = {
		.attr = { .max_wr = 8, .max_sge = 1 },
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			     IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ,
		.srq_type = IBV_SRQT_XRC, .pd = &mw_pd, .xrcd = &xrcd,
		.cq = &cq.verbs_cq.cq,
	};
	struct ibv_xrcd_init_attr xattr = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = -1, .oflags = O_CREAT,
	};
	struct ibv_qp_open_attr oattr = {
		.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD |
			     IBV_QP_OPEN_ATTR_TYPE,
		.qp_num = 0x44, .xrcd = &xrcd, .qp_type = IBV_QPT_XRC_RECV,
	};
	uint64_t caps = ctx.caps;
	uint32_t n = 0;

	ctx.caps = 0;
	errno = 0;
	ok(!wren_open_xrcd(ibctx, &xattr) && errno == EOPNOTSUPP,
	   "no WREN_CAP_RDMA_XRC: open_xrcd is EOPNOTSUPP");
	ok(wren_qp_check(&ctx, &qattr) == EOPNOTSUPP,
	   "... an XRC_SEND QP too");
	errno = 0;
	ok(!wren_create_qp_ex(ibctx, &rattr) && errno == EOPNOTSUPP,
	   "... an XRC_RECV QP too");
	errno = 0;
	ok(!wren_open_qp(ibctx, &oattr) && errno == EOPNOTSUPP,
	   "... open_qp too");
	errno = 0;
	ok(!wren_create_srq_ex(ibctx, &sattr) && errno == EOPNOTSUPP,
	   "... an XRC SRQ too");
	ok(wren_get_srq_num(&srq.verbs_srq.srq, &n) == EOPNOTSUPP,
	   "... and get_srq_num");

	ctx.caps = WREN_CAP_RDMA_XRC | WREN_CAP_RDMA_MW;
	ok(!wren_qp_check(&ctx, &qattr),
	   "XRC_SEND: a PD and a send CQ, no receive CQ; receive capabilities ignored");
	qattr.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	qattr.send_ops_flags = IBV_QP_EX_WITH_RDMA_READ |
			       IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |
			       IBV_QP_EX_WITH_SEND_WITH_INV;
	ok(!wren_qp_check(&ctx, &qattr), "XRC_SEND takes RC's ibv_wr_* opcodes");
	qattr.send_ops_flags = IBV_QP_EX_WITH_BIND_MW;
	ok(wren_qp_check(&ctx, &qattr) == EOPNOTSUPP,
	   "but not IBV_QP_EX_WITH_BIND_MW");
	qattr.comp_mask &= ~IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	qattr.srq = &srq.verbs_srq.srq;
	ok(wren_qp_check(&ctx, &qattr) == EINVAL, "XRC_SEND with an SRQ: EINVAL");
	qattr.srq = NULL;
	qattr.send_cq = NULL;
	ok(wren_qp_check(&ctx, &qattr) == EINVAL,
	   "XRC_SEND without a send CQ: EINVAL");

	rattr.comp_mask = 0;
	errno = 0;
	ok(!wren_create_qp_ex(ibctx, &rattr) && errno == EINVAL,
	   "XRC_RECV without a domain: EINVAL");
	rattr.comp_mask = IBV_QP_INIT_ATTR_XRCD |
			  IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	rattr.send_ops_flags = IBV_QP_EX_WITH_SEND;
	errno = 0;
	ok(!wren_create_qp_ex(ibctx, &rattr) && errno == EOPNOTSUPP,
	   "XRC_RECV with send opcodes: EOPNOTSUPP");
	oattr.qp_type = IBV_QPT_RC;
	errno = 0;
	ok(!wren_open_qp(ibctx, &oattr) && errno == EINVAL,
	   "open_qp of anything but XRC_RECV: EINVAL");

	sattr.comp_mask &= ~IBV_SRQ_INIT_ATTR_CQ;
	errno = 0;
	ok(!wren_create_srq_ex(ibctx, &sattr) && errno == EINVAL,
	   "an XRC SRQ without a CQ: EINVAL");
	sattr.comp_mask |= IBV_SRQ_INIT_ATTR_CQ;
	sattr.cq = &ocq.verbs_cq.cq;
	errno = 0;
	ok(!wren_create_srq_ex(ibctx, &sattr) && errno == EINVAL,
	   "... with another context's CQ: EINVAL");
	sattr.cq = &cq.verbs_cq.cq;
	sattr.comp_mask &= ~IBV_SRQ_INIT_ATTR_XRCD;
	errno = 0;
	ok(!wren_create_srq_ex(ibctx, &sattr) && errno == EINVAL,
	   "... without a domain: EINVAL");
	sattr.comp_mask |= IBV_SRQ_INIT_ATTR_XRCD;
	sattr.comp_mask &= ~IBV_SRQ_INIT_ATTR_PD;
	errno = 0;
	ok(!wren_create_srq_ex(ibctx, &sattr) && errno == EINVAL,
	   "... without a PD: EINVAL");
	sattr.comp_mask |= IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TM;
	sattr.srq_type = IBV_SRQT_TM;
	errno = 0;
	ok(!wren_create_srq_ex(ibctx, &sattr) && errno == EOPNOTSUPP,
	   "a tag matching SRQ: EOPNOTSUPP");
	ok(wren_get_srq_num(&srq.verbs_srq.srq, &n) == 0 && n == 0x1234,
	   "get_srq_num gives the SRQ's number");
	ctx.caps = caps;
}

/*
 * Receives through an XRC SRQ: the CQE names the SRQ (src_qp) and a
 * target QP this process does not have; polling finds the SRQ in the
 * context's table, frees its slot and reports the target's number.
 */
static void test_xrc_poll(void)
{
	struct ibv_cq_init_attr_ex cattr = {
		.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_QP_NUM |
			    IBV_WC_EX_WITH_SRC_QP,
	};
	struct ibv_cq_ex *cqx = &cq.verbs_cq.cq_ex;
	struct ibv_poll_cq_attr pattr = {};
	struct ibv_sge sge = { 0x5000, 32, 4 };
	struct ibv_recv_wr rwr = { .sg_list = &sge, .num_sge = 1 }, *rbad;
	struct ibv_send_wr wr = send_wr(830, IBV_WR_SEND, NULL,
					IBV_SEND_SIGNALED), *bad;
	struct wren_srq xs = {};
	struct ibv_wc wc[4];
	int i, n;

	srq_setup(&xs);
	xs.verbs_srq.srq.context = &ctx.ibv_ctx.context;
	xs.srqn = 0x99;
	xs.xrc_cq = &cq;
	ok(!wren_store_srq(&ctx, &xs) && wren_find_srq(&ctx, 0x99) == &xs &&
	   !wren_find_srq(&ctx, 0x98) && !wren_find_qp(&ctx, 0x99),
	   "an XRC SRQ is found by its number, in a table of its own");
	for (i = 0; i < 3; i++) {
		rwr.wr_id = 900 + i;
		wren_post_srq_recv(&xs.verbs_srq.srq, &rwr, &rbad);
	}

	dev_cqe_qp(0x5555, 0x99, WREN_CQE_OP_RECV, WREN_CQE_SUCCESS, 1,
		   WREN_CQE_F_XRC | WREN_CQE_F_IMM, 100, htobe32(7));
	memset(wc, 0xff, sizeof(wc));
	ok(wren_poll_cq(&cq.verbs_cq.cq, 4, wc) == 1 && wc[0].wr_id == 901 &&
	   wc[0].status == IBV_WC_SUCCESS && wc[0].opcode == IBV_WC_RECV &&
	   wc[0].qp_num == 0x5555 && wc[0].byte_len == 100 &&
	   wc[0].imm_data == htobe32(7) && wc[0].src_qp == 0,
	   "ibv_poll_cq: an XRC receive gives the SRQ's wr_id and the target QP's number");
	ok(!xs.busy[1] && xs.busy[0] && xs.outstanding == 2,
	   "... and frees the SRQ slot it completed, as an RC QP's SRQ receive");

	wren_cq_fill_ops(&cq, &cattr);
	dev_cqe_qp(0x5556, 0x99, WREN_CQE_OP_RECV, WREN_CQE_WR_FLUSH_ERR, 0,
		   WREN_CQE_F_XRC, 0, 0);
	ok(ibv_start_poll(cqx, &pattr) == 0 && cqx->wr_id == 900 &&
	   cqx->status == IBV_WC_WR_FLUSH_ERR &&
	   ibv_wc_read_qp_num(cqx) == 0x5556 && ibv_wc_read_src_qp(cqx) == 0 &&
	   ibv_next_poll(cqx) == ENOENT,
	   "ibv_start_poll: an XRC receive flushed, its wr_id and target QP");
	ibv_end_poll(cqx);
	ok(!xs.busy[0] && xs.outstanding == 1, "its slot freed too");

	dev_cqe_qp(0x5555, 0x98, WREN_CQE_OP_RECV, WREN_CQE_SUCCESS, 2,
		   WREN_CQE_F_XRC, 8, 0);
	ok(wren_poll_cq(&cq.verbs_cq.cq, 4, wc) == 1 && wc[0].wr_id == 0 &&
	   wc[0].status == IBV_WC_GENERAL_ERR && wc[0].qp_num == 0x5555 &&
	   xs.busy[2],
	   "an XRC receive of an SRQ the context lacks: IBV_WC_GENERAL_ERR, nothing freed");
	xs.xrc_cq = NULL;
	dev_cqe_qp(0x5555, 0x99, WREN_CQE_OP_RECV, WREN_CQE_SUCCESS, 2,
		   WREN_CQE_F_XRC, 8, 0);
	ok(wren_poll_cq(&cq.verbs_cq.cq, 4, wc) == 1 &&
	   wc[0].status == IBV_WC_GENERAL_ERR && xs.busy[2],
	   "... so is one on a CQ that is not its SRQ's");
	xs.xrc_cq = &cq;

	/* Destroying a QP leaves XRC receives; destroying their SRQ not. */
	xqp.sq.tail = xqp.sq.pi;
	wren_post_send(&xqp.verbs_qp.qp, &wr, &bad);
	dev_cqe_qp(0x5555, 0x99, WREN_CQE_OP_RECV, WREN_CQE_SUCCESS, 2,
		   WREN_CQE_F_XRC, 8, 0);
	dev_cqe_qp(0x43, 0, WREN_WQE_SEND, WREN_CQE_SUCCESS, xqp.sq.pi - 1, 0,
		   0, 0);
	wren_cq_clean(&cq, 0x5555, NULL);
	wren_cq_clean_xrc_srq(&cq, 0x98);
	ok(((struct wren_cqe *)wren_cq_cqe(&cq, cq.ci))->qpn == htole32(0x5555),
	   "cleaning a QP or another SRQ leaves an XRC SRQ's receive alone");
	wren_cq_clean_xrc_srq(&cq, 0x99);
	n = wren_poll_cq(&cq.verbs_cq.cq, 4, wc);
	ok(n == 1 && wc[0].wr_id == 830 && wc[0].qp_num == 0x43 &&
	   cq.ci == dev_cq_pi,
	   "cleaning the XRC SRQ drops its receives, not the others'");

	wren_clear_srq(&ctx, 0x99);
	ok(!wren_find_srq(&ctx, 0x99), "a destroyed XRC SRQ leaves the table");
	srq_teardown(&xs);
}

static void test_xrc(void)
{
	xqp_setup();
	test_xrc_post_send();
	test_xrc_wr_api();
	test_xrc_recv_qp();
	test_xrc_control();
	test_xrc_poll();
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	setup();
	test_post_send();
	test_wqe_layouts();
	test_recv();
	test_srq();
	test_wr_api();
	test_wr_iba15();
	test_cq_ex_and_arm();
	test_cq_timestamps();
	test_clean();
	test_srq_clean();
	test_parent_domain();
	test_thread_domain();
	test_mw();
	test_xrc();
	return tap_done();
}
