// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "egress.h"

#include <stdlib.h>
#include <string.h>

struct frame *frame_alloc(const uint8_t *data, uint32_t len)
{
	struct frame *f = malloc(sizeof(*f) + len);

	if (!f)
		return NULL;
	memset(f, 0, sizeof(*f));
	f->len = len;
	memcpy(f->data, data, len);
	return f;
}

void frame_free(struct frame *f)
{
	free(f);
}

void egress_init(struct egress_port *ep, uint32_t rate_mbps)
{
	memset(ep, 0, sizeof(*ep));
	ep->rate_mbps = rate_mbps;
	for (int i = 0; i < FABRIC_PRIOS; i++) {
		ep->q[i].limit_frames = EGRESS_DEFAULT_LIMIT_FRAMES;
		ep->q[i].limit_bytes = EGRESS_DEFAULT_LIMIT_BYTES;
	}
}

uint32_t wire_bytes(uint32_t len)
{
	/* frames arrive without FCS; the wire adds it, the preamble/SFD (8)
	 * and the minimum inter-frame gap (12) */
	if (len < ETH_MIN_FRAME)
		len = ETH_MIN_FRAME;
	return len + 4 + 8 + 12;
}

uint64_t wire_time_ps(uint32_t len, uint32_t rate_mbps)
{
	/* bits * 1e6 ps/us / (Mb/s = bits/us) */
	return (uint64_t)wire_bytes(len) * 8u * 1000000u / rate_mbps;
}

enum egress_verdict egress_admit(struct egress_port *ep, unsigned qi,
				 struct frame *f, uint64_t now_ns)
{
	struct egress_queue *q = &ep->q[qi];

	(void)now_ns;
	if (q->storm && q->wd.action == PFCWD_DROP)
		return EGRESS_DROP_WD;
	if (!f->lossless && (q->depth_frames + 1 > q->limit_frames ||
			     q->depth_bytes + f->len > q->limit_bytes))
		return EGRESS_DROP_FULL;
	switch (red_apply(&q->red, q->depth_bytes, &ep->red_prng, f->data,
			  f->len)) {
	case RED_MARK:
		q->st.ecn_marked++;
		break;
	case RED_DROP:
		return EGRESS_DROP_RED;
	case RED_PASS:
		break;
	}
	return EGRESS_ACCEPT;
}

static unsigned depth_bucket(uint64_t depth)
{
	unsigned b = 1;

	if (!depth)
		return 0;
	while (b < EGRESS_HIST_BUCKETS - 1 && depth >= (1024ull << (b - 1)))
		b++;
	return b;
}

enum egress_verdict egress_enqueue(struct egress_port *ep, unsigned qi,
				   struct frame *f, uint64_t now_ns)
{
	struct egress_queue *q = &ep->q[qi];
	enum egress_verdict v = egress_admit(ep, qi, f, now_ns);

	/* the depth this frame meets, whatever becomes of it */
	q->st.depth_hist[depth_bucket(q->depth_bytes)]++;
	q->st.depth_ring[q->st.ring_next] = q->depth_bytes;
	q->st.ring_next = (q->st.ring_next + 1) % EGRESS_RING;
	if (v != EGRESS_ACCEPT) {
		if (v == EGRESS_DROP_FULL) {
			q->st.drop_full_frames++;
			q->st.drop_full_bytes += f->len;
		} else if (v == EGRESS_DROP_RED) {
			q->st.drop_red_frames++;
		} else {
			q->st.drop_wd_frames++;
		}
		frame_free(f);
		return v;
	}
	f->next = NULL;
	f->enqueue_ns = now_ns;
	if (q->tail)
		q->tail->next = f;
	else
		q->head = f;
	q->tail = f;
	q->depth_frames++;
	q->depth_bytes += f->len;
	q->st.enq_frames++;
	q->st.enq_bytes += f->len;
	if (q->depth_bytes > q->st.max_depth_bytes)
		q->st.max_depth_bytes = q->depth_bytes;
	return EGRESS_ACCEPT;
}

bool egress_queue_paused(const struct egress_queue *q, uint64_t now_ns)
{
	return q->paused_until_ns > now_ns;
}

bool egress_queue_eligible(const struct egress_port *ep, unsigned qi,
			   uint64_t now_ns)
{
	const struct egress_queue *q = &ep->q[qi];

	if (!q->head)
		return false;
	if (q->storm && q->wd.action == PFCWD_FORWARD)
		return true;
	return !egress_queue_paused(q, now_ns);
}

static void pause_close(struct egress_queue *q, uint64_t now_ns)
{
	uint64_t end = q->paused_until_ns < now_ns ? q->paused_until_ns : now_ns;

	if (!q->pause_open)
		return;
	q->st.pause_ns += end - q->pause_start_ns;
	q->pause_open = false;
}

void egress_pause(struct egress_port *ep, unsigned qi, uint64_t ns,
		  uint64_t now_ns)
{
	struct egress_queue *q = &ep->q[qi];

	if (!egress_queue_paused(q, now_ns))
		pause_close(q, now_ns);
	if (!ns) {
		q->st.pfc_rx_xon++;
		pause_close(q, now_ns);
		q->paused_until_ns = now_ns;
		return;
	}
	q->st.pfc_rx_xoff++;
	q->last_xoff_ns = now_ns;
	if (!q->pause_open) {
		q->pause_open = true;
		q->pause_start_ns = now_ns;
	}
	q->paused_until_ns = now_ns + ns;
}

