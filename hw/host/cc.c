// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DCQCN profiles through SET_CC (cc.h).  The power-on values come from
 * the contract (wren_admin.h), the published ones are written here once.
 */
#include <string.h>

#include "cc.h"

static void mlx5(struct wren_cc_params *cc)
{
	cc->np_min_time_between_cnps_us =
		WREN_DCQCN_NP_MIN_TIME_BETWEEN_CNPS_DEFAULT_US;
	cc->np_cnp_dscp = WREN_DCQCN_NP_CNP_DSCP_DEFAULT;
	cc->np_cnp_prio = WREN_DCQCN_NP_CNP_PRIO_DEFAULT;
	cc->rp_initial_alpha = WREN_DCQCN_RP_INITIAL_ALPHA_DEFAULT;
	cc->rp_g = WREN_DCQCN_RP_G_DEFAULT;
	cc->rp_alpha_update_us = WREN_DCQCN_RP_ALPHA_UPDATE_DEFAULT_US;
	cc->rp_time_reset_us = WREN_DCQCN_RP_TIME_RESET_DEFAULT_US;
	cc->rp_byte_reset = WREN_DCQCN_RP_BYTE_RESET_DEFAULT;
	cc->rp_threshold = WREN_DCQCN_RP_THRESHOLD_DEFAULT;
	cc->rp_ai_rate_mbps = WREN_DCQCN_RP_AI_RATE_DEFAULT_MBPS;
	cc->rp_hai_rate_mbps = WREN_DCQCN_RP_HAI_RATE_DEFAULT_MBPS;
	cc->rp_min_rate_mbps = WREN_DCQCN_RP_MIN_RATE_DEFAULT_MBPS;
	cc->rp_rate_reduce_period_us =
		WREN_DCQCN_RP_RATE_REDUCE_PERIOD_DEFAULT_US;
	cc->rp_max_rate_mbps = WREN_DCQCN_RP_MAX_RATE_DEFAULT_MBPS;
	cc->rp_rate_on_first_cnp_mbps =
		WREN_DCQCN_RP_RATE_ON_FIRST_CNP_DEFAULT_MBPS;
	cc->rp_min_dec_fac = WREN_DCQCN_RP_MIN_DEC_FAC_DEFAULT;
	cc->rp_gd = WREN_DCQCN_RP_GD_DEFAULT;
	cc->rp_clamp_tgt_rate = WREN_DCQCN_RP_CLAMP_TGT_RATE_DEFAULT;
}

void ro_cc_profile(struct wren_cc_params *cc, enum ro_cc_profile profile,
		   uint8_t prio_mask, uint32_t link_mbps)
{
	memset(cc, 0, sizeof(*cc));
	mlx5(cc);
	cc->prio_mask = prio_mask;
	cc->np_enable = 1;
	cc->rp_enable = 1;
	cc->ecn_enable = 1;
	switch (profile) {
	case RO_CC_MLX5:
		break;
	case RO_CC_PAPER:
		cc->np_min_time_between_cnps_us = 50;
		cc->rp_g = 4;			/* 1/256 in 1/1024 units */
		cc->rp_alpha_update_us = 55;
		cc->rp_time_reset_us = 55;
		cc->rp_byte_reset = 10000000;
		cc->rp_threshold = 5;
		cc->rp_ai_rate_mbps = 40;
		cc->rp_hai_rate_mbps = 200;
		/* A rate is cut once per CNP, and CNPs come 50 us apart. */
		cc->rp_rate_reduce_period_us = 50;
		break;
	case RO_CC_HPCC:
		cc->np_min_time_between_cnps_us = 0;
		cc->rp_g = 4;
		cc->rp_alpha_update_us = 1;
		cc->rp_rate_reduce_period_us = 4;
		cc->rp_time_reset_us = 300;
		cc->rp_byte_reset = 0;
		cc->rp_threshold = 1;
		cc->rp_ai_rate_mbps = (uint32_t)(5ull * link_mbps / 25000);
		cc->rp_hai_rate_mbps = (uint32_t)(50ull * link_mbps / 25000);
		cc->rp_min_rate_mbps = 1000;
		cc->rp_clamp_tgt_rate = 0;
		break;
	}
}

int ro_cc_set(struct td *d, enum ro_cc_profile profile, uint8_t prio_mask,
	      uint32_t link_mbps)
{
	struct wren_cc_params cc;
	struct td_res r;

	ro_cc_profile(&cc, profile, prio_mask, link_mbps);
	r = td_cmd(d, WREN_AQ_OP_SET_CC, NULL, 0, &cc, sizeof(cc), NULL, 0);
	return r.completed ? r.status : -1;
}

int ro_pfc_set(struct td *d, uint8_t pfc_en)
{
	struct wren_pfc p;
	struct td_res r;

	memset(&p, 0, sizeof(p));
	p.pfc_en = pfc_en;
	r = td_cmd(d, WREN_AQ_OP_SET_PFC, NULL, 0, &p, sizeof(p), NULL, 0);
	return r.completed ? r.status : -1;
}

int ro_trust_dscp(struct td *d)
{
	struct wren_trust t;
	struct td_res r;

	memset(&t, 0, sizeof(t));
	t.trust = WREN_TRUST_DSCP;
	for (unsigned int i = 0; i < WREN_NUM_DSCP; i++)
		t.dscp2prio[i] = (uint8_t)(i >> 3);
	r = td_cmd(d, WREN_AQ_OP_SET_TRUST, NULL, 0, &t, sizeof(t), NULL, 0);
	return r.completed ? r.status : -1;
}

int ro_maxrate_set(struct td *d, uint8_t tc, uint64_t kbps)
{
	struct wren_dcb_state st;
	struct td_res r;

	/* The other classes keep their caps: read them first. */
	memset(&st, 0, sizeof(st));
	r = td_cmd(d, WREN_AQ_OP_QUERY_DCB, NULL, 0, NULL, 0, &st, sizeof(st));
	if (!r.completed || r.status)
		return r.completed ? r.status : -1;
	st.maxrate.tc_maxrate_kbps[tc & (WREN_NUM_TC - 1)] = kbps;
	r = td_cmd(d, WREN_AQ_OP_SET_MAXRATE, NULL, 0, &st.maxrate,
		   sizeof(st.maxrate), NULL, 0);
	return r.completed ? r.status : -1;
}
