// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RESIZE_SRQ (WREN_CAP_SRQ_RESIZE): after the command the SRQ takes WQE i
 * from slot i mod the new size of the new ring, and its producer index
 * from the new record; a WQE the device took before completes with its
 * index; the old ring is never read again.  Every refusal - bad handle,
 * size, address, reserved bytes, a producer index too far ahead, an
 * unreadable record - leaves the SRQ as it was.
 */
#include <stdlib.h>

#include "roce/whw_roce.h"
#include "roce_tests.h"
#include "wrenhw_int.h"

#define SYND_RZ(f)	SYND_IN(struct wren_resize_srq_in, f)
#define RZ_SHIFT	9	/* ro_srq_create()'s stride */

struct rz_env {
	struct rc_env e;
	struct ro_srq s;
	struct ro_cq rcq;
	struct ro_qp q;		/* side 1, on the SRQ */
};

static void rz_init(struct rz_env *z, uint32_t log)
{
	struct ro_conn cn = { .mtu = 1, .timeout = 14, .retry = 7,
			      .rnr_retry = 7, .min_rnr = 1, .rd_atomic = 1,
			      .access = WREN_ACCESS_LOCAL_WRITE |
					WREN_ACCESS_REMOTE_WRITE };
	struct ro_qp_opts o = { .type = WREN_QPT_RC };
	struct wren_modify_qp_in m;

	rc_env_init(&z->e, NULL);
	ro_srq_create(&z->e.p.n[1], &z->s, log, 0);
	ro_cq_create(&z->e.p.n[1], &z->rcq, 6, 0);
	o.srq = &z->s;
	o.scq = o.rcq = z->rcq.cqn;
	ro_qp_create(&z->e.p.n[1], &z->q, &o);
	ro_connect(&z->e.p, 1, &z->q, &z->e.qp[0], &cn);
	memset(&m, 0, sizeof(m));
	m.qpn = z->e.qp[0].qpn;
	m.attr_mask = WREN_QP_ATTR_STATE;
	m.new_state = WREN_QPS_RESET;
	ro_modify(&z->e.p.n[0], &m);
	ro_connect(&z->e.p, 0, &z->e.qp[0], &z->q, &cn);
}

static struct wren_resize_srq_in rz_in(struct rz_env *z, uint8_t log)
{
	struct wren_resize_srq_in in;

	memset(&in, 0, sizeof(in));
	in.srqn = z->s.srqn;
	in.log_size = log;
	in.buf.addr = td_alloc(z->s.d, 1ull << (log + RZ_SHIFT), 4096);
	in.buf.page_shift = 12;
	in.dbrec_addr = td_alloc(z->s.d, 8, 8);
	return in;
}

static struct td_res resize(struct rz_env *z, struct wren_resize_srq_in *in)
{
	return td_cmd(z->s.d, WREN_AQ_OP_RESIZE_SRQ, NULL, 0, in, sizeof(*in),
		      NULL, 0);
}

/* Software's half: WQEs [from, to) into the new ring, pi into the record. */
static void rz_move(struct rz_env *z, const struct wren_resize_srq_in *in,
		    uint32_t from, uint32_t to)
{
	uint8_t wqe[1u << RZ_SHIFT];
	uint32_t omask = (1u << z->s.log) - 1, nmask = (1u << in->log_size) - 1;

	for (uint32_t i = from; i != to; i++) {
		th_mem_read(z->s.d->h, z->s.buf + ((uint64_t)(i & omask) << RZ_SHIFT),
			    wqe, sizeof(wqe));
		th_mem_write(z->s.d->h, in->buf.addr +
			     ((uint64_t)(i & nmask) << RZ_SHIFT), wqe, sizeof(wqe));
	}
	th_mem_write(z->s.d->h, in->dbrec_addr, &z->s.pi, 4);
}

static bool rz_unchanged(struct rz_env *z, uint32_t log)
{
	struct whw_srq *srq = whw_table_get(&z->s.d->h->hw->srqs, z->s.srqn);

	return srq && srq->log_size == log &&
	       whw_ring_addr(&srq->buf, 0) == z->s.buf &&
	       srq->dbrec_addr == z->s.dbrec;
}

static uint32_t rz_posted(struct rz_env *z)
{
	struct wren_query_srq_out o;

	memset(&o, 0, sizeof(o));
	td_handle_cmd(z->s.d, WREN_AQ_OP_QUERY_SRQ, z->s.srqn, &o, sizeof(o));
	return o.wqes_posted;
}

/* Message @i: @len bytes of pattern 100 + @i from its own buffer. */
static void send_msg(struct rz_env *z, uint32_t i, uint32_t len)
{
	struct ro_wqe w = { .opcode = WREN_WQE_SEND, .nsge = 1 };

	free(rc_pattern(&z->e, 0, 4096 * (uint64_t)i, len, 100 + i));
	w.sge[0] = rc_sge(&z->e, 0, 4096 * (uint64_t)i, len);
	ro_post_send(&z->e.qp[0], &w);
}

/*
 * Four WQEs in a ring of 4; the first is taken by a SEND whose last packet
 * was lost.  The ring grows to 8 with WQEs 1..3 moved and 4..7 added (as a
 * provider's backlog moves in), and the old ring is overwritten.  The
 * retransmitted SEND completes WQE 0, seven more take WQEs 1..7, each into
 * its own buffer.
 */
