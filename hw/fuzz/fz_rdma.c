// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The RDMA objects of the ring and wire harnesses (fz_rdma.h). */
#include <string.h>

#include "fz_rdma.h"

static const uint8_t our_mac[6] = FZ_MAC, peer_mac[6] = FZ_PEER_MAC;
static const uint8_t our_ip4[4] = FZ_IP4, peer_ip4[4] = FZ_PEER_IP4;
static const uint8_t our_gid6[16] = FZ_GID6;

static uint64_t ok(struct td_res r, const char *what)
{
	if (!r.completed || r.status)
		fz_fail(what);
	return r.result;
}

static uint64_t cmd_in(struct td *d, uint8_t op, const void *in,
		       uint32_t len, const char *what)
{
	return ok(td_cmd(d, op, NULL, 0, in, len, NULL, 0), what);
}

static void v4_mapped(uint8_t *gid, const uint8_t *ip4)
{
	memset(gid, 0, 16);
	gid[10] = gid[11] = 0xff;
	memcpy(gid + 12, ip4, 4);
}

static void set_gids(struct td *d)
{
	struct wren_set_gid_in g;

	for (uint32_t i = 0; i < 2; i++) {
		memset(&g, 0, sizeof(g));
		g.index = i;
		g.type = WREN_GID_ROCE_V2;
		g.flags = i ? 0 : WREN_AV_F_IPV4;
		if (i)
			memcpy(g.gid, our_gid6, 16);
		else
			v4_mapped(g.gid, our_ip4);
		memcpy(g.mac, our_mac, 6);
		cmd_in(d, WREN_AQ_OP_SET_GID, &g, sizeof(g), "SET_GID");
	}
}

/* IPv4 (GID 0) for RC and the AH: the common case on the wire. */
static void av(struct wren_av *a, bool loop)
{
	memset(a, 0, sizeof(*a));
	a->hop_limit = 64;
	a->flags = WREN_AV_F_IPV4;
	v4_mapped(a->dgid, loop ? our_ip4 : peer_ip4);
	memcpy(a->dmac, loop ? our_mac : peer_mac, 6);
}

static void make_cq(struct fz_rdma *r, struct fz_cq *cq)
{
	struct wren_create_cq_in in;

	memset(&in, 0, sizeof(in));
	cq->ring = td_alloc(r->d, (uint64_t)WREN_CQE_SIZE << FZ_CQ_LOG, 4096);
	cq->dbrec = td_alloc(r->d, 8, 8);
	in.ring.addr = cq->ring;
	in.ring.page_shift = 12;
	in.dbrec_addr = cq->dbrec;
	in.eqn = r->eq;
	in.log_size = FZ_CQ_LOG;
	cq->cqn = (uint32_t)cmd_in(r->d, WREN_AQ_OP_CREATE_CQ, &in,
				   sizeof(in), "CREATE_CQ");
}

static void make_mrs(struct fz_rdma *r)
{
	struct wren_create_mr_in in;
	struct wren_aq_write_mtt w;

	/* Backwards, a page apart: the MTT really translates. */
	for (unsigned int i = 0; i < FZ_MR_PAGES; i++) {
		r->mr_pages[FZ_MR_PAGES - 1 - i] = td_alloc(r->d, 4096, 4096);
		td_alloc(r->d, 4096, 4096);
	}
	memset(&in, 0, sizeof(in));
	in.pdn = r->pd;
	in.access = WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE |
		    WREN_ACCESS_REMOTE_READ | WREN_ACCESS_REMOTE_ATOMIC |
		    WREN_ACCESS_MW_BIND | WREN_ACCESS_FLUSH_GLOBAL;
	in.iova = FZ_MR_IOVA;
	in.length = FZ_MR_LEN;
	in.num_mtt = FZ_MR_PAGES;
	in.page_shift = 12;
	in.key_tag = FZ_MR_TAG;
	if (td_cmd(r->d, WREN_AQ_OP_CREATE_MR, NULL, 0, &in, sizeof(in), NULL,
		   0).result2 != FZ_MR_KEY)
		fz_fail("CREATE_MR: not the key the seeds use");
	memset(&w, 0, sizeof(w));
	w.mr_index = FZ_MR_KEY >> 8;
	w.count = FZ_MR_PAGES;
	ok(td_cmd(r->d, WREN_AQ_OP_WRITE_MTT, &w, sizeof(w), r->mr_pages,
		  sizeof(r->mr_pages), NULL, 0), "WRITE_MTT");
	ok(td_handle_cmd(r->d, WREN_AQ_OP_ACTIVATE_MR, FZ_MR_KEY >> 8, NULL, 0),
	   "ACTIVATE_MR");
	/* The fast-registration MR REG_MR WQEs fill, from this page list. */
	in.flags = WREN_MR_F_FAST_REG;
	in.iova = 0;
	in.length = 0;
	if (td_cmd(r->d, WREN_AQ_OP_CREATE_MR, NULL, 0, &in, sizeof(in), NULL,
		   0).result2 != FZ_FR_KEY)
		fz_fail("CREATE_MR fast-reg: not the key the seeds use");
	th_mem_write(r->d->h, FZ_PBL, r->mr_pages, sizeof(r->mr_pages));
	/* Unbound windows for BIND_MW WQEs and the keys they make. */
	for (uint8_t t = WREN_MW_TYPE_1; t <= WREN_MW_TYPE_2; t++) {
		struct wren_aq_create_mw m;

		memset(&m, 0, sizeof(m));
		m.pdn = r->pd;
		m.type = t;
		m.key_tag = (uint8_t)(t == WREN_MW_TYPE_1 ? FZ_MW1_KEY
							  : FZ_MW2_KEY);
		if (td_cmd(r->d, WREN_AQ_OP_CREATE_MW, &m, sizeof(m), NULL, 0,
			   NULL, 0).result2 !=
		    (t == WREN_MW_TYPE_1 ? FZ_MW1_KEY : FZ_MW2_KEY))
			fz_fail("CREATE_MW: not the key the seeds use");
	}
}

