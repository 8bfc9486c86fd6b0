// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device-wide commands: NOP, QUERY_DEVICE, QUERY_PORT, SET_PORT, the
 * counter sets, DIAG_FAULT and SET_CLOCK (the clock itself runs in
 * services.c).
 */
#include <string.h>

#include "../core/whw_services.h"
#include "../core/whw_table.h"
#include "../core/whw_timer.h"
#include "../port/whw_port.h"
#include "../port/whw_rxbuf.h"
#include "../port/whw_sched.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_err.h"
#include "../whw_objects.h"
#include "whw_cmd.h"
#include "whw_handlers.h"

struct whw_err whw_cmd_nop(struct wrenhw *hw, struct whw_cmd *c)
{
	(void)hw;
	(void)c;
	return WHW_OK;
}

struct whw_err whw_cmd_query_device(struct wrenhw *hw, struct whw_cmd *c)
{
	struct wren_device_attr *a = (struct wren_device_attr *)c->out;

	a->caps = whw_le64(hw->caps);
	a->fw_version = whw_le32(WHW_FW_VERSION);
	a->fw_build = whw_le32(WHW_FW_BUILD);
	a->contract_major = whw_le16(WREN_CONTRACT_MAJOR);
	a->contract_minor = whw_le16(WREN_CONTRACT_MINOR);
	a->num_msix = whw_le16((uint16_t)hw->num_msix);
	/* wrenhw_create() keeps it within 16 bits: same as NUM_DB_PAGES. */
	a->num_db_pages = whw_le16((uint16_t)hw->num_db_pages);
	a->max_qp = whw_le32(hw->max_qp);
	a->max_qp_wr = whw_le32(1u << WHW_MAX_QP_LOG_SIZE);
	a->max_cq = whw_le32(hw->max_cq);
	a->max_cqe = whw_le32(1u << WREN_CQ_LOG_SIZE_MAX);
	a->max_eq = whw_le32(hw->max_eq);
	a->max_eqe = whw_le32(1u << WREN_EQ_LOG_SIZE_MAX);
	a->max_srq = whw_le32(hw->max_srq);
	a->max_srq_wr = whw_le32(1u << WHW_MAX_QP_LOG_SIZE);
	a->max_pd = whw_le32(hw->max_pd);
	a->max_mr = whw_le32(hw->max_mr);
	a->max_mtt = whw_le32(hw->max_mtt);
	a->max_ah = whw_le32(hw->max_ah);
	a->max_mr_size = whw_le64(WHW_MAX_MR_SIZE);
	a->page_size_cap = whw_le64(WHW_PAGE_SIZE_CAP);
	a->max_sge = whw_le16(WHW_MAX_SGE);
	a->max_sge_rd = whw_le16(WHW_MAX_SGE);
	a->max_inline = whw_le16(WHW_MAX_INLINE);
	a->max_gid = whw_le16(WHW_MAX_GID);
	a->max_qp_rd_atom = WHW_MAX_RD_ATOM;
	a->max_qp_init_rd_atom = WHW_MAX_RD_ATOM;
	a->local_ack_delay = WHW_LOCAL_ACK_DELAY;
	a->num_ports = 1;
	a->max_msg_size = whw_le32(WHW_MAX_MSG_SIZE);
	a->max_eth_queues = whw_le16(WHW_MAX_ETH_QUEUES);
	a->max_mtu = whw_le16(WHW_MAX_MTU);
	if (hw->caps & WREN_CAP_RDMA_RESERVED_LKEY)
		a->reserved_lkey = whw_le32(WHW_RESERVED_LKEY);
	if (hw->caps & WREN_CAP_RDMA_MW)
		a->max_mw = whw_le32(hw->max_mw);
	if (hw->caps & WREN_CAP_RDMA_XRC)
		a->max_xrcd = whw_le32(WHW_MAX_XRCD);
	if (hw->caps & WREN_CAP_RDMA_MCAST) {
		a->max_mcast_grp = whw_le32(WHW_MAX_MCAST_GRP);
		a->max_mcast_qp_attach = whw_le32(WHW_MAX_MCAST_QP_ATTACH);
	}
	a->max_sq_wqe_shift = WHW_MAX_SQ_WQE_SHIFT;
	a->max_rq_wqe_shift = WHW_MAX_RQ_WQE_SHIFT;
	memcpy(a->mac, hw->port.mac, sizeof(a->mac));
	a->serial = whw_le64(hw->serial);
	memcpy(a->board_id, WHW_BOARD_ID, sizeof(WHW_BOARD_ID));
	c->out_size = sizeof(*a);
	return WHW_OK;
}

