// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MAC control frames (802.3 annex 31B pause, 802.1Qbb PFC): the one place
 * the model builds and parses them, for the receive side that honours
 * pauses and the transmit side that sends them.
 */
#include <string.h>

#include "../whw_byteorder.h"
#include "whw_mac_ctrl.h"

static const uint8_t pause_da[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

bool whw_mac_ctrl_is(const uint8_t *f, size_t len)
{
	return len >= 14 && whw_rd16be(f + 12) == WHW_ETH_P_MAC_CTRL;
}

int whw_mac_ctrl_parse(const uint8_t *f, size_t len,
		       struct whw_pause_req *req)
{
	memset(req, 0, sizeof(*req));
	if (!whw_mac_ctrl_is(f, len) || len < 14 + 4)
		return -1;
	/* Pause frames go to the reserved group address only (31B.1). */
	if (memcmp(f, pause_da, 6))
		return -1;
	req->opcode = whw_rd16be(f + 14);
	if (req->opcode == WHW_MAC_CTRL_PAUSE) {
		req->enable = 0xff;
		for (unsigned int i = 0; i < 8; i++)
			req->quanta[i] = whw_rd16be(f + 16);
		return 0;
	}
	if (req->opcode != WHW_MAC_CTRL_PFC || len < 14 + 4 + 16)
		return -1;
	/* The vector's upper octet is reserved (802.1Qbb 36.1.3.1). */
	req->enable = (uint8_t)whw_rd16be(f + 16);
	for (unsigned int i = 0; i < 8; i++)
		req->quanta[i] = whw_rd16be(f + 18 + 2 * i);
	return 0;
}

size_t whw_mac_ctrl_build_pfc(uint8_t *f, const uint8_t *src_mac,
			      uint8_t enable, const uint16_t *quanta)
{
	memset(f, 0, WHW_MAC_CTRL_FRAME_LEN);
	memcpy(f, pause_da, 6);
	memcpy(f + 6, src_mac, 6);
	whw_wr16be(f + 12, WHW_ETH_P_MAC_CTRL);
	whw_wr16be(f + 14, WHW_MAC_CTRL_PFC);
	whw_wr16be(f + 16, enable);
	for (unsigned int i = 0; i < 8; i++)
		whw_wr16be(f + 18 + 2 * i,
			   (enable & (1u << i)) ? quanta[i] : 0);
	return WHW_MAC_CTRL_FRAME_LEN;
}

size_t whw_mac_ctrl_build_pause(uint8_t *f, const uint8_t *src_mac,
				uint16_t quanta)
{
	memset(f, 0, WHW_MAC_CTRL_FRAME_LEN);
	memcpy(f, pause_da, 6);
	memcpy(f + 6, src_mac, 6);
	whw_wr16be(f + 12, WHW_ETH_P_MAC_CTRL);
	whw_wr16be(f + 14, WHW_MAC_CTRL_PAUSE);
	whw_wr16be(f + 16, quanta);
	return WHW_MAC_CTRL_FRAME_LEN;
}

uint64_t whw_pause_quanta_ns(uint32_t quanta, uint32_t speed_mbps)
{
	/* One quantum is 512 bit times: 512000 / Mb/s nanoseconds. */
	if (!speed_mbps)
		return 0;
	return (uint64_t)quanta * 512000u / speed_mbps;
}
