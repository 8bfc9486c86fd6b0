// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Loss and its recovery between two models: frames dropped or corrupted
 * in the harness's "switch" (requests, ACKs, READ responses, atomic
 * ACKs), go-back-N from the NAK or the timeout, READ re-execution and
 * atomic replay from the responder's resources (an atomic never runs
 * twice), the PSN sequence error and duplicate counters, and
 * max_rd_atomic on the wire.
 */
#include <stdlib.h>

#include "roce/whw_roce.h"
#include "roce_tests.h"

/* A mix of SENDs, WRITEs and READs of @len each under @drop_every loss. */
static void lossy_mix(unsigned int drop_every, unsigned int corrupt,
		      uint32_t len, int rounds)
{
	struct ro_conn c = { .mtu = WREN_MTU_1024_, .timeout = 8, .retry = 7,
			     .rnr_retry = 7, .min_rnr = 1, .rd_atomic = 4,
			     .access = WREN_ACCESS_LOCAL_WRITE |
				       WREN_ACCESS_REMOTE_WRITE |
				       WREN_ACCESS_REMOTE_READ };
	struct rc_env e;
	unsigned int good = 0, cqes = 0;

	rc_env_init(&e, &c);
	e.p.drop_every = drop_every;
	for (int r = 0; r < rounds; r++) {
		struct ro_wqe w = { .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
		uint8_t *send = rc_pattern(&e, 0, 0, len, 3 * r);
		uint8_t *wr = rc_pattern(&e, 0, 300000, len, 3 * r + 1);
		uint8_t *rd = rc_pattern(&e, 1, 600000, len, 3 * r + 2);

		e.p.corrupt_next = corrupt;
		rc_post_recv(&e, 1, 0, len);
		w.opcode = WREN_WQE_SEND;
		w.sge[0] = rc_sge(&e, 0, 0, len);
		ro_post_send(&e.qp[0], &w);
		w.opcode = WREN_WQE_RDMA_WRITE;
		w.sge[0] = rc_sge(&e, 0, 300000, len);
		w.raddr = e.mr[1].iova + 300000;
		w.rkey = e.mr[1].key;
		ro_post_send(&e.qp[0], &w);
		w.opcode = WREN_WQE_RDMA_READ;
		w.sge[0] = rc_sge(&e, 0, 600000, len);
		w.raddr = e.mr[1].iova + 600000;
		ro_post_send(&e.qp[0], &w);
		ro_settle(&e.p, 10000000000ull);
		{
			struct wren_cqe cq[4];
			unsigned int n = ro_cq_drain(&e.cq[0], cq, 4);
			bool ok = n == 3;

			for (unsigned int i = 0; i < n; i++)
				ok = ok && !cq[i].status;
			ok = ok && ro_cq_drain(&e.cq[1], NULL, 0) == 1 &&
			     rc_same(&e, 1, 0, send, len) &&
			     rc_same(&e, 1, 300000, wr, len) &&
			     rc_same(&e, 0, 600000, rd, len);
			cqes += n;
			if (ok)
				good++;
			else if (good + 1 == (unsigned int)r + 1 || !r)
				tap_diag("round %d: %u CQEs, status %u %u %u",
					 r, n, n ? cq[0].status : 0,
					 n > 1 ? cq[1].status : 0,
					 n > 2 ? cq[2].status : 0);
		}
		free(send);
		free(wr);
		free(rd);
	}
	tap_ok(good == (unsigned int)rounds &&
	       ro_counter(&e.p.n[0], WREN_RDMA_CNT_RETRANSMITS) > 0,
	       "%d rounds of SEND+WRITE+READ of %u bytes, %s: all data right "
	       "(%u good, %llu retransmits, %llu seq NAKs, %llu timeouts, "
	       "%llu ICRC drops)", rounds, len,
	       drop_every ? "1 frame in N lost" : "frames corrupted", good,
	       (unsigned long long)ro_counter(&e.p.n[0],
					      WREN_RDMA_CNT_RETRANSMITS),
	       (unsigned long long)ro_counter(&e.p.n[0],
					      WREN_RDMA_CNT_PACKET_SEQ_ERR),
	       (unsigned long long)ro_counter(&e.p.n[0],
					WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR),
	       (unsigned long long)(ro_counter(&e.p.n[0],
					       WREN_RDMA_CNT_RX_ICRC_ERRORS) +
				    ro_counter(&e.p.n[1],
					       WREN_RDMA_CNT_RX_ICRC_ERRORS)));
	(void)cqes;
	rc_env_fini(&e);
}

static void seq_nak(void)
{
	struct rc_env e;
	struct ro_wqe w = { .opcode = WREN_WQE_RDMA_WRITE,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	struct wren_cqe c;
	uint8_t *pat;

	rc_env_init(&e, NULL);
	pat = rc_pattern(&e, 0, 0, 40000, 1);
	w.sge[0] = rc_sge(&e, 0, 0, 40000);
	w.raddr = e.mr[1].iova;
	w.rkey = e.mr[1].key;
	e.p.drop_opcode = WHW_OP_WRITE_MIDDLE;
	e.p.drop_opcode_n = 1;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[0], &c) && c.status == 0 &&
	       rc_same(&e, 1, 0, pat, 40000) &&
	       ro_counter(&e.p.n[1], WREN_RDMA_CNT_OUT_OF_SEQUENCE) >= 1 &&
	       ro_counter(&e.p.n[0], WREN_RDMA_CNT_PACKET_SEQ_ERR) == 1 &&
	       ro_counter(&e.p.n[0], WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR) == 0,
	       "a WRITE middle packet lost: one PSN sequence NAK, go-back-N, "
	       "no timeout, data right");
	free(pat);
	rc_env_fini(&e);
}

