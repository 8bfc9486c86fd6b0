// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue pairs: CREATE_QP, MODIFY_QP (the IB state machine with the
 * required and optional attributes of every transition, as ib_core's
 * ib_modify_qp_is_ok() table has them), QUERY_QP and DESTROY_QP.  An XRC
 * initiator is an RC QP without a receive side; an XRC target has no
 * queues at all, only a domain (wren_admin.h "XRC").
 */
#include <stdlib.h>
#include <string.h>

#include "../core/whw_ring.h"
#include "../core/whw_table.h"
#include "../roce/whw_roce_api.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_err.h"
#include "../whw_objects.h"
#include "whw_cmd.h"
#include "whw_handlers.h"
#include "whw_mcast.h"

#define SYND_CQP(f)	WHW_SYND_IN(struct wren_create_qp_in, f)
#define SYND_MQP(f)	WHW_SYND_IN(struct wren_modify_qp_in, f)
#define QPN_GSI		1u
#define QP_FLAGS	(WREN_QP_F_SQ_SIG_ALL | WREN_QP_F_USE_SRQ)
#define MAX_RQ_OFFSET	(1u << 30)

static struct whw_err check_sizes(const struct wren_create_qp_in *in,
				  bool use_srq)
{
	if (in->sq_wqe_shift < WREN_WQE_SHIFT_MIN ||
	    in->sq_wqe_shift > WHW_MAX_SQ_WQE_SHIFT)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CQP(sq_wqe_shift));
	if (in->sq_log_size < 1 || in->sq_log_size > WHW_MAX_QP_LOG_SIZE)
		return WHW_ERR(WREN_AQ_STATUS_BAD_SIZE, SYND_CQP(sq_log_size));
	if (use_srq || !in->rq_log_size) {
		/* No receive queue of its own. */
		if (in->rq_log_size)
			return WHW_ERR(WREN_AQ_STATUS_BAD_SIZE,
				       SYND_CQP(rq_log_size));
		if (in->rq_wqe_shift)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_CQP(rq_wqe_shift));
		if (in->rq_offset)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_CQP(rq_offset));
		return WHW_OK;
	}
	if (in->rq_log_size > WHW_MAX_QP_LOG_SIZE)
		return WHW_ERR(WREN_AQ_STATUS_BAD_SIZE, SYND_CQP(rq_log_size));
	if (in->rq_wqe_shift < WREN_WQE_SHIFT_MIN ||
	    in->rq_wqe_shift > WHW_MAX_RQ_WQE_SHIFT)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CQP(rq_wqe_shift));
	return WHW_OK;
}

/* A QP context with the RoCE engine's state beside it, or NULL. */
static struct whw_qp *qp_new(struct wrenhw *hw)
{
	struct whw_qp *qp = calloc(1, sizeof(*qp));

	if (qp && whw_roce_qp_init(hw, qp)) {
		free(qp);
		qp = NULL;
	}
	return qp;
}

/*
 * An XRC target: only its type and domain, and the RoCE engine's state;
 * its SRQ, PD and CQ are named by each request (roce_rq.c).
 */
static struct whw_err create_xrc_tgt(struct wrenhw *hw, struct whw_cmd *c,
				     const struct wren_create_qp_in *in)
{
	struct whw_xrcd *xrcd;
	struct whw_err err;
	struct whw_qp *qp;

	/* Everything but the type and the domain is zero. */
	err = whw_check_rsvd_in(c, offsetof(struct wren_create_qp_in, flags),
				offsetof(struct wren_create_qp_in, xrcdn) -
				offsetof(struct wren_create_qp_in, flags));
	if (err.status)
		return err;
	xrcd = whw_table_get(&hw->xrcds, whw_le32(in->xrcdn));
	if (!xrcd)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_CQP(xrcdn));
	qp = qp_new(hw);
	if (!qp)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	if (whw_table_alloc(&hw->qps, &qp->hdr) < 0) {
		whw_roce_qp_fini(hw, qp);
		free(qp);
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	}
	qp->type = WREN_QPT_XRC_TGT;
	qp->state = WREN_QPS_RESET;
	qp->xrcd = xrcd;
	whw_ref(&xrcd->hdr);
	c->result = qp->hdr.id;
	return WHW_OK;
}

