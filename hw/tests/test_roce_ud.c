// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD, GSI and SRQ between two models: UD sends over IPv4 and IPv6 with
 * the GRH area of the receive buffer checked against the packet's IP
 * header, immediate data, the sender's QPN and MAC in the CQE, the Q_Key
 * check (and bit 31 meaning "the QP's own"), no receive posted (dropped,
 * no RNR), a message over the MTU, a receive too small; SRQ receives
 * shared by two QPs with the limit event, and the SRQ WQE of a message cut
 * short returned when its QP is reset or destroyed; COMM_EST; counters;
 * sends rung just before DESTROY_AH and DESTROY_QP still sent.
 */
#include <stdlib.h>

#include "roce/whw_roce.h"
#include "roce_tests.h"

#define ALL_ACCESS	(WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE | \
			 WREN_ACCESS_REMOTE_READ | WREN_ACCESS_REMOTE_ATOMIC)

struct ud_env {
	struct ro_pair p;
	struct ro_cq cq[2];
	struct ro_qp qp[2];
	struct ro_mr mr[2];
	uint32_t ah[2];
};

static void ud_init(struct ud_env *e, uint8_t type, bool ipv6)
{
	ro_pair_init(&e->p);
	for (int i = 0; i < 2; i++) {
		struct ro_node *n = &e->p.n[i];
		struct ro_qp_opts o = { .type = type };

		ro_cq_create(n, &e->cq[i], 8, 0);
		o.scq = o.rcq = e->cq[i].cqn;
		ro_qp_create(n, &e->qp[i], &o);
		ro_ud_ready(n, &e->qp[i], type == WREN_QPT_GSI ? 0x80010000u
							       : 0x1234);
		ro_mr_reg(n, &e->mr[i], n->pd, 0x40000, 65536, ALL_ACCESS, 12,
			  false);
		e->ah[i] = (uint32_t)ro_ah_create(&e->p, i, ipv6);
	}
}

static void ud_fini(struct ud_env *e)
{
	ro_mr_free(&e->mr[0]);
	ro_mr_free(&e->mr[1]);
	ro_pair_fini(&e->p);
}

static void ud_recv(struct ud_env *e, uint32_t len)
{
	struct wren_wqe_sge s = { .addr = e->mr[1].iova, .length = len,
				  .lkey = e->mr[1].key };

	ro_post_recv(&e->qp[1], &s, 1);
}

static void ud_send(struct ud_env *e, uint32_t len, uint32_t qkey,
		    uint8_t opcode, uint32_t imm)
{
	struct ro_wqe w = { .opcode = opcode, .flags = WREN_WQE_F_SIGNALED,
			    .nsge = 1, .imm = imm };

	w.ah = e->ah[0];
	w.dqpn = e->qp[1].qpn;
	w.qkey = qkey;
	w.sge[0].addr = e->mr[0].iova + 100;
	w.sge[0].length = len;
	w.sge[0].lkey = e->mr[0].key;
	ro_post_send(&e->qp[0], &w);
}

