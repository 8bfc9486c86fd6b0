/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A reference for the DCQCN reaction point, written from admin-queue.rst's
 * rules alone and in another shape than the model's (dcqcn.c): the caller
 * steps it through every tick of time, and it finds the periodic events
 * by their distance from the last cut, where the model keeps deadlines
 * and catches up lazily.  The host tests (test_dcqcn.c) run it beside the
 * model's state machine with a tick of a microsecond; the simulation's E0
 * beside a whole NIC's QP with a tick of a nanosecond, fed the CNPs and
 * frames the NIC received and sent.
 *
 * Rates in kb/s, alpha in 1/1024 units, periods and times in ticks.
 */
#ifndef WRENHOST_DCQCN_REF_H
#define WRENHOST_DCQCN_REF_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/wren/wren_hw.h>

struct dcqcn_ref {
	bool active;		/* rate limited */
	uint64_t rc, rt, alpha;
	uint64_t t, bc, bytes;	/* timer and byte-counter events, bytes */
	uint64_t last_cut;	/* tick */
	unsigned int cuts, ignored, recovered;
};

struct dcqcn_ref_params {
	uint64_t max, min, first, ai, hai, alpha0, g;
	uint64_t k, timer, reduce;	/* alpha, increase, cut periods: ticks */
	uint64_t b, f, fac, gd;
	bool clamp;
};

/*
 * @cc's parameters (SET_CC's units) on a link of @link_mbps, in ticks of
 * @tick_ns, as admin-queue.rst defines them (a zero ceiling or first-CNP
 * rate is the link's speed).
 */
void dcqcn_ref_params_cc(struct dcqcn_ref_params *p,
			 const struct wren_cc_params *cc, uint32_t link_mbps,
			 uint64_t tick_ns);
/* Everything periodic that falls on tick @now; before its inputs. */
void dcqcn_ref_tick(struct dcqcn_ref *r, const struct dcqcn_ref_params *p,
		    uint64_t now);
/* A CNP for the QP at tick @now. */
void dcqcn_ref_cnp(struct dcqcn_ref *r, const struct dcqcn_ref_params *p,
		   uint64_t now);
/* The QP sent a frame of @n bytes (the byte counter's). */
void dcqcn_ref_send(struct dcqcn_ref *r, const struct dcqcn_ref_params *p,
		    uint64_t n);

#endif
