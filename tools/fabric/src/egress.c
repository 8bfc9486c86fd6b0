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
	if (q->depth_frames + 1 > q->limit_frames ||
	    q->depth_bytes + f->len > q->limit_bytes)
		return EGRESS_DROP_FULL;
	return EGRESS_ACCEPT;
}

enum egress_verdict egress_enqueue(struct egress_port *ep, unsigned qi,
				   struct frame *f, uint64_t now_ns)
{
	struct egress_queue *q = &ep->q[qi];
	enum egress_verdict v = egress_admit(ep, qi, f, now_ns);

	if (v != EGRESS_ACCEPT) {
		q->st.drop_full_frames++;
		q->st.drop_full_bytes += f->len;
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

bool egress_queue_eligible(const struct egress_port *ep, unsigned qi,
			   uint64_t now_ns)
{
	(void)now_ns;
	return ep->q[qi].head != NULL;
}

int egress_pick_queue(const struct egress_port *ep, uint64_t now_ns)
{
	for (int qi = FABRIC_PRIOS - 1; qi >= 0; qi--)
		if (egress_queue_eligible(ep, (unsigned)qi, now_ns))
			return qi;
	return -1;
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

	/* an idle wire starts the frame when it arrived, not when we woke */
	arrival_ps = ns_to_ps(f->enqueue_ns);
	if (ep->busy_until_ps < arrival_ps)
		ep->busy_until_ps = arrival_ps;
	ep->busy_until_ps += wire_time_ps(f->len, ep->rate_mbps);
	return f;
}

uint64_t egress_next_event_ns(const struct egress_port *ep, uint64_t now_ns)
{
	uint64_t ns;

	if (egress_pick_queue(ep, now_ns) < 0)
		return UINT64_MAX;
	ns = (ep->busy_until_ps + 999u) / 1000u;
	return ns > now_ns ? ns : now_ns;
}

uint64_t egress_flush(struct egress_port *ep,
		      void (*release)(void *ctx, const struct frame *f),
		      void *ctx)
{
	uint64_t n = 0;

	for (int qi = 0; qi < FABRIC_PRIOS; qi++) {
		struct egress_queue *q = &ep->q[qi];

		while (q->head) {
			struct frame *f = q->head;

			q->head = f->next;
			if (release)
				release(ctx, f);
			frame_free(f);
			q->st.drop_flush_frames++;
			n++;
		}
		q->tail = NULL;
		q->depth_frames = 0;
		q->depth_bytes = 0;
	}
	return n;
}

uint64_t egress_depth_bytes(const struct egress_port *ep)
{
	uint64_t n = 0;

	for (int qi = 0; qi < FABRIC_PRIOS; qi++)
		n += ep->q[qi].depth_bytes;
	return n;
}
