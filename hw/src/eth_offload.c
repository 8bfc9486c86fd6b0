// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * TX offloads of one gathered packet: header offsets from the first
 * descriptor are validated against the packet, then the IPv4 header
 * checksum and the TCP/UDP checksum are computed (or TSO splits the
 * packet, eth_tso.c), and the frame goes to the wire with its 802.1Q tag
 * inserted if asked.
 *
 * WREN_ETH_TX_F_CSUM: the device computes the whole L4 checksum,
 * pseudo-header included, over the L4 length the IP header gives (so
 * Ethernet padding after the IP packet is not summed); whatever the
 * checksum field held (Linux leaves the pseudo-header sum there) is
 * ignored.
 */
#include <string.h>

#include "wrenhw_int.h"

#define IPPROTO_TCP_	6
#define IPPROTO_UDP_	17
#define TCP_CSUM_OFF	16
#define UDP_CSUM_OFF	6

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

void whw_ipv4_csum(uint8_t *ip)
{
	uint32_t ihl = (ip[0] & 0xfu) * 4u;
	uint16_t c;

	ip[10] = ip[11] = 0;
	c = (uint16_t)~whw_csum_fold(whw_csum_add(0, ip, ihl));
	memcpy(ip + 10, &c, 2);
}

void whw_tcp_udp_csum(uint8_t *pkt, const struct whw_l34 *h,
		      uint32_t l4_len)
{
	uint8_t *l4 = pkt + h->l4;
	uint8_t *field = l4 + (h->udp ? UDP_CSUM_OFF : TCP_CSUM_OFF);
	uint64_t sum;
	uint16_t c;

	field[0] = field[1] = 0;
	sum = whw_csum_pseudo(pkt + h->l3, h->ipv6,
			      h->udp ? IPPROTO_UDP_ : IPPROTO_TCP_, l4_len);
	c = (uint16_t)~whw_csum_fold(whw_csum_add(sum, l4, l4_len));
	if (h->udp && !c)
		c = 0xffff;	/* 0 means "no checksum" for UDP */
	memcpy(field, &c, 2);
}

/*
 * Validates the offsets of a packet that asks for checksums or TSO;
 * false if they do not describe an IP packet inside it.  With @need_l4
 * the L4 header must be there too.
 */
static bool parse_l34(const struct wren_eth_tx_desc *d, const uint8_t *pkt,
		      uint32_t len, bool need_l4, struct whw_l34 *h)
{
	uint16_t flags = whw_le16(d->flags);
	const uint8_t *ip;

	h->l3 = d->l3_offset;
	h->l4 = d->l4_offset;
	h->ipv6 = flags & WREN_ETH_TX_F_IPV6;
	h->udp = flags & WREN_ETH_TX_F_UDP;
	if (h->l3 < WHW_ETH_HLEN || h->l3 + (h->ipv6 ? 40u : 20u) > len)
		return false;
	ip = pkt + h->l3;
	if (h->ipv6) {
		if ((ip[0] >> 4) != 6)
			return false;
		if (need_l4 && h->l4 < h->l3 + 40)
			return false;
	} else {
		uint32_t ihl = (ip[0] & 0xfu) * 4u;

		if ((ip[0] >> 4) != 4 || ihl < 20 || h->l3 + ihl > len)
			return false;
		if (need_l4 && h->l4 != h->l3 + ihl)
			return false;
	}
	if (!need_l4)
		return true;
	if (h->udp) {
		h->l4_hlen = 8;
	} else {
		if (h->l4 + 20 > len)
			return false;
		h->l4_hlen = (pkt[h->l4 + 12] >> 4) * 4u;
		if (h->l4_hlen < 20)
			return false;
	}
	return h->l4 + h->l4_hlen <= len;
}

/* L4 bytes as the IP header says; 0 if that does not fit the packet. */
static uint32_t l4_length(const uint8_t *pkt, uint32_t len,
			  const struct whw_l34 *h)
{
	const uint8_t *ip = pkt + h->l3;
	uint32_t end = h->ipv6 ? h->l3 + 40u + rd16(ip + 4)
			       : h->l3 + rd16(ip + 2);

	if (end > len || end < h->l4 + h->l4_hlen)
		return 0;
	return end - h->l4;
}

void whw_eth_emit(struct wrenhw *hw, struct whw_eth_q *q, uint8_t *frame,
		  uint32_t len, uint16_t flags, uint16_t vlan_tci)
{
	uint32_t prio = q->prio;

	if (flags & WREN_ETH_TX_F_VLAN) {
		/* The caller left WHW_VLAN_HLEN bytes of headroom. */
		frame -= WHW_VLAN_HLEN;
		memmove(frame, frame + WHW_VLAN_HLEN, 12);
		wr16(frame + 12, 0x8100);
		wr16(frame + 14, vlan_tci);
		len += WHW_VLAN_HLEN;
		prio = vlan_tci >> 13;
	}
	if (hw->ops->tx_frame)
		hw->ops->tx_frame(hw->opaque, frame, len);
	q->counters[WREN_ETHQ_CNT_PACKETS]++;
	q->counters[WREN_ETHQ_CNT_BYTES] += len;
	hw->cnt_port[WREN_CNT_TX_PACKETS]++;
	hw->cnt_port[WREN_CNT_TX_BYTES] += len;
	hw->cnt_prio[prio][WREN_PRIO_CNT_TX_PRIO_PACKETS]++;
	hw->cnt_prio[prio][WREN_PRIO_CNT_TX_PRIO_BYTES] += len;
}

uint8_t whw_eth_tx_offload(struct wrenhw *hw, struct whw_eth_q *q,
			   const struct wren_eth_tx_desc *d, uint8_t *pkt,
			   uint32_t len)
{
	uint16_t flags = whw_le16(d->flags);
	bool l4 = flags & (WREN_ETH_TX_F_CSUM | WREN_ETH_TX_F_TSO);
	struct whw_l34 h;
	uint32_t l4_len;

	if ((flags & WREN_ETH_TX_F_IP_CSUM) && (flags & WREN_ETH_TX_F_IPV6))
		return WREN_WQ_SYND_BAD_WQE;
	if (flags & (WREN_ETH_TX_F_CSUM | WREN_ETH_TX_F_IP_CSUM |
		     WREN_ETH_TX_F_TSO)) {
		if (!parse_l34(d, pkt, len, l4, &h))
			return WREN_WQ_SYND_BAD_WQE;
		if (flags & WREN_ETH_TX_F_TSO)
			return whw_eth_tso(hw, q, d, &h, pkt, len);
		if (flags & WREN_ETH_TX_F_CSUM) {
			l4_len = l4_length(pkt, len, &h);
			if (!l4_len)
				return WREN_WQ_SYND_BAD_WQE;
			whw_tcp_udp_csum(pkt, &h, l4_len);
		}
		if (flags & WREN_ETH_TX_F_IP_CSUM)
			whw_ipv4_csum(pkt + h.l3);
		q->counters[WREN_ETHQ_CNT_CSUM_OFFLOADED]++;
	}
	whw_eth_emit(hw, q, pkt, len, flags, whw_le16(d->vlan_tci));
	return WREN_WQ_SYND_NONE;
}
