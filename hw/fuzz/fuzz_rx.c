// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libFuzzer harness: frames from the wire (wrenhw_rx_frame).  RC QPs A
 * and B are connected to a peer on the wire that the input plays: A has
 * requests outstanding (WRITE, READ, atomics, SEND), so ACKs, NAKs, READ
 * responses and atomic ACKs reach its completer; B expects requests of
 * every opcode at a known PSN; the UD and GSI QPs and an SRQ have
 * receives posted; an Ethernet RX queue takes what is not RoCE.  The
 * first byte sets the port up (PFC, DSCP trust, ECN/DCQCN, a slow host
 * drain, pause, watchdogs, promiscuous, jumbo); then each frame record is
 * a whole frame - RoCEv2 of any opcode and header, Ethernet, VLAN, PFC
 * and pause (0x8808), PHY status, CNPs, truncated and oversized - whose
 * lengths, IPv4 checksum and ICRC the harness can fill in, so mutations
 * of well-formed seed frames keep reaching the transport.
 * Record format: fuzz_rx.h.
 */
#include <string.h>

#include "fuzz_rx.h"
#include "fz_frame.h"
#include "fz_rdma.h"

#define RXQ_LOG		4u
#define RXQ_BUF		2048u

struct fx {
	struct fz_rdma r;
	struct fz_cq ecq;	/* the Ethernet queue's completions */
	uint32_t rxq, rx_pi;
};

static void cmd(struct td *d, uint8_t op, const void *in, uint32_t len)
{
	/* Settings the board may refuse (no such capability): still fine. */
	td_cmd(d, op, NULL, 0, in, len, NULL, 0);
}

static void configure(struct td *d, uint8_t cfg)
{
	struct wren_set_port_in sp;

	memset(&sp, 0, sizeof(sp));
	if (cfg & FX_CFG_PFC) {
		struct wren_pfc p = { .pfc_en = 0x08 };

		cmd(d, WREN_AQ_OP_SET_PFC, &p, sizeof(p));
	}
	if (cfg & FX_CFG_DSCP) {
		struct wren_trust t;

		memset(&t, 0, sizeof(t));
		t.trust = WREN_TRUST_DSCP;
		for (int i = 0; i < 64; i++)
			t.dscp2prio[i] = (uint8_t)(i >> 3);
		cmd(d, WREN_AQ_OP_SET_TRUST, &t, sizeof(t));
	}
	if (cfg & FX_CFG_CC) {
		struct wren_cc_params c;

		memset(&c, 0, sizeof(c));
		c.prio_mask = 0xff;
		c.np_enable = c.rp_enable = c.ecn_enable = 1;
		c.np_cnp_dscp = 48;
		c.np_cnp_prio = 6;
		c.rp_initial_alpha = 1023;
		c.rp_g = 4;
		c.rp_alpha_update_us = 55;
		c.rp_time_reset_us = 300;
		c.rp_byte_reset = 32768;
		c.rp_threshold = 1;
		c.rp_ai_rate_mbps = 5;
		c.rp_hai_rate_mbps = 50;
		c.rp_min_rate_mbps = 1;
		c.rp_rate_reduce_period_us = 4;
		c.rp_min_dec_fac = 50;
		c.rp_gd = 11;
		cmd(d, WREN_AQ_OP_SET_CC, &c, sizeof(c));
	}
	if (cfg & FX_CFG_DRAIN) {
		struct wren_aq_diag_fault f = { .fault = WREN_DIAG_RX_DRAIN,
						.arg = 10 };

		td_cmd(d, WREN_AQ_OP_DIAG_FAULT, &f, sizeof(f), NULL, 0, NULL,
		       0);
	}
	if (cfg & FX_CFG_PAUSE) {
		sp.mask |= WREN_SET_PORT_PAUSE;
		sp.pause = WREN_PAUSE_RX | WREN_PAUSE_TX;
	}
	if (cfg & FX_CFG_WD) {
		struct wren_pfc_wd w = { .timeout_ms = 100,
					 .recovery_ms = 100 };

		cmd(d, WREN_AQ_OP_SET_PFC_WD, &w, sizeof(w));
	}
	if (cfg & FX_CFG_PROMISC) {
		struct wren_set_rx_mode_in m;

		memset(&m, 0, sizeof(m));
		m.flags = WREN_RX_MODE_PROMISC;
		cmd(d, WREN_AQ_OP_SET_RX_MODE, &m, sizeof(m));
	}
	if (cfg & FX_CFG_JUMBO) {
		sp.mask |= WREN_SET_PORT_MTU;
		sp.mtu = 9000;
	}
	if (sp.mask)
		cmd(d, WREN_AQ_OP_SET_PORT, &sp, sizeof(sp));
}

