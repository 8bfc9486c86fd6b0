// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RDMA objects through the admin queue and host memory, as wren_ib.ko and
 * libwren make them: a node's PD, EQ and GIDs, CQs, QPs, SRQs and MRs;
 * WQEs written and doorbells rung, CQEs polled.  Only the contract
 * (include/linux/wren) and the bus (wrenhw.h) are used.
 */
#include <stdlib.h>
#include <string.h>

#include "rdma.h"

static void set_gid(struct ro_node *n, uint32_t index, const uint8_t *gid,
		    bool v4)
{
	struct wren_set_gid_in g;

	memset(&g, 0, sizeof(g));
	g.index = index;
	g.type = WREN_GID_ROCE_V2;
	g.flags = v4 ? WREN_AV_F_IPV4 : 0;
	memcpy(g.gid, gid, 16);
	memcpy(g.mac, n->mac, 6);
	td_cmd(n->d, WREN_AQ_OP_SET_GID, NULL, 0, &g, sizeof(g), NULL, 0);
}

int ro_node_init(struct ro_node *n, const struct wrenhw_config *cfg,
		 const uint8_t *gid4, const uint8_t *gid6)
{
	struct wren_set_port_in sp;
	int64_t pd, eq;

	memset(n, 0, sizeof(*n));
	memcpy(n->mac, cfg->mac, 6);
	n->d = td_new(cfg);
	if (!n->d)
		return -1;
	memset(&sp, 0, sizeof(sp));
	sp.mask = WREN_SET_PORT_MTU;
	sp.mtu = 9000;
	td_cmd(n->d, WREN_AQ_OP_SET_PORT, NULL, 0, &sp, sizeof(sp), NULL, 0);
	pd = td_alloc_pd(n->d);
	eq = td_create_eq(n->d, 8, 1, NULL);
	if (pd < 0 || eq < 0)
		return -1;
	n->pd = (uint32_t)pd;
	n->eq = (uint32_t)eq;
	n->uar = WREN_KERNEL_UAR;
	memcpy(n->gid4, gid4, 16);
	memcpy(n->gid6, gid6, 16);
	set_gid(n, 0, n->gid4, true);
	set_gid(n, 1, n->gid6, false);
	td_aeq_count(n->d, 0xff);	/* forget setup events */
	return 0;
}

void ro_node_fini(struct ro_node *n)
{
	td_free(n->d);
	n->d = NULL;
}

int64_t ro_cq_create(struct ro_node *n, struct ro_cq *cq, uint32_t log,
		     uint32_t uar)
{
	struct wren_create_cq_in in;
	int64_t h;

	memset(cq, 0, sizeof(*cq));
	memset(&in, 0, sizeof(in));
	cq->d = n->d;
	cq->log = log;
	cq->ring = td_alloc(n->d, (uint64_t)WREN_CQE_SIZE << log, 4096);
	cq->dbrec = td_alloc(n->d, 8, 8);
	in.ring.addr = cq->ring;
	in.ring.page_shift = 12;
	in.dbrec_addr = cq->dbrec;
	in.eqn = n->eq;
	in.uar = uar;
	in.log_size = (uint8_t)log;
	h = td_handle(td_cmd(n->d, WREN_AQ_OP_CREATE_CQ, NULL, 0, &in,
			      sizeof(in), NULL, 0));
	cq->cqn = (uint32_t)h;
	return h;
}

bool ro_cq_poll(struct ro_cq *cq, struct wren_cqe *c)
{
	uint32_t slot = cq->ci & ((1u << cq->log) - 1);
	uint32_t ci;

	th_mem_read(cq->d->h, cq->ring + (uint64_t)slot * WREN_CQE_SIZE, c,
		    sizeof(*c));
	if (!wren_ring_owned(c->owner, cq->ci, cq->log))
		return false;
	cq->ci++;
	ci = cq->ci;
	th_mem_write(cq->d->h, cq->dbrec, &ci, 4);
	return true;
}

unsigned int ro_cq_drain(struct ro_cq *cq, struct wren_cqe *out,
			 unsigned int max)
{
	struct wren_cqe c;
	unsigned int n = 0;

	while (ro_cq_poll(cq, &c)) {
		if (out && n < max)
			out[n] = c;
		n++;
	}
	return n;
}

