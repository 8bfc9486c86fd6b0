// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The DCQCN reaction point (dcqcn.c) against the reference written from
 * admin-queue.rst's rules alone, in another shape (hw/host dcqcn_ref.h,
 * which the simulation's E0 runs beside a whole NIC too): a loop over
 * every microsecond that finds the periodic events by their distance
 * from the last cut, where the model keeps deadlines and catches up
 * lazily.  Each
 * schedule of CNPs and sends is run twice through the model, advancing
 * it every microsecond and only when something happens, and Rc, Rt,
 * alpha and the limiting state must equal the reference's at every
 * microsecond (eager) and at every input (lazy).  A few values are also
 * worked out by hand, so that both cannot be wrong the same way.
 */
#include "dcqcn_ref.h"
#include "roce/whw_dcqcn.h"
#include "tests.h"

#define US	1000ull

/* ------------------------------------------------------- schedules */

struct in {
	uint64_t us;
	bool cnp;		/* else a send of @bytes */
	uint32_t bytes;
};

static void to_model(const struct dcqcn_ref_params *r, struct whw_dcqcn_params *p)
{
	memset(p, 0, sizeof(*p));
	p->max_kbps = (uint32_t)r->max;
	p->min_kbps = (uint32_t)r->min;
	p->first_kbps = (uint32_t)r->first;
	p->ai_kbps = (uint32_t)r->ai;
	p->hai_kbps = (uint32_t)r->hai;
	p->initial_alpha = (uint32_t)r->alpha0;
	p->g = (uint32_t)r->g;
	p->alpha_ns = r->k * US;
	p->timer_ns = r->timer * US;
	p->reduce_ns = r->reduce * US;
	p->byte_reset = (uint32_t)r->b;
	p->threshold = (uint32_t)r->f;
	p->min_dec_fac = (uint32_t)r->fac;
	p->gd = (uint32_t)r->gd;
	p->clamp = r->clamp;
}

static bool same(const struct dcqcn_ref *r, const struct whw_dcqcn *s)
{
	if (r->active != s->active)
		return false;
	if (!r->active)
		return true;	/* rates of a QP not limited mean nothing */
	return r->rc == s->rc && r->rt == s->rt && r->alpha == s->alpha;
}

struct run {
	unsigned int cuts, ignored, recovered;
	unsigned int checks, bad;
	uint64_t min_rc, max_rt;
	bool saw_hyper;
};

/*
 * Runs @in (sorted by time) up to @end_us through the reference and the
 * model (@eager: advanced every microsecond).
 */
static void run(const struct dcqcn_ref_params *rp, const struct in *in, unsigned int n,
		uint64_t end_us, bool eager, struct run *out, struct dcqcn_ref *last)
{
	struct whw_dcqcn_params p;
	struct whw_dcqcn s;
	struct dcqcn_ref r;
	unsigned int next = 0;

	memset(out, 0, sizeof(*out));
	memset(&s, 0, sizeof(s));
	memset(&r, 0, sizeof(r));
	out->min_rc = UINT64_MAX;
	to_model(rp, &p);
	for (uint64_t us = 0; us <= end_us; us++) {
		bool input = next < n && in[next].us == us;
		unsigned int res;

		dcqcn_ref_tick(&r, rp, us);
		if (eager) {
			res = whw_dcqcn_advance(&s, &p, us * US);
			out->recovered += !!(res & WHW_DCQCN_RECOVERED);
		}
		for (; next < n && in[next].us == us; next++) {
			if (in[next].cnp) {
				dcqcn_ref_cnp(&r, rp, us);
				res = whw_dcqcn_cnp(&s, &p, us * US);
				out->cuts += !!(res & WHW_DCQCN_CUT);
				out->ignored += !!(res & WHW_DCQCN_IGNORED);
			} else {
				dcqcn_ref_send(&r, rp, in[next].bytes);
				res = whw_dcqcn_sent(&s, &p, us * US,
						     in[next].bytes);
			}
			out->recovered += !!(res & WHW_DCQCN_RECOVERED);
		}
		if (r.active && r.rt > r.rc && r.t >= rp->f && r.bc >= rp->f)
			out->saw_hyper = true;
		if (r.active && r.rc < out->min_rc)
			out->min_rc = r.rc;
		if (r.active && r.rt > out->max_rt)
			out->max_rt = r.rt;
		if (!eager && !input && us != end_us)
			continue;
		if (!eager)
			out->recovered += !!(whw_dcqcn_advance(&s, &p, us * US) &
					     WHW_DCQCN_RECOVERED);
		out->checks++;
		if (!same(&r, &s)) {
			if (!out->bad)
				tap_diag("us %llu: ref %d rc %llu rt %llu a %llu"
					 ", model %d rc %u rt %u a %u",
					 (unsigned long long)us, r.active,
					 (unsigned long long)r.rc,
					 (unsigned long long)r.rt,
					 (unsigned long long)r.alpha, s.active,
					 s.rc, s.rt, s.alpha);
			out->bad++;
		}
	}
	/* The reference counts what the model reported. */
	if (r.cuts != out->cuts || r.ignored != out->ignored ||
	    r.recovered != out->recovered) {
		tap_diag("events: ref cut %u ign %u rec %u, model %u %u %u",
			 r.cuts, r.ignored, r.recovered, out->cuts,
			 out->ignored, out->recovered);
		out->bad++;
	}
	if (last)
		*last = r;
}

