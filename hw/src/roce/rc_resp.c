// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The RC responder: requests are taken strictly in PSN order.  A PSN
 * ahead of the expected one is out of sequence (one PSN sequence error
 * NAK until the expected one arrives); one behind is a duplicate: SEND
 * and WRITE are acknowledged again, a READ is executed again from the
 * responder resource that remembers it (from the PSN asked, reading
 * memory anew), an atomic is answered from the saved original value,
 * never executed twice, and so are IBA 1.5's FLUSH and ATOMIC WRITE,
 * answered by an RDMA READ response of no payload.  Every rkey, bound,
 * right and PD is checked before a byte moves: a WRITE that fails gets a
 * remote access NAK and writes nothing.  A SEND without a posted receive
 * gets an RNR NAK with the QP's min_rnr_timer.  Errors NAK first, then
 * the QP goes to ERR with QP_ACCESS_ERR or QP_REQ_ERR on the AEQ.
 *
 * READ responses and atomic ACKs are sent from wrenhw_process(), up to
 * the QP's budget per call, in request order; plain ACKs are coalesced:
 * the latest PSN that asked for one is acknowledged once per call, after
 * the responses that precede it.  The responder does not pace READ
 * responses itself: the requester asks for at most half its send window
 * per READ request and keeps all it asked for within the window
 * (roce_req.c), so no more than a window of responses is ever owed.
 * Responses wait while the port has no room on their priority; ACKs and
 * NAKs never wait (port_sched.c's hard limit bounds them).
 *
 * An XRC target QP is this responder too, bound for each request to the
 * XRC SRQ its XRCETH names (roce_rq.c), and for each response to the
 * SRQ of the request that owes it.
 */
#include <string.h>

#include "../core/whw_events.h"
#include "../core/whw_table.h"
#include "../port/whw_sched.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

static void queue_ack(struct wrenhw *hw, struct whw_qp *qp, uint32_t psn,
		      uint8_t syn)
{
	struct whw_roce_qp *r = qp->roce;

	/* A pending NAK stands until an ACK at or beyond its PSN. */
	if (r->ack_pending && r->ack_syn != WHW_AETH_ACK &&
	    syn == WHW_AETH_ACK && whw_psn_diff(psn, r->ack_psn) < 0)
		return;
	r->ack_pending = true;
	r->ack_psn = psn;
	r->ack_syn = syn;
	whw_roce_kick(hw, qp);
}

/* NAK at once, then the QP breaks (flushing what it holds). */
static void resp_fail(struct wrenhw *hw, struct whw_qp *qp, uint32_t psn,
		      uint8_t syn)
{
	whw_roce_send_ack(hw, qp, psn, syn);
	if (syn == WHW_AETH_NAK_ACC) {
		hw->cnt_rdma[WREN_RDMA_CNT_RESP_REMOTE_ACCESS_ERRORS]++;
		whw_aeq_post(hw, WREN_EVENT_QP_ACCESS_ERR, 0, qp->hdr.id, 0);
	} else if (syn == WHW_AETH_NAK_INV) {
		whw_aeq_post(hw, WREN_EVENT_QP_REQ_ERR, 0, qp->hdr.id, 0);
	}
	whw_roce_qp_error(hw, qp);
}

/* The receive WQE in r->rwqe completes with an error, then fail. */
static void recv_fail(struct wrenhw *hw, struct whw_qp *qp, uint32_t psn,
		      uint8_t status, uint8_t vendor, uint8_t syn)
{
	whw_roce_recv_error(hw, qp, status, vendor, qp->roce->rcv_off);
	resp_fail(hw, qp, psn, syn);
}

static bool qp_allows(const struct whw_qp *qp, uint32_t right)
{
	return qp->attr.access_flags & right;
}

/* Takes a receive WQE into r->rwqe; false if the packet must stop. */
static bool take_rqe(struct wrenhw *hw, struct whw_qp *qp,
		     const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	uint8_t vendor;
	int rc = whw_rq_fetch(hw, qp, &r->rwqe, &vendor);

	if (rc > 0) {
		/* The rest of the message is dropped quietly until it is sent
		 * again: no sequence NAK may replace the RNR NAK. */
		r->nak_seq_sent = true;
		hw->cnt_rdma[WREN_RDMA_CNT_RNR_NAK_SENT]++;
		queue_ack(hw, qp, p->psn,
			  WHW_AETH_RNR | (qp->attr.min_rnr_timer & 0x1f));
		return false;
	}
	r->rcv_off = 0;
	if (rc < 0) {
		recv_fail(hw, qp, p->psn, WREN_CQE_LOC_QP_OP_ERR, vendor,
			  WHW_AETH_NAK_OP);
		return false;
	}
	return true;
}

/*
 * SEND with invalidate: the named key of this PD's fast-reg MR (without
 * windows bound to it) is freed, or the type 2 window bound to this QP
 * (roce_mw_bind.c) unbound.
 */
static bool invalidate(struct wrenhw *hw, struct whw_qp *qp, uint32_t key)
{
	struct whw_mr *mr;

	if (whw_key_is_mw(hw, key))
		return whw_mw_invalidate(hw, qp, key, true);
	mr = whw_table_get(&hw->mrs, key >> 8);
	if (!mr || mr->key_tag != (uint8_t)key || mr->pd != qp->pd ||
	    !(mr->flags & WREN_MR_F_FAST_REG) || mr->mw_bound)
		return false;
	mr->state = WREN_MR_FREE;
	return true;
}

static bool do_send(struct wrenhw *hw, struct whw_qp *qp,
		    const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	uint8_t st;

	if ((p->info & WHW_K_FIRST) && !take_rqe(hw, qp, p))
		return false;
	r->in_send = true;
	st = whw_place_send(hw, qp, p);
	if (st == WREN_CQE_LOC_LEN_ERR) {
		recv_fail(hw, qp, p->psn, st, 0, WHW_AETH_NAK_INV);
		return false;
	}
	if (st) {
		recv_fail(hw, qp, p->psn, st, WREN_VERR_RECV_PROT,
			  WHW_AETH_NAK_OP);
		return false;
	}
	if (!(p->info & WHW_K_LAST))
		return true;
	if ((p->info & WHW_H_IETH) && !invalidate(hw, qp, p->ieth)) {
		recv_fail(hw, qp, p->psn, WREN_CQE_LOC_QP_OP_ERR,
			  WREN_VERR_RECV_PROT, WHW_AETH_NAK_INV);
		return false;
	}
	whw_roce_recv_done(hw, qp, p, WREN_CQE_OP_RECV, r->rcv_off);
	r->msn = (r->msn + 1) & 0xffffff;
	return true;
}

static bool do_write(struct wrenhw *hw, struct whw_qp *qp,
		     const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	enum whw_mem_err e;

	if ((p->info & WHW_K_FIRST) && !whw_place_write_start(hw, qp, p)) {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_ACC);
		return false;
	}
	if (!whw_place_write_fits(r, p)) {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_INV);
		return false;
	}
	/* With immediate: the receive WQE is needed before any byte lands. */
	if ((p->info & WHW_H_IMM) && !take_rqe(hw, qp, p)) {
		r->in_write = !(p->info & WHW_K_FIRST);
		return false;
	}
	r->in_write = true;
	e = whw_place_write(hw, qp, p);
	if (e) {
		resp_fail(hw, qp, p->psn, e == WHW_MEM_DMA ? WHW_AETH_NAK_OP :
							  WHW_AETH_NAK_ACC);
		return false;
	}
	if (!(p->info & WHW_K_LAST))
		return true;
	r->in_write = false;
	if (p->info & WHW_H_IMM) {
		whw_roce_recv_done(hw, qp, p, WREN_CQE_OP_RECV_RDMA_IMM,
				   r->w_len);
		r->msn = (r->msn + 1) & 0xffffff;
	}
	return true;
}

