// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue pairs: sizing the send and receive rings, creating, modifying,
 * querying and destroying QPs (RC, UD, UC and the XRC initiator, which
 * has an SQ only; the ringless XRC target is made in xrc.c and goes
 * through modify, query and destroy here).  The rings live in one buffer,
 * the SQ at offset 0 and the RQ after it, followed by the QP's doorbell
 * record; the kernel pins it and gives the NIC its bus addresses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ccan/minmax.h>
#include <linux/wren/wren_regs.h>

#include "wren.h"
#include "wren_abi.h"

static int wren_wq_init(struct wren_wq *wq, uint32_t min_entries,
			unsigned int wqe_shift, unsigned int max_log_size)
{
	wq->entries = wren_roundup_pow2(min_entries ? min_entries : 1);
	if (wq->entries < (1u << WREN_WQ_LOG_SIZE_MIN))
		wq->entries = 1u << WREN_WQ_LOG_SIZE_MIN;
	if (wq->entries > (1u << max_log_size))
		return EINVAL;
	wq->log_size = wren_ilog2(wq->entries);
	wq->wqe_shift = wqe_shift;
	wq->wrid = calloc(wq->entries, sizeof(*wq->wrid));
	if (!wq->wrid)
		return ENOMEM;
	if (pthread_spin_init(&wq->lock, PTHREAD_PROCESS_PRIVATE)) {
		free(wq->wrid);
		return ENOMEM;
	}
	return 0;
}

static void wren_wq_fini(struct wren_wq *wq)
{
	if (!wq->wrid)
		return;
	pthread_spin_destroy(&wq->lock);
	free(wq->wrid);
	wq->wrid = NULL;
}

static size_t wren_wq_bytes(const struct wren_wq *wq)
{
	return wq->wrid ? (size_t)wq->entries << wq->wqe_shift : 0;
}

/* An RQ of its own: not on an SRQ, and not an XRC initiator (no receives). */
static bool wren_qp_has_rq(const struct ibv_qp_init_attr_ex *attr)
{
	return !attr->srq && attr->qp_type != IBV_QPT_XRC_SEND;
}

/* The ibv_wr_* opcodes a QP of @type may have (send_ops_flags). */
static uint64_t wren_qp_send_ops(const struct wren_context *ctx,
				 enum ibv_qp_type type)
{
	uint64_t ops = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM;
	bool rc = type == IBV_QPT_RC || type == IBV_QPT_XRC_SEND;

	/* UC: SENDs, RDMA WRITEs, local invalidation, binds. */
	if (type == IBV_QPT_UC)
		ops |= IBV_QP_EX_WITH_RDMA_WRITE |
		       IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
		       IBV_QP_EX_WITH_LOCAL_INV;
	/* An XRC initiator is an RC requester. */
	if (rc)
		ops |= IBV_QP_EX_WITH_RDMA_WRITE |
		       IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
		       IBV_QP_EX_WITH_RDMA_READ |
		       IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
		       IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |
		       IBV_QP_EX_WITH_SEND_WITH_INV |
		       IBV_QP_EX_WITH_LOCAL_INV;
	/*
	 * IBA 1.5's FLUSH and ATOMIC WRITE: RC, where the NIC has them, not
	 * XRC (IBA 1.5 gives them RC opcodes only; the device refuses them).
	 */
	if (type == IBV_QPT_RC && (ctx->caps & WREN_CAP_RDMA_FLUSH))
		ops |= IBV_QP_EX_WITH_FLUSH;
	if (type == IBV_QPT_RC && (ctx->caps & WREN_CAP_RDMA_ATOMIC_WRITE))
		ops |= IBV_QP_EX_WITH_ATOMIC_WRITE;
	/*
	 * Windows are bound on RC and UC QPs, where the NIC has them; the
	 * device refuses an XRC initiator's BIND_MW.
	 */
	if ((type == IBV_QPT_RC || type == IBV_QPT_UC) &&
	    (ctx->caps & WREN_CAP_RDMA_MW))
		ops |= IBV_QP_EX_WITH_BIND_MW;
	return ops;
}

/*
 * What a QP with rings may be made of: RC, UD, UC (WREN_CAP_RDMA_UC), and
 * the XRC initiator (WREN_CAP_RDMA_XRC: a send queue and a send CQ, no
 * receive side).  The XRC target, ringless, is xrc.c's.
 */