struct whw_err whw_cmd_query_port(struct wrenhw *hw, struct whw_cmd *c)
{
	struct wren_port_attr *a = (struct wren_port_attr *)c->out;

	a->state = hw->port.reported_active ? WREN_PORT_ACTIVE : WREN_PORT_DOWN;
	a->admin_up = hw->port.admin_up;
	a->pause = hw->port.pause;
	a->speed_mbps = whw_le32(hw->port.phys_speed);
	a->mtu = whw_le16(hw->port.mtu);
	a->max_mtu = whw_le16(WHW_MAX_MTU);
	memcpy(a->mac, hw->port.mac, sizeof(a->mac));
	a->link_down_count = whw_le32(hw->port.link_down_count);
	c->out_size = sizeof(*a);
	return WHW_OK;
}

#define SET_PORT_KNOWN	(WREN_SET_PORT_MTU | WREN_SET_PORT_ADMIN | \
			 WREN_SET_PORT_MAC | WREN_SET_PORT_PAUSE)
#define SYND_SP(f)	WHW_SYND_IN(struct wren_set_port_in, f)

static bool mac_is_unicast(const uint8_t *mac)
{
	static const uint8_t zero[6];

	return !(mac[0] & 1) && memcmp(mac, zero, 6);
}

struct whw_err whw_cmd_set_port(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_set_port_in *in = (const void *)c->in;
	uint32_t mask = whw_le32(in->mask);
	uint16_t mtu = whw_le16(in->mtu);
	struct whw_err err;

	err = whw_check_rsvd_in(c, offsetof(struct wren_set_port_in, rsvd0),
				sizeof(in->rsvd0) + sizeof(in->rsvd));
	if (err.status)
		return err;
	if (mask & ~SET_PORT_KNOWN)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_SP(mask));
	if ((mask & WREN_SET_PORT_MTU) &&
	    (mtu < WHW_MIN_MTU || mtu > WHW_MAX_MTU))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_SP(mtu));
	if ((mask & WREN_SET_PORT_ADMIN) && in->admin_up > 1)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_SP(admin_up));
	if ((mask & WREN_SET_PORT_PAUSE) &&
	    (in->pause & ~(WREN_PAUSE_RX | WREN_PAUSE_TX)))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_SP(pause));
	if ((mask & WREN_SET_PORT_MAC) && !mac_is_unicast(in->mac))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_SP(mac));
	/* 802.3x pause and PFC exclude each other (SET_PFC checks too). */
	if ((mask & WREN_SET_PORT_PAUSE) && in->pause &&
	    hw->dcb.state.pfc.pfc_en)
		return WHW_ERR(WREN_AQ_STATUS_BAD_STATE, SYND_SP(pause));
	if (mask & WREN_SET_PORT_MTU)
		hw->port.mtu = mtu;
	if (mask & WREN_SET_PORT_PAUSE) {
		hw->port.pause = in->pause;
		whw_rxbuf_fc_update(hw);
	}
	if (mask & WREN_SET_PORT_MAC)
		memcpy(hw->port.mac, in->mac, sizeof(hw->port.mac));
	if (mask & WREN_SET_PORT_ADMIN) {
		hw->port.admin_up = in->admin_up;
		whw_port_update(hw);
	}
	return WHW_OK;
}

/* ------------------------------------------------------------ counters */

#define SYND_CNT(f)	WHW_SYND_CMD(u.counters.f)
#define ETHQ_RX_BIT	0x80000000u	/* counters index: an RX queue */