static void ud_basic(bool ipv6)
{
	struct ud_env e;
	struct wren_cqe c;
	uint8_t pat[1000], got[1040], grh[40];
	bool ok;

	ud_init(&e, WREN_QPT_UD, ipv6);
	ro_fill(pat, sizeof(pat), 12);
	ro_mr_write(&e.mr[0], e.mr[0].iova + 100, pat, sizeof(pat));
	ud_recv(&e, 2000);
	e.p.hold = 1;
	ud_send(&e, 1000, 0x1234, WREN_WQE_SEND_IMM, 0xcafe0001);
	ro_settle(&e.p, 0);
	/* The GRH area must be the IP header as it was on the wire. */
	{
		const struct ro_frame *f = &e.p.q[e.p.qhead];

		memset(grh, 0, sizeof(grh));
		if (ipv6)
			memcpy(grh, f->data + 14, 40);
		else
			memcpy(grh + 20, f->data + 14, 20);
	}
	e.p.hold = 0;
	ro_settle(&e.p, 1000000000ull);
	ro_mr_read(&e.mr[1], e.mr[1].iova, got, sizeof(got));
	ok = rc_one_cqe(&e.cq[1], &c) && c.status == 0 &&
	     c.opcode == WREN_CQE_OP_RECV && c.byte_len == 1040 &&
	     c.src_qp == e.qp[0].qpn &&
	     !memcmp(c.smac, e.p.n[0].mac, 6) &&
	     (c.flags & WREN_CQE_F_GRH) &&
	     !!(c.flags & WREN_CQE_F_IPV4) == !ipv6 &&
	     (c.flags & WREN_CQE_F_IMM) && c.imm_data == 0xcafe0001 &&
	     !memcmp(got, grh, 40) && !memcmp(got + 40, pat, 1000) &&
	     rc_one_cqe(&e.cq[0], &c) && c.status == 0;
	tap_ok(ok, "UD SEND_IMM over %s: GRH area = IP header, data, "
	       "src_qp, smac, flags", ipv6 ? "IPv6" : "IPv4");
	ud_fini(&e);
}

static void ud_checks(void)
{
	struct ud_env e;
	struct wren_cqe c;
	uint64_t disc;

	ud_init(&e, WREN_QPT_UD, false);
	ud_recv(&e, 2000);
	disc = ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ROCE_DISCARDS);
	ud_send(&e, 10, 0x9999, WREN_WQE_SEND, 0);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(ro_cq_drain(&e.cq[1], NULL, 0) == 0 &&
	       ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ROCE_DISCARDS) ==
	       disc + 1 && rc_one_cqe(&e.cq[0], &c) && c.status == 0,
	       "UD with the wrong Q_Key: sender completes, receiver drops "
	       "and counts");
	ud_send(&e, 10, 0x80000000u, WREN_WQE_SEND, 0);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[1], &c) && c.status == 0 && c.byte_len == 50,
	       "UD Q_Key with bit 31: the sender's own Q_Key is used");
	ro_cq_drain(&e.cq[0], NULL, 0);
	ud_send(&e, 10, 0x1234, WREN_WQE_SEND, 0);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(ro_cq_drain(&e.cq[1], NULL, 0) == 0 &&
	       ro_cq_drain(&e.cq[0], NULL, 0) == 1 &&
	       ro_qp_state(&e.p.n[1], e.qp[1].qpn) == WREN_QPS_RTS,
	       "UD with no receive posted: dropped, no RNR, QP stays RTS");
	ud_send(&e, 4097, 0x1234, WREN_WQE_SEND, 0);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[0], &c) && c.status == WREN_CQE_LOC_LEN_ERR,
	       "UD message over the MTU: LOC_LEN_ERR");
	ud_fini(&e);

	ud_init(&e, WREN_QPT_UD, false);
	ud_recv(&e, 100);
	ud_send(&e, 100, 0x1234, WREN_WQE_SEND, 0);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[1], &c) && c.status == WREN_CQE_LOC_LEN_ERR &&
	       ro_qp_state(&e.p.n[1], e.qp[1].qpn) == WREN_QPS_ERR,
	       "UD receive without room for GRH + data: LOC_LEN_ERR, QP ERR");
	ud_fini(&e);

	ud_init(&e, WREN_QPT_GSI, false);
	ud_recv(&e, 300);
	ud_send(&e, 256, 0x80010000u, WREN_WQE_SEND, 0);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(e.qp[0].qpn == 1 && rc_one_cqe(&e.cq[1], &c) && c.status == 0 &&
	       c.src_qp == 1 && c.byte_len == 296,
	       "GSI QP 1 to QP 1 with Q_Key 0x80010000");
	ud_fini(&e);
}

