// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The device's life: creation from a board configuration, power-on/reset
 * state, the host entry points that are not register- or queue-specific,
 * fatal errors and the single host timer.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wrenhw_int.h"

void whw_log(struct wrenhw *hw, const char *fmt, ...)
{
	char line[160];
	va_list ap;

	if (!hw->ops->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	hw->ops->log(hw->opaque, line);
}

uint64_t whw_now(struct wrenhw *hw)
{
	return hw->ops->now_ns ? hw->ops->now_ns(hw->opaque) : 0;
}

void whw_irq(struct wrenhw *hw, unsigned int vector)
{
	if (vector < hw->num_msix)
		hw->ops->irq_notify(hw->opaque, vector);
}

static uint32_t pick(unsigned int v, uint32_t def, uint32_t ceil)
{
	if (!v)
		return def;
	return v > ceil ? ceil : v;
}

static int tables_init(struct wrenhw *hw)
{
	int rc = 0;

	/* QP 0 is the (absent) SMI QP and 1 the GSI QP: others start at 2. */
	rc |= whw_table_init(&hw->qps, hw->max_qp, 2);
	rc |= whw_table_init(&hw->cqs, hw->max_cq, 0);
	rc |= whw_table_init(&hw->eqs, hw->max_eq, 0);
	rc |= whw_table_init(&hw->srqs, hw->max_srq, 0);
	rc |= whw_table_init(&hw->pds, hw->max_pd, 1);
	/* MR index 0 would make key 0, which stacks treat as reserved. */
	rc |= whw_table_init(&hw->mrs, hw->max_mr, 1);
	rc |= whw_table_init(&hw->ahs, hw->max_ah, 1);
	/* UAR 0 is the kernel's doorbell page and always exists. */
	rc |= whw_table_init(&hw->uars, hw->num_db_pages, 1);
	rc |= whw_table_init(&hw->txqs, WHW_MAX_ETH_QUEUES, 0);
	rc |= whw_table_init(&hw->rxqs, WHW_MAX_ETH_QUEUES, 0);
	return rc;
}

static void tables_fini(struct wrenhw *hw)
{
	whw_table_fini(&hw->qps);
	whw_table_fini(&hw->cqs);
	whw_table_fini(&hw->eqs);
	whw_table_fini(&hw->srqs);
	whw_table_fini(&hw->pds);
	whw_table_fini(&hw->mrs);
	whw_table_fini(&hw->ahs);
	whw_table_fini(&hw->uars);
	whw_table_fini(&hw->txqs);
	whw_table_fini(&hw->rxqs);
}

struct wrenhw *wrenhw_create(const struct wrenhw_config *cfg,
			     const struct wrenhw_host_ops *ops, void *opaque)
{
	struct wrenhw *hw;

	if (!cfg || !ops || !ops->dma_read || !ops->dma_write ||
	    !ops->irq_notify)
		return NULL;
	hw = calloc(1, sizeof(*hw));
	if (!hw)
		return NULL;
	hw->ops = ops;
	hw->opaque = opaque;
	memcpy(hw->mac, cfg->mac, sizeof(hw->mac));
	hw->num_msix = pick(cfg->num_msix, WHW_DEF_NUM_MSIX, 2048);
	if (hw->num_msix < 2)
		hw->num_msix = 2;
	hw->num_db_pages = pick(cfg->num_db_pages, WHW_DEF_DB_PAGES,
				WHW_MAX_DB_PAGES);
	hw->link_speed = pick(cfg->link_speed_mbps, WHW_DEF_LINK_MBPS,
			      400000);
	hw->max_qp = pick(cfg->max_qp, WHW_DEF_MAX_QP, WHW_CEIL_OBJECTS);
	if (hw->max_qp < 3)
		hw->max_qp = 3;
	hw->max_cq = pick(cfg->max_cq, WHW_DEF_MAX_CQ, WHW_CEIL_OBJECTS);
	hw->max_eq = pick(cfg->max_eq, WHW_DEF_MAX_EQ, WHW_CEIL_OBJECTS);
	hw->max_srq = pick(cfg->max_srq, WHW_DEF_MAX_SRQ, WHW_CEIL_OBJECTS);
	hw->max_pd = pick(cfg->max_pd, WHW_DEF_MAX_PD, WHW_CEIL_OBJECTS);
	if (hw->max_pd < 2)
		hw->max_pd = 2;
	hw->max_mr = pick(cfg->max_mr, WHW_DEF_MAX_MR, WHW_CEIL_OBJECTS);
	if (hw->max_mr < 2)
		hw->max_mr = 2;
	hw->max_ah = pick(cfg->max_ah, WHW_DEF_MAX_AH, WHW_CEIL_OBJECTS);
	if (hw->max_ah < 2)
		hw->max_ah = 2;
	hw->max_mtt = pick(cfg->max_mtt, WHW_DEF_MAX_MTT, WHW_CEIL_MTT);
	hw->caps = WHW_CAPS;
	hw->lb = calloc(WHW_LB_FRAMES, sizeof(*hw->lb));
	/* "WREN" in the top half, the NIC-specific part of the MAC below. */
	hw->serial = (uint64_t)WREN_MAGIC << 32 |
		     (uint32_t)hw->mac[2] << 24 | (uint32_t)hw->mac[3] << 16 |
		     (uint32_t)hw->mac[4] << 8 | hw->mac[5];
	hw->port.phys_up = false;
	hw->port.phys_speed = hw->link_speed;
	if (!hw->lb || tables_init(hw)) {
		tables_fini(hw);
		free(hw->lb);
		free(hw);
		return NULL;
	}
	whw_state_reset(hw);
	return hw;
}

void wrenhw_destroy(struct wrenhw *hw)
{
	if (!hw)
		return;
	whw_objects_destroy_all(hw);
	whw_ring_free(hw, &hw->aq.ring);
	whw_ring_free(hw, &hw->acq.ring);
	whw_ring_free(hw, &hw->aeq.ring);
	tables_fini(hw);
	free(hw->lb);
	free(hw);
}

/* Everything back to power-on, except the board and the wire's state. */
void whw_state_reset(struct wrenhw *hw)
{
	whw_objects_destroy_all(hw);
	whw_ring_free(hw, &hw->aq.ring);
	whw_ring_free(hw, &hw->acq.ring);
	whw_ring_free(hw, &hw->aeq.ring);
	memset(&hw->aq, 0, sizeof(hw->aq));
	memset(&hw->acq, 0, sizeof(hw->acq));
	memset(&hw->aeq, 0, sizeof(hw->aeq));
	hw->aeq_dropped = 0;
	hw->aeq_overrun_pending = false;
	hw->control = 0;
	hw->fatal_syndrome = WREN_FATAL_NONE;
	hw->fatal_info = 0;
	hw->mgmt_vector = 0;
	hw->aq_error = 0;
	hw->aq_stall_armed = false;
	whw_aq_late_cancel(hw);
	hw->aq_stalled = false;
	hw->diag_fatal_pending = false;
	hw->aeq_broken = false;
	hw->drop_eqes = 0;
	hw->last_db_err_queue = UINT32_MAX;
	hw->epoch_ns = whw_now(hw);
	hw->heartbeat_frozen = 0;
	memset(hw->gids, 0, sizeof(hw->gids));
	hw->lb_head = hw->lb_count = 0;
	hw->roce_work = false;
	hw->rss_table_size = 0;
	hw->rss_hash_types = 0;
	memset(hw->rss_key, 0, sizeof(hw->rss_key));
	memset(hw->rss_table, 0, sizeof(hw->rss_table));
	hw->rx_mode_flags = 0;
	hw->rx_num_macs = 0;
	memset(hw->rx_macs, 0, sizeof(hw->rx_macs));
	hw->port.admin_up = true;
	hw->port.flapping = false;
	hw->port.pause = 0;
	hw->port.mtu = 1500;
	memcpy(hw->port.mac, hw->mac, sizeof(hw->mac));
	hw->port.link_down_count = 0;
	hw->port.reported_active = hw->port.phys_up;
	whw_dcb_defaults(hw);
	memset(hw->cnt_port, 0, sizeof(hw->cnt_port));
	memset(hw->cnt_rdma, 0, sizeof(hw->cnt_rdma));
	memset(hw->cnt_prio, 0, sizeof(hw->cnt_prio));
	memset(hw->cnt_cc, 0, sizeof(hw->cnt_cc));
	hw->status = WREN_STATUS_READY |
		     (hw->port.phys_up ? WREN_STATUS_LINK_UP : 0);
	whw_timer_rearm(hw);
}

void wrenhw_reset(struct wrenhw *hw)
{
	whw_state_reset(hw);
}

#ifdef WHW_TEST_HOOKS
void whw_test_set_caps(struct wrenhw *hw, uint64_t caps)
{
	hw->caps = caps & ~(uint64_t)WHW_CAPS_NEVER;
}
#endif

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
	hw->heartbeat_frozen = whw_reg_read(hw, WREN_REG_HEARTBEAT);
	/* Posted before FATAL is set, so that it gets out if it can. */
	whw_aeq_post(hw, WREN_EVENT_DEVICE_FATAL, 0, syndrome, info);
	hw->status |= WREN_STATUS_FATAL;
}

