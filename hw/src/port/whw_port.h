/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The port as the rest of the model sees it: its link state (port.c) and
 * the trust rule (SET_TRUST) in one place (classify.c): which priority a
 * DSCP means, and where a raw frame's DSCP is.
 */
#ifndef WHW_PORT_H
#define WHW_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wrenhw.h"

/* port.c: the link, admin or flap state changed; post what it means. */
void whw_port_update(struct wrenhw *hw);
/* port.c: a DIAG link flap that has run its time ends at @now. */
void whw_port_timer(struct wrenhw *hw, uint64_t now);

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