int64_t ro_qp_create(struct ro_node *n, struct ro_qp *qp,
		     const struct ro_qp_opts *o)
{
	struct wren_create_qp_in in;
	uint64_t sq_bytes, rq_bytes;
	bool no_rq;
	int64_t h;

	memset(qp, 0, sizeof(*qp));
	memset(&in, 0, sizeof(in));
	qp->d = n->d;
	qp->type = o->type;
	qp->uar = o->uar;
	qp->sq_log = o->sq_log ? o->sq_log : 6;
	qp->sq_shift = 9;
	qp->srq = o->srq != NULL;
	/* An XRC initiator has no receive queue either. */
	no_rq = qp->srq || o->type == WREN_QPT_XRC_INI;
	qp->rq_log = no_rq ? 0 : (o->rq_log ? o->rq_log : 6);
	qp->rq_shift = no_rq ? 0 : 9;
	sq_bytes = 1ull << (qp->sq_log + qp->sq_shift);
	rq_bytes = no_rq ? 0 : 1ull << (qp->rq_log + qp->rq_shift);
	qp->rq_off = no_rq ? 0 : (uint32_t)sq_bytes;
	qp->buf = o->buf ? o->buf : td_alloc(n->d, sq_bytes + rq_bytes, 4096);
	qp->dbrec = o->dbrec ? o->dbrec : td_alloc(n->d, 8, 8);
	in.type = o->type;
	in.flags = o->flags | (qp->srq ? WREN_QP_F_USE_SRQ : 0);
	in.sq_wqe_shift = (uint8_t)qp->sq_shift;
	in.rq_wqe_shift = (uint8_t)qp->rq_shift;
	in.sq_log_size = (uint8_t)qp->sq_log;
	in.rq_log_size = (uint8_t)qp->rq_log;
	in.max_inline = o->max_inline ? o->max_inline : 256;
	in.pdn = n->pd;
	in.send_cqn = o->scq;
	in.recv_cqn = o->rcq;
	in.srqn = o->srq ? o->srq->srqn : 0;
	in.uar = o->uar;
	in.rq_offset = qp->rq_off;
	in.buf.addr = qp->buf;
	in.buf.page_shift = 12;
	in.dbrec_addr = qp->dbrec;
	h = td_handle(td_cmd(n->d, WREN_AQ_OP_CREATE_QP, NULL, 0, &in,
			      sizeof(in), NULL, 0));
	qp->qpn = (uint32_t)h;
	return h;
}

int ro_modify(struct ro_node *n, struct wren_modify_qp_in *m)
{
	struct td_res r = td_cmd(n->d, WREN_AQ_OP_MODIFY_QP, NULL, 0, m,
				 sizeof(*m), NULL, 0);

	n->synd = r.completed ? r.synd : 0;
	return r.completed ? r.status : -1;
}

struct wren_wqe_sge ro_mr_sge(const struct ro_mr *mr, uint64_t off,
			      uint32_t len)
{
	struct wren_wqe_sge s = {
		.addr = mr->iova + off,
		.length = len,
		.lkey = mr->key,
	};

	return s;
}

void ro_fill_av(const struct ro_node *peer, struct wren_av *av, bool ipv6)
{
	memset(av, 0, sizeof(*av));
	av->gid_index = ipv6 ? 1 : 0;
	av->hop_limit = 64;
	av->flags = ipv6 ? 0 : WREN_AV_F_IPV4;
	memcpy(av->dgid, ipv6 ? peer->gid6 : peer->gid4, 16);
	memcpy(av->dmac, peer->mac, 6);
}

