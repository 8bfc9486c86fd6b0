// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RC flows between NICs of the host stub (flow.h): a QP pair a flow,
 * WQEs over a stateless data buffer, completion read from one CQ a node.
 */
#include <stdlib.h>
#include <string.h>

#include "flow.h"

/* SQ and RQ slots of a flow's QPs: a flow has few WQEs in flight. */
#define FLOW_SQ_LOG	4
#define FLOW_RQ_LOG	4

int ro_flow_host_init(struct ro_flow_host *fh, struct ro_node *n,
		      uint32_t cq_log, const struct ro_conn *conn)
{
	struct ro_mr *mr = &fh->mr;

	memset(fh, 0, sizeof(*fh));
	fh->n = n;
	fh->conn = *conn;
	if (ro_cq_create(n, &fh->cq, cq_log, n->uar) < 0)
		return -1;
	if (ro_mr_reg(n, mr, n->pd, 0, RO_FLOW_BUF_BYTES,
		      WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE,
		      RO_FLOW_BUF_SHIFT, false) < 0)
		return -1;
	/* The driver's heap handed out the pages in order: one range. */
	return th_mem_stateless(n->d->h, mr->pages[0],
				(uint64_t)mr->npages << RO_FLOW_BUF_SHIFT);
}

void ro_flow_host_fini(struct ro_flow_host *fh)
{
	ro_mr_free(&fh->mr);
	free(fh->by_qpn);
	free(fh->free_buf);
	fh->by_qpn = NULL;
	fh->free_buf = NULL;
	fh->slots = 0;
	fh->used = 0;
	fh->nfree = 0;
}

/* A flow QP's rings and its doorbell record after them, in one block. */
#define FLOW_QP_BYTES	((1u << (FLOW_SQ_LOG + 9)) + (1u << (FLOW_RQ_LOG + 9)))
#define FLOW_QP_BLOCK	(FLOW_QP_BYTES + 4096u)

static void give_back(struct ro_flow_host *fh, const struct ro_qp *qp)
{
	if (fh->nfree == fh->free_cap) {
		uint32_t cap = fh->free_cap ? 2 * fh->free_cap : 64;
		uint64_t *t = realloc(fh->free_buf, cap * sizeof(*t));

		if (!t)
			return;	/* the memory stays unused: no harm */
		fh->free_buf = t;
		fh->free_cap = cap;
	}
	fh->free_buf[fh->nfree++] = qp->buf;
}

static struct ro_flow_slot *slot_of(const struct ro_flow_host *fh,
				    uint32_t qpn, bool insert)
{
	uint32_t i = (qpn * 2654435761u) & (fh->slots - 1);
	struct ro_flow_slot *del = NULL;

	for (;; i = (i + 1) & (fh->slots - 1)) {
		struct ro_flow_slot *s = &fh->by_qpn[i];

		if (!s->qpn)
			return insert && del ? del : insert ? s : NULL;
		if (s->qpn == qpn + 1 && s->f)
			return s;
		if (!s->f && !del)
			del = s;
	}
}

/* Rebuilds the table at twice the live flows' room, deleted slots gone. */
static int rehash(struct ro_flow_host *fh)
{
	struct ro_flow_slot *old = fh->by_qpn;
	uint32_t n = 64, old_n = fh->slots, live = 0;

	for (uint32_t i = 0; i < old_n; i++)
		live += old[i].f != NULL;
	while (n < 4 * (live + 1))
		n *= 2;
	fh->by_qpn = calloc(n, sizeof(*fh->by_qpn));
	if (!fh->by_qpn) {
		fh->by_qpn = old;
		return -1;
	}
	fh->slots = n;
	fh->used = 0;
	for (uint32_t i = 0; i < old_n; i++) {
		if (old[i].f) {
			*slot_of(fh, old[i].qpn - 1, true) = old[i];
			fh->used++;
		}
	}
	free(old);
	return 0;
}

static int track(struct ro_flow_host *fh, uint32_t qpn, struct ro_flow *f)
{
	struct ro_flow_slot *s;

	if (2 * (fh->used + 1) > fh->slots && rehash(fh))
		return -1;
	s = slot_of(fh, qpn, true);
	fh->used += !s->qpn;
	s->qpn = qpn + 1;
	s->f = f;
	return 0;
}

static void untrack(struct ro_flow_host *fh, uint32_t qpn)
{
	struct ro_flow_slot *s = slot_of(fh, qpn, false);

	if (s)
		s->f = NULL;	/* deleted: the slot stays used until a rehash */
}

static struct ro_flow *flow_of(const struct ro_flow_host *fh, uint32_t qpn)
{
	struct ro_flow_slot *s = fh->slots ? slot_of(fh, qpn, false) : NULL;

	return s ? s->f : NULL;
}

static int make_qp(struct ro_flow_host *fh, struct ro_qp *qp)
{
	struct ro_qp_opts o = {
		.type = WREN_QPT_RC,
		.uar = fh->n->uar,
		.scq = fh->cq.cqn,
		.rcq = fh->cq.cqn,
		.sq_log = FLOW_SQ_LOG,
		.rq_log = FLOW_RQ_LOG,
	};
	uint64_t zero = 0;

	/* Reused or new, one block: rings, then the doorbell record. */
	o.buf = fh->nfree ? fh->free_buf[--fh->nfree] :
			    td_alloc(fh->n->d, FLOW_QP_BLOCK, 4096);
	o.dbrec = o.buf + FLOW_QP_BYTES;
	th_mem_write(fh->n->d->h, o.dbrec, &zero, sizeof(zero));
	if (ro_qp_create(fh->n, qp, &o) < 0) {
		give_back(fh, qp);
		return -1;
	}
	return 0;
}

