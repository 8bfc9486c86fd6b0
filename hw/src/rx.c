// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Frames from the wire: PHY status frames go to the port, MAC control
 * frames (pause, PFC) to pause.c, everything else through the receive
 * buffers (rxbuf.c) to the Ethernet receive engine (eth_rx.c) while the
 * link is up.
 */
#include "whw_board.h"
#include "whw_device.h"
#include "whw_eth.h"
#include "whw_mac_ctrl.h"
#include "whw_rxbuf.h"
#include "whw_sched.h"
#include "wrenhw.h"

#define ETH_HLEN	14
#define ETH_MIN_LEN	ETH_HLEN
#define ETH_MAX_LEN	(ETH_HLEN + 4 + WHW_MAX_MTU)	/* with a VLAN tag */

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
	/* A port that is down (wire, admin or flap) receives nothing. */
	if (!whw_link_active(hw))
		return false;
	/* Pause and PFC frames are the port's own, never passed up. */
	if (whw_mac_ctrl_is(f, len)) {
		bool ok = whw_pause_rx(hw, f, len);

		whw_sched_kick(hw);
		return ok;
	}
	return whw_rxbuf_rx(hw, f, len);
}
