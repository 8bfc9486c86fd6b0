// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * TCP segmentation offload: one large TCP packet (headers of hdr_len
 * bytes, then payload) becomes ceil(payload / mss) frames, each with a
 * copy of the headers fixed up as a host stack would have built it: IPv4
 * total length and ID + i (header checksum recomputed), IPv6 payload
 * length, TCP sequence number + i * mss, FIN and PSH only on the last
 * segment, CWR only on the first, and the TCP checksum recomputed.
 *
 * The length fields of the large packet's headers are ignored (Linux
 * leaves them at the large size, or 0 for BIG TCP).  Extension headers
 * between the IPv6 header and TCP are copied as they are.
 */
#include <string.h>

#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_eth.h"

#define TCP_FIN		0x01
#define TCP_PSH		0x08
#define TCP_CWR		0x80

uint8_t whw_eth_tso(struct wrenhw *hw, struct whw_eth_q *q,
		    const struct wren_eth_tx_desc *d, uint8_t prio,
		    const struct whw_l34 *h, uint8_t *pkt, uint32_t len)
{
	uint32_t mss = whw_le16(d->mss);
	uint32_t hdr = d->hdr_len;
	uint32_t payload, nseg, seq0, id0;
	uint8_t *seg = hw->seg_buf + WHW_VLAN_HLEN;
	uint8_t tcp_flags;

	if (h->udp || !mss || hdr != h->l4 + h->l4_hlen || hdr > len ||
	    hdr + mss > WHW_ETH_MAX_FRAME)
		return WREN_WQ_SYND_BAD_WQE;
	payload = len - hdr;
	nseg = payload ? (payload + mss - 1) / mss : 1;
	seq0 = whw_rd32be(pkt + h->l4 + 4);
	id0 = whw_rd16be(pkt + h->l3 + 4);
	tcp_flags = pkt[h->l4 + 13];
	for (uint32_t i = 0; i < nseg; i++) {
		uint32_t off = i * mss;
		uint32_t plen = payload - off < mss ? payload - off : mss;
		uint32_t seg_len = hdr + plen;
		uint8_t f = tcp_flags;

		memcpy(seg, pkt, hdr);
		memcpy(seg + hdr, pkt + hdr + off, plen);
		if (h->ipv6) {
			whw_wr16be(seg + h->l3 + 4,
				   (uint16_t)(seg_len - h->l3 - 40));
		} else {
			whw_wr16be(seg + h->l3 + 2,
				   (uint16_t)(seg_len - h->l3));
			whw_wr16be(seg + h->l3 + 4, (uint16_t)(id0 + i));
			whw_ipv4_csum(seg + h->l3);
		}
		whw_wr32be(seg + h->l4 + 4, seq0 + off);
		if (i + 1 < nseg)
			f &= (uint8_t)~(TCP_FIN | TCP_PSH);
		if (i)
			f &= (uint8_t)~TCP_CWR;
		seg[h->l4 + 13] = f;
		whw_tcp_udp_csum(seg, h, seg_len - h->l4);
		q->counters[WREN_ETHQ_CNT_CSUM_OFFLOADED]++;
		q->counters[WREN_ETHQ_CNT_TSO_SEGMENTS]++;
		whw_eth_emit(hw, q, d, prio, seg, seg_len);
	}
	return WREN_WQ_SYND_NONE;
}
