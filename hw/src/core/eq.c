// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Event posting: the asynchronous event queue (AEQ, registers) and the
 * completion EQs (admin commands; their doorbells are doorbell.c's).  Both
 * follow the ring rules of wren_queues.h; neither is ever overrun: an
 * event that finds its queue full is dropped, counted, and an EQ_OVERRUN
 * event says so.  Interrupt arming is one-shot.
 *
 * A completion EQ's interrupt may be moderated (WREN_CAP_CQ_MODERATION):
 * the same two CREATE_EQ fields as a CQ's (cq_moderation.c), counted in
 * EQEs, for the EQ's MSI-X vector.
 *
 * Fatal errors live here too: the device's last word is a DEVICE_FATAL
 * event, and an AEQ write that fails is itself fatal, so the two call each
 * other.
 */
#include <string.h>

#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_events.h"
#include "whw_ring.h"
#include "whw_services.h"
#include "whw_timer.h"

static void fill_eqe(struct wren_eqe *e, uint8_t type, uint8_t sub,
		     const uint32_t *data, uint32_t pi, uint32_t log_size)
{
	memset(e, 0, sizeof(*e));
	e->data = whw_le32(data[0]);
	e->data2 = whw_le32(data[1]);
	e->data3 = whw_le32(data[2]);
	e->type = type;
	e->sub = sub;
	e->owner = wren_ring_phase(pi, log_size);
}

static bool drop_injected(struct wrenhw *hw)
{
	if (!hw->drop_eqes)
		return false;
	hw->drop_eqes--;
	return true;
}

void whw_aeq_post(struct wrenhw *hw, uint8_t type, uint8_t sub,
		  uint32_t data, uint32_t data2)
{
	whw_aeq_post3(hw, type, sub, data, data2, 0);
}

void whw_aeq_post3(struct wrenhw *hw, uint8_t type, uint8_t sub,
		   uint32_t data, uint32_t data2, uint32_t data3)
{
	const uint32_t d[3] = { data, data2, data3 };
	struct whw_regq *q = &hw->aeq;
	struct wren_eqe e;
	uint32_t size;
	uint64_t off;

	/* log_size is only validated (and frozen) while the AEQ is enabled. */
	if (!q->enabled || hw->aeq_broken || (hw->status & WREN_STATUS_FATAL))
		return;
	size = 1u << q->log_size;
	if (drop_injected(hw))
		return;
	if (((q->pi - q->ci) & WREN_INDEX_MASK) >= size) {
		hw->aeq_dropped++;
		hw->aeq_overrun_pending = true;
		return;
	}
	off = (uint64_t)(q->pi & (size - 1)) * WREN_EQE_SIZE;
	fill_eqe(&e, type, sub, d, q->pi, q->log_size);
	if (whw_ring_write_entry(hw, &q->ring, off, &e, sizeof(e))) {
		hw->aeq_broken = true;
		whw_go_fatal(hw, WREN_FATAL_AEQ_DMA,
			     (uint32_t)whw_ring_addr(&q->ring, off));
		return;
	}
	q->pi = (q->pi + 1) & WREN_INDEX_MASK;
	if (q->armed) {
		q->armed = false;
		whw_irq(hw, hw->mgmt_vector);
	}
}

void whw_aeq_doorbell(struct wrenhw *hw, uint32_t val)
{
	struct whw_regq *q = &hw->aeq;
	uint32_t ci = val & WREN_INDEX_MASK;

	if (!q->enabled)
		return;
	if (((q->pi - ci) & WREN_INDEX_MASK) > (1u << q->log_size)) {
		hw->cnt_port[WREN_CNT_DB_ERRORS]++;
		return;
	}
	q->ci = ci;
	if (hw->aeq_overrun_pending && q->pi - ci != (1u << q->log_size)) {
		hw->aeq_overrun_pending = false;
		/* data2: events dropped since enable (saturating). */
		whw_aeq_post(hw, WREN_EVENT_EQ_OVERRUN, 0, WREN_EQN_AEQ,
			     hw->aeq_dropped > UINT32_MAX ? UINT32_MAX :
			     (uint32_t)hw->aeq_dropped);
	}
	if (val & WREN_ARM) {
		if (q->pi != ci)
			whw_irq(hw, hw->mgmt_vector);
		else
			q->armed = true;
	}
}

static void eq_fire(struct wrenhw *hw, struct whw_eq *eq)
{
	eq->armed = false;
	eq->mod_pending = 0;
	whw_timer_del(hw, &eq->mod_timer);
	whw_irq(hw, eq->vector);
}

static void eq_mod_expired(struct wrenhw *hw, struct whw_timer *t)
{
	struct whw_eq *eq = WHW_CONTAINER_OF(t, struct whw_eq, mod_timer);

	if (eq->armed && eq->mod_pending)
		eq_fire(hw, eq);
}

void whw_eq_mod_init(struct whw_eq *eq)
{
	eq->mod_timer.fn = eq_mod_expired;
}

void whw_eq_mod_fini(struct wrenhw *hw, struct whw_eq *eq)
{
	whw_timer_del(hw, &eq->mod_timer);
}

void whw_eq_pending(struct wrenhw *hw, struct whw_eq *eq, uint32_t n)
{
	if (!eq->moderation_usec) {
		eq_fire(hw, eq);
		return;
	}
	eq->mod_pending += n;
	if (eq->moderation_count && eq->mod_pending >= eq->moderation_count) {
		eq_fire(hw, eq);
		return;
	}
	if (!eq->mod_timer.pending)
		whw_timer_add(hw, &eq->mod_timer,
			      whw_now(hw) + eq->moderation_usec * 1000ull);
}

void whw_eq_post(struct wrenhw *hw, struct whw_eq *eq, uint8_t type,
		 uint8_t sub, uint32_t data, uint32_t data2)
{
	const uint32_t d[3] = { data, data2, 0 };
	uint32_t size = 1u << eq->log_size;
	struct wren_eqe e;
	uint64_t off;

	if (hw->status & WREN_STATUS_FATAL)
		return;
	if (drop_injected(hw))
		return;
	if (eq->broken || eq->pi - eq->ci >= size) {
		eq->dropped++;
		if (!eq->overrun_pending) {
			eq->overrun_pending = true;
			whw_aeq_post(hw, WREN_EVENT_EQ_OVERRUN, 0, eq->hdr.id,
				     0);
		}
		return;
	}
	off = (uint64_t)(eq->pi & (size - 1)) * WREN_EQE_SIZE;
	fill_eqe(&e, type, sub, d, eq->pi, eq->log_size);
	if (whw_ring_write_entry(hw, &eq->ring, off, &e, sizeof(e))) {
		/* The EQ is dead until destroyed; the driver hears of it. */
		eq->broken = true;
		eq->dropped++;
		eq->overrun_pending = true;
		whw_aeq_post(hw, WREN_EVENT_EQ_OVERRUN, WREN_WQ_SYND_DMA,
			     eq->hdr.id, 0);
		return;
	}
	eq->pi++;
	if (eq->armed)
		whw_eq_pending(hw, eq, 1);
}

/* The device stops: no more admin commands, doorbells or events. */
void whw_go_fatal(struct wrenhw *hw, uint32_t syndrome, uint32_t info)
{
	/*
	 * The first cause wins: posting the fatal event may itself fail
	 * (e.g. bus mastering off) and come back here with AEQ_DMA.
	 */
	if ((hw->status & WREN_STATUS_FATAL) || hw->fatal_syndrome)
		return;
	whw_log(hw, "wren: fatal error, syndrome %u info 0x%x", syndrome,
		info);
	hw->fatal_syndrome = syndrome;
	hw->fatal_info = info;
	hw->heartbeat_frozen = whw_heartbeat(hw);
	/* Posted before FATAL is set, so that it gets out if it can. */
	whw_aeq_post(hw, WREN_EVENT_DEVICE_FATAL, 0, syndrome, info);
	hw->status |= WREN_STATUS_FATAL;
}
