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

#include "ecn.h"
#include "ether.h"
#include "prng.h"

/* A frame held by the fabric between ingress and delivery. */
struct frame {
	struct frame *next;
	uint64_t enqueue_ns;
	uint32_t len;
	uint8_t ingress_port;
	uint8_t prio;
	bool lossless; /* admitted against its ingress headroom, not the queue */
	uint8_t data[];
};

struct frame *frame_alloc(const uint8_t *data, uint32_t len);
void frame_free(struct frame *f);

/*
 * Queue-depth histogram: bucket 0 is an empty queue, bucket b (1..) holds
 * depths below 1 KiB << (b - 1), the last bucket everything above.
 */
#define EGRESS_HIST_BUCKETS 12
#define EGRESS_RING 16

struct egress_queue_stats {
	uint64_t enq_frames;
	uint64_t enq_bytes;
	uint64_t tx_frames;
	uint64_t tx_bytes;
	uint64_t drop_full_frames;  /* tail drop: depth limit reached */
	uint64_t drop_full_bytes;
	uint64_t drop_flush_frames; /* discarded when the link went down */
	uint64_t max_depth_bytes;
	uint64_t ecn_marked;        /* CE set by RED/ECN */
	uint64_t drop_red_frames;   /* Not-ECT dropped by RED */
	uint64_t drop_wd_frames;    /* discarded by the PFC watchdog */
	uint64_t pfc_rx_xoff;       /* pauses received for this priority */
	uint64_t pfc_rx_xon;
	uint64_t pause_ns;          /* closed paused intervals */
	uint64_t wd_storms;         /* watchdog: storms detected */
	uint64_t wd_restores;       /* watchdog: storms restored */
	/* depth met by each arriving frame: log2 buckets, see EGRESS_HIST */
	uint64_t depth_hist[EGRESS_HIST_BUCKETS];
	uint64_t depth_ring[EGRESS_RING];
	uint32_t ring_next;
};

/* PFC watchdog of one queue, in SONiC's style. */
enum pfcwd_action {
	PFCWD_DROP,    /* discard queued and new frames during a storm */
	PFCWD_FORWARD, /* ignore the pauses during a storm */
};

struct pfcwd_config {
	uint64_t detect_ns;  /* 0: watchdog off */
	uint64_t restore_ns;
	enum pfcwd_action action;
};

struct egress_queue {
	struct frame *head, *tail;
	uint32_t depth_frames;
	uint64_t depth_bytes;
	uint32_t limit_frames;
	uint64_t limit_bytes;
	struct red_config red;
	/* received PFC: the queue may not send before paused_until_ns */
	uint64_t paused_until_ns;
	uint64_t pause_start_ns;
	bool pause_open;        /* an interval since pause_start_ns is open */
	uint64_t last_xoff_ns;  /* arrival of the last non-zero pause */
	struct pfcwd_config wd;
	bool storm;             /* watchdog has declared a storm */
	bool stalled;           /* paused with frames waiting ... */
	uint64_t stalled_since_ns; /* ... since then */
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
	/* RED's own stream, so that marking never shifts fault injection */
	struct prng red_prng;
	/*
	 * ETS: a queue of weight 0 is strict priority (all of them by
	 * default), served before the weighted ones, which share what is
	 * left by deficit round robin, EGRESS_DWRR_QUANTUM x weight bytes
	 * per round: small, so that shares hold over a few frames (weights
	 * 30:10 are 7680:2560 bytes a round), large enough that a 64 KiB
	 * frame of a weight-1 queue waits at most 256 rounds.
	 */
	uint8_t weight[FABRIC_PRIOS];
	uint64_t deficit[FABRIC_PRIOS];
	uint8_t rr;      /* the weighted queue whose turn it is */
	bool rr_topped;  /* ... and it has had its quantum this turn */
};

#define EGRESS_DWRR_QUANTUM 256u
#define EGRESS_MAX_WEIGHT 100u

enum egress_verdict {
	EGRESS_ACCEPT,
	EGRESS_DROP_FULL,
	EGRESS_DROP_RED,
	EGRESS_DROP_WD,
};

void egress_init(struct egress_port *ep, uint32_t rate_mbps);

/* Bytes a frame occupies on the wire: padding, FCS, preamble and IFG. */
uint32_t wire_bytes(uint32_t len);
/* Serialization time of a @len byte frame at @rate_mbps, in picoseconds. */
uint64_t wire_time_ps(uint32_t len, uint32_t rate_mbps);

/*
 * The per-frame enqueue hook: the watchdog's storm drop, tail drop (not
 * for lossless frames, which their ingress headroom admitted), and RED/ECN
 * marking or dropping.
 */
enum egress_verdict egress_admit(struct egress_port *ep, unsigned qi,
				 struct frame *f, uint64_t now_ns);
/* Queue @f on queue @qi; on a drop the frame is freed and counted. */
enum egress_verdict egress_enqueue(struct egress_port *ep, unsigned qi,
				   struct frame *f, uint64_t now_ns);
/*
 * May queue @qi send now?  Not while a received PFC pause lasts, unless
 * the watchdog forwards through a storm.
 */
bool egress_queue_eligible(const struct egress_port *ep, unsigned qi,
			   uint64_t now_ns);
/*
 * Scheduler: a queue that can send, or -1.  Strict-priority queues (weight
 * 0) first, 7 first; otherwise the weighted queue whose DWRR turn it is
 * (egress_dequeue() then runs the round robin itself).
 */
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
/* Set the ETS weights (0: strict priority; 1..EGRESS_MAX_WEIGHT). */
void egress_set_weights(struct egress_port *ep,
			const uint8_t weight[FABRIC_PRIOS]);
/* Discard queue @qi alone; counts the frames as @wd_drop or flushed. */
uint64_t egress_flush_queue(struct egress_port *ep, unsigned qi, bool wd_drop,
			    void (*release)(void *ctx, const struct frame *f),
			    void *ctx);
/* Is queue @qi held by a received pause at @now_ns? */
bool egress_queue_paused(const struct egress_queue *q, uint64_t now_ns);
/*
 * A received pause of @ns nanoseconds (0: XON) for queue @qi at @now_ns,
 * replacing whatever pause was running.
 */
void egress_pause(struct egress_port *ep, unsigned qi, uint64_t ns,
		  uint64_t now_ns);
/* Paused time so far, the open interval included. */
uint64_t egress_pause_ns(const struct egress_queue *q, uint64_t now_ns);

#endif
