// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The benchmark's wire.  hw/tests' pair harness queues a malloc'd copy of
 * every frame and delivers it from ro_settle(), which runs each model
 * until it is quiet and moves a simulated clock only when both are; that
 * is right for tests (a model never re-entered, time under control) but
 * a copy, a malloc and a free a frame are the harness's cost, not the
 * engine's.  Here a frame goes from one model's tx_frame straight into the
 * other's wrenhw_rx_frame(): no copy, nothing queued.  Only a model that
 * is inside a call already must not be entered again, so a frame sent to
 * it (a NAK sent while its peer's packet is being received) is copied and
 * held for the next round; ACKs and READ responses leave from process()
 * and never need that.
 *
 * The clock is the wall clock, as QEMU's virtual clock is for the model,
 * so the port scheduler sees frames leave as fast as the engine makes
 * them; only when neither model has anything to do while work is
 * outstanding does it jump to the next timer, and be_jump() counts that.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

#define HELD_MAX	256u

uint64_t be_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t be_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static struct th *host(const struct be_wire *w, int side)
{
	return w->p->n[side].d->h;
}

/* Both models' clock: wall time since be_wire_init(), plus the jumps. */
static void tick(struct be_wire *w)
{
	uint64_t now = w->base_ns + be_wall_ns() + w->skip_ns;

	host(w, 0)->now_ns = now;
	host(w, 1)->now_ns = now;
}

static void deliver(struct be_wire *w, int to, const void *frame,
		    size_t len)
{
	struct be_end *e = &w->end[to];

	e->busy = true;
	wrenhw_rx_frame(host(w, to)->hw, frame, len);
	e->busy = false;
}

static void tx_hook(void *ctx, const void *frame, size_t len)
{
	struct be_end *from = ctx;
	struct be_wire *w = from->w;
	int to = !from->side;
	bool was = from->busy;
	struct be_held *h;

	if (!w->end[to].busy && !w->end[to].held) {
		/*
		 * The sender is inside a call (frames leave from nowhere
		 * else), also when that call is a doorbell: a reply to this
		 * frame is held, never delivered into it.
		 */
		from->busy = true;
		deliver(w, to, frame, len);
		from->busy = was;
		return;
	}
	if (w->hlen >= w->hmax || len > sizeof(h->data)) {
		w->lost++;
		return;
	}
	h = &w->held[(w->hhead + w->hlen) % w->hmax];
	h->to = to;
	h->len = (uint32_t)len;
	memcpy(h->data, frame, len);
	w->hlen++;
	w->nheld++;
	w->end[to].held++;
}

bool be_wire_init(struct be_wire *w, struct ro_pair *p)
{
	memset(w, 0, sizeof(*w));
	w->p = p;
	w->hmax = HELD_MAX;
	w->held = calloc(w->hmax, sizeof(*w->held));
	if (!w->held)
		return false;
	w->base_ns = host(w, 0)->now_ns - be_wall_ns();
	for (int i = 0; i < 2; i++) {
		w->end[i].w = w;
		w->end[i].side = i;
		host(w, i)->tx_hook = tx_hook;
		host(w, i)->tx_ctx = &w->end[i];
	}
	tick(w);
	return true;
}

void be_wire_fini(struct be_wire *w)
{
	free(w->held);
	w->held = NULL;
}

static bool run_timer(struct be_wire *w, int side)
{
	struct th *h = host(w, side);

	if (h->timer_deadline == UINT64_MAX || h->now_ns < h->timer_deadline)
		return false;
	h->timer_deadline = UINT64_MAX;
	w->end[side].busy = true;
	wrenhw_timer_expired(h->hw);
	w->end[side].busy = false;
	return true;
}

bool be_pump(struct be_wire *w)
{
	bool moved = false;

	tick(w);
	/*
	 * Only what is held now: replies to these wait for the next round.
	 * The slot is freed after its frame is received, so that a frame
	 * held meanwhile can never take it.
	 */
	for (unsigned int n = w->hlen; n; n--) {
		struct be_held *h = &w->held[w->hhead];

		w->end[h->to].held--;
		deliver(w, h->to, h->data, h->len);
		w->hhead = (w->hhead + 1) % w->hmax;
		w->hlen--;
		moved = true;
	}
	for (int i = 0; i < 2; i++) {
		struct th *h = host(w, i);

		moved |= run_timer(w, i);
		if (!h->scheduled)
			continue;
		h->scheduled = false;
		h->process_calls++;
		w->end[i].busy = true;
		wrenhw_process(h->hw);
		w->end[i].busy = false;
		moved = true;
	}
	return moved;
}

bool be_jump(struct be_wire *w)
{
	uint64_t d0 = host(w, 0)->timer_deadline;
	uint64_t d1 = host(w, 1)->timer_deadline;
	uint64_t dl = d0 < d1 ? d0 : d1;

	tick(w);
	if (dl == UINT64_MAX)
		return false;
	if (dl > host(w, 0)->now_ns)
		w->skip_ns += dl - host(w, 0)->now_ns;
	w->jumps++;
	tick(w);
	return true;
}
