// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Frames from the wire: PHY status frames go to the port, everything else
 * to the Ethernet/RoCE receive path.  Until the engines exist the receive
 * path counts and drops (no RX queue can take the frame yet).
 */
#include "wrenhw_int.h"

#define ETH_HLEN	14
#define ETH_MIN_LEN	ETH_HLEN
#define ETH_MAX_LEN	(ETH_HLEN + 4 + WHW_MAX_MTU)	/* with a VLAN tag */

bool whw_eth_rx(struct wrenhw *hw, const uint8_t *f, size_t len)
{
	hw->cnt_port[WREN_CNT_RX_PACKETS]++;
	hw->cnt_port[WREN_CNT_RX_BYTES] += len;
	if (f[0] & 1) {
		bool bcast = (f[0] & f[1] & f[2] & f[3] & f[4] & f[5]) == 0xff;

		hw->cnt_port[bcast ? WREN_CNT_RX_BROADCAST
				   : WREN_CNT_RX_MULTICAST]++;
	}
	hw->cnt_port[WREN_CNT_RX_DROPPED_NO_BUFFER]++;
	return false;
}

bool wrenhw_rx_frame(struct wrenhw *hw, const void *frame, size_t len)
{
	const uint8_t *f = frame;

	if (!f || len < ETH_MIN_LEN || len > ETH_MAX_LEN) {
		hw->cnt_port[WREN_CNT_RX_ERRORS_LENGTH]++;
		return false;
	}
	/* The PHY channel works even while the device is fatal or resetting. */
	if (whw_phy_frame(hw, f, len))
		return true;
	if ((hw->status & WREN_STATUS_FATAL) || !hw->port.reported_active)
		return false;
	return whw_eth_rx(hw, f, len);
}