static void lazy_write(struct rc_env *e, uint32_t i)
{
	struct ro_wqe w = { .opcode = WREN_WQE_RDMA_WRITE,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };

	w.sge[0] = rc_sge(e, 0, i * 64, 64);
	w.raddr = e->mr[1].iova + i * 64;
	w.rkey = e->mr[1].key;
	ro_post_send(&e->qp[0], &w);
}

/*
 * Each request re-arms its QP's ACK timeout later; the host timer is only
 * ever moved earlier (timer.c), so a stream of acknowledged messages costs
 * the host no timer calls, and a timer left armed too early fires, does
 * nothing and is armed for the real deadline.
 */
static void lazy_ack_timer(void)
{
	struct rc_env e;
	struct th *h;
	struct wren_cqe c;
	uint64_t t0, timeout, armed;
	unsigned int mods, ok = 0;

	rc_env_init(&e, NULL);
	h = e.p.n[0].d->h;
	t0 = h->now_ns;
	mods = h->timer_mods;
	lazy_write(&e, 0);
	ro_settle(&e.p, 0);
	ok += rc_one_cqe(&e.cq[0], &c) && c.status == 0;
	armed = h->timer_deadline;
	timeout = armed - t0;
	for (uint32_t i = 1; i <= 20; i++) {
		ro_advance(&e.p, 1000000);
		lazy_write(&e, i);
		ro_settle(&e.p, 0);
		ok += rc_one_cqe(&e.cq[0], &c) && c.status == 0;
	}
	tap_ok(armed != UINT64_MAX && ok == 21 &&
	       h->timer_mods == mods + 1 && h->timer_deadline == armed,
	       "21 acknowledged WRITEs 1 ms apart: the host timer armed once, "
	       "for the first one's ACK timeout (%u calls, %llu us)",
	       h->timer_mods - mods, (unsigned long long)(timeout / 1000));

	ro_advance(&e.p, 1000000);
	e.p.drop_next = 1;
	t0 = h->now_ns;
	lazy_write(&e, 21);
	ro_settle(&e.p, 0);
	ro_advance(&e.p, armed - h->now_ns);
	th_run(h);
	tap_ok(e.p.qlen == 0 && h->timer_deadline == t0 + timeout &&
	       ro_counter(&e.p.n[0], WREN_RDMA_CNT_RETRANSMITS) == 0,
	       "a lost WRITE: the early host timer fires, resends nothing and "
	       "is armed for the WRITE's own timeout");
	ro_advance(&e.p, t0 + timeout - 1 - h->now_ns);
	th_run(h);
	ok = e.p.qlen == 0 &&
	     ro_counter(&e.p.n[0], WREN_RDMA_CNT_RETRANSMITS) == 0;
	ro_advance(&e.p, 1);
	th_run(h);
	ok = ok && e.p.qlen == 1 &&
	     ro_counter(&e.p.n[0], WREN_RDMA_CNT_RETRANSMITS) == 1;
	ro_settle(&e.p, 1000000000ull);
	tap_ok(ok && rc_one_cqe(&e.cq[0], &c) && c.status == 0,
	       "... which resends it at that timeout, not before, and it "
	       "completes");
	rc_env_fini(&e);
}

