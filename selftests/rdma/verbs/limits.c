// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Limits mode (wren_verbs_test limits): one node, what running out does.
 *
 * Every table a verbs user can fill - contexts (each holds one of the
 * NIC's doorbell pages), PDs, CQs, QPs, SRQs and MRs - is filled until
 * the device refuses.  The refusal must be ENOMEM and come at the limit
 * the device advertises, not past it and not much before it (the
 * kernel's own objects may hold LIMITS_SLACK); after everything is freed
 * the same number fits again, so nothing leaked in the driver or the
 * device.  Then the events of running out: receives flushed into a CQ
 * too small for them overrun it, which must raise IBV_EVENT_CQ_ERR (not
 * hang, not corrupt memory); a CQ with completions pending is resized
 * (they poll in order from the new ring; a size below them is EINVAL and
 * loses nothing); an SRQ whose posted receives fall below its armed
 * limit raises IBV_EVENT_SRQ_LIMIT_REACHED once and disarms; an SRQ with
 * receives posted grows (ibv_modify_srq IBV_SRQ_MAX_WR) and they, and
 * more, complete in order.  Last
 * a large MR (--big-mr-mib, 1024 by default): registered, then written
 * and read at its first, middle and last pages by RDMA through a pair
 * of RC QPs that the NIC loops back to itself, which also shows that
 * the device still works after all of the above.  TAP on stdout.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "wvt.h"
#include "tap.h"

#define LIMITS_SLACK	32	/* objects the kernel may hold of a table */
#define OVERSHOOT	64	/* tries past the advertised limit */
#define EVENT_MS	10000	/* an async event arrives within this */
#define PAGE		4096
#define SRQ_WR		16
#define SRQ_LIMIT	8

struct pool {
	const char *what;
	long max;		/* what the device advertises */
	void *(*create)(struct dev *d, void *arg);
	int (*destroy)(void *obj);
	void *arg;
};

static void *ctx_create(struct dev *d, void *arg)
{
	(void)arg;
	return ibv_open_device(d->ctx->device);
}

static int ctx_destroy(void *o)
{
	return ibv_close_device(o);
}

static void *pd_create(struct dev *d, void *arg)
{
	(void)arg;
	return ibv_alloc_pd(d->ctx);
}

static int pd_destroy(void *o)
{
	return ibv_dealloc_pd(o);
}

static void *cq_create(struct dev *d, void *arg)
{
	(void)arg;
	return ibv_create_cq(d->ctx, 1, NULL, NULL, 0);
}

static int cq_destroy(void *o)
{
	return ibv_destroy_cq(o);
}

/* @arg: the CQ every QP shares. */
static void *qp_create(struct dev *d, void *arg)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = arg,
		.recv_cq = arg,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	return ibv_create_qp(d->pd[0], &ia);
}

static int qp_destroy(void *o)
{
	return ibv_destroy_qp(o);
}

static void *srq_create(struct dev *d, void *arg)
{
	struct ibv_srq_init_attr ia = { .attr = { .max_wr = 1, .max_sge = 1 } };

	(void)arg;
	return ibv_create_srq(d->pd[0], &ia);
}

static int srq_destroy(void *o)
{
	return ibv_destroy_srq(o);
}

/*
 * @arg: struct mr_pages, a page for each MR the device can hold.  Each MR
 * gets its own page: two registrations of one page are two DMA mappings
 * of it, which a debug kernel's DMA-API checks report as an overlap
 * (legal in verbs, but thousands of such reports would flood its log).
 */
struct mr_pages {
	uint8_t *base;
	long n, next;
};

static void *mr_create(struct dev *d, void *arg)
{
	struct mr_pages *mp = arg;
	uint8_t *page = mp->base + (size_t)(mp->next++ % mp->n) * PAGE;

	return ibv_reg_mr(d->pd[0], page, PAGE, IBV_ACCESS_LOCAL_WRITE);
}

static int mr_destroy(void *o)
{
	return ibv_dereg_mr(o);
}

/* Create until the device refuses or @cap; the errno of the refusal. */
static long fill(struct dev *d, const struct pool *p, void **objs, long cap,
		 int *err)
{
	long n;

	*err = 0;
	for (n = 0; n < cap; n++) {
		errno = 0;
		objs[n] = p->create(d, p->arg);
		if (!objs[n]) {
			*err = errno;
			break;
		}
	}
	return n;
}

/* Destroy the first @n, newest first; the number of failed destroys. */
static long drain(const struct pool *p, void **objs, long n)
{
	long bad = 0;

	while (n--)
		bad += p->destroy(objs[n]) != 0;
	return bad;
}

static void exhaust(struct dev *d, const struct pool *p)
{
	long cap = p->max + OVERSHOOT, n1, n2, bad;
	void **objs = calloc((size_t)cap, sizeof(*objs));
	int err1, err2;
	double t0, t1;

	if (!objs) {
		tap_ok(false, "%s: memory for %ld handles", p->what, cap);
		tap_ok(false, "%s: filled again", p->what);
		return;
	}
	t0 = now_s();
	n1 = fill(d, p, objs, cap, &err1);
	t1 = now_s();
	bad = drain(p, objs, n1);
	n2 = fill(d, p, objs, cap, &err2);
	bad += drain(p, objs, n2);
	tap_ok(err1 == ENOMEM && n1 <= p->max && n1 + LIMITS_SLACK >= p->max,
	       "%s: %ld created of the %ld the device advertises, then %s", p->what,
	       n1, p->max, err1 ? strerror(err1) : "no refusal");
	tap_ok(!bad && n2 == n1 && err2 == ENOMEM,
	       "%s: all %ld destroyed (%ld failed), and %ld fit again", p->what, n1,
	       bad, n2);
	tap_diag("%s: %.2f ms a create", p->what, n1 ? (t1 - t0) * 1e3 / (double)n1 : 0);
	free(objs);
}

/*
 * Doorbell pages: BAR2 is the doorbell area, a power of two at least
 * 4 KiB a page, and page 0 is the kernel's.  With a power-of-two page
 * count (the bench's 256) this is the exact number contexts can have.
 */
static long db_pages_for_users(struct dev *d)
{
	char path[256], line[256];
	unsigned long long start, end, flags;
	FILE *f;
	long n = -1;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device/resource",
		 ibv_get_device_name(d->ctx->device));
	f = fopen(path, "r");
	if (!f)
		return -1;
	for (int bar = 0; fgets(line, sizeof(line), f); bar++)
		if (bar == 2 && sscanf(line, "%llx %llx %llx", &start, &end, &flags) == 3 &&
		    end > start)
			n = (long)((end - start + 1) / PAGE) - 1;
	fclose(f);
	return n;
}

