// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * One RC stream between the two models, as perftest's ib_write_bw,
 * ib_read_bw and ib_send_bw run one: side 0 is the requester and keeps a
 * queue of signalled WQEs of one size posted, rung a batch at a time,
 * until the time is up; every completion is checked (status, opcode,
 * WQE index in order, a receive's length) as it comes.  Messages go
 * round a few slots of distinct data, and at the end every destination
 * slot must equal its source byte for byte: a figure is never printed
 * for bytes that did not arrive.  The clock runs from the first post to
 * the last completion, so the figure includes filling and draining the
 * pipe as well as the driver-side work of posting and polling (writing
 * WQEs, doorbells, reading CQEs) - small beside the engine's, see
 * bench.rst.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define ACCESS		(WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE | \
			 WREN_ACCESS_REMOTE_READ)
/* The link the models report: never the limit (memcpy is slower). */
#define LINK_MBPS	400000u
#define SLOT_BYTES	(4u << 20)	/* data a side, at most */
#define MAX_SLOTS	16u
#define MAX_DEPTH	128u		/* WQEs posted and not completed */
#define PIPE_BYTES	(1u << 20)	/* ... or this much data */
#define SQ_LOG		8u		/* room for MAX_DEPTH and more */
#define CQ_LOG		12u
/* READ requests in flight: the model's most, as perftest asks for. */
#define RD_ATOMIC	16u
/*
 * 4.096 us << 18: about a second.  A stream never loses a frame, so the
 * ACK timer only fires if the process sleeps that long; be_jump() would
 * count it.
 */
#define ACK_TIMEOUT	18u

struct stream {
	struct ro_pair p;
	struct be_wire w;
	bool wire;		/* w in use (else hw/tests' ro_settle) */
	struct ro_cq cq[2];
	struct ro_qp qp[2];
	struct ro_mr mr[2];
	const struct be_case *c;
	int src, dst;		/* the sides data leaves and lands */
	unsigned int nslots, depth;
	uint8_t *pat[MAX_SLOTS];
	uint64_t posted, done, recvd;
	char *err;
};

static const char *const op_names[BE_NOPS] = {
	[BE_WRITE] = "WRITE", [BE_READ] = "READ", [BE_SEND] = "SEND",
};

static const uint8_t wqe_op[BE_NOPS] = {
	[BE_WRITE] = WREN_WQE_RDMA_WRITE, [BE_READ] = WREN_WQE_RDMA_READ,
	[BE_SEND] = WREN_WQE_SEND,
};

const char *be_op_name(enum be_op op)
{
	return op < BE_NOPS ? op_names[op] : "?";
}

static bool fail(struct stream *s, const char *what)
{
	if (!s->err[0])
		snprintf(s->err, BE_ERR_LEN, "%s", what);
	return false;
}

static uint64_t frames(const struct stream *s)
{
	return (uint64_t)s->p.n[0].d->h->tx_frames + s->p.n[1].d->h->tx_frames;
}

/* Both hosts' DMA so far, into @r's counters. */
static void dma_sum(const struct stream *s, struct be_result *r)
{
	r->dma_reads = 0;
	r->dma_read_bytes = 0;
	r->dma_writes = 0;
	r->dma_write_bytes = 0;
	for (int i = 0; i < 2; i++) {
		const struct th *h = s->p.n[i].d->h;

		r->dma_reads += h->dma_reads;
		r->dma_read_bytes += h->dma_read_bytes;
		r->dma_writes += h->dma_writes;
		r->dma_write_bytes += h->dma_write_bytes;
	}
}

static uint64_t slot_addr(const struct stream *s, int side, uint64_t msg)
{
	return s->mr[side].iova + (msg % s->nslots) * s->c->size;
}

static bool setup(struct stream *s)
{
	struct ro_conn conn = {
		.mtu = s->c->mtu, .timeout = ACK_TIMEOUT, .retry = 7,
		.rnr_retry = 7, .min_rnr = 1, .rd_atomic = RD_ATOMIC,
		.access = ACCESS,
	};
	uint64_t len = (uint64_t)s->nslots * s->c->size;
	uint8_t *zero;

	ro_pair_init(&s->p);
	if (!s->p.q)
		return fail(s, "no memory for the pair's frame queue");
	if (s->wire && !be_wire_init(&s->w, &s->p))
		return fail(s, "no memory for the wire");
	for (int i = 0; i < 2; i++) {
		struct ro_node *n = &s->p.n[i];
		struct ro_qp_opts o = { .type = WREN_QPT_RC, .sq_log = SQ_LOG,
					.rq_log = SQ_LOG };

		if (s->wire)
			wrenhw_set_link(n->d->h->hw, true, LINK_MBPS);
		if (ro_cq_create(n, &s->cq[i], CQ_LOG, 0) < 0)
			return fail(s, "CREATE_CQ failed");
		o.scq = o.rcq = s->cq[i].cqn;
		if (ro_qp_create(n, &s->qp[i], &o) < 0)
			return fail(s, "CREATE_QP failed");
		if (ro_mr_reg(n, &s->mr[i], n->pd,
			      0x7f0000000000ull + ((uint64_t)i << 32), len,
			      ACCESS, 12, false) < 0)
			return fail(s, "CREATE_MR failed");
	}
	if (ro_connect(&s->p, 0, &s->qp[0], &s->qp[1], &conn) ||
	    ro_connect(&s->p, 1, &s->qp[1], &s->qp[0], &conn))
		return fail(s, "connecting the QPs failed");
	/* Distinct data a slot; the destination zeroed (and backed). */
	zero = calloc(1, s->c->size);
	if (!zero)
		return fail(s, "no memory for the data");
	for (unsigned int i = 0; i < s->nslots; i++) {
		s->pat[i] = malloc(s->c->size);
		if (!s->pat[i])
			break;
		ro_fill(s->pat[i], s->c->size, 0x5eed0000u + i * 7919u +
			s->c->size + s->c->mtu * 31u);
		ro_mr_write(&s->mr[s->src], slot_addr(s, s->src, i),
			    s->pat[i], s->c->size);
		ro_mr_write(&s->mr[s->dst], slot_addr(s, s->dst, i), zero,
			    s->c->size);
	}
	free(zero);
	if (!s->pat[s->nslots - 1])
		return fail(s, "no memory for the data");
	td_aeq_count(s->p.n[0].d, 0xff);	/* forget setup events */
	td_aeq_count(s->p.n[1].d, 0xff);
	return true;
}

static void teardown(struct stream *s)
{
	for (unsigned int i = 0; i < s->nslots; i++)
		free(s->pat[i]);
	ro_mr_free(&s->mr[0]);
	ro_mr_free(&s->mr[1]);
	if (s->wire)
		be_wire_fini(&s->w);
	ro_pair_fini(&s->p);
}

/* @n more messages: their receives first (SEND), then one doorbell. */
static void post(struct stream *s, unsigned int n)
{
	struct ro_wqe w = { .opcode = wqe_op[s->c->op],
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };

	for (unsigned int i = 0; i < n; i++, s->posted++) {
		uint64_t m = s->posted;

		if (s->c->op == BE_SEND) {
			struct wren_wqe_sge r = {
				.addr = slot_addr(s, 1, m),
				.length = s->c->size, .lkey = s->mr[1].key,
			};

			ro_post_recv(&s->qp[1], &r, 1);
		}
		w.sge[0].addr = slot_addr(s, 0, m);
		w.sge[0].length = s->c->size;
		w.sge[0].lkey = s->mr[0].key;
		if (s->c->op != BE_SEND) {
			w.raddr = slot_addr(s, 1, m);
			w.rkey = s->mr[1].key;
		}
		ro_write_send(&s->qp[0], &w);
	}
	ro_ring(&s->qp[0]);
}

/* Completions so far, each checked; false on a bad one. */
static bool reap(struct stream *s, bool *any)
{
	struct wren_cqe c;

	while (ro_cq_poll(&s->cq[0], &c)) {
		*any = true;
		if (c.status != WREN_CQE_SUCCESS)
			return fail(s, "error completion on the requester");
		if (c.opcode != wqe_op[s->c->op] ||
		    c.wqe_idx != (uint16_t)s->done || s->done >= s->posted)
			return fail(s, "unexpected requester completion");
		s->done++;
	}
	while (ro_cq_poll(&s->cq[1], &c)) {
		*any = true;
		if (c.status != WREN_CQE_SUCCESS)
			return fail(s, "error completion on the responder");
		if (s->c->op != BE_SEND || c.opcode != WREN_CQE_OP_RECV ||
		    c.byte_len != s->c->size || c.qpn != s->qp[1].qpn ||
		    s->recvd >= s->posted)
			return fail(s, "unexpected responder completion");
		s->recvd++;
	}
	return true;
}

static bool finished(const struct stream *s)
{
	return s->done == s->posted &&
	       (s->c->op != BE_SEND || s->recvd == s->posted);
}

/* The wire moves frames; false if nothing moved. */
static bool pump(struct stream *s)
{
	uint64_t before = frames(s);

	if (s->wire)
		return be_pump(&s->w);
	ro_settle(&s->p, 1000000000ull);
	return frames(s) != before;
}

static bool run(struct stream *s, const struct be_limits *l,
		struct be_result *r)
{
	uint64_t min = l->min_msgs > s->nslots ? l->min_msgs : s->nslots;
	uint64_t f0 = frames(s), a0 = be_allocs(), c0 = be_cpu_ns();
	uint64_t t0 = be_wall_ns(), now = t0;
	unsigned int refill = s->depth - s->depth / 4;
	struct be_result d0;

	dma_sum(s, &d0);

	for (;;) {
		bool any = false, more;

		more = s->posted < min || (l->run_ns && now - t0 < l->run_ns);
		if (more && s->posted - s->done <= refill) {
			uint64_t n = s->depth - (s->posted - s->done);

			/* Counted (no time): exactly @min messages. */
			if (!l->run_ns && n > min - s->posted)
				n = min - s->posted;
			post(s, (unsigned int)n);
		}
		any = pump(s);
		if (!reap(s, &any))
			return false;
		now = be_wall_ns();
		if (!more && finished(s))
			break;
		if (now - t0 > l->max_ns)
			return fail(s, "stream still running at its time limit");
		if (!any && s->wire && !be_jump(&s->w))
			return fail(s, "stream stalled with no timer armed");
	}
	r->ns = now - t0;
	r->cpu_ns = be_cpu_ns() - c0;
	r->msgs = s->done;
	r->bytes = s->done * s->c->size;
	r->frames = frames(s) - f0;
	r->allocs = be_allocs() - a0;
	dma_sum(s, r);
	r->dma_reads -= d0.dma_reads;
	r->dma_read_bytes -= d0.dma_read_bytes;
	r->dma_writes -= d0.dma_writes;
	r->dma_write_bytes -= d0.dma_write_bytes;
	return true;
}

static bool verify(struct stream *s)
{
	uint8_t *got = malloc(s->c->size);
	bool ok = got != NULL;

	for (unsigned int i = 0; ok && i < s->nslots; i++) {
		ro_mr_read(&s->mr[s->dst], slot_addr(s, s->dst, i), got,
			   s->c->size);
		ok = !memcmp(got, s->pat[i], s->c->size);
	}
	free(got);
	return ok || fail(s, "data mismatch at the destination");
}

bool be_stream(const struct be_case *c, const struct be_limits *l,
	       struct be_result *r)
{
	struct stream *s = calloc(1, sizeof(*s));
	unsigned int slots, depth;
	bool ok;

	memset(r, 0, sizeof(*r));
	if (!s) {
		snprintf(r->err, sizeof(r->err), "no memory");
		return false;
	}
	slots = SLOT_BYTES / c->size;
	depth = PIPE_BYTES / c->size;
	s->c = c;
	s->err = r->err;
	s->wire = !l->harness_wire;
	if (l->slots)
		slots = l->slots;
	s->nslots = slots < 2 ? 2 : slots > MAX_SLOTS ? MAX_SLOTS : slots;
	s->depth = depth < 4 ? 4 : depth > MAX_DEPTH ? MAX_DEPTH : depth;
	/* A READ brings data from the responder (side 1) to side 0. */
	s->src = c->op == BE_READ;
	s->dst = !s->src;
	ok = setup(s) && run(s, l, r) && verify(s);
	if (s->wire) {
		r->jumps = s->w.jumps;
		r->held = s->w.nheld;
		if (ok && s->w.lost)
			ok = fail(s, "the wire lost frames");
	}
	r->retransmits = ro_counter(&s->p.n[0], WREN_RDMA_CNT_RETRANSMITS) +
			 ro_counter(&s->p.n[1], WREN_RDMA_CNT_RETRANSMITS);
	teardown(s);
	free(s);
	return ok;
}
