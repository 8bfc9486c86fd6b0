// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Clock mode (wren_verbs_test clock): one node.  The device clock as
 * verbs show it - ibv_query_device_ex's hca_core_clock and
 * completion_timestamp_mask, ibv_query_rt_values_ex - and extended CQs
 * that ask for completion timestamps (IBV_WC_EX_WITH_COMPLETION_TIMESTAMP
 * and _WALLCLOCK) on a pair of RC QPs the NIC loops back to itself.
 *
 * Every timestamp is checked against the clock read before the work was
 * posted and after its completion was polled: it lies between them.  The
 * clock is checked against the system's real time (wren.ko sets it at
 * probe; nothing disciplines it after, so a few seconds of slack) and
 * against itself (it advances by what the system's monotonic clock does,
 * within 20%).  A device without a clock (hca_core_clock 0, e.g. rxe)
 * skips every case.  TAP on stdout, tap_done()'s status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "wvt.h"
#include "tap.h"

#define CK_WAIT_MS	20000
#define CK_MSG		4096u
#define CK_DEPTH	16
#define NS		1000000000ull

struct ck {
	struct dev *d;
	struct ibv_device_attr_ex ax;
	struct conn a, b;	/* a sends to b */
	struct ibv_cq_ex *ascq, *brcq;
	uint64_t wc_flags;	/* what the pair's CQs were asked for */
	uint64_t last_ts;	/* of the last receive sends() polled */
	uint8_t *buf;
	struct ibv_mr *mr;
	char why[WVT_WHY];
};

/* A case failed, and why (why.c). */
#define fail(s, ...) why_set((s)->why, __VA_ARGS__)

static uint64_t sys_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (uint64_t)t.tv_sec * NS + (uint64_t)t.tv_nsec;
}

/* The device clock, in its ticks (ns on Wren: hca_core_clock 1 GHz). */
static bool clock_now(struct ck *s, uint64_t *ticks)
{
	struct ibv_values_ex v = { .comp_mask = IBV_VALUES_MASK_RAW_CLOCK };
	int ret = ibv_query_rt_values_ex(s->d->ctx, &v);

	if (ret)
		return fail(s, "ibv_query_rt_values_ex: %s", strerror(ret));
	if (!(v.comp_mask & IBV_VALUES_MASK_RAW_CLOCK))
		return fail(s, "ibv_query_rt_values_ex: no raw clock");
	*ticks = (uint64_t)v.raw_clock.tv_sec * NS + (uint64_t)v.raw_clock.tv_nsec;
	return true;
}

static bool case_attrs(struct ck *s)
{
	if (s->ax.hca_core_clock != 1000000)
		return fail(s, "hca_core_clock %lu kHz, want 1000000 (ns ticks)",
			    (unsigned long)s->ax.hca_core_clock);
	if (s->ax.completion_timestamp_mask != UINT64_MAX)
		return fail(s, "completion_timestamp_mask 0x%llx, want all 64 bits",
			    (unsigned long long)s->ax.completion_timestamp_mask);
	return true;
}

static bool case_rt_values(struct ck *s)
{
	uint64_t c0, c1, m0, m1, real = sys_ns(CLOCK_REALTIME);
	int64_t off;
	double ratio;

	m0 = sys_ns(CLOCK_MONOTONIC);
	if (!clock_now(s, &c0))
		return false;
	off = (int64_t)(c0 - real);
	if (off < -5 * (int64_t)NS || off > 5 * (int64_t)NS)
		return fail(s, "the clock is %lld ns from real time", (long long)off);
	usleep(200000);
	if (!clock_now(s, &c1))
		return false;
	m1 = sys_ns(CLOCK_MONOTONIC);
	ratio = (double)(c1 - c0) / (double)(m1 - m0);
	tap_diag("clock: %lld ns from real time; %.3f of monotonic over %.0f ms",
		 (long long)off, ratio, (double)(m1 - m0) / 1e6);
	if (ratio < 0.8 || ratio > 1.2)
		return fail(s, "the clock advanced %llu ns while the system's did %llu",
			    (unsigned long long)(c1 - c0),
			    (unsigned long long)(m1 - m0));
	return true;
}

static struct ibv_cq_ex *cq_ts(struct ck *s, uint64_t wc_flags)
{
	struct ibv_cq_init_attr_ex ca = {
		.cqe = CK_DEPTH * 2,
		.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | wc_flags,
	};

	return ibv_create_cq_ex(s->d->ctx, &ca);
}