/* The next async event of @ctx of @type for @elem within @ms: 0 if it
 * came; others are acknowledged and named in @seen. */
static int wait_event(struct ibv_context *ctx, enum ibv_event_type type,
		      const void *elem, int ms, char *seen, size_t len)
{
	double end = now_s() + ms / 1000.0;
	int fl = fcntl(ctx->async_fd, F_GETFL);

	fcntl(ctx->async_fd, F_SETFL, fl | O_NONBLOCK);
	for (;;) {
		struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };
		int left = (int)((end - now_s()) * 1000);
		struct ibv_async_event ev;
		const void *what;
		size_t used;

		if (left < 0 || poll(&p, 1, left) <= 0)
			return -1;
		if (ibv_get_async_event(ctx, &ev))
			continue;
		what = type == IBV_EVENT_CQ_ERR ? (void *)ev.element.cq :
		       type == IBV_EVENT_SRQ_LIMIT_REACHED ? (void *)ev.element.srq :
		       (void *)ev.element.qp;
		ibv_ack_async_event(&ev);
		if (ev.event_type == type && what == elem)
			return 0;
		used = strlen(seen);
		if (used + 40 < len)
			snprintf(seen + used, len - used, " %s", ibv_event_type_str(ev.event_type));
	}
}

static int modify_state(struct ibv_qp *qp, enum ibv_qp_state s)
{
	struct ibv_qp_attr a = { .qp_state = s };

	return ibv_modify_qp(qp, &a, IBV_QP_STATE);
}

