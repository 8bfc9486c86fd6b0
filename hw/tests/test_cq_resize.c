// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RESIZE_CQ (WREN_CAP_CQ_RESIZE): the entries software has not consumed
 * move in order to the start of the new ring with the new ring's phase,
 * the indexes restart (the next CQE lands after them, the doorbell
 * record read is the new one), and every refusal - bad handle, size,
 * address, reserved bytes, too many unconsumed entries or sends owed, a
 * dead CQ, a DMA error, a board without the capability - leaves the CQ
 * as it was.
 */
#include "tests.h"
#include "wrenhw_int.h"

#define SYND_RS(f)	SYND_IN(struct wren_resize_cq_in, f)

struct rs_env {
	struct td *d;
	struct whw_cq *cq;
	uint32_t cqn;
	uint64_t ring, dbrec;	/* the CQ's current ones */
};

static void post(struct rs_env *e, uint32_t byte_len)
{
	struct wren_cqe cqe;

	memset(&cqe, 0, sizeof(cqe));
	cqe.byte_len = byte_len;
	whw_cq_post(e->d->h->hw, e->cq, &cqe, false);
}

static struct wren_cqe slot(struct rs_env *e, uint64_t ring, uint32_t i)
{
	struct wren_cqe c;

	th_mem_read(e->d->h, ring + (uint64_t)i * sizeof(c), &c, sizeof(c));
	return c;
}

static void set_ci(struct rs_env *e, uint64_t dbrec, uint32_t ci)
{
	struct wren_cq_dbrec rec = { .ci = ci };

	th_mem_write(e->d->h, dbrec, &rec, sizeof(rec));
}

static struct wren_resize_cq_in rs_in(struct rs_env *e, uint8_t log)
{
	struct wren_resize_cq_in in;

	memset(&in, 0, sizeof(in));
	in.cqn = e->cqn;
	in.log_size = log;
	in.ring.addr = td_alloc(e->d, (uint64_t)32 << log, 4096);
	in.ring.page_shift = 12;
	in.dbrec_addr = td_alloc(e->d, 8, 8);
	return in;
}

static struct td_res resize(struct rs_env *e, struct wren_resize_cq_in *in)
{
	return td_cmd(e->d, WREN_AQ_OP_RESIZE_CQ, NULL, 0, in, sizeof(*in),
		      NULL, 0);
}

/* The CQ is where it was: same ring, size, indexes. */
static bool unchanged(struct rs_env *e, uint32_t log, uint32_t pi)
{
	return e->cq->log_size == log && e->cq->pi == pi &&
	       whw_ring_addr(&e->cq->ring, 0) == e->ring &&
	       e->cq->dbrec_addr == e->dbrec && !e->cq->error;
}

