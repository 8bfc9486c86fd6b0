// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What goes wrong, and how it is reported: every remote protection case
 * (wrong rkey, out of bounds, missing right on the MR or on the QP, MR of
 * another PD, deactivated MR) gets a remote access NAK and leaves the
 * target byte for byte unchanged; local key errors, the reserved lkey on
 * a user QP, malformed WQEs; a receive too small; flush to ERR; RNR with
 * and without enough retries; retries exhausted; CQ overrun.
 */
#include <stdlib.h>

#include "roce_tests.h"

#define ALL_ACCESS	(WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE | \
			 WREN_ACCESS_REMOTE_READ | WREN_ACCESS_REMOTE_ATOMIC)

enum prot_case {
	P_BAD_KEY, P_BOUNDS, P_MR_RIGHT, P_QP_RIGHT, P_OTHER_PD, P_DEACT,
	P_NUM
};

static const char *const prot_name[P_NUM] = {
	"wrong rkey", "out of bounds", "MR without the right",
	"QP without the right", "MR of another PD", "deactivated MR",
};

/* One remote operation against a protection case. */
static void prot_one(uint8_t opcode, enum prot_case pc)
{
	struct ro_conn conn = {
		.mtu = WREN_MTU_1024_, .timeout = 14, .retry = 7,
		.rnr_retry = 7, .min_rnr = 1, .rd_atomic = 4,
		.access = pc == P_QP_RIGHT ? WREN_ACCESS_LOCAL_WRITE :
			  ALL_ACCESS,
	};
	struct ro_wqe w = { .opcode = opcode, .flags = WREN_WQE_F_SIGNALED,
			    .nsge = 1, .swap = 1 };
	bool atomic = opcode == WREN_WQE_ATOMIC_FETCH_ADD;
	uint32_t len = atomic ? 8 : 3000;
	struct ro_mr mr;
	struct rc_env e;
	struct wren_cqe c;
	uint8_t *remote, *local;
	uint32_t access = ALL_ACCESS, pd;
	bool ok;

	rc_env_init(&e, &conn);
	pd = e.p.n[1].pd;
	if (pc == P_MR_RIGHT)
		access = WREN_ACCESS_LOCAL_WRITE;
	if (pc == P_OTHER_PD)
		pd = (uint32_t)td_alloc_pd(e.p.n[1].d);
	ro_mr_reg(&e.p.n[1], &mr, pd, 0x10000, 8192, access, 12, false);
	if (pc == P_DEACT)
		td_handle_cmd(e.p.n[1].d, WREN_AQ_OP_DEACTIVATE_MR, mr.idx,
			      NULL, 0);
	remote = malloc(8192);
	ro_fill(remote, 8192, 3);
	ro_mr_write(&mr, mr.iova, remote, 8192);
	local = rc_pattern(&e, 0, 0, len, 4);
	w.sge[0] = rc_sge(&e, 0, 0, len);
	w.raddr = mr.iova + (pc == P_BOUNDS ? 8192 - len + 8 : 16);
	w.rkey = pc == P_BAD_KEY ? mr.key ^ 0x01 : mr.key;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	{
		uint8_t *now = malloc(8192);

		ro_mr_read(&mr, mr.iova, now, 8192);
		ok = rc_one_cqe(&e.cq[0], &c) &&
		     c.status == WREN_CQE_REM_ACCESS_ERR &&
		     !memcmp(now, remote, 8192) &&
		     rc_same(&e, 0, 0, local, len) &&
		     ro_qp_state(&e.p.n[0], e.qp[0].qpn) == WREN_QPS_ERR &&
		     ro_qp_state(&e.p.n[1], e.qp[1].qpn) == WREN_QPS_ERR &&
		     td_aeq_count(e.p.n[1].d, WREN_EVENT_QP_ACCESS_ERR) == 1;
		free(now);
	}
	tap_ok(ok, "%s, %s: REM_ACCESS_ERR, target unchanged, both QPs in "
	       "ERR, QP_ACCESS_ERR event",
	       opcode == WREN_WQE_RDMA_WRITE ? "WRITE" :
	       opcode == WREN_WQE_RDMA_READ ? "READ" : "FETCH_ADD",
	       prot_name[pc]);
	free(remote);
	free(local);
	ro_mr_free(&mr);
	rc_env_fini(&e);
}

static void protection(void)
{
	for (int pc = 0; pc < P_NUM; pc++) {
		prot_one(WREN_WQE_RDMA_WRITE, (enum prot_case)pc);
		prot_one(WREN_WQE_RDMA_READ, (enum prot_case)pc);
		prot_one(WREN_WQE_ATOMIC_FETCH_ADD, (enum prot_case)pc);
	}
}

