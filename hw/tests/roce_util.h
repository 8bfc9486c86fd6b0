/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Two Wren models back to back for the RoCE engine tests: a frame queue
 * between them (never delivered from inside tx_frame: the model must not
 * re-enter), loss and corruption on demand, and a tiny RDMA "driver" that
 * makes PDs, CQs, QPs and MRs through the admin queue as wren_ib.ko will,
 * posts WQEs, rings doorbells and polls CQEs.
 */
#ifndef WRENHW_TEST_ROCE_UTIL_H
#define WRENHW_TEST_ROCE_UTIL_H

#include "rdma.h"
#include "tests.h"

#define RO_MAX_QUEUE	16384
/*
 * The pair's link: fast enough that a whole 256 KiB window leaves within
 * the window tests' ACK timeout (test_roce_window.c).
 */
#define RO_LINK_MBPS	100000u

struct ro_frame {
	int to;
	size_t len;
	uint8_t *data;
};

struct ro_pair;

struct ro_hook {
	struct ro_pair *p;
	int from;
};

struct ro_pair {
	struct ro_node n[2];
	struct ro_hook hk[2];
	struct ro_frame *q;
	unsigned int qhead, qlen;
	/* Loss and corruption: drop frame number k (counted from 1) ... */
	unsigned int sent;
	unsigned int drop_every;	/* drop 1 in n frames at random (0: none) */
	uint32_t rng;
	unsigned int drop_next;		/* drop the next n frames */
	unsigned int corrupt_next;	/* flip a payload byte of the next n */
	int only_from;			/* -1: both directions, else node */
	uint8_t drop_opcode;		/* with drop_opcode_n: BTH opcode */
	unsigned int drop_opcode_n;
	unsigned int delivered;
	/* A congested switch: the next ce_next ECN-capable frames from
	 * ce_from (-1: either side) are delivered marked CE. */
	unsigned int ce_next;
	int ce_from;
	unsigned int ce_marked;
	unsigned int hold;		/* keep frames queued (for inspection) */
	/* If set: sees every frame as sent (@delivered false), and as
	 * delivered (not lost) just before the receiver gets it. */
	void (*watch)(void *ctx, int from, bool delivered, const uint8_t *f,
		      size_t len);
	void *watch_ctx;
};

/* Two linked NICs with RDMA capabilities, MTU 9000, GIDs 0 (IPv4) and 1. */
void ro_pair_init(struct ro_pair *p);
/* The same on a discrete-event clock (wrenhw_config.discrete_clock). */
void ro_pair_init_clock(struct ro_pair *p, bool discrete);
void ro_pair_fini(struct ro_pair *p);
/* Delivers frames and runs both models until quiet (timers included,
 * up to @max_ns of simulated time). */
void ro_settle(struct ro_pair *p, uint64_t max_ns);
/* Both nodes' clocks @ns on, firing their timers; delivers nothing. */
void ro_advance(struct ro_pair *p, uint64_t ns);
/* One step in an order of the test's choosing: every queued frame
 * delivered (no loss, marks or watch), then one wrenhw_process() call of
 * @node if it asked for one (-1: no node's). */
void ro_step(struct ro_pair *p, int node);
/* BTH opcode of queued frame i (hold mode), or -1. */
int ro_queued_opcode(struct ro_pair *p, unsigned int i);

/* RC, UC: RESET -> INIT -> RTR -> RTS against the peer QP. */
int ro_connect(struct ro_pair *p, int side, struct ro_qp *qp,
	       struct ro_qp *peer, const struct ro_conn *c);
int64_t ro_ah_create(struct ro_pair *p, int side, bool ipv6);

/* Fills [off, off + len) of @mr with pattern @seed; returns a copy. */
uint8_t *ro_mr_pattern(struct ro_mr *mr, uint64_t off, uint32_t len,
		       uint32_t seed);
/* Whether [off, off + len) of @mr holds @want. */
bool ro_mr_same(struct ro_mr *mr, uint64_t off, const uint8_t *want,
		uint32_t len);

/*
 * A RoCEv2 frame over IPv4 whose IP packet (IP header to ICRC) is @l3
 * bytes: the Ethernet, IP and UDP headers written, the rest zeroed.
 * Returns the BTH, which the caller fills, and the ICRC.
 */
uint8_t *ro_frame_v4(uint8_t *f, uint32_t l3, const uint8_t *dmac,
		     const uint8_t *smac, const uint8_t *sip,
		     const uint8_t *dip, uint16_t sport);
/* Pattern helpers. */
void ro_fill(uint8_t *b, size_t n, uint32_t seed);

#endif