static void eth_rxq(struct fx *x)
{
	struct td *d = x->r.d;
	struct wren_create_eth_q_in in;
	struct wren_create_cq_in cq;
	uint64_t ring = td_alloc(d, 4096, 4096);

	memset(&cq, 0, sizeof(cq));
	x->ecq.ring = td_alloc(d, (uint64_t)WREN_CQE_SIZE << FZ_CQ_LOG, 4096);
	x->ecq.dbrec = td_alloc(d, 8, 8);
	cq.ring.addr = x->ecq.ring;
	cq.ring.page_shift = 12;
	cq.dbrec_addr = x->ecq.dbrec;
	cq.eqn = x->r.eq;
	cq.log_size = FZ_CQ_LOG;
	x->ecq.cqn = (uint32_t)td_cmd(d, WREN_AQ_OP_CREATE_CQ, NULL, 0, &cq,
				      sizeof(cq), NULL, 0).result;
	memset(&in, 0, sizeof(in));
	in.ring.addr = ring;
	in.ring.page_shift = 12;
	in.cqn = x->ecq.cqn;
	in.log_size = RXQ_LOG;
	x->rxq = (uint32_t)td_cmd(d, WREN_AQ_OP_CREATE_ETH_RXQ, NULL, 0, &in,
				  sizeof(in), NULL, 0).result;
	for (uint32_t i = 0; i < (1u << RXQ_LOG); i++) {
		struct wren_eth_rx_desc e;

		memset(&e, 0, sizeof(e));
		e.addr = td_alloc(d, RXQ_BUF, 64);
		e.len = RXQ_BUF;
		th_mem_write(d->h, ring + i * sizeof(e), &e, sizeof(e));
	}
	x->rx_pi = 1u << RXQ_LOG;
	th_db_write(d->h, 0, WREN_DB_ETH_RX,
		    WREN_DB_VAL(x->rxq, 0, x->rx_pi));
}

