// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC between two models (WREN_CAP_RDMA_XRC): an initiator QP on one,
 * on the other a target QP and XRC SRQs of its domain, each with a CQ of
 * its own.  Checked: the commands and their refusals (no capability, bad
 * handles, a CQ of another UAR, a domain still in use, a doorbell for a
 * target); ib_core's attribute masks for both halves; SEND (with
 * immediate, several packets), WRITE, READ and an atomic, each for the
 * SRQ its WQE names, completing to that SRQ's CQ with the SRQ in the CQE;
 * XRC's opcodes and XRCETH on the wire; a request naming an SRQ of
 * another domain, or one whose PD does not own the rkey, refused; a
 * message cut short flushed to its SRQ's CQ; BIND_MW refused on an
 * initiator, and xrc_srqn refused in an RC WQE; and random XRC frames
 * (opcodes, XRCETHs naming SRQs of either domain or none, PSNs near the
 * expected one) at both QPs between real traffic, SRQ posts, resets and
 * destroyed SRQs, after which the model still runs (ASan and UBSan
 * watch) and a fresh pair still moves data.
 */
#include <stdlib.h>
#include <string.h>

#include "roce/whw_roce.h"
#include "roce_tests.h"
#include "wrenhw_int.h"

#define X_ACCESS	(WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE | \
			 WREN_ACCESS_REMOTE_READ | WREN_ACCESS_REMOTE_ATOMIC)
#define X_LEN		(1u << 18)
#define X_INI_PSN	100u
#define X_TGT_PSN	200u
#define SYND_SRQ(f)	SYND_IN(struct wren_create_srq_in, f)
#define SYND_CQP(f)	SYND_IN(struct wren_create_qp_in, f)

/* What left each side: frames, those not of XRC's class, bad XRCETHs. */
struct x_watch {
	unsigned int frames[2];
	unsigned int not_xrc;
	unsigned int bad_xrceth;
	uint32_t srqn;		/* what node 0's requests must name */
};

struct x_env {
	struct ro_pair p;
	struct ro_cq scq;		/* node 0: the initiator's */
	struct ro_qp ini;		/* node 0 */
	struct ro_mr mr[2];
	uint32_t pd2;			/* node 1: a second PD */
	uint32_t xrcd[2];		/* node 1: the target's, another */
	struct ro_cq rcq[2];		/* node 1: one per SRQ of xrcd[0] */
	/* node 1: 0, 1 of xrcd[0]; 2 of xrcd[1]; 3 of xrcd[0] and pd2 */
	struct ro_srq srq[4];
	struct ro_qp tgt;		/* node 1: no rings, only its number */
	struct x_watch w;
	bool ok;
};

static void watch(void *ctx, int from, bool delivered, const uint8_t *f,
		  size_t len)
{
	struct x_watch *w = ctx;
	size_t off = 14 + (f[12] == 0x08 ? 20 : 40) + 8;

	if (delivered || off + WHW_BTH_LEN + 4 > len)
		return;
	w->frames[from]++;
	if ((f[off] & WHW_OP_CLASS) != WHW_OP_CLASS_XRC) {
		w->not_xrc++;
		return;
	}
	/* Requests (node 0) carry the SRQ in the XRCETH, responses none. */
	if (!from && (f[off + WHW_BTH_LEN] ||
		      whw_rd24be(f + off + WHW_BTH_LEN + 1) != w->srqn))
		w->bad_xrceth++;
}

static struct td_res create_srq(struct ro_node *n, struct ro_srq *s,
				 struct wren_create_srq_in *in)
{
	struct td_res r;

	memset(s, 0, sizeof(*s));
	s->d = n->d;
	s->log = 4;
	s->shift = 9;
	s->buf = td_alloc(n->d, 1ull << (s->log + s->shift), 4096);
	s->dbrec = td_alloc(n->d, 8, 8);
	in->log_size = (uint8_t)s->log;
	in->wqe_shift = (uint8_t)s->shift;
	in->buf.addr = s->buf;
	in->buf.page_shift = 12;
	in->dbrec_addr = s->dbrec;
	r = td_cmd(n->d, WREN_AQ_OP_CREATE_SRQ, NULL, 0, in, sizeof(*in),
		   NULL, 0);
	s->srqn = (uint32_t)r.result;
	return r;
}

static bool xrc_srq(struct ro_node *n, struct ro_srq *s, uint32_t pd,
		    uint32_t xrcd, uint32_t cqn)
{
	struct wren_create_srq_in in;

	memset(&in, 0, sizeof(in));
	in.pdn = pd;
	in.flags = WREN_SRQ_F_XRC;
	in.xrcdn = xrcd;
	in.cqn = cqn;
	return create_srq(n, s, &in).status == WREN_AQ_STATUS_OK;
}