static void misaligned_atomic(void)
{
	struct ro_wqe w = { .opcode = WREN_WQE_ATOMIC_CMP_SWP,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	struct rc_env e;
	struct wren_cqe c;

	rc_env_init(&e, NULL);
	w.sge[0] = rc_sge(&e, 0, 0, 8);
	w.raddr = e.mr[1].iova + 4;
	w.rkey = e.mr[1].key;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[0], &c) && c.status == WREN_CQE_REM_INV_REQ_ERR &&
	       td_aeq_count(e.p.n[1].d, WREN_EVENT_QP_REQ_ERR) == 1,
	       "atomic at a misaligned address: REM_INV_REQ_ERR, QP_REQ_ERR");
	rc_env_fini(&e);
}

/* Posts @w then two good SENDs; the first CQE is the error, then flushes. */
static void local_error(struct ro_wqe *w, uint8_t status, const char *what,
			bool user_qp)
{
	struct ro_wqe good = { .opcode = WREN_WQE_SEND, .nsge = 1 };
	struct wren_cqe c[4];
	struct rc_env e;
	unsigned int n, tx;

	rc_env_init(&e, NULL);
	if (user_qp) {
		/* A QP of a user doorbell page, connected like the others. */
		struct ro_node *nd = &e.p.n[0];
		uint32_t uar = (uint32_t)td_alloc_uar(nd->d);
		struct ro_qp_opts o = { .type = WREN_QPT_RC, .uar = uar };
		struct ro_conn cn = { .mtu = 5, .timeout = 14, .retry = 7,
				      .rnr_retry = 7, .rd_atomic = 1,
				      .access = ALL_ACCESS };

		ro_cq_create(nd, &e.cq[0], 8, uar);
		o.scq = o.rcq = e.cq[0].cqn;
		ro_qp_create(nd, &e.qp[0], &o);
		/* The error is local: the peer need not know this QP. */
		ro_connect(&e.p, 0, &e.qp[0], &e.qp[1], &cn);
	}
	good.sge[0] = rc_sge(&e, 0, 0, 10);
	tx = e.p.n[0].d->h->tx_frames;
	ro_write_send(&e.qp[0], w);
	ro_write_send(&e.qp[0], &good);
	ro_write_send(&e.qp[0], &good);
	ro_ring(&e.qp[0]);
	ro_settle(&e.p, 1000000000ull);
	n = ro_cq_drain(&e.cq[0], c, 4);
	tap_ok(n == 3 && c[0].status == status && c[0].wqe_idx == 0 &&
	       c[1].status == WREN_CQE_WR_FLUSH_ERR && c[1].wqe_idx == 1 &&
	       c[2].status == WREN_CQE_WR_FLUSH_ERR && c[2].wqe_idx == 2 &&
	       e.p.n[0].d->h->tx_frames == tx &&
	       ro_qp_state(&e.p.n[0], e.qp[0].qpn) == WREN_QPS_ERR,
	       "%s: status %u, nothing sent, later WQEs flushed (CQE %u: %u)",
	       what, status, n, n ? c[0].status : 0);
	rc_env_fini(&e);
}