/* The requests of A and the UD QP that the input's frames answer. */
static void send(struct fx *x, uint8_t which)
{
	static const uint8_t ops[] = {
		WREN_WQE_RDMA_WRITE, WREN_WQE_RDMA_READ,
		WREN_WQE_ATOMIC_CMP_SWP, WREN_WQE_ATOMIC_FETCH_ADD,
		WREN_WQE_SEND, WREN_WQE_SEND_IMM,
	};
	uint8_t w[128];
	struct wren_wqe_ctrl *c = (void *)w;
	struct wren_wqe_sge s;
	unsigned int q = FZ_QP_A;
	uint8_t op = ops[which % sizeof(ops)];
	size_t off = sizeof(*c);

	memset(w, 0, sizeof(w));
	if (which >= sizeof(ops)) {
		/* UD and GSI: the AH leads to the wire's peer too. */
		struct wren_wqe_ud u = { .ah = FZ_AH,
					 .dest_qpn = FZ_PEER_UD_QPN,
					 .qkey = FZ_QKEY };

		q = which & 1 ? FZ_QP_UD : FZ_QP_GSI;
		op = WREN_WQE_SEND;
		memcpy(w + off, &u, sizeof(u));
		off += sizeof(u);
	} else if (op != WREN_WQE_SEND && op != WREN_WQE_SEND_IMM) {
		struct wren_wqe_raddr ra = { .raddr = 0x4000000,
					     .rkey = 0x1234 };
		struct wren_wqe_atomic at = { .swap_add = 1 };

		memcpy(w + off, &ra, sizeof(ra));
		off += sizeof(ra);
		if (wren_wqe_is_atomic(op)) {
			memcpy(w + off, &at, sizeof(at));
			off += sizeof(at);
		}
	}
	s.addr = FZ_MR_IOVA + 32768;
	s.length = wren_wqe_is_atomic(op) ? WREN_ATOMIC_LEN :
		   q == FZ_QP_A ? 2048 : 256;
	s.lkey = FZ_MR_KEY;
	memcpy(w + off, &s, sizeof(s));
	c->opcode = op;
	c->flags = WREN_WQE_F_SIGNALED;
	c->ds_count = 1;
	c->wqe_idx = (uint16_t)x->r.qp[q].sq_pi;
	fz_rdma_write_sq(&x->r, q, w, off + sizeof(s));
	fz_rdma_ring_sq(&x->r, q);
}

static void frame(struct fx *x, struct fz_in *in)
{
	static uint8_t f[FX_FRAME_MAX];
	uint8_t fix = fz_u8(in);
	size_t n = fz_bytes(in, f, fz_u16(in) % (FX_FRAME_MAX + 1));

	fz_frame_fix(f, n, fix);
	wrenhw_rx_frame(x->r.d->h->hw, f, n);
	th_run(x->r.d->h);
}

/* Completions consumed, Ethernet buffers and receives given back. */
static void poll(struct fx *x)
{
	struct fz_rdma *r = &x->r;
	unsigned int n;

	fz_cq_poll(r->d, &r->cq[0]);
	if (fz_cq_poll(r->d, &r->cq[1])) {
		fz_rdma_recv(r, &r->qp[FZ_QP_A], 0, 4096);
		fz_rdma_recv(r, &r->srq, 8192, 4096);
		fz_rdma_recv(r, &r->qp[FZ_QP_UD], 16384, 4096);
		fz_rdma_recv(r, &r->qp[FZ_QP_GSI], 24576, 4096);
	}
	/* Slot i always holds buffer i: only the producer index moves. */
	n = fz_cq_poll(r->d, &x->ecq);
	if (n) {
		x->rx_pi += n;
		th_db_write(r->d->h, 0, WREN_DB_ETH_RX,
			    WREN_DB_VAL(x->rxq, 0, x->rx_pi));
	}
	td_aeq_count(r->d, 0xff);
	fz_acq_drain(r->d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	static struct fx x;
	uint8_t up;

	memset(&x, 0, sizeof(x));
	x.r.d = fz_new();
	fz_rdma_init(&x.r, false);
	eth_rxq(&x);
	configure(x.r.d, fz_u8(&in));
	for (uint8_t i = 0; i < 4; i++)
		send(&x, i);
	fz_settle(x.r.d, 0);
	while (fz_more(&in)) {
		switch (fz_u8(&in) % FX_KINDS) {
		case FX_FRAME:
			frame(&x, &in);
			break;
		case FX_TIME:
			fz_settle(x.r.d, (uint64_t)fz_u32(&in) * 1000);
			break;
		case FX_POLL:
			poll(&x);
			break;
		case FX_LINK:
			up = fz_u8(&in);
			wrenhw_set_link(x.r.d->h->hw, up & 1, fz_u32(&in));
			break;
		default:
			send(&x, fz_u8(&in));
			break;
		}
	}
	fz_settle(x.r.d, 10000000000ull);
	poll(&x);
	fz_check(x.r.d);
	fz_free(x.r.d);
	return 0;
}