static int wren_qp_check(struct wren_context *ctx,
			 const struct ibv_qp_init_attr_ex *attr)
{
	const struct ibv_qp_cap *cap = &attr->cap;
	bool xrc = attr->qp_type == IBV_QPT_XRC_SEND;
	uint32_t mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS |
			IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;

	/* A domain means nothing to these types; libibverbs records it. */
	if (ctx->caps & WREN_CAP_RDMA_XRC)
		mask |= IBV_QP_INIT_ATTR_XRCD;
	if (!check_comp_mask(attr->comp_mask, mask))
		return EOPNOTSUPP;
	/* No creation flags are supported; naming none is fine. */
	if ((attr->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS) &&
	    attr->create_flags)
		return EOPNOTSUPP;
	if (!(attr->comp_mask & IBV_QP_INIT_ATTR_PD) || !attr->pd)
		return EINVAL;
	if (attr->qp_type != IBV_QPT_RC && attr->qp_type != IBV_QPT_UD &&
	    (attr->qp_type != IBV_QPT_UC || !(ctx->caps & WREN_CAP_RDMA_UC)) &&
	    (!xrc || !(ctx->caps & WREN_CAP_RDMA_XRC)))
		return EOPNOTSUPP;
	if (!attr->send_cq)
		return EINVAL;
	/* An XRC initiator receives nothing; the others need somewhere to. */
	if (xrc ? attr->srq != NULL : !attr->recv_cq && !attr->srq)
		return EINVAL;
	if (cap->max_send_sge > ctx->max_sge ||
	    cap->max_inline_data > ctx->max_inline ||
	    cap->max_send_wr > ctx->max_qp_wr)
		return EINVAL;
	if (!xrc && (cap->max_recv_sge > ctx->max_sge ||
		     cap->max_recv_wr > ctx->max_qp_wr))
		return EINVAL;
	if ((attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) &&
	    (attr->send_ops_flags & ~wren_qp_send_ops(ctx, attr->qp_type)))
		return EOPNOTSUPP;
	return 0;
}

/* Ring geometry from the requested capabilities, within the device's. */
static int wren_qp_size(struct wren_context *ctx, struct wren_qp *qp,
			struct ibv_qp_init_attr_ex *attr)
{
	struct ibv_qp_cap *cap = &attr->cap;
	unsigned int shift;
	int ret;

	shift = wren_sq_wqe_shift(cap->max_send_sge ? cap->max_send_sge : 1,
				  cap->max_inline_data);
	if (shift > ctx->max_sq_wqe_shift)
		return EINVAL;
	ret = wren_wq_init(&qp->sq, cap->max_send_wr, shift,
			   ctx->max_wq_log_size);
	if (ret)
		return ret;
	qp->sq.max_sge = wren_sq_max_sge(shift);
	if (qp->sq.max_sge > ctx->max_sge)
		qp->sq.max_sge = ctx->max_sge;
	qp->max_inline = wren_sq_max_inline(shift);
	if (qp->max_inline > ctx->max_inline)
		qp->max_inline = ctx->max_inline;

	if (wren_qp_has_rq(attr)) {
		shift = wren_rq_wqe_shift(cap->max_recv_sge ? cap->max_recv_sge : 1);
		if (shift > ctx->max_rq_wqe_shift)
			return EINVAL;
		ret = wren_wq_init(&qp->rq, cap->max_recv_wr, shift,
				   ctx->max_wq_log_size);
		if (ret)
			return ret;
		qp->rq.max_sge = wren_rq_max_sge(shift);
		if (qp->rq.max_sge > ctx->max_sge)
			qp->rq.max_sge = ctx->max_sge;
	}
	return 0;
}

static struct ibv_qp *wren_qp_create(struct ibv_context *ibctx,
				     struct ibv_qp_init_attr_ex *attr)
{
	struct wren_context *ctx = to_wren_ctx(ibctx);
	struct wren_create_qp_resp resp = {};
	struct wren_create_qp cmd = {};
	size_t sq_bytes, rq_off, rq_bytes, ring_bytes;
	uint32_t comp_mask;
	struct wren_qp *qp;
	int ret;

	if (attr->qp_type == IBV_QPT_XRC_RECV)
		return wren_create_xrc_recv_qp(ibctx, attr);
	ret = wren_qp_check(ctx, attr);
	if (ret) {
		errno = ret;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp) {
		errno = ENOMEM;
		return NULL;
	}
	ret = wren_qp_size(ctx, qp, attr);
	if (ret)
		goto err_wq;
	qp->parent = wren_pd_hold(attr->pd);
	if (qp->parent && qp->parent->td)
		qp->sq.lockless = qp->rq.lockless = true;

