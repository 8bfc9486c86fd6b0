/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The multicast group table (cmd_mcast.c; wren_admin.h "Multicast"): which
 * UD QPs receive the RoCEv2 packets sent to a multicast GID.
 */
#ifndef WHW_MCAST_H
#define WHW_MCAST_H

#include <stdbool.h>
#include <stdint.h>

#include "../whw_board.h"

struct wrenhw;

/* One group: entries 0 .. mcast_groups - 1 of wrenhw.mcast are in use. */
struct whw_mcast_group {
	uint8_t gid[16];
	uint8_t mac[6];		/* wren_mcast_mac() of gid */
	uint32_t nqp;
	uint32_t qpn[WHW_MAX_MCAST_QP_ATTACH];
};

/* The group of @gid (16 bytes), or NULL. */
const struct whw_mcast_group *whw_mcast_find(const struct wrenhw *hw,
					     const uint8_t *gid);
/* Whether a group in the table has the Ethernet address @mac. */
bool whw_mcast_mac_member(const struct wrenhw *hw, const uint8_t *mac);
/* A QP is going away (destroy or reset): out of every group. */
void whw_mcast_detach_qp(struct wrenhw *hw, uint32_t qpn);
/* Device reset: an empty table. */
void whw_mcast_reset(struct wrenhw *hw);

#endif