static struct td_res create_tgt(struct ro_node *n, uint32_t xrcd,
				uint32_t pdn)
{
	struct wren_create_qp_in in;

	memset(&in, 0, sizeof(in));
	in.type = WREN_QPT_XRC_TGT;
	in.xrcdn = xrcd;
	in.pdn = pdn;
	return td_cmd(n->d, WREN_AQ_OP_CREATE_QP, NULL, 0, &in, sizeof(in),
		      NULL, 0);
}

static uint32_t alloc_xrcd(struct ro_node *n)
{
	struct td_res r = td_cmd(n->d, WREN_AQ_OP_ALLOC_XRCD, NULL, 0, NULL, 0,
				 NULL, 0);

	return r.status == WREN_AQ_STATUS_OK ? (uint32_t)r.result : 0;
}

/*
 * RESET -> INIT -> RTR -> RTS with only what ib_core requires of each
 * half: an initiator gives no responder resources or RNR timer, a target
 * no retry counts or initiator depth.
 */
static bool x_connect(struct ro_node *n, uint32_t qpn, bool tgt,
		      const struct ro_node *peer, uint32_t dest)
{
	struct wren_modify_qp_in m;

	memset(&m, 0, sizeof(m));
	m.qpn = qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_ACCESS_FLAGS;
	m.new_state = WREN_QPS_INIT;
	m.access_flags = tgt ? X_ACCESS : 0;
	if (ro_modify(n, &m))
		return false;
	memset(&m, 0, sizeof(m));
	m.qpn = qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_AV |
		      WREN_QP_ATTR_PATH_MTU | WREN_QP_ATTR_DEST_QPN |
		      WREN_QP_ATTR_RQ_PSN;
	if (tgt)
		m.attr_mask |= WREN_QP_ATTR_MAX_DEST_RD_ATOMIC |
			       WREN_QP_ATTR_MIN_RNR_TIMER;
	m.new_state = WREN_QPS_RTR;
	ro_fill_av(peer, &m.av, false);
	m.path_mtu = WREN_MTU_1024_;
	m.dest_qpn = dest;
	m.rq_psn = tgt ? X_INI_PSN : X_TGT_PSN;
	m.max_dest_rd_atomic = 4;
	m.min_rnr_timer = 1;
	if (ro_modify(n, &m))
		return false;
	memset(&m, 0, sizeof(m));
	m.qpn = qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_SQ_PSN |
		      WREN_QP_ATTR_TIMEOUT;
	if (!tgt)
		m.attr_mask |= WREN_QP_ATTR_RETRY_CNT |
			       WREN_QP_ATTR_RNR_RETRY |
			       WREN_QP_ATTR_MAX_QP_RD_ATOMIC;
	m.new_state = WREN_QPS_RTS;
	m.timeout = 14;
	m.retry_cnt = 7;
	m.rnr_retry = 7;
	m.sq_psn = tgt ? X_TGT_PSN : X_INI_PSN;
	m.max_rd_atomic = 4;
	return !ro_modify(n, &m);
}

static void x_init(struct x_env *e)
{
	struct ro_node *n0 = &e->p.n[0], *n1 = &e->p.n[1];
	struct ro_qp_opts o = { .type = WREN_QPT_XRC_INI };
	struct td_res r;
	bool ok;

	memset(e, 0, sizeof(*e));
	ro_pair_init(&e->p);
	ro_cq_create(n0, &e->scq, 8, 0);
	o.scq = e->scq.cqn;
	ok = ro_qp_create(n0, &e->ini, &o) > 0;
	for (int i = 0; i < 2; i++)
		ok &= ro_mr_reg(&e->p.n[i], &e->mr[i], e->p.n[i].pd,
				0x7f0000001000ull + i * 0x100000, X_LEN,
				X_ACCESS, 12, true) > 0;
	e->pd2 = (uint32_t)td_alloc_pd(n1->d);
	e->xrcd[0] = alloc_xrcd(n1);
	e->xrcd[1] = alloc_xrcd(n1);
	ok &= e->xrcd[0] && e->xrcd[1] && e->xrcd[0] != e->xrcd[1];
	for (int i = 0; i < 2; i++) {
		ro_cq_create(n1, &e->rcq[i], 8, 0);
		ok &= xrc_srq(n1, &e->srq[i], n1->pd, e->xrcd[0],
			      e->rcq[i].cqn);
	}
	ok &= xrc_srq(n1, &e->srq[2], n1->pd, e->xrcd[1], e->rcq[0].cqn);
	ok &= xrc_srq(n1, &e->srq[3], e->pd2, e->xrcd[0], e->rcq[0].cqn);
	r = create_tgt(n1, e->xrcd[0], 0);
	ok &= r.status == WREN_AQ_STATUS_OK;
	e->tgt.d = n1->d;
	e->tgt.qpn = (uint32_t)r.result;
	e->tgt.type = WREN_QPT_XRC_TGT;
	ok &= x_connect(n0, e->ini.qpn, false, n1, e->tgt.qpn);
	ok &= x_connect(n1, e->tgt.qpn, true, n0, e->ini.qpn);
	e->ok = ok;
	e->p.watch = watch;
	e->p.watch_ctx = &e->w;
}

