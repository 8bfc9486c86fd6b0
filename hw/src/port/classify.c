// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The trust rule shared by everything that gives a packet its priority:
 * RoCE transmit (the AV's traffic class), Ethernet transmit, the receive
 * buffers and the notification point.  Under DSCP trust an IP packet's
 * DSCP picks its priority through the port's map, as a peer switch
 * trusting DSCP would classify it.
 */
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "whw_port.h"

#define ETH_P_8021Q	0x8100
#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86dd

bool whw_trust_dscp(const struct wrenhw *hw)
{
	return hw->dcb.state.trust.trust == WREN_TRUST_DSCP;
}

uint8_t whw_dscp_prio(const struct wrenhw *hw, uint8_t dscp)
{
	return hw->dcb.state.trust.dscp2prio[dscp & 63] & (WREN_NUM_PRIO - 1);
}

bool whw_frame_dscp(const uint8_t *f, size_t len, uint8_t *dscp)
{
	size_t l3 = 14;
	uint16_t proto;

	if (len < 18)
		return false;
	proto = whw_rd16be(f + 12);
	if (proto == ETH_P_8021Q) {
		l3 = 18;
		proto = whw_rd16be(f + 16);
		if (len < l3 + 2)
			return false;
	}
	if (proto == ETH_P_IP && f[l3] >> 4 == 4)
		*dscp = f[l3 + 1] >> 2;
	else if (proto == ETH_P_IPV6 && f[l3] >> 4 == 6)
		*dscp = (uint8_t)((f[l3] & 0x0f) << 2 | f[l3 + 1] >> 6);
	else
		return false;
	return true;
}
