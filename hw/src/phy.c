// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The fabric's PHY status frame: how the switch port tells the NIC that
 * the link went up or down and at which speed (see hw/README.md):
 *
 *   dst 02:57:52:45:4e:00, EtherType 0x88b6, then
 *   "WPHY" | u8 version (1) | u8 link_up (0/1) | u16 reserved (0) |
 *   u32 speed in Mb/s, big-endian
 *
 * Anything malformed is dropped and counted as a length/format error.
 */
#include <string.h>

#include "whw_byteorder.h"
#include "whw_device.h"
#include "whw_eth.h"

#define PHY_ETHERTYPE	0x88b6
#define PHY_HDR_LEN	14
#define PHY_BODY_LEN	12
#define PHY_VERSION	1

static const uint8_t phy_dst[6] = { 0x02, 0x57, 0x52, 0x45, 0x4e, 0x00 };

/* Is this frame addressed to the PHY channel at all? */
static bool is_phy_frame(const uint8_t *f, size_t len)
{
	return len >= PHY_HDR_LEN && !memcmp(f, phy_dst, sizeof(phy_dst)) &&
	       whw_rd16be(f + 12) == PHY_ETHERTYPE;
}

bool whw_phy_frame(struct wrenhw *hw, const uint8_t *f, size_t len)
{
	const uint8_t *b = f + PHY_HDR_LEN;
	uint32_t speed;

	if (!is_phy_frame(f, len))
		return false;
	if (len < PHY_HDR_LEN + PHY_BODY_LEN || memcmp(b, "WPHY", 4) ||
	    b[4] != PHY_VERSION || b[5] > 1 || b[6] || b[7]) {
		hw->cnt_port[WREN_CNT_RX_ERRORS_LENGTH]++;
		return true;	/* consumed: it was for the PHY, malformed */
	}
	speed = whw_rd32be(b + 8);
	wrenhw_set_link(hw, b[5], speed);
	return true;
}