static void pair_destroy(struct ck *s)
{
	conn_destroy(&s->a);
	conn_destroy(&s->b);
	s->ascq = s->brcq = NULL;
}

/*
 * The loopback pair, a's send CQ and b's receive CQ asked for @wc_flags
 * (the others plain), b with receives posted.
 */
static bool pair_make(struct ck *s, uint64_t wc_flags)
{
	pair_destroy(s);
	s->wc_flags = wc_flags;
	s->ascq = cq_ts(s, wc_flags);
	s->brcq = cq_ts(s, wc_flags);
	if (!s->ascq || !s->brcq)
		return fail(s, "ibv_create_cq_ex with wc_flags 0x%llx: %s",
			    (unsigned long long)wc_flags, strerror(errno));
	s->a.scq = ibv_cq_ex_to_cq(s->ascq);
	s->a.rcq = ibv_create_cq(s->d->ctx, CK_DEPTH * 2, NULL, NULL, 0);
	s->b.scq = ibv_create_cq(s->d->ctx, CK_DEPTH * 2, NULL, NULL, 0);
	s->b.rcq = ibv_cq_ex_to_cq(s->brcq);
	if (!s->a.rcq || !s->b.scq ||
	    conn_create_on(s->d, &s->a, IBV_QPT_RC, 0, CK_DEPTH, 0) ||
	    conn_create_on(s->d, &s->b, IBV_QPT_RC, 0, CK_DEPTH, 0) ||
	    conn_connect(s->d, &s->a, s->b.qp->qp_num, s->b.psn, &s->d->gid) ||
	    conn_connect(s->d, &s->b, s->a.qp->qp_num, s->a.psn, &s->d->gid))
		return fail(s, "a loopback RC pair: %s", strerror(errno));
	return true;
}

/* One completion of @cq, its timestamp by the reader @wc_flags names. */
static bool poll_ts(struct ck *s, struct ibv_cq_ex *cq, uint64_t which,
		    uint64_t *ts, uint32_t *len)
{
	struct ibv_poll_cq_attr pa = { 0 };
	double end = now_s() + CK_WAIT_MS / 1000.0;
	int ret;

	while ((ret = ibv_start_poll(cq, &pa)) == ENOENT) {
		if (now_s() > end)
			return fail(s, "no completion within %d ms", CK_WAIT_MS);
	}
	if (ret)
		return fail(s, "ibv_start_poll: %s", strerror(ret));
	if (cq->status != IBV_WC_SUCCESS) {
		fail(s, "completion %s", ibv_wc_status_str(cq->status));
		ibv_end_poll(cq);
		return false;
	}
	*len = ibv_wc_read_byte_len(cq);
	*ts = which == IBV_WC_EX_WITH_COMPLETION_TIMESTAMP ?
	      ibv_wc_read_completion_ts(cq) :
	      ibv_wc_read_completion_wallclock_ns(cq);
	ibv_end_poll(cq);
	return true;
}

/*
 * @n SENDs of CK_MSG bytes from a to b, each between two clock reads;
 * both completions' timestamps (by @which) between them, and each one
 * no earlier than the one before on its CQ.
 */
static bool sends(struct ck *s, uint64_t which, int n)
{
	struct ibv_sge sg = { .addr = (uintptr_t)s->buf, .length = CK_MSG,
			      .lkey = s->mr->lkey };
	struct ibv_sge rg = { .addr = (uintptr_t)s->buf + CK_MSG,
			      .length = CK_MSG, .lkey = s->mr->lkey };
	uint64_t before, after, ts_s, ts_r, last_s = 0, last_r = 0;
	uint32_t len;

	for (int i = 0; i < n; i++) {
		struct ibv_recv_wr rwr = { .wr_id = 2, .sg_list = &rg,
					   .num_sge = 1 }, *rbad;
		struct ibv_send_wr wr = { .wr_id = 1, .sg_list = &sg,
					  .num_sge = 1, .opcode = IBV_WR_SEND,
					  .send_flags = IBV_SEND_SIGNALED }, *bad;

		if (ibv_post_recv(s->b.qp, &rwr, &rbad))
			return fail(s, "ibv_post_recv: %s", strerror(errno));
		if (!clock_now(s, &before))
			return false;
		if (ibv_post_send(s->a.qp, &wr, &bad))
			return fail(s, "ibv_post_send: %s", strerror(errno));
		if (!poll_ts(s, s->ascq, which, &ts_s, &len) ||
		    !poll_ts(s, s->brcq, which, &ts_r, &len))
			return false;
		if (!clock_now(s, &after))
			return false;
		if (len != CK_MSG)
			return fail(s, "receive of %u bytes, want %u", len, CK_MSG);
		if (ts_s < before || ts_s > after || ts_r < before || ts_r > after)
			return fail(s, "send %d: timestamps %llu (send) and %llu (receive) outside [%llu, %llu]",
				    i, (unsigned long long)ts_s,
				    (unsigned long long)ts_r,
				    (unsigned long long)before,
				    (unsigned long long)after);
		if (ts_s < last_s || ts_r < last_r)
			return fail(s, "send %d: a timestamp went back", i);
		last_s = ts_s;
		last_r = ts_r;
	}
	tap_diag("clock: last send completed %llu ns after its post was read",
		 (unsigned long long)(ts_s - before));
	s->last_ts = ts_r;
	return true;
}

