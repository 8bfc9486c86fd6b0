// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "ether.h"

#include <string.h>

/* Locally administered addresses spelling "WREN", see README.md. */
const uint8_t phy_status_dst[ETH_ALEN] = { 0x02, 0x57, 0x52, 0x45, 0x4E, 0x00 };
const uint8_t phy_status_src[ETH_ALEN] = { 0x02, 0x57, 0x52, 0x45, 0x4E, 0xFF };

void dscp_map_default(uint8_t map[DSCP_COUNT])
{
	for (int d = 0; d < DSCP_COUNT; d++)
		map[d] = (uint8_t)(d >> 3);
}

static bool ip_dscp(const uint8_t *frame, size_t len, uint16_t type,
		    uint8_t *dscp)
{
	const uint8_t *ip = frame + ETH_HDR_LEN;
	size_t ip_len = len - ETH_HDR_LEN;

	if (type == ETHERTYPE_IPV4) {
		if (ip_len < 20 || (ip[0] >> 4) != 4)
			return false;
		*dscp = ip[1] >> 2;
		return true;
	}
	if (type == ETHERTYPE_IPV6) {
		if (ip_len < 40 || (ip[0] >> 4) != 6)
			return false;
		/* traffic class straddles bytes 0 and 1 */
		uint8_t tclass = (uint8_t)((ip[0] & 0x0f) << 4 | ip[1] >> 4);
		*dscp = tclass >> 2;
		return true;
	}
	return false;
}

struct classification classify_frame(const uint8_t *frame, size_t len,
				     const uint8_t dscp_map[DSCP_COUNT])
{
	struct classification c = { 0, PRIO_FROM_DEFAULT };
	uint16_t type = get_be16(frame + 12);
	uint8_t dscp;

	if (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ) {
		if (len >= ETH_HDR_LEN + 2) {
			c.prio = frame[ETH_HDR_LEN] >> 5;
			c.source = PRIO_FROM_PCP;
		}
		return c;
	}
	if (ip_dscp(frame, len, type, &dscp)) {
		c.prio = dscp_map[dscp] & (FABRIC_PRIOS - 1);
		c.source = PRIO_FROM_DSCP;
	}
	return c;
}

void phy_status_build(uint8_t out[PHY_FRAME_LEN], bool link_up,
		      uint32_t speed_mbps)
{
	memset(out, 0, PHY_FRAME_LEN);
	memcpy(out, phy_status_dst, ETH_ALEN);
	memcpy(out + ETH_ALEN, phy_status_src, ETH_ALEN);
	put_be16(out + 12, ETHERTYPE_PHY_STATUS);
	memcpy(out + 14, PHY_MAGIC, 4);
	out[18] = PHY_VERSION;
	out[19] = link_up ? 1 : 0;
	/* bytes 20-21 reserved, zero */
	put_be32(out + 22, speed_mbps);
}

bool phy_status_is(const uint8_t *frame, size_t len)
{
	return len >= ETH_HDR_LEN &&
	       get_be16(frame + 12) == ETHERTYPE_PHY_STATUS &&
	       memcmp(frame, phy_status_dst, ETH_ALEN) == 0;
}
