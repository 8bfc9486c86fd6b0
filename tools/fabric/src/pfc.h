/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The fabric as a lossless switch: ingress buffer accounting per (ingress
 * port, priority), PFC XOFF/XON towards the guests with headroom, pauses
 * received from the guests, and the PFC storm watchdog (SONiC's model).
 */
#ifndef WREN_FABRIC_PFC_H
#define WREN_FABRIC_PFC_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric.h"

/* Source address of the PFC frames sent on @port: 02:57:52:45:50:<port>. */
void pfc_port_mac(unsigned port, uint8_t mac[ETH_ALEN]);

/*
 * Admission of @fr by its ingress (port, priority): a lossless priority
 * admits up to its hard limit (xoff + headroom) and marks the frame so the
 * egress queue's tail limit does not apply; beyond it the frame is
 * counted as a lossless drop and false returned.  Lossy: always true.
 */
bool pfc_ingress_admit(struct fabric *f, struct frame *fr);

/* @fr was queued: charge its ingress and maybe send XOFF. */
void pfc_ingress_charge(struct fabric *f, const struct frame *fr);

/* @fr leaves the buffer (@ctx is the fabric): maybe send XON. */
void pfc_ingress_release(void *ctx, const struct frame *fr);

/* Likewise, without any PFC signalling (the fabric is being destroyed). */
void pfc_ingress_release_quiet(void *ctx, const struct frame *fr);

/*
 * A frame from the guest on @port: if it is MAC control (PFC, 802.3x, or
 * anything with EtherType 0x8808) apply it and return true: it is consumed.
 */
bool pfc_receive(struct fabric *f, unsigned port, const uint8_t *frame,
		 uint32_t len, uint64_t now_ns);

/*
 * Time-driven work at @now_ns: XOFF refreshes and the watchdog.  Returns
 * the next time it needs to run, UINT64_MAX if never.
 */
uint64_t pfc_timers(struct fabric *f, uint64_t now_ns);

/* The guest went away or the link went down: forget pauses both ways. */
void pfc_port_reset(struct fabric *f, unsigned port, uint64_t now_ns);

/* Re-evaluate @port's XOFF/XON state, e.g. after a configuration change. */
void pfc_evaluate(struct fabric *f, unsigned port, uint64_t now_ns);

/* PFC transmit pause time of (@port, @prio) so far, in ns. */
uint64_t pfc_tx_pause_ns(const struct fabric_port *p, unsigned prio,
			 uint64_t now_ns);

#endif