static bool qp_type_xrc(uint8_t type)
{
	return type == WREN_QPT_XRC_INI || type == WREN_QPT_XRC_TGT;
}

static bool qp_type_known(uint8_t type)
{
	return type == WREN_QPT_RC || type == WREN_QPT_UD ||
	       type == WREN_QPT_GSI || type == WREN_QPT_UC || qp_type_xrc(type);
}

struct whw_err whw_cmd_create_qp(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_create_qp_in *in = (const void *)c->in;
	bool use_srq = in->flags & WREN_QP_F_USE_SRQ;
	uint64_t dbrec = whw_le64(in->dbrec_addr);
	uint32_t rq_offset = whw_le32(in->rq_offset);
	uint16_t max_inline = whw_le16(in->max_inline);
	uint64_t sq_bytes, rq_bytes = 0, total;
	struct whw_srq *srq = NULL;
	struct whw_cq *scq, *rcq = NULL;
	struct whw_uar *uar;
	struct whw_pd *pd;
	struct whw_err err;
	struct whw_qp *qp;

	err = whw_check_rsvd_in(c, offsetof(struct wren_create_qp_in, rsvd),
				sizeof(in->rsvd));
	if (err.status)
		return err;
	if (!qp_type_known(in->type))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CQP(type));
	if (qp_type_xrc(in->type) && !(hw->caps & WREN_CAP_RDMA_XRC))
		return WHW_ERR(WREN_AQ_STATUS_NOT_SUPPORTED, SYND_CQP(type));
	if (in->type == WREN_QPT_XRC_TGT)
		return create_xrc_tgt(hw, c, in);
	if (in->xrcdn)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CQP(xrcdn));
	/* An XRC initiator has no receive side at all. */
	if (in->type == WREN_QPT_XRC_INI &&
	    (use_srq || in->rq_log_size || in->recv_cqn))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       use_srq ? SYND_CQP(flags) : in->rq_log_size ?
			       SYND_CQP(rq_log_size) : SYND_CQP(recv_cqn));
	if (in->flags & ~QP_FLAGS)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CQP(flags));
	err = check_sizes(in, use_srq);
	if (err.status)
		return err;
	/* Inline data shares the WQE with the control and one fixed segment. */
	if (max_inline > WHW_MAX_INLINE ||
	    max_inline > wren_sq_max_inline(in->sq_wqe_shift))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CQP(max_inline));
	pd = whw_table_get(&hw->pds, whw_le32(in->pdn));
	if (!pd)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_CQP(pdn));
	scq = whw_table_get(&hw->cqs, whw_le32(in->send_cqn));
	if (!scq)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_CQP(send_cqn));
	if (in->type != WREN_QPT_XRC_INI) {
		rcq = whw_table_get(&hw->cqs, whw_le32(in->recv_cqn));
		if (!rcq)
			return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE,
				       SYND_CQP(recv_cqn));
	}
	if (use_srq) {
		srq = whw_table_get(&hw->srqs, whw_le32(in->srqn));
		if (!srq)
			return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE,
				       SYND_CQP(srqn));
		/* An XRC SRQ serves its domain's target QPs alone. */
		if (srq->xrcd)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_CQP(srqn));
	} else if (in->srqn) {
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CQP(srqn));
	}
	uar = whw_lookup_uar(hw, whw_le32(in->uar));
	if (!uar)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_CQP(uar));
	/* No context may make the device feed another context's queues. */
	if (scq->uar != uar)
		return WHW_ERR(WREN_AQ_STATUS_PERM, SYND_CQP(send_cqn));
	if (rcq && rcq->uar != uar)
		return WHW_ERR(WREN_AQ_STATUS_PERM, SYND_CQP(recv_cqn));
	if (srq && srq->uar != uar)
		return WHW_ERR(WREN_AQ_STATUS_PERM, SYND_CQP(srqn));
	if (!dbrec || (dbrec & 7))
		return WHW_ERR(WREN_AQ_STATUS_BAD_ADDR, SYND_CQP(dbrec_addr));
	sq_bytes = 1ull << (in->sq_log_size + in->sq_wqe_shift);
	total = sq_bytes;
	if (in->rq_log_size) {
		rq_bytes = 1ull << (in->rq_log_size + in->rq_wqe_shift);
		if (rq_offset < sq_bytes || rq_offset > MAX_RQ_OFFSET ||
		    (rq_offset & ((1u << in->rq_wqe_shift) - 1)))
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_CQP(rq_offset));
		total = rq_offset + rq_bytes;
	}
	if (in->type == WREN_QPT_GSI && whw_table_get(&hw->qps, QPN_GSI))
		return WHW_ERR(WREN_AQ_STATUS_EXISTS, SYND_CQP(type));

	qp = qp_new(hw);
	if (!qp)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	err = whw_ring_load(hw, &qp->buf, &in->buf, total, SYND_CQP(buf));
	if (!err.status && whw_ring_overlaps_live(hw, &qp->buf, NULL))
		err = WHW_ERR(WREN_AQ_STATUS_BAD_ADDR, SYND_CQP(buf.addr));
	if (!err.status) {
		bool ok = in->type == WREN_QPT_GSI ?
			  whw_table_insert_at(&hw->qps, QPN_GSI, &qp->hdr) :
			  whw_table_alloc(&hw->qps, &qp->hdr) >= 0;

		if (!ok)
			err = WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	}
	if (err.status) {
		whw_roce_qp_fini(hw, qp);
		whw_ring_free(hw, &qp->buf);
		free(qp);
		return err;
	}
	qp->type = in->type;
	qp->flags = in->flags;
	qp->state = WREN_QPS_RESET;
	qp->sq_wqe_shift = in->sq_wqe_shift;
	qp->rq_wqe_shift = in->rq_wqe_shift;
	qp->sq_log_size = in->sq_log_size;
	qp->rq_log_size = in->rq_log_size;
	qp->max_inline = max_inline;
	qp->rq_offset = rq_offset;
	qp->dbrec_addr = dbrec;
	qp->pd = pd;
	qp->send_cq = scq;
	qp->recv_cq = rcq;
	qp->srq = srq;
	qp->uar = uar;
	whw_ref(&pd->hdr);
	whw_ref(&scq->hdr);
	whw_ref(rcq ? &rcq->hdr : NULL);
	whw_ref(srq ? &srq->hdr : NULL);
	whw_ref(&uar->hdr);
	c->result = qp->hdr.id;
	return WHW_OK;
}

