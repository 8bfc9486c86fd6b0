// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared receive queues, basic and XRC (WREN_CAP_RDMA_XRC: of an XRC
 * domain, with a CQ of their own; the same ring): create, modify (the
 * limit, and growing the ring with WREN_CAP_SRQ_RESIZE), query and
 * destroy.  The ring is the provider's, as a QP's is; posting and
 * completing its WQEs are post.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/wren/wren_regs.h>

#include "wren.h"
#include "wren_abi.h"

/*
 * The kernel's half of creating @srq, whose ring is ready: CREATE_SRQ, or
 * for an XRC SRQ CREATE_XSRQ with its domain and CQ; the driver data is
 * the same.  The responses' max_wr and max_sge land in @attr.
 */
static int wren_srq_cmd_create(struct ibv_context *ibctx, struct wren_srq *srq,
			       struct ibv_srq_init_attr_ex *attr)
{
	const struct wren_ib_create_srq drv = {
		.buf_addr = (uintptr_t)srq->buf.addr,
		.dbrec_addr = (uintptr_t)srq->dbrec,
		.wqe_shift = srq->wq.wqe_shift,
		.log_size = srq->wq.log_size,
	};
	int ret;

	if (srq->xrc_cq) {
		struct wren_create_xsrq_resp resp = {};
		struct wren_create_xsrq cmd = { .drv_payload = drv };

		ret = ibv_cmd_create_srq_ex(ibctx, &srq->verbs_srq, attr,
					    &cmd.ibv_cmd, sizeof(cmd),
					    &resp.ibv_resp, sizeof(resp));
		srq->srqn = resp.srqn;
	} else {
		struct wren_create_srq_resp resp = {};
		struct wren_create_srq cmd = { .drv_payload = drv };

		/* ibv_srq_init_attr is the start of the _ex one. */
		ret = ibv_cmd_create_srq(attr->pd, &srq->verbs_srq.srq,
					 (struct ibv_srq_init_attr *)attr,
					 &cmd.ibv_cmd, sizeof(cmd),
					 &resp.ibv_resp, sizeof(resp));
		srq->srqn = resp.srqn;
	}
	return ret;
}

/*
 * A basic SRQ, or with @xrc_cq an XRC SRQ (of attr->xrcd, completing to
 * that CQ): the same ring either way.  An XRC SRQ goes into the context's
 * SRQN table, where polling finds it from its CQEs.
 */
static struct ibv_srq *wren_srq_create(struct ibv_context *ibctx,
				       struct ibv_srq_init_attr_ex *attr,
				       struct wren_cq *xrc_cq)
{
	struct wren_context *ctx = to_wren_ctx(ibctx);
	struct wren_srq *srq;
	unsigned int shift;
	size_t ring_bytes;
	uint32_t want;
	int ret;

	if (attr->attr.max_sge > ctx->max_sge ||
	    attr->attr.max_wr > ctx->max_srq_wr ||
	    attr->attr.srq_limit > attr->attr.max_wr) {
		errno = EINVAL;
		return NULL;
	}
	shift = wren_rq_wqe_shift(attr->attr.max_sge ? attr->attr.max_sge : 1);
	if (shift > ctx->max_rq_wqe_shift) {
		errno = EINVAL;
		return NULL;
	}

	srq = calloc(1, sizeof(*srq));
	if (!srq) {
		errno = ENOMEM;
		return NULL;
	}
	want = wren_roundup_pow2(attr->attr.max_wr ? attr->attr.max_wr : 1);
	if (want < (1u << WREN_WQ_LOG_SIZE_MIN))
		want = 1u << WREN_WQ_LOG_SIZE_MIN;
	if (want > (1u << ctx->max_wq_log_size)) {
		ret = EINVAL;
		goto err_free;
	}
	srq->xrc_cq = xrc_cq;
	srq->wq.entries = want;
	srq->wq.log_size = wren_ilog2(want);
	srq->wq.wqe_shift = shift;
	srq->wq.max_sge = wren_rq_max_sge(shift);
	if (srq->wq.max_sge > ctx->max_sge)
		srq->wq.max_sge = ctx->max_sge;
	srq->wq.wrid = calloc(want, sizeof(*srq->wq.wrid));
	srq->busy = calloc(want, 1);
	srq->backlog = srq->wq;
	srq->backlog.wrid = calloc(want, sizeof(*srq->backlog.wrid));
	srq->backlog.ring = calloc(want, (size_t)1 << shift);
	ret = ENOMEM;
	if (!srq->wq.wrid || !srq->busy || !srq->backlog.wrid ||
	    !srq->backlog.ring)
		goto err_free;
	if (pthread_spin_init(&srq->wq.lock, PTHREAD_PROCESS_PRIVATE))
		goto err_free;

