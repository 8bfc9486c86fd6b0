// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * BAR2 doorbell pages.  A doorbell is one naturally aligned 64-bit write:
 * bits 23:0 name the queue, 31:24 carry flags, 63:32 an index.  A queue
 * only answers doorbells rung through the page it was bound to; anything
 * else is ignored, counted, and reported once per queue.
 */
#include "../roce/whw_roce_api.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_control.h"
#include "whw_events.h"
#include "whw_table.h"

void whw_db_error(struct wrenhw *hw, bool *reported, uint32_t queue,
		  uint32_t page, uint32_t db_off)
{
	hw->cnt_port[WREN_CNT_DB_ERRORS]++;
	if (reported) {
		if (*reported)
			return;
		*reported = true;
	} else {
		/* Unknown queues have no flag: report each new one once. */
		if (queue == hw->last_db_err_queue)
			return;
		hw->last_db_err_queue = queue;
	}
	/* sub names the doorbell (offset / 8); 0xff: an unknown offset. */
	whw_aeq_post(hw, WREN_EVENT_DB_ERR,
		     db_off <= WREN_DB_ETH_RX && !(db_off & 7) ?
		     (uint8_t)(db_off >> 3) : 0xff, queue, page);
}

static uint32_t uar_page(const struct whw_uar *uar)
{
	return uar ? uar->hdr.id : WREN_KERNEL_UAR;
}

static void sq_doorbell(struct wrenhw *hw, struct whw_qp *qp, uint32_t pi)
{
	if (qp->state == WREN_QPS_RESET) {
		whw_db_error(hw, &qp->db_err_reported, qp->hdr.id,
			     uar_page(qp->uar), WREN_DB_SQ);
		return;
	}
	if (pi - qp->sq_ci > (1u << qp->sq_log_size)) {
		/* More WQEs than the ring holds: the QP is broken. */
		if (qp->state != WREN_QPS_ERR) {
			uint8_t cur = qp->state;

			qp->state = WREN_QPS_ERR;
			whw_aeq_post(hw, WREN_EVENT_QP_FATAL,
				     WREN_WQ_SYND_BAD_INDEX, qp->hdr.id, pi);
			whw_roce_qp_modified(hw, qp, cur, false);
		}
		return;
	}
	qp->sq_pi = pi;
	/* WQEs are read in wrenhw_process(), never inside wrenhw_mmio_write(). */
	whw_roce_sq_doorbell(hw, qp);
}

static void eth_doorbell(struct wrenhw *hw, struct whw_eth_q *q, uint32_t pi)
{
	uint32_t qid = q->hdr.id | (q->rx ? 0x80000000u : 0);

	if (q->error)
		return;
	if (pi - q->ci > (1u << q->log_size)) {
		q->error = true;
		whw_aeq_post(hw, WREN_EVENT_ETH_QUEUE_ERR,
			     WREN_WQ_SYND_BAD_INDEX, qid, pi);
		return;
	}
	q->pi = pi;
	/* TX work runs outside the MMIO write; RX buffers wait for frames. */
	if (!q->rx && q->pi != q->ci && hw->ops->schedule)
		hw->ops->schedule(hw->opaque);
}

void whw_db_write(struct wrenhw *hw, uint64_t off, uint64_t val,
		  unsigned int size)
{
	uint32_t page = (uint32_t)(off >> WREN_DB_PAGE_SHIFT);
	uint32_t reg = (uint32_t)(off & (WREN_DB_PAGE_SIZE - 1));
	uint32_t queue = (uint32_t)val & WREN_DB_QUEUE_MASK;
	uint32_t flags = (uint32_t)val & ~WREN_DB_QUEUE_MASK;
	uint32_t index = (uint32_t)(val >> WREN_DB_INDEX_SHIFT);
	struct whw_qp *qp;
	struct whw_cq *cq;
	struct whw_eq *eq;
	struct whw_eth_q *eq_eth;

	if (hw->status & WREN_STATUS_FATAL ||
	    off >= (uint64_t)hw->num_db_pages << WREN_DB_PAGE_SHIFT)
		return;
	if (size != 8 || (off & 7)) {
		whw_db_error(hw, NULL, queue, page, reg);
		return;
	}
	switch (reg) {
	case WREN_DB_SQ:
		qp = whw_table_get(&hw->qps, queue);
		/* An XRC target has no SQ, and no page of its own. */
		if (!qp || qp->type == WREN_QPT_XRC_TGT ||
		    uar_page(qp->uar) != page || flags) {
			whw_db_error(hw, qp ? &qp->db_err_reported : NULL,
				     queue, page, reg);
			return;
		}
		sq_doorbell(hw, qp, index);
		break;
	case WREN_DB_CQ:
		cq = whw_table_get(&hw->cqs, queue);
		if (!cq || uar_page(cq->uar) != page ||
		    (flags & ~WREN_DB_CQ_ARM_MASK)) {
			whw_db_error(hw, cq ? &cq->db_err_reported : NULL,
				     queue, page, reg);
			return;
		}
		if (cq->pi - index > (1u << cq->log_size)) {
			/* Consumer beyond what the device produced. */
			whw_db_error(hw, &cq->db_err_reported, queue, page,
				     reg);
			return;
		}
		whw_cq_arm(hw, cq, index, flags & WREN_DB_CQ_ARM_MASK);
		break;
	case WREN_DB_EQ:
		eq = whw_table_get(&hw->eqs, queue);
		if (!eq || page != WREN_KERNEL_UAR ||
		    (flags & ~WREN_DB_EQ_ARM)) {
			whw_db_error(hw, eq ? &eq->db_err_reported : NULL,
				     queue, page, reg);
			return;
		}
		whw_eq_doorbell(hw, eq, index, flags & WREN_DB_EQ_ARM);
		break;
	case WREN_DB_ETH_TX:
	case WREN_DB_ETH_RX:
		eq_eth = whw_table_get(reg == WREN_DB_ETH_TX ? &hw->txqs
							     : &hw->rxqs, queue);
		if (!eq_eth || page != WREN_KERNEL_UAR || flags) {
			whw_db_error(hw, eq_eth ? &eq_eth->db_err_reported
						: NULL, queue, page, reg);
			return;
		}
		eth_doorbell(hw, eq_eth, index);
		break;
	default:
		/* Unknown offsets and the (unadvertised) push window. */
		whw_db_error(hw, NULL, queue, page, reg);
		break;
	}
}

void whw_eq_doorbell(struct wrenhw *hw, struct whw_eq *eq, uint32_t ci,
		     bool arm)
{
	if (eq->pi - ci > (1u << eq->log_size)) {
		whw_db_error(hw, &eq->db_err_reported, eq->hdr.id,
			     WREN_KERNEL_UAR, WREN_DB_EQ);
		return;
	}
	eq->ci = ci;
	if (eq->overrun_pending && !eq->broken &&
	    eq->pi - ci < (1u << eq->log_size))
		eq->overrun_pending = false;
	if (arm && !eq->armed) {
		eq->armed = true;
		if (eq->pi != ci)
			whw_eq_pending(hw, eq, eq->pi - ci);
	}
}
