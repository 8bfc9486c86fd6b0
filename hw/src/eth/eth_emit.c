// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The last step of every TX frame, plain, offloaded or a TSO segment: the
 * 802.1Q tag goes in if asked, the queue's counters count it and it goes
 * to the port scheduler (port_sched.c) on its priority (the tag's PCP;
 * else under DSCP trust an IP packet's DSCP's; else the descriptor's
 * WREN_ETH_TX_F_PRIO or the queue's); the port and priority counters
 * count it on the wire.
 *
 * The descriptor's priority comes down from the TX engine (eth_tx.c),
 * which reads it once a packet to find room on the port, so that this
 * step, which the engine calls, never calls back up into it.
 */
#include <string.h>

#include "../port/whw_port.h"
#include "../port/whw_sched.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_eth.h"

/*
 * Under DSCP trust an untagged IP packet goes by its DSCP, as the peer
 * will classify it; anything else keeps the descriptor's priority.
 */
static uint8_t frame_prio(const struct wrenhw *hw, const uint8_t *frame,
			  uint32_t len, uint8_t prio)
{
	uint8_t dscp;

	if (whw_trust_dscp(hw) && whw_frame_dscp(frame, len, &dscp))
		return whw_dscp_prio(hw, dscp);
	return prio;
}

void whw_eth_emit(struct wrenhw *hw, struct whw_eth_q *q,
		  const struct wren_eth_tx_desc *d, uint8_t prio,
		  uint8_t *frame, uint32_t len)
{
	uint16_t flags = whw_le16(d->flags);
	uint16_t vlan_tci = whw_le16(d->vlan_tci);

	if (flags & WREN_ETH_TX_F_VLAN) {
		/* The caller left WHW_VLAN_HLEN bytes of headroom. */
		frame -= WHW_VLAN_HLEN;
		memmove(frame, frame + WHW_VLAN_HLEN, 12);
		whw_wr16be(frame + 12, 0x8100);
		whw_wr16be(frame + 14, vlan_tci);
		len += WHW_VLAN_HLEN;
	} else {
		prio = frame_prio(hw, frame, len, prio);
	}
	q->counters[WREN_ETHQ_CNT_PACKETS]++;
	q->counters[WREN_ETHQ_CNT_BYTES] += len;
	whw_port_xmit(hw, prio, frame, len);
}