void whw_qp_free(struct wrenhw *hw, struct whw_qp *qp)
{
	whw_mw_unbind_qp(hw, qp->hdr.id);
	whw_mcast_detach_qp(hw, qp->hdr.id);
	whw_roce_qp_fini(hw, qp);
	/* A target's srq, pd and recv_cq are only ever bound for a request. */
	if (qp->type == WREN_QPT_XRC_TGT) {
		whw_unref(&qp->xrcd->hdr);
	} else {
		whw_unref(&qp->pd->hdr);
		whw_unref(&qp->send_cq->hdr);
		whw_unref(qp->recv_cq ? &qp->recv_cq->hdr : NULL);
		whw_unref(qp->srq ? &qp->srq->hdr : NULL);
		whw_unref(&qp->uar->hdr);
	}
	whw_table_remove(&hw->qps, qp->hdr.id);
	whw_ring_free(hw, &qp->buf);
	free(qp);
}

struct whw_err whw_cmd_destroy_qp(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_err err;
	struct whw_qp *qp = whw_cmd_handle_obj(c, &hw->qps, &err);

	if (!qp)
		return err;
	whw_roce_qp_destroying(hw, qp);
	whw_qp_free(hw, qp);
	return WHW_OK;
}

/* ------------------------------------------------------- state machine */

