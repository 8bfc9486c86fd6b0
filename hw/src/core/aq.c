// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The admin queue engine: fetch 64-byte commands from the AQ ring, have
 * cmd_dispatch.c check and run each, and answer with exactly one ACQ
 * entry, in order.  The ACQ is never overrun: fetching pauses while it is
 * full.
 */
#include <string.h>

#include "../cmd/whw_cmd.h"
#include "../roce/whw_roce_api.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_err.h"
#include "whw_control.h"
#include "whw_events.h"
#include "whw_ring.h"
#include "whw_services.h"
#include "whw_timer.h"

#define OUT_MAX		1024u	/* largest output structure, with margin */

static uint32_t idx_diff(uint32_t a, uint32_t b)
{
	return (a - b) & WREN_INDEX_MASK;
}

static bool acq_full(const struct wrenhw *hw)
{
	return idx_diff(hw->acq.pi, hw->acq.ci) >= (1u << hw->acq.log_size);
}

static bool post_completion(struct wrenhw *hw, struct wren_acq_entry *e)
{
	uint32_t slot = hw->acq.pi & ((1u << hw->acq.log_size) - 1);
	uint64_t off = (uint64_t)slot * WREN_ACQ_ENTRY_SIZE;

	e->owner = wren_ring_phase(hw->acq.pi, hw->acq.log_size);
	if (whw_ring_write_entry(hw, &hw->acq.ring, off, e, sizeof(*e))) {
		whw_go_fatal(hw, WREN_FATAL_AQ_DMA,
			     (uint32_t)whw_ring_addr(&hw->acq.ring, off));
		return false;
	}
	hw->acq.pi = (hw->acq.pi + 1) & WREN_INDEX_MASK;
	if (hw->acq.armed) {
		hw->acq.armed = false;
		whw_irq(hw, hw->mgmt_vector);
	}
	return true;
}

static bool aq_can_run(const struct wrenhw *hw)
{
	return hw->aq.enabled && !(hw->status & WREN_STATUS_FATAL) &&
	       !hw->aq_stalled && !hw->aq_late_pending;
}

/* Run one fetched command and answer it; false when the device went fatal. */
static bool exec_one(struct wrenhw *hw, const struct wren_aq_cmd *cmd)
{
	/* Handlers build their output structure in place. */
	_Alignas(8) uint8_t out[OUT_MAX];
	struct wren_acq_entry e;
	struct whw_cmd c;
	struct whw_err err;

	memset(&c, 0, sizeof(c));
	memset(out, 0, sizeof(out));
	c.cmd = cmd;
	c.out = out;
	c.out_cap = sizeof(out);
	err = whw_cmd_run(hw, cmd, &c);
	memset(&e, 0, sizeof(e));
	e.cmd_id = cmd->cmd_id;
	e.status = err.status;
	e.syndrome = whw_le32(err.synd);
	if (!err.status) {
		e.out_len = whw_le32(c.out_size);
		e.result = whw_le64(c.result);
		e.result2 = whw_le32(c.result2);
	} else {
		whw_log(hw, "wren: cmd op 0x%02x id %u: status %u synd 0x%x",
			cmd->opcode, whw_le16(cmd->cmd_id), err.status,
			err.synd);
	}
	if (!post_completion(hw, &e))
		return false;
	if (hw->diag_fatal_pending) {
		hw->diag_fatal_pending = false;
		whw_go_fatal(hw, WREN_FATAL_INJECTED, 0);
	}
	return true;
}

/*
 * DIAG AQ_LATE: the held command runs now, long after it was fetched -
 * its output DMA lands in whatever the driver left at out_addr - and the
 * queue moves on behind it.
 */
static void aq_late_fn(struct wrenhw *hw, struct whw_timer *t)
{
	(void)t;
	if (!hw->aq_late_pending)
		return;
	hw->aq_late_pending = false;
	if (!hw->aq.enabled || (hw->status & WREN_STATUS_FATAL))
		return;
	whw_log(hw, "wren: late cmd_id %u runs now (injected)",
		whw_le16(hw->aq_late_cmd.cmd_id));
	if (exec_one(hw, &hw->aq_late_cmd))
		whw_aq_process(hw);
}

