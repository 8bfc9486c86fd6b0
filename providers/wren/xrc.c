// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC (WREN_CAP_RDMA_XRC; without it every XRC verb is EOPNOTSUPP):
 * domains, and the XRC target QPs of a domain, made here or opened by
 * number (ibv_open_qp, another process's).  A target QP is an RC
 * responder alone and has no rings, doorbell record, PD or CQs: to the
 * provider it is a handle for modify, query and destroy (qp.c), never in
 * the QP table - its receives complete on its SRQs' CQs, named by SRQ
 * (cq.c).  XRC SRQs are srq.c's, the initiator's WQEs post.c's.
 */
#include <errno.h>
#include <stdlib.h>

#include <linux/wren/wren_regs.h>

#include "wren.h"

static bool wren_xrc_supported(struct ibv_context *ibctx)
{
	return to_wren_ctx(ibctx)->caps & WREN_CAP_RDMA_XRC;
}

/* A zeroed object of @size for an XRC verb, or NULL with errno set. */
static void *wren_xrc_obj(struct ibv_context *ibctx, size_t size)
{
	void *obj;

	if (!wren_xrc_supported(ibctx)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	obj = calloc(1, size);
	if (!obj)
		errno = ENOMEM;
	return obj;
}

/* Domains are ib_core's objects with no driver data either way. */
struct ibv_xrcd *wren_open_xrcd(struct ibv_context *ibctx,
				struct ibv_xrcd_init_attr *attr)
{
	struct ib_uverbs_open_xrcd_resp resp = {};
	struct ibv_open_xrcd cmd = {};
	struct verbs_xrcd *xrcd;
	int ret;

	xrcd = wren_xrc_obj(ibctx, sizeof(*xrcd));
	if (!xrcd)
		return NULL;
	ret = ibv_cmd_open_xrcd(ibctx, xrcd, sizeof(*xrcd), attr, &cmd,
				sizeof(cmd), &resp, sizeof(resp));
	if (ret) {
		free(xrcd);
		errno = ret;
		return NULL;
	}
	return &xrcd->xrcd;
}

int wren_close_xrcd(struct ibv_xrcd *ibxrcd)
{
	struct verbs_xrcd *xrcd = container_of(ibxrcd, struct verbs_xrcd, xrcd);
	int ret;

	ret = ibv_cmd_close_xrcd(xrcd);
	if (ret)
		return ret;
	free(xrcd);
	return 0;
}

/*
 * ibv_create_qp_ex() of IBV_QPT_XRC_RECV: a domain, nothing else.  uverbs
 * hands the driver no udata for it, so none is sent; no capabilities
 * either (the QP has no queues, and reports none).
 */
struct ibv_qp *wren_create_xrc_recv_qp(struct ibv_context *ibctx,
				       struct ibv_qp_init_attr_ex *attr)
{
	struct ib_uverbs_create_qp_resp resp = {};
	uint32_t mask = attr->comp_mask;
	struct ibv_create_qp cmd = {};
	struct wren_qp *qp;
	int ret;

	if (!wren_xrc_supported(ibctx)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (!check_comp_mask(mask, IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_XRCD |
				   IBV_QP_INIT_ATTR_CREATE_FLAGS |
				   IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) ||
	    ((mask & IBV_QP_INIT_ATTR_CREATE_FLAGS) && attr->create_flags) ||
	    ((mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) &&
	     attr->send_ops_flags)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (!(mask & IBV_QP_INIT_ATTR_XRCD) || !attr->xrcd) {
		errno = EINVAL;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp) {
		errno = ENOMEM;
		return NULL;
	}
	attr->cap = (struct ibv_qp_cap){};
	ret = ibv_cmd_create_qp_ex(ibctx, &qp->verbs_qp, attr,
				   &cmd, sizeof(cmd), &resp, sizeof(resp));
	if (ret) {
		free(qp);
		errno = ret;
		return NULL;
	}
	attr->cap = (struct ibv_qp_cap){};
	qp->qpn = qp->verbs_qp.qp.qp_num;
	qp->xrc_recv = true;
	return &qp->verbs_qp.qp;
}

/*
 * ibv_open_qp(): a target QP of the domain by its number, typically made
 * by another process; the same handle as one made here.
 */
struct ibv_qp *wren_open_qp(struct ibv_context *ibctx,
			    struct ibv_qp_open_attr *attr)
{
	struct ib_uverbs_create_qp_resp resp = {};
	struct ibv_open_qp cmd = {};
	struct wren_qp *qp;
	int ret;

	qp = wren_xrc_obj(ibctx, sizeof(*qp));
	if (!qp)
		return NULL;
	if ((attr->comp_mask & IBV_QP_OPEN_ATTR_TYPE) &&
	    attr->qp_type != IBV_QPT_XRC_RECV) {
		free(qp);
		errno = EINVAL;
		return NULL;
	}
	ret = ibv_cmd_open_qp(ibctx, &qp->verbs_qp, sizeof(qp->verbs_qp), attr,
			      &cmd, sizeof(cmd), &resp, sizeof(resp));
	if (ret) {
		free(qp);
		errno = ret;
		return NULL;
	}
	qp->qpn = qp->verbs_qp.qp.qp_num;
	qp->xrc_recv = true;
	return &qp->verbs_qp.qp;
}
