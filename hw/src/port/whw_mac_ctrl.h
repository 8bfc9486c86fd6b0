/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * 802.3x pause and 802.1Qbb PFC frames (mac_ctrl.c); the wire format is
 * in Documentation/.../wire.rst ("Flow control frames").
 */
#ifndef WHW_MAC_CTRL_H
#define WHW_MAC_CTRL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WHW_ETH_P_MAC_CTRL	0x8808
#define WHW_MAC_CTRL_PAUSE	0x0001
#define WHW_MAC_CTRL_PFC	0x0101
/* The minimum Ethernet frame without FCS: control frames are padded. */
#define WHW_MAC_CTRL_FRAME_LEN	60

/* What one received control frame asks for. */
struct whw_pause_req {
	uint16_t opcode;	/* WHW_MAC_CTRL_PAUSE or _PFC */
	uint8_t enable;		/* priorities the times apply to */
	uint16_t quanta[8];	/* per priority, 0 = XON */
};

bool whw_mac_ctrl_is(const uint8_t *f, size_t len);
/*
 * Parses a pause or PFC frame; -1 for anything else with EtherType 0x8808
 * (another opcode, a short frame, a wrong destination).  An 802.3x pause
 * comes back as all eight priorities with its one time.
 */
int whw_mac_ctrl_parse(const uint8_t *f, size_t len,
		       struct whw_pause_req *req);
/* Builds a PFC frame into @f (WHW_MAC_CTRL_FRAME_LEN bytes). */
size_t whw_mac_ctrl_build_pfc(uint8_t *f, const uint8_t *src_mac,
			      uint8_t enable, const uint16_t *quanta);
/* Builds an 802.3x pause frame (one time for the whole link; 0 = XON). */
size_t whw_mac_ctrl_build_pause(uint8_t *f, const uint8_t *src_mac,
				uint16_t quanta);
uint64_t whw_pause_quanta_ns(uint32_t quanta, uint32_t speed_mbps);

#endif