static void make_srq(struct fz_rdma *r)
{
	struct wren_create_srq_in in;

	memset(&in, 0, sizeof(in));
	r->srq.buf = td_alloc(r->d, 1u << (FZ_WQ_LOG + FZ_WQE_SHIFT), 4096);
	r->srq.rq = r->srq.buf;
	r->srq.dbrec = td_alloc(r->d, 8, 8);
	r->srq.has_rq = true;
	in.pdn = r->pd;
	in.log_size = FZ_WQ_LOG;
	in.wqe_shift = FZ_WQE_SHIFT;
	in.limit = 2;
	in.buf.addr = r->srq.buf;
	in.buf.page_shift = 12;
	in.dbrec_addr = r->srq.dbrec;
	r->srq.qpn = (uint32_t)cmd_in(r->d, WREN_AQ_OP_CREATE_SRQ, &in,
				      sizeof(in), "CREATE_SRQ");
}

static void make_qp(struct fz_rdma *r, unsigned int q, uint8_t type,
		    bool srq, uint32_t want)
{
	struct fz_wq *wq = &r->qp[q];
	uint32_t sq = 1u << (FZ_WQ_LOG + FZ_WQE_SHIFT);
	struct wren_create_qp_in in;

	memset(&in, 0, sizeof(in));
	wq->buf = td_alloc(r->d, 2 * (uint64_t)sq, 4096);
	wq->rq = wq->buf + sq;
	wq->dbrec = td_alloc(r->d, 8, 8);
	wq->has_rq = !srq;
	in.type = type;
	in.flags = srq ? WREN_QP_F_USE_SRQ : 0;
	in.sq_wqe_shift = FZ_WQE_SHIFT;
	in.sq_log_size = FZ_WQ_LOG;
	if (!srq) {
		in.rq_wqe_shift = FZ_WQE_SHIFT;
		in.rq_log_size = FZ_WQ_LOG;
		in.rq_offset = sq;
	}
	in.max_inline = 128;
	in.pdn = r->pd;
	in.send_cqn = r->cq[0].cqn;
	in.recv_cqn = r->cq[1].cqn;
	in.srqn = srq ? r->srq.qpn : 0;
	in.buf.addr = wq->buf;
	in.buf.page_shift = 12;
	in.dbrec_addr = wq->dbrec;
	wq->qpn = (uint32_t)cmd_in(r->d, WREN_AQ_OP_CREATE_QP, &in, sizeof(in),
				   "CREATE_QP");
	if (wq->qpn != want)
		fz_fail("CREATE_QP: not the QPN the seeds use");
}

static void modify(struct fz_rdma *r, struct wren_modify_qp_in *m)
{
	cmd_in(r->d, WREN_AQ_OP_MODIFY_QP, m, sizeof(*m), "MODIFY_QP");
}

