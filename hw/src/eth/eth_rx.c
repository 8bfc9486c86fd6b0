// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Ethernet RX engine: a frame from the wire passes the MAC filter and
 * the MTU check, loses its 802.1Q tag (always stripped: the tag goes to
 * the completion's vlan_tci with WREN_ETH_RX_F_VLAN), is classified
 * (eth_rx_classify.c), and is written into the buffers the driver posted
 * on the chosen RX queue, one completion per buffer, WREN_ETH_RX_F_EOP on
 * the last.  Every completion of a frame carries the same flags (but
 * EOP), vlan_tci and rss_hash.
 *
 * A queue that has not enough buffers posted for the whole frame drops it
 * (rx_dropped_no_buffer, port and queue); nothing waits, so one starved
 * queue never holds up another.  A malformed RX descriptor (length 0,
 * reserved bits) or a DMA fault stops that queue with
 * WREN_EVENT_ETH_QUEUE_ERR; a buffer DMA fault also completes the buffer
 * with status WREN_WQ_SYND_DMA and EOP.
 */
#include <string.h>

#include "../cmd/whw_mcast.h"
#include "../roce/whw_roce_api.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_eth.h"

static bool mac_eq(const uint8_t *a, const uint8_t *b)
{
	return !memcmp(a, b, 6);
}

static bool filter_pass(const struct wrenhw *hw, const uint8_t *dst)
{
	if (hw->rx_mode_flags & WREN_RX_MODE_PROMISC)
		return true;
	if (mac_eq(dst, hw->port.mac))
		return true;
	if (dst[0] & 1) {
		if ((dst[0] & dst[1] & dst[2] & dst[3] & dst[4] & dst[5]) ==
		    0xff)
			return true;
		if (hw->rx_mode_flags & WREN_RX_MODE_ALLMULTI)
			return true;
		/* RoCE multicast groups pass whatever SET_RX_MODE says. */
		if (whw_mcast_mac_member(hw, dst))
			return true;
	}
	for (uint32_t i = 0; i < hw->rx_num_macs; i++)
		if (mac_eq(dst, hw->rx_macs[i]))
			return true;
	return false;
}

static void drop_no_buffer(struct wrenhw *hw, struct whw_eth_q *q)
{
	hw->cnt_port[WREN_CNT_RX_DROPPED_NO_BUFFER]++;
	if (q)
		q->counters[WREN_ETHQ_CNT_DROPPED]++;
}

/* Posted buffers enough for @len bytes; returns how many, 0: not enough. */
static uint32_t rx_buffers(struct wrenhw *hw, struct whw_eth_q *q,
			   uint32_t len, struct wren_eth_rx_desc *b)
{
	uint32_t have = 0;

	for (uint32_t i = 0; i < WHW_RX_MAX_BUFS; i++) {
		const struct wren_eth_rx_desc *d =
			whw_ethq_desc(hw, q, q->ci + i);

		if (!d)
			return 0;
		if (!d->len || d->rsvd0 || d->rsvd1) {
			whw_ethq_error(hw, q, WREN_WQ_SYND_BAD_WQE);
			return 0;
		}
		b[i] = *d;
		have += whw_le16(d->len);
		if (have >= len)
			return i + 1;
	}
	return 0;
}

static bool rx_deliver(struct wrenhw *hw, struct whw_eth_q *q,
		       const uint8_t *f, uint32_t len,
		       const struct whw_rx_info *ri)
{
	struct wren_eth_rx_desc b[WHW_RX_MAX_BUFS];
	struct wren_eth_cqe cqe;
	uint32_t n, off = 0;

	if (!q || q->error) {
		drop_no_buffer(hw, q);
		return false;
	}
	n = rx_buffers(hw, q, len, b);
	if (!n) {
		drop_no_buffer(hw, q);
		return false;
	}
	memset(&cqe, 0, sizeof(cqe));
	cqe.rss_hash = whw_le32(ri->hash);
	cqe.vlan_tci = whw_le16(ri->vlan_tci);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t chunk = whw_le16(b[i].len);
		bool last = i + 1 == n;

		if (chunk > len - off)
			chunk = len - off;
		cqe.desc_idx = whw_le16((uint16_t)(q->ci + i));
		cqe.len = whw_le16((uint16_t)chunk);
		cqe.flags = whw_le16(ri->flags | (last ? WREN_ETH_RX_F_EOP : 0));
		if (hw->ops->dma_write(hw->opaque, whw_le64(b[i].addr),
				       f + off, chunk)) {
			cqe.len = 0;
			cqe.flags = whw_le16(WREN_ETH_RX_F_EOP);
			cqe.status = WREN_WQ_SYND_DMA;
			whw_ethq_complete(hw, q, &cqe);
			q->ci += i + 1;
			whw_ethq_error(hw, q, WREN_WQ_SYND_DMA);
			q->counters[WREN_ETHQ_CNT_DROPPED]++;
			return false;
		}
		whw_ethq_complete(hw, q, &cqe);
		off += chunk;
	}
	q->ci += n;
	q->counters[WREN_ETHQ_CNT_PACKETS]++;
	q->counters[WREN_ETHQ_CNT_BYTES] += len;
	if (ri->flags & (WREN_ETH_RX_F_L3_CSUM_OK | WREN_ETH_RX_F_L4_CSUM_OK))
		q->counters[WREN_ETHQ_CNT_CSUM_OFFLOADED]++;
	return true;
}

