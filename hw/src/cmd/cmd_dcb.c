// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DCB and congestion control settings: ETS, PFC, trust/DSCP map, port
 * buffers, per-TC max rate, PFC storm watchdog, DCQCN parameters.  They
 * are validated and kept (QUERY_DCB/QUERY_CC read them back); the
 * schedulers that act on them come with the engines that carry traffic.
 */
#include <string.h>

#include "../port/whw_rxbuf.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_err.h"
#include "../whw_objects.h"
#include "whw_cmd.h"
#include "whw_handlers.h"

#define SYND_ETS(f)	WHW_SYND_IN(struct wren_ets, f)
#define SYND_PFC(f)	WHW_SYND_IN(struct wren_pfc, f)
#define SYND_TRUST(f)	WHW_SYND_IN(struct wren_trust, f)
#define SYND_BUF(f)	WHW_SYND_IN(struct wren_buffer, f)
#define SYND_RATE(f)	WHW_SYND_IN(struct wren_maxrate, f)
#define SYND_WD(f)	WHW_SYND_IN(struct wren_pfc_wd, f)
#define SYND_CC(f)	WHW_SYND_IN(struct wren_cc_params, f)

static uint32_t at_most(uint32_t v, uint32_t max)
{
	return v < max ? v : max;
}

/* The contract's power-on values; the enables stay 0. */
static void cc_defaults(struct wren_cc_params *p, uint32_t speed)
{
	memset(p, 0, sizeof(*p));
	p->np_min_time_between_cnps_us =
		whw_le32(WREN_DCQCN_NP_MIN_TIME_BETWEEN_CNPS_DEFAULT_US);
	p->np_cnp_dscp = WREN_DCQCN_NP_CNP_DSCP_DEFAULT;
	p->np_cnp_prio = WREN_DCQCN_NP_CNP_PRIO_DEFAULT;
	p->rp_initial_alpha = whw_le32(WREN_DCQCN_RP_INITIAL_ALPHA_DEFAULT);
	p->rp_g = whw_le32(WREN_DCQCN_RP_G_DEFAULT);
	p->rp_alpha_update_us = whw_le32(WREN_DCQCN_RP_ALPHA_UPDATE_DEFAULT_US);
	p->rp_time_reset_us = whw_le32(WREN_DCQCN_RP_TIME_RESET_DEFAULT_US);
	p->rp_byte_reset = whw_le32(WREN_DCQCN_RP_BYTE_RESET_DEFAULT);
	p->rp_threshold = whw_le32(WREN_DCQCN_RP_THRESHOLD_DEFAULT);
	/* A rate above the link's would be refused by check_cc(). */
	p->rp_ai_rate_mbps =
		whw_le32(at_most(WREN_DCQCN_RP_AI_RATE_DEFAULT_MBPS, speed));
	p->rp_hai_rate_mbps =
		whw_le32(at_most(WREN_DCQCN_RP_HAI_RATE_DEFAULT_MBPS, speed));
	p->rp_min_rate_mbps = whw_le32(WREN_DCQCN_RP_MIN_RATE_DEFAULT_MBPS);
	p->rp_rate_reduce_period_us =
		whw_le32(WREN_DCQCN_RP_RATE_REDUCE_PERIOD_DEFAULT_US);
	p->rp_max_rate_mbps = whw_le32(WREN_DCQCN_RP_MAX_RATE_DEFAULT_MBPS);
	p->rp_rate_on_first_cnp_mbps =
		whw_le32(WREN_DCQCN_RP_RATE_ON_FIRST_CNP_DEFAULT_MBPS);
	p->rp_min_dec_fac = WREN_DCQCN_RP_MIN_DEC_FAC_DEFAULT;
	p->rp_gd = WREN_DCQCN_RP_GD_DEFAULT;
	p->rp_clamp_tgt_rate = WREN_DCQCN_RP_CLAMP_TGT_RATE_DEFAULT;
}

void whw_dcb_defaults(struct wrenhw *hw)
{
	static const uint8_t bw[WREN_NUM_TC] = { 12, 12, 12, 12, 13, 13, 13, 13 };
	struct whw_dcb *d = &hw->dcb;
	struct wren_dcb_state *st = &d->state;

	memset(d, 0, sizeof(*d));
	for (unsigned int i = 0; i < WREN_NUM_TC; i++) {
		st->ets.tc_tsa[i] = WREN_TSA_ETS;
		st->ets.tc_bw[i] = bw[i];
		st->ets.prio_tc[i] = (uint8_t)i;
		st->buffer.prio2buffer[i] = 0;
	}
	st->trust.trust = WREN_TRUST_PCP;
	for (unsigned int i = 0; i < WREN_NUM_DSCP; i++)
		st->trust.dscp2prio[i] = (uint8_t)(i >> 3);
	st->buffer.size[0] = whw_le32(WHW_PORT_BUFFER_BYTES);
	for (unsigned int i = 0; i < WREN_NUM_PRIO; i++)
		cc_defaults(&d->cc[i], hw->link_speed);
}