static void srq(void)
{
	struct rc_env e;
	struct ro_srq s;
	struct ro_qp q2[2];
	struct ro_cq rcq;
	struct ro_conn cn = { .mtu = 5, .timeout = 14, .retry = 7,
			      .rnr_retry = 7, .min_rnr = 1, .rd_atomic = 1,
			      .access = ALL_ACCESS };
	struct wren_cqe c[8];
	struct wren_eqe ev;
	unsigned int n, limit_events = 0;

	rc_env_init(&e, NULL);
	/* Side 1: two QPs on one SRQ (limit 2), both fed by side 0. */
	ro_srq_create(&e.p.n[1], &s, 4, 2);
	ro_cq_create(&e.p.n[1], &rcq, 6, 0);
	for (int i = 0; i < 2; i++) {
		struct ro_qp_opts o = { .type = WREN_QPT_RC, .srq = &s };
		struct ro_qp_opts o0 = { .type = WREN_QPT_RC };

		o.scq = o.rcq = rcq.cqn;
		ro_qp_create(&e.p.n[1], &q2[i], &o);
		o0.scq = o0.rcq = e.cq[0].cqn;
		if (i == 0) {
			ro_connect(&e.p, 1, &q2[0], &e.qp[0], &cn);
		}
		(void)o0;
	}
	/* Reconnect side 0's QP to q2[0]: fresh QP pair on side 0. */
	{
		struct wren_modify_qp_in m;

		memset(&m, 0, sizeof(m));
		m.qpn = e.qp[0].qpn;
		m.attr_mask = WREN_QP_ATTR_STATE;
		m.new_state = WREN_QPS_RESET;
		ro_modify(&e.p.n[0], &m);
		ro_connect(&e.p, 0, &e.qp[0], &q2[0], &cn);
	}
	td_aeq_count(e.p.n[1].d, 0xff);
	for (int i = 0; i < 4; i++) {
		struct wren_wqe_sge sg = rc_sge(&e, 1, 1000 * (uint64_t)i, 500);

		ro_srq_post(&s, &sg, 1);
	}
	for (int i = 0; i < 3; i++) {
		struct ro_wqe w = { .opcode = WREN_WQE_SEND, .nsge = 1 };

		w.sge[0] = rc_sge(&e, 0, 0, 100 + i);
		ro_post_send(&e.qp[0], &w);
	}
	ro_settle(&e.p, 1000000000ull);
	n = ro_cq_drain(&rcq, c, 8);
	while (td_aeq_poll(e.p.n[1].d, &ev))
		if (ev.type == WREN_EVENT_SRQ_LIMIT && ev.data == s.srqn)
			limit_events++;
	tap_ok(n == 3 && c[0].wqe_idx == 0 && c[1].wqe_idx == 1 &&
	       c[2].wqe_idx == 2 && c[2].byte_len == 102 && !c[2].status &&
	       c[0].qpn == q2[0].qpn && limit_events == 1,
	       "SRQ: three SENDs take SRQ WQEs 0..2; one SRQ_LIMIT event "
	       "when fewer than 2 remain");
	{
		struct wren_query_srq_out o;

		memset(&o, 0, sizeof(o));
		td_handle_cmd(e.p.n[1].d, WREN_AQ_OP_QUERY_SRQ, s.srqn, &o,
			      sizeof(o));
		tap_ok(o.wqes_posted == 1 && o.limit == 0,
		       "QUERY_SRQ: 1 WQE left, limit disarmed");
	}
	rc_env_fini(&e);
}

/*
 * A QP on an SRQ that is reset, or destroyed, while a SEND it receives is
 * cut short (its last packet lost) returns the SRQ WQE it held with a
 * flush CQE.  The SRQ's ring is consumed in order: a WQE that never
 * completes stays busy for software, which could then never post past it.
 */