static void traffic(void)
{
	struct wren_resize_srq_in in;
	struct wren_cqe c[16];
	uint8_t junk[4u << RZ_SHIFT];
	struct rz_env z;
	struct td_res r;
	unsigned int before, n;
	bool order = true, data = true;

	rz_init(&z, 2);
	for (uint32_t i = 0; i < 4; i++) {
		struct wren_wqe_sge sg = rc_sge(&z.e, 1, 4096 * (uint64_t)i, 2000);

		ro_srq_post(&z.s, &sg, 1);
	}
	/* 1000 bytes at MTU 256: FIRST, 2 x MIDDLE, LAST (lost once). */
	z.e.p.drop_opcode = WHW_OP_SEND_LAST;
	z.e.p.drop_opcode_n = 1;
	send_msg(&z, 0, 1000);
	ro_settle(&z.e.p, 1000000ull);
	before = ro_cq_drain(&z.rcq, c, 16);

	in = rz_in(&z, 3);
	rz_move(&z, &in, 0, 4);
	for (uint32_t i = 4; i < 8; i++) {
		struct wren_wqe_sge sg = rc_sge(&z.e, 1, 4096 * (uint64_t)i, 2000);
		struct ro_srq old = z.s;

		/* ro_srq_post() into the new ring and record. */
		z.s.buf = in.buf.addr;
		z.s.log = 3;
		z.s.dbrec = in.dbrec_addr;
		ro_srq_post(&z.s, &sg, 1);
		old.pi = z.s.pi;
		z.s = old;
	}
	r = resize(&z, &in);
	expect(r, 0, 0, "RESIZE_SRQ from 4 to 8 WQEs with 3 posted, 1 taken, 4 added");
	memset(junk, 0xa5, sizeof(junk));
	th_mem_write(z.s.d->h, z.s.buf, junk, sizeof(junk));
	z.s.buf = in.buf.addr;
	z.s.log = 3;
	z.s.dbrec = in.dbrec_addr;
	tap_ok(before == 0 && rz_posted(&z) == 7,
	       "... the device sees 7 WQEs posted (and had completed none)");

	ro_settle(&z.e.p, 1000000000ull);
	for (uint32_t i = 1; i < 8; i++)
		send_msg(&z, i, 100 + i);
	ro_settle(&z.e.p, 1000000000ull);
	n = ro_cq_drain(&z.rcq, c, 16);
	for (unsigned int i = 0; i < n; i++) {
		order &= c[i].wqe_idx == i && !c[i].status &&
			 c[i].byte_len == (i ? 100 + i : 1000);
		uint8_t want[1000];

		ro_fill(want, sizeof(want), 100 + i);
		data &= c[i].byte_len <= sizeof(want) &&
			rc_same(&z.e, 1, 4096 * (uint64_t)i, want, c[i].byte_len);
	}
	tap_ok(n == 8 && order,
	       "the taken WQE and WQEs 1..7 complete in order from the new ring (%u CQEs)",
	       n);
	tap_ok(n == 8 && data, "... each message in its own WQE's buffer");
	tap_ok(rz_posted(&z) == 0, "QUERY_SRQ: nothing left posted");
	rc_env_fini(&z.e);
}

static void refusals(void)
{
	struct wren_resize_srq_in in;
	struct td_res r;
	struct rz_env z;
	uint32_t far;

	rz_init(&z, 3);
	in = rz_in(&z, 2);
	expect(resize(&z, &in), WREN_AQ_STATUS_BAD_SIZE, SYND_RZ(log_size),
	       "RESIZE_SRQ to fewer entries -> BAD_SIZE");
	in.log_size = 16;
	expect(resize(&z, &in), WREN_AQ_STATUS_BAD_SIZE, SYND_RZ(log_size),
	       "RESIZE_SRQ log size 16 -> BAD_SIZE");
	in = rz_in(&z, 4);
	in.srqn = 77;
	expect(resize(&z, &in), WREN_AQ_STATUS_BAD_HANDLE, SYND_RZ(srqn),
	       "RESIZE_SRQ of a missing SRQ -> BAD_HANDLE");
	in.srqn = z.s.srqn;
	in.dbrec_addr |= 4;
	expect(resize(&z, &in), WREN_AQ_STATUS_BAD_ADDR, SYND_RZ(dbrec_addr),
	       "RESIZE_SRQ doorbell record unaligned -> BAD_ADDR");
	in.dbrec_addr &= ~4ull;
	in.rsvd0[2] = 1;
	expect(resize(&z, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_RZ(rsvd0) + 2,
	       "RESIZE_SRQ reserved -> BAD_PARAM");
	in.rsvd0[2] = 0;
	in.buf.addr = z.rcq.ring;
	expect(resize(&z, &in), WREN_AQ_STATUS_BAD_ADDR, SYND_RZ(buf.addr),
	       "RESIZE_SRQ onto a CQ's ring -> BAD_ADDR");
	in = rz_in(&z, 4);
	far = 17;
	th_mem_write(z.s.d->h, in.dbrec_addr, &far, 4);
	expect(resize(&z, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_RZ(dbrec_addr),
	       "RESIZE_SRQ to 16 with 17 posted in the new record -> BAD_PARAM");
	far = 0;
	th_mem_write(z.s.d->h, in.dbrec_addr, &far, 4);
	th_fault_add(z.s.d->h, in.dbrec_addr, 8, true, false);
	r = resize(&z, &in);
	th_fault_clear(z.s.d->h);
	expect(r, WREN_AQ_STATUS_DMA_ERROR, 0,
	       "RESIZE_SRQ whose new record cannot be read -> DMA_ERROR");
	tap_ok(rz_unchanged(&z, 3), "... and after every refusal the SRQ is as it was");
	/* The same size into a new ring is a move. */
	in = rz_in(&z, 3);
	r = resize(&z, &in);
	tap_ok(r.status == 0 && !rz_unchanged(&z, 3),
	       "RESIZE_SRQ to as many entries moves the SRQ");
	rc_env_fini(&z.e);
}

void test_srq_resize(void)
{
	traffic();
	refusals();
}