int ro_connect_to(struct ro_node *n, struct ro_qp *qp,
		  const struct ro_node *peer, uint32_t dest_qpn,
		  uint32_t sq, uint32_t rq, const struct ro_conn *c)
{
	bool uc = qp->type == WREN_QPT_UC;
	struct wren_modify_qp_in m;
	int rc;

	memset(&m, 0, sizeof(m));
	m.qpn = qp->qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_ACCESS_FLAGS;
	m.new_state = WREN_QPS_INIT;
	m.access_flags = c->access;
	rc = ro_modify(n, &m);
	if (rc)
		return rc;
	memset(&m, 0, sizeof(m));
	m.qpn = qp->qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_AV |
		      WREN_QP_ATTR_PATH_MTU | WREN_QP_ATTR_DEST_QPN |
		      WREN_QP_ATTR_RQ_PSN;
	/* UC has no responder resources and no RNR (IBTA table 91). */
	if (!uc)
		m.attr_mask |= WREN_QP_ATTR_MAX_DEST_RD_ATOMIC |
			       WREN_QP_ATTR_MIN_RNR_TIMER;
	m.new_state = WREN_QPS_RTR;
	ro_fill_av(peer, &m.av, c->ipv6);
	m.av.sl = c->sl;
	m.av.traffic_class = c->tclass;
	m.path_mtu = c->mtu;
	m.dest_qpn = dest_qpn;
	m.rq_psn = rq;
	m.max_dest_rd_atomic = c->rd_atomic;
	m.min_rnr_timer = c->min_rnr;
	rc = ro_modify(n, &m);
	if (rc)
		return rc;
	memset(&m, 0, sizeof(m));
	m.qpn = qp->qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_SQ_PSN;
	if (!uc)
		m.attr_mask |= WREN_QP_ATTR_TIMEOUT | WREN_QP_ATTR_RETRY_CNT |
			       WREN_QP_ATTR_RNR_RETRY |
			       WREN_QP_ATTR_MAX_QP_RD_ATOMIC;
	m.new_state = WREN_QPS_RTS;
	m.timeout = c->timeout;
	m.retry_cnt = c->retry;
	m.rnr_retry = c->rnr_retry;
	m.sq_psn = sq;
	m.max_rd_atomic = c->rd_atomic;
	return ro_modify(n, &m);
}

int ro_ud_ready(struct ro_node *n, struct ro_qp *qp, uint32_t qkey)
{
	struct wren_modify_qp_in m;
	int rc;

	memset(&m, 0, sizeof(m));
	m.qpn = qp->qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_QKEY;
	m.new_state = WREN_QPS_INIT;
	m.qkey = qkey;
	rc = ro_modify(n, &m);
	if (rc)
		return rc;
	memset(&m, 0, sizeof(m));
	m.qpn = qp->qpn;
	m.attr_mask = WREN_QP_ATTR_STATE;
	m.new_state = WREN_QPS_RTR;
	rc = ro_modify(n, &m);
	if (rc)
		return rc;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_SQ_PSN;
	m.new_state = WREN_QPS_RTS;
	m.sq_psn = 0x42;
	return ro_modify(n, &m);
}

int64_t ro_mr_reg(struct ro_node *n, struct ro_mr *mr, uint32_t pd,
		  uint64_t iova, uint64_t len, uint32_t access, uint8_t shift,
		  bool scatter)
{
	uint64_t psz = 1ull << shift, mask = psz - 1;
	struct wren_create_mr_in in;
	struct wren_aq_write_mtt w;
	struct td_res r;

	memset(mr, 0, sizeof(*mr));
	mr->d = n->d;
	mr->iova = iova;
	mr->len = len;
	mr->shift = shift;
	mr->npages = (uint32_t)(((iova & mask) + len + mask) >> shift);
	mr->pages = calloc(mr->npages, sizeof(*mr->pages));
	for (uint32_t i = 0; i < mr->npages; i++) {
		uint32_t k = scatter ? mr->npages - 1 - i : i;

		/* Scattered: backwards with a hole between pages. */
		mr->pages[k] = td_alloc(n->d, psz, psz);
		if (scatter)
			td_alloc(n->d, psz, psz);
	}
	memset(&in, 0, sizeof(in));
	in.pdn = pd;
	in.access = access;
	in.iova = iova;
	in.length = len;
	in.num_mtt = mr->npages;
	in.page_shift = shift;
	in.key_tag = 0xa5;
	r = td_cmd(n->d, WREN_AQ_OP_CREATE_MR, NULL, 0, &in, sizeof(in),
		   NULL, 0);
	if (!r.completed || r.status)
		return -1;
	mr->idx = (uint32_t)r.result;
	mr->key = r.result2;
	for (uint32_t first = 0; first < mr->npages; first += 8192) {
		uint32_t cnt = mr->npages - first < 8192 ? mr->npages - first
							 : 8192;

		memset(&w, 0, sizeof(w));
		w.mr_index = mr->idx;
		w.first = first;
		w.count = cnt;
		r = td_cmd(n->d, WREN_AQ_OP_WRITE_MTT, &w, sizeof(w),
			   mr->pages + first, cnt * 8, NULL, 0);
		if (!r.completed || r.status)
			return -1;
	}
	r = td_handle_cmd(n->d, WREN_AQ_OP_ACTIVATE_MR, mr->idx, NULL, 0);
	return r.completed && !r.status ? (int64_t)mr->key : -1;
}

