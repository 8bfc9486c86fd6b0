// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The multicast group table (WREN_CAP_RDMA_MCAST, wren_admin.h
 * "Multicast"): ATTACH_MCAST and DETACH_MCAST, and the lookups the
 * receive path (roce_rx.c, eth_rx.c's MAC filter) and the loopback of
 * roce_tx.c make.  The groups in use are packed at the front of the
 * table; a group that loses its last QP takes the last one's place.
 */
#include <string.h>

#include "../core/whw_table.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_err.h"
#include "../whw_objects.h"
#include "whw_cmd.h"
#include "whw_handlers.h"
#include "whw_mcast.h"

#define SYND_MC(f)	WHW_SYND_CMD(u.mcast.f)

static int group_index(const struct wrenhw *hw, const uint8_t *gid)
{
	for (uint32_t i = 0; i < hw->mcast_groups; i++)
		if (!memcmp(hw->mcast[i].gid, gid, 16))
			return (int)i;
	return -1;
}

const struct whw_mcast_group *whw_mcast_find(const struct wrenhw *hw,
					     const uint8_t *gid)
{
	int i = group_index(hw, gid);

	return i < 0 ? NULL : &hw->mcast[i];
}

bool whw_mcast_mac_member(const struct wrenhw *hw, const uint8_t *mac)
{
	for (uint32_t i = 0; i < hw->mcast_groups; i++)
		if (!memcmp(hw->mcast[i].mac, mac, 6))
			return true;
	return false;
}

static int member(const struct whw_mcast_group *g, uint32_t qpn)
{
	for (uint32_t i = 0; i < g->nqp; i++)
		if (g->qpn[i] == qpn)
			return (int)i;
	return -1;
}

/* Takes member @m out of group @g, and the group out if it is empty. */
static void remove_member(struct wrenhw *hw, struct whw_mcast_group *g,
			  uint32_t m)
{
	g->qpn[m] = g->qpn[--g->nqp];
	if (g->nqp)
		return;
	*g = hw->mcast[--hw->mcast_groups];
	memset(&hw->mcast[hw->mcast_groups], 0, sizeof(*g));
}

void whw_mcast_detach_qp(struct wrenhw *hw, uint32_t qpn)
{
	/* Backwards: a group that empties takes the last one's place. */
	for (uint32_t i = hw->mcast_groups; i--;) {
		int m = member(&hw->mcast[i], qpn);

		if (m >= 0)
			remove_member(hw, &hw->mcast[i], (uint32_t)m);
	}
}

void whw_mcast_reset(struct wrenhw *hw)
{
	memset(hw->mcast, 0, sizeof(hw->mcast));
	hw->mcast_groups = 0;
}

/* The command's QP and GID, checked; BAD_* as the contract says. */
static struct whw_err mcast_args(struct wrenhw *hw, struct whw_cmd *c,
				 uint32_t *qpn)
{
	const struct wren_aq_mcast *in = &c->cmd->u.mcast;
	struct whw_err err;
	struct whw_qp *qp;

	err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd,
					     u.mcast.rsvd0),
				 sizeof(in->rsvd0));
	if (!err.status)
		err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd,
						     u.mcast.rsvd),
					 sizeof(in->rsvd));
	if (err.status)
		return err;
	*qpn = whw_le32(in->qpn);
	qp = whw_table_get(&hw->qps, *qpn);
	if (!qp)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_MC(qpn));
	if (qp->type != WREN_QPT_UD)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MC(qpn));
	if (!wren_gid_is_mcast(in->gid))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MC(gid));
	return WHW_OK;
}

struct whw_err whw_cmd_attach_mcast(struct wrenhw *hw, struct whw_cmd *c)
{
	const uint8_t *gid = c->cmd->u.mcast.gid;
	struct whw_mcast_group *g = NULL;
	struct whw_err err;
	uint32_t qpn;
	int i;

	err = mcast_args(hw, c, &qpn);
	if (err.status)
		return err;
	i = group_index(hw, gid);
	if (i >= 0)
		g = &hw->mcast[i];
	if (g && member(g, qpn) >= 0)
		return WHW_ERR(WREN_AQ_STATUS_EXISTS, SYND_MC(qpn));
	if (!g) {
		if (hw->mcast_groups == WHW_MAX_MCAST_GRP)
			return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, SYND_MC(gid));
		g = &hw->mcast[hw->mcast_groups++];
		memcpy(g->gid, gid, 16);
		wren_mcast_mac(gid, g->mac);
	} else if (g->nqp == WHW_MAX_MCAST_QP_ATTACH) {
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, SYND_MC(qpn));
	}
	g->qpn[g->nqp++] = qpn;
	return WHW_OK;
}

struct whw_err whw_cmd_detach_mcast(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_mcast_group *g;
	struct whw_err err;
	uint32_t qpn;
	int i, m;

	err = mcast_args(hw, c, &qpn);
	if (err.status)
		return err;
	i = group_index(hw, c->cmd->u.mcast.gid);
	if (i < 0)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_MC(gid));
	g = &hw->mcast[i];
	m = member(g, qpn);
	if (m < 0)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_MC(qpn));
	remove_member(hw, g, (uint32_t)m);
	return WHW_OK;
}