struct whw_err whw_cmd_set_ets(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_ets *in = (const void *)c->in;
	unsigned int sum = 0;
	bool any_ets = false;
	struct whw_err err;

	err = whw_check_rsvd_in(c, offsetof(struct wren_ets, rsvd),
				sizeof(in->rsvd));
	if (err.status)
		return err;
	for (unsigned int i = 0; i < WREN_NUM_TC; i++) {
		if (in->tc_tsa[i] != WREN_TSA_STRICT &&
		    in->tc_tsa[i] != WREN_TSA_ETS)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_ETS(tc_tsa) + i);
		if (in->tc_bw[i] > 100)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_ETS(tc_bw) + i);
		if (in->tc_tsa[i] == WREN_TSA_ETS) {
			any_ets = true;
			sum += in->tc_bw[i];
		}
		if (in->prio_tc[i] >= WREN_NUM_TC)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_ETS(prio_tc) + i);
	}
	/* Strict TCs' bandwidth is not used; ETS TCs share 100 %. */
	if (any_ets && sum != 100)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_ETS(tc_bw));
	hw->dcb.state.ets = *in;
	return WHW_OK;
}

struct whw_err whw_cmd_set_pfc(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_pfc *in = (const void *)c->in;
	struct whw_err err;

	if (in->rsvd0)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_PFC(rsvd0));
	err = whw_check_rsvd_in(c, offsetof(struct wren_pfc, rsvd),
				sizeof(in->rsvd));
	if (err.status)
		return err;
	/* PFC and 802.3x pause exclude each other, as on real NICs. */
	if (in->pfc_en && hw->port.pause)
		return WHW_ERR(WREN_AQ_STATUS_BAD_STATE, SYND_PFC(pfc_en));
	hw->dcb.state.pfc = *in;
	whw_rxbuf_fc_update(hw);
	return WHW_OK;
}

struct whw_err whw_cmd_set_trust(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_trust *in = (const void *)c->in;
	struct whw_err err;

	err = whw_check_rsvd_in(c, offsetof(struct wren_trust, rsvd0),
				sizeof(in->rsvd0));
	if (err.status)
		return err;
	if (in->trust != WREN_TRUST_PCP && in->trust != WREN_TRUST_DSCP)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_TRUST(trust));
	for (unsigned int i = 0; i < sizeof(in->dscp2prio); i++)
		if (in->dscp2prio[i] >= WREN_NUM_PRIO)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_TRUST(dscp2prio) + i);
	hw->dcb.state.trust = *in;
	return WHW_OK;
}

struct whw_err whw_cmd_set_buffer(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_buffer *in = (const void *)c->in;
	uint64_t total = 0;

	if (in->rsvd)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_BUF(rsvd));
	for (unsigned int i = 0; i < WREN_NUM_PRIO; i++) {
		uint32_t size = whw_le32(in->size[i]);
		uint32_t xoff = whw_le32(in->xoff[i]);
		uint32_t xon = whw_le32(in->xon[i]);

		total += size;
		if (xoff > size)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_BUF(xoff) + i * 4);
		if (xon > xoff)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_BUF(xon) + i * 4);
		if (in->prio2buffer[i] >= WREN_NUM_PRIO)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_BUF(prio2buffer) + i);
	}
	if (total > WHW_PORT_BUFFER_BYTES)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_BUF(size));
	/* total_size is the device's to report; what was sent is ignored. */
	hw->dcb.state.buffer = *in;
	hw->dcb.state.buffer.total_size = 0;
	whw_rxbuf_fc_update(hw);
	return WHW_OK;
}

struct whw_err whw_cmd_set_maxrate(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_maxrate *in = (const void *)c->in;
	uint64_t max_kbps = (uint64_t)hw->link_speed * 1000;

	for (unsigned int i = 0; i < WREN_NUM_TC; i++)
		if (whw_le64(in->tc_maxrate_kbps[i]) > max_kbps)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_RATE(tc_maxrate_kbps) + i * 8);
	hw->dcb.state.maxrate = *in;
	return WHW_OK;
}

struct whw_err whw_cmd_set_pfc_wd(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_pfc_wd *in = (const void *)c->in;
	struct whw_err err;

	err = whw_check_rsvd_in(c, offsetof(struct wren_pfc_wd, rsvd),
				sizeof(in->rsvd));
	if (err.status)
		return err;
	if (whw_le16(in->timeout_ms) > WREN_PFC_WD_MAX_MS)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_WD(timeout_ms));
	if (whw_le16(in->recovery_ms) > WREN_PFC_WD_MAX_MS)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_WD(recovery_ms));
	hw->dcb.state.pfc_wd = *in;
	whw_rxbuf_fc_update(hw);
	return WHW_OK;
}

struct whw_err whw_cmd_query_dcb(struct wrenhw *hw, struct whw_cmd *c)
{
	struct wren_dcb_state *o = (struct wren_dcb_state *)c->out;

	*o = hw->dcb.state;
	o->buffer.total_size = whw_le32(WHW_PORT_BUFFER_BYTES);
	o->pfc_storm = hw->dcb.rx_storm | hw->dcb.tx_storm;
	c->out_size = sizeof(*o);
	return WHW_OK;
}