static void srq_cut_short(bool destroy)
{
	struct ro_conn cn = { .mtu = 1, .timeout = 14, .retry = 7,
			      .rnr_retry = 7, .min_rnr = 1, .rd_atomic = 1,
			      .access = ALL_ACCESS };
	struct ro_wqe w = { .opcode = WREN_WQE_SEND, .nsge = 1 };
	struct ro_qp_opts o = { .type = WREN_QPT_RC };
	struct wren_modify_qp_in m;
	struct wren_wqe_sge sg;
	struct wren_cqe c[4];
	struct ro_cq rcq;
	struct ro_srq s;
	struct rc_env e;
	struct ro_qp q;
	unsigned int before, n;

	rc_env_init(&e, NULL);
	ro_srq_create(&e.p.n[1], &s, 2, 0);
	ro_cq_create(&e.p.n[1], &rcq, 6, 0);
	o.srq = &s;
	o.scq = o.rcq = rcq.cqn;
	ro_qp_create(&e.p.n[1], &q, &o);
	ro_connect(&e.p, 1, &q, &e.qp[0], &cn);
	memset(&m, 0, sizeof(m));
	m.qpn = e.qp[0].qpn;
	m.attr_mask = WREN_QP_ATTR_STATE;
	m.new_state = WREN_QPS_RESET;
	ro_modify(&e.p.n[0], &m);
	ro_connect(&e.p, 0, &e.qp[0], &q, &cn);

	sg = rc_sge(&e, 1, 0, 2000);
	ro_srq_post(&s, &sg, 1);
	ro_srq_post(&s, &sg, 1);
	/* 1000 bytes at MTU 256: FIRST, 2 x MIDDLE, LAST (lost, and again). */
	e.p.drop_opcode = WHW_OP_SEND_LAST;
	e.p.drop_opcode_n = 100;
	w.sge[0] = rc_sge(&e, 0, 0, 1000);
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000ull);
	before = ro_cq_drain(&rcq, c, 4);

	if (destroy) {
		td_handle_cmd(e.p.n[1].d, WREN_AQ_OP_DESTROY_QP, q.qpn, NULL, 0);
	} else {
		memset(&m, 0, sizeof(m));
		m.qpn = q.qpn;
		m.attr_mask = WREN_QP_ATTR_STATE;
		m.new_state = WREN_QPS_RESET;
		ro_modify(&e.p.n[1], &m);
	}
	n = ro_cq_drain(&rcq, c, 4);
	tap_ok(before == 0 && n == 1 && c[0].wqe_idx == 0 &&
	       c[0].opcode == WREN_CQE_OP_RECV &&
	       c[0].status == WREN_CQE_WR_FLUSH_ERR && c[0].qpn == q.qpn,
	       "SRQ: a QP %s in the middle of a SEND returns the SRQ WQE it "
	       "held, flushed (%u CQE(s) before, %u after)",
	       destroy ? "destroyed" : "reset", before, n);
	rc_env_fini(&e);
}

static void comm_est_and_counters(void)
{
	struct rc_env e;
	struct ro_wqe w = { .opcode = WREN_WQE_RDMA_WRITE, .nsge = 1 };
	uint64_t txp, rxp, rxb;

	rc_env_init(&e, NULL);
	w.sge[0] = rc_sge(&e, 0, 0, 10000);
	w.raddr = e.mr[1].iova;
	w.rkey = e.mr[1].key;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	txp = ro_counter(&e.p.n[0], WREN_RDMA_CNT_TX_ROCE_PACKETS);
	rxp = ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ROCE_PACKETS);
	rxb = ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ROCE_BYTES);
	tap_ok(txp == 3 && rxp == 3 && rxb > 10000 && rxb < 10300 &&
	       ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_WRITE_REQUESTS) == 1 &&
	       ro_counter(&e.p.n[0], WREN_RDMA_CNT_RX_ROCE_PACKETS) == 1,
	       "counters: 3 WRITE packets each way's count, 1 ACK back, "
	       "bytes");
	rc_env_fini(&e);
}

