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
	fh->by_qpn = NULL;
	fh->nqpn = 0;
}

static int track(struct ro_flow_host *fh, uint32_t qpn, struct ro_flow *f)
{
	if (qpn >= fh->nqpn) {
		uint32_t n = qpn + 1 > 2 * fh->nqpn ? qpn + 1 : 2 * fh->nqpn;
		struct ro_flow **t = realloc(fh->by_qpn, n * sizeof(*t));

		if (!t)
			return -1;
		memset(t + fh->nqpn, 0, (n - fh->nqpn) * sizeof(*t));
		fh->by_qpn = t;
		fh->nqpn = n;
	}
	fh->by_qpn[qpn] = f;
	return 0;
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

	return ro_qp_create(fh->n, qp, &o) < 0 ? -1 : 0;
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

/* Both ends are done: its QPs go, its end is the later of the two. */
static void finish(struct ro_flow *f, uint64_t now)
{
	f->done = true;
	f->end_ns = now;
	f->src->by_qpn[f->sqp.qpn] = NULL;
	f->dst->by_qpn[f->dqp.qpn] = NULL;
	td_handle_cmd(f->src->n->d, WREN_AQ_OP_DESTROY_QP, f->sqp.qpn, NULL, 0);
	td_handle_cmd(f->dst->n->d, WREN_AQ_OP_DESTROY_QP, f->dqp.qpn, NULL, 0);
	f->src->active--;
	if (f->done_cb)
		f->done_cb(f);	/* last: it may free @f */
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
		struct ro_flow *f = c.qpn < fh->nqpn ? fh->by_qpn[c.qpn] : NULL;

		if (!f)
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