void whw_timer_rearm(struct wrenhw *hw)
{
	uint64_t deadline = UINT64_MAX;

	if (hw->port.flapping)
		deadline = hw->port.flap_until_ns;
	if (whw_timers_next(hw) < deadline)
		deadline = whw_timers_next(hw);
	if (hw->ops->timer_mod)
		hw->ops->timer_mod(hw->opaque, deadline);
}

void wrenhw_timer_expired(struct wrenhw *hw)
{
	uint64_t now = whw_now(hw);

	whw_port_timer(hw, now);
	whw_timers_run(hw, now);
	whw_timer_rearm(hw);
}

uint64_t wrenhw_bar_size(const struct wrenhw *hw, unsigned int bar)
{
	switch (bar) {
	case WREN_BAR_REGS:
		return WREN_REGS_SIZE;
	case WREN_BAR_DB:
		return (uint64_t)hw->num_db_pages << WREN_DB_PAGE_SHIFT;
	default:
		return 0;
	}
}

uint64_t wrenhw_mmio_read(struct wrenhw *hw, unsigned int bar, uint64_t off,
			  unsigned int size)
{
	if (bar != WREN_BAR_REGS)
		return 0;	/* doorbell pages are write-only */
	if (off >= WREN_REGS_SIZE || (off & (size - 1)))
		return UINT64_MAX;
	if (size == 4)
		return whw_reg_read(hw, off);
	if (size == 8)
		return whw_reg_read(hw, off) |
		       (uint64_t)whw_reg_read(hw, off + 4) << 32;
	return UINT64_MAX;
}

void wrenhw_mmio_write(struct wrenhw *hw, unsigned int bar, uint64_t off,
		       uint64_t val, unsigned int size)
{
	if (bar == WREN_BAR_DB) {
		whw_db_write(hw, off, val, size);
		return;
	}
	if (bar != WREN_BAR_REGS || off >= WREN_REGS_SIZE || !size ||
	    (off & (size - 1)))
		return;
	if (size == 4) {
		whw_reg_write(hw, off, (uint32_t)val);
	} else if (size == 8) {
		/* A 64-bit access is two 32-bit ones, low half first. */
		whw_reg_write(hw, off, (uint32_t)val);
		whw_reg_write(hw, off + 4, (uint32_t)(val >> 32));
	}
}

void wrenhw_process(struct wrenhw *hw)
{
	whw_aq_process(hw);
	whw_eth_tx_process(hw);
	whw_roce_process(hw);
}