#define A_CUR		WREN_QP_ATTR_CUR_STATE
#define A_ACCESS	WREN_QP_ATTR_ACCESS_FLAGS
#define A_QKEY		WREN_QP_ATTR_QKEY
#define A_AV		WREN_QP_ATTR_AV
#define A_MTU		WREN_QP_ATTR_PATH_MTU
#define A_TIMEOUT	WREN_QP_ATTR_TIMEOUT
#define A_RETRY		WREN_QP_ATTR_RETRY_CNT
#define A_RNR_RETRY	WREN_QP_ATTR_RNR_RETRY
#define A_RQ_PSN	WREN_QP_ATTR_RQ_PSN
#define A_MAX_RD	WREN_QP_ATTR_MAX_QP_RD_ATOMIC
#define A_MIN_RNR	WREN_QP_ATTR_MIN_RNR_TIMER
#define A_SQ_PSN	WREN_QP_ATTR_SQ_PSN
#define A_MAX_DEST	WREN_QP_ATTR_MAX_DEST_RD_ATOMIC
#define A_DEST_QPN	WREN_QP_ATTR_DEST_QPN
#define A_DRAIN		WREN_QP_ATTR_SQ_DRAIN_NOTIFY
#define A_KNOWN		(WREN_QP_ATTR_STATE | A_CUR | A_ACCESS | A_QKEY | \
			 A_AV | A_MTU | A_TIMEOUT | A_RETRY | A_RNR_RETRY | \
			 A_RQ_PSN | A_MAX_RD | A_MIN_RNR | A_SQ_PSN | \
			 A_MAX_DEST | A_DEST_QPN | A_DRAIN)

#define NSTATES		(WREN_QPS_ERR + 1)

struct qp_transition {
	bool valid;
	uint32_t req[3];	/* enum qp_kind */
	uint32_t opt[3];
};

/* Which attributes a transition takes depends on the transport. */
enum qp_kind {
	KIND_RC,
	KIND_DATAGRAM,		/* UD and GSI */
	KIND_UC,
};

#define T_VALID		{ .valid = true }

static const struct qp_transition qp_table[NSTATES][NSTATES] = {
	[WREN_QPS_RESET] = {
		[WREN_QPS_RESET] = T_VALID,
		[WREN_QPS_INIT] = { true, { A_ACCESS, A_QKEY, A_ACCESS },
			{ 0, 0, 0 } },
	},
	[WREN_QPS_INIT] = {
		[WREN_QPS_RESET] = T_VALID,
		[WREN_QPS_ERR] = T_VALID,
		[WREN_QPS_INIT] = { true, { 0, 0, 0 },
			{ A_ACCESS, A_QKEY, A_ACCESS } },
		[WREN_QPS_RTR] = { true,
			{ A_AV | A_MTU | A_DEST_QPN | A_RQ_PSN | A_MAX_DEST |
			  A_MIN_RNR, 0, A_AV | A_MTU | A_DEST_QPN | A_RQ_PSN },
			{ A_ACCESS, A_QKEY, A_ACCESS } },
	},
	[WREN_QPS_RTR] = {
		[WREN_QPS_RESET] = T_VALID,
		[WREN_QPS_ERR] = T_VALID,
		[WREN_QPS_RTS] = { true,
			{ A_TIMEOUT | A_RETRY | A_RNR_RETRY | A_SQ_PSN |
			  A_MAX_RD, A_SQ_PSN, A_SQ_PSN },
			{ A_CUR | A_ACCESS | A_MIN_RNR, A_CUR | A_QKEY,
			  A_CUR | A_ACCESS } },
	},
	[WREN_QPS_RTS] = {
		[WREN_QPS_RESET] = T_VALID,
		[WREN_QPS_ERR] = T_VALID,
		[WREN_QPS_RTS] = { true, { 0, 0, 0 },
			{ A_CUR | A_ACCESS | A_MIN_RNR, A_CUR | A_QKEY,
			  A_CUR | A_ACCESS } },
		[WREN_QPS_SQD] = { true, { 0, 0, 0 },
			{ A_DRAIN, A_DRAIN, A_DRAIN } },
	},
	[WREN_QPS_SQD] = {
		[WREN_QPS_RESET] = T_VALID,
		[WREN_QPS_ERR] = T_VALID,
		[WREN_QPS_RTS] = { true, { 0, 0, 0 },
			{ A_CUR | A_ACCESS | A_MIN_RNR, A_CUR | A_QKEY,
			  A_CUR | A_ACCESS } },
		[WREN_QPS_SQD] = { true, { 0, 0, 0 },
			{ A_AV | A_TIMEOUT | A_RETRY | A_RNR_RETRY | A_MAX_RD |
			  A_MAX_DEST | A_ACCESS | A_MIN_RNR, A_QKEY,
			  A_AV | A_ACCESS } },
	},
	[WREN_QPS_SQE] = {
		[WREN_QPS_RESET] = T_VALID,
		[WREN_QPS_ERR] = T_VALID,
		[WREN_QPS_RTS] = { true, { 0, 0, 0 },
			{ 0, A_CUR | A_QKEY, A_CUR | A_ACCESS } },
	},
	[WREN_QPS_ERR] = {
		[WREN_QPS_RESET] = T_VALID,
		[WREN_QPS_ERR] = T_VALID,
	},
};

