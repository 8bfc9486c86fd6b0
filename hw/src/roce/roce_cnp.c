// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The DCQCN notification point: a RoCE packet that arrives marked CE on a
 * priority with np_enable is counted and answered with a CNP to the QP
 * that sent it (RC: the QP's dest_qpn; UD/GSI: the DETH source QP), at
 * most one per receiving QP per np_min_time_between_cnps_us.  A CNP is
 * BTH opcode 0x81 with BECN set, PSN 0, 16 reserved bytes and the ICRC,
 * sent with DSCP np_cnp_dscp, Not-ECT, on priority np_cnp_prio (its PCP
 * when the path has a VLAN).  RC answers along the QP's address vector;
 * UD along the packet's own addresses (source MAC, GID, VLAN).
 */
#include <string.h>

#include "../core/whw_services.h"
#include "../port/whw_port.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

#define ECN_CE		3u

/* The IP traffic class byte of a received packet (DSCP << 2 | ECN). */
static uint8_t pkt_tc(const struct whw_pkt *p)
{
	if (p->ipv4)
		return p->l3[1];
	return (uint8_t)((p->l3[0] & 0x0f) << 4 | p->l3[1] >> 4);
}

/*
 * The priority the port gives a received packet: by its DSCP under DSCP
 * trust, else by its VLAN PCP (0 untagged), as the fabric classifies.
 */
static uint8_t pkt_prio(const struct wrenhw *hw, const struct whw_pkt *p)
{
	if (whw_trust_dscp(hw))
		return whw_dscp_prio(hw, pkt_tc(p) >> 2);
	return p->vlan ? (uint8_t)(p->vlan_tci >> 13) : 0;
}

/* Our GID entry the packet was sent to (whw_roce_is_ours() found one). */
static int local_gid(const struct wrenhw *hw, const uint8_t *gid)
{
	for (uint32_t i = 0; i < WHW_MAX_GID; i++)
		if (hw->gids[i].type == WREN_GID_ROCE_V2 &&
		    !memcmp(hw->gids[i].gid, gid, 16))
			return (int)i;
	return -1;
}

/* UD: back along the packet's addresses. */
static bool reply_av(const struct wrenhw *hw, const struct whw_pkt *p,
		     struct wren_av *av)
{
	int gi = local_gid(hw, p->dgid);

	if (gi < 0)
		return false;
	memset(av, 0, sizeof(*av));
	av->gid_index = (uint8_t)gi;
	av->hop_limit = 64;
	av->flags = p->ipv4 ? WREN_AV_F_IPV4 : 0;
	if (p->vlan) {
		av->flags |= WREN_AV_F_VLAN;
		av->vlan_id = whw_le16(p->vlan_tci & 0xfff);
	}
	memcpy(av->dgid, p->sgid, 16);
	memcpy(av->dmac, p->frame + 6, 6);
	return true;
}

/* DSCP, Not-ECT, priority and PCP of the CNP, whatever frame_init chose. */
static void cnp_class(struct whw_frame *f, uint8_t dscp, uint8_t prio)
{
	uint8_t *b = f->buf, *ip = f->buf + f->l3;
	uint8_t tc = (uint8_t)(dscp << 2);

	if (f->ipv4) {
		ip[1] = tc;
		f->ip_sum_ok = false;	/* the header changed */
	} else {
		ip[0] = (uint8_t)(0x60 | tc >> 4);
		ip[1] = (uint8_t)((tc & 0x0f) << 4 | (ip[1] & 0x0f));
	}
	f->prio = prio;
	if (whw_rd16be(b + 12) == 0x8100)
		b[14] = (uint8_t)((b[14] & 0x1f) | prio << 5);
}

static bool send_cnp(struct wrenhw *hw, struct whw_qp *qp,
		     const struct whw_pkt *p,
		     const struct wren_cc_params *cc)
{
	struct wren_av av;
	struct whw_frame f;
	uint32_t dqpn;

	if (!wren_qpt_datagram(qp->type)) {
		av = qp->attr.av;
		dqpn = qp->attr.dest_qpn;
	} else {
		if (!(p->info & WHW_H_DETH) || !reply_av(hw, p, &av))
			return false;
		dqpn = p->src_qpn;
	}
	av.traffic_class = (uint8_t)(cc->np_cnp_dscp << 2);
	av.sl = cc->np_cnp_prio;
	if (!whw_roce_frame_init(hw, &f, &av,
				 whw_roce_sport(&av, qp->hdr.id, dqpn),
				 WHW_OP_CNP, false, dqpn, false, 0))
		return false;
	f.buf[f.bth + 4] = 0x40;	/* BECN */
	memset(whw_roce_put(&f, 16), 0, 16);
	cnp_class(&f, cc->np_cnp_dscp & 63, cc->np_cnp_prio & 7);
	whw_roce_frame_send(hw, &f);
	return true;
}

void whw_np_rx(struct wrenhw *hw, struct whw_qp *qp, const struct whw_pkt *p)
{
	struct whw_cc_qp *c = &qp->roce->cc;
	const struct wren_cc_params *cc;
	uint64_t now, gap;

	if ((pkt_tc(p) & 3) != ECN_CE || p->opcode == WHW_OP_CNP ||
	    !whw_roce_cap(hw, WREN_CAP_DCQCN))
		return;
	/* RC, UC: only the peer's packets; roce_rx.c drops the others. */
	if (!wren_qpt_datagram(qp->type) &&
	    ((p->info & WHW_K_UD) || memcmp(p->sgid, qp->attr.av.dgid, 16)))
		return;
	cc = &hw->dcb.cc[pkt_prio(hw, p)];
	if (!cc->np_enable)
		return;
	hw->cnt_cc[WREN_CC_CNT_NP_ECN_MARKED_ROCE_PACKETS]++;
	now = whw_now(hw);
	gap = (uint64_t)whw_le32(cc->np_min_time_between_cnps_us) * 1000;
	if (c->np_sent && now - c->np_last_ns < gap)
		return;
	if (!send_cnp(hw, qp, p, cc))
		return;
	c->np_sent = true;
	c->np_last_ns = now;
	hw->cnt_cc[WREN_CC_CNT_NP_CNP_SENT]++;
}
