/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The port's trust rule (SET_TRUST) in one place (classify.c): which
 * priority a DSCP means, and where a raw frame's DSCP is.
 */
#ifndef WHW_CLASSIFY_H
#define WHW_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wrenhw.h"

/* True while the port classifies IP packets by their DSCP. */
bool whw_trust_dscp(const struct wrenhw *hw);
/* The priority the port's DSCP map gives @dscp (0 .. 63). */
uint8_t whw_dscp_prio(const struct wrenhw *hw, uint8_t dscp);
/*
 * The DSCP of an IPv4 or IPv6 packet in an Ethernet frame, behind at most
 * one 802.1Q tag; false for anything else or a frame too short to say.
 */
bool whw_frame_dscp(const uint8_t *f, size_t len, uint8_t *dscp);

#endif