/* A QP's rights: the remote ones, and FLUSH's where the device has it. */
static uint32_t qp_access_known(const struct wrenhw *hw)
{
	uint32_t known = WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE |
			 WREN_ACCESS_REMOTE_READ | WREN_ACCESS_REMOTE_ATOMIC;

	if (hw->caps & WREN_CAP_RDMA_FLUSH)
		known |= WREN_ACCESS_FLUSH_GLOBAL |
			 WREN_ACCESS_FLUSH_PERSISTENT;
	return known;
}

static struct whw_err check_values(struct wrenhw *hw,
				   const struct wren_modify_qp_in *in,
				   uint32_t mask)
{
	if ((mask & A_ACCESS) &&
	    (whw_le16(in->access_flags) & ~qp_access_known(hw)))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(access_flags));
	if ((mask & A_MTU) &&
	    (in->path_mtu < WREN_MTU_256 || in->path_mtu > WREN_MTU_4096))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(path_mtu));
	if ((mask & A_TIMEOUT) && in->timeout > 31)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(timeout));
	if ((mask & A_RETRY) && in->retry_cnt > 7)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(retry_cnt));
	if ((mask & A_RNR_RETRY) && in->rnr_retry > 7)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(rnr_retry));
	if ((mask & A_MIN_RNR) && in->min_rnr_timer > 31)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_MQP(min_rnr_timer));
	if ((mask & A_MAX_RD) && in->max_rd_atomic > WHW_MAX_RD_ATOM)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_MQP(max_rd_atomic));
	if ((mask & A_MAX_DEST) && in->max_dest_rd_atomic > WHW_MAX_RD_ATOM)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_MQP(max_dest_rd_atomic));
	if ((mask & A_SQ_PSN) && whw_le32(in->sq_psn) > WREN_PSN_MASK)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(sq_psn));
	if ((mask & A_RQ_PSN) && whw_le32(in->rq_psn) > WREN_PSN_MASK)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(rq_psn));
	if ((mask & A_DEST_QPN) && whw_le32(in->dest_qpn) > WREN_QPN_MASK)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(dest_qpn));
	if (mask & A_AV)
		return whw_check_av(hw, &in->av, SYND_MQP(av));
	return WHW_OK;
}

static void apply_attrs(struct whw_qp *qp, const struct wren_modify_qp_in *in,
			uint32_t mask)
{
	struct whw_qp_attrs *a = &qp->attr;

	if (mask & A_ACCESS)
		a->access_flags = whw_le16(in->access_flags);
	if (mask & A_QKEY)
		a->qkey = whw_le32(in->qkey);
	if (mask & A_AV)
		a->av = in->av;
	if (mask & A_MTU)
		a->path_mtu = in->path_mtu;
	if (mask & A_TIMEOUT)
		a->timeout = in->timeout;
	if (mask & A_RETRY)
		a->retry_cnt = in->retry_cnt;
	if (mask & A_RNR_RETRY)
		a->rnr_retry = in->rnr_retry;
	if (mask & A_RQ_PSN)
		a->rq_psn = whw_le32(in->rq_psn);
	if (mask & A_MAX_RD)
		a->max_rd_atomic = in->max_rd_atomic;
	if (mask & A_MIN_RNR)
		a->min_rnr_timer = in->min_rnr_timer;
	if (mask & A_SQ_PSN)
		a->sq_psn = whw_le32(in->sq_psn);
	if (mask & A_MAX_DEST)
		a->max_dest_rd_atomic = in->max_dest_rd_atomic;
	if (mask & A_DEST_QPN)
		a->dest_qpn = whw_le32(in->dest_qpn);
}

/*
 * XRC's QPs take RC's attributes, less those of the half they lack (as
 * ib_core's table): an initiator needs no responder resources or RNR
 * timer for RTR, a target no retry counts or initiator depth for RTS.
 * Those are still taken where given.
 */
