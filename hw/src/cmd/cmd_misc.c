// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Small objects: doorbell pages (UAR), protection domains, XRC domains,
 * address handles and the GID table, plus the address vector checks QPs
 * share with AHs.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/whw_table.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_err.h"
#include "../whw_objects.h"
#include "whw_cmd.h"
#include "whw_handlers.h"

/* ------------------------------------------------------------- UAR, PD */

/* Names the UAR of a queue's doorbells: UAR 0, the kernel's, always exists. */
struct whw_uar *whw_lookup_uar(struct wrenhw *hw, uint32_t page)
{
	if (page == WREN_KERNEL_UAR)
		return &hw->kernel_uar;
	return whw_table_get(&hw->uars, page);
}

struct whw_err whw_cmd_alloc_uar(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_uar *u = calloc(1, sizeof(*u));
	int64_t id;

	if (!u)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	id = whw_table_alloc(&hw->uars, &u->hdr);
	if (id < 0) {
		free(u);
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	}
	c->result = (uint64_t)id;
	return WHW_OK;
}

struct whw_err whw_cmd_dealloc_uar(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_err err;
	struct whw_uar *u = whw_cmd_handle_obj(c, &hw->uars, &err);

	if (!u)
		return err;
	if (u->hdr.refs)
		return WHW_ERR(WREN_AQ_STATUS_BUSY,
			       WHW_SYND_CMD(u.handle.handle));
	whw_table_remove(&hw->uars, u->hdr.id);
	free(u);
	return WHW_OK;
}

struct whw_err whw_cmd_alloc_pd(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_pd *pd = calloc(1, sizeof(*pd));
	int64_t id;

	if (!pd)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	id = whw_table_alloc(&hw->pds, &pd->hdr);
	if (id < 0) {
		free(pd);
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	}
	c->result = (uint64_t)id;
	return WHW_OK;
}

struct whw_err whw_cmd_dealloc_pd(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_err err;
	struct whw_pd *pd = whw_cmd_handle_obj(c, &hw->pds, &err);

	if (!pd)
		return err;
	if (pd->hdr.refs)
		return WHW_ERR(WREN_AQ_STATUS_BUSY,
			       WHW_SYND_CMD(u.handle.handle));
	whw_table_remove(&hw->pds, pd->hdr.id);
	free(pd);
	return WHW_OK;
}

/* An XRC domain holds nothing but its number; SRQs and QPs name it. */
struct whw_err whw_cmd_alloc_xrcd(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_xrcd *x = calloc(1, sizeof(*x));
	int64_t id;

	if (!x)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	id = whw_table_alloc(&hw->xrcds, &x->hdr);
	if (id < 0) {
		free(x);
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	}
	c->result = (uint64_t)id;
	return WHW_OK;
}

struct whw_err whw_cmd_dealloc_xrcd(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_err err;
	struct whw_xrcd *x = whw_cmd_handle_obj(c, &hw->xrcds, &err);

	if (!x)
		return err;
	if (x->hdr.refs)
		return WHW_ERR(WREN_AQ_STATUS_BUSY,
			       WHW_SYND_CMD(u.handle.handle));
	whw_table_remove(&hw->xrcds, x->hdr.id);
	free(x);
	return WHW_OK;
}

/* -------------------------------------------------------- address vector */

#define AV_FLAGS	(WREN_AV_F_VLAN | WREN_AV_F_IPV4)
#define SYND_AV(base, f) ((base) + (uint32_t)offsetof(struct wren_av, f))