	ring_bytes = align((size_t)want << shift, ctx->page_size);
	srq->parent = wren_pd_hold(attr->pd);
	ret = wren_buf_alloc(&srq->buf, ring_bytes + sizeof(*srq->dbrec),
			     ctx->page_size, srq->parent, WREN_RES_TYPE_SRQ);
	if (ret)
		goto err_lock;
	srq->wq.ring = srq->buf.addr;
	srq->dbrec = (struct wren_srq_dbrec *)((uint8_t *)srq->buf.addr +
					       ring_bytes);

	attr->attr.max_wr = want;
	attr->attr.max_sge = srq->wq.max_sge;
	ret = wren_srq_cmd_create(ibctx, srq, attr);
	if (ret)
		goto err_buf;
	/* libibverbs sets these after create_srq, not after create_srq_ex. */
	srq->verbs_srq.srq.srq_context = attr->srq_context;
	srq->verbs_srq.srq.pd = attr->pd;
	if (xrc_cq) {
		ret = wren_store_srq(ctx, srq);
		if (ret)
			goto err_destroy;
	}
	return &srq->verbs_srq.srq;

err_destroy:
	ibv_cmd_destroy_srq(&srq->verbs_srq.srq);
err_buf:
	wren_buf_free(&srq->buf);
err_lock:
	wren_pd_release(srq->parent);
	pthread_spin_destroy(&srq->wq.lock);
err_free:
	free(srq->backlog.ring);
	free(srq->backlog.wrid);
	free(srq->busy);
	free(srq->wq.wrid);
	free(srq);
	errno = ret;
	return NULL;
}

struct ibv_srq *wren_create_srq(struct ibv_pd *pd,
				struct ibv_srq_init_attr *attr)
{
	struct ibv_srq_init_attr_ex attr_ex = {
		.srq_context = attr->srq_context,
		.attr = attr->attr,
		.comp_mask = IBV_SRQ_INIT_ATTR_PD,
		.pd = pd,
	};
	struct ibv_srq *srq;

	srq = wren_srq_create(pd->context, &attr_ex, NULL);
	if (srq)
		attr->attr = attr_ex.attr;
	return srq;
}

/*
 * ibv_create_srq_ex(): IBV_SRQT_BASIC is ibv_create_srq(); IBV_SRQT_XRC
 * (WREN_CAP_RDMA_XRC) needs a PD, a domain and a CQ of this context;
 * tag matching SRQs are not supported.
 */
struct ibv_srq *wren_create_srq_ex(struct ibv_context *ibctx,
				   struct ibv_srq_init_attr_ex *attr)
{
	struct wren_context *ctx = to_wren_ctx(ibctx);
	uint32_t mask = attr->comp_mask;
	enum ibv_srq_type type = mask & IBV_SRQ_INIT_ATTR_TYPE ?
				 attr->srq_type : IBV_SRQT_BASIC;
	struct wren_cq *xrc_cq = NULL;
	int ret = 0;

	if (!check_comp_mask(mask, IBV_SRQ_INIT_ATTR_TYPE |
				   IBV_SRQ_INIT_ATTR_PD |
				   IBV_SRQ_INIT_ATTR_XRCD |
				   IBV_SRQ_INIT_ATTR_CQ))
		ret = EOPNOTSUPP;
	else if (type == IBV_SRQT_XRC && !(ctx->caps & WREN_CAP_RDMA_XRC))
		ret = EOPNOTSUPP;
	else if (type != IBV_SRQT_BASIC && type != IBV_SRQT_XRC)
		ret = EOPNOTSUPP;
	else if (!(mask & IBV_SRQ_INIT_ATTR_PD) || !attr->pd)
		ret = EINVAL;
	else if (type == IBV_SRQT_XRC &&
		 (!(mask & IBV_SRQ_INIT_ATTR_XRCD) || !attr->xrcd ||
		  !(mask & IBV_SRQ_INIT_ATTR_CQ) || !attr->cq ||
		  attr->cq->context != ibctx))
		ret = EINVAL;
	if (ret) {
		errno = ret;
		return NULL;
	}
	if (type == IBV_SRQT_XRC)
		xrc_cq = to_wren_cq(attr->cq);
	return wren_srq_create(ibctx, attr, xrc_cq);
}