static void x_fini(struct x_env *e)
{
	ro_mr_free(&e->mr[0]);
	ro_mr_free(&e->mr[1]);
	ro_pair_fini(&e->p);
}

/* Posts @op of @len bytes at @off on both sides, for SRQ @srq. */
static void x_post(struct x_env *e, uint8_t op, uint64_t off, uint32_t len,
		   const struct ro_srq *srq)
{
	struct ro_wqe w = { .opcode = op, .flags = WREN_WQE_F_SIGNALED,
			    .nsge = 1, .imm = 0x11223344 };

	w.sge[0] = ro_mr_sge(&e->mr[0], off, len);
	w.raddr = e->mr[1].iova + off;
	w.rkey = e->mr[1].key;
	w.swap = 5;
	w.xrc_srqn = srq->srqn;
	e->w.srqn = srq->srqn;
	ro_post_send(&e->ini, &w);
}

static void commands(void)
{
	struct ro_pair p;
	struct ro_node *n;
	struct wren_create_srq_in in;
	struct wren_create_qp_in qi;
	struct wren_device_attr a;
	struct ro_srq s;
	struct ro_cq cq, ucq;
	struct ro_qp fake;
	struct td_res r;
	uint32_t x, uar, tgt;
	struct wrenhw *hw;

	ro_pair_init(&p);
	n = &p.n[1];
	hw = n->d->h->hw;
	memset(&a, 0, sizeof(a));
	td_cmd(n->d, WREN_AQ_OP_QUERY_DEVICE, NULL, 0, NULL, 0, &a, sizeof(a));
	tap_ok((a.caps & WREN_CAP_RDMA_XRC) && a.max_xrcd == WHW_MAX_XRCD,
	       "XRC: capability and max_xrcd %u", a.max_xrcd);

	/* Without the capability nothing of XRC is taken. */
	whw_test_set_caps(hw, hw->caps & ~WREN_CAP_RDMA_XRC);
	r = td_cmd(n->d, WREN_AQ_OP_ALLOC_XRCD, NULL, 0, NULL, 0, NULL, 0);
	tap_ok(r.status == WREN_AQ_STATUS_NOT_SUPPORTED,
	       "XRC: ALLOC_XRCD without the capability: NOT_SUPPORTED");
	ro_cq_create(n, &cq, 6, 0);
	memset(&in, 0, sizeof(in));
	in.pdn = n->pd;
	in.flags = WREN_SRQ_F_XRC;
	in.xrcdn = 1;
	in.cqn = cq.cqn;
	r = create_srq(n, &s, &in);
	tap_ok(r.status == WREN_AQ_STATUS_NOT_SUPPORTED,
	       "XRC: an XRC SRQ without the capability: NOT_SUPPORTED");
	r = create_tgt(n, 1, 0);
	tap_ok(r.status == WREN_AQ_STATUS_NOT_SUPPORTED &&
	       r.synd == SYND_CQP(type),
	       "XRC: a target QP without the capability: NOT_SUPPORTED");
	whw_test_set_caps(hw, hw->caps | WREN_CAP_RDMA_XRC);

	x = alloc_xrcd(n);
	tap_ok(x >= 1, "XRC: ALLOC_XRCD answers domain %u", x);
	/* max_xrcd of them, then NO_RESOURCES. */
	{
		uint32_t more[WHW_MAX_XRCD], n_more = 0;

		do {
			r = td_cmd(n->d, WREN_AQ_OP_ALLOC_XRCD, NULL, 0, NULL,
				   0, NULL, 0);
			if (r.status == WREN_AQ_STATUS_OK)
				more[n_more++] = (uint32_t)r.result;
		} while (r.status == WREN_AQ_STATUS_OK &&
			 n_more < WHW_MAX_XRCD);
		tap_ok(n_more + 1 == WHW_MAX_XRCD &&
		       r.status == WREN_AQ_STATUS_NO_RESOURCES,
		       "XRC: max_xrcd domains, then NO_RESOURCES (%u more)",
		       n_more);
		while (n_more)
			td_handle_cmd(n->d, WREN_AQ_OP_DEALLOC_XRCD,
				      more[--n_more], NULL, 0);
	}

	/* XRC SRQs: every field checked. */
	memset(&in, 0, sizeof(in));
	in.pdn = n->pd;
	in.flags = WREN_SRQ_F_XRC;
	in.xrcdn = x + 1;
	in.cqn = cq.cqn;
	r = create_srq(n, &s, &in);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_HANDLE &&
	       r.synd == SYND_SRQ(xrcdn), "XRC SRQ: unknown domain: BAD_HANDLE");
	in.xrcdn = x;
	in.cqn = 999;
	r = create_srq(n, &s, &in);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_HANDLE && r.synd == SYND_SRQ(cqn),
	       "XRC SRQ: unknown CQ: BAD_HANDLE");
	uar = (uint32_t)td_alloc_uar(n->d);
	ro_cq_create(n, &ucq, 6, uar);
	in.cqn = ucq.cqn;
	r = create_srq(n, &s, &in);
	tap_ok(r.status == WREN_AQ_STATUS_PERM && r.synd == SYND_SRQ(cqn),
	       "XRC SRQ: a CQ of another UAR: PERM");
	memset(&in, 0, sizeof(in));
	in.pdn = n->pd;
	in.xrcdn = x;
	r = create_srq(n, &s, &in);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_PARAM &&
	       r.synd == SYND_SRQ(xrcdn),
	       "SRQ: a domain without WREN_SRQ_F_XRC: BAD_PARAM");
	in.xrcdn = 0;
	in.flags = 0x2;
	r = create_srq(n, &s, &in);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_PARAM &&
	       r.synd == SYND_SRQ(flags), "SRQ: an unknown flag: BAD_PARAM");

	/* Target QPs: a domain and nothing else; initiators no receives. */
	r = create_tgt(n, x + 1, 0);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_HANDLE &&
	       r.synd == SYND_CQP(xrcdn), "XRC target: unknown domain");
	r = create_tgt(n, x, n->pd);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_PARAM && r.synd == SYND_CQP(pdn),
	       "XRC target: a PD given: BAD_PARAM");
	memset(&qi, 0, sizeof(qi));
	qi.type = WREN_QPT_XRC_INI;
	qi.sq_wqe_shift = 9;
	qi.sq_log_size = 4;
	qi.pdn = n->pd;
	qi.send_cqn = cq.cqn;
	qi.recv_cqn = ucq.cqn;	/* CQ 0 would read as none */
	qi.buf.addr = td_alloc(n->d, 1u << 13, 4096);
	qi.buf.page_shift = 12;
	qi.dbrec_addr = td_alloc(n->d, 8, 8);
	r = td_cmd(n->d, WREN_AQ_OP_CREATE_QP, NULL, 0, &qi, sizeof(qi), NULL,
		   0);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_PARAM &&
	       r.synd == SYND_CQP(recv_cqn),
	       "XRC initiator: a receive CQ given: BAD_PARAM");
	qi.type = WREN_QPT_RC;
	qi.xrcdn = x;
	r = td_cmd(n->d, WREN_AQ_OP_CREATE_QP, NULL, 0, &qi, sizeof(qi), NULL,
		   0);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_PARAM &&
	       r.synd == SYND_CQP(xrcdn), "RC QP: a domain given: BAD_PARAM");

	/* The domain is busy while an SRQ or a target names it. */
	tap_ok(xrc_srq(n, &s, n->pd, x, cq.cqn), "XRC SRQ created");
	qi.type = WREN_QPT_RC;
	qi.xrcdn = 0;
	qi.flags = WREN_QP_F_USE_SRQ;
	qi.srqn = s.srqn;
	qi.recv_cqn = cq.cqn;
	r = td_cmd(n->d, WREN_AQ_OP_CREATE_QP, NULL, 0, &qi, sizeof(qi), NULL,
		   0);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_PARAM && r.synd == SYND_CQP(srqn),
	       "RC QP on an XRC SRQ: BAD_PARAM");
	r = create_tgt(n, x, 0);
	tgt = (uint32_t)r.result;
	tap_ok(r.status == WREN_AQ_STATUS_OK, "XRC target created: QP %u",
	       tgt);
	r = td_handle_cmd(n->d, WREN_AQ_OP_DESTROY_CQ, cq.cqn, NULL, 0);
	tap_ok(r.status == WREN_AQ_STATUS_BUSY,
	       "XRC SRQ: its CQ cannot be destroyed under it");

	/* A target has no SQ: a doorbell for it is an error, nothing more. */
	memset(&fake, 0, sizeof(fake));
	fake.d = n->d;
	fake.qpn = tgt;
	fake.sq_pi = 1;
	td_aeq_count(n->d, WREN_EVENT_DB_ERR);
	ro_ring(&fake);
	tap_ok(td_aeq_count(n->d, WREN_EVENT_DB_ERR) == 1 &&
	       ro_qp_state(n, tgt) == WREN_QPS_RESET,
	       "XRC target: an SQ doorbell is refused (DB_ERR)");

	r = td_handle_cmd(n->d, WREN_AQ_OP_DEALLOC_XRCD, x, NULL, 0);
	tap_ok(r.status == WREN_AQ_STATUS_BUSY, "DEALLOC_XRCD in use: BUSY");
	td_handle_cmd(n->d, WREN_AQ_OP_DESTROY_SRQ, s.srqn, NULL, 0);
	r = td_handle_cmd(n->d, WREN_AQ_OP_DEALLOC_XRCD, x, NULL, 0);
	tap_ok(r.status == WREN_AQ_STATUS_BUSY,
	       "DEALLOC_XRCD with a target left: BUSY");
	td_handle_cmd(n->d, WREN_AQ_OP_DESTROY_QP, tgt, NULL, 0);
	r = td_handle_cmd(n->d, WREN_AQ_OP_DEALLOC_XRCD, x, NULL, 0);
	tap_ok(r.status == WREN_AQ_STATUS_OK, "DEALLOC_XRCD once unused");
	r = td_handle_cmd(n->d, WREN_AQ_OP_DEALLOC_XRCD, x, NULL, 0);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_HANDLE,
	       "DEALLOC_XRCD twice: BAD_HANDLE");
	ro_pair_fini(&p);
}