static uint32_t sq_room(const struct ro_flow *f)
{
	return (1u << FLOW_SQ_LOG) - (f->wqes - f->done_wqes);
}

/* Posts the flow's next WQEs while its SQ (and for SEND its RQ) has room. */
static void post_more(struct ro_flow *f)
{
	bool rung = false;

	while (f->posted < f->bytes && sq_room(f)) {
		uint64_t left = f->bytes - f->posted;
		uint32_t len = left > RO_FLOW_MAX_WQE ? RO_FLOW_MAX_WQE :
			       (uint32_t)left;
		struct ro_wqe w;

		memset(&w, 0, sizeof(w));
		w.flags = WREN_WQE_F_SIGNALED;
		w.nsge = 1;
		w.sge[0] = ro_mr_sge(&f->src->mr, 0, len);
		if (f->op == RO_FLOW_WRITE) {
			w.opcode = WREN_WQE_RDMA_WRITE;
			w.raddr = f->dst->mr.iova;
			w.rkey = f->dst->mr.key;
		} else {
			struct wren_wqe_sge rs = ro_mr_sge(&f->dst->mr, 0, len);

			w.opcode = WREN_WQE_SEND;
			ro_post_recv(&f->dqp, &rs, 1);
		}
		ro_write_send(&f->sqp, &w);
		f->posted += len;
		f->wqes++;
		rung = true;
	}
	if (rung)
		ro_ring(&f->sqp);
}

int ro_flow_start(struct ro_flow *f, struct ro_flow_host *src,
		  struct ro_flow_host *dst, enum ro_flow_op op,
		  uint64_t bytes, uint8_t prio)
{
	struct ro_conn c = src->conn;

	memset(f, 0, sizeof(*f));
	f->src = src;
	f->dst = dst;
	f->op = op;
	f->prio = prio & 7;
	f->bytes = bytes;
	f->start_ns = src->n->d->h->now_ns;
	if (!bytes || make_qp(src, &f->sqp) || make_qp(dst, &f->dqp))
		return -1;
	if (track(src, f->sqp.qpn, f) || track(dst, f->dqp.qpn, f))
		return -1;
	/* The responder takes WRITEs (SENDs need no right). */
	c.access |= WREN_ACCESS_REMOTE_WRITE;
	c.sl = f->prio;
	c.tclass = (uint8_t)(f->prio * 8 << 2);
	if (ro_connect_to(src->n, &f->sqp, dst->n, f->dqp.qpn, 0, 0, &c) ||
	    ro_connect_to(dst->n, &f->dqp, src->n, f->sqp.qpn, 0, 0, &c))
		return -1;
	src->active++;
	post_more(f);
	return 0;
}

/* The rings are free for another flow once the device has let go. */
static void destroy_qp(struct ro_flow_host *fh, const struct ro_qp *qp)
{
	struct td_res r = td_handle_cmd(fh->n->d, WREN_AQ_OP_DESTROY_QP,
					qp->qpn, NULL, 0);

	if (r.completed && !r.status)
		give_back(fh, qp);
}

/* Both ends are done: its QPs go, its end is the later of the two. */
static void finish(struct ro_flow *f, uint64_t now)
{
	f->done = true;
	f->end_ns = now;
	f->src->active--;
	if (f->src->defer_release) {
		if (f->done_cb)
			f->done_cb(f);
		return;
	}
	untrack(f->src, f->sqp.qpn);
	untrack(f->dst, f->dqp.qpn);
	destroy_qp(f->src, &f->sqp);
	destroy_qp(f->dst, &f->dqp);
	if (f->done_cb)
		f->done_cb(f);	/* last: it may free @f */
}

void ro_flow_release(struct ro_flow *f)
{
	untrack(f->src, f->sqp.qpn);
	untrack(f->dst, f->dqp.qpn);
	destroy_qp(f->src, &f->sqp);
	destroy_qp(f->dst, &f->dqp);
	if (!f->done)
		f->src->active--;
	f->done = true;
}

static bool all_sent(const struct ro_flow *f)
{
	return f->posted == f->bytes && f->done_wqes == f->wqes;
}

unsigned int ro_flow_poll(struct ro_flow_host *fh)
{
	uint64_t now = fh->n->d->h->now_ns;
	unsigned int ended = 0;
	struct wren_cqe c;

	while (ro_cq_poll(&fh->cq, &c)) {
		struct ro_flow *f = flow_of(fh, c.qpn);

		if (!f || f->done)
			continue;	/* a flow that ended already */
		if (c.status && !f->status)
			f->status = c.status;
		if (f->src == fh && c.qpn == f->sqp.qpn) {
			f->done_wqes++;
			post_more(f);
		} else {
			f->recvs++;
		}
		if ((all_sent(f) &&
		     (f->op == RO_FLOW_WRITE || f->recvs == f->wqes)) ||
		    f->status) {
			finish(f, now);
			ended++;
		}
	}
	return ended;
}