static struct whw_err check_cc(const struct wrenhw *hw,
			       const struct wren_cc_params *p)
{
	uint32_t speed = hw->link_speed;
	size_t bad;

	if (!p->prio_mask)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CC(prio_mask));
	if (p->np_enable > 1)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CC(np_enable));
	if (p->rp_enable > 1)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CC(rp_enable));
	if (p->ecn_enable > 1)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CC(ecn_enable));
	if (whw_le32(p->np_min_time_between_cnps_us) > WREN_DCQCN_TIME_MAX_US)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_CC(np_min_time_between_cnps_us));
	if (p->np_cnp_dscp >= WREN_NUM_DSCP)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CC(np_cnp_dscp));
	if (p->np_cnp_prio >= WREN_NUM_PRIO)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CC(np_cnp_prio));
	if (p->rsvd0)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CC(rsvd0));
	if (whw_le32(p->rp_initial_alpha) > WREN_DCQCN_ALPHA_MAX)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_CC(rp_initial_alpha));
	if (whw_le32(p->rp_g) > WREN_DCQCN_RP_G_MAX)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CC(rp_g));
	if (whw_le32(p->rp_alpha_update_us) < WREN_DCQCN_RP_ALPHA_UPDATE_MIN_US ||
	    whw_le32(p->rp_alpha_update_us) > WREN_DCQCN_TIME_MAX_US)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_CC(rp_alpha_update_us));
	if (whw_le32(p->rp_time_reset_us) < WREN_DCQCN_RP_TIME_RESET_MIN_US ||
	    whw_le32(p->rp_time_reset_us) > WREN_DCQCN_TIME_MAX_US)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_CC(rp_time_reset_us));
	if (whw_le32(p->rp_byte_reset) > WREN_DCQCN_RP_BYTE_RESET_MAX)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CC(rp_byte_reset));
	if (whw_le32(p->rp_threshold) < WREN_DCQCN_RP_THRESHOLD_MIN ||
	    whw_le32(p->rp_threshold) > WREN_DCQCN_RP_THRESHOLD_MAX)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CC(rp_threshold));
	if (whw_le32(p->rp_ai_rate_mbps) > speed)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_CC(rp_ai_rate_mbps));
	if (whw_le32(p->rp_hai_rate_mbps) > speed)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_CC(rp_hai_rate_mbps));
	if (whw_le32(p->rp_min_rate_mbps) < WREN_DCQCN_RP_MIN_RATE_MIN_MBPS ||
	    whw_le32(p->rp_min_rate_mbps) > speed)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_CC(rp_min_rate_mbps));
	if (whw_le32(p->rp_rate_reduce_period_us) > WREN_DCQCN_TIME_MAX_US)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_CC(rp_rate_reduce_period_us));
	if (whw_le32(p->rp_max_rate_mbps) > speed ||
	    (p->rp_max_rate_mbps &&
	     whw_le32(p->rp_max_rate_mbps) < whw_le32(p->rp_min_rate_mbps)))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_CC(rp_max_rate_mbps));
	if (whw_le32(p->rp_rate_on_first_cnp_mbps) > speed)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_CC(rp_rate_on_first_cnp_mbps));
	if (p->rp_min_dec_fac < WREN_DCQCN_RP_MIN_DEC_FAC_MIN ||
	    p->rp_min_dec_fac > WREN_DCQCN_RP_MIN_DEC_FAC_MAX)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_CC(rp_min_dec_fac));
	if (p->rp_gd < WREN_DCQCN_RP_GD_MIN || p->rp_gd > WREN_DCQCN_RP_GD_MAX)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CC(rp_gd));
	if (p->rp_clamp_tgt_rate > 1)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_CC(rp_clamp_tgt_rate));
	if (p->rsvd1)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CC(rsvd1));
	if (!whw_all_zero(p->rsvd, sizeof(p->rsvd), &bad))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_CC(rsvd) + (uint32_t)bad);
	return WHW_OK;
}

struct whw_err whw_cmd_set_cc(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_cc_params *in = (const void *)c->in;
	struct whw_err err = check_cc(hw, in);

	if (err.status)
		return err;
	for (unsigned int i = 0; i < WREN_NUM_PRIO; i++) {
		if (in->prio_mask & (1u << i)) {
			hw->dcb.cc[i] = *in;
			hw->dcb.cc[i].prio_mask = (uint8_t)(1u << i);
		}
	}
	return WHW_OK;
}

/* QUERY_CC names its priority in the generic inline handle word. */
struct whw_err whw_cmd_query_cc(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_aq_handle *h = &c->cmd->u.handle;
	uint32_t prio = whw_le32(h->handle);
	struct whw_err err;

	err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd, u.handle.rsvd),
				 sizeof(h->rsvd));
	if (err.status)
		return err;
	if (prio >= WREN_NUM_PRIO)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       WHW_SYND_CMD(u.handle.handle));
	memcpy(c->out, &hw->dcb.cc[prio], sizeof(hw->dcb.cc[prio]));
	c->out_size = sizeof(hw->dcb.cc[prio]);
	return WHW_OK;
}