/*
 * Receives flushed into a CQ that cannot hold them: the QP's receive
 * queue holds twice the CQ, the QP goes to ERR, the device flushes every
 * receive and the CQ overruns.
 */
static void cq_overrun(struct dev *d, struct ibv_mr *mr)
{
	struct ibv_cq *cq = ibv_create_cq(d->ctx, 4, NULL, NULL, 0);
	struct ibv_cq *scq = ibv_create_cq(d->ctx, 4, NULL, NULL, 0);
	struct ibv_qp_init_attr ia = { .qp_type = IBV_QPT_RC };
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1 };
	struct ibv_qp *qp = NULL;
	char seen[256] = "";
	int n = cq ? 2 * (cq->cqe + 1) + 2 : 0, posted = 0, rc = -1;

	ia.send_cq = scq;
	ia.recv_cq = cq;
	ia.cap = (struct ibv_qp_cap){ .max_send_wr = 1, .max_recv_wr = (uint32_t)n,
				      .max_send_sge = 1, .max_recv_sge = 1 };
	if (cq && scq)
		qp = ibv_create_qp(d->pd[0], &ia);
	if (qp && !ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				 IBV_QP_PORT | IBV_QP_ACCESS_FLAGS)) {
		for (; posted < n; posted++) {
			struct ibv_sge sg = { .addr = (uintptr_t)mr->addr, .length = 64,
					      .lkey = mr->lkey };
			struct ibv_recv_wr wr = { .wr_id = (uint64_t)posted, .sg_list = &sg,
						  .num_sge = 1 }, *bad;

			if (ibv_post_recv(qp, &wr, &bad))
				break;
		}
		if (posted == n && !modify_state(qp, IBV_QPS_ERR))
			rc = wait_event(d->ctx, IBV_EVENT_CQ_ERR, cq, EVENT_MS, seen,
					sizeof(seen));
	}
	tap_ok(!rc, "CQ overrun: %d receives flushed into a CQ of %d raise IBV_EVENT_CQ_ERR%s%s",
	       n, cq ? cq->cqe : 0, seen[0] ? "; other events:" : "", seen);
	rc = (qp ? ibv_destroy_qp(qp) : -1) | (cq ? ibv_destroy_cq(cq) : -1) |
	     (scq ? ibv_destroy_cq(scq) : -1);
	tap_ok(!rc, "CQ overrun: the QP and the overrun CQ destroyed");
}

/* Two RC QPs of this NIC connected to each other: @a sends, @b (on
 * @srq if given) receives. */
