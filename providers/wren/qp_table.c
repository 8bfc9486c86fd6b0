// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The context's tables that CQ polling reads without a lock: QPN -> QP,
 * and SRQN -> XRC SRQ (an XRC receive's CQE names its SRQ, not a QP of
 * this process).  Two levels of WREN_TABLE_SIZE, the second allocated
 * while any object of its range exists, changed only under the table's
 * mutex.
 */
#include <errno.h>
#include <stdlib.h>

#include "wren.h"

void wren_table_init(struct wren_table *t)
{
	pthread_mutex_init(&t->mutex, NULL);
}

void wren_table_fini(struct wren_table *t)
{
	pthread_mutex_destroy(&t->mutex);
}

static void *wren_table_find(struct wren_table *t, uint32_t n)
{
	uint32_t top = (n >> WREN_TABLE_SHIFT) & WREN_TABLE_MASK;

	if (!t->dir[top].refcnt)
		return NULL;
	return t->dir[top].table[n & WREN_TABLE_MASK];
}

static int wren_table_store(struct wren_table *t, uint32_t n, void *obj)
{
	uint32_t top = (n >> WREN_TABLE_SHIFT) & WREN_TABLE_MASK;
	int ret = 0;

	pthread_mutex_lock(&t->mutex);
	if (!t->dir[top].refcnt) {
		t->dir[top].table = calloc(WREN_TABLE_SIZE, sizeof(void *));
		if (!t->dir[top].table) {
			ret = ENOMEM;
			goto out;
		}
	}
	t->dir[top].refcnt++;
	t->dir[top].table[n & WREN_TABLE_MASK] = obj;
out:
	pthread_mutex_unlock(&t->mutex);
	return ret;
}

static void wren_table_clear(struct wren_table *t, uint32_t n)
{
	uint32_t top = (n >> WREN_TABLE_SHIFT) & WREN_TABLE_MASK;

	pthread_mutex_lock(&t->mutex);
	if (!--t->dir[top].refcnt)
		free(t->dir[top].table);
	else
		t->dir[top].table[n & WREN_TABLE_MASK] = NULL;
	pthread_mutex_unlock(&t->mutex);
}

struct wren_qp *wren_find_qp(struct wren_context *ctx, uint32_t qpn)
{
	return wren_table_find(&ctx->qp_table, qpn);
}

int wren_store_qp(struct wren_context *ctx, struct wren_qp *qp)
{
	return wren_table_store(&ctx->qp_table, qp->qpn, qp);
}

void wren_clear_qp(struct wren_context *ctx, uint32_t qpn)
{
	wren_table_clear(&ctx->qp_table, qpn);
}

struct wren_srq *wren_find_srq(struct wren_context *ctx, uint32_t srqn)
{
	return wren_table_find(&ctx->srq_table, srqn);
}

int wren_store_srq(struct wren_context *ctx, struct wren_srq *srq)
{
	return wren_table_store(&ctx->srq_table, srq->srqn, srq);
}

void wren_clear_srq(struct wren_context *ctx, uint32_t srqn)
{
	wren_table_clear(&ctx->srq_table, srqn);
}
