// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RoCE fuzzing: random and mutated RoCEv2 frames (most with a valid
 * ICRC, so they reach the transport), aimed at live RC (or UC), UD and
 * GSI QPs
 * with PSNs near the expected one, random WQE and receive WQE bytes,
 * random state changes and time - the model must never crash (ASan and
 * UBSan watch), and afterwards a fresh RC pair must still move data.
 * Also steering: UDP 4791 to another address, or with no RDMA
 * capability, is Ethernet traffic.
 */
#include <stdlib.h>

#include "roce/whw_roce.h"
#include "roce_tests.h"
#include "wrenhw_int.h"

static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* Eth + IPv4 + UDP 4791 to node @to of @e, then BTH and @n random bytes. */
static uint32_t rand_frame(struct rc_env *e, int to, uint8_t *f,
			   uint32_t dqpn, uint32_t psn)
{
	uint32_t n = rnd() % 200, l3, op;
	static const uint8_t ops[] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
				       0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
				       0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11,
				       0x12, 0x13, 0x14, 0x16, 0x17, 0x64,
				       0x65, 0x81, 0x15, 0x20, 0x21, 0x22,
				       0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
				       0x29, 0x2a, 0x2b, 0x2c };
	uint8_t *ip = f + 14, *bth;
	uint32_t icrc;

	if (rnd() % 4 == 0)
		n = rnd() % 4200;
	l3 = 20 + 8 + 12 + n + 4;
	bth = ro_frame_v4(f, l3, e->p.n[to].mac, e->p.n[!to].mac,
			  e->p.n[!to].gid4 + 12, e->p.n[to].gid4 + 12, 0xc000);
	op = ops[rnd() % sizeof(ops)];
	bth[0] = (uint8_t)op;
	bth[1] = (uint8_t)(rnd() & 0xb0);
	bth[2] = bth[3] = 0xff;
	whw_wr24be(bth + 5, dqpn);
	bth[8] = (uint8_t)(rnd() & 0x80);
	whw_wr24be(bth + 9, psn);
	for (uint32_t i = 0; i < n; i++)
		bth[12 + i] = (uint8_t)rnd();
	/* RETH/AtomicETH pointing into the real MR now and then. */
	if (n >= 16 && rnd() % 2) {
		uint64_t va = e->mr[to].iova + rnd() % (1u << 20);

		whw_wr64be(bth + 12, va);
		whw_wr32be(bth + 20, e->mr[to].key);
		whw_wr32be(bth + 24, rnd() % 9000);
	}
	if (rnd() % 8 == 0)
		f[14 + rnd() % l3] ^= (uint8_t)(1u << (rnd() % 8));
	icrc = whw_le32(whw_roce_icrc(ip, true, l3));
	memcpy(ip + l3 - 4, &icrc, 4);
	if (rnd() % 16 == 0)
		ip[l3 - 1 - rnd() % 4] ^= 1;	/* a bad ICRC */
	return 14 + l3;
}