static void local_errors(void)
{
	static const uint8_t big[300];
	struct ro_wqe w;
	struct rc_env tmp;
	uint32_t key;
	uint64_t iova;

	/* Keys of the standard environment (deterministic). */
	rc_env_init(&tmp, NULL);
	key = tmp.mr[0].key;
	iova = tmp.mr[0].iova;
	rc_env_fini(&tmp);

	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_SEND;
	w.nsge = 1;
	w.sge[0].addr = iova;
	w.sge[0].length = 100;
	w.sge[0].lkey = key + 1;
	local_error(&w, WREN_CQE_LOC_PROT_ERR, "SEND with a wrong lkey", false);
	w.sge[0].lkey = key;
	w.sge[0].addr = iova + (1u << 20) - 50;
	local_error(&w, WREN_CQE_LOC_PROT_ERR, "SEND beyond its MR", false);
	w.opcode = WREN_WQE_RDMA_READ;
	w.sge[0].addr = iova;
	w.raddr = 0x10000;
	w.rkey = key;
	/* READ into an MR without local write: the standard one has it, so
	 * use the reserved lkey from a user QP instead. */
	w.sge[0].lkey = 1;
	local_error(&w, WREN_CQE_LOC_PROT_ERR,
		    "reserved lkey on a QP of a user doorbell page", true);
	memset(&w, 0, sizeof(w));
	w.opcode = 0x0c;
	local_error(&w, WREN_CQE_LOC_QP_OP_ERR, "unknown opcode 0x0c", false);
	w.opcode = WREN_WQE_REG_MR;
	local_error(&w, WREN_CQE_LOC_PROT_ERR,
		    "REG_MR naming no fast-registration MR", false);
	w.opcode = WREN_WQE_SEND;
	w.nsge = 31;
	for (int i = 0; i < 31; i++) {
		w.sge[i].addr = iova;
		w.sge[i].length = 1;
		w.sge[i].lkey = key;
	}
	local_error(&w, WREN_CQE_LOC_QP_OP_ERR, "31 SGEs (max_sge 30)", false);
	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_SEND;
	w.flags = WREN_WQE_F_INLINE;
	w.inl = big;
	w.inl_len = 257;
	local_error(&w, WREN_CQE_LOC_QP_OP_ERR, "inline data of 257 bytes "
		    "(max_inline 256)", false);
	w.inl_len = 10;
	w.ds_override = 3;
	local_error(&w, WREN_CQE_LOC_QP_OP_ERR,
		    "inline ds_count not matching its length", false);
	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_ATOMIC_FETCH_ADD;
	w.nsge = 1;
	w.sge[0].addr = iova;
	w.sge[0].length = 4;
	w.sge[0].lkey = key;
	local_error(&w, WREN_CQE_LOC_QP_OP_ERR, "atomic with a 4-byte SGE",
		    false);
}

static void reserved_lkey_kernel(void)
{
	struct ro_wqe w = { .opcode = WREN_WQE_SEND,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	uint8_t data[300], got[300];
	struct rc_env e;
	struct wren_cqe c;
	uint64_t bus;

	rc_env_init(&e, NULL);
	bus = td_alloc(e.p.n[0].d, 4096, 4096) + 5;
	ro_fill(data, sizeof(data), 8);
	th_mem_write(e.p.n[0].d->h, bus, data, sizeof(data));
	rc_post_recv(&e, 1, 0, 4096);
	w.sge[0].addr = bus;
	w.sge[0].length = sizeof(data);
	w.sge[0].lkey = 1;	/* reserved_lkey of QUERY_DEVICE */
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	ro_mr_read(&e.mr[1], e.mr[1].iova, got, sizeof(got));
	tap_ok(rc_one_cqe(&e.cq[0], &c) && c.status == 0 &&
	       !memcmp(got, data, sizeof(data)),
	       "reserved lkey on a kernel QP: bus addresses, SEND delivered");
	rc_env_fini(&e);
}

static void recv_too_small(void)
{
	struct ro_wqe w = { .opcode = WREN_WQE_SEND,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	struct rc_env e;
	struct wren_cqe c;

	rc_env_init(&e, NULL);
	rc_post_recv(&e, 1, 0, 5000);
	rc_post_recv(&e, 1, 0, 5000);
	w.sge[0] = rc_sge(&e, 0, 0, 6000);
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[0], &c) && c.status == WREN_CQE_REM_INV_REQ_ERR,
	       "SEND larger than the receive: requester REM_INV_REQ_ERR");
	{
		struct wren_cqe r[4];
		unsigned int n = ro_cq_drain(&e.cq[1], r, 4);

		tap_ok(n == 2 && r[0].status == WREN_CQE_LOC_LEN_ERR &&
		       r[0].wqe_idx == 0 &&
		       r[1].status == WREN_CQE_WR_FLUSH_ERR &&
		       r[1].wqe_idx == 1 &&
		       ro_counter(&e.p.n[1],
				  WREN_RDMA_CNT_RESP_LOCAL_LENGTH_ERROR) == 1,
		       "... responder LOC_LEN_ERR, then the other receive "
		       "flushed");
	}
	rc_env_fini(&e);
}