/* Finds the counter block named by the command; n = number of __le64. */
static struct whw_err counter_block(struct wrenhw *hw, const struct whw_cmd *c,
				    uint64_t **block, uint32_t *n)
{
	const struct wren_aq_counters *q = &c->cmd->u.counters;
	uint32_t index = whw_le32(q->index);
	struct whw_eth_q *eq;
	struct whw_err err;

	err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd,
					     u.counters.rsvd0),
				 sizeof(q->rsvd0));
	if (!err.status)
		err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd,
						     u.counters.rsvd),
					 sizeof(q->rsvd));
	if (err.status)
		return err;
	if (q->set != WREN_COUNTERS_ETH_QUEUE && q->set != WREN_COUNTERS_PFC &&
	    index)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CNT(index));
	switch (q->set) {
	case WREN_COUNTERS_PORT:
		*block = hw->cnt_port;
		*n = WREN_NUM_PORT_COUNTERS;
		return WHW_OK;
	case WREN_COUNTERS_RDMA:
		*block = hw->cnt_rdma;
		*n = WREN_NUM_RDMA_COUNTERS;
		return WHW_OK;
	case WREN_COUNTERS_PRIO:
		whw_pause_account(hw);
		*block = &hw->cnt_prio[0][0];
		*n = WREN_NUM_PRIO * WREN_NUM_PRIO_COUNTERS;
		return WHW_OK;
	case WREN_COUNTERS_CC:
		*block = hw->cnt_cc;
		*n = WREN_NUM_CC_COUNTERS;
		return WHW_OK;
	case WREN_COUNTERS_ETH_QUEUE:
		eq = whw_table_get(index & ETHQ_RX_BIT ? &hw->rxqs : &hw->txqs,
				   index & ~ETHQ_RX_BIT);
		if (!eq)
			return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE,
				       SYND_CNT(index));
		*block = eq->counters;
		*n = WREN_NUM_ETH_QUEUE_COUNTERS;
		return WHW_OK;
	case WREN_COUNTERS_PFC:
		if (index >= WREN_NUM_PRIO)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_CNT(index));
		whw_rxbuf_account(hw);
		*block = hw->cnt_pfc[index];
		*n = WREN_NUM_PFC_COUNTERS;
		return WHW_OK;
	default:
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CNT(set));
	}
}

struct whw_err whw_cmd_query_counters(struct wrenhw *hw, struct whw_cmd *c)
{
	uint64_t *block;
	uint32_t n;
	struct whw_err err = counter_block(hw, c, &block, &n);

	if (err.status)
		return err;
	for (uint32_t i = 0; i < n && (i + 1) * 8 <= c->out_cap; i++) {
		uint64_t v = whw_le64(block[i]);

		memcpy(c->out + i * 8, &v, 8);
	}
	c->out_size = n * 8;
	c->result = n;
	return WHW_OK;
}

struct whw_err whw_cmd_clear_counters(struct wrenhw *hw, struct whw_cmd *c)
{
	uint64_t *block;
	uint32_t n;
	struct whw_err err = counter_block(hw, c, &block, &n);

	if (err.status)
		return err;
	memset(block, 0, (size_t)n * sizeof(*block));
	return WHW_OK;
}

/* ---------------------------------------------------------------- diag */

#define SYND_DIAG(f)	WHW_SYND_CMD(u.diag_fault.f)

struct whw_err whw_cmd_diag_fault(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_aq_diag_fault *d = &c->cmd->u.diag_fault;
	uint32_t arg = whw_le32(d->arg);
	struct whw_err err;

	err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd,
					     u.diag_fault.rsvd),
				 sizeof(d->rsvd));
	if (err.status)
		return err;
	switch (whw_le32(d->fault)) {
	case WREN_DIAG_FATAL:
		if (arg)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_DIAG(arg));
		/*
		 * Deferred to after this command's completion (see
		 * whw_aq_process): the driver sees OK, then the fatal event.
		 */
		hw->diag_fatal_pending = true;
		return WHW_OK;
	case WREN_DIAG_AQ_STALL:
		if (arg)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_DIAG(arg));
		hw->aq_stall_armed = true;
		return WHW_OK;
	case WREN_DIAG_AQ_LATE:
		if (!arg || arg > WHW_MAX_LATE_MS)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_DIAG(arg));
		hw->aq_late_ms = arg;
		return WHW_OK;
	case WREN_DIAG_DROP_EQE:
		if (!arg || arg > 65536)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_DIAG(arg));
		hw->drop_eqes = arg;
		return WHW_OK;
	case WREN_DIAG_LINK_FLAP:
		if (!arg || arg > WHW_MAX_FLAP_MS)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_DIAG(arg));
		hw->port.flapping = true;
		hw->port.flap_until_ns = whw_now(hw) + (uint64_t)arg * 1000000u;
		whw_port_update(hw);
		whw_timer_rearm(hw);
		return WHW_OK;
	case WREN_DIAG_RX_DRAIN:
		if (!whw_rxbuf_set_drain(hw, arg))
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_DIAG(arg));
		return WHW_OK;
	default:
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_DIAG(fault));
	}
}

struct whw_err whw_cmd_set_clock(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_aq_set_clock *s = &c->cmd->u.set_clock;
	struct whw_err err;

	err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd,
					     u.set_clock.rsvd),
				 sizeof(s->rsvd));
	if (err.status)
		return err;
	hw->clock_base = whw_le64(s->ns);
	hw->clock_set_ns = whw_now(hw);
	return WHW_OK;
}