	/* SQ at 0, the RQ right after it at its own stride, the doorbell
	 * record after the rings: a small QP is one page, pinned once and
	 * described without a page list (ctlpath: 3 pages and two pins a
	 * QP before).
	 */
	sq_bytes = wren_wq_bytes(&qp->sq);
	rq_bytes = wren_wq_bytes(&qp->rq);
	rq_off = 0;
	if (rq_bytes)
		rq_off = align(sq_bytes, (size_t)1 << qp->rq.wqe_shift);
	ring_bytes = align(rq_bytes ? rq_off + rq_bytes : sq_bytes,
			   sizeof(*qp->dbrec));
	ret = wren_buf_alloc(&qp->buf, ring_bytes + sizeof(*qp->dbrec),
			     ctx->page_size, qp->parent, WREN_RES_TYPE_QP);
	if (ret)
		goto err_wq;
	qp->sq.ring = qp->buf.addr;
	if (rq_bytes)
		qp->rq.ring = (uint8_t *)qp->buf.addr + rq_off;
	qp->dbrec = (struct wren_qp_dbrec *)((uint8_t *)qp->buf.addr +
					     ring_bytes);

	cmd.buf_addr = (uintptr_t)qp->buf.addr;
	cmd.dbrec_addr = (uintptr_t)qp->dbrec;
	cmd.sq_wqe_shift = qp->sq.wqe_shift;
	cmd.sq_log_size = qp->sq.log_size;
	if (rq_bytes) {
		cmd.rq_wqe_shift = qp->rq.wqe_shift;
		cmd.rq_log_size = qp->rq.log_size;
		cmd.rq_offset = rq_off;
	}

	/* What the QP can hold, as verbs reports it back to the caller. */
	attr->cap.max_send_wr = qp->sq.entries;
	attr->cap.max_send_sge = qp->sq.max_sge;
	attr->cap.max_inline_data = qp->max_inline;
	attr->cap.max_recv_wr = rq_bytes ? qp->rq.entries : 0;
	attr->cap.max_recv_sge = rq_bytes ? qp->rq.max_sge : 0;

	/*
	 * The create_flags wren_qp_check() let through are none, and the
	 * command (the non-extended one) refuses the mask bit: leave it out.
	 */
	comp_mask = attr->comp_mask;
	attr->comp_mask &= ~IBV_QP_INIT_ATTR_CREATE_FLAGS;
	ret = ibv_cmd_create_qp_ex(ibctx, &qp->verbs_qp, attr,
				   &cmd.ibv_cmd, sizeof(cmd),
				   &resp.ibv_resp, sizeof(resp));
	attr->comp_mask = comp_mask;
	if (ret)
		goto err_buf;

	qp->qpn = qp->verbs_qp.qp.qp_num;
	/* The device may accept more inline data than the stride holds. */
	if (resp.max_inline < qp->max_inline)
		qp->max_inline = resp.max_inline;
	attr->cap.max_send_wr = qp->sq.entries;
	attr->cap.max_send_sge = qp->sq.max_sge;
	attr->cap.max_inline_data = qp->max_inline;
	attr->cap.max_recv_wr = rq_bytes ? qp->rq.entries : 0;
	attr->cap.max_recv_sge = rq_bytes ? qp->rq.max_sge : 0;
	qp->sq_sig_all = attr->sq_sig_all;
	qp->ud = attr->qp_type == IBV_QPT_UD;
	qp->uc = attr->qp_type == IBV_QPT_UC;
	qp->xrc_send = attr->qp_type == IBV_QPT_XRC_SEND;
	qp->srq = attr->srq ? to_wren_srq(attr->srq) : NULL;
	ret = wren_store_qp(ctx, qp);
	if (ret)
		goto err_destroy;
	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) {
		wren_qp_fill_wr_ops(qp, attr);
		qp->verbs_qp.comp_mask |= VERBS_QP_EX;
	}
	return &qp->verbs_qp.qp;

err_destroy:
	ibv_cmd_destroy_qp(&qp->verbs_qp.qp);
err_buf:
	wren_buf_free(&qp->buf);
