// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The NIC's GID table mirrors ib_core's: ib_core's RoCE GID code derives
 * the GIDs from the netdev's IPv4/IPv6 addresses (and its VLAN devices)
 * and calls add_gid/del_gid with the table index, which SET_GID writes.
 * A RoCEv2 packet is accepted only for a valid entry, so the mirror is
 * what makes the port reachable.
 */
#include <linux/if_vlan.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>

#include "wren_ib.h"

static int wren_ib_set_gid(const struct ib_gid_attr *attr,
			   const struct wren_set_gid_in *in)
{
	return wren_cmd_set_gid(to_wdev(attr->device)->cdev, in);
}

int wren_ib_add_gid(const struct ib_gid_attr *attr, void **context)
{
	struct wren_set_gid_in in = {};
	u16 vlan_id = 0xffff;
	int err;

	if (attr->port_num != WREN_IB_PORT)
		return -EINVAL;
	if (attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EOPNOTSUPP;
	err = rdma_read_gid_l2_fields(attr, &vlan_id, in.mac);
	if (err)
		return err;

	in.index = cpu_to_le32(attr->index);
	in.type = WREN_GID_ROCE_V2;
	memcpy(in.gid, attr->gid.raw, sizeof(in.gid));
	if (ipv6_addr_v4mapped((const struct in6_addr *)attr->gid.raw))
		in.flags |= WREN_AV_F_IPV4;
	if (vlan_id < VLAN_N_VID) {
		in.flags |= WREN_AV_F_VLAN;
		in.vlan_id = cpu_to_le16(vlan_id);
	}
	return wren_ib_set_gid(attr, &in);
}

int wren_ib_del_gid(const struct ib_gid_attr *attr, void **context)
{
	struct wren_set_gid_in in = {};

	in.index = cpu_to_le32(attr->index);
	in.type = WREN_GID_INVALID;
	return wren_ib_set_gid(attr, &in);
}