static void read_reexec(void)
{
	struct rc_env e;
	struct ro_wqe w = { .opcode = WREN_WQE_RDMA_READ,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	struct wren_cqe c;
	uint8_t *pat;

	rc_env_init(&e, NULL);
	pat = rc_pattern(&e, 1, 0, 30000, 2);
	w.sge[0] = rc_sge(&e, 0, 0, 30000);
	w.raddr = e.mr[1].iova;
	w.rkey = e.mr[1].key;
	e.p.drop_opcode = WHW_OP_READ_RESP_MIDDLE;
	e.p.drop_opcode_n = 1;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[0], &c) && c.status == 0 &&
	       c.byte_len == 30000 && rc_same(&e, 0, 0, pat, 30000) &&
	       ro_counter(&e.p.n[1], WREN_RDMA_CNT_DUPLICATE_REQUEST) == 1 &&
	       ro_counter(&e.p.n[0], WREN_RDMA_CNT_IMPLIED_NAK_SEQ_ERR) >= 1,
	       "a READ response lost: READ asked again from the gap, "
	       "re-executed by the responder, data right");
	free(pat);
	rc_env_fini(&e);

	rc_env_init(&e, NULL);
	pat = rc_pattern(&e, 1, 0, 5000, 2);
	w.sge[0] = rc_sge(&e, 0, 0, 5000);
	e.p.drop_opcode = WHW_OP_READ_RESP_LAST;
	e.p.drop_opcode_n = 1;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[0], &c) && c.status == 0 &&
	       rc_same(&e, 0, 0, pat, 5000) &&
	       ro_counter(&e.p.n[0], WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR) == 1,
	       "the last READ response lost: timeout, the rest read again");
	free(pat);
	rc_env_fini(&e);
}

static void atomic_replay(void)
{
	struct rc_env e;
	struct ro_wqe w = { .opcode = WREN_WQE_ATOMIC_FETCH_ADD,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1,
			    .swap = 1 };
	uint64_t v = 41, got, orig;
	struct wren_cqe c;

	rc_env_init(&e, NULL);
	ro_mr_write(&e.mr[1], e.mr[1].iova + 8, &v, 8);
	w.sge[0] = rc_sge(&e, 0, 0, 8);
	w.raddr = e.mr[1].iova + 8;
	w.rkey = e.mr[1].key;
	e.p.drop_opcode = WHW_OP_ATOMIC_ACK;
	e.p.drop_opcode_n = 1;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	ro_mr_read(&e.mr[1], e.mr[1].iova + 8, &got, 8);
	ro_mr_read(&e.mr[0], e.mr[0].iova, &orig, 8);
	tap_ok(rc_one_cqe(&e.cq[0], &c) && c.status == 0 && got == 42 &&
	       orig == 41 &&
	       ro_counter(&e.p.n[1], WREN_RDMA_CNT_DUPLICATE_REQUEST) == 1,
	       "atomic ACK lost: the retried FETCH_ADD is answered from the "
	       "saved result, memory added to once");
	rc_env_fini(&e);
}

