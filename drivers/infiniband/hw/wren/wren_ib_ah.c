// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Address vectors: where an RC QP's packets go (MODIFY_QP) and where a UD
 * or GSI work request's go (an AH; kernel AHs may be made and destroyed
 * without sleeping, as ib_core's CM does).  ib_core has already resolved the RoCEv2
 * path: the source GID entry (sgid_attr, with its netdev and VLAN) and the
 * destination MAC (rdma_ah_attr.roce.dmac, from the neighbour table).
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <net/ipv6.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/wren-abi.h>

#include "wren_ib.h"

#define WREN_IB_FLOW_LABEL_MASK	0xfffff

int wren_ib_av_from_ah_attr(struct wren_ib_dev *dev,
			    const struct rdma_ah_attr *ah_attr,
			    struct wren_av *av)
{
	const struct ib_global_route *grh;
	const struct ib_gid_attr *sgid;
	u16 vlan_id = 0xffff;
	int err;

	/* RoCE always routes: a path without a GRH names no GID. */
	if (ah_attr->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(rdma_ah_get_ah_flags(ah_attr) & IB_AH_GRH))
		return -EINVAL;
	if (rdma_ah_get_port_num(ah_attr) != WREN_IB_PORT)
		return -EINVAL;
	grh = rdma_ah_read_grh(ah_attr);
	sgid = grh->sgid_attr;
	if (!sgid || sgid->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP ||
	    sgid->index > U8_MAX)
		return -EINVAL;
	if (rdma_ah_get_sl(ah_attr) > 7)
		return -EINVAL;
	err = rdma_read_gid_l2_fields(sgid, &vlan_id, NULL);
	if (err)
		return err;

	memset(av, 0, sizeof(*av));
	av->gid_index = sgid->index;
	av->hop_limit = grh->hop_limit;
	av->traffic_class = grh->traffic_class;
	av->flow_label = cpu_to_le32(grh->flow_label & WREN_IB_FLOW_LABEL_MASK);
	memcpy(av->dgid, grh->dgid.raw, sizeof(av->dgid));
	memcpy(av->dmac, ah_attr->roce.dmac, ETH_ALEN);
	if (ipv6_addr_v4mapped((const struct in6_addr *)grh->dgid.raw))
		av->flags |= WREN_AV_F_IPV4;
	if (vlan_id < VLAN_N_VID) {
		av->flags |= WREN_AV_F_VLAN;
		av->vlan_id = cpu_to_le16(vlan_id);
	}
	/* Spread flows over ECMP paths as the flow label asks; without one
	 * the device derives the port from the QP number.
	 */
	if (grh->flow_label)
		av->udp_sport = cpu_to_le16(rdma_flow_label_to_udp_sport(grh->flow_label));
	av->sl = rdma_ah_get_sl(ah_attr);
	return 0;
}

struct wren_ib_resolve {
	struct completion done;
	int status;
};

static void wren_ib_resolved(int status, struct sockaddr *src,
			     struct rdma_dev_addr *addr, void *context)
{
	struct wren_ib_resolve *r = context;

	r->status = status;
	complete(&r->done);
}

/*
 * ib_core resolves the destination MAC of a user QP's path from the
 * neighbour table; a kernel consumer must pass it resolved.  net/smc's
 * SMC-Rv2 server takes its peer's MAC from the SMC-Rv1 fields of the
 * client's proposal, which a client without RoCE v1 GIDs (Wren has
 * none) leaves zero: its QP would send every packet to
 * 00:00:00:00:00:00.  A zero MAC is never a RoCE destination, so it is
 * resolved here the way ib_core resolves a user QP's, through the
 * source GID's netdev.  Sleeps (ARP, at most a second): MODIFY_QP runs
 * in process context.
 */
int wren_ib_resolve_dmac(const struct rdma_ah_attr *ah_attr, u8 *dmac)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(ah_attr);
	struct rdma_dev_addr dev_addr = {};
	struct wren_ib_resolve r;
	union {
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
	} src, dst;
	int err;

	if (!grh || !grh->sgid_attr)
		return -EINVAL;
	rdma_gid2ip((struct sockaddr *)&src, &grh->sgid_attr->gid);
	rdma_gid2ip((struct sockaddr *)&dst, &grh->dgid);
	dev_addr.net = &init_net;
	dev_addr.sgid_attr = grh->sgid_attr;
	init_completion(&r.done);
	err = rdma_resolve_ip((struct sockaddr *)&src, (struct sockaddr *)&dst,
			      &dev_addr, 1000, wren_ib_resolved, true, &r);
	if (err)
		return err;
	wait_for_completion(&r.done);
	if (r.status)
		return r.status;
	memcpy(dmac, dev_addr.dst_dev_addr, ETH_ALEN);
	if (!memchr_inv(dmac, 0, ETH_ALEN) || is_multicast_ether_addr(dmac))
		return -EHOSTUNREACH;
	return 0;
}

void wren_ib_av_to_ah_attr(struct wren_ib_dev *dev, const struct wren_av *av,
			   struct rdma_ah_attr *ah_attr)
{
	union ib_gid dgid;

	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(ah_attr, WREN_IB_PORT);
	rdma_ah_set_sl(ah_attr, av->sl);
	memcpy(dgid.raw, av->dgid, sizeof(dgid.raw));
	rdma_ah_set_grh(ah_attr, &dgid, le32_to_cpu(av->flow_label),
			av->gid_index, av->hop_limit, av->traffic_class);
	memcpy(ah_attr->roce.dmac, av->dmac, ETH_ALEN);
}

int wren_ib_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init_attr,
		      struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibah->device);
	struct wren_ib_ah *ah = to_wah(ibah);
	struct wren_ib_create_ah_resp resp = {};
	struct wren_create_ah_in in = {};
	int err;

	if (!(dev->caps & (WREN_CAP_RDMA_UD | WREN_CAP_RDMA_GSI)))
		return -EOPNOTSUPP;
	err = wren_ib_udata_none(udata);
	if (err)
		return err;
	err = wren_ib_av_from_ah_attr(dev, init_attr->ah_attr, &in.av);
	if (err)
		return err;
	in.pdn = cpu_to_le32(to_wpd(ibah->pd)->pdn);
	/* The CM creates AHs under its spinlock (cm_alloc_msg()). */
	err = wren_cmd_create_ah(dev->cdev, &in,
				 init_attr->flags & RDMA_CREATE_AH_SLEEPABLE,
				 &ah->handle);
	if (err)
		return err;
	ah->av = in.av;

	if (udata) {
		resp.ah = ah->handle;
		err = wren_ib_udata_out(udata, &resp, sizeof(resp));
		if (err) {
			wren_cmd_destroy_ah(dev->cdev, ah->handle, true);
			return err;
		}
	}
	return 0;
}

int wren_ib_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct wren_ib_dev *dev = to_wdev(ibah->device);

	return wren_cmd_destroy_ah(dev->cdev, to_wah(ibah)->handle,
				   flags & RDMA_DESTROY_AH_SLEEPABLE);
}

int wren_ib_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *ah_attr)
{
	wren_ib_av_to_ah_attr(to_wdev(ibah->device), &to_wah(ibah)->av, ah_attr);
	return 0;
}