err_wq:
	wren_pd_release(qp->parent);
	wren_wq_fini(&qp->sq);
	wren_wq_fini(&qp->rq);
	free(qp);
	errno = ret;
	return NULL;
}

struct ibv_qp *wren_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	struct ibv_qp_init_attr_ex attr_ex = {};
	struct ibv_qp *qp;

	memcpy(&attr_ex, attr, sizeof(*attr));
	attr_ex.comp_mask = IBV_QP_INIT_ATTR_PD;
	attr_ex.pd = pd;
	qp = wren_qp_create(pd->context, &attr_ex);
	if (qp)
		memcpy(attr, &attr_ex, sizeof(*attr));
	return qp;
}

struct ibv_qp *wren_create_qp_ex(struct ibv_context *ibctx,
				 struct ibv_qp_init_attr_ex *attr)
{
	return wren_qp_create(ibctx, attr);
}

/*
 * Forget the completions still queued for @qp.  An XRC initiator has no
 * receive CQ, whatever the caller named at creation.
 */
static void wren_qp_clean_cqs(struct wren_qp *qp)
{
	struct ibv_qp *ibqp = &qp->verbs_qp.qp;

	wren_cq_clean(to_wren_cq(ibqp->send_cq), qp->qpn, qp->srq);
	if (!qp->xrc_send && ibqp->recv_cq && ibqp->recv_cq != ibqp->send_cq)
		wren_cq_clean(to_wren_cq(ibqp->recv_cq), qp->qpn, qp->srq);
}

/*
 * A QP back in RESET has empty rings on the NIC: start the provider's
 * indexes over and forget completions still queued for it.
 */
static void wren_qp_reset(struct wren_qp *qp)
{
	wren_qp_clean_cqs(qp);

	wren_wq_lock(&qp->sq);
	qp->sq.pi = qp->sq.tail = 0;
	memset(qp->sq.ring, 0, wren_wq_bytes(&qp->sq));
	wren_wq_unlock(&qp->sq);
	if (qp->rq.wrid) {
		wren_wq_lock(&qp->rq);
		qp->rq.pi = qp->rq.tail = 0;
		qp->dbrec->rq_pi = 0;
		wren_wq_unlock(&qp->rq);
	}
}

int wren_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int mask)
{
	struct ibv_modify_qp cmd = {};
	int ret;

	ret = ibv_cmd_modify_qp(ibqp, attr, mask, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	/* An XRC target has no rings and completes to its SRQs' CQs. */
	if ((mask & IBV_QP_STATE) && attr->qp_state == IBV_QPS_RESET &&
	    !to_wren_qp(ibqp)->xrc_recv)
		wren_qp_reset(to_wren_qp(ibqp));
	return 0;
}

int wren_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int mask,
		  struct ibv_qp_init_attr *init_attr)
{
	struct wren_qp *qp = to_wren_qp(ibqp);
	struct ibv_query_qp cmd = {};
	int ret;

	ret = ibv_cmd_query_qp(ibqp, attr, mask, init_attr, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	/* The provider, not the kernel, knows the ring geometry it chose. */
	attr->cap.max_send_wr = qp->sq.entries;
	attr->cap.max_send_sge = qp->sq.max_sge;
	attr->cap.max_inline_data = qp->max_inline;
	attr->cap.max_recv_wr = qp->rq.wrid ? qp->rq.entries : 0;
	attr->cap.max_recv_sge = qp->rq.wrid ? qp->rq.max_sge : 0;
	init_attr->cap = attr->cap;
	return 0;
}

int wren_destroy_qp(struct ibv_qp *ibqp)
{
	struct wren_context *ctx = to_wren_ctx(ibqp->context);
	struct wren_qp *qp = to_wren_qp(ibqp);
	int ret;

	ret = ibv_cmd_destroy_qp(ibqp);
	if (ret)
		return ret;
	/*
	 * An XRC target is a handle: no rings, nothing in our QP table, and
	 * its receives, queued on its SRQs' CQs, are the SRQs'.
	 */
	if (qp->xrc_recv) {
		free(qp);
		return 0;
	}
	/* The NIC writes no more CQEs for it: drop those still queued. */
	wren_qp_clean_cqs(qp);
	wren_clear_qp(ctx, qp->qpn);
	wren_buf_free(&qp->buf);
	wren_pd_release(qp->parent);
	wren_wq_fini(&qp->sq);
	wren_wq_fini(&qp->rq);
	free(qp);
	return 0;
}