void ro_mr_free(struct ro_mr *mr)
{
	free(mr->pages);
	mr->pages = NULL;
}

static uint64_t mr_bus(const struct ro_mr *mr, uint64_t addr, uint64_t *room)
{
	uint64_t mask = (1ull << mr->shift) - 1;
	uint64_t off = (mr->iova & mask) + (addr - mr->iova);

	*room = mask + 1 - (off & mask);
	return mr->pages[off >> mr->shift] + (off & mask);
}

void ro_mr_write(struct ro_mr *mr, uint64_t addr, const void *b, size_t len)
{
	const uint8_t *p = b;

	while (len) {
		uint64_t room, bus = mr_bus(mr, addr, &room);
		size_t n = len < room ? len : (size_t)room;

		th_mem_write(mr->d->h, bus, p, n);
		p += n;
		addr += n;
		len -= n;
	}
}

void ro_mr_read(struct ro_mr *mr, uint64_t addr, void *b, size_t len)
{
	uint8_t *p = b;

	while (len) {
		uint64_t room, bus = mr_bus(mr, addr, &room);
		size_t n = len < room ? len : (size_t)room;

		th_mem_read(mr->d->h, bus, p, n);
		p += n;
		addr += n;
		len -= n;
	}
}

void ro_write_send(struct ro_qp *qp, const struct ro_wqe *w)
{
	uint8_t buf[1024];
	struct wren_wqe_ctrl *c = (void *)buf;
	uint32_t off = 16, ds = 0;
	uint64_t slot;

	memset(buf, 0, sizeof(buf));
	c->opcode = w->opcode;
	c->flags = w->flags;
	c->wqe_idx = (uint16_t)qp->sq_pi;
	c->imm_data = w->imm;
	c->xrc_srqn = w->xrc_srqn;
	if (wren_qpt_datagram(qp->type) && w->opcode != WREN_WQE_NOP) {
		struct wren_wqe_ud *u = (void *)(buf + off);

		u->ah = w->ah;
		u->dest_qpn = w->dqpn;
		u->qkey = w->qkey;
		off += 16;
	} else if (w->opcode >= WREN_WQE_RDMA_WRITE &&
		   w->opcode <= WREN_WQE_ATOMIC_FETCH_ADD) {
		struct wren_wqe_raddr *ra = (void *)(buf + off);

		ra->raddr = w->raddr;
		ra->rkey = w->rkey;
		off += 16;
		if (w->opcode >= WREN_WQE_ATOMIC_CMP_SWP) {
			struct wren_wqe_atomic *a = (void *)(buf + off);

			a->swap_add = w->swap;
			a->compare = w->cmp;
			off += 16;
		}
	}
	if (wren_wqe_is_iba15(w->opcode)) {
		struct wren_wqe_raddr *ra = (void *)(buf + off);

		ra->raddr = w->raddr;
		ra->rkey = w->rkey;
		off += 16;
		if (w->opcode == WREN_WQE_FLUSH)
			memcpy(buf + off, &w->flush, sizeof(w->flush));
		else
			memcpy(buf + off, w->aw, sizeof(w->aw));
		off += 16;
	}
	if (w->opcode == WREN_WQE_REG_MR) {
		memcpy(buf + off, &w->reg, sizeof(w->reg));
		off += sizeof(w->reg);
	}
	if (w->opcode == WREN_WQE_BIND_MW) {
		memcpy(buf + off, &w->bind, sizeof(w->bind));
		off += sizeof(w->bind);
	}
	if (w->flags & WREN_WQE_F_INLINE) {
		struct wren_wqe_inline *in = (void *)(buf + off);

		in->length = w->inl_len;
		if (w->inl_len <= sizeof(buf) - off - 16)
			memcpy(buf + off + 16, w->inl, w->inl_len);
		ds = 1 + (w->inl_len + 15) / 16;
	} else {
		for (unsigned int i = 0; i < w->nsge && off + 16 * (i + 1) <=
		     sizeof(buf); i++)
			memcpy(buf + off + 16 * i, &w->sge[i], 16);
		ds = w->nsge;
	}
	c->ds_count = (uint8_t)(w->ds_override ? w->ds_override : ds);
	slot = (uint64_t)(qp->sq_pi & ((1u << qp->sq_log) - 1)) << qp->sq_shift;
	th_mem_write(qp->d->h, qp->buf + slot, buf, 1u << qp->sq_shift);
	qp->sq_pi++;
}

