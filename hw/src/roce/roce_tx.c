// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RoCEv2 frames out: Ethernet (802.1Q tag with PCP = the frame's priority
 * when the address vector asks for a VLAN), IPv4 (DF, DSCP/ECN from
 * traffic_class) or IPv6 (traffic class, flow label), ECT(0) instead of
 * Not-ECT when the frame's priority has ecn_enable, UDP to 4791 from a
 * per-flow source port, BTH, then whatever the caller appends;
 * wrenhw_int's one scratch buffer, no allocation.  Sending pads the payload to 4 bytes, fills in lengths
 * and the IPv4 checksum, appends the ICRC (roce_icrc.c), counts and hands
 * the frame to the port scheduler (port_sched.c).
 */
#include <stdlib.h>
#include <string.h>

#include "../cmd/whw_mcast.h"
#include "../eth/whw_eth.h"
#include "../port/whw_port.h"
#include "../port/whw_sched.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

/*
 * The traffic class a frame leaves with: ECN-capable (ECT(0)) if its
 * priority says so and the AV's class is Not-ECT; ECT(1) or CE asked for
 * by software are left alone.
 */
static uint8_t ecn_tc(const struct wrenhw *hw, uint8_t prio, uint8_t tc)
{
	if ((tc & 3) || !whw_roce_cap(hw, WREN_CAP_ECN) ||
	    !hw->dcb.cc[prio & 7].ecn_enable)
		return tc;
	return tc | 2;
}

/* rdma_get_udp_sport(): the flow label, or one made of the two QPNs. */
uint16_t whw_roce_sport(const struct wren_av *av, uint32_t lqpn,
			uint32_t rqpn)
{
	uint32_t fl = whw_le32(av->flow_label) & 0xfffff;
	uint32_t lo, hi;

	if (whw_le16(av->udp_sport))
		return whw_le16(av->udp_sport);
	if (!fl) {
		uint64_t v = (uint64_t)lqpn * rqpn;

		v ^= v >> 20;
		v ^= v >> 40;
		fl = (uint32_t)(v & 0xfffff);
	}
	lo = fl & 0x03fff;
	hi = fl & 0xfc000;
	lo ^= hi >> 14;
	return (uint16_t)(lo | 0xc000);
}

uint8_t whw_roce_av_prio(const struct wrenhw *hw, const struct wren_av *av)
{
	/* DSCP trust: the priority the DSCP maps to, as a peer classifies. */
	if (whw_trust_dscp(hw))
		return whw_dscp_prio(hw, av->traffic_class >> 2);
	return av->sl & 7;
}

bool whw_roce_frame_init(struct wrenhw *hw, struct whw_frame *f,
			 const struct wren_av *av, uint16_t sport,
			 uint8_t opcode, bool se, uint32_t dqpn, bool ackreq,
			 uint32_t psn)
{
	const struct whw_gid *g;
	uint8_t *b = hw->roce_tx;
	uint32_t o = 12;
	uint8_t tc;

	if (av->gid_index >= WHW_MAX_GID)
		return false;
	g = &hw->gids[av->gid_index];
	if (g->type != WREN_GID_ROCE_V2)
		return false;	/* the source GID went away */
	f->buf = b;
	f->ip_sum_ok = false;
	f->ipv4 = av->flags & WREN_AV_F_IPV4;
	f->prio = whw_roce_av_prio(hw, av);
	memcpy(b, av->dmac, 6);
	memcpy(b + 6, g->mac, 6);
	if (av->flags & WREN_AV_F_VLAN) {
		whw_wr16be(b + o, 0x8100);
		whw_wr16be(b + o + 2, (uint16_t)(f->prio << 13 |
						 (whw_le16(av->vlan_id) & 0xfff)));
		o += 4;
	}
	whw_wr16be(b + o, f->ipv4 ? 0x0800 : 0x86dd);
	o += 2;
	f->l3 = o;
	tc = ecn_tc(hw, f->prio, av->traffic_class);
	if (f->ipv4) {
		uint8_t ttl = av->hop_limit ? av->hop_limit : 64;

		memset(b + o, 0, 20);
		b[o] = 0x45;
		b[o + 1] = tc;
		whw_wr16be(b + o + 6, 0x4000);		/* DF */
		b[o + 8] = ttl;
		b[o + 9] = 17;
		memcpy(b + o + 12, g->gid + 12, 4);
		memcpy(b + o + 16, av->dgid + 12, 4);
		f->ip_sum = (0x4500u | tc) + 0x4000u + ((uint32_t)ttl << 8 | 17) +
			    whw_rd16be(g->gid + 12) + whw_rd16be(g->gid + 14) +
			    whw_rd16be(av->dgid + 12) +
			    whw_rd16be(av->dgid + 14);
		f->ip_sum_ok = true;
		o += 20;
	} else {
		uint32_t fl = whw_le32(av->flow_label) & 0xfffff;

		whw_wr32be(b + o, 6u << 28 | (uint32_t)tc << 20 | fl);
		b[o + 6] = 17;
		b[o + 7] = av->hop_limit ? av->hop_limit : 64;
		memcpy(b + o + 8, g->gid, 16);
		memcpy(b + o + 24, av->dgid, 16);
		o += 40;
	}
	whw_wr16be(b + o, sport);
	whw_wr16be(b + o + 2, WHW_ROCE_PORT);
	b[o + 6] = b[o + 7] = 0;
	o += 8;
	f->bth = o;
	b[o] = opcode;
	b[o + 1] = se ? 0x80 : 0;
	whw_wr16be(b + o + 2, WHW_ROCE_PKEY);
	b[o + 4] = 0;
	whw_wr24be(b + o + 5, dqpn & WREN_QPN_MASK);
	b[o + 8] = ackreq ? 0x80 : 0;
	whw_wr24be(b + o + 9, psn & WREN_PSN_MASK);
	f->len = o + WHW_BTH_LEN;
	return true;
}

