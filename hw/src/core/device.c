// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The device's life: creation from a board configuration, power-on/reset
 * state and destruction (both tear every object down).  The running
 * device's entry points are entry.c's; log, time and interrupts are
 * services.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "../port/whw_sched.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_control.h"
#include "whw_ring.h"
#include "whw_services.h"
#include "whw_table.h"
#include "whw_timer.h"
#include "wrenhw.h"

static uint32_t pick(unsigned int v, uint32_t def, uint32_t ceil)
{
	if (!v)
		return def;
	return v > ceil ? ceil : v;
}

_Static_assert(WHW_CEIL_OBJECTS <= 1u << WHW_QPN_SLOT_BITS,
	       "every QP slot fits below the QPN's tag");
_Static_assert(((WHW_QPN_TAGS - 1) << WHW_QPN_SLOT_BITS |
		(WHW_CEIL_OBJECTS - 1)) < WREN_QPN_MASK,
	       "no QPN reaches the multicast QPN 0xffffff");

static int tables_init(struct wrenhw *hw)
{
	int rc = 0;

	/* QP 0 is the (absent) SMI QP and 1 the GSI QP: others start at 2. */
	rc |= whw_table_init(&hw->qps, hw->max_qp, 2);
	whw_table_set_tags(&hw->qps, WHW_QPN_SLOT_BITS, WHW_QPN_TAGS);
	rc |= whw_table_init(&hw->cqs, hw->max_cq, 0);
	rc |= whw_table_init(&hw->eqs, hw->max_eq, 0);
	rc |= whw_table_init(&hw->srqs, hw->max_srq, 0);
	rc |= whw_table_init(&hw->pds, hw->max_pd, 1);
	/* MR index 0 would make key 0, which stacks treat as reserved. */
	rc |= whw_table_init(&hw->mrs, hw->max_mr, 1);
	rc |= whw_table_init(&hw->ahs, hw->max_ah, 1);
	/* Window keys take the indexes above the MRs' (cmd_mw.c). */
	rc |= whw_table_init(&hw->mws, hw->max_mw, 0);
	/* Domain 0 is none: WHW_MAX_XRCD from 1. */
	rc |= whw_table_init(&hw->xrcds, WHW_MAX_XRCD + 1, 1);
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
	whw_table_fini(&hw->mws);
	whw_table_fini(&hw->xrcds);
	whw_table_fini(&hw->uars);
	whw_table_fini(&hw->txqs);
	whw_table_fini(&hw->rxqs);
}

static void free_simple(struct whw_table *t)
{
	for (uint32_t i = 0; i < t->size; i++) {
		if (t->slots[i])
			t->gens[i]++;
		free(t->slots[i]);
		t->slots[i] = NULL;
	}
	t->used = 0;
	t->hint = t->first;
}

/* Every object, users before what they use (reset, destroy). */
static void objects_destroy_all(struct wrenhw *hw)
{
	void *o;

	for (uint32_t i = 0; i < hw->qps.size; i++)
		if ((o = whw_table_slot(&hw->qps, i)))
			whw_qp_free(hw, o);
	for (uint32_t i = 0; i < hw->srqs.size; i++)
		if ((o = whw_table_get(&hw->srqs, i)))
			whw_srq_free(hw, o);
	for (uint32_t i = 0; i < hw->txqs.size; i++)
		if ((o = whw_table_get(&hw->txqs, i)))
			whw_eth_q_free(hw, o);
	for (uint32_t i = 0; i < hw->rxqs.size; i++)
		if ((o = whw_table_get(&hw->rxqs, i)))
			whw_eth_q_free(hw, o);
	/* Windows before the MRs they are bound to. */
	for (uint32_t i = 0; i < hw->mws.size; i++)
		if ((o = whw_table_get(&hw->mws, i)))
			whw_mw_free(hw, o);
	for (uint32_t i = 0; i < hw->mrs.size; i++)
		if ((o = whw_table_get(&hw->mrs, i)))
			whw_mr_free(hw, o);
	for (uint32_t i = 0; i < hw->cqs.size; i++)
		if ((o = whw_table_get(&hw->cqs, i)))
			whw_cq_free(hw, o);
	for (uint32_t i = 0; i < hw->eqs.size; i++)
		if ((o = whw_table_get(&hw->eqs, i)))
			whw_eq_free(hw, o);
	free_simple(&hw->ahs);
	free_simple(&hw->pds);
	free_simple(&hw->xrcds);
	free_simple(&hw->uars);
	hw->kernel_uar.hdr.refs = 0;
	hw->mtt_used = 0;
	hw->rss_table_size = 0;
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
	/* max_mr + max_mw <= 2^17: every window key's index fits 24 bits. */
	hw->max_mw = pick(cfg->max_mw, WHW_DEF_MAX_MW, WHW_CEIL_OBJECTS);
	hw->caps = WHW_CAPS;
	if (cfg->no_dcb)
		hw->caps &= ~(uint64_t)(WHW_CAPS_DCB | WHW_CAPS_CC);
	/* "WREN" in the top half, the NIC-specific part of the MAC below. */
	hw->serial = (uint64_t)WREN_MAGIC << 32 | whw_rd32be(hw->mac + 2);
	hw->port.phys_up = false;
	hw->port.phys_speed = hw->link_speed;
	hw->sched.slack_ps = cfg->discrete_clock ? 0 :
			     WHW_SCHED_SLACK_NS * 1000u;
	if (tables_init(hw)) {
		tables_fini(hw);
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
	objects_destroy_all(hw);
	whw_ring_free(hw, &hw->aq.ring);
	whw_ring_free(hw, &hw->acq.ring);
	whw_ring_free(hw, &hw->aeq.ring);
	whw_sched_fini(hw);
	whw_rxbuf_fini(hw);
	tables_fini(hw);
	free(hw->lb);
	free(hw);
}

/* Everything back to power-on, except the board and the wire's state. */
void whw_state_reset(struct wrenhw *hw)
{
	objects_destroy_all(hw);
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
	whw_clock_reset(hw);
	hw->heartbeat_frozen = 0;
	memset(hw->gids, 0, sizeof(hw->gids));
	whw_mcast_reset(hw);
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
	whw_sched_reset(hw);
	whw_dcb_defaults(hw);
	whw_rxbuf_reset(hw);
	memset(hw->cnt_port, 0, sizeof(hw->cnt_port));
	memset(hw->cnt_rdma, 0, sizeof(hw->cnt_rdma));
	memset(hw->cnt_prio, 0, sizeof(hw->cnt_prio));
	memset(hw->cnt_cc, 0, sizeof(hw->cnt_cc));
	memset(hw->cnt_pfc, 0, sizeof(hw->cnt_pfc));
	hw->status = WREN_STATUS_READY |
		     (hw->port.phys_up ? WREN_STATUS_LINK_UP : 0);
	/* QEMU drops its timer on a reset: arm it from scratch. */
	whw_timer_host_expired(hw);
	whw_timer_rearm(hw);
}

void wrenhw_reset(struct wrenhw *hw)
{
	whw_state_reset(hw);
}

#ifdef WHW_TEST_HOOKS
void whw_test_set_caps(struct wrenhw *hw, uint64_t caps)
{
	hw->caps = caps;
}
#endif