static void flush_on_err(void)
{
	struct ro_wqe w = { .opcode = WREN_WQE_SEND, .nsge = 1 };
	struct wren_modify_qp_in m;
	struct wren_cqe c[16];
	struct rc_env e;
	unsigned int n, sends = 0, recvs = 0;

	rc_env_init(&e, NULL);
	e.p.hold = 1;
	w.sge[0] = rc_sge(&e, 0, 0, 10);
	for (int i = 0; i < 3; i++) {
		ro_post_send(&e.qp[0], &w);
		rc_post_recv(&e, 0, 0, 10);
	}
	ro_settle(&e.p, 0);
	memset(&m, 0, sizeof(m));
	m.qpn = e.qp[0].qpn;
	m.attr_mask = WREN_QP_ATTR_STATE;
	m.new_state = WREN_QPS_ERR;
	ro_modify(&e.p.n[0], &m);
	/* Posted after ERR: flushed too (receives at the next SQ doorbell). */
	rc_post_recv(&e, 0, 0, 10);
	ro_post_send(&e.qp[0], &w);
	e.p.hold = 0;
	ro_settle(&e.p, 1000000000ull);
	n = ro_cq_drain(&e.cq[0], c, 16);
	for (unsigned int i = 0; i < n; i++) {
		if (c[i].status != WREN_CQE_WR_FLUSH_ERR)
			continue;
		if (c[i].opcode == WREN_CQE_OP_RECV)
			recvs++;
		else
			sends++;
	}
	tap_ok(n == 8 && sends == 4 && recvs == 4,
	       "MODIFY to ERR: 4 sends (unsignalled) and 4 receives, some "
	       "posted after, all FLUSH_ERR (%u CQEs)", n);
	rc_post_recv(&e, 0, 0, 10);
	ro_settle(&e.p, 5000000ull);
	n = ro_cq_drain(&e.cq[0], c, 16);
	ro_settle(&e.p, 20000000ull);
	n = n * 10 + ro_cq_drain(&e.cq[0], c, 16);
	tap_ok(n == 1 && c[0].status == WREN_CQE_WR_FLUSH_ERR &&
	       c[0].wqe_idx == 4,
	       "a receive posted to an ERR QP with no doorbell: flushed "
	       "within 10 ms (%u)", n);
	rc_env_fini(&e);
}

static void rnr(void)
{
	struct ro_conn c = { .mtu = 5, .timeout = 14, .retry = 7,
			     .rnr_retry = 7, .min_rnr = 3, .rd_atomic = 1,
			     .access = ALL_ACCESS };
	struct ro_wqe w = { .opcode = WREN_WQE_SEND,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	struct rc_env e;
	struct wren_cqe cq;
	uint64_t naks;

	rc_env_init(&e, &c);
	w.sge[0] = rc_sge(&e, 0, 0, 100);
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000ull);	/* 1 ms: RNR NAKs every 30 us */
	naks = ro_counter(&e.p.n[0], WREN_RDMA_CNT_RNR_NAK_RECEIVED);
	tap_ok(ro_cq_drain(&e.cq[0], NULL, 0) == 0 && naks >= 10 &&
	       ro_counter(&e.p.n[1], WREN_RDMA_CNT_RNR_NAK_SENT) == naks,
	       "SEND without a receive: RNR NAKs (%llu), rnr_retry 7 waits "
	       "for ever", (unsigned long long)naks);
	rc_post_recv(&e, 1, 0, 100);
	ro_settle(&e.p, 1000000ull);
	tap_ok(rc_one_cqe(&e.cq[0], &cq) && cq.status == 0 &&
	       rc_one_cqe(&e.cq[1], &cq) && cq.status == 0,
	       "... a receive posted later: the SEND completes");
	/* A multi-packet SEND: its later packets must not turn the RNR NAK
	 * into a sequence NAK (which would use up retry_cnt instead). */
	{
		uint8_t *pat = rc_pattern(&e, 0, 0, 10000, 3);
		uint64_t seq = ro_counter(&e.p.n[0],
					  WREN_RDMA_CNT_PACKET_SEQ_ERR);

		w.sge[0] = rc_sge(&e, 0, 0, 10000);
		ro_post_send(&e.qp[0], &w);
		ro_settle(&e.p, 2000000ull);
		rc_post_recv(&e, 1, 0, 10000);
		ro_settle(&e.p, 1000000ull);
		tap_ok(rc_one_cqe(&e.cq[0], &cq) && cq.status == 0 &&
		       rc_one_cqe(&e.cq[1], &cq) && cq.status == 0 &&
		       rc_same(&e, 1, 0, pat, 10000) &&
		       ro_counter(&e.p.n[0], WREN_RDMA_CNT_PACKET_SEQ_ERR) ==
		       seq,
		       "3-packet SEND under RNR for 2 ms (more than retry_cnt "
		       "timeouts' worth): completes, no sequence NAK");
		free(pat);
	}
	rc_env_fini(&e);

	c.rnr_retry = 2;
	rc_env_init(&e, &c);
	w.sge[0] = rc_sge(&e, 0, 0, 100);
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[0], &cq) &&
	       cq.status == WREN_CQE_RNR_RETRY_EXC_ERR &&
	       ro_counter(&e.p.n[0], WREN_RDMA_CNT_RNR_NAK_RECEIVED) == 3 &&
	       ro_counter(&e.p.n[0], WREN_RDMA_CNT_RNR_RETRY_EXCEEDED) == 1,
	       "rnr_retry 2 and no receive: 3 RNR NAKs, RNR_RETRY_EXC_ERR");
	rc_env_fini(&e);
}