static struct whw_rdres *new_res(struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;
	uint32_t n = qp->attr.max_dest_rd_atomic;
	struct whw_rdres *res;

	if (n > WHW_MAX_RD_ATOM)
		n = WHW_MAX_RD_ATOM;
	/* The oldest is replaced: the requester keeps to max_rd_atomic. */
	res = &r->res[r->res_next % n];
	r->res_next = (r->res_next + 1) % n;
	memset(res, 0, sizeof(*res));
	res->valid = true;
	/* An XRC target answers under the SRQ the request named. */
	if (qp->type == WREN_QPT_XRC_TGT) {
		res->xrc_srqn = qp->srq->hdr.id;
		res->xrc_gen = qp->srq->hdr.gen;
	}
	return res;
}

/*
 * READ and atomic requests move rq_psn themselves (a READ uses one PSN
 * per response packet) and are answered by their responses, not an ACK:
 * both return false.
 */
static bool do_read(struct wrenhw *hw, struct whw_qp *qp,
		    const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	uint32_t mtu = whw_roce_pmtu(hw, qp);
	struct whw_rdres *res;
	struct whw_mr *mr;

	if (!qp->attr.max_dest_rd_atomic) {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_INV);
		return false;
	}
	if (!qp_allows(qp, WREN_ACCESS_REMOTE_READ) ||
	    (p->dmalen &&
	     whw_mem_check(hw, qp, p->rkey, p->va, p->dmalen,
			   WREN_ACCESS_REMOTE_READ | WHW_MEM_REMOTE, &mr))) {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_ACC);
		return false;
	}
	res = new_res(qp);
	res->psn = p->psn;
	res->npkts = p->dmalen ? (p->dmalen + mtu - 1) / mtu : 1;
	res->va = p->va;
	res->rkey = p->rkey;
	res->len = p->dmalen;
	r->msn = (r->msn + 1) & 0xffffff;
	/* The PSNs of the responses are the READ's. */
	qp->attr.rq_psn = whw_psn_add(p->psn, res->npkts);
	whw_roce_kick(hw, qp);
	return false;
}

