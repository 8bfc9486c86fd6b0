/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Egress side of one switch port: eight priority queues, a scheduler that
 * picks the next queue, and a serialization clock that paces frames at the
 * port's link rate.
 *
 * The shape is meant to grow: egress_admit() is the one place every frame
 * passes before it is queued (ECN marking with Kmin/Kmax/Pmax goes there),
 * egress_queue_eligible() is where a PFC pause of one priority will stop a
 * queue, and egress_pick_queue() is the scheduler that ETS/DWRR replaces.
 */
#ifndef WREN_FABRIC_EGRESS_H
#define WREN_FABRIC_EGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "ether.h"

/* A frame held by the fabric between ingress and delivery. */
struct frame {
	struct frame *next;
	uint64_t enqueue_ns;
	uint32_t len;
	uint8_t ingress_port;
	uint8_t prio;
	uint8_t data[];
};

struct frame *frame_alloc(const uint8_t *data, uint32_t len);
void frame_free(struct frame *f);

struct egress_queue_stats {
	uint64_t enq_frames;
	uint64_t enq_bytes;
	uint64_t tx_frames;
	uint64_t tx_bytes;
	uint64_t drop_full_frames;  /* tail drop: depth limit reached */
	uint64_t drop_full_bytes;
	uint64_t drop_flush_frames; /* discarded when the link went down */
	uint64_t max_depth_bytes;
};

struct egress_queue {
	struct frame *head, *tail;
	uint32_t depth_frames;
	uint64_t depth_bytes;
	uint32_t limit_frames;
	uint64_t limit_bytes;
	struct egress_queue_stats st;
};

#define EGRESS_DEFAULT_LIMIT_FRAMES 1024
#define EGRESS_DEFAULT_LIMIT_BYTES (512u * 1024)

struct egress_port {
	struct egress_queue q[FABRIC_PRIOS];
	uint32_t rate_mbps;
	/*
	 * Serialization clock in picoseconds (fabric-relative time), so that
	 * per-frame rounding never accumulates even at 100 Gb/s.  A frame
	 * starts when the wire is free and the frame has arrived, in model
	 * time: an event loop that wakes late catches up by sending several
	 * frames at once, and the rate still holds over any interval.
	 */
	uint64_t busy_until_ps;
};

enum egress_verdict {
	EGRESS_ACCEPT,
	EGRESS_DROP_FULL,
};

void egress_init(struct egress_port *ep, uint32_t rate_mbps);

/* Bytes a frame occupies on the wire: padding, FCS, preamble and IFG. */
uint32_t wire_bytes(uint32_t len);
/* Serialization time of a @len byte frame at @rate_mbps, in picoseconds. */
uint64_t wire_time_ps(uint32_t len, uint32_t rate_mbps);

/* The per-frame enqueue hook: decides admission (and later ECN marks). */
enum egress_verdict egress_admit(struct egress_port *ep, unsigned qi,
				 struct frame *f, uint64_t now_ns);
/* Queue @f on queue @qi; on a drop the frame is freed and counted. */
enum egress_verdict egress_enqueue(struct egress_port *ep, unsigned qi,
				   struct frame *f, uint64_t now_ns);
/* May queue @qi send now?  (A PFC pause will make this false.) */
bool egress_queue_eligible(const struct egress_port *ep, unsigned qi,
			   uint64_t now_ns);
/* Scheduler: the queue to serve next, or -1.  Strict priority: 7 first. */
int egress_pick_queue(const struct egress_port *ep, uint64_t now_ns);
/*
 * Take the next frame if the wire is free at @now_ns, and advance the
 * serialization clock by its wire time.  NULL when the wire is busy or
 * nothing is eligible.
 */
struct frame *egress_dequeue(struct egress_port *ep, uint64_t now_ns);
/* When egress_dequeue() could next return a frame; UINT64_MAX if never. */
uint64_t egress_next_event_ns(const struct egress_port *ep, uint64_t now_ns);
/*
 * Discard everything queued (link down, peer gone); @release (may be NULL)
 * sees each frame before it is freed.  Returns the number of frames.
 */
uint64_t egress_flush(struct egress_port *ep,
		      void (*release)(void *ctx, const struct frame *f),
		      void *ctx);
uint64_t egress_depth_bytes(const struct egress_port *ep);

#endif