static void retry_exceeded(void)
{
	struct ro_conn c = { .mtu = 5, .timeout = 10, .retry = 3,
			     .rnr_retry = 7, .min_rnr = 1, .rd_atomic = 1,
			     .access = ALL_ACCESS };
	struct ro_wqe w = { .opcode = WREN_WQE_RDMA_WRITE,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	struct rc_env e;
	struct wren_cqe cq;

	rc_env_init(&e, &c);
	w.sge[0] = rc_sge(&e, 0, 0, 100);
	w.raddr = e.mr[1].iova;
	w.rkey = e.mr[1].key;
	e.p.drop_next = 1000;
	e.p.only_from = 0;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[0], &cq) && cq.status == WREN_CQE_RETRY_EXC_ERR &&
	       ro_counter(&e.p.n[0], WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR) == 4 &&
	       ro_counter(&e.p.n[0], WREN_RDMA_CNT_RETRANSMITS) == 3,
	       "every frame lost, retry_cnt 3: 4 timeouts, 3 retransmits, "
	       "RETRY_EXC_ERR");
	rc_env_fini(&e);
}

static void cq_overrun(void)
{
	struct ro_wqe w = { .opcode = WREN_WQE_NOP,
			    .flags = WREN_WQE_F_SIGNALED };
	struct ro_qp_opts o = { .type = WREN_QPT_RC };
	struct rc_env e;
	struct ro_cq small;
	struct ro_qp qp;
	struct ro_conn cn = { .mtu = 5, .timeout = 14, .retry = 7,
			      .rnr_retry = 7, .rd_atomic = 1,
			      .access = ALL_ACCESS };
	struct wren_eqe ev;
	bool seen = false;

	rc_env_init(&e, NULL);
	ro_cq_create(&e.p.n[0], &small, 1, 0);
	o.scq = o.rcq = small.cqn;
	ro_qp_create(&e.p.n[0], &qp, &o);
	ro_connect(&e.p, 0, &qp, &e.qp[1], &cn);
	for (int i = 0; i < 3; i++)
		ro_post_send(&qp, &w);
	ro_settle(&e.p, 1000000000ull);
	while (td_aeq_poll(e.p.n[0].d, &ev))
		if (ev.type == WREN_EVENT_CQ_ERR && ev.data == small.cqn &&
		    ev.sub == WREN_CQ_SYND_OVERRUN)
			seen = true;
	tap_ok(seen && ro_counter(&e.p.n[0], WREN_RDMA_CNT_CQ_OVERFLOW) == 1,
	       "3 signalled NOPs into a 2-entry CQ: CQ_ERR OVERRUN event");
	rc_env_fini(&e);
}

static void qp_fatal(void)
{
	struct ro_wqe w = { .opcode = WREN_WQE_NOP,
			    .flags = WREN_WQE_F_SIGNALED };
	struct rc_env e;
	struct wren_eqe ev;
	struct wren_cqe c;
	bool seen = false;

	rc_env_init(&e, NULL);
	th_fault_add(e.p.n[0].d->h, e.qp[0].buf, 4096, true, false);
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	th_fault_clear(e.p.n[0].d->h);
	while (td_aeq_poll(e.p.n[0].d, &ev))
		if (ev.type == WREN_EVENT_QP_FATAL && ev.data == e.qp[0].qpn &&
		    ev.sub == WREN_WQ_SYND_DMA)
			seen = true;
	tap_ok(seen && rc_one_cqe(&e.cq[0], &c) &&
	       c.status == WREN_CQE_WR_FLUSH_ERR &&
	       ro_qp_state(&e.p.n[0], e.qp[0].qpn) == WREN_QPS_ERR,
	       "SQ ring unreadable: QP_FATAL (DMA), QP in ERR, WQE flushed");
	rc_env_fini(&e);
}

void test_roce_err(void)
{
	qp_fatal();
	protection();
	misaligned_atomic();
	local_errors();
	reserved_lkey_kernel();
	recv_too_small();
	flush_on_err();
	rnr();
	retry_exceeded();
	cq_overrun();
}