/*
 * A one-packet request executed: an atomic (its ACK carries @orig), or a
 * FLUSH or ATOMIC WRITE (an empty READ response answers it).  Its
 * responder resource owes the response; false, as do_read().
 */
static bool owe_response(struct wrenhw *hw, struct whw_qp *qp,
			 const struct whw_pkt *p, bool atomic, uint64_t orig)
{
	struct whw_rdres *res = new_res(qp);

	res->atomic = atomic;
	res->empty = !atomic;
	res->orig = orig;
	res->psn = p->psn;
	res->npkts = 1;
	qp->roce->msn = (qp->roce->msn + 1) & 0xffffff;
	qp->attr.rq_psn = whw_psn_add(p->psn, 1);
	whw_roce_kick(hw, qp);
	return false;
}

static bool do_atomic(struct wrenhw *hw, struct whw_qp *qp,
		      const struct whw_pkt *p)
{
	struct whw_mr *mr;
	uint64_t v, nv;

	hw->cnt_rdma[WREN_RDMA_CNT_RX_ATOMIC_REQUESTS]++;
	if (!qp->attr.max_dest_rd_atomic || (p->va & 7)) {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_INV);
		return false;
	}
	if (!qp_allows(qp, WREN_ACCESS_REMOTE_ATOMIC) ||
	    whw_mem_check(hw, qp, p->rkey, p->va, 8,
			  WREN_ACCESS_REMOTE_ATOMIC | WHW_MEM_REMOTE, &mr)) {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_ACC);
		return false;
	}
	/* One model thread: atomic with respect to every other atomic. */
	if (whw_mem_dma(hw, mr, p->va, &v, 8, false)) {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_OP);
		return false;
	}
	v = whw_le64(v);
	if (p->op == WHW_OP_CMP_SWAP)
		nv = v == p->cmp ? p->swap : v;
	else
		nv = v + p->swap;
	nv = whw_le64(nv);
	if (whw_mem_dma(hw, mr, p->va, &nv, 8, true)) {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_OP);
		return false;
	}
	return owe_response(hw, qp, p, true, v);
}

/*
 * ATOMIC WRITE: 8 bytes, 8-byte aligned, placed in one write after every
 * earlier request (requests are executed in PSN order).  The QP's and the
 * MR's remote write rights, as an RDMA WRITE.
 */