static bool case_free_running(struct ck *s)
{
	return pair_make(s, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP) &&
	       sends(s, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP, 8);
}

/* sends() brackets them by the device clock; this is real time's. */
static bool case_wallclock(struct ck *s)
{
	int64_t off;

	if (!pair_make(s, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK) ||
	    !sends(s, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK, 4))
		return false;
	off = (int64_t)(s->last_ts - sys_ns(CLOCK_REALTIME));
	if (off < -5 * (int64_t)NS || off > 5 * (int64_t)NS)
		return fail(s, "a wall-clock timestamp %lld ns from real time",
			    (long long)off);
	return true;
}

/* A timestamp CQ resized under its QP still stamps what completes. */
static bool case_resize(struct ck *s)
{
	int ret;

	if (!pair_make(s, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP))
		return false;
	ret = ibv_resize_cq(ibv_cq_ex_to_cq(s->brcq), CK_DEPTH * 8);
	if (ret == EOPNOTSUPP) {
		tap_diag("clock: no CQ resize on this device");
		return true;
	}
	if (ret)
		return fail(s, "ibv_resize_cq: %s", strerror(ret));
	return sends(s, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP, 2);
}

/* What libwren cannot give is refused, not pretended. */
static bool case_refused(struct ck *s)
{
	struct ibv_cq_ex *cq = cq_ts(s, IBV_WC_EX_WITH_FLOW_TAG);

	if (cq) {
		ibv_destroy_cq(ibv_cq_ex_to_cq(cq));
		return fail(s, "ibv_create_cq_ex with IBV_WC_EX_WITH_FLOW_TAG succeeded");
	}
	if (errno != EOPNOTSUPP)
		return fail(s, "ibv_create_cq_ex with IBV_WC_EX_WITH_FLOW_TAG: %s, want EOPNOTSUPP",
			    strerror(errno));
	return true;
}

static const struct {
	bool (*run)(struct ck *s);
	const char *what;
} cases[] = {
	{ case_attrs, "ibv_query_device_ex: a 1 GHz clock, 64-bit timestamps" },
	{ case_rt_values, "ibv_query_rt_values_ex: near real time, advancing with it" },
	{ case_free_running, "COMPLETION_TIMESTAMP: 8 SENDs, each completion stamped between its post and its poll, never going back" },
	{ case_wallclock, "COMPLETION_TIMESTAMP_WALLCLOCK: the same in wall-clock ns" },
	{ case_resize, "a timestamp CQ resized still stamps its completions" },
	{ case_refused, "a wc_flag libwren lacks (FLOW_TAG): EOPNOTSUPP" },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

int clock_run(struct dev *d)
{
	struct ck s = { .d = d };
	size_t i;
	int ret;

	tap_plan(N_CASES);
	ret = ibv_query_device_ex(d->ctx, NULL, &s.ax);
	if (ret || !s.ax.hca_core_clock) {
		for (i = 0; i < N_CASES; i++)
			tap_skipped("the device has no clock (hca_core_clock 0)",
				    "%s", cases[i].what);
		return tap_done();
	}
	s.buf = aligned_alloc(4096, 2 * CK_MSG);
	if (!s.buf)
		return 1;
	memset(s.buf, 0x5a, 2 * CK_MSG);
	s.mr = ibv_reg_mr(d->pd[0], s.buf, 2 * CK_MSG, IBV_ACCESS_LOCAL_WRITE);
	for (i = 0; i < N_CASES; i++)
		why_report(s.why, s.mr && cases[i].run(&s), cases[i].what);
	pair_destroy(&s);
	if (s.mr)
		ibv_dereg_mr(s.mr);
	free(s.buf);
	return tap_done();
}