uint64_t egress_pause_ns(const struct egress_queue *q, uint64_t now_ns)
{
	uint64_t end = q->paused_until_ns < now_ns ? q->paused_until_ns : now_ns;

	return q->st.pause_ns + (q->pause_open ? end - q->pause_start_ns : 0);
}

int egress_pick_queue(const struct egress_port *ep, uint64_t now_ns)
{
	for (int qi = FABRIC_PRIOS - 1; qi >= 0; qi--)
		if (!ep->weight[qi] &&
		    egress_queue_eligible(ep, (unsigned)qi, now_ns))
			return qi;
	for (unsigned k = 0; k < FABRIC_PRIOS; k++) {
		unsigned qi = (ep->rr + k) % FABRIC_PRIOS;

		if (ep->weight[qi] && egress_queue_eligible(ep, qi, now_ns))
			return (int)qi;
	}
	return -1;
}

void egress_set_weights(struct egress_port *ep,
			const uint8_t weight[FABRIC_PRIOS])
{
	for (int qi = 0; qi < FABRIC_PRIOS; qi++) {
		ep->weight[qi] = weight[qi];
		ep->deficit[qi] = 0;
	}
	ep->rr_topped = false;
}

static void dwrr_next(struct egress_port *ep)
{
	ep->rr = (uint8_t)((ep->rr + 1) % FABRIC_PRIOS);
	ep->rr_topped = false;
}

/*
 * Deficit round robin over the weighted queues, one frame at a time; some
 * weighted queue is eligible (egress_pick_queue() said so), so this ends
 * within a frame's length / quantum rounds.
 */
static unsigned dwrr_select(struct egress_port *ep, uint64_t now_ns)
{
	for (;;) {
		unsigned qi = ep->rr;
		struct egress_queue *q = &ep->q[qi];

		if (ep->weight[qi] && egress_queue_eligible(ep, qi, now_ns)) {
			if (!ep->rr_topped) {
				ep->deficit[qi] += (uint64_t)ep->weight[qi] *
						   EGRESS_DWRR_QUANTUM;
				ep->rr_topped = true;
			}
			if (ep->deficit[qi] >= q->head->len)
				return qi;
		} else {
			/* an idle or paused queue keeps no credit */
			ep->deficit[qi] = 0;
		}
		dwrr_next(ep);
	}
}

static uint64_t ns_to_ps(uint64_t ns)
{
	return ns * 1000u;
}

struct frame *egress_dequeue(struct egress_port *ep, uint64_t now_ns)
{
	uint64_t now_ps = ns_to_ps(now_ns);
	uint64_t arrival_ps;
	struct egress_queue *q;
	struct frame *f;
	int qi;

	if (ep->busy_until_ps > now_ps)
		return NULL;
	qi = egress_pick_queue(ep, now_ns);
	if (qi < 0)
		return NULL;
	if (ep->weight[qi])
		qi = (int)dwrr_select(ep, now_ns);
	q = &ep->q[qi];
	f = q->head;
	q->head = f->next;
	if (!q->head)
		q->tail = NULL;
	f->next = NULL;
	q->depth_frames--;
	q->depth_bytes -= f->len;
	q->st.tx_frames++;
	q->st.tx_bytes += f->len;
	if (ep->weight[qi]) {
		ep->deficit[qi] -= f->len;
		if (!q->head) {
			ep->deficit[qi] = 0;
			dwrr_next(ep);
		}
	}

	/* an idle wire starts the frame when it arrived, not when we woke */
	arrival_ps = ns_to_ps(f->enqueue_ns);
	if (ep->busy_until_ps < arrival_ps)
		ep->busy_until_ps = arrival_ps;
	ep->busy_until_ps += wire_time_ps(f->len, ep->rate_mbps);
	return f;
}

uint64_t egress_next_event_ns(const struct egress_port *ep, uint64_t now_ns)
{
	uint64_t ns, resume = UINT64_MAX;

	if (egress_pick_queue(ep, now_ns) < 0) {
		/* a paused queue with frames waiting wakes when its pause ends */
		for (int qi = 0; qi < FABRIC_PRIOS; qi++) {
			const struct egress_queue *q = &ep->q[qi];

			if (q->head && q->paused_until_ns < resume)
				resume = q->paused_until_ns;
		}
		return resume;
	}
	ns = (ep->busy_until_ps + 999u) / 1000u;
	return ns > now_ns ? ns : now_ns;
}

uint64_t egress_flush_queue(struct egress_port *ep, unsigned qi, bool wd_drop,
			    void (*release)(void *ctx, const struct frame *f),
			    void *ctx)
{
	struct egress_queue *q = &ep->q[qi];
	uint64_t n = 0;

	while (q->head) {
		struct frame *f = q->head;

		q->head = f->next;
		if (release)
			release(ctx, f);
		frame_free(f);
		n++;
	}
	if (wd_drop)
		q->st.drop_wd_frames += n;
	else
		q->st.drop_flush_frames += n;
	q->tail = NULL;
	q->depth_frames = 0;
	q->depth_bytes = 0;
	return n;
}

uint64_t egress_flush(struct egress_port *ep,
		      void (*release)(void *ctx, const struct frame *f),
		      void *ctx)
{
	uint64_t n = 0;

	for (unsigned qi = 0; qi < FABRIC_PRIOS; qi++)
		n += egress_flush_queue(ep, qi, false, release, ctx);
	return n;
}

uint64_t egress_depth_bytes(const struct egress_port *ep)
{
	uint64_t n = 0;

	for (int qi = 0; qi < FABRIC_PRIOS; qi++)
		n += ep->q[qi].depth_bytes;
	return n;
}