static bool do_atomic_write(struct wrenhw *hw, struct whw_qp *qp,
			    const struct whw_pkt *p)
{
	uint8_t v[WREN_ATOMIC_LEN];
	struct whw_mr *mr;

	if (!qp->attr.max_dest_rd_atomic || (p->va & 7) ||
	    p->dmalen != WREN_ATOMIC_LEN || p->paylen != WREN_ATOMIC_LEN) {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_INV);
		return false;
	}
	if (!qp_allows(qp, WREN_ACCESS_REMOTE_WRITE) ||
	    whw_mem_check(hw, qp, p->rkey, p->va, WREN_ATOMIC_LEN,
			  WREN_ACCESS_REMOTE_WRITE | WHW_MEM_REMOTE, &mr)) {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_ACC);
		return false;
	}
	memcpy(v, p->payload, sizeof(v));
	if (whw_mem_dma(hw, mr, p->va, v, sizeof(v), true)) {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_OP);
		return false;
	}
	return owe_response(hw, qp, p, false, 0);
}

/*
 * FLUSH: every placement type asked for needs its right on the QP and on
 * the MR (wren_admin.h's FLUSH rights), for the range or, at the MR
 * level, for the key alone.  Writes are placed in guest memory as they
 * arrive, before anything later is executed, so they are globally
 * visible by the time a FLUSH is: there is nothing more to do than to
 * answer.  No MR ever has the persistent right.
 */
static bool do_flush(struct wrenhw *hw, struct whw_qp *qp,
		     const struct whw_pkt *p)
{
	uint32_t need = 0;
	struct whw_mr *mr;

	if (!qp->attr.max_dest_rd_atomic || !p->flush_type ||
	    (p->flush_type & ~WREN_FLUSH_TYPES) ||
	    p->flush_level > WREN_FLUSH_MR) {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_INV);
		return false;
	}
	if (p->flush_type & WREN_FLUSH_GLOBAL)
		need |= WREN_ACCESS_FLUSH_GLOBAL;
	if (p->flush_type & WREN_FLUSH_PERSISTENT)
		need |= WREN_ACCESS_FLUSH_PERSISTENT;
	if ((qp->attr.access_flags & need) != need ||
	    whw_mem_check(hw, qp, p->rkey, p->va, p->dmalen,
			  need | WHW_MEM_REMOTE |
			  (p->flush_level == WREN_FLUSH_MR ? WHW_MEM_WHOLE : 0),
			  &mr)) {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_ACC);
		return false;
	}
	return owe_response(hw, qp, p, false, 0);
}

/* Does @res remember a request of @info's kind? */
static bool res_matches(const struct whw_rdres *res, uint32_t info)
{
	if (info & (WHW_K_FLUSH | WHW_K_ATOMIC_WRITE))
		return res->empty;
	if (info & WHW_K_ATOMIC)
		return res->atomic;
	return !res->atomic && !res->empty;
}

static void duplicate(struct wrenhw *hw, struct whw_qp *qp,
		      const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;

	hw->cnt_rdma[WREN_RDMA_CNT_DUPLICATE_REQUEST]++;
	if (p->info & (WHW_K_READ | WHW_K_ATOMIC | WHW_K_FLUSH |
		       WHW_K_ATOMIC_WRITE)) {
		for (uint32_t i = 0; i < WHW_MAX_RD_ATOM; i++) {
			struct whw_rdres *res = &r->res[i];
			int32_t d = whw_psn_diff(p->psn, res->psn);

			if (!res->valid || d < 0 || (uint32_t)d >= res->npkts ||
			    !res_matches(res, p->info))
				continue;
			/* Again from the PSN asked; memory is read anew. */
			res->cur = (uint32_t)d;
			whw_roce_kick(hw, qp);
			return;
		}
		return;	/* forgotten: the requester will time out */
	}
	queue_ack(hw, qp, whw_psn_add(qp->attr.rq_psn, WREN_PSN_MASK),
		  WHW_AETH_ACK);
}

