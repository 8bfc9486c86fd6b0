// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device and port attributes, from what QUERY_DEVICE and QUERY_PORT say
 * and nothing more: a capability the device lacks is reported absent;
 * and the port's GID table.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>

#include "wren_ib.h"

/* RoCE has no partitions; the one P_Key is the default full-member key. */
#define WREN_IB_DEFAULT_PKEY	0xffff

void wren_ib_set_guid(struct wren_ib_dev *dev)
{
	u8 guid[8];

	addrconf_addr_eui48(guid, dev->attr->mac);
	memcpy(&dev->ibdev.node_guid, guid, sizeof(guid));
}

int wren_ib_query_device(struct ib_device *ibdev, struct ib_device_attr *props,
			 struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibdev);
	const struct wren_device_attr *a = dev->attr;
	u64 caps = dev->caps;
	int err;

	err = wren_ib_udata_none(udata);
	if (err)
		return err;

	memset(props, 0, sizeof(*props));
	props->fw_ver = dev->cdev->fw_version;
	props->sys_image_guid = ibdev->node_guid;
	props->max_mr_size = le64_to_cpu(a->max_mr_size);
	props->page_size_cap = dev->pgsz_bitmap;
	props->vendor_id = WREN_PCI_VENDOR_ID;
	props->vendor_part_id = WREN_PCI_DEVICE_ID;
	props->hw_ver = dev->cdev->pdev->revision;
	props->max_qp = le32_to_cpu(a->max_qp);
	props->max_qp_wr = le32_to_cpu(a->max_qp_wr);
	/* The responder sends RNR NAKs when no receive WQE is posted. */
	props->device_cap_flags = IB_DEVICE_RC_RNR_NAK_GEN;
	if (dev->reserved_lkey)
		props->kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	/* Fast registration, local invalidation and send with invalidate. */
	if (wren_ib_max_fast_reg_pages(dev) && (caps & WREN_CAP_RDMA_SEND_INV)) {
		props->device_cap_flags |= IB_DEVICE_MEM_MGT_EXTENSIONS;
		props->max_fast_reg_page_list_len = wren_ib_max_fast_reg_pages(dev);
	}
	props->max_send_sge = le16_to_cpu(a->max_sge);
	props->max_recv_sge = le16_to_cpu(a->max_sge);
	props->max_sge_rd = le16_to_cpu(a->max_sge_rd);
	props->max_cq = le32_to_cpu(a->max_cq);
	props->max_cqe = le32_to_cpu(a->max_cqe);
	props->max_mr = le32_to_cpu(a->max_mr);
	/* User SRQs grow (kernel ones do not: rdma.rst). */
	if (caps & WREN_CAP_SRQ_RESIZE)
		props->device_cap_flags |= IB_DEVICE_SRQ_RESIZE;
	/* XRC domains, SRQs and QPs, for user space (rdma.rst). */
	if (wren_ib_has_xrc(dev))
		props->device_cap_flags |= IB_DEVICE_XRC;
	if (caps & WREN_CAP_RDMA_MW) {
		props->device_cap_flags |= IB_DEVICE_MEM_WINDOW |
					   IB_DEVICE_MEM_WINDOW_TYPE_2B;
		props->max_mw = le32_to_cpu(a->max_mw);
	}
#ifdef HAVE_IB_DEVICE_FLUSH
	/* IBA 1.5 (6.2's flags): global visibility only, never persistence. */
	if (caps & WREN_CAP_RDMA_FLUSH)
		props->device_cap_flags |= IB_DEVICE_FLUSH_GLOBAL;
	if (caps & WREN_CAP_RDMA_ATOMIC_WRITE)
		props->device_cap_flags |= IB_DEVICE_ATOMIC_WRITE;