/*
 * Every WQE the provider holds - in the ring and not completed, or waiting
 * in the backlog - into its index's slot of a ring of @n entries, with its
 * wr_id and busy bit.  @n is at least twice the old size, so no two share
 * a slot: at most the old size of them are outstanding, the oldest no
 * further back than a ring's length before the producer index.
 */
static void wren_srq_move(struct wren_srq *srq, uint8_t *ring, uint64_t *wrid,
			  uint8_t *busy, uint32_t n)
{
	struct wren_wq *wq = &srq->wq;
	uint32_t omask = wq->entries - 1, nmask = n - 1;
	size_t stride = (size_t)1 << wq->wqe_shift;

	for (uint32_t p = wq->pi - wq->entries; p != srq->spi; p++) {
		uint32_t from = p & omask, to = p & nmask;

		if (p - wq->pi < srq->spi - wq->pi) {
			memcpy(ring + ((size_t)to << wq->wqe_shift),
			       srq->backlog.ring + ((size_t)from << wq->wqe_shift),
			       stride);
			wrid[to] = srq->backlog.wrid[from];
		} else if (srq->busy[from]) {
			memcpy(ring + ((size_t)to << wq->wqe_shift),
			       wq->ring + ((size_t)from << wq->wqe_shift), stride);
			wrid[to] = wq->wrid[from];
		} else {
			continue;
		}
		busy[to] = 1;
	}
}

/* What a grown SRQ is made of, allocated before the SRQ's lock is taken. */
struct wren_srq_new {
	struct wren_buf buf;
	struct wren_srq_dbrec *dbrec;
	uint64_t *wrid, *bwrid;
	uint8_t *busy, *bring;
	uint32_t n;
};

static void wren_srq_new_free(struct wren_srq_new *g)
{
	free(g->bring);
	free(g->bwrid);
	free(g->busy);
	free(g->wrid);
	wren_buf_free(&g->buf);
}

static int wren_srq_new_alloc(struct wren_srq *srq, struct wren_srq_new *g)
{
	struct wren_context *ctx = to_wren_ctx(srq->verbs_srq.srq.context);
	unsigned int shift = srq->wq.wqe_shift;
	size_t ring_bytes = align((size_t)g->n << shift, ctx->page_size);
	int ret;

	/* The application's allocator, if any, runs outside the lock. */
	ret = wren_buf_alloc(&g->buf, ring_bytes + sizeof(*g->dbrec),
			     ctx->page_size, srq->parent, WREN_RES_TYPE_SRQ);
	if (ret)
		return ret;
	g->dbrec = (struct wren_srq_dbrec *)((uint8_t *)g->buf.addr + ring_bytes);
	g->wrid = calloc(g->n, sizeof(*g->wrid));
	g->busy = calloc(g->n, 1);
	g->bwrid = calloc(g->n, sizeof(*g->bwrid));
	g->bring = calloc(g->n, (size_t)1 << shift);
	if (!g->wrid || !g->busy || !g->bwrid || !g->bring) {
		wren_srq_new_free(g);
		return ENOMEM;
	}
	return 0;
}

/*
 * IBV_SRQ_MAX_WR beyond the ring: the new ring and record get what the
 * provider holds, the backlog included, and go to the kernel (RESIZE_SRQ:
 * the NIC takes WQE i from slot i mod n from then on).  Called under the
 * SRQ's lock, so that no post or completion moves anything meanwhile; on
 * failure nothing changed and @g is the caller's to free.
 */
