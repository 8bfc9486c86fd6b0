// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * BAR0: the register file of include/linux/wren/wren_regs.h.  Unknown
 * offsets read as 0 and ignore writes; read-only registers ignore writes;
 * write-only doorbells read as 0.  Queue base and size registers only
 * change while their queue is disabled, so a ring never moves under the
 * device.
 */
#include <string.h>

#include "../whw_board.h"
#include "../whw_device.h"
#include "../whw_err.h"
#include "whw_control.h"
#include "whw_events.h"
#include "whw_ring.h"
#include "whw_services.h"

uint32_t whw_reg_read(struct wrenhw *hw, uint64_t off)
{
	switch (off) {
	case WREN_REG_MAGIC:		return WREN_MAGIC;
	case WREN_REG_CONTRACT:
		return WREN_CONTRACT_MAJOR << 16 | WREN_CONTRACT_MINOR;
	case WREN_REG_FW_VERSION:	return WHW_FW_VERSION;
	case WREN_REG_FW_BUILD:		return WHW_FW_BUILD;
	case WREN_REG_CAPS_LO:		return (uint32_t)hw->caps;
	case WREN_REG_CAPS_HI:		return (uint32_t)(hw->caps >> 32);
	case WREN_REG_STATUS:		return hw->status;
	case WREN_REG_CONTROL:		return hw->control;
	case WREN_REG_FATAL_SYNDROME:	return hw->fatal_syndrome;
	case WREN_REG_FATAL_INFO:	return hw->fatal_info;
	case WREN_REG_HEARTBEAT:	return whw_heartbeat(hw);
	case WREN_REG_NUM_MSIX:		return hw->num_msix;
	case WREN_REG_NUM_DB_PAGES:	return hw->num_db_pages;
	case WREN_REG_RESET_TIMEOUT_MS:	return WHW_RESET_TIMEOUT_MS;
	case WREN_REG_AQ_TIMEOUT_MS:	return WHW_AQ_TIMEOUT_MS;
	case WREN_REG_SERIAL_LO:	return (uint32_t)hw->serial;
	case WREN_REG_SERIAL_HI:	return (uint32_t)(hw->serial >> 32);
	case WREN_REG_AQ_BASE_LO:	return (uint32_t)hw->aq.base;
	case WREN_REG_AQ_BASE_HI:	return (uint32_t)(hw->aq.base >> 32);
	case WREN_REG_AQ_LOG_SIZE:	return hw->aq.log_size;
	case WREN_REG_ACQ_BASE_LO:	return (uint32_t)hw->acq.base;
	case WREN_REG_ACQ_BASE_HI:	return (uint32_t)(hw->acq.base >> 32);
	case WREN_REG_ACQ_LOG_SIZE:	return hw->acq.log_size;
	case WREN_REG_MGMT_VECTOR:	return hw->mgmt_vector;
	case WREN_REG_AQ_ERROR:		return hw->aq_error;
	case WREN_REG_AEQ_BASE_LO:	return (uint32_t)hw->aeq.base;
	case WREN_REG_AEQ_BASE_HI:	return (uint32_t)(hw->aeq.base >> 32);
	case WREN_REG_AEQ_LOG_SIZE:	return hw->aeq.log_size;
	case WREN_REG_CLOCK_LO:
	case WREN_REG_CLOCK_HI:		return whw_clock_reg_read(hw, off);
	default:			return 0;
	}
}

static void set_lo(uint64_t *r, uint32_t v)
{
	*r = (*r & ~0xffffffffull) | v;
}

static void set_hi(uint64_t *r, uint32_t v)
{
	*r = (*r & 0xffffffffull) | (uint64_t)v << 32;
}

/* Validates a register-programmed ring and makes it live. */
static uint8_t regq_enable(struct wrenhw *hw, struct whw_regq *q,
			   uint32_t entry_size, uint32_t min_log,
			   uint32_t max_log)
{
	struct whw_err err;

	if (q->log_size < min_log || q->log_size > max_log)
		return WREN_AQ_STATUS_BAD_SIZE;
	if (!q->base || (q->base & (WREN_DB_PAGE_SIZE - 1)))
		return WREN_AQ_STATUS_BAD_ADDR;
	err = whw_ring_contig(&q->ring, q->base,
			      (uint64_t)entry_size << q->log_size);
	if (err.status)
		return err.status;
	if (whw_ring_overlaps_live(hw, &q->ring, NULL)) {
		whw_ring_free(hw, &q->ring);
		return WREN_AQ_STATUS_BAD_ADDR;
	}
	q->pi = 0;
	q->ci = 0;
	q->armed = false;
	q->enabled = true;
	return WREN_AQ_STATUS_OK;
}

static void regq_disable(struct wrenhw *hw, struct whw_regq *q)
{
	whw_ring_free(hw, &q->ring);
	q->enabled = false;
	q->pi = 0;
	q->ci = 0;
	q->armed = false;
}

/* MGMT_VECTOR takes any value; enabling a queue that signals it checks it. */
static uint8_t mgmt_vector_check(const struct wrenhw *hw)
{
	return hw->mgmt_vector < hw->num_msix ? WREN_AQ_STATUS_OK :
	       WREN_AQ_STATUS_BAD_PARAM;
}