static void refusals(struct rs_env *e)
{
	struct wren_resize_cq_in in;
	struct td_res r;

	/* Four entries, one consumed: three to move. */
	for (uint32_t i = 0; i < 4; i++)
		post(e, 100 + i);
	set_ci(e, e->dbrec, 1);

	in = rs_in(e, 1);
	expect(resize(e, &in), WREN_AQ_STATUS_BAD_SIZE, SYND_RS(log_size),
	       "RESIZE_CQ to 2 entries with 3 unconsumed -> BAD_SIZE");
	tap_ok(unchanged(e, 2, 4), "... and the CQ is as it was");

	/* Two send WQEs rung on a QP of this CQ and not completed yet. */
	{
		int64_t pdn = td_alloc_pd(e->d);
		int64_t qpn = td_create_qp(e->d, WREN_QPT_RC, (uint32_t)pdn,
					   e->cqn, 0);
		struct whw_qp *qp = qpn > 0 ?
			whw_table_get(&e->d->h->hw->qps, (uint64_t)qpn) : NULL;

		tap_ok(qp != NULL, "an RC QP whose send CQ it is");
		if (qp)
			qp->sq_pi = qp->sq_ci + 2;
		in = rs_in(e, 2);
		expect(resize(e, &in), WREN_AQ_STATUS_BAD_SIZE, SYND_RS(log_size),
		       "RESIZE_CQ to 4 entries with 3 unconsumed and 2 sends owed -> BAD_SIZE");
		if (qp)
			qp->sq_pi = qp->sq_ci;
		if (qpn > 0)
			td_handle_cmd(e->d, WREN_AQ_OP_DESTROY_QP, (uint32_t)qpn,
				      NULL, 0);
		if (pdn > 0)
			td_handle_cmd(e->d, WREN_AQ_OP_DEALLOC_PD, (uint32_t)pdn,
				      NULL, 0);
	}
	in = rs_in(e, 3);
	in.cqn = 77;
	expect(resize(e, &in), WREN_AQ_STATUS_BAD_HANDLE, SYND_RS(cqn),
	       "RESIZE_CQ of a missing CQ -> BAD_HANDLE");
	in.cqn = e->cqn;
	in.log_size = 23;
	expect(resize(e, &in), WREN_AQ_STATUS_BAD_SIZE, SYND_RS(log_size),
	       "RESIZE_CQ log size 23 -> BAD_SIZE");
	in.log_size = 3;
	in.dbrec_addr |= 4;
	expect(resize(e, &in), WREN_AQ_STATUS_BAD_ADDR, SYND_RS(dbrec_addr),
	       "RESIZE_CQ doorbell record unaligned -> BAD_ADDR");
	in.dbrec_addr &= ~4ull;
	in.rsvd[1] = 1;
	expect(resize(e, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_RS(rsvd) + 4,
	       "RESIZE_CQ reserved -> BAD_PARAM");
	in.rsvd[1] = 0;
	in.ring.addr = e->ring;
	expect(resize(e, &in), WREN_AQ_STATUS_BAD_ADDR, SYND_RS(ring.addr),
	       "RESIZE_CQ onto its own ring -> BAD_ADDR");
	in.ring.addr = e->d->acq;
	expect(resize(e, &in), WREN_AQ_STATUS_BAD_ADDR, SYND_RS(ring.addr),
	       "RESIZE_CQ onto the ACQ -> BAD_ADDR");

	in = rs_in(e, 3);
	th_fault_add(e->d->h, e->ring + 32, 32, true, false);
	r = resize(e, &in);
	th_fault_clear(e->d->h);
	expect(r, WREN_AQ_STATUS_DMA_ERROR, 0,
	       "RESIZE_CQ whose old ring cannot be read -> DMA_ERROR");
	tap_ok(unchanged(e, 2, 4) && !slot(e, in.ring.addr, 0).owner,
	       "... and the CQ is as it was");
	th_fault_add(e->d->h, in.ring.addr + 64, 32, false, true);
	r = resize(e, &in);
	th_fault_clear(e->d->h);
	expect(r, WREN_AQ_STATUS_DMA_ERROR, 0,
	       "RESIZE_CQ whose new ring cannot be written -> DMA_ERROR");
	tap_ok(unchanged(e, 2, 4), "... and the CQ is as it was");
}

static void moves(struct rs_env *e)
{
	struct wren_resize_cq_in in = rs_in(e, 3);
	bool right = true;
	uint32_t i;

	/* Software's new record starts at 0, as the contract asks. */
	set_ci(e, in.dbrec_addr, 0);
	expect(resize(e, &in), WREN_AQ_STATUS_OK, 0,
	       "RESIZE_CQ from 4 to 8 entries, 3 unconsumed");
	for (i = 0; i < 3; i++)
		right &= slot(e, in.ring.addr, i).byte_len == 101 + i &&
			 slot(e, in.ring.addr, i).owner == wren_ring_phase(i, 3);
	tap_ok(right && !slot(e, in.ring.addr, 3).owner,
	       "the 3 unconsumed entries are slots 0-2 of the new ring, in order, phase 1");
	tap_ok(e->cq->pi == 3 && e->cq->ci == 0 && e->cq->log_size == 3 &&
	       e->cq->dbrec_addr == in.dbrec_addr,
	       "producer index 3, consumer index 0, the new size and record");
	e->ring = in.ring.addr;
	e->dbrec = in.dbrec_addr;

	/* Five more fill it; software consumes four, two more wrap. */
	for (i = 0; i < 5; i++)
		post(e, 200 + i);
	set_ci(e, e->dbrec, 4);
	post(e, 300);
	post(e, 301);
	tap_ok(slot(e, e->ring, 3).byte_len == 200 &&
	       slot(e, e->ring, 7).byte_len == 204 &&
	       slot(e, e->ring, 0).byte_len == 300 &&
	       slot(e, e->ring, 0).owner == wren_ring_phase(8, 3) &&
	       slot(e, e->ring, 1).byte_len == 301 && !e->cq->error,
	       "later CQEs follow them and wrap with the new ring's phase, "
	       "the new record's consumer index honoured");

	/* Shrinks too, with entries that wrapped in the old ring. */
	in = rs_in(e, 2);
	set_ci(e, in.dbrec_addr, 0);
	set_ci(e, e->dbrec, 6);
	expect(resize(e, &in), WREN_AQ_STATUS_OK, 0,
	       "RESIZE_CQ from 8 to 4 entries, 4 unconsumed across the wrap");
	right = true;
	for (i = 0; i < 4; i++)
		right &= slot(e, in.ring.addr, i).owner == 1;
	tap_ok(right && slot(e, in.ring.addr, 0).byte_len == 203 &&
	       slot(e, in.ring.addr, 1).byte_len == 204 &&
	       slot(e, in.ring.addr, 2).byte_len == 300 &&
	       slot(e, in.ring.addr, 3).byte_len == 301 && e->cq->pi == 4,
	       "entries 6-9 are slots 0-3 of the 4-entry ring");
	e->ring = in.ring.addr;
	e->dbrec = in.dbrec_addr;
}

static void dead_and_gated(struct rs_env *e)
{
	struct wren_resize_cq_in in;
	struct wren_eqe ev;

	/* The 4-entry ring is full and nothing was consumed: overrun. */
	post(e, 400);
	tap_ok(e->cq->error && td_aeq_poll(e->d, &ev) && ev.type == WREN_EVENT_CQ_ERR,
	       "an overrun after a resize: CQ_ERR");
	in = rs_in(e, 4);
	expect(resize(e, &in), WREN_AQ_STATUS_BAD_STATE, SYND_RS(cqn),
	       "RESIZE_CQ of a CQ in error -> BAD_STATE");

	whw_test_set_caps(e->d->h->hw, WHW_CAPS & ~WREN_CAP_CQ_RESIZE);
	expect(resize(e, &in), WREN_AQ_STATUS_NOT_SUPPORTED, SYND_CMD(opcode),
	       "RESIZE_CQ without WREN_CAP_CQ_RESIZE -> NOT_SUPPORTED");
	whw_test_set_caps(e->d->h->hw, WHW_CAPS);
}

void test_cq_resize(void)
{
	struct rs_env e = { .d = td_new(NULL) };
	struct wren_create_cq_in in;
	uint32_t eqn = (uint32_t)td_create_eq(e.d, 4, 2, NULL);
	struct td_res r;

	memset(&in, 0, sizeof(in));
	in.ring.addr = td_alloc(e.d, 4096, 4096);
	in.ring.page_shift = 12;
	in.dbrec_addr = td_alloc(e.d, 8, 8);
	in.eqn = eqn;
	in.log_size = 2;
	r = td_cmd(e.d, WREN_AQ_OP_CREATE_CQ, NULL, 0, &in, sizeof(in), NULL, 0);
	e.cqn = (uint32_t)r.result;
	e.cq = whw_table_get(&e.d->h->hw->cqs, e.cqn);
	e.ring = in.ring.addr;
	e.dbrec = in.dbrec_addr;
	tap_ok(e.cq && (th_reg_read(e.d->h, WREN_REG_CAPS_LO) & WREN_CAP_CQ_RESIZE),
	       "a 4-entry CQ on a board with WREN_CAP_CQ_RESIZE");
	if (!e.cq) {
		td_free(e.d);
		return;
	}
	refusals(&e);
	moves(&e);
	dead_and_gated(&e);
	expect(td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_CQ, e.cqn, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DESTROY_CQ after resizes");
	td_free(e.d);
}