#endif
	props->max_pd = le32_to_cpu(a->max_pd);
	props->max_qp_rd_atom = a->max_qp_rd_atom;
	props->max_qp_init_rd_atom = a->max_qp_init_rd_atom;
	props->max_res_rd_atom = props->max_qp * props->max_qp_rd_atom;
	props->atomic_cap = caps & WREN_CAP_RDMA_ATOMIC ? IB_ATOMIC_HCA :
							  IB_ATOMIC_NONE;
	if (caps & WREN_CAP_RDMA_UD)
		props->max_ah = le32_to_cpu(a->max_ah);
	if ((caps & WREN_CAP_RDMA_UD) && (caps & WREN_CAP_RDMA_MCAST)) {
		props->max_mcast_grp = le32_to_cpu(a->max_mcast_grp);
		props->max_mcast_qp_attach = le32_to_cpu(a->max_mcast_qp_attach);
		props->max_total_mcast_qp_attach = props->max_mcast_grp *
						   props->max_mcast_qp_attach;
	}
	if (caps & WREN_CAP_RDMA_SRQ) {
		props->max_srq = le32_to_cpu(a->max_srq);
		props->max_srq_wr = le32_to_cpu(a->max_srq_wr);
		props->max_srq_sge = le16_to_cpu(a->max_sge);
	}
	/* User CQs with completion timestamps (64-bit ns, never wrapping
	 * in practice), and the clock page for ibv_query_rt_values_ex.
	 */
	if (caps & WREN_CAP_TIMESTAMP) {
		props->hca_core_clock = WREN_CLOCK_KHZ;
		props->timestamp_mask = U64_MAX;
	}
	props->max_pkeys = 1;
	props->local_ca_ack_delay = a->local_ack_delay;
	return 0;
}

int wren_ib_query_port(struct ib_device *ibdev, u32 port,
		       struct ib_port_attr *props)
{
	struct wren_ib_dev *dev = to_wdev(ibdev);
	struct wren_port_attr pa;
	int err;

	err = wren_cmd_query_port(dev->cdev, &pa);
	if (err)
		return err;

	/* ib_core zeroes *props before calling. */
	if (pa.state == WREN_PORT_ACTIVE) {
		props->state = IB_PORT_ACTIVE;
		props->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	} else {
		props->state = IB_PORT_DOWN;
		props->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	}
	props->max_mtu = IB_MTU_4096;
	props->active_mtu = iboe_get_mtu(le16_to_cpu(pa.mtu));
	/* RoCE payload follows the netdev's MTU, which may be lower. */
	props->active_mtu = min(props->active_mtu,
				iboe_get_mtu(READ_ONCE(dev->netdev->mtu)));
	props->gid_tbl_len = le16_to_cpu(dev->attr->max_gid);
	props->ip_gids = true;
	props->max_msg_sz = le32_to_cpu(dev->attr->max_msg_size);
	props->pkey_tbl_len = 1;
	props->lid = 0;
	props->lmc = 0;
	props->sm_lid = 0;
	props->max_vl_num = 1;
	err = ib_get_eth_speed(ibdev, port, &props->active_speed,
			       &props->active_width);
	if (err) {
		props->active_speed = IB_SPEED_EDR;
		props->active_width = IB_WIDTH_1X;
	}
	return 0;
}

int wren_ib_get_port_immutable(struct ib_device *ibdev, u32 port,
			       struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr;
	int err;

	err = ib_query_port(ibdev, port, &attr);
	if (err)
		return err;
	immutable->pkey_tbl_len = attr.pkey_tbl_len;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	/* RoCE v2 only: the contract knows no other GID type. */
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

enum rdma_link_layer wren_ib_get_link_layer(struct ib_device *ibdev, u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

#ifndef HAVE_IB_DEVICE_GET_NETDEV
/*
 * Where ib_core does not export ib_device_get_netdev(), its in-tree
 * consumers ask the driver for a port's netdev through this op (net/smc
 * pairs a netdev with its RoCE device so); ib_device_set_netdev() alone
 * leaves them with none.  The caller puts the reference.
 */
struct net_device *wren_ib_get_netdev(struct ib_device *ibdev, u32 port)
{
	struct net_device *ndev = to_wdev(ibdev)->netdev;

	if (port != WREN_IB_PORT)
		return NULL;
	dev_hold(ndev);
	return ndev;
}
#endif

int wren_ib_query_pkey(struct ib_device *ibdev, u32 port, u16 index, u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = WREN_IB_DEFAULT_PKEY;
	return 0;
}

void wren_ib_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	u32 fw = to_wdev(ibdev)->cdev->fw_version;

	snprintf(str, IB_FW_VERSION_NAME_MAX, "%u.%u.%u", WREN_FW_VER_MAJOR(fw),
		 WREN_FW_VER_MINOR(fw), WREN_FW_VER_PATCH(fw));
}

/*
 * The NIC's GID table mirrors ib_core's: ib_core's RoCE GID code derives
 * the GIDs from the netdev's IPv4/IPv6 addresses (and its VLAN devices)
 * and calls add_gid/del_gid with the table index, which SET_GID writes.
 * A RoCEv2 packet is accepted only for a valid entry, so the mirror is
 * what makes the port reachable.
 */
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