static int loop_pair(struct dev *d, struct conn *a, struct conn *b, struct ibv_srq *srq)
{
	struct ibv_qp_init_attr ia = { .qp_type = IBV_QPT_RC, .srq = srq };
	struct ibv_qp_attr at = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				  .qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
						     IBV_ACCESS_REMOTE_READ };

	if (conn_create(d, a, IBV_QPT_RC, 0, 8))
		return -1;
	if (!srq) {
		if (conn_create(d, b, IBV_QPT_RC, 0, 8))
			return -1;
	} else {
		memset(b, 0, sizeof(*b));
		b->type = IBV_QPT_RC;
		b->scq = ibv_create_cq(d->ctx, 32, NULL, NULL, 0);
		b->rcq = ibv_create_cq(d->ctx, 32, NULL, NULL, 0);
		ia.send_cq = b->scq;
		ia.recv_cq = b->rcq;
		ia.cap = (struct ibv_qp_cap){ .max_send_wr = 8, .max_send_sge = 1 };
		b->qp = b->scq && b->rcq ? ibv_create_qp(d->pd[0], &ia) : NULL;
		b->psn = (uint32_t)lrand48() & 0xffffff;
		if (!b->qp || ibv_modify_qp(b->qp, &at, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
			return -1;
	}
	return conn_connect(d, a, b->qp->qp_num, b->psn, &d->gid) ||
	       conn_connect(d, b, a->qp->qp_num, a->psn, &d->gid) ? -1 : 0;
}

/* One signaled work request on @c, waited for. */
static int post_wait(struct conn *c, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	struct ibv_wc wc;

	wr->send_flags = IBV_SEND_SIGNALED;
	if (ibv_post_send(c->qp, wr, &bad) || poll_one(c->scq, &wc, EVENT_MS))
		return -1;
	return wc.status == IBV_WC_SUCCESS ? 0 : -1;
}

static int send_n(struct conn *a, struct conn *b, struct ibv_mr *mr, int n)
{
	struct ibv_sge sg = { .addr = (uintptr_t)mr->addr, .length = 64, .lkey = mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sg, .num_sge = 1, .opcode = IBV_WR_SEND };
	struct ibv_wc wc;

	for (int i = 0; i < n; i++)
		if (post_wait(a, &wr) || poll_one(b->rcq, &wc, EVENT_MS) ||
		    wc.status != IBV_WC_SUCCESS)
			return -1;
	return 0;
}

/* Post @n receives on @b, wr_ids @id0 on, and have @a send @n SENDs
 * into them; the send completions are waited for, the receive ones
 * left in @b's CQ. */
static int sends_pending(struct conn *a, struct conn *b, struct ibv_mr *mr,
			 int n, uint64_t id0)
{
	struct ibv_sge sg = { .addr = (uintptr_t)mr->addr, .length = 64, .lkey = mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sg, .num_sge = 1, .opcode = IBV_WR_SEND };

	for (int i = 0; i < n; i++) {
		struct ibv_recv_wr rw = { .wr_id = id0 + (uint64_t)i, .sg_list = &sg,
					  .num_sge = 1 }, *bad;

		if (ibv_post_recv(b->qp, &rw, &bad))
			return -1;
	}
	for (int i = 0; i < n; i++)
		if (post_wait(a, &wr))
			return -1;
	return 0;
}

/* @n receive completions from @cq, wr_ids @id0 on, in order. */
static int polls_in_order(struct ibv_cq *cq, int n, uint64_t id0)
{
	struct ibv_wc wc;

	for (int i = 0; i < n; i++)
		if (poll_one(cq, &wc, EVENT_MS) || wc.status != IBV_WC_SUCCESS ||
		    wc.wr_id != id0 + (uint64_t)i || wc.opcode != IBV_WC_RECV)
			return -1;
	return 0;
}

/*
 * ibv_resize_cq with completions in the CQ: they move to the new ring
 * and poll in order; a size below what is pending is EINVAL and loses
 * nothing; the CQ goes on working.
 */
static void cq_resize(struct dev *d, struct ibv_mr *mr)
{
	struct conn a = { 0 }, b = { 0 };
	int grow = -1, shrink = -1, after = -1, cqe = 0;

	if (loop_pair(d, &a, &b, NULL) || sends_pending(&a, &b, mr, 6, 100)) {
		for (int i = 0; i < 3; i++)
			tap_ok(false, "CQ resize: a loopback pair with 6 receive completions pending");
		goto out;
	}
	grow = ibv_resize_cq(b.rcq, 64);
	if (grow == EOPNOTSUPP) {
		for (int i = 0; i < 3; i++)
			tap_skipped("the device cannot resize CQs (EOPNOTSUPP)",
				    "CQ resize case %d", i + 1);
		goto out;
	}
	cqe = b.rcq->cqe;
	if (!grow)
		grow = polls_in_order(b.rcq, 3, 100);
	tap_ok(!grow && cqe >= 64,
	       "CQ resize: grown to %d entries with 6 completions pending, the first 3 poll in order",
	       cqe);
	shrink = ibv_resize_cq(b.rcq, 2);
	tap_ok(shrink == EINVAL && !polls_in_order(b.rcq, 3, 103),
	       "CQ resize: to 2 entries with 3 pending fails with EINVAL (%s), and they poll in order",
	       strerror(shrink));
	/* The receive queue holds 8 (loop_pair's depth). */
	after = sends_pending(&a, &b, mr, 8, 200) || polls_in_order(b.rcq, 8, 200);
	tap_ok(!after, "CQ resize: 8 more SENDs complete through the resized CQ");
out:
	conn_destroy(&a);
	conn_destroy(&b);
}

/* Receives with wr_ids @from .. @to - 1 on @srq, each into 64 bytes of
 * @mr at 64 x wr_id: the wr_id it stopped at. */
static int srq_post_range(struct ibv_srq *srq, struct ibv_mr *mr, int from, int to)
{
	for (; from < to; from++) {
		struct ibv_sge sg = { .addr = (uintptr_t)mr->addr + 64 * (size_t)from,
				      .length = 64, .lkey = mr->lkey };
		struct ibv_recv_wr r = { .wr_id = (uint64_t)from, .sg_list = &sg,
					 .num_sge = 1 }, *bad;

		if (ibv_post_srq_recv(srq, &r, &bad))
			break;
	}
	return from;
}

static void srq_limit(struct dev *d, struct ibv_mr *mr)
{
	struct ibv_srq_init_attr ia = { .attr = { .max_wr = SRQ_WR, .max_sge = 1 } };
	struct ibv_srq_attr sa = { .srq_limit = SRQ_LIMIT };
	struct ibv_srq *srq = ibv_create_srq(d->pd[0], &ia);
	struct conn a = { 0 }, b = { 0 };
	char seen[256] = "";
	int posted = 0, early = -1, rc = -1, first;
	uint32_t wr = ia.attr.max_wr;

	if (srq && !loop_pair(d, &a, &b, srq))
		posted = srq_post_range(srq, mr, 0, (int)wr);
	/* Down to the limit exactly: no event yet ("below" it). */
	first = posted - SRQ_LIMIT;
	if (posted == (int)wr && !ibv_modify_srq(srq, &sa, IBV_SRQ_LIMIT) &&
	    !send_n(&a, &b, mr, first)) {
		early = !wait_event(d->ctx, IBV_EVENT_SRQ_LIMIT_REACHED, srq, 300, seen,
				    sizeof(seen));
		if (!early && !send_n(&a, &b, mr, 1))
			rc = wait_event(d->ctx, IBV_EVENT_SRQ_LIMIT_REACHED, srq, EVENT_MS,
					seen, sizeof(seen));
	}
	tap_ok(early == 0, "SRQ limit: no event with %d of %u receives taken (%d left, limit %d)",
	       first, wr, SRQ_LIMIT, SRQ_LIMIT);
	tap_ok(!rc, "SRQ limit: IBV_EVENT_SRQ_LIMIT_REACHED once one more was taken%s%s",
	       seen[0] ? "; other events:" : "", seen);
	memset(&sa, 0xff, sizeof(sa));
	rc = srq ? ibv_query_srq(srq, &sa) : -1;
	tap_ok(!rc && sa.srq_limit == 0, "SRQ limit: disarmed after the event (srq_limit reads %u)",
	       sa.srq_limit);
	conn_destroy(&a);
	conn_destroy(&b);
	if (srq)
		ibv_destroy_srq(srq);
}

/*
 * ibv_modify_srq(IBV_SRQ_MAX_WR) with receives posted, one of them taken:
 * the SRQ grows, the posted ones and more complete in order with their
 * wr_ids; a size it holds changes nothing, one beyond the device's limit
 * is EINVAL, and the limit can be set in the same call.
 */
static void srq_resize(struct dev *d, struct ibv_mr *mr)
{
	struct ibv_srq_init_attr ia = { .attr = { .max_wr = 4, .max_sge = 1 } };
	struct ibv_srq *srq = ibv_create_srq(d->pd[0], &ia);
	struct ibv_srq_attr sa = { .max_wr = 10 };
	struct conn a = { 0 }, b = { 0 };
	int posted = 0, grow = -1, rc = -1, big = -1, both = -1, i;
	uint32_t max_wr = 0;

	if (srq && !loop_pair(d, &a, &b, srq))
		posted = srq_post_range(srq, mr, 0, 4);
	if (posted == 4 && !send_n(&a, &b, mr, 1))
		grow = ibv_modify_srq(srq, &sa, IBV_SRQ_MAX_WR);
	if (grow == EOPNOTSUPP) {
		for (i = 0; i < 3; i++)
			tap_skipped("the device cannot resize SRQs (EOPNOTSUPP)",
				    "SRQ resize case %d", i + 1);
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	if (!grow)
		grow = ibv_query_srq(srq, &sa);
	max_wr = sa.max_wr;
	tap_ok(!grow && max_wr >= 10,
	       "SRQ resize: grown from 4 to %u entries with 3 receives posted, 1 taken (%s)",
	       max_wr, strerror(grow));

	/* 12 more: 15 outstanding, as many SENDs take them in order. */
	if (!grow)
		posted = srq_post_range(srq, mr, posted, 16);
	if (!grow && posted == 16) {
		struct ibv_sge sg = { .addr = (uintptr_t)mr->addr + PAGE, .length = 64,
				      .lkey = mr->lkey };
		struct ibv_send_wr wr = { .sg_list = &sg, .num_sge = 1,
					  .opcode = IBV_WR_SEND };

		rc = 0;
		for (i = 1; i < 16 && !rc; i++)
			rc = post_wait(&a, &wr);
		if (!rc)
			rc = polls_in_order(b.rcq, 15, 1);
	}
	tap_ok(!rc, "SRQ resize: 12 more receives posted, 15 SENDs complete them in order with their wr_ids");

	sa = (struct ibv_srq_attr){ .max_wr = 2 };
	rc = srq ? ibv_modify_srq(srq, &sa, IBV_SRQ_MAX_WR) : -1;
	sa = (struct ibv_srq_attr){ .max_wr = d->attr.max_srq_wr + 1u };
	big = srq ? ibv_modify_srq(srq, &sa, IBV_SRQ_MAX_WR) : -1;
	sa = (struct ibv_srq_attr){ .max_wr = 2 * max_wr, .srq_limit = 3 };
	both = srq ? ibv_modify_srq(srq, &sa, IBV_SRQ_MAX_WR | IBV_SRQ_LIMIT) : -1;
	memset(&sa, 0, sizeof(sa));
	if (!both)
		both = ibv_query_srq(srq, &sa) ||
		       sa.max_wr < 2 * max_wr || sa.srq_limit != 3;
	tap_ok(!rc && big == EINVAL && !both,
	       "SRQ resize: to 2 changes nothing (%s), beyond max_srq_wr is EINVAL (%s), with the limit sets both (%u entries, limit %u)",
	       strerror(rc), strerror(big), sa.max_wr, sa.srq_limit);
out:
	conn_destroy(&a);
	conn_destroy(&b);
	if (srq)
		ibv_destroy_srq(srq);
}

/* RDMA WRITE a page of pattern into @big at @off, check it landed, READ
 * it back into another page and check that. */
static int big_rw(struct conn *a, struct ibv_mr *small, struct ibv_mr *big, size_t off)
{
	uint8_t *out = small->addr, *in = out + PAGE;
	uint32_t seed = (uint32_t)(off >> 12) ^ 0x5eed;
	struct ibv_sge sg = { .addr = (uintptr_t)out, .length = PAGE, .lkey = small->lkey };
	struct ibv_send_wr wr = { .sg_list = &sg, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE };

	pat_fill(out, PAGE, seed, off);
	memset(in, 0, PAGE);
	wr.wr.rdma.remote_addr = (uintptr_t)big->addr + off;
	wr.wr.rdma.rkey = big->rkey;
	if (post_wait(a, &wr) || pat_diff((uint8_t *)big->addr + off, PAGE, seed, off) >= 0)
		return -1;
	sg.addr = (uintptr_t)in;
	wr.opcode = IBV_WR_RDMA_READ;
	if (post_wait(a, &wr))
		return -1;
	return pat_diff(in, PAGE, seed, off) >= 0 ? -1 : 0;
}

static void big_mr(struct dev *d, struct ibv_mr *small, size_t mib)
{
	size_t len = mib << 20, offs[3] = { 0, len / 2 + 4000, len - PAGE };
	struct conn a = { 0 }, b = { 0 };
	struct ibv_mr *mr = NULL;
	double t0, t1;
	void *p;
	int bad = -1;

	if (!mib) {
		for (int i = 0; i < 3; i++)
			tap_skipped("--big-mr-mib 0", "large MR case %d", i + 1);
		return;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	t0 = now_s();
	if (p != MAP_FAILED)
		mr = ibv_reg_mr(d->pd[0], p, len, IBV_ACCESS_LOCAL_WRITE |
				IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	t1 = now_s();
	tap_ok(mr, "a %zu MiB MR registered (%.1f s)%s%s", mib, t1 - t0,
	       mr ? "" : ": ", mr ? "" : strerror(errno));
	if (mr && !loop_pair(d, &a, &b, NULL)) {
		bad = 0;
		for (int i = 0; i < 3; i++)
			if (big_rw(&a, small, mr, offs[i])) {
				tap_diag("large MR: WRITE/READ at byte %zu failed", offs[i]);
				bad = -1;
			}
	}
	tap_ok(!bad, "RDMA WRITE and READ through a loopback RC pair at the first, middle and last pages of it");
	t0 = now_s();
	tap_ok(mr && !ibv_dereg_mr(mr), "the %zu MiB MR deregistered (%.1f s)", mib, now_s() - t0);
	conn_destroy(&a);
	conn_destroy(&b);
	if (p != MAP_FAILED)
		munmap(p, len);
}

int limits_run(struct dev *d, size_t big_mib)
{
	uint8_t *page = aligned_alloc(PAGE, 4 * PAGE);
	struct ibv_cq *shared = ibv_create_cq(d->ctx, 1, NULL, NULL, 0);
	struct ibv_mr *mr = page ? ibv_reg_mr(d->pd[0], page, 4 * PAGE,
					      IBV_ACCESS_LOCAL_WRITE) : NULL;
	struct mr_pages mp = { .n = d->attr.max_mr + OVERSHOOT };
	size_t mp_len = (size_t)mp.n * PAGE;
	const struct pool pools[] = {
		{ "contexts (doorbell pages)", db_pages_for_users(d), ctx_create, ctx_destroy },
		{ "PDs", d->attr.max_pd, pd_create, pd_destroy },
		{ "CQs", d->attr.max_cq, cq_create, cq_destroy },
		{ "QPs", d->attr.max_qp, qp_create, qp_destroy, shared },
		{ "SRQs", d->attr.max_srq, srq_create, srq_destroy },
		{ "MRs", d->attr.max_mr, mr_create, mr_destroy, &mp },
	};

	tap_plan(2 * (sizeof(pools) / sizeof(pools[0])) + 2 + 3 + 3 + 3 + 3);
	mp.base = mmap(NULL, mp_len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!shared || !mr || mp.base == MAP_FAILED) {
		tap_diag("limits: a CQ, a 16 KiB MR and %zu KiB for MRs to start with: %s",
			 mp_len >> 10, strerror(errno));
		return 1;
	}
	/* This process holds one context and two PDs already (dev_open),
	 * and the shared CQ and the MR. */
	for (size_t i = 0; i < sizeof(pools) / sizeof(pools[0]); i++)
		exhaust(d, &pools[i]);
	cq_overrun(d, mr);
	cq_resize(d, mr);
	srq_limit(d, mr);
	srq_resize(d, mr);
	big_mr(d, mr, big_mib);
	ibv_dereg_mr(mr);
	ibv_destroy_cq(shared);
	munmap(mp.base, mp_len);
	free(page);
	return tap_done();
}