struct whw_err whw_check_av(struct wrenhw *hw, const struct wren_av *av,
			    uint32_t synd_base)
{
	uint16_t vlan = whw_le16(av->vlan_id);
	size_t bad;

	if (av->rsvd0)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_AV(synd_base, rsvd0));
	if (!whw_all_zero(av->rsvd, sizeof(av->rsvd), &bad))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_AV(synd_base, rsvd) + (uint32_t)bad);
	if (av->gid_index >= WHW_MAX_GID ||
	    hw->gids[av->gid_index].type != WREN_GID_ROCE_V2)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_AV(synd_base, gid_index));
	if (av->flags & ~AV_FLAGS)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_AV(synd_base, flags));
	if ((av->flags & WREN_AV_F_IPV4) && !wren_gid_is_v4_mapped(av->dgid))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_AV(synd_base, dgid));
	if (whw_le32(av->flow_label) > 0xfffff)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_AV(synd_base, flow_label));
	if ((av->flags & WREN_AV_F_VLAN) ? vlan > 4095 : vlan != 0)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_AV(synd_base, vlan_id));
	if (av->sl >= WREN_NUM_PRIO)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_AV(synd_base, sl));
	return WHW_OK;
}

/* ------------------------------------------------------------------ AH */

#define SYND_AH(f)	WHW_SYND_IN(struct wren_create_ah_in, f)

struct whw_err whw_cmd_create_ah(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_create_ah_in *in = (const void *)c->in;
	struct whw_err err;
	struct whw_pd *pd;
	struct whw_ah *ah;
	int64_t id;

	if (in->rsvd0)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_AH(rsvd0));
	err = whw_check_rsvd_in(c, offsetof(struct wren_create_ah_in, rsvd),
				sizeof(in->rsvd));
	if (err.status)
		return err;
	pd = whw_table_get(&hw->pds, whw_le32(in->pdn));
	if (!pd)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_AH(pdn));
	err = whw_check_av(hw, &in->av, SYND_AH(av));
	if (err.status)
		return err;
	ah = calloc(1, sizeof(*ah));
	if (!ah)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	id = whw_table_alloc(&hw->ahs, &ah->hdr);
	if (id < 0) {
		free(ah);
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	}
	ah->pd = pd;
	whw_ref(&pd->hdr);
	ah->av = in->av;
	c->result = (uint64_t)id;
	return WHW_OK;
}

struct whw_err whw_cmd_destroy_ah(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_err err;
	struct whw_ah *ah = whw_cmd_handle_obj(c, &hw->ahs, &err);

	if (!ah)
		return err;
	whw_unref(&ah->pd->hdr);
	whw_table_remove(&hw->ahs, ah->hdr.id);
	free(ah);
	return WHW_OK;
}

/* ----------------------------------------------------------------- GID */

#define SYND_GID(f)	WHW_SYND_IN(struct wren_set_gid_in, f)

struct whw_err whw_cmd_set_gid(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_set_gid_in *in = (const void *)c->in;
	uint32_t index = whw_le32(in->index);
	uint16_t vlan = whw_le16(in->vlan_id);
	struct whw_gid *g;
	struct whw_err err;

	err = whw_check_rsvd_in(c, offsetof(struct wren_set_gid_in, rsvd0),
				sizeof(in->rsvd0) + sizeof(in->rsvd));
	if (err.status)
		return err;
	if (index >= WHW_MAX_GID)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_GID(index));
	g = &hw->gids[index];
	if (in->type == WREN_GID_INVALID) {
		/* Clearing: nothing else may be given. */
		err = whw_check_rsvd_in(c, offsetof(struct wren_set_gid_in,
						    flags),
					offsetof(struct wren_set_gid_in, rsvd0) -
					offsetof(struct wren_set_gid_in, flags));
		if (err.status)
			return err;
		memset(g, 0, sizeof(*g));
		return WHW_OK;
	}
	if (in->type != WREN_GID_ROCE_V2)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_GID(type));
	if (in->flags & ~AV_FLAGS)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_GID(flags));
	if ((in->flags & WREN_AV_F_VLAN) ? vlan > 4095 : vlan != 0)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_GID(vlan_id));
	if ((in->flags & WREN_AV_F_IPV4) && !wren_gid_is_v4_mapped(in->gid))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_GID(gid));
	if ((in->mac[0] & 1) || whw_all_zero(in->mac, sizeof(in->mac), NULL))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_GID(mac));
	g->type = in->type;
	g->flags = in->flags;
	g->vlan_id = vlan;
	memcpy(g->gid, in->gid, sizeof(g->gid));
	memcpy(g->mac, in->mac, sizeof(g->mac));
	return WHW_OK;
}