static bool recv_cqe_ok(struct ro_cq *cq, const struct x_env *e,
			const struct ro_srq *s, uint32_t len, uint16_t idx,
			uint16_t flags)
{
	struct wren_cqe c;

	return rc_one_cqe(cq, &c) && c.status == WREN_CQE_SUCCESS &&
	       c.qpn == e->tgt.qpn && c.src_qp == s->srqn &&
	       c.byte_len == len && c.wqe_idx == idx &&
	       c.flags == (WREN_CQE_F_XRC | flags);
}

static void traffic(void)
{
	struct x_env e;
	struct wren_wqe_sge sg;
	struct wren_cqe c[8];
	uint8_t *s1, *s2, *w1, *r1;
	uint64_t v = 40, got;
	unsigned int n;

	x_init(&e);
	tap_ok(e.ok, "XRC: initiator and target connected with ib_core's "
	       "masks of each half");
	s1 = ro_mr_pattern(&e.mr[0], 0, 5000, 1);
	s2 = ro_mr_pattern(&e.mr[0], 8192, 100, 2);
	w1 = ro_mr_pattern(&e.mr[0], 16384, 3000, 3);
	r1 = ro_mr_pattern(&e.mr[1], 32768, 6000, 4);
	ro_mr_write(&e.mr[1], e.mr[1].iova + 65536, &v, 8);
	sg = ro_mr_sge(&e.mr[1], 0, 8192);
	ro_srq_post(&e.srq[0], &sg, 1);
	sg = ro_mr_sge(&e.mr[1], 8192, 4096);
	ro_srq_post(&e.srq[1], &sg, 1);

	x_post(&e, WREN_WQE_SEND_IMM, 0, 5000, &e.srq[0]);
	ro_settle(&e.p, 100000000ull);
	x_post(&e, WREN_WQE_SEND, 8192, 100, &e.srq[1]);
	ro_settle(&e.p, 100000000ull);
	tap_ok(recv_cqe_ok(&e.rcq[0], &e, &e.srq[0], 5000, 0, WREN_CQE_F_IMM) &&
	       ro_mr_same(&e.mr[1], 0, s1, 5000),
	       "XRC SEND_IMM of 5 packets: SRQ 0's CQ, the SRQ in src_qp");
	tap_ok(recv_cqe_ok(&e.rcq[1], &e, &e.srq[1], 100, 0, 0) &&
	       ro_mr_same(&e.mr[1], 8192, s2, 100),
	       "XRC SEND for SRQ 1: SRQ 1's CQ");

	x_post(&e, WREN_WQE_RDMA_WRITE, 16384, 3000, &e.srq[1]);
	ro_settle(&e.p, 100000000ull);
	tap_ok(ro_mr_same(&e.mr[1], 16384, w1, 3000),
	       "XRC WRITE under the named SRQ's PD: data placed");
	x_post(&e, WREN_WQE_RDMA_READ, 32768, 6000, &e.srq[0]);
	ro_settle(&e.p, 100000000ull);
	tap_ok(ro_mr_same(&e.mr[0], 32768, r1, 6000), "XRC READ of 6 responses");
	x_post(&e, WREN_WQE_ATOMIC_FETCH_ADD, 65536, 8, &e.srq[0]);
	ro_settle(&e.p, 100000000ull);
	ro_mr_read(&e.mr[0], e.mr[0].iova + 65536, &got, 8);
	ro_mr_read(&e.mr[1], e.mr[1].iova + 65536, &v, 8);
	tap_ok(got == 40 && v == 45, "XRC FETCH_ADD: 40 + 5, 40 returned");
	n = ro_cq_drain(&e.scq, c, 8);
	tap_ok(n == 5 && c[0].status == 0 && c[1].status == 0 &&
	       c[2].status == 0 && c[3].status == 0 && c[4].status == 0,
	       "XRC initiator: 5 successful completions (%u)", n);
	tap_ok(e.w.frames[0] && e.w.frames[1] && !e.w.not_xrc &&
	       !e.w.bad_xrceth,
	       "wire: %u requests and %u responses, all of XRC's class, "
	       "each request's XRCETH naming its SRQ",
	       e.w.frames[0], e.w.frames[1]);
	tap_ok(!ro_cq_poll(&e.rcq[0], &c[0]) && !ro_cq_poll(&e.rcq[1], &c[0]),
	       "no other receive completions");
	free(s1);
	free(s2);
	free(w1);
	free(r1);
	x_fini(&e);
}

