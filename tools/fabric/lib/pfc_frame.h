/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * MAC control frames: 802.1Qbb priority flow control and 802.3x pause.
 * The fabric is a third-party switch and carries its own implementation of
 * the format, independent of the Wren contract headers.
 */
#ifndef WREN_FABRIC_PFC_FRAME_H
#define WREN_FABRIC_PFC_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ether.h"

#define ETHERTYPE_MAC_CONTROL 0x8808
#define MAC_CTRL_OPCODE_PAUSE 0x0001 /* 802.3x, annex 31B */
#define MAC_CTRL_OPCODE_PFC 0x0101   /* 802.1Qbb */
#define PFC_FRAME_LEN ETH_MIN_FRAME
#define PFC_MAX_QUANTA 0xffffu
/* one quantum is 512 bit times at the port's rate */
#define PFC_QUANTUM_BITS 512u

extern const uint8_t mac_ctrl_dst[ETH_ALEN]; /* 01:80:C2:00:00:01 */

enum mac_ctrl_kind {
	MAC_CTRL_NONE,   /* not a MAC control frame: switch it */
	MAC_CTRL_PFC,    /* 802.1Qbb: per-priority times */
	MAC_CTRL_PAUSE,  /* 802.3x: one time for the whole link */
	MAC_CTRL_OTHER,  /* MAC control with another opcode, or truncated */
};

struct mac_ctrl {
	enum mac_ctrl_kind kind;
	uint8_t class_enable;              /* PFC: priorities the frame names */
	uint16_t quanta[FABRIC_PRIOS];     /* PFC per priority, pause in [0] */
};

/*
 * Fill @out (PFC_FRAME_LEN bytes) with a PFC frame from @src naming the
 * priorities in @class_enable; @quanta[p] is used for each named p (0 is
 * XON).  Unnamed priorities carry a time of 0, as the standard asks.
 */
void pfc_frame_build(uint8_t out[PFC_FRAME_LEN], const uint8_t src[ETH_ALEN],
		     uint8_t class_enable,
		     const uint16_t quanta[FABRIC_PRIOS]);

/* Fill @out with an 802.3x pause frame of @quanta. */
void pause_frame_build(uint8_t out[PFC_FRAME_LEN],
		       const uint8_t src[ETH_ALEN], uint16_t quanta);

/*
 * Classify @frame (@len >= ETH_HDR_LEN): MAC control frames are recognised
 * by their EtherType (untagged, as 802.3 requires) whatever their
 * destination, so that a malformed one is consumed rather than forwarded.
 */
struct mac_ctrl mac_ctrl_parse(const uint8_t *frame, size_t len);

/* Nanoseconds that @quanta pause quanta last at @rate_mbps. */
uint64_t pfc_quanta_ns(uint32_t quanta, uint32_t rate_mbps);

#endif