static void rc_connect(struct fz_rdma *r, unsigned int q, bool loop)
{
	bool a = q == FZ_QP_A;
	struct wren_modify_qp_in m;

	memset(&m, 0, sizeof(m));
	m.qpn = r->qp[q].qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_ACCESS_FLAGS;
	m.new_state = WREN_QPS_INIT;
	m.access_flags = WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE |
			 WREN_ACCESS_REMOTE_READ | WREN_ACCESS_REMOTE_ATOMIC |
			 WREN_ACCESS_FLUSH_GLOBAL |
			 WREN_ACCESS_FLUSH_PERSISTENT;
	modify(r, &m);
	memset(&m, 0, sizeof(m));
	m.qpn = r->qp[q].qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_AV |
		      WREN_QP_ATTR_PATH_MTU | WREN_QP_ATTR_DEST_QPN |
		      WREN_QP_ATTR_RQ_PSN | WREN_QP_ATTR_MAX_DEST_RD_ATOMIC |
		      WREN_QP_ATTR_MIN_RNR_TIMER;
	m.new_state = WREN_QPS_RTR;
	av(&m.av, loop);
	m.path_mtu = FZ_PATH_MTU;
	/* Looped back, A and B are each other's peer. */
	m.dest_qpn = loop ? (a ? FZ_QPN_B : FZ_QPN_A) : FZ_PEER_QPN;
	m.rq_psn = a ? FZ_A_RQ_PSN : FZ_B_RQ_PSN;
	m.max_dest_rd_atomic = 4;
	m.min_rnr_timer = 1;
	modify(r, &m);
	memset(&m, 0, sizeof(m));
	m.qpn = r->qp[q].qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_TIMEOUT |
		      WREN_QP_ATTR_RETRY_CNT | WREN_QP_ATTR_RNR_RETRY |
		      WREN_QP_ATTR_SQ_PSN | WREN_QP_ATTR_MAX_QP_RD_ATOMIC;
	m.new_state = WREN_QPS_RTS;
	m.timeout = 8;		/* about 1 ms */
	m.retry_cnt = 2;
	m.rnr_retry = 2;	/* never infinite: inputs must end */
	m.sq_psn = a ? FZ_A_SQ_PSN : FZ_B_SQ_PSN;
	m.max_rd_atomic = 4;
	modify(r, &m);
}

static void ud_ready(struct fz_rdma *r, unsigned int q)
{
	struct wren_modify_qp_in m;

	memset(&m, 0, sizeof(m));
	m.qpn = r->qp[q].qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_QKEY;
	m.new_state = WREN_QPS_INIT;
	m.qkey = FZ_QKEY;
	modify(r, &m);
	m.attr_mask = WREN_QP_ATTR_STATE;
	m.new_state = WREN_QPS_RTR;
	modify(r, &m);
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_SQ_PSN;
	m.new_state = WREN_QPS_RTS;
	m.sq_psn = 0x42;
	modify(r, &m);
}

static void join_group(struct fz_rdma *r, unsigned int q)
{
	static const uint8_t ip4[4] = FZ_MCAST_IP4;
	struct wren_aq_mcast m;

	memset(&m, 0, sizeof(m));
	m.qpn = r->qp[q].qpn;
	v4_mapped(m.gid, ip4);
	ok(td_cmd(r->d, WREN_AQ_OP_ATTACH_MCAST, &m, sizeof(m), NULL, 0, NULL,
		  0), "ATTACH_MCAST");
}

void fz_rdma_init(struct fz_rdma *r, bool loop)
{
	struct wren_create_ah_in ah;
	struct td *d = r->d;

	memset(r, 0, sizeof(*r));
	r->d = d;
	wrenhw_set_link(d->h->hw, true, 25000);
	set_gids(d);
	r->pd = (uint32_t)ok(td_cmd(d, WREN_AQ_OP_ALLOC_PD, NULL, 0, NULL, 0,
				    NULL, 0), "ALLOC_PD");
	r->eq = (uint32_t)td_create_eq(d, 8, 1, NULL);
	make_cq(r, &r->cq[0]);
	make_cq(r, &r->cq[1]);
	make_srq(r);
	make_mrs(r);
	make_qp(r, FZ_QP_A, WREN_QPT_RC, false, FZ_QPN_A);
	make_qp(r, FZ_QP_B, WREN_QPT_RC, true, FZ_QPN_B);
	make_qp(r, FZ_QP_UD, WREN_QPT_UD, false, FZ_QPN_UD);
	make_qp(r, FZ_QP_GSI, WREN_QPT_GSI, false, FZ_QPN_GSI);
	rc_connect(r, FZ_QP_A, loop);
	rc_connect(r, FZ_QP_B, loop);
	ud_ready(r, FZ_QP_UD);
	ud_ready(r, FZ_QP_GSI);
	join_group(r, FZ_QP_UD);
	memset(&ah, 0, sizeof(ah));
	ah.pdn = r->pd;
	av(&ah.av, loop);
	if (cmd_in(d, WREN_AQ_OP_CREATE_AH, &ah, sizeof(ah), "CREATE_AH") !=
	    FZ_AH)
		fz_fail("CREATE_AH: not the handle the seeds use");
	/* Receives everywhere, 1 KiB each, in different parts of the MR. */
	for (uint32_t i = 0; i < 8; i++) {
		fz_rdma_recv(r, &r->qp[FZ_QP_A], i * 1024, 1024);
		fz_rdma_recv(r, &r->srq, 8192 + i * 1024, 1024);
		fz_rdma_recv(r, &r->qp[FZ_QP_UD], 16384 + i * 1024, 1024);
		fz_rdma_recv(r, &r->qp[FZ_QP_GSI], 24576 + i * 1024, 1024);
	}
	fz_acq_drain(d);
	td_aeq_count(d, 0xff);		/* forget the setup's events */
}

