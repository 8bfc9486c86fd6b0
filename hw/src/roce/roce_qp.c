// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The RoCE engine's side of a QP's life: its state next to the QP
 * context, what MODIFY_QP transitions mean for it (RESET forgets
 * everything, ERR flushes (roce_flush.c), RTR -> RTS arms the retry
 * counters, SQD drains), and the process loop that gives every QP with
 * work a budget of packets per wrenhw_process() call, so that one busy
 * QP neither starves the others nor holds the host's loop.  The top of
 * the engine: nothing below calls back in here.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/whw_events.h"
#include "../core/whw_services.h"
#include "../core/whw_timer.h"
#include "../port/whw_sched.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"
#include "whw_roce_api.h"

/* A QP in ERR flushes receives posted since, every WHW_RQ_FLUSH_NS. */
static void flush_timer_fn(struct wrenhw *hw, struct whw_timer *t)
{
	struct whw_roce_qp *r = WHW_CONTAINER_OF(t, struct whw_roce_qp,
						 flush_timer);

	if (r->qp->state != WREN_QPS_ERR)
		return;
	whw_rq_flush(hw, r->qp);
	whw_timer_add(hw, t, whw_now(hw) + WHW_RQ_FLUSH_NS);
}

static void timers_init(struct whw_roce_qp *r)
{
	r->ack_timer.fn = whw_comp_timer_fn;
	r->rnr_timer.fn = whw_comp_rnr_fn;
	r->flush_timer.fn = flush_timer_fn;
	r->cc.timer.fn = whw_rp_timer_fn;
}

static void timers_del(struct wrenhw *hw, struct whw_roce_qp *r)
{
	whw_timer_del(hw, &r->ack_timer);
	whw_timer_del(hw, &r->rnr_timer);
	whw_timer_del(hw, &r->flush_timer);
	whw_timer_del(hw, &r->cc.timer);
}

int whw_roce_qp_init(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_roce_qp *r = calloc(1, sizeof(*r));

	(void)hw;
	if (!r)
		return -1;
	r->qp = qp;
	timers_init(r);
	qp->roce = r;
	return 0;
}

void whw_roce_qp_fini(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;

	if (!r)
		return;
	timers_del(hw, r);
	whw_roce_list_move(hw, r, WHW_ROCE_OFF);
	free(r->sw);
	free(r);
	qp->roce = NULL;
}

/*
 * A QP that forgets a message in progress (RESET, DESTROY_QP) still
 * returns the SRQ WQE the message held: the SRQ is consumed in ring order
 * and software reuses a slot only once it completed, so a WQE that never
 * completes would block the SRQ for good.  An RQ of its own goes with it.
 */
static void return_srq_rwqe(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;

	if (r && r->in_send && r->rwqe.srq)
		whw_roce_flush_rwqe(hw, qp);
}

void whw_roce_qp_destroying(struct wrenhw *hw, struct whw_qp *qp)
{
	return_srq_rwqe(hw, qp);
}

/* RESET: the engine forgets the QP's traffic (the SQ window stays). */
static void engine_reset(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;
	struct whw_swqe *sw = r->sw;

	return_srq_rwqe(hw, qp);
	timers_del(hw, r);
	whw_roce_list_move(hw, r, WHW_ROCE_OFF);
	memset(r, 0, sizeof(*r));
	r->qp = qp;
	r->sw = sw;
	timers_init(r);
}

void whw_roce_qp_modified(struct wrenhw *hw, struct whw_qp *qp, uint8_t cur,
			  bool drain_notify)
{
	struct whw_roce_qp *r = qp->roce;
	uint8_t next = qp->state;

	if (!r)
		return;
	switch (next) {
	case WREN_QPS_RESET:
		engine_reset(hw, qp);
		break;
	case WREN_QPS_ERR:
		if (cur != WREN_QPS_ERR) {
			qp->state = cur;
			whw_roce_qp_error(hw, qp);
		}
		break;
	case WREN_QPS_RTS:
		if (cur == WREN_QPS_RTR) {
			r->retry_left = qp->attr.retry_cnt;
			r->rnr_left = qp->attr.rnr_retry;
		}
		whw_roce_kick(hw, qp);
		break;
	case WREN_QPS_SQD:
		if (cur == WREN_QPS_RTS && drain_notify) {
			if (qp->sq_ci == r->sq_fetch)
				whw_aeq_post(hw, WREN_EVENT_QP_SQ_DRAINED, 0,
					     qp->hdr.id, 0);
			else
				r->drain_notify = true;
		}
		break;
	default:
		break;
	}
}

