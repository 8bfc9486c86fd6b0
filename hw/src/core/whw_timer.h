/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The model's timer list on the host's one timer (timer.c).
 */
#ifndef WHW_TIMER_H
#define WHW_TIMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wrenhw.h"

/*
 * The host gives the model one timer; timer.c multiplexes it over any
 * number of these (CQ moderation now, RDMA retransmits later), kept in a
 * list sorted by deadline.
 */
struct whw_timer {
	uint64_t deadline;
	bool pending;
	struct whw_timer *next;
	void (*fn)(struct wrenhw *hw, struct whw_timer *t);
};

void whw_timer_add(struct wrenhw *hw, struct whw_timer *t, uint64_t deadline);
void whw_timer_del(struct wrenhw *hw, struct whw_timer *t);
/* Runs every timer whose deadline is <= now (each one at most once). */
void whw_timers_run(struct wrenhw *hw, uint64_t now);
uint64_t whw_timers_next(const struct wrenhw *hw);
/*
 * Arms the host timer for the earliest deadline (a link flap's too), unless
 * it is armed for that or earlier already.
 */
void whw_timer_rearm(struct wrenhw *hw);
/*
 * The host timer is not armed: it fired, or the host cancelled it (a
 * reset).  The next whw_timer_rearm() arms it, or cancels it for good.
 */
void whw_timer_host_expired(struct wrenhw *hw);

#define WHW_CONTAINER_OF(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

#endif