void fz_rdma_write_sq(struct fz_rdma *r, unsigned int q, const void *wqe,
		      size_t len)
{
	struct fz_wq *wq = &r->qp[q];
	uint8_t buf[1u << FZ_WQE_SHIFT];
	uint64_t slot = (uint64_t)(wq->sq_pi & ((1u << FZ_WQ_LOG) - 1))
			<< FZ_WQE_SHIFT;

	memset(buf, 0, sizeof(buf));
	memcpy(buf, wqe, len < sizeof(buf) ? len : sizeof(buf));
	th_mem_write(r->d->h, wq->buf + slot, buf, sizeof(buf));
	wq->sq_pi++;
}

void fz_rdma_ring_sq(struct fz_rdma *r, unsigned int q)
{
	th_db_write(r->d->h, r->qp[q].uar, WREN_DB_SQ,
		    WREN_DB_VAL(r->qp[q].qpn, 0, r->qp[q].sq_pi));
}

void fz_rdma_post_rq(struct fz_rdma *r, struct fz_wq *wq, const void *rqe,
		     size_t len)
{
	uint8_t buf[1u << FZ_WQE_SHIFT];
	uint64_t slot = (uint64_t)(wq->rq_pi & ((1u << FZ_WQ_LOG) - 1))
			<< FZ_WQE_SHIFT;
	uint32_t pi;

	memset(buf, 0, sizeof(buf));
	memcpy(buf, rqe, len < sizeof(buf) ? len : sizeof(buf));
	th_mem_write(r->d->h, wq->rq + slot, buf, sizeof(buf));
	pi = ++wq->rq_pi;
	th_mem_write(r->d->h, wq->dbrec, &pi, sizeof(pi));
}

void fz_rdma_recv(struct fz_rdma *r, struct fz_wq *wq, uint32_t off,
		  uint32_t len)
{
	struct {
		struct wren_rqe h;
		struct wren_wqe_sge s;
	} w;

	memset(&w, 0, sizeof(w));
	w.h.ds_count = 1;
	w.h.wqe_idx = (uint16_t)wq->rq_pi;
	w.s.addr = FZ_MR_IOVA + off;
	w.s.length = len;
	w.s.lkey = FZ_MR_KEY;
	fz_rdma_post_rq(r, wq, &w, sizeof(w));
}

unsigned int fz_cq_poll(struct td *d, struct fz_cq *c)
{
	unsigned int n = 0;
	struct wren_cqe e;

	for (; n < (2u << FZ_CQ_LOG); n++) {
		uint32_t slot = c->ci & ((1u << FZ_CQ_LOG) - 1);

		th_mem_read(d->h, c->ring + (uint64_t)slot * WREN_CQE_SIZE, &e,
			    sizeof(e));
		if (!wren_cqe_owned(e.owner, c->ci, FZ_CQ_LOG))
			break;
		c->ci++;
	}
	th_mem_write(d->h, c->dbrec, &c->ci, sizeof(c->ci));
	return n;
}

void fz_rdma_qp_state(struct fz_rdma *r, unsigned int q, uint8_t state)
{
	struct wren_modify_qp_in m;

	memset(&m, 0, sizeof(m));
	m.qpn = r->qp[q].qpn;
	m.attr_mask = WREN_QP_ATTR_STATE;
	m.new_state = state;
	/* The input's transition may be one the IB table refuses: fine. */
	td_cmd(r->d, WREN_AQ_OP_MODIFY_QP, NULL, 0, &m, sizeof(m), NULL, 0);
	if (state == WREN_QPS_RESET) {
		uint32_t zero = 0;

		r->qp[q].sq_pi = r->qp[q].rq_pi = 0;
		th_mem_write(r->d->h, r->qp[q].dbrec, &zero, sizeof(zero));
	}
}

void fz_rdma_reconnect(struct fz_rdma *r, unsigned int q, bool loop)
{
	fz_rdma_qp_state(r, q, WREN_QPS_RESET);
	if (q == FZ_QP_A || q == FZ_QP_B)
		rc_connect(r, q, loop);
	else
		ud_ready(r, q);
}
