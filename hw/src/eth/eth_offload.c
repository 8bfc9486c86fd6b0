// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * TX offloads of one gathered packet: header offsets from the first
 * descriptor are validated against the packet, then the IPv4 header
 * checksum and the TCP/UDP checksum are computed (eth_csum.c), or TSO
 * splits the packet (eth_tso.c), and the frame goes to the wire
 * (eth_emit.c).
 *
 * WREN_ETH_TX_F_CSUM: the device computes the whole L4 checksum,
 * pseudo-header included, over the L4 length the IP header gives (so
 * Ethernet padding after the IP packet is not summed); whatever the
 * checksum field held (Linux leaves the pseudo-header sum there) is
 * ignored.
 */
#include <string.h>

#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_eth.h"

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
	uint32_t end = h->ipv6 ? h->l3 + 40u + whw_rd16be(ip + 4)
			       : h->l3 + whw_rd16be(ip + 2);

	if (end > len || end < h->l4 + h->l4_hlen)
		return 0;
	return end - h->l4;
}

uint8_t whw_eth_tx_offload(struct wrenhw *hw, struct whw_eth_q *q,
			   const struct wren_eth_tx_desc *d, uint8_t prio,
			   uint8_t *pkt, uint32_t len)
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
			return whw_eth_tso(hw, q, d, prio, &h, pkt, len);
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
	whw_eth_emit(hw, q, d, prio, pkt, len);
	return WREN_WQ_SYND_NONE;
}