bool whw_roce_sq_draining(const struct whw_qp *qp)
{
	return qp->state == WREN_QPS_SQD && qp->roce &&
	       qp->sq_ci != qp->roce->sq_fetch;
}

void whw_roce_sq_doorbell(struct wrenhw *hw, struct whw_qp *qp)
{
	if (!qp->roce)
		return;
	/* Receives posted to a QP in ERR are flushed at its next SQ doorbell. */
	if (qp->state == WREN_QPS_ERR)
		whw_rq_flush(hw, qp);
	whw_roce_kick(hw, qp);
}

static void service(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;
	uint32_t budget = WHW_ROCE_BUDGET;

	r->work = false;
	r->tx_wait = false;
	if (qp->state == WREN_QPS_ERR) {
		if (qp->sq_ci != qp->sq_pi)
			whw_roce_flush(hw, qp);
		return;
	}
	/* XRC: an initiator only sends requests, a target only answers. */
	if (qp->type == WREN_QPT_RC || qp->type == WREN_QPT_XRC_TGT)
		whw_resp_process(hw, qp, &budget);
	if (qp->type != WREN_QPT_XRC_TGT)
		whw_req_process(hw, qp, &budget);
	if (!budget)
		r->work = true;
}

/*
 * The sends a UD or GSI QP in RTS was rung for, sent now.  A datagram is
 * done once sent: it needs nothing from the peer.
 */
static void send_rung(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;
	uint32_t turns = ((1u << qp->sq_log_size) + WHW_ROCE_BUDGET - 1) /
			 WHW_ROCE_BUDGET;

	if (!r || !wren_qpt_datagram(qp->type) || qp->state != WREN_QPS_RTS)
		return;
	while (turns-- && qp->sq_ci != qp->sq_pi && !r->tx_wait)
		service(hw, qp);
}

/* How many datagram QPs one command's wait serves; the rest wait their turn. */
#define SYNC_QPS	32u

/*
 * The admin queue runs commands when its AQ_PI doorbell is written, the
 * engine reads send WQEs later, in wrenhw_process().  A device takes
 * doorbells and commands in the order their writes arrive, and a command
 * may take what the sends rung before it need: rdma-core's mckey posts
 * its sends and destroys the AH and then the QP at once.  So, before the
 * commands, the datagram QPs with rung sends send them.  Connected QPs
 * are left to the process loop: their messages need the peer anyway.
 */
void whw_roce_sync_datagrams(struct wrenhw *hw)
{
	struct whw_qp *q[SYNC_QPS];
	struct whw_roce_qp *r;
	uint32_t n = 0;

	if (hw->status & WREN_STATUS_FATAL)
		return;
	/* Collected first: serving a QP may move it between the lists. */
	for (r = hw->roce_run.head; r && n < SYNC_QPS; r = r->list_next)
		if (wren_qpt_datagram(r->qp->type) &&
		    r->qp->sq_ci != r->qp->sq_pi)
			q[n++] = r->qp;
	for (uint32_t i = 0; i < n; i++)
		send_rung(hw, q[i]);
}

/*
 * One pass: a turn for each QP on the run list when the pass starts (a
 * QP kicked meanwhile gets its turn in the next pass), so the cost is
 * the QPs with work, not the device's QP count.
 */
void whw_roce_process(struct wrenhw *hw)
{
	bool woken = whw_port_tx_woken(hw);
	uint32_t turns;

	if ((!hw->roce_work && !woken) || (hw->status & WREN_STATUS_FATAL))
		return;
	hw->roce_work = false;
	whw_roce_loopback_rx(hw);
	/* QPs the port stopped for room run again once it drained. */
	while (woken && hw->roce_wait.head)
		whw_roce_list_move(hw, hw->roce_wait.head, WHW_ROCE_RUN);
	for (turns = hw->roce_run.count; turns && hw->roce_run.head; turns--) {
		struct whw_roce_qp *r = hw->roce_run.head;
		struct whw_qp *qp = r->qp;

		whw_roce_list_move(hw, r, WHW_ROCE_OFF);
		service(hw, qp);
		if (r->work)
			whw_roce_list_move(hw, r, WHW_ROCE_RUN);
		else if (r->tx_wait)
			whw_roce_list_move(hw, r, WHW_ROCE_WAIT);
	}
	if (hw->roce_run.count || hw->roce_work || hw->lb_count) {
		hw->roce_work = true;
		if (hw->ops->schedule)
			hw->ops->schedule(hw->opaque);
	}
}
