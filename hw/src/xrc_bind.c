// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC target QPs (wren_admin.h "XRC") have no SRQ, PD or CQ of their own.
 * For each request, and for the response or flush that comes of one, the
 * QP is bound to the XRC SRQ the request named and takes that SRQ's PD
 * and CQ, so that the responder's memory checks and receive completions
 * work as for any QP with an SRQ.  A binding lasts one call of the
 * engine, never across calls: the SRQ may be destroyed between packets,
 * so a QP keeps only its number and generation, and finds it again.
 */
#include "roce.h"
#include "whw_device.h"
#include "whw_objects.h"
#include "whw_table.h"

struct whw_srq *whw_xrc_srq(struct wrenhw *hw, const struct whw_qp *qp,
			    uint32_t srqn, const uint32_t *gen)
{
	struct whw_srq *srq = gen ? whw_table_get_gen(&hw->srqs, srqn, *gen) :
				    whw_table_get(&hw->srqs, srqn);

	/* An SRQ of the target's own domain: never another domain's. */
	if (!srq || !srq->xrcd || srq->xrcd != qp->xrcd)
		return NULL;
	return srq;
}

void whw_xrc_bind(struct whw_qp *qp, struct whw_srq *srq)
{
	qp->srq = srq;
	qp->pd = srq->pd;
	qp->recv_cq = srq->cq;
}

void whw_xrc_unbind(struct whw_qp *qp)
{
	qp->srq = NULL;
	qp->pd = NULL;
	qp->recv_cq = NULL;
}