/* A request the target must refuse: the initiator's error, the QP in ERR. */
static void refused(const char *what, uint8_t op, int srq, uint8_t status)
{
	struct x_env e;
	struct wren_wqe_sge sg;
	struct wren_cqe c;

	x_init(&e);
	sg = ro_mr_sge(&e.mr[1], 0, 4096);
	ro_srq_post(&e.srq[srq], &sg, 1);
	x_post(&e, op, 0, 100, &e.srq[srq]);
	ro_settle(&e.p, 100000000ull);
	tap_ok(rc_one_cqe(&e.scq, &c) && c.status == status &&
	       ro_qp_state(&e.p.n[1], e.tgt.qpn) == WREN_QPS_ERR &&
	       !ro_cq_poll(&e.rcq[0], &c),
	       "XRC: %s: initiator status %u, target in ERR", what, status);
	x_fini(&e);
}

/* A SEND cut short, then the target reset: its WQE flushed to its CQ. */
static void flushed(void)
{
	struct x_env e;
	struct wren_wqe_sge sg;
	struct wren_modify_qp_in m;
	struct wren_cqe c;

	x_init(&e);
	sg = ro_mr_sge(&e.mr[1], 0, 8192);
	ro_srq_post(&e.srq[1], &sg, 1);
	e.p.drop_opcode = WHW_OP_CLASS_XRC | WHW_OP_SEND_LAST;
	e.p.drop_opcode_n = 1000;
	x_post(&e, WREN_WQE_SEND, 0, 3000, &e.srq[1]);
	ro_settle(&e.p, 1000000ull);
	memset(&m, 0, sizeof(m));
	m.qpn = e.tgt.qpn;
	m.attr_mask = WREN_QP_ATTR_STATE;
	m.new_state = WREN_QPS_ERR;
	ro_modify(&e.p.n[1], &m);
	tap_ok(rc_one_cqe(&e.rcq[1], &c) && c.status == WREN_CQE_WR_FLUSH_ERR &&
	       c.src_qp == e.srq[1].srqn && (c.flags & WREN_CQE_F_XRC),
	       "XRC: a SEND cut short by ERR: its SRQ's WQE flushed there");
	x_fini(&e);
}