static void rand_wqe(struct ro_qp *qp)
{
	uint8_t buf[512];
	uint64_t slot;

	for (unsigned int i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rnd();
	buf[0] %= 12;			/* mostly known opcodes */
	buf[1] &= 0x0f;
	buf[2] %= 34;
	buf[3] = 0;
	buf[4] = (uint8_t)qp->sq_pi;
	buf[5] = (uint8_t)(qp->sq_pi >> 8);
	if (rnd() % 2)
		memset(buf + 6, 0, 2);
	slot = (uint64_t)(qp->sq_pi & ((1u << qp->sq_log) - 1)) << qp->sq_shift;
	th_mem_write(qp->d->h, qp->buf + slot, buf, sizeof(buf));
	qp->sq_pi++;
	ro_ring(qp);
}

static void rand_rqe(struct rc_env *e, struct ro_qp *qp)
{
	struct wren_wqe_sge s[4];
	unsigned int n = rnd() % 4;

	for (unsigned int i = 0; i < n; i++) {
		s[i].addr = e->mr[1].iova + rnd() % (1u << 20);
		s[i].length = rnd() % 5000;
		s[i].lkey = rnd() % 8 ? e->mr[1].key : rnd();
	}
	ro_post_recv(qp, s, n);
}

/* DEACTIVATE_MR, then the same pages again (MTT rewritten, ACTIVATE). */
static void mr_restore(struct rc_env *e)
{
	struct ro_mr *mr = &e->mr[1];
	struct wren_aq_write_mtt w;

	td_handle_cmd(mr->d, WREN_AQ_OP_DEACTIVATE_MR, mr->idx, NULL, 0);
	memset(&w, 0, sizeof(w));
	w.mr_index = mr->idx;
	w.count = mr->npages;
	td_cmd(mr->d, WREN_AQ_OP_WRITE_MTT, &w, sizeof(w), mr->pages,
	       mr->npages * 8, NULL, 0);
	td_handle_cmd(mr->d, WREN_AQ_OP_ACTIVATE_MR, mr->idx, NULL, 0);
}

/* The MR under traffic goes away, and half the time comes back. */
static void mr_flip(struct rc_env *e)
{
	if (rnd() % 2)
		td_handle_cmd(e->mr[1].d, WREN_AQ_OP_DEACTIVATE_MR,
			      e->mr[1].idx, NULL, 0);
	else
		mr_restore(e);
}

static void reconnect(struct rc_env *e)
{
	struct wren_modify_qp_in m;

	for (int i = 0; i < 2; i++) {
		memset(&m, 0, sizeof(m));
		m.qpn = e->qp[i].qpn;
		m.attr_mask = WREN_QP_ATTR_STATE;
		m.new_state = WREN_QPS_RESET;
		ro_modify(&e->p.n[i], &m);
		e->qp[i].sq_pi = e->qp[i].rq_pi = 0;
		th_mem_write(e->qp[i].d->h, e->qp[i].dbrec, "\0\0\0\0", 4);
	}
	ro_connect(&e->p, 0, &e->qp[0], &e->qp[1], &e->conn);
	ro_connect(&e->p, 1, &e->qp[1], &e->qp[0], &e->conn);
}

/* @type: the connected pair's QPs (WREN_QPT_RC or _UC); @div: fewer steps. */
static void fuzz_run(uint8_t type, unsigned int div)
{
	const char *s = getenv("WRENHW_FUZZ_SEED");
	const char *ns = getenv("WRENHW_FUZZ_N");
	unsigned int steps = (ns ? (unsigned int)strtoul(ns, NULL, 0) : 20000) /
			     div;
	const char *tn = type == WREN_QPT_UC ? "UC" : "RC";
	struct ro_conn c = { .mtu = WREN_MTU_1024_, .timeout = 10, .retry = 7,
			     .rnr_retry = 7, .min_rnr = 1, .rd_atomic = 4,
			     .access = WREN_ACCESS_LOCAL_WRITE |
				       WREN_ACCESS_REMOTE_WRITE |
				       WREN_ACCESS_REMOTE_READ |
				       WREN_ACCESS_REMOTE_ATOMIC };
	static uint8_t f[9100];
	struct rc_env e;
	uint32_t rq_psn = 0xfffff0;
	unsigned int frames = 0;

	rng_state = s ? strtoull(s, NULL, 0) : 0x524f43452d465a31ull;
	tap_diag("roce fuzz (%s): seed 0x%llx, %u steps", tn,
		 (unsigned long long)rng_state, steps);
	if (type == WREN_QPT_UC)
		c.access &= WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE;
	rc_env_init_type(&e, &c, 0, type);
	for (unsigned int i = 0; i < steps; i++) {
		uint32_t k = rnd() % 100, len, dqpn;

		if (k < 55) {
			dqpn = rnd() % 8 ? e.qp[1].qpn : rnd() % 6;
			len = rand_frame(&e, 1, f, dqpn,
					 (rq_psn + rnd() % 8 - 2) & 0xffffff);
			wrenhw_rx_frame(e.p.n[1].d->h->hw, f, len);
			frames++;
		} else if (k < 60) {
			len = rand_frame(&e, 0, f, e.qp[0].qpn,
					 0xfffff0 + rnd() % 64);
			wrenhw_rx_frame(e.p.n[0].d->h->hw, f, len);
			frames++;
		} else if (k < 65) {
			/* Random bytes of random length. */
			len = 14 + rnd() % 300;
			for (uint32_t j = 0; j < len; j++)
				f[j] = (uint8_t)rnd();
			if (rnd() % 2)
				memcpy(f, e.p.n[1].mac, 6);
			wrenhw_rx_frame(e.p.n[1].d->h->hw, f, len);
		} else if (k < 75) {
			rand_wqe(&e.qp[rnd() % 2]);
		} else if (k < 85) {
			rand_rqe(&e, &e.qp[1]);
		} else if (k < 95) {
			ro_settle(&e.p, rnd() % 3 ? 0 : 50000000ull);
			ro_cq_drain(&e.cq[0], NULL, 0);
			ro_cq_drain(&e.cq[1], NULL, 0);
			td_aeq_count(e.p.n[0].d, 0xff);
			td_aeq_count(e.p.n[1].d, 0xff);
			{
				struct wren_query_qp_out o;

				memset(&o, 0, sizeof(o));
				td_handle_cmd(e.p.n[1].d, WREN_AQ_OP_QUERY_QP,
					      e.qp[1].qpn, &o, sizeof(o));
				rq_psn = o.rq_psn;
				/* Broken by a bad frame: start over, so that
				 * frames keep reaching a live transport. */
				if (o.state == WREN_QPS_ERR && rnd() % 2) {
					reconnect(&e);
					rq_psn = 0xfffff0;
				}
			}
		} else if (k < 96) {
			reconnect(&e);
			rq_psn = 0xfffff0;
		} else if (k < 97) {
			mr_flip(&e);
		} else {
			th_advance(e.p.n[0].d->h, rnd() % 100000000);
			th_advance(e.p.n[1].d->h,
				   e.p.n[0].d->h->now_ns -
				   e.p.n[1].d->h->now_ns);
		}
	}
	ro_settle(&e.p, 1000000000ull);
	tap_diag("roce fuzz: %u frames; node 1 discards %llu, ICRC errors "
		 "%llu, seq NAKs sent %llu", frames,
		 (unsigned long long)ro_counter(&e.p.n[1],
					WREN_RDMA_CNT_RX_ROCE_DISCARDS),
		 (unsigned long long)ro_counter(&e.p.n[1],
					WREN_RDMA_CNT_RX_ICRC_ERRORS),
		 (unsigned long long)ro_counter(&e.p.n[1],
					WREN_RDMA_CNT_OUT_OF_SEQUENCE));
	tap_ok(ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ROCE_PACKETS) >
	       1000 / div, "roce fuzz (%s): frames reached the engine", tn);
	/* Afterwards: a fresh connection of the same QPs moves data. */
	e.p.drop_every = 0;
	mr_restore(&e);
	reconnect(&e);
	ro_cq_drain(&e.cq[0], NULL, 0);
	ro_cq_drain(&e.cq[1], NULL, 0);
	{
		struct ro_wqe w = { .opcode = WREN_WQE_SEND,
				    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
		uint8_t *pat = rc_pattern(&e, 0, 0, 10000, 99);
		struct wren_cqe cq;

		rc_post_recv(&e, 1, 0, 10000);
		w.sge[0] = rc_sge(&e, 0, 0, 10000);
		ro_post_send(&e.qp[0], &w);
		ro_settle(&e.p, 1000000000ull);
		tap_ok(rc_one_cqe(&e.cq[0], &cq) && cq.status == 0 &&
		       rc_same(&e, 1, 0, pat, 10000),
		       "roce fuzz (%s): a fresh connection moves data "
		       "afterwards", tn);
		free(pat);
	}
	rc_env_fini(&e);
}

/* An Ethernet RX queue on node 1, to see what steering leaves there. */
static void steering(void)
{
	struct rc_env e;
	struct wren_create_eth_q_in in;
	struct ro_cq cq;
	static uint8_t f[9100];
	uint32_t len;
	uint64_t ring;
	struct wren_eth_rx_desc d[4];

	rc_env_init(&e, NULL);
	ro_cq_create(&e.p.n[1], &cq, 6, 0);
	memset(&in, 0, sizeof(in));
	ring = td_alloc(e.p.n[1].d, 4096, 4096);
	in.ring.addr = ring;
	in.ring.page_shift = 12;
	in.cqn = cq.cqn;
	in.log_size = 2;
	td_cmd(e.p.n[1].d, WREN_AQ_OP_CREATE_ETH_RXQ, NULL, 0, &in,
	       sizeof(in), NULL, 0);
	for (int i = 0; i < 4; i++) {
		d[i].addr = td_alloc(e.p.n[1].d, 2048, 64);
		d[i].len = 2048;
		d[i].rsvd0 = 0;
		d[i].rsvd1 = 0;
	}
	th_mem_write(e.p.n[1].d->h, ring, d, sizeof(d));
	th_db_write(e.p.n[1].d->h, 0, WREN_DB_ETH_RX,
		    WREN_DB_VAL(0, 0, 4));
	rng_state = 7;
	len = rand_frame(&e, 1, f, 0x777, 0);
	wrenhw_rx_frame(e.p.n[1].d->h->hw, f, len);
	tap_ok(ro_cq_drain(&cq, NULL, 0) == 0,
	       "steering: UDP 4791 to our GID goes to the RDMA engine");
	f[14 + 19] = 99;	/* another destination address */
	wrenhw_rx_frame(e.p.n[1].d->h->hw, f, len);
	tap_ok(ro_cq_drain(&cq, NULL, 0) == 1,
	       "steering: UDP 4791 to an address that is no GID of ours is "
	       "Ethernet");
	f[14 + 19] = 2;
	whw_test_set_caps(e.p.n[1].d->h->hw, WHW_CAPS & ~WHW_CAPS_RDMA);
	wrenhw_rx_frame(e.p.n[1].d->h->hw, f, len);
	tap_ok(ro_cq_drain(&cq, NULL, 0) == 1,
	       "steering: without an RDMA capability RoCE frames are Ethernet");
	rc_env_fini(&e);
}

void test_roce_fuzz(void)
{
	steering();
	fuzz_run(WREN_QPT_RC, 1);
	fuzz_run(WREN_QPT_UC, 4);
}