void ro_ring(struct ro_qp *qp)
{
	th_db_write(qp->d->h, qp->uar, WREN_DB_SQ,
		    WREN_DB_VAL(qp->qpn, 0, qp->sq_pi));
}

void ro_post_send(struct ro_qp *qp, const struct ro_wqe *w)
{
	ro_write_send(qp, w);
	ro_ring(qp);
}

static void write_rqe(struct th *h, uint64_t at, uint32_t idx,
		      const struct wren_wqe_sge *sge, unsigned int n)
{
	uint8_t buf[512];
	struct wren_rqe *r = (void *)buf;

	memset(buf, 0, sizeof(buf));
	r->ds_count = (uint8_t)n;
	r->wqe_idx = (uint16_t)idx;
	for (unsigned int i = 0; i < n && i < 31; i++)
		memcpy(buf + 16 + 16 * i, &sge[i], 16);
	th_mem_write(h, at, buf, sizeof(buf));
}

void ro_post_recv(struct ro_qp *qp, const struct wren_wqe_sge *sge,
		  unsigned int n)
{
	uint64_t slot = (uint64_t)(qp->rq_pi & ((1u << qp->rq_log) - 1))
			<< qp->rq_shift;
	uint32_t pi;

	write_rqe(qp->d->h, qp->buf + qp->rq_off + slot, qp->rq_pi, sge, n);
	qp->rq_pi++;
	pi = qp->rq_pi;
	th_mem_write(qp->d->h, qp->dbrec, &pi, 4);
}

int64_t ro_srq_create(struct ro_node *n, struct ro_srq *s, uint32_t log,
		      uint32_t limit)
{
	struct wren_create_srq_in in;
	int64_t h;

	memset(s, 0, sizeof(*s));
	memset(&in, 0, sizeof(in));
	s->d = n->d;
	s->log = log;
	s->shift = 9;
	s->buf = td_alloc(n->d, 1ull << (log + 9), 4096);
	s->dbrec = td_alloc(n->d, 8, 8);
	in.pdn = n->pd;
	in.uar = 0;
	in.log_size = (uint8_t)log;
	in.wqe_shift = 9;
	in.limit = limit;
	in.buf.addr = s->buf;
	in.buf.page_shift = 12;
	in.dbrec_addr = s->dbrec;
	h = td_handle(td_cmd(n->d, WREN_AQ_OP_CREATE_SRQ, NULL, 0, &in,
			      sizeof(in), NULL, 0));
	s->srqn = (uint32_t)h;
	return h;
}

void ro_srq_post(struct ro_srq *s, const struct wren_wqe_sge *sge,
		 unsigned int n)
{
	uint64_t slot = (uint64_t)(s->pi & ((1u << s->log) - 1)) << s->shift;
	uint32_t pi;

	write_rqe(s->d->h, s->buf + slot, s->pi, sge, n);
	s->pi++;
	pi = s->pi;
	th_mem_write(s->d->h, s->dbrec, &pi, 4);
}

uint64_t ro_counter(struct ro_node *n, unsigned int which)
{
	return td_counter(n->d, WREN_COUNTERS_RDMA, 0, which);
}

uint8_t ro_qp_state(struct ro_node *n, uint32_t qpn)
{
	struct wren_query_qp_out o;

	memset(&o, 0, sizeof(o));
	td_handle_cmd(n->d, WREN_AQ_OP_QUERY_QP, qpn, &o, sizeof(o));
	return o.state;
}