static void both(const char *what, const struct dcqcn_ref_params *rp, const struct in *in,
		 unsigned int n, uint64_t end_us, struct run *o, struct dcqcn_ref *r)
{
	struct run lazy;

	run(rp, in, n, end_us, true, o, r);
	run(rp, in, n, end_us, false, &lazy, NULL);
	tap_ok(!o->bad && !lazy.bad && o->checks == end_us + 1,
	       "dcqcn %s: Rc/Rt/alpha as the reference's at %u us (eager) "
	       "and %u inputs (lazy); %u cuts, %u ignored, %u recovered",
	       what, o->checks, lazy.checks, o->cuts, o->ignored,
	       o->recovered);
}

/* 10 Gb/s ceiling, mlx5's other defaults but faster increases. */
static struct dcqcn_ref_params base(void)
{
	struct dcqcn_ref_params p = {
		.max = 10000000, .min = 1000, .first = 10000000,
		.ai = 200000, .hai = 1000000, .alpha0 = 1023, .g = 4,
		.k = 55, .timer = 300, .reduce = 4, .b = 0, .f = 5,
		.fac = 50, .gd = 11, .clamp = true,
	};

	return p;
}

/* Hand-worked first cut: Rc 10^7 kb/s, alpha 1023, gd 11, g 4. */
static void by_hand(void)
{
	struct dcqcn_ref_params rp = base();
	struct whw_dcqcn_params p;
	struct whw_dcqcn s;
	unsigned int res;

	to_model(&rp, &p);
	memset(&s, 0, sizeof(s));
	res = whw_dcqcn_cnp(&s, &p, 1000);
	/* 10^7 * 1023 / 2048 = 4995117.19; alpha 1023 * 1020 / 1024 + 4. */
	tap_ok(res == WHW_DCQCN_CUT && s.active && s.rc == 5004883 &&
	       s.rt == 10000000 && s.alpha == 1023,
	       "dcqcn: first CNP at line rate: Rc 5004883 kb/s, Rt 10 Gb/s, "
	       "alpha 1023 (got %u %u %u)", s.rc, s.rt, s.alpha);
	/* 55 us later: alpha 1023 * 1020 / 1024 = 1019. */
	whw_dcqcn_advance(&s, &p, 1000 + 55 * US);
	tap_ok(s.alpha == 1019 && s.rc == 5004883,
	       "dcqcn: alpha decays to 1019 after 55 us, Rc unchanged");
	/* 300 us after the cut: fast recovery, (5004883 + 10^7 + 1) / 2. */
	whw_dcqcn_advance(&s, &p, 1000 + 300 * US);
	tap_ok(s.rc == 7502442 && s.rt == 10000000 && s.t_events == 1,
	       "dcqcn: first timer event is fast recovery: Rc 7502442");
	/* Another CNP 2 us after a cut: within rp_rate_reduce_period. */
	memset(&s, 0, sizeof(s));
	whw_dcqcn_cnp(&s, &p, 0);
	res = whw_dcqcn_cnp(&s, &p, 2 * US);
	tap_ok(res == WHW_DCQCN_IGNORED && s.rc == 5004883,
	       "dcqcn: a CNP within the rate-reduce period is ignored");
	/* min_dec_fac 60: the cut keeps 6 Gb/s; first-CNP rate 4 Gb/s. */
	rp.fac = 60;
	rp.first = 4000000;
	to_model(&rp, &p);
	memset(&s, 0, sizeof(s));
	whw_dcqcn_cnp(&s, &p, 0);
	tap_ok(s.rc == 2400000 && s.rt == 4000000,
	       "dcqcn: first-CNP rate 4 Gb/s, min_dec_fac 60 keeps 2.4 Gb/s");
}