static void sq_rules(void)
{
	struct x_env e;
	struct rc_env rc;
	struct ro_wqe w = { .opcode = WREN_WQE_BIND_MW,
			    .flags = WREN_WQE_F_SIGNALED };
	struct wren_cqe c;

	x_init(&e);
	ro_post_send(&e.ini, &w);
	ro_settle(&e.p, 10000000ull);
	tap_ok(rc_one_cqe(&e.scq, &c) && c.status == WREN_CQE_LOC_QP_OP_ERR &&
	       c.vendor_err == WREN_VERR_SQ_OPCODE,
	       "XRC initiator: BIND_MW refused (SQ_OPCODE)");
	x_fini(&e);

	rc_env_init(&rc, NULL);
	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_NOP;
	w.flags = WREN_WQE_F_SIGNALED;
	w.xrc_srqn = 3;
	ro_post_send(&rc.qp[0], &w);
	ro_settle(&rc.p, 10000000ull);
	tap_ok(rc_one_cqe(&rc.cq[0], &c) && c.status == WREN_CQE_LOC_QP_OP_ERR &&
	       c.vendor_err == WREN_VERR_SQ_RSVD,
	       "RC QP: a WQE with xrc_srqn refused (SQ_RSVD)");
	rc_env_fini(&rc);
}