/* Forget a held AQ_LATE command: reset, AQ disable or re-enable. */
void whw_aq_late_cancel(struct wrenhw *hw)
{
	hw->aq_late_ms = 0;
	hw->aq_late_pending = false;
	hw->aq_late_timer.fn = aq_late_fn;
	whw_timer_del(hw, &hw->aq_late_timer);
}

/* Commands per wrenhw_process() call, so the host's loop is never starved. */
#define AQ_BUDGET	64

void whw_aq_process(struct wrenhw *hw)
{
	unsigned int budget = AQ_BUDGET;

	while (aq_can_run(hw) && hw->aq.ci != hw->aq.pi && !acq_full(hw)) {
		if (!budget--) {
			if (hw->ops->schedule)
				hw->ops->schedule(hw->opaque);
			return;
		}
		uint32_t slot = hw->aq.ci & ((1u << hw->aq.log_size) - 1);
		uint64_t addr = hw->aq.base + (uint64_t)slot * WREN_AQ_CMD_SIZE;
		struct wren_aq_cmd cmd;

		if (hw->ops->dma_read(hw->opaque, addr, &cmd, sizeof(cmd))) {
			whw_go_fatal(hw, WREN_FATAL_AQ_DMA, (uint32_t)addr);
			return;
		}
		hw->aq.ci = (hw->aq.ci + 1) & WREN_INDEX_MASK;
		if (hw->aq_stall_armed) {
			/* DIAG AQ_STALL: this command never completes. */
			hw->aq_stall_armed = false;
			hw->aq_stalled = true;
			whw_log(hw, "wren: AQ stalled on cmd_id %u (injected)",
				whw_le16(cmd.cmd_id));
			return;
		}
		if (hw->aq_late_ms) {
			/* DIAG AQ_LATE: hold it; commands behind it wait. */
			hw->aq_late_cmd = cmd;
			hw->aq_late_pending = true;
			hw->aq_late_timer.fn = aq_late_fn;
			whw_timer_add(hw, &hw->aq_late_timer, whw_now(hw) +
				      (uint64_t)hw->aq_late_ms * 1000000u);
			whw_log(hw, "wren: cmd_id %u held for %u ms (injected)",
				whw_le16(cmd.cmd_id), hw->aq_late_ms);
			hw->aq_late_ms = 0;
			return;
		}
		if (!exec_one(hw, &cmd))
			return;
	}
}

void whw_aq_doorbell(struct wrenhw *hw, uint32_t val)
{
	uint32_t pi = val & WREN_INDEX_MASK;

	if (!hw->aq.enabled || (hw->status & WREN_STATUS_FATAL))
		return;
	if (idx_diff(pi, hw->aq.ci) > (1u << hw->aq.log_size)) {
		/*
		 * More outstanding than the ring holds: ignore, report the
		 * value as written (bit 31 included); data2 = our CI.
		 */
		whw_aeq_post(hw, WREN_EVENT_AQ_ERR, WREN_AQ_STATUS_BAD_PARAM,
			     val, hw->aq.ci);
		return;
	}
	hw->aq.pi = pi;
	/* The firmware takes commands as they are rung: an answer ready when
	 * the doorbell write returns spares the driver a sleep and a wake-up
	 * per command.  The budget hands long batches to wrenhw_process().
	 * Sends rung before the command go first.
	 */
	whw_roce_sync_datagrams(hw);
	whw_aq_process(hw);
}

void whw_acq_doorbell(struct wrenhw *hw, uint32_t val)
{
	uint32_t ci = val & WREN_INDEX_MASK;

	if (!hw->aq.enabled)
		return;
	if (idx_diff(hw->acq.pi, ci) > (1u << hw->acq.log_size)) {
		hw->cnt_port[WREN_CNT_DB_ERRORS]++;
		return;		/* consumer beyond producer: ignored */
	}
	hw->acq.ci = ci;
	if (val & WREN_ARM) {
		if (hw->acq.pi != ci)
			whw_irq(hw, hw->mgmt_vector);
		else
			hw->acq.armed = true;
	}
	/* Commands held back by a full ACQ go on now. */
	whw_aq_process(hw);
}