static void schedules(void)
{
	struct in in[2048];
	struct dcqcn_ref_params rp;
	struct run o;
	struct dcqcn_ref r;
	unsigned int n;

	/* One CNP, then timer events only: 5 fast recoveries, then AI. */
	rp = base();
	in[0] = (struct in){ .us = 10, .cnp = true };
	both("one CNP, timer only", &rp, in, 1, 40000, &o, &r);
	tap_ok(o.recovered == 1 && !r.active && r.rc == rp.max,
	       "dcqcn: fast recovery then additive increase back to the "
	       "ceiling (%llu kb/s)", (unsigned long long)r.rc);

	/* CNPs every 50 us for 1 ms: repeated cuts down to the floor. */
	rp = base();
	rp.min = 500000;
	for (n = 0; n < 20; n++)
		in[n] = (struct in){ .us = 100 + 50 * n, .cnp = true };
	both("CNP train to the floor", &rp, in, n, 3000, &o, &r);
	tap_ok(o.min_rc == 500000 && o.cuts == 20,
	       "dcqcn: the floor rp_min_rate holds (lowest Rc %llu kb/s)",
	       (unsigned long long)o.min_rc);

	/* Bursts of CNPs 1 us apart: only one per reduce period. */
	rp = base();
	rp.reduce = 10;
	for (n = 0; n < 60; n++)
		in[n] = (struct in){ .us = 100 + n, .cnp = true };
	both("CNP burst, reduce period 10 us", &rp, in, n, 2000, &o, &r);
	tap_ok(o.cuts == 6 && o.ignored == 54,
	       "dcqcn: 60 CNPs 1 us apart make 6 cuts, 54 ignored");

	/* Sends feed the byte counter: both counters past F, hyper. */
	rp = base();
	rp.b = 64 * 1024;
	rp.timer = 50;
	rp.hai = 50000;
	rp.ai = 5000;
	rp.first = 2000000;
	n = 0;
	in[n++] = (struct in){ .us = 5, .cnp = true };
	for (uint64_t us = 6; n < 2000; us += 2)
		in[n++] = (struct in){ .us = us, .bytes = 9000 };
	both("byte counter and timer, hyper increase", &rp, in, n, 8000, &o,
	     &r);
	tap_ok(o.saw_hyper && o.max_rt > 2000000,
	       "dcqcn: hyper increase reached with both counters at F "
	       "(Rt up to %llu kb/s)", (unsigned long long)o.max_rt);

	/* Clamp off: consecutive cuts keep Rt until an increase event. */
	rp = base();
	rp.clamp = false;
	rp.timer = 100;
	n = 0;
	in[n++] = (struct in){ .us = 10, .cnp = true };
	in[n++] = (struct in){ .us = 30, .cnp = true };
	in[n++] = (struct in){ .us = 50, .cnp = true };
	in[n++] = (struct in){ .us = 400, .cnp = true };
	in[n++] = (struct in){ .us = 420, .cnp = true };
	both("clamp_tgt_rate off", &rp, in, n, 600, &o, &r);
	{
		struct whw_dcqcn_params p;
		struct whw_dcqcn s;

		to_model(&rp, &p);
		memset(&s, 0, sizeof(s));
		whw_dcqcn_cnp(&s, &p, 10 * US);
		whw_dcqcn_cnp(&s, &p, 30 * US);
		tap_ok(s.rt == 10000000 && s.rc < 3000000,
		       "dcqcn: clamp off: a second cut keeps Rt at 10 Gb/s "
		       "(Rc %u)", s.rc);
	}

	/* First-CNP rate and a low ceiling (rp_max_rate 2 Gb/s). */
	rp = base();
	rp.max = 2000000;
	rp.first = 1500000;
	rp.ai = 100000;
	rp.g = 64;
	in[0] = (struct in){ .us = 1, .cnp = true };
	in[1] = (struct in){ .us = 3001, .cnp = true };
	both("first-CNP rate, 2 Gb/s ceiling, g 64", &rp, in, 2, 12000, &o,
	     &r);
	tap_ok(o.max_rt == 2000000 && o.recovered >= 1 && !r.active,
	       "dcqcn: Rt up to the 2 Gb/s ceiling and no further, "
	       "recovered %u time(s)", o.recovered);

	/* A pseudo-random mix of CNPs and sends. */
	rp = base();
	rp.b = 100000;
	rp.clamp = false;
	rp.timer = 70;
	rp.k = 13;
	rp.reduce = 3;
	{
		uint32_t x = 0x12345678;
		uint64_t us = 1;

		for (n = 0; n < 2000; n++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			us += x % 7;
			in[n] = (struct in){ .us = us, .cnp = x % 23 == 0,
					     .bytes = 64 + x % 9000 };
		}
		both("random mix", &rp, in, n, us + 5000, &o, &r);
	}
}

void test_dcqcn(void)
{
	by_hand();
	schedules();
}