static uint64_t fz_state = 0x5852432d465a3031ull;	/* "XRC-FZ01" */

static uint32_t fz_rnd(void)
{
	fz_state ^= fz_state << 13;
	fz_state ^= fz_state >> 7;
	fz_state ^= fz_state << 17;
	return (uint32_t)(fz_state >> 16);
}

/* An XRC frame (or, 1 in 8, any class) from node !@to to QP @dqpn of @to. */
static uint32_t fz_frame(struct x_env *e, int to, uint8_t *f, uint32_t dqpn,
			 uint32_t psn, uint32_t srqn)
{
	uint32_t n = fz_rnd() % 160, l3, icrc;
	uint8_t *ip = f + 14, *bth;

	if (fz_rnd() % 4 == 0)
		n = 4 + fz_rnd() % 2100;
	l3 = 20 + 8 + 12 + n + 4;
	bth = ro_frame_v4(f, l3, e->p.n[to].mac, e->p.n[!to].mac,
			  e->p.n[!to].gid4 + 12, e->p.n[to].gid4 + 12, 0xc000);
	bth[0] = fz_rnd() % 8 ? (uint8_t)(WHW_OP_CLASS_XRC | fz_rnd() % 0x1e) :
				(uint8_t)fz_rnd();
	bth[1] = (uint8_t)(fz_rnd() & 0xb0);
	bth[2] = bth[3] = 0xff;
	whw_wr24be(bth + 5, dqpn);
	bth[8] = (uint8_t)(fz_rnd() & 0x80);
	whw_wr24be(bth + 9, psn);
	for (uint32_t i = 0; i < n; i++)
		bth[12 + i] = (uint8_t)fz_rnd();
	/* An XRCETH naming @srqn, then now and then a RETH into the MR. */
	if (n >= 4)
		whw_wr32be(bth + 12, srqn);
	if (n >= 20 && fz_rnd() % 2) {
		whw_wr64be(bth + 16, e->mr[to].iova + fz_rnd() % X_LEN);
		whw_wr32be(bth + 24, e->mr[to].key);
		whw_wr32be(bth + 28, fz_rnd() % 9000);
	}
	icrc = whw_le32(whw_roce_icrc(ip, true, l3));
	memcpy(ip + l3 - 4, &icrc, 4);
	return 14 + l3;
}

static uint32_t fz_rq_psn(struct ro_node *n, uint32_t qpn)
{
	struct whw_qp *qp = whw_table_get(&n->d->h->hw->qps, qpn);

	return qp ? qp->attr.rq_psn : 0;
}

/* The target back to RTS, from wherever it is. */
static void fz_reconnect(struct x_env *e)
{
	struct wren_modify_qp_in m;

	memset(&m, 0, sizeof(m));
	m.qpn = e->tgt.qpn;
	m.attr_mask = WREN_QP_ATTR_STATE;
	m.new_state = WREN_QPS_RESET;
	ro_modify(&e->p.n[1], &m);
	x_connect(&e->p.n[1], e->tgt.qpn, true, &e->p.n[0], e->ini.qpn);
}

