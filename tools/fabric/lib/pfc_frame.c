// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "pfc_frame.h"

#include <string.h>

const uint8_t mac_ctrl_dst[ETH_ALEN] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

static void mac_ctrl_header(uint8_t *out, const uint8_t src[ETH_ALEN],
			    uint16_t opcode)
{
	memset(out, 0, PFC_FRAME_LEN);
	memcpy(out, mac_ctrl_dst, ETH_ALEN);
	memcpy(out + ETH_ALEN, src, ETH_ALEN);
	put_be16(out + 12, ETHERTYPE_MAC_CONTROL);
	put_be16(out + 14, opcode);
}

void pfc_frame_build(uint8_t out[PFC_FRAME_LEN], const uint8_t src[ETH_ALEN],
		     uint8_t class_enable,
		     const uint16_t quanta[FABRIC_PRIOS])
{
	mac_ctrl_header(out, src, MAC_CTRL_OPCODE_PFC);
	/* the vector is 16 bits; the upper octet is reserved, zero */
	put_be16(out + 16, class_enable);
	for (int p = 0; p < FABRIC_PRIOS; p++)
		if (class_enable & (1u << p))
			put_be16(out + 18 + 2 * p, quanta[p]);
}

void pause_frame_build(uint8_t out[PFC_FRAME_LEN],
		       const uint8_t src[ETH_ALEN], uint16_t quanta)
{
	mac_ctrl_header(out, src, MAC_CTRL_OPCODE_PAUSE);
	put_be16(out + 16, quanta);
}

struct mac_ctrl mac_ctrl_parse(const uint8_t *frame, size_t len)
{
	struct mac_ctrl c;
	uint16_t opcode;

	memset(&c, 0, sizeof(c));
	if (len < ETH_HDR_LEN || get_be16(frame + 12) != ETHERTYPE_MAC_CONTROL)
		return c;
	c.kind = MAC_CTRL_OTHER;
	if (len < ETH_HDR_LEN + 2)
		return c;
	opcode = get_be16(frame + 14);
	if (opcode == MAC_CTRL_OPCODE_PAUSE && len >= ETH_HDR_LEN + 4) {
		c.kind = MAC_CTRL_PAUSE;
		c.class_enable = 0xff;
		for (int p = 0; p < FABRIC_PRIOS; p++)
			c.quanta[p] = get_be16(frame + 16);
	} else if (opcode == MAC_CTRL_OPCODE_PFC &&
		   len >= ETH_HDR_LEN + 4 + 2 * FABRIC_PRIOS) {
		c.kind = MAC_CTRL_PFC;
		/* reserved upper octet ignored, as a receiver should */
		c.class_enable = frame[17];
		for (int p = 0; p < FABRIC_PRIOS; p++)
			c.quanta[p] = get_be16(frame + 18 + 2 * p);
	}
	return c;
}

uint64_t pfc_quanta_ns(uint32_t quanta, uint32_t rate_mbps)
{
	/* bits / (Mb/s = bits/us) in us; times 1000 for ns */
	return (uint64_t)quanta * PFC_QUANTUM_BITS * 1000u / rate_mbps;
}