static void rd_atomic_limit(void)
{
	struct ro_conn c = { .mtu = 5, .timeout = 14, .retry = 7,
			     .rnr_retry = 7, .min_rnr = 1, .rd_atomic = 1,
			     .access = WREN_ACCESS_LOCAL_WRITE |
				       WREN_ACCESS_REMOTE_READ };
	struct ro_wqe w = { .opcode = WREN_WQE_RDMA_READ,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	struct rc_env e;
	unsigned int reads = 0;

	rc_env_init(&e, &c);
	e.p.hold = 1;
	for (int i = 0; i < 4; i++) {
		w.sge[0] = rc_sge(&e, 0, 1000 * (uint64_t)i, 1000);
		w.raddr = e.mr[1].iova;
		w.rkey = e.mr[1].key;
		ro_post_send(&e.qp[0], &w);
	}
	ro_settle(&e.p, 0);
	for (unsigned int i = 0; i < e.p.qlen; i++)
		if (ro_queued_opcode(&e.p, i) == WHW_OP_READ_REQ)
			reads++;
	e.p.hold = 0;
	ro_settle(&e.p, 1000000000ull);
	tap_ok(reads == 1 && ro_cq_drain(&e.cq[0], NULL, 0) == 4,
	       "max_rd_atomic 1: one READ on the wire at a time, all four "
	       "complete");
	rc_env_fini(&e);
}

static void fence(void)
{
	struct rc_env e;
	struct ro_wqe w = { .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	uint8_t *pat;
	struct wren_cqe c[3];

	rc_env_init(&e, NULL);
	/* READ remote into local, then a fenced WRITE of that local buffer
	 * back to another remote place: must carry the READ's data. */
	pat = rc_pattern(&e, 1, 0, 8000, 6);
	w.opcode = WREN_WQE_RDMA_READ;
	w.sge[0] = rc_sge(&e, 0, 0, 8000);
	w.raddr = e.mr[1].iova;
	w.rkey = e.mr[1].key;
	ro_post_send(&e.qp[0], &w);
	w.opcode = WREN_WQE_RDMA_WRITE;
	w.flags |= WREN_WQE_F_FENCE;
	w.raddr = e.mr[1].iova + 100000;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(ro_cq_drain(&e.cq[0], c, 3) == 2 && !c[0].status &&
	       !c[1].status && rc_same(&e, 1, 100000, pat, 8000),
	       "fenced WRITE after a READ of the same buffer carries the "
	       "READ's data");
	free(pat);
	rc_env_fini(&e);
}

static void sq_drain(void)
{
	struct rc_env e;
	struct ro_wqe w = { .opcode = WREN_WQE_RDMA_WRITE,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	struct wren_modify_qp_in m;
	struct wren_query_qp_out o;
	unsigned int drained;

	rc_env_init(&e, NULL);
	w.sge[0] = rc_sge(&e, 0, 0, 100000);
	w.raddr = e.mr[1].iova;
	w.rkey = e.mr[1].key;
	e.p.hold = 1;
	ro_post_send(&e.qp[0], &w);
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 0);
	memset(&m, 0, sizeof(m));
	m.qpn = e.qp[0].qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_SQ_DRAIN_NOTIFY;
	m.new_state = WREN_QPS_SQD;
	ro_modify(&e.p.n[0], &m);
	memset(&o, 0, sizeof(o));
	td_handle_cmd(e.p.n[0].d, WREN_AQ_OP_QUERY_QP, e.qp[0].qpn, &o,
		      sizeof(o));
	drained = td_aeq_count(e.p.n[0].d, WREN_EVENT_QP_SQ_DRAINED);
	tap_ok(o.state == WREN_QPS_SQD && o.sq_draining && !drained,
	       "SQD with WRITEs in flight: draining, no SQ_DRAINED yet");
	e.p.hold = 0;
	ro_settle(&e.p, 1000000000ull);
	memset(&o, 0, sizeof(o));
	td_handle_cmd(e.p.n[0].d, WREN_AQ_OP_QUERY_QP, e.qp[0].qpn, &o,
		      sizeof(o));
	tap_ok(!o.sq_draining && ro_cq_drain(&e.cq[0], NULL, 0) == 2 &&
	       td_aeq_count(e.p.n[0].d, WREN_EVENT_QP_SQ_DRAINED) == 1,
	       "... both complete, then one SQ_DRAINED event");
	rc_env_fini(&e);
}

void test_roce_loss(void)
{
	sq_drain();
	seq_nak();
	lazy_ack_timer();
	read_reexec();
	atomic_replay();
	rd_atomic_limit();
	fence();
	lossy_mix(13, 0, 20000, 20);
	lossy_mix(0, 2, 9000, 10);
	lossy_mix(100, 0, 262144, 4);
}