static int wren_srq_grow(struct wren_srq *srq, struct ibv_srq_attr *attr,
			 int mask, struct wren_srq_new *g)
{
	struct wren_modify_srq cmd = {};
	int ret;

	wren_srq_move(srq, g->buf.addr, g->wrid, g->busy, g->n);
	g->dbrec->pi = htole32(srq->spi);

	cmd.buf_addr = (uintptr_t)g->buf.addr;
	cmd.dbrec_addr = (uintptr_t)g->dbrec;
	cmd.log_size = wren_ilog2(g->n);
	ret = ibv_cmd_modify_srq(&srq->verbs_srq.srq, attr, mask, &cmd.ibv_cmd,
				 sizeof(cmd));
	if (ret)
		return ret;

	wren_buf_free(&srq->buf);
	free(srq->wq.wrid);
	free(srq->busy);
	free(srq->backlog.wrid);
	free(srq->backlog.ring);
	srq->buf = g->buf;
	srq->dbrec = g->dbrec;
	srq->busy = g->busy;
	srq->wq.ring = g->buf.addr;
	srq->wq.wrid = g->wrid;
	srq->wq.entries = g->n;
	srq->wq.log_size = cmd.log_size;
	/* The backlog all went into the ring. */
	srq->wq.pi = srq->spi;
	srq->backlog.ring = g->bring;
	srq->backlog.wrid = g->bwrid;
	srq->backlog.entries = g->n;
	srq->backlog.log_size = cmd.log_size;
	return 0;
}

int wren_modify_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr, int mask)
{
	struct wren_context *ctx = to_wren_ctx(ibsrq->context);
	struct wren_srq *srq = to_wren_srq(ibsrq);
	struct wren_srq_new g = {};
	struct ibv_modify_srq cmd;
	int ret;

	if (mask & IBV_SRQ_MAX_WR) {
		if (!(ctx->caps & WREN_CAP_SRQ_RESIZE))
			return EOPNOTSUPP;
		if (!attr->max_wr || attr->max_wr > ctx->max_srq_wr)
			return EINVAL;
		g.n = wren_roundup_pow2(attr->max_wr);
		if (g.n > (1u << ctx->max_wq_log_size))
			return EINVAL;
	}
	if (g.n) {
		/* A first look, to allocate only for a growth. */
		pthread_spin_lock(&srq->wq.lock);
		if (g.n <= srq->wq.entries)
			g.n = 0;
		pthread_spin_unlock(&srq->wq.lock);
	}
	if (g.n) {
		bool grow;

		ret = wren_srq_new_alloc(srq, &g);
		if (ret)
			return ret;
		/* The second decides: another thread may have grown it. */
		pthread_spin_lock(&srq->wq.lock);
		grow = g.n > srq->wq.entries;
		ret = grow ? wren_srq_grow(srq, attr, mask, &g) : 0;
		pthread_spin_unlock(&srq->wq.lock);
		if (!grow || ret)
			wren_srq_new_free(&g);
		if (grow)
			return ret;
	}
	/* The ring holds that many already: nothing moves. */
	return ibv_cmd_modify_srq(ibsrq, attr, mask, &cmd, sizeof(cmd));
}

int wren_query_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr)
{
	struct wren_srq *srq = to_wren_srq(ibsrq);
	struct ibv_query_srq cmd;
	int ret;

	ret = ibv_cmd_query_srq(ibsrq, attr, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	attr->max_wr = srq->wq.entries;
	attr->max_sge = srq->wq.max_sge;
	return 0;
}

/* The SRQ's number, which XRC initiators name in their WQEs. */
int wren_get_srq_num(struct ibv_srq *ibsrq, uint32_t *srq_num)
{
	if (!(to_wren_ctx(ibsrq->context)->caps & WREN_CAP_RDMA_XRC))
		return EOPNOTSUPP;
	*srq_num = to_wren_srq(ibsrq)->srqn;
	return 0;
}

int wren_destroy_srq(struct ibv_srq *ibsrq)
{
	struct wren_srq *srq = to_wren_srq(ibsrq);
	int ret;

	ret = ibv_cmd_destroy_srq(ibsrq);
	if (ret)
		return ret;
	if (srq->xrc_cq) {
		/*
		 * Receives of it still queued belong to no QP of ours: drop
		 * them, or an SRQ made later with its number would get them.
		 */
		wren_cq_clean_xrc_srq(srq->xrc_cq, srq->srqn);
		wren_clear_srq(to_wren_ctx(ibsrq->context), srq->srqn);
	}
	wren_buf_free(&srq->buf);
	wren_pd_release(srq->parent);
	pthread_spin_destroy(&srq->wq.lock);
	free(srq->backlog.ring);
	free(srq->backlog.wrid);
	free(srq->busy);
	free(srq->wq.wrid);
	free(srq);
	return 0;
}
