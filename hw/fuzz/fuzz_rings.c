// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libFuzzer harness: work queue contents and doorbells.  fz_rdma_init()
 * builds live RC (looped back A <-> B, B on an SRQ), UD and GSI QPs
 * through valid admin commands; the input then writes raw send WQEs
 * (every opcode and field: SGEs, inline data, remote addresses, atomics,
 * REG_MR, LOCAL_INV, UD addresses) and receive WQEs into the rings and
 * rings doorbells with the driver's or raw producer indexes, writes the
 * doorbell records the device reads, moves CQ consumer indexes, changes
 * QP states under traffic and invalidates the MR.  The looped-back
 * requester's packets reach the responder and its ACKs the completer, so
 * one WQE exercises the whole RC engine.  Record format: fuzz_rings.h.
 */
#include <string.h>

#include "fuzz_rings.h"
#include "fz_rdma.h"

#define FR_LOOP		true

static struct fz_wq *rq_of(struct fz_rdma *r, uint8_t which)
{
	switch (which % 4) {
	case 0:
		return &r->qp[FZ_QP_A];
	case 1:
		return &r->qp[FZ_QP_UD];
	case 2:
		return &r->qp[FZ_QP_GSI];
	default:
		return &r->srq;
	}
}

static void sq_wqe(struct fz_rdma *r, struct fz_in *in)
{
	unsigned int q = fz_u8(in) % FZ_NQP;
	uint8_t how = fz_u8(in);
	uint8_t wqe[1u << FZ_WQE_SHIFT];
	size_t n = fz_bytes(in, wqe, fz_u8(in));

	if (how & FR_FIX_IDX) {
		struct wren_wqe_ctrl *c = (void *)wqe;

		c->wqe_idx = (uint16_t)r->qp[q].sq_pi;
		if (n < sizeof(*c))
			n = sizeof(*c);
	}
	fz_rdma_write_sq(r, q, wqe, n);
	if (how & FR_RING)
		fz_rdma_ring_sq(r, q);
}

static void sq_db(struct fz_rdma *r, struct fz_in *in)
{
	unsigned int q = fz_u8(in) % FZ_NQP;
	uint8_t how = fz_u8(in);
	uint32_t idx = fz_u32(in);
	uint8_t page = fz_u8(in);
	uint64_t val;

	if (!(how & FR_DB_RAW_INDEX))
		idx = r->qp[q].sq_pi;
	if (!(how & FR_DB_RAW_PAGE))
		page = (uint8_t)r->qp[q].uar;
	val = WREN_DB_VAL(r->qp[q].qpn, 0, idx);
	wrenhw_mmio_write(r->d->h->hw, WREN_BAR_DB,
			  (uint64_t)page * WREN_DB_PAGE_SIZE + WREN_DB_SQ, val,
			  how & FR_DB_SIZE4 ? 4 : 8);
}

static void rq_wqe(struct fz_rdma *r, struct fz_in *in)
{
	struct fz_wq *wq = rq_of(r, fz_u8(in));
	uint8_t how = fz_u8(in);
	uint8_t rqe[1u << FZ_WQE_SHIFT];
	size_t n = fz_bytes(in, rqe, fz_u8(in));

	if (how & FR_FIX_IDX) {
		struct wren_rqe *h = (void *)rqe;

		h->wqe_idx = (uint16_t)wq->rq_pi;
		if (n < sizeof(*h))
			n = sizeof(*h);
	}
	fz_rdma_post_rq(r, wq, rqe, n);
}

/* The device reads doorbell records: any value, as a buggy driver writes. */
static void dbrec(struct fz_rdma *r, struct fz_in *in)
{
	uint8_t which = fz_u8(in);
	uint32_t v = fz_u32(in);
	uint64_t at;

	if (which % 2) {
		at = r->cq[(which >> 1) & 1].dbrec;
	} else {
		struct fz_wq *wq = rq_of(r, which >> 1);

		at = wq->dbrec;
		wq->rq_pi = v;
	}
	th_mem_write(r->d->h, at, &v, sizeof(v));
}

static void cq_db(struct fz_rdma *r, struct fz_in *in)
{
	struct fz_cq *c = &r->cq[fz_u8(in) & 1];
	uint32_t flags = (uint32_t)fz_u8(in) << 24 & WREN_DB_CQ_ARM_MASK;
	uint32_t idx = fz_u32(in);

	th_db_write(r->d->h, 0, WREN_DB_CQ, WREN_DB_VAL(c->cqn, flags,
							idx ? idx : c->ci));
}

static void mr(struct fz_rdma *r, struct fz_in *in)
{
	struct wren_aq_write_mtt w;

	if (fz_u8(in) & 1) {
		td_handle_cmd(r->d, WREN_AQ_OP_DEACTIVATE_MR, FZ_MR_KEY >> 8,
			      NULL, 0);
		return;
	}
	memset(&w, 0, sizeof(w));
	w.mr_index = FZ_MR_KEY >> 8;
	w.count = FZ_MR_PAGES;
	td_cmd(r->d, WREN_AQ_OP_WRITE_MTT, &w, sizeof(w), r->mr_pages,
	       sizeof(r->mr_pages), NULL, 0);
	td_handle_cmd(r->d, WREN_AQ_OP_ACTIVATE_MR, FZ_MR_KEY >> 8, NULL, 0);
}

static void poll_all(struct fz_rdma *r)
{
	fz_cq_poll(r->d, &r->cq[0]);
	fz_cq_poll(r->d, &r->cq[1]);
	td_aeq_count(r->d, 0xff);
	fz_acq_drain(r->d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	struct fz_rdma r;
	uint8_t q, st;

	r.d = fz_new();
	fz_rdma_init(&r, FR_LOOP);
	while (fz_more(&in)) {
		switch (fz_u8(&in) % FR_KINDS) {
		case FR_SQ_WQE:
			sq_wqe(&r, &in);
			break;
		case FR_SQ_DB:
			sq_db(&r, &in);
			break;
		case FR_RQ_WQE:
			rq_wqe(&r, &in);
			break;
		case FR_DBREC:
			dbrec(&r, &in);
			break;
		case FR_CQ_DB:
			cq_db(&r, &in);
			break;
		case FR_POLL:
			poll_all(&r);
			break;
		case FR_SETTLE:
			fz_settle(r.d, (uint64_t)fz_u32(&in) * 1000);
			break;
		case FR_QP_STATE:
			q = fz_u8(&in) % FZ_NQP;
			st = fz_u8(&in);
			if (st == FR_RECONNECT)
				fz_rdma_reconnect(&r, q, FR_LOOP);
			else
				fz_rdma_qp_state(&r, q, st % 8);
			break;
		default:
			mr(&r, &in);
			break;
		}
		th_run(r.d->h);
	}
	/* Everything in flight finishes or times out (retries are finite). */
	fz_settle(r.d, 10000000000ull);
	poll_all(&r);
	fz_check(r.d);
	fz_free(r.d);
	return 0;
}
