/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * DCQCN profiles, set through SET_CC as wren.ko's devlink parameters set
 * them, and PFC and DSCP trust as its dcbnl ops do.  The profiles: the
 * NIC's power-on values (mlx5's defaults), the DCQCN paper's and the
 * settings of HPCC's simulator, so a simulation can put its results
 * beside theirs.
 */
#ifndef WRENHOST_CC_H
#define WRENHOST_CC_H

#include "drv.h"

enum ro_cc_profile {
	/* The contract's defaults: mlx5's (ConnectX-4 and later). */
	RO_CC_MLX5,
	/*
	 * Zhu et al., SIGCOMM 2015: g 1/256, CNPs at most every 50 us, alpha
	 * every 55 us, timer 55 us, byte counter 10 MB, F 5, R_AI 40 Mb/s,
	 * R_HAI 200 Mb/s (the authors' simulator's; the paper gives none).
	 */
	RO_CC_PAPER,
	/*
	 * HPCC's simulator (Li et al., SIGCOMM 2019), its "dcqcn" profile:
	 * alpha every 1 us, cuts every 4 us, timer 300 us, no byte counter,
	 * F 1, R_AI 5 and R_HAI 50 Mb/s per 25 Gb/s of link, a 1 Gb/s floor,
	 * no target clamp, a CNP for every marked packet.
	 */
	RO_CC_HPCC,
};

/*
 * Fills @cc with @profile for a @link_mbps link, ECN, the notification
 * and the reaction point on, for the priorities in @prio_mask.
 */
void ro_cc_profile(struct wren_cc_params *cc, enum ro_cc_profile profile,
		   uint8_t prio_mask, uint32_t link_mbps);
/* SET_CC with @profile; returns 0 or the command's status (-1: none). */
int ro_cc_set(struct td *d, enum ro_cc_profile profile, uint8_t prio_mask,
	      uint32_t link_mbps);
/* SET_PFC: PFC on the priorities in @pfc_en; 0 or the status. */
int ro_pfc_set(struct td *d, uint8_t pfc_en);
/*
 * SET_TRUST: classify received IP frames by DSCP, priority = DSCP >> 3
 * (the DSCP a flow's priority is sent with, flow.h); 0 or the status.
 */
int ro_trust_dscp(struct td *d);
/* SET_MAXRATE: traffic class @tc shaped to @kbps (0: unlimited). */
int ro_maxrate_set(struct td *d, uint8_t tc, uint64_t kbps);

#endif
