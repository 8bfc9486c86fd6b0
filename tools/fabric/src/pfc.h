/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The fabric as a lossless switch: ingress buffer accounting per (ingress
 * port, priority), PFC XOFF/XON towards the guests with headroom, pauses
 * received from the guests, and the PFC storm watchdog (SONiC's model).
 *
 * Like egress.h it knows nothing of the fabric around it: its state is a
 * struct pfc_port beside each port's egress_port, and what it needs from
 * the fabric (sending a PFC frame, the time) comes through struct
 * pfc_ops.  So fabric.c calls pfc.c and pfc.c never calls fabric.c back.
 */
#ifndef WREN_FABRIC_PFC_H
#define WREN_FABRIC_PFC_H

#include <stdbool.h>
#include <stdint.h>

#include "egress.h"
#include "ether.h"
#include "pfc_frame.h"

#define PFC_MAX_PORTS 64

/*
 * Lossless configuration and PFC transmit state of one (ingress port,
 * priority): the guest on this port is paused when what it sent at this
 * priority occupies xoff bytes, resumed at xon, and frames beyond
 * xoff + headroom (the hard limit) are dropped and counted.
 */
struct pfc_prio {
	bool lossless;
	uint64_t xoff;
	uint64_t xon;
	uint64_t headroom;
	uint16_t quanta;         /* pause time sent with XOFF */
	bool xoff_active;        /* an XOFF is outstanding */
	uint64_t xoff_since_ns;
	uint64_t refresh_at_ns;  /* resend the XOFF before it expires */
	uint64_t tx_pause_ns;    /* closed XOFF..XON intervals */
	uint64_t tx_xoff;        /* XOFF frames naming this priority */
	uint64_t tx_xon;
	uint64_t tx_refresh;     /* XOFFs that refreshed a running pause */
	uint64_t drop_lossless_frames; /* beyond the hard limit: a bug */
	uint64_t drop_lossless_bytes;
	uint64_t ingress_max_bytes;
};

/* PFC of one switch port. */
struct pfc_port {
	unsigned index;
	/* the same port's egress: its rate, the pauses it honours */
	struct egress_port *egress;
	/*
	 * Bytes that entered through this port and wait in some egress queue,
	 * per priority: the ingress buffer occupancy that PFC XOFF/XON
	 * thresholds are compared against.
	 */
	uint64_t ingress_bytes[FABRIC_PRIOS];
	struct pfc_prio prio[FABRIC_PRIOS];
};

/* What PFC needs from the switch it is part of. */
struct pfc_ops {
	void *ctx;
	/* monotonic nanoseconds, the clock the rest of the switch runs on */
	uint64_t (*now_ns)(void *ctx);
	/*
	 * Send the PFC frame @frame to the guest on @port past the data
	 * queues, as a switch's MAC control does; nothing if the port is not
	 * operational.
	 */
	void (*send)(void *ctx, unsigned port, const uint8_t *frame,
		     uint32_t len);
};

/* The switch's PFC: the ports a frame's ingress_port names. */
struct pfc {
	struct pfc_ops ops;
	unsigned nports;
	struct pfc_port *ports[PFC_MAX_PORTS];
};

void pfc_init(struct pfc *pfc, const struct pfc_ops *ops);

/*
 * Add @pp, beside its port's egress @ep, as the next port (its index is
 * the number of ports added before); its priorities start lossy.
 */
void pfc_add_port(struct pfc *pfc, struct pfc_port *pp,
		  struct egress_port *ep);

/* Source address of the PFC frames sent on @port: 02:57:52:45:50:<port>. */
void pfc_port_mac(unsigned port, uint8_t mac[ETH_ALEN]);

/*
 * Admission of @fr by its ingress (port, priority): a lossless priority
 * admits up to its hard limit (xoff + headroom) and marks the frame so the
 * egress queue's tail limit does not apply; beyond it the frame is
 * counted as a lossless drop and false returned.  Lossy: always true.
 */
bool pfc_ingress_admit(struct pfc *pfc, struct frame *fr);

/* @fr was queued: charge its ingress and maybe send XOFF. */
void pfc_ingress_charge(struct pfc *pfc, const struct frame *fr);

/* @fr leaves the buffer (@ctx is the struct pfc): maybe send XON. */
void pfc_ingress_release(void *ctx, const struct frame *fr);

/* Likewise, without any PFC signalling (the fabric is being destroyed). */
void pfc_ingress_release_quiet(void *ctx, const struct frame *fr);

/*
 * A frame from the guest on @port: if it is MAC control (PFC, 802.3x, or
 * anything with EtherType 0x8808) apply it and return its kind: it is
 * consumed.  MAC_CTRL_NONE: not MAC control, the switch forwards it.
 */
enum mac_ctrl_kind pfc_receive(struct pfc *pfc, unsigned port,
			       const uint8_t *frame, uint32_t len,
			       uint64_t now_ns);

/*
 * Time-driven work at @now_ns: XOFF refreshes and the watchdog.  Returns
 * the next time it needs to run, UINT64_MAX if never.
 */
uint64_t pfc_timers(struct pfc *pfc, uint64_t now_ns);

/* The guest went away or the link went down: forget pauses both ways. */
void pfc_port_reset(struct pfc_port *pp, uint64_t now_ns);

/* Re-evaluate @port's XOFF/XON state, e.g. after a configuration change. */
void pfc_evaluate(struct pfc *pfc, unsigned port, uint64_t now_ns);

/* PFC transmit pause time of (@pp, @prio) so far, in ns. */
uint64_t pfc_tx_pause_ns(const struct pfc_port *pp, unsigned prio,
			 uint64_t now_ns);

#endif