uint8_t *whw_roce_put(struct whw_frame *f, uint32_t n)
{
	uint8_t *p = f->buf + f->len;

	f->len += n;
	return p;
}

/*
 * A frame to our own MAC (QPs of this NIC talking to each other) never
 * reaches the wire, and one to a group with members here goes to them as
 * well as to the wire: it is queued and received from wrenhw_process(),
 * never from inside the send, so the engine is not re-entered.  A full
 * queue loses the frame, as a congested wire would.  The queue's memory
 * comes with the first such frame: most NICs never talk to themselves.
 */
static void loopback(struct wrenhw *hw, const struct whw_frame *f)
{
	struct whw_lb_frame *lb;

	if (hw->lb_count >= WHW_LB_FRAMES)
		return;
	if (!hw->lb) {
		hw->lb = calloc(WHW_LB_FRAMES, sizeof(*hw->lb));
		if (!hw->lb)
			return;
	}
	lb = &hw->lb[(hw->lb_head + hw->lb_count) % WHW_LB_FRAMES];
	memcpy(lb->data, f->buf, f->len);
	lb->len = f->len;
	hw->lb_count++;
	if (!hw->roce_work) {
		hw->roce_work = true;
		if (hw->ops->schedule)
			hw->ops->schedule(hw->opaque);
	}
}

void whw_roce_frame_send(struct wrenhw *hw, struct whw_frame *f)
{
	uint8_t *b = f->buf;
	uint8_t *ip = b + f->l3;
	/* BTH and extension headers are whole words: pad the payload. */
	uint32_t pad = (4 - ((f->len - f->bth) & 3)) & 3;
	uint32_t l3_total, icrc, sum;

	memset(b + f->len, 0, pad);
	f->len += pad;
	b[f->bth + 1] |= (uint8_t)(pad << 4);
	l3_total = f->len + WHW_ICRC_LEN - f->l3;
	if (f->ipv4) {
		whw_wr16be(ip + 2, (uint16_t)l3_total);
		/*
		 * The header checksum from the sum frame_init kept: reading
		 * the header just written back in words would wait for the
		 * stores to land.  The same bytes as whw_ipv4_csum()'s.
		 */
		if (f->ip_sum_ok) {
			sum = f->ip_sum + l3_total;
			sum = (sum & 0xffff) + (sum >> 16);
			sum = (sum & 0xffff) + (sum >> 16);
			whw_wr16be(ip + 10, (uint16_t)~sum);
		} else {
			whw_ipv4_csum(ip);
		}
		whw_wr16be(ip + 20 + 4, (uint16_t)(l3_total - 20));
	} else {
		whw_wr16be(ip + 4, (uint16_t)(l3_total - 40));
		whw_wr16be(ip + 40 + 4, (uint16_t)(l3_total - 40));
	}
	icrc = whw_le32(whw_roce_icrc(ip, f->ipv4, l3_total));
	memcpy(b + f->len, &icrc, 4);
	f->len += 4;
	if (!memcmp(b, hw->port.mac, 6)) {
		hw->cnt_rdma[WREN_RDMA_CNT_TX_ROCE_PACKETS]++;
		hw->cnt_rdma[WREN_RDMA_CNT_TX_ROCE_BYTES] += f->len;
		loopback(hw, f);
		return;
	}
	/* A group's frame goes to the wire and to our own members too. */
	if ((b[0] & 1) && whw_mcast_mac_member(hw, b))
		loopback(hw, f);
	if (!whw_link_active(hw)) {
		hw->cnt_port[WREN_CNT_TX_DROPPED_LINK_DOWN]++;
		return;
	}
	hw->cnt_rdma[WREN_RDMA_CNT_TX_ROCE_PACKETS]++;
	hw->cnt_rdma[WREN_RDMA_CNT_TX_ROCE_BYTES] += f->len;
	if (b[0] & 1)
		hw->cnt_rdma[WREN_RDMA_CNT_TX_MCAST_PACKETS]++;
	whw_port_xmit(hw, f->prio, b, f->len);
}

void whw_roce_send_ack(struct wrenhw *hw, struct whw_qp *qp, uint32_t psn,
		       uint8_t syndrome)
{
	struct whw_roce_qp *r = qp->roce;
	const struct wren_av *av = &qp->attr.av;
	struct whw_frame f;
	uint8_t *a;

	if (!whw_roce_frame_init(hw, &f, av,
				 whw_roce_sport(av, qp->hdr.id,
						qp->attr.dest_qpn),
				 WHW_OP_ACK | whw_roce_op_class(qp), false,
				 qp->attr.dest_qpn, false, psn))
		return;
	a = whw_roce_put(&f, 4);
	a[0] = syndrome;
	whw_wr24be(a + 1, r->msn);
	whw_roce_frame_send(hw, &f);
}