/* Is @info allowed next, given the message in progress? */
static bool in_order(const struct whw_roce_qp *r, uint32_t info)
{
	if (r->in_send)
		return (info & WHW_K_SEND) && !(info & WHW_K_FIRST);
	if (r->in_write)
		return (info & WHW_K_WRITE) && !(info & WHW_K_FIRST);
	return (info & WHW_K_FIRST) != 0;
}

/* Executes the request @p, the next in PSN order; false if it stops. */
static bool execute(struct wrenhw *hw, struct whw_qp *qp,
		    const struct whw_pkt *p)
{
	if (p->info & WHW_K_READ)
		return do_read(hw, qp, p);
	if (p->info & WHW_K_ATOMIC)
		return do_atomic(hw, qp, p);
	if (p->info & WHW_K_FLUSH)
		return do_flush(hw, qp, p);
	if (p->info & WHW_K_ATOMIC_WRITE)
		return do_atomic_write(hw, qp, p);
	if (p->info & WHW_K_SEND)
		return do_send(hw, qp, p);
	return do_write(hw, qp, p);
}

/*
 * An XRC target takes a request for the XRC SRQ of its own domain that
 * the XRCETH names, and the rest of a message for the SRQ its first
 * packet named (the same SRQ, not one made since under its number).
 */
static bool xrc_bind_request(struct wrenhw *hw, struct whw_qp *qp,
			     const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	struct whw_srq *srq;

	if (p->info & WHW_K_FIRST) {
		srq = whw_xrc_srq(hw, qp, p->xrc_srqn, NULL);
		if (!srq)
			return false;
		r->xrc_srqn = p->xrc_srqn;
		r->xrc_gen = srq->hdr.gen;
	} else {
		if (p->xrc_srqn != r->xrc_srqn)
			return false;
		srq = whw_xrc_srq(hw, qp, r->xrc_srqn, &r->xrc_gen);
		if (!srq)
			return false;
	}
	whw_xrc_bind(qp, srq);
	return true;
}

void whw_resp_rx(struct wrenhw *hw, struct whw_qp *qp,
		 const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	uint32_t mtu = whw_roce_pmtu(hw, qp);
	int32_t d = whw_psn_diff(p->psn, qp->attr.rq_psn);
	bool ok;

	if (d > 0) {
		hw->cnt_rdma[WREN_RDMA_CNT_OUT_OF_SEQUENCE]++;
		if (!r->nak_seq_sent) {
			r->nak_seq_sent = true;
			queue_ack(hw, qp, qp->attr.rq_psn, WHW_AETH_NAK_SEQ);
		}
		return;
	}
	if (d < 0) {
		duplicate(hw, qp, p);
		return;
	}
	r->nak_seq_sent = false;
	if (!in_order(r, p->info) || p->paylen > mtu ||
	    (!(p->info & WHW_K_LAST) && p->paylen != mtu)) {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_INV);
		return;
	}
	if (qp->type != WREN_QPT_XRC_TGT) {
		ok = execute(hw, qp, p);
	} else if (xrc_bind_request(hw, qp, p)) {
		ok = execute(hw, qp, p);
		whw_xrc_unbind(qp);
	} else {
		resp_fail(hw, qp, p->psn, WHW_AETH_NAK_INV);
		return;
	}
	if (!ok)
		return;
	qp->attr.rq_psn = whw_psn_add(p->psn, 1);
	if (p->ackreq)
		queue_ack(hw, qp, p->psn, WHW_AETH_ACK);
}

/*
 * One response packet of @res: a READ's, an atomic ACK, or the empty
 * READ response that answers a FLUSH or ATOMIC WRITE.
 */
static bool send_response(struct wrenhw *hw, struct whw_qp *qp,
			  struct whw_rdres *res)
{
	struct whw_roce_qp *r = qp->roce;
	const struct wren_av *av = &qp->attr.av;
	uint32_t mtu = whw_roce_pmtu(hw, qp), i = res->cur, off, n;
	uint32_t psn = whw_psn_add(res->psn, i);
	struct whw_frame f;
	struct whw_mr *mr;
	uint8_t op, *h;