bool whw_eth_rx(struct wrenhw *hw, const uint8_t *f, size_t flen)
{
	uint32_t len = (uint32_t)flen;
	struct whw_rx_info ri;
	bool tagged;

	/* Port counters see every frame the wire delivered. */
	hw->cnt_port[WREN_CNT_RX_PACKETS]++;
	hw->cnt_port[WREN_CNT_RX_BYTES] += len;
	if (f[0] & 1) {
		bool bcast = (f[0] & f[1] & f[2] & f[3] & f[4] & f[5]) == 0xff;

		hw->cnt_port[bcast ? WREN_CNT_RX_BROADCAST
				   : WREN_CNT_RX_MULTICAST]++;
	}
	if (!filter_pass(hw, f)) {
		hw->cnt_port[WREN_CNT_RX_DROPPED_FILTER]++;
		return false;
	}
	tagged = len >= WHW_ETH_HLEN + WHW_VLAN_HLEN && f[12] == 0x81 &&
		 f[13] == 0x00;
	if (len > hw->port.mtu + WHW_ETH_HLEN + (tagged ? WHW_VLAN_HLEN : 0)) {
		hw->cnt_port[WREN_CNT_RX_ERRORS_LENGTH]++;
		return false;
	}
	memset(&ri, 0, sizeof(ri));
	if (tagged) {
		/* Strip: addresses, then everything after the tag. */
		ri.vlan_tci = whw_rd16be(f + 14);
		ri.flags |= WREN_ETH_RX_F_VLAN;
		memcpy(hw->rx_buf, f, 12);
		memcpy(hw->rx_buf + 12, f + 16, len - 16);
		f = hw->rx_buf;
		len -= WHW_VLAN_HLEN;
		hw->cnt_prio[ri.vlan_tci >> 13][WREN_PRIO_CNT_RX_PRIO_PACKETS]++;
		hw->cnt_prio[ri.vlan_tci >> 13][WREN_PRIO_CNT_RX_PRIO_BYTES] +=
			flen;
	} else {
		hw->cnt_prio[0][WREN_PRIO_CNT_RX_PRIO_PACKETS]++;
		hw->cnt_prio[0][WREN_PRIO_CNT_RX_PRIO_BYTES] += flen;
	}
	/* RoCEv2 for one of our GIDs goes to the RDMA engine instead. */
	if (whw_roce_rx(hw, f, len, tagged, ri.vlan_tci))
		return true;
	whw_rx_classify(&ri, f, len);
	if (ri.flags & WREN_ETH_RX_F_CSUM_BAD)
		hw->cnt_port[WREN_CNT_RX_CSUM_BAD]++;
	return rx_deliver(hw, whw_rx_pick_queue(hw, &ri), f, len, &ri);
}