static void vlan(void)
{
	struct ud_env e;
	struct wren_create_ah_in in;
	struct wren_cqe c;
	uint8_t pat[300], got[300];
	const struct ro_frame *f;
	bool tagged;

	ud_init(&e, WREN_QPT_UD, false);
	memset(&in, 0, sizeof(in));
	in.pdn = e.p.n[0].pd;
	in.av.gid_index = 0;
	in.av.flags = WREN_AV_F_IPV4 | WREN_AV_F_VLAN;
	in.av.vlan_id = 100;
	in.av.sl = 5;
	memcpy(in.av.dgid, e.p.n[1].gid4, 16);
	memcpy(in.av.dmac, e.p.n[1].mac, 6);
	e.ah[0] = (uint32_t)td_cmd(e.p.n[0].d, WREN_AQ_OP_CREATE_AH, NULL, 0,
				   &in, sizeof(in), NULL, 0).result;
	ro_fill(pat, sizeof(pat), 31);
	ro_mr_write(&e.mr[0], e.mr[0].iova + 100, pat, sizeof(pat));
	ud_recv(&e, 400);
	e.p.hold = 1;
	ud_send(&e, 300, 0x1234, WREN_WQE_SEND, 0);
	ro_settle(&e.p, 0);
	f = &e.p.q[e.p.qhead];
	tagged = e.p.qlen && f->data[12] == 0x81 && f->data[13] == 0 &&
		 f->data[14] == (5 << 5) && f->data[15] == 100 &&
		 f->data[16] == 0x08;
	e.p.hold = 0;
	ro_settle(&e.p, 1000000000ull);
	ro_mr_read(&e.mr[1], e.mr[1].iova + 40, got, sizeof(got));
	tap_ok(tagged && rc_one_cqe(&e.cq[1], &c) && c.status == 0 &&
	       (c.flags & WREN_CQE_F_VLAN) && c.vlan_tci == (5 << 13 | 100) &&
	       !memcmp(got, pat, sizeof(pat)),
	       "UD over VLAN 100, priority 5: tagged on the wire, stripped, "
	       "VLAN in the CQE, data right");
	ud_fini(&e);
}