static void fuzz(void)
{
	static uint8_t f[2400];
	struct wren_wqe_sge sg;
	struct wren_cqe c[16];
	struct x_env e;
	unsigned int steps = 4000, frames = 0, resets = 0;
	uint8_t *want;
	bool ok;

	x_init(&e);
	for (unsigned int i = 0; i < steps; i++) {
		uint32_t k = fz_rnd() % 100, s = fz_rnd() % 5;
		uint32_t srqn = s < 4 ? e.srq[s].srqn : fz_rnd() & 0xffffff;
		uint32_t len;

		if (k < 55) {
			uint32_t psn = fz_rq_psn(&e.p.n[1], e.tgt.qpn) +
				       fz_rnd() % 4 - 1;

			len = fz_frame(&e, 1, f, fz_rnd() % 16 ? e.tgt.qpn :
					   e.ini.qpn, psn & 0xffffff, srqn);
			wrenhw_rx_frame(e.p.n[1].d->h->hw, f, len);
			frames++;
		} else if (k < 70) {
			len = fz_frame(&e, 0, f, e.ini.qpn,
				       fz_rnd() & 0xffffff, srqn);
			wrenhw_rx_frame(e.p.n[0].d->h->hw, f, len);
			frames++;
		} else if (k < 82) {
			sg = ro_mr_sge(&e.mr[1], fz_rnd() % (X_LEN / 2), 4096);
			if (s < 4)
				ro_srq_post(&e.srq[s], &sg, 1);
		} else if (k < 92) {
			static const uint8_t ops[] = {
				WREN_WQE_SEND, WREN_WQE_SEND_IMM,
				WREN_WQE_RDMA_WRITE, WREN_WQE_RDMA_READ,
				WREN_WQE_ATOMIC_FETCH_ADD,
			};

			x_post(&e, ops[fz_rnd() % sizeof(ops)],
			       (fz_rnd() % 8) * 8192, 1 + fz_rnd() % 5000,
			       &e.srq[s < 4 ? s : 0]);
		} else if (k < 97) {
			th_advance(e.p.n[fz_rnd() % 2].d->h,
				   fz_rnd() % 100000000);
		} else if (k < 99) {
			fz_reconnect(&e);
		} else if (s < 2) {
			/* An SRQ of the domain destroyed, another made. */
			td_handle_cmd(e.p.n[1].d, WREN_AQ_OP_DESTROY_SRQ,
				      e.srq[s].srqn, NULL, 0);
			xrc_srq(&e.p.n[1], &e.srq[s], e.p.n[1].pd, e.xrcd[0],
				e.rcq[s].cqn);
		}
		/* A target refusing a frame breaks: mostly mended soon. */
		if (fz_rnd() % 4 == 0 &&
		    ro_qp_state(&e.p.n[1], e.tgt.qpn) == WREN_QPS_ERR) {
			fz_reconnect(&e);
			resets++;
		}
		ro_step(&e.p, (int)(fz_rnd() % 3) - 1);
		/* Completions are drained as software would. */
		ro_cq_drain(&e.scq, c, 16);
		ro_cq_drain(&e.rcq[0], c, 16);
		ro_cq_drain(&e.rcq[1], c, 16);
	}
	ro_settle(&e.p, 1000000000ull);
	tap_diag("xrc fuzz: %u steps, %u frames, %u targets mended; node 1 "
		 "discards %llu, NAKs %llu", steps, frames, resets,
		 (unsigned long long)ro_counter(&e.p.n[1],
			WREN_RDMA_CNT_RX_ROCE_DISCARDS),
		 (unsigned long long)td_aeq_count(e.p.n[1].d,
			WREN_EVENT_QP_REQ_ERR));
	x_fini(&e);

	/* A fresh pair afterwards moves data as before. */
	x_init(&e);
	want = ro_mr_pattern(&e.mr[0], 0, 3000, 9);
	sg = ro_mr_sge(&e.mr[1], 0, 4096);
	ro_srq_post(&e.srq[0], &sg, 1);
	x_post(&e, WREN_WQE_SEND, 0, 3000, &e.srq[0]);
	ro_settle(&e.p, 100000000ull);
	ok = recv_cqe_ok(&e.rcq[0], &e, &e.srq[0], 3000, 0, 0) &&
	     ro_mr_same(&e.mr[1], 0, want, 3000);
	tap_ok(e.ok && ok, "XRC fuzz: the model survived %u random frames; "
	       "a fresh pair moves data", frames);
	free(want);
	x_fini(&e);
}

void test_xrc(void)
{
	commands();
	traffic();
	refused("a SEND for an SRQ of another domain", WREN_WQE_SEND, 2,
		WREN_CQE_REM_INV_REQ_ERR);
	refused("a WRITE for an SRQ whose PD has not the rkey",
		WREN_WQE_RDMA_WRITE, 3, WREN_CQE_REM_ACCESS_ERR);
	flushed();
	sq_rules();
	fuzz();
}
