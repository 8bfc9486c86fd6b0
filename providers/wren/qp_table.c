// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The context's QPN -> QP table, which CQ polling reads without a lock:
 * two levels of WREN_QP_TABLE_SIZE, the second allocated while any QP of
 * its range exists, changed only under qp_table_mutex.
 */
#include <errno.h>
#include <stdlib.h>

#include "wren.h"

struct wren_qp *wren_find_qp(struct wren_context *ctx, uint32_t qpn)
{
	uint32_t top = (qpn >> WREN_QP_TABLE_SHIFT) & WREN_QP_TABLE_MASK;

	if (!ctx->qp_table[top].refcnt)
		return NULL;
	return ctx->qp_table[top].table[qpn & WREN_QP_TABLE_MASK];
}

int wren_store_qp(struct wren_context *ctx, struct wren_qp *qp)
{
	uint32_t top = (qp->qpn >> WREN_QP_TABLE_SHIFT) & WREN_QP_TABLE_MASK;
	int ret = 0;

	pthread_mutex_lock(&ctx->qp_table_mutex);
	if (!ctx->qp_table[top].refcnt) {
		ctx->qp_table[top].table =
			calloc(WREN_QP_TABLE_SIZE, sizeof(struct wren_qp *));
		if (!ctx->qp_table[top].table) {
			ret = ENOMEM;
			goto out;
		}
	}
	ctx->qp_table[top].refcnt++;
	ctx->qp_table[top].table[qp->qpn & WREN_QP_TABLE_MASK] = qp;
out:
	pthread_mutex_unlock(&ctx->qp_table_mutex);
	return ret;
}

void wren_clear_qp(struct wren_context *ctx, uint32_t qpn)
{
	uint32_t top = (qpn >> WREN_QP_TABLE_SHIFT) & WREN_QP_TABLE_MASK;

	pthread_mutex_lock(&ctx->qp_table_mutex);
	if (!--ctx->qp_table[top].refcnt)
		free(ctx->qp_table[top].table);
	else
		ctx->qp_table[top].table[qpn & WREN_QP_TABLE_MASK] = NULL;
	pthread_mutex_unlock(&ctx->qp_table_mutex);
}