static void loopback(void)
{
	struct ro_conn cn = { .mtu = 5, .timeout = 14, .retry = 7,
			      .rnr_retry = 7, .min_rnr = 1, .rd_atomic = 4,
			      .access = ALL_ACCESS };
	struct ro_wqe w = { .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	struct rc_env e;
	struct ro_qp a, b;
	struct ro_cq cq;
	struct ro_node *n;
	struct wren_cqe c[8];
	uint8_t *p1, *p2, *p3;
	unsigned int tx, cnt;
	bool ok;

	rc_env_init(&e, NULL);
	n = &e.p.n[0];
	ro_cq_create(n, &cq, 8, 0);
	{
		struct ro_qp_opts o = { .type = WREN_QPT_RC };

		o.scq = o.rcq = cq.cqn;
		ro_qp_create(n, &a, &o);
		ro_qp_create(n, &b, &o);
	}
	ro_connect_to(n, &a, n, b.qpn, 100, 200, &cn);
	ro_connect_to(n, &b, n, a.qpn, 200, 100, &cn);
	tx = n->d->h->tx_frames;
	p1 = rc_pattern(&e, 0, 0, 50000, 1);
	p2 = rc_pattern(&e, 0, 100000, 30000, 2);
	p3 = rc_pattern(&e, 0, 200000, 9000, 3);
	/* WRITE a -> b's region, READ back through b, SEND a -> b. */
	w.opcode = WREN_WQE_RDMA_WRITE;
	w.sge[0] = rc_sge(&e, 0, 0, 50000);
	w.raddr = e.mr[0].iova + 500000;
	w.rkey = e.mr[0].key;
	ro_post_send(&a, &w);
	w.opcode = WREN_WQE_RDMA_READ;
	w.sge[0] = rc_sge(&e, 0, 600000, 30000);
	w.raddr = e.mr[0].iova + 100000;
	ro_post_send(&b, &w);
	{
		struct wren_wqe_sge s = rc_sge(&e, 0, 700000, 9000);

		ro_post_recv(&b, &s, 1);
	}
	w.opcode = WREN_WQE_SEND;
	w.sge[0] = rc_sge(&e, 0, 200000, 9000);
	ro_post_send(&a, &w);
	ro_settle(&e.p, 1000000000ull);
	cnt = ro_cq_drain(&cq, c, 8);
	ok = cnt == 4 && rc_same(&e, 0, 500000, p1, 50000) &&
	     rc_same(&e, 0, 600000, p2, 30000) &&
	     rc_same(&e, 0, 700000, p3, 9000) &&
	     n->d->h->tx_frames == tx;
	for (unsigned int i = 0; i < cnt; i++)
		ok = ok && !c[i].status;
	tap_ok(ok, "loopback: two QPs of one NIC WRITE, READ and SEND to "
	       "each other, nothing on the wire (%u CQEs)", cnt);
	free(p1);
	free(p2);
	free(p3);
	rc_env_fini(&e);
}

/*
 * SQD on a UD QP with a WQE posted: nothing starts (and the engine must
 * not spin looking for one, as it once did - libFuzzer's rings harness
 * found the hang); back in RTS the WQE goes out and completes.
 */
static void ud_sqd(void)
{
	struct wren_modify_qp_in m;
	struct ud_env e;
	struct wren_cqe c;
	bool held, ok;

	ud_init(&e, WREN_QPT_UD, false);
	ud_recv(&e, 2000);
	memset(&m, 0, sizeof(m));
	m.qpn = e.qp[0].qpn;
	m.attr_mask = WREN_QP_ATTR_STATE;
	m.new_state = WREN_QPS_SQD;
	ok = ro_modify(&e.p.n[0], &m) == 0;
	ud_send(&e, 100, 0x1234, WREN_WQE_SEND, 0);
	ro_settle(&e.p, 1000000000ull);
	held = ok && ro_cq_drain(&e.cq[0], NULL, 0) == 0 &&
	       ro_cq_drain(&e.cq[1], NULL, 0) == 0 &&
	       ro_qp_state(&e.p.n[0], e.qp[0].qpn) == WREN_QPS_SQD;
	m.new_state = WREN_QPS_RTS;
	ok = ro_modify(&e.p.n[0], &m) == 0;
	ro_settle(&e.p, 1000000000ull);
	ok = ok && rc_one_cqe(&e.cq[0], &c) && c.status == 0 &&
	     rc_one_cqe(&e.cq[1], &c) && c.status == 0 && c.byte_len == 140;
	tap_ok(held && ok, "UD in SQD holds a posted SEND (no spin); back in "
	       "RTS it is sent and received");
	ud_fini(&e);
}

/*
 * Sends rung just before DESTROY_AH of their AH and DESTROY_QP, as
 * rdma-core's mckey does: the commands run when their doorbell is
 * written, the WQEs only in wrenhw_process(); the datagrams must still
 * all go out, in order (their doorbell reached the device first).
 */
static void ud_destroy_after_post(void)
{
	struct ud_env e;
	struct wren_cqe c[8];
	unsigned int n, in_order = 0;
	int st;

	ud_init(&e, WREN_QPT_UD, false);
	for (int i = 0; i < 8; i++)
		ud_recv(&e, 200);
	for (int i = 0; i < 8; i++)
		ud_send(&e, 10 + i, 0x1234, WREN_WQE_SEND, 0);
	st = (int)td_handle_cmd(e.p.n[0].d, WREN_AQ_OP_DESTROY_AH, e.ah[0],
				NULL, 0).status;
	st |= (int)td_handle_cmd(e.p.n[0].d, WREN_AQ_OP_DESTROY_QP,
				 e.qp[0].qpn, NULL, 0).status;
	ro_settle(&e.p, 1000000000ull);
	n = ro_cq_drain(&e.cq[1], c, 8);
	for (unsigned int i = 0; i < n; i++)
		in_order += !c[i].status && c[i].byte_len == 40 + 10 + i;
	tap_ok(st == 0 && n == 8 && in_order == 8,
	       "UD: 8 sends rung just before DESTROY_AH and DESTROY_QP all "
	       "reach the peer, in order (%u)", n);
	ud_fini(&e);
}

void test_roce_ud(void)
{
	vlan();
	loopback();
	ud_basic(false);
	ud_basic(true);
	ud_checks();
	srq();
	srq_cut_short(false);
	srq_cut_short(true);
	comm_est_and_counters();
	ud_sqd();
	ud_destroy_after_post();
}