static uint8_t aq_enable(struct wrenhw *hw)
{
	uint8_t st = mgmt_vector_check(hw);

	if (!st)
		st = regq_enable(hw, &hw->aq, WREN_AQ_CMD_SIZE,
				 WREN_AQ_LOG_SIZE_MIN, WREN_AQ_LOG_SIZE_MAX);
	if (!st) {
		whw_ring_link(hw, &hw->aq.ring);
		st = regq_enable(hw, &hw->acq, WREN_ACQ_ENTRY_SIZE,
				 WREN_AQ_LOG_SIZE_MIN, WREN_AQ_LOG_SIZE_MAX);
		if (st)
			regq_disable(hw, &hw->aq);
	}
	if (st) {
		whw_log(hw, "wren: AQ enable rejected, status %u", st);
		return st;
	}
	whw_ring_link(hw, &hw->acq.ring);
	hw->aq_stalled = false;
	hw->aq_stall_armed = false;
	whw_aq_late_cancel(hw);
	hw->control |= WREN_CONTROL_AQ_ENABLE;
	hw->status |= WREN_STATUS_AQ_READY;
	return WREN_AQ_STATUS_OK;
}

static void aq_disable(struct wrenhw *hw)
{
	regq_disable(hw, &hw->aq);
	regq_disable(hw, &hw->acq);
	hw->aq_stalled = false;
	hw->aq_stall_armed = false;
	whw_aq_late_cancel(hw);
	hw->control &= ~WREN_CONTROL_AQ_ENABLE;
	hw->status &= ~WREN_STATUS_AQ_READY;
}

static uint8_t aeq_enable(struct wrenhw *hw)
{
	uint8_t st = mgmt_vector_check(hw);

	if (!st)
		st = regq_enable(hw, &hw->aeq, WREN_EQE_SIZE,
				 WREN_AEQ_LOG_SIZE_MIN, WREN_AEQ_LOG_SIZE_MAX);
	if (st) {
		whw_log(hw, "wren: AEQ enable rejected, status %u", st);
		return st;
	}
	whw_ring_link(hw, &hw->aeq.ring);
	hw->aeq_dropped = 0;
	hw->aeq_overrun_pending = false;
	hw->control |= WREN_CONTROL_AEQ_ENABLE;
	hw->status |= WREN_STATUS_AEQ_READY;
	return WREN_AQ_STATUS_OK;
}

static void aeq_disable(struct wrenhw *hw)
{
	regq_disable(hw, &hw->aeq);
	hw->control &= ~WREN_CONTROL_AEQ_ENABLE;
	hw->status &= ~WREN_STATUS_AEQ_READY;
}

static void control_write(struct wrenhw *hw, uint32_t val)
{
	uint8_t st = WREN_AQ_STATUS_OK;
	bool tried = false;

	if (val & WREN_CONTROL_RESET) {
		whw_state_reset(hw);
		return;
	}
	if (hw->status & WREN_STATUS_FATAL)
		return;		/* only a reset leaves the fatal state */
	/* AQ_ERROR: the first rejection of this write, 0 if all enabled. */
	if ((val & WREN_CONTROL_AQ_ENABLE) && !hw->aq.enabled) {
		st = aq_enable(hw);
		tried = true;
	} else if (!(val & WREN_CONTROL_AQ_ENABLE) && hw->aq.enabled) {
		aq_disable(hw);
	}
	if ((val & WREN_CONTROL_AEQ_ENABLE) && !hw->aeq.enabled) {
		uint8_t aeq_st = aeq_enable(hw);

		st = st ? st : aeq_st;
		tried = true;
	} else if (!(val & WREN_CONTROL_AEQ_ENABLE) && hw->aeq.enabled) {
		aeq_disable(hw);
	}
	if (tried)
		hw->aq_error = st;
	if (hw->aq.enabled && hw->ops->schedule)
		hw->ops->schedule(hw->opaque);
}

void whw_reg_write(struct wrenhw *hw, uint64_t off, uint32_t val)
{
	bool aq_on = hw->aq.enabled, aeq_on = hw->aeq.enabled;

	switch (off) {
	case WREN_REG_CONTROL:
		control_write(hw, val);
		break;
	case WREN_REG_AQ_BASE_LO:
		if (!aq_on)
			set_lo(&hw->aq.base, val);
		break;
	case WREN_REG_AQ_BASE_HI:
		if (!aq_on)
			set_hi(&hw->aq.base, val);
		break;
	case WREN_REG_AQ_LOG_SIZE:
		if (!aq_on)
			hw->aq.log_size = val;
		break;
	case WREN_REG_ACQ_BASE_LO:
		if (!aq_on)
			set_lo(&hw->acq.base, val);
		break;
	case WREN_REG_ACQ_BASE_HI:
		if (!aq_on)
			set_hi(&hw->acq.base, val);
		break;
	case WREN_REG_ACQ_LOG_SIZE:
		if (!aq_on)
			hw->acq.log_size = val;
		break;
	case WREN_REG_AEQ_BASE_LO:
		if (!aeq_on)
			set_lo(&hw->aeq.base, val);
		break;
	case WREN_REG_AEQ_BASE_HI:
		if (!aeq_on)
			set_hi(&hw->aeq.base, val);
		break;
	case WREN_REG_AEQ_LOG_SIZE:
		if (!aeq_on)
			hw->aeq.log_size = val;
		break;
	case WREN_REG_MGMT_VECTOR:
		/* Frozen while a queue signals it, so it stays validated. */
		if (!aq_on && !aeq_on)
			hw->mgmt_vector = val;
		break;
	case WREN_REG_AQ_PI:
		whw_aq_doorbell(hw, val);
		break;
	case WREN_REG_ACQ_CI:
		whw_acq_doorbell(hw, val);
		break;
	case WREN_REG_AEQ_CI:
		whw_aeq_doorbell(hw, val);
		break;
	default:
		break;		/* read-only or unknown */
	}
}