	if (res->atomic)
		op = WHW_OP_ATOMIC_ACK;
	else if (res->npkts == 1)
		op = WHW_OP_READ_RESP_ONLY;
	else if (!i)
		op = WHW_OP_READ_RESP_FIRST;
	else if (i + 1 == res->npkts)
		op = WHW_OP_READ_RESP_LAST;
	else
		op = WHW_OP_READ_RESP_MIDDLE;
	if (!whw_roce_frame_init(hw, &f, av,
				 whw_roce_sport(av, qp->hdr.id,
						qp->attr.dest_qpn),
				 op | whw_roce_op_class(qp), false,
				 qp->attr.dest_qpn, false, psn)) {
		res->cur = res->npkts;	/* no source GID: nothing can go */
		return true;
	}
	if (op != WHW_OP_READ_RESP_MIDDLE) {
		h = whw_roce_put(&f, 4);
		h[0] = WHW_AETH_ACK;
		whw_wr24be(h + 1, r->msn);
	}
	if (res->atomic) {
		whw_wr64be(whw_roce_put(&f, 8), res->orig);
	} else if (!res->empty) {
		off = i * mtu;
		n = res->len - off < mtu ? res->len - off : mtu;
		if (n) {
			uint64_t va = res->va + off;
			enum whw_mem_err e;

			/* The MR may have gone since the request: check again. */
			e = whw_mem_check(hw, qp, res->rkey, va, n,
					  WREN_ACCESS_REMOTE_READ |
					  WHW_MEM_REMOTE, &mr);
			if (!e)
				e = whw_mem_dma(hw, mr, va, whw_roce_put(&f, n),
						n, false);
			if (e) {
				resp_fail(hw, qp, psn, e == WHW_MEM_DMA ?
					  WHW_AETH_NAK_OP : WHW_AETH_NAK_ACC);
				return false;
			}
		}
	}
	whw_roce_frame_send(hw, &f);
	/* Responses are this QP's data too: DCQCN paces them with its sends. */
	whw_rp_sent(hw, qp, &f);
	res->cur++;
	return true;
}

/*
 * An XRC target's response is sent under the SRQ of its request: a READ
 * checks its memory again with that SRQ's PD, and finds none (a remote
 * access NAK) once the SRQ is gone.
 */
static bool respond(struct wrenhw *hw, struct whw_qp *qp,
		    struct whw_rdres *res)
{
	struct whw_srq *srq;
	bool ok;

	if (qp->type != WREN_QPT_XRC_TGT)
		return send_response(hw, qp, res);
	srq = whw_xrc_srq(hw, qp, res->xrc_srqn, &res->xrc_gen);
	if (srq)
		whw_xrc_bind(qp, srq);
	ok = send_response(hw, qp, res);
	whw_xrc_unbind(qp);
	return ok;
}

void whw_resp_process(struct wrenhw *hw, struct whw_qp *qp, uint32_t *budget)
{
	struct whw_roce_qp *r = qp->roce;
	uint32_t n = qp->attr.max_dest_rd_atomic;
	uint8_t prio = whw_roce_av_prio(hw, &qp->attr.av);

	if (qp->state != WREN_QPS_RTR && qp->state != WREN_QPS_RTS &&
	    qp->state != WREN_QPS_SQD)
		return;
	if (n > WHW_MAX_RD_ATOM)
		n = WHW_MAX_RD_ATOM;
	/* Oldest resource first: responses go out in PSN order. */
	for (uint32_t k = 0; k < n; k++) {
		struct whw_rdres *res = &r->res[(r->res_next + k) % n];

		while (res->valid && res->cur < res->npkts) {
			if (!*budget)
				return;
			if (!whw_port_tx_room(hw, prio)) {
				r->tx_wait = true;
				return;	/* the port wakes us when it drains */
			}
			if (!whw_rp_may_send(hw, qp))
				return;	/* DCQCN's rate: its timer kicks us */
			if (!respond(hw, qp, res))
				return;
			(*budget)--;
		}
	}
	if (r->ack_pending && *budget) {
		r->ack_pending = false;
		whw_roce_send_ack(hw, qp, r->ack_psn, r->ack_syn);
		(*budget)--;
	}
}