static void xrc_relax(uint8_t type, uint8_t cur, uint8_t next,
		      uint32_t *req, uint32_t *opt)
{
	uint32_t relax = 0;

	if (type == WREN_QPT_XRC_INI && cur == WREN_QPS_INIT &&
	    next == WREN_QPS_RTR)
		relax = A_MAX_DEST | A_MIN_RNR;
	else if (type == WREN_QPT_XRC_TGT && cur == WREN_QPS_RTR &&
		 next == WREN_QPS_RTS)
		relax = A_RETRY | A_RNR_RETRY | A_MAX_RD;
	*req &= ~relax;
	*opt |= relax;
}

struct whw_err whw_cmd_modify_qp(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_modify_qp_in *in = (const void *)c->in;
	uint32_t mask = whw_le32(in->attr_mask);
	const struct qp_transition *t;
	uint32_t attrs, req, opt;
	uint8_t cur, next;
	struct whw_err err;
	struct whw_qp *qp;
	int kind;

	if (in->rsvd0)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(rsvd0));
	err = whw_check_rsvd_in(c, offsetof(struct wren_modify_qp_in, rsvd),
				sizeof(in->rsvd));
	if (err.status)
		return err;
	qp = whw_table_get(&hw->qps, whw_le32(in->qpn));
	if (!qp)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_MQP(qpn));
	if (mask & ~A_KNOWN)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(attr_mask));
	cur = qp->state;
	if (mask & A_CUR) {
		if (in->cur_state >= NSTATES)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_MQP(cur_state));
		if (in->cur_state != cur)
			return WHW_ERR(WREN_AQ_STATUS_BAD_STATE,
				       SYND_MQP(cur_state));
	}
	next = cur;
	if (mask & WREN_QP_ATTR_STATE) {
		if (in->new_state >= NSTATES)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_MQP(new_state));
		next = in->new_state;
	}
	t = &qp_table[cur][next];
	if (!t->valid)
		return WHW_ERR(WREN_AQ_STATUS_BAD_STATE, SYND_MQP(new_state));
	kind = wren_qpt_datagram(qp->type) ? KIND_DATAGRAM :
	       qp->type == WREN_QPT_UC ? KIND_UC : KIND_RC;
	req = t->req[kind];
	opt = t->opt[kind];
	xrc_relax(qp->type, cur, next, &req, &opt);
	attrs = mask & ~WREN_QP_ATTR_STATE;
	if ((attrs & req) != req || (attrs & ~(req | opt)))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(attr_mask));
	err = check_values(hw, in, attrs);
	if (err.status)
		return err;
	if (next == WREN_QPS_RESET) {
		memset(&qp->attr, 0, sizeof(qp->attr));
		qp->sq_pi = 0;
		qp->sq_ci = 0;
	}
	apply_attrs(qp, in, attrs);
	qp->state = next;
	/* The engine flushes on ERR, forgets on RESET, drains on SQD. */
	whw_roce_qp_modified(hw, qp, cur, attrs & A_DRAIN);
	return WHW_OK;
}

struct whw_err whw_cmd_query_qp(struct wrenhw *hw, struct whw_cmd *c)
{
	struct wren_query_qp_out *o = (struct wren_query_qp_out *)c->out;
	struct whw_err err;
	struct whw_qp *qp = whw_cmd_handle_obj(c, &hw->qps, &err);
	const struct whw_qp_attrs *a;

	if (!qp)
		return err;
	a = &qp->attr;
	o->state = qp->state;
	o->path_mtu = a->path_mtu;
	o->timeout = a->timeout;
	o->retry_cnt = a->retry_cnt;
	o->rnr_retry = a->rnr_retry;
	o->min_rnr_timer = a->min_rnr_timer;
	o->max_rd_atomic = a->max_rd_atomic;
	o->max_dest_rd_atomic = a->max_dest_rd_atomic;
	o->access_flags = whw_le16(a->access_flags);
	o->sq_draining = whw_roce_sq_draining(qp);
	o->qkey = whw_le32(a->qkey);
	o->sq_psn = whw_le32(a->sq_psn);
	o->rq_psn = whw_le32(a->rq_psn);
	o->dest_qpn = whw_le32(a->dest_qpn);
	o->av = a->av;
	whw_roce_qp_cc(hw, qp, o);
	c->out_size = sizeof(*o);
	return WHW_OK;
}
