// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The requester of every transport (RC, UC, UD, GSI, XRC initiators):
 * send WQEs are read by DMA from the SQ up to the last doorbell,
 * validated (opcode for the QP type and capabilities, reserved fields,
 * wqe_idx, segments within the stride, SGE count, inline length, atomic
 * layout, every local key), given their PSNs, and turned into packets of
 * at most the path MTU.  At most WHW_SQ_WINDOW WQEs are
 * started and not completed; READ, atomic, FLUSH and ATOMIC WRITE WQEs
 * also wait for max_rd_atomic, and a fenced WQE for every earlier one.
 * REG_MR and LOCAL_INV (roce_fastreg.c) and BIND_MW (roce_mw_bind.c)
 * send nothing: they execute when the SQ starts them, under the same
 * ordering rules.
 * UD, GSI and UC sends complete once their last packet is on the wire
 * (UC: RC's SEND and WRITE opcodes in the UC class, no AckReq, nothing
 * ever resent); RC ones when the completer (rc_comp.c) sees them
 * acknowledged.
 *
 * RC keeps to a PSN window (whw_rc_window()): a packet goes out only if
 * every PSN up to its own lies within a window of the oldest
 * unacknowledged one, so a bulk transfer never has more in flight than a
 * switch queue holds.  A READ is asked for in requests of at most half a
 * window of responses, each counted against max_rd_atomic, so the
 * responder streams at most a window toward us.  AckReq is set on the
 * last packet of a message, every half window within a long one and on
 * the packet that fills the window: an ACK always comes back to open it.
 * Go-back-N retransmission rewinds the send cursor to a PSN and resends
 * at most a window.  A packet waits while the port has no room on its
 * priority (port_sched.c), and while DCQCN limits the QP's rate for the
 * reaction point's gate (roce_rp.c), which counts what was sent.  Without
 * the capability of its QP type
 * (WREN_CAP_RDMA_RC, _UC, _UD or _GSI) a QP's WQEs are never read.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/whw_events.h"
#include "../core/whw_ring.h"
#include "../core/whw_table.h"
#include "../port/whw_sched.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

#define WQE_FLAGS	(WREN_WQE_F_SIGNALED | WREN_WQE_F_FENCE | \
			 WREN_WQE_F_SOLICITED | WREN_WQE_F_INLINE)

/* WQEs the SQ executes itself, with no packet: REG_MR, LOCAL_INV, BIND_MW. */
static bool is_local_op(uint8_t op)
{
	return op == WREN_WQE_REG_MR || op == WREN_WQE_LOCAL_INV ||
	       op == WREN_WQE_BIND_MW;
}

/* Which opcodes this QP may post, given its type and the capabilities. */
static bool opcode_ok(const struct wrenhw *hw, const struct whw_qp *qp,
		      uint8_t op)
{
	bool rc = wren_qpt_reliable(qp->type);

	if (wren_qpt_datagram(qp->type))
		return op == WREN_WQE_NOP || op == WREN_WQE_SEND ||
		       op == WREN_WQE_SEND_IMM;
	/* UC carries SENDs and RDMA WRITEs only: no READ, atomics, SEND_INV. */
	switch (op) {
	case WREN_WQE_NOP:
	case WREN_WQE_SEND:
	case WREN_WQE_SEND_IMM:
	case WREN_WQE_RDMA_WRITE:
	case WREN_WQE_RDMA_WRITE_IMM:
		return true;
	case WREN_WQE_RDMA_READ:
		return rc;
	case WREN_WQE_SEND_INV:
		return rc && whw_roce_cap(hw, WREN_CAP_RDMA_SEND_INV);
	case WREN_WQE_ATOMIC_CMP_SWP:
	case WREN_WQE_ATOMIC_FETCH_ADD:
		return rc && whw_roce_cap(hw, WREN_CAP_RDMA_ATOMIC);
	case WREN_WQE_LOCAL_INV:
	case WREN_WQE_REG_MR:
		return whw_roce_cap(hw, WREN_CAP_RDMA_FAST_REG);
	case WREN_WQE_BIND_MW:
		/* A type 2 window belongs to a QP that takes requests. */
		return qp->type != WREN_QPT_XRC_INI &&
		       whw_roce_cap(hw, WREN_CAP_RDMA_MW);
	/* IBA 1.5's verbs have RC opcodes only. */
	case WREN_WQE_FLUSH:
		return qp->type == WREN_QPT_RC &&
		       whw_roce_cap(hw, WREN_CAP_RDMA_FLUSH);
	case WREN_WQE_ATOMIC_WRITE:
		return qp->type == WREN_QPT_RC &&
		       whw_roce_cap(hw, WREN_CAP_RDMA_ATOMIC_WRITE);
	default:
		return false;
	}
}

static bool type_enabled(const struct wrenhw *hw, const struct whw_qp *qp)
{
	switch (qp->type) {
	case WREN_QPT_RC:
		return whw_roce_cap(hw, WREN_CAP_RDMA_RC);
	case WREN_QPT_UD:
		return whw_roce_cap(hw, WREN_CAP_RDMA_UD);
	case WREN_QPT_UC:
		return whw_roce_cap(hw, WREN_CAP_RDMA_UC);
	case WREN_QPT_XRC_INI:
	case WREN_QPT_XRC_TGT:
		return whw_roce_cap(hw, WREN_CAP_RDMA_RC) &&
		       whw_roce_cap(hw, WREN_CAP_RDMA_XRC);
	default:
		return whw_roce_cap(hw, WREN_CAP_RDMA_GSI);
	}
}

static uint8_t parse_sges(struct whw_swqe *w, const uint8_t *seg, uint32_t n)
{
	uint64_t total = 0;

	if (n > WHW_MAX_SGE)
		return WREN_VERR_SQ_SGES;
	for (uint32_t i = 0; i < n; i++) {
		const struct wren_wqe_sge *s =
			(const void *)(seg + i * WREN_WQE_DS_SIZE);

		w->sge[i].addr = whw_le64(s->addr);
		w->sge[i].len = whw_le32(s->length);
		w->sge[i].lkey = whw_le32(s->lkey);
		total += w->sge[i].len;
	}
	if (total > WHW_MAX_MSG_SIZE)
		return WREN_VERR_SQ_LENGTH;
	w->nsge = (uint8_t)n;
	w->len = (uint32_t)total;
	return 0;
}

static uint8_t parse_inline(const struct whw_qp *qp, struct whw_swqe *w,
			    const uint8_t *seg, uint32_t n)
{
	const struct wren_wqe_inline *h = (const void *)seg;
	uint32_t len = whw_le32(h->length);

	if (!n || h->rsvd[0] || h->rsvd[1] || h->rsvd[2] ||
	    len > qp->max_inline || len > WHW_MAX_INLINE ||
	    n != wren_inline_ds(len))
		return WREN_VERR_SQ_INLINE;
	memcpy(w->inl_data, seg + sizeof(*h), len);
	w->inl = true;
	w->len = len;
	return 0;
}

/*
 * FLUSH and ATOMIC_WRITE: their fixed segments after wren_wqe_raddr (read
 * already) say it all; a request and its response carry no local data.
 */
static uint8_t decode_iba15(const struct whw_qp *qp, struct whw_swqe *w,
			    const struct wren_wqe_raddr *ra)
{
	if (w->opcode == WREN_WQE_FLUSH) {
		const struct wren_wqe_flush *fl = (const void *)(ra + 1);

		if (fl->rsvd0[0] || fl->rsvd0[1] || fl->rsvd[0] || fl->rsvd[1])
			return WREN_VERR_SQ_RSVD;
		if (!fl->type || (fl->type & ~WREN_FLUSH_TYPES) ||
		    fl->level > WREN_FLUSH_MR)
			return WREN_VERR_SQ_FLUSH;
		w->flush_type = fl->type;
		w->flush_level = fl->level;
		w->len = whw_le32(fl->length);
	} else {
		const struct wren_wqe_atomic_write *aw = (const void *)(ra + 1);

		if (aw->rsvd)
			return WREN_VERR_SQ_RSVD;
		memcpy(w->aw_data, aw->data, sizeof(w->aw_data));
		w->len = WREN_ATOMIC_LEN;
	}
	return qp->attr.max_rd_atomic ? 0 : WREN_VERR_SQ_RD_ATOMIC;
}

/* Decodes the WQE in @buf into @w; returns a vendor code, 0 if good. */
static uint8_t decode(struct wrenhw *hw, struct whw_qp *qp,
		      struct whw_swqe *w, const uint8_t *buf, uint8_t *status)
{
	const struct wren_wqe_ctrl *c = (const void *)buf;
	uint32_t stride = 1u << qp->sq_wqe_shift, fixed = 0, n = c->ds_count;
	const uint8_t *seg;
	uint8_t op = c->opcode, v;

	*status = WREN_CQE_LOC_QP_OP_ERR;
	w->opcode = op;
	w->flags = c->flags;
	if (!opcode_ok(hw, qp, op))
		return WREN_VERR_SQ_OPCODE;
	if (c->flags & ~WQE_FLAGS)
		return WREN_VERR_SQ_FLAGS;
	if (c->rsvd0 || c->rsvd1 ||
	    (c->xrc_srqn && qp->type != WREN_QPT_XRC_INI))
		return WREN_VERR_SQ_RSVD;
	if (whw_le16(c->wqe_idx) != (uint16_t)w->idx)
		return WREN_VERR_SQ_IDX;
	memcpy(w->imm, &c->imm_data, 4);
	w->xrc_srqn = whw_le32(c->xrc_srqn);
	if (w->xrc_srqn > WREN_QPN_MASK)
		return WREN_VERR_SQ_RSVD;	/* 24 bits on the wire */
	fixed = wren_sq_fixed_size(op, wren_qpt_datagram(qp->type)) -
		sizeof(*c);
	if (sizeof(*c) + fixed + n * WREN_WQE_DS_SIZE > stride)
		return WREN_VERR_SQ_STRIDE;
	seg = buf + sizeof(*c);
	if (is_local_op(op)) {
		const struct wren_wqe_reg_mr *rm = (const void *)seg;
		const struct wren_wqe_bind_mw *bm = (const void *)seg;

		if (n || (c->flags & WREN_WQE_F_INLINE))
			return WREN_VERR_SQ_STRIDE;
		if (op == WREN_WQE_REG_MR &&
		    (rm->rsvd0[0] || rm->rsvd0[1] || rm->rsvd0[2] ||
		     rm->rsvd[0] || rm->rsvd[1]))
			return WREN_VERR_SQ_RSVD;
		if (op == WREN_WQE_BIND_MW &&
		    (bm->rsvd0[0] || bm->rsvd0[1] || bm->rsvd0[2]))
			return WREN_VERR_SQ_RSVD;
		return 0;
	}
	if (fixed) {
		if (wren_qpt_datagram(qp->type)) {
			const struct wren_wqe_ud *u = (const void *)seg;

			if (u->rsvd || whw_le32(u->dest_qpn) > WREN_QPN_MASK)
				return WREN_VERR_SQ_RSVD;
			w->dqpn = whw_le32(u->dest_qpn);
			w->qkey = whw_le32(u->qkey);
			/* As InfiniBand: bit 31 set sends the QP's Q_Key. */
			if (w->qkey & 0x80000000u)
				w->qkey = qp->attr.qkey;
			{
				struct whw_ah *ah = whw_table_get(
					&hw->ahs, whw_le32(u->ah));

				if (!ah || ah->pd != qp->pd)
					return WREN_VERR_SQ_AH;
				w->av = ah->av;
			}
		} else {
			const struct wren_wqe_raddr *ra = (const void *)seg;

			if (ra->rsvd)
				return WREN_VERR_SQ_RSVD;
			w->raddr = whw_le64(ra->raddr);
			w->rkey = whw_le32(ra->rkey);
			if (wren_wqe_is_atomic(op)) {
				const struct wren_wqe_atomic *a =
					(const void *)(ra + 1);

				w->swap = whw_le64(a->swap_add);
				w->cmp = whw_le64(a->compare);
			}
		}
		seg += fixed;
	}
	if (wren_wqe_is_iba15(op)) {
		if (n || (c->flags & WREN_WQE_F_INLINE))
			return WREN_VERR_SQ_STRIDE;
		return decode_iba15(qp, w, (const void *)(c + 1));
	}
	if (op == WREN_WQE_NOP)
		return n ? WREN_VERR_SQ_STRIDE : 0;
	if (c->flags & WREN_WQE_F_INLINE) {
		if (op == WREN_WQE_RDMA_READ || wren_wqe_is_rd_atomic(op))
			return WREN_VERR_SQ_INLINE;
		v = parse_inline(qp, w, seg, n);
	} else {
		v = parse_sges(w, seg, n);
	}
	if (v) {
		if (v == WREN_VERR_SQ_LENGTH)
			*status = WREN_CQE_LOC_LEN_ERR;
		return v;
	}
	if (wren_wqe_is_atomic(op) &&
	    (n != 1 || w->sge[0].len != WREN_ATOMIC_LEN))
		return WREN_VERR_SQ_ATOMIC;
	if (wren_qpt_datagram(qp->type) && w->len > whw_roce_pmtu(hw, qp)) {
		*status = WREN_CQE_LOC_LEN_ERR;
		return WREN_VERR_SQ_LENGTH;
	}
	if (wren_wqe_is_rd_atomic(op) && !qp->attr.max_rd_atomic)
		return WREN_VERR_SQ_RD_ATOMIC;
	if (!w->inl) {
		enum whw_mem_err e = whw_sgl_check(
			hw, qp, w->sge, w->nsge,
			wren_wqe_is_rd_atomic(op) ? WREN_ACCESS_LOCAL_WRITE : 0);

		if (e) {
			*status = whw_mem_local_status(e);
			return WREN_VERR_SQ_KEY;
		}
	}
	return 0;
}

/* Packets (PSNs) a WQE uses. */
static uint32_t wqe_npkts(const struct whw_swqe *w, uint32_t mtu)
{
	switch (w->opcode) {
	case WREN_WQE_NOP:
	case WREN_WQE_REG_MR:
	case WREN_WQE_LOCAL_INV:
	case WREN_WQE_BIND_MW:
		return 0;
	case WREN_WQE_ATOMIC_CMP_SWP:
	case WREN_WQE_ATOMIC_FETCH_ADD:
	case WREN_WQE_FLUSH:
	case WREN_WQE_ATOMIC_WRITE:
		return 1;
	default:
		return w->len ? (w->len + mtu - 1) / mtu : 1;
	}
}

/* Starts the WQE at sq_fetch; false if it must wait (or the QP broke). */
static bool start_wqe(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;
	uint32_t idx = r->sq_fetch;
	uint64_t off = (uint64_t)(idx & ((1u << qp->sq_log_size) - 1))
		       << qp->sq_wqe_shift;
	uint8_t buf[1u << WHW_MAX_SQ_WQE_SHIFT];
	const struct wren_wqe_ctrl *c = (const void *)buf;
	struct whw_swqe *w = whw_swqe(r, idx);
	uint8_t status, v;

	if (hw->ops->dma_read(hw->opaque, whw_ring_addr(&qp->buf, off), buf,
			      1u << qp->sq_wqe_shift)) {
		whw_aeq_post(hw, WREN_EVENT_QP_FATAL, WREN_WQ_SYND_DMA,
			     qp->hdr.id, idx);
		whw_roce_qp_error(hw, qp);
		return false;
	}
	/* Ordering rules first: they make the WQE wait, not fail. */
	if ((c->flags & WREN_WQE_F_FENCE) && r->rd_out)
		return false;
	if (wren_wqe_is_rd_atomic(c->opcode) && qp->attr.max_rd_atomic &&
	    r->rd_out >= qp->attr.max_rd_atomic)
		return false;
	memset(w, 0, offsetof(struct whw_swqe, sge));
	w->idx = idx;
	v = decode(hw, qp, w, buf, &status);
	r->sq_fetch++;
	if (v) {
		w->done = true;
		w->status = status;
		w->vendor = v;
		return false;
	}
	if (is_local_op(w->opcode)) {
		uint32_t key;

		/* Local: done when the SQ reaches it. */
		memcpy(&key, w->imm, 4);
		if (w->opcode == WREN_WQE_BIND_MW) {
			w->status = whw_mw_bind(hw, qp, (const void *)(c + 1));
			w->vendor = w->status ? WREN_VERR_SQ_BIND : 0;
		} else {
			w->status = w->opcode == WREN_WQE_REG_MR ?
				    whw_fastreg_reg(hw, qp,
						    (const void *)(c + 1)) :
				    whw_fastreg_inv(hw, qp, whw_le32(key));
			w->vendor = w->status ? WREN_VERR_SQ_KEY : 0;
		}
		w->done = true;
		return !w->status;
	}
	w->npkts = wqe_npkts(w, whw_roce_pmtu(hw, qp));
	w->first_psn = qp->attr.sq_psn;
	qp->attr.sq_psn = whw_psn_add(qp->attr.sq_psn, w->npkts);
	if (!w->npkts)
		w->done = true;
	if (wren_wqe_is_rd_atomic(w->opcode))
		r->rd_out++;
	return true;
}

static uint8_t rc_opcode(const struct whw_swqe *w, uint32_t i)
{
	bool first = i == 0, last = i + 1 == w->npkts;
	bool imm = w->opcode == WREN_WQE_SEND_IMM ||
		   w->opcode == WREN_WQE_RDMA_WRITE_IMM;

	if (w->opcode == WREN_WQE_RDMA_WRITE ||
	    w->opcode == WREN_WQE_RDMA_WRITE_IMM) {
		if (first && last)
			return imm ? WHW_OP_WRITE_ONLY_IMM : WHW_OP_WRITE_ONLY;
		if (first)
			return WHW_OP_WRITE_FIRST;
		if (last)
			return imm ? WHW_OP_WRITE_LAST_IMM : WHW_OP_WRITE_LAST;
		return WHW_OP_WRITE_MIDDLE;
	}
	if (first && last)
		return imm ? WHW_OP_SEND_ONLY_IMM :
		       w->opcode == WREN_WQE_SEND_INV ? WHW_OP_SEND_ONLY_INV :
		       WHW_OP_SEND_ONLY;
	if (first)
		return WHW_OP_SEND_FIRST;
	if (last)
		return imm ? WHW_OP_SEND_LAST_IMM :
		       w->opcode == WREN_WQE_SEND_INV ? WHW_OP_SEND_LAST_INV :
		       WHW_OP_SEND_LAST;
	return WHW_OP_SEND_MIDDLE;
}

static void fail_wqe(struct whw_swqe *w, uint8_t status, uint8_t vendor)
{
	w->done = true;
	w->status = status;
	w->vendor = vendor;
}

/* Gathers @n payload bytes at message offset @off into the frame. */
static bool gather(struct wrenhw *hw, struct whw_qp *qp, struct whw_swqe *w,
		   struct whw_frame *f, uint32_t off, uint32_t n)
{
	uint8_t *p = whw_roce_put(f, n);
	enum whw_mem_err e;

	if (w->inl) {
		memcpy(p, w->inl_data + off, n);
		return true;
	}
	e = whw_sgl_copy(hw, qp, w->sge, w->nsge, off, p, n, false);
	if (e) {
		fail_wqe(w, whw_mem_local_status(e), WREN_VERR_SQ_DMA);
		return false;
	}
	return true;
}

static void note_psn(struct wrenhw *hw, struct whw_roce_qp *r, uint32_t psn,
		     uint32_t n)
{
	if (r->psn_max_valid && whw_psn_diff(psn, r->psn_max) < 0) {
		hw->cnt_rdma[WREN_RDMA_CNT_RETRANSMITS]++;
		if (whw_psn_diff(whw_psn_add(psn, n), r->psn_max) <= 0)
			return;
	}
	r->psn_max = whw_psn_add(psn, n);
	r->psn_max_valid = true;
}

/* Sends a frame of @qp's requester; the rate limiter counts it. */
static void emit(struct wrenhw *hw, struct whw_qp *qp, struct whw_frame *f)
{
	whw_roce_frame_send(hw, f);
	whw_rp_sent(hw, qp, f);
}

/* Sends the next packet of @w. */
static void send_packet(struct wrenhw *hw, struct whw_qp *qp,
			struct whw_swqe *w)
{
	struct whw_roce_qp *r = qp->roce;
	uint32_t mtu = whw_roce_pmtu(hw, qp), win = whw_rc_window(mtu);
	uint32_t half = win / 2 ? win / 2 : 1;
	const struct wren_av *av;
	uint32_t dqpn, psn, i = w->sent, off, n;
	bool rc = wren_qpt_reliable(qp->type);
	bool dgram = wren_qpt_datagram(qp->type);
	bool last, se, ackreq;
	struct whw_frame f;
	uint8_t op, base;
	uint8_t *h;

	av = dgram ? &w->av : &qp->attr.av;
	dqpn = dgram ? w->dqpn : qp->attr.dest_qpn;
	if (dgram) {
		op = w->opcode == WREN_WQE_SEND_IMM ? WHW_OP_UD_SEND_ONLY_IMM
						     : WHW_OP_UD_SEND_ONLY;
		psn = w->first_psn;
		last = true;
	} else if (w->opcode == WREN_WQE_RDMA_READ) {
		op = WHW_OP_READ_REQ;
		psn = whw_psn_add(w->first_psn, i);
		last = true;
	} else if (wren_wqe_is_iba15(w->opcode)) {
		op = w->opcode == WREN_WQE_FLUSH ? WHW_OP_FLUSH
						  : WHW_OP_ATOMIC_WRITE;
		psn = w->first_psn;
		last = true;
	} else if (wren_wqe_is_rd_atomic(w->opcode)) {
		op = w->opcode == WREN_WQE_ATOMIC_CMP_SWP ? WHW_OP_CMP_SWAP
							   : WHW_OP_FETCH_ADD;
		psn = w->first_psn;
		last = true;
	} else {
		op = rc_opcode(w, i);
		psn = whw_psn_add(w->first_psn, i);
		last = i + 1 == w->npkts;
	}
	/* The headers that follow go by RC's opcode; UC's, XRC's class up. */
	base = op;
	op |= whw_roce_op_class(qp);
	se = last && (w->flags & WREN_WQE_F_SOLICITED) &&
	     w->opcode != WREN_WQE_RDMA_WRITE;
	/*
	 * ACK requested at the end of each message, every half window
	 * within a long one (so the window keeps moving without a pause) and
	 * on the packet that fills the window (so a full window is always
	 * acknowledged, whatever the responder coalesces).
	 */
	ackreq = rc && (last || i % half == half - 1 ||
			whw_psn_diff(whw_psn_add(psn, 1), whw_req_una(qp)) >=
			(int32_t)win);
	if (!whw_roce_frame_init(hw, &f, av,
				 whw_roce_sport(av, qp->hdr.id, dqpn), op, se,
				 dqpn, ackreq, psn)) {
		/* The source GID was removed: the WQE cannot go out. */
		fail_wqe(w, WREN_CQE_LOC_QP_OP_ERR, WREN_VERR_SQ_AH);
		return;
	}
	/* XRCETH: the remote XRC SRQ, first of the extension headers. */
	if (qp->type == WREN_QPT_XRC_INI)
		whw_wr32be(whw_roce_put(&f, 4), w->xrc_srqn);
	if (dgram) {
		h = whw_roce_put(&f, 8);
		whw_wr32be(h, w->qkey);
		h[4] = 0;
		whw_wr24be(h + 5, qp->hdr.id);
		if (op == WHW_OP_UD_SEND_ONLY_IMM)
			memcpy(whw_roce_put(&f, 4), w->imm, 4);
		if (!gather(hw, qp, w, &f, 0, w->len))
			return;
		emit(hw, qp, &f);
		w->sent = 1;
		w->done = true;
		return;
	}
	if (base == WHW_OP_READ_REQ) {
		/* Responses i .. end - 1: up to the next chunk boundary. */
		uint32_t end = whw_rc_read_req_end(i, w->npkts,
						   whw_rc_read_chunk(mtu));
		uint32_t done = i * mtu;

		h = whw_roce_put(&f, 16);
		whw_wr64be(h, w->raddr + done);
		whw_wr32be(h + 8, w->rkey);
		whw_wr32be(h + 12, end == w->npkts ? w->len - done
						  : (end - i) * mtu);
		note_psn(hw, r, psn, end - i);
		emit(hw, qp, &f);
		w->sent = end;
		return;
	}
	if (base == WHW_OP_FLUSH || base == WHW_OP_ATOMIC_WRITE) {
		if (base == WHW_OP_FLUSH) {
			h = whw_roce_put(&f, 4);
			memset(h, 0, 4);
			h[3] = (uint8_t)(w->flush_level << 4 | w->flush_type);
		}
		h = whw_roce_put(&f, 16);
		whw_wr64be(h, w->raddr);
		whw_wr32be(h + 8, w->rkey);
		whw_wr32be(h + 12, w->len);
		if (base == WHW_OP_ATOMIC_WRITE)
			memcpy(whw_roce_put(&f, WREN_ATOMIC_LEN), w->aw_data,
			       WREN_ATOMIC_LEN);
		note_psn(hw, r, psn, 1);
		emit(hw, qp, &f);
		w->sent = 1;
		return;
	}
	if (base == WHW_OP_CMP_SWAP || base == WHW_OP_FETCH_ADD) {
		h = whw_roce_put(&f, 28);
		whw_wr64be(h, w->raddr);
		whw_wr32be(h + 8, w->rkey);
		whw_wr64be(h + 12, w->swap);
		whw_wr64be(h + 20, w->cmp);
		note_psn(hw, r, psn, 1);
		emit(hw, qp, &f);
		w->sent = 1;
		return;
	}
	if (base == WHW_OP_WRITE_FIRST || base == WHW_OP_WRITE_ONLY ||
	    base == WHW_OP_WRITE_ONLY_IMM) {
		h = whw_roce_put(&f, 16);
		whw_wr64be(h, w->raddr);
		whw_wr32be(h + 8, w->rkey);
		whw_wr32be(h + 12, w->len);
	}
	if (base == WHW_OP_SEND_LAST_IMM || base == WHW_OP_SEND_ONLY_IMM ||
	    base == WHW_OP_WRITE_LAST_IMM || base == WHW_OP_WRITE_ONLY_IMM) {
		memcpy(whw_roce_put(&f, 4), w->imm, 4);
	} else if (base == WHW_OP_SEND_LAST_INV ||
		   base == WHW_OP_SEND_ONLY_INV) {
		uint32_t key;

		memcpy(&key, w->imm, 4);
		whw_wr32be(whw_roce_put(&f, 4), whw_le32(key));
	}
	off = i * mtu;
	n = w->len - off < mtu ? w->len - off : mtu;
	if (!gather(hw, qp, w, &f, off, n))
		return;
	if (rc)
		note_psn(hw, r, psn, 1);
	emit(hw, qp, &f);
	/* UC: nothing comes back, the last packet sent is the end. */
	if (++w->sent == w->npkts && !rc)
		w->done = true;
}

static bool wqe_has_more(const struct whw_swqe *w)
{
	if (w->done)
		return false;
	if (wren_wqe_is_rd_atomic(w->opcode) && w->opcode != WREN_WQE_RDMA_READ)
		return !w->sent;
	return w->sent < w->npkts;
}

/* READ requests among responses [0, @x) that end there (@c: chunk). */
static uint32_t read_reqs_ended(uint32_t x, uint32_t npkts, uint32_t c)
{
	return x / c + (x == npkts && npkts % c ? 1 : 0);
}

/* READ and atomic requests whose responses have not all come back. */
static uint32_t rd_reqs_out(struct whw_qp *qp, uint32_t c)
{
	struct whw_roce_qp *r = qp->roce;
	uint32_t n = 0;

	for (uint32_t i = qp->sq_ci; i != r->sq_fetch; i++) {
		const struct whw_swqe *w = whw_swqe(r, i);

		if (w->done || !wren_wqe_is_rd_atomic(w->opcode))
			continue;
		if (w->opcode != WREN_WQE_RDMA_READ)
			n += w->sent ? 1 : 0;
		else if (w->sent > w->acked)
			n += read_reqs_ended(w->sent, w->npkts, c) -
			     read_reqs_ended(w->acked, w->npkts, c);
	}
	return n;
}

/*
 * May the next packet of @w go?  RC: all its PSNs (a READ request: the
 * responses it asks for) within the window of the oldest unacknowledged
 * PSN, and a READ or atomic request within max_rd_atomic.  PSNs go out in
 * order, so a packet that may not go stops the SQ.
 */
static bool may_send(struct wrenhw *hw, struct whw_qp *qp, struct whw_swqe *w)
{
	uint32_t mtu = whw_roce_pmtu(hw, qp), c = whw_rc_read_chunk(mtu);
	uint32_t n = 1;

	if (!wren_qpt_reliable(qp->type))
		return true;
	if (wren_wqe_is_rd_atomic(w->opcode)) {
		if (rd_reqs_out(qp, c) >= qp->attr.max_rd_atomic)
			return false;
		if (w->opcode == WREN_WQE_RDMA_READ)
			n = whw_rc_read_req_end(w->sent, w->npkts, c) - w->sent;
	}
	return whw_psn_diff(whw_psn_add(w->first_psn, w->sent + n),
			    whw_req_una(qp)) <= (int32_t)whw_rc_window(mtu);
}

void whw_req_process(struct wrenhw *hw, struct whw_qp *qp, uint32_t *budget)
{
	struct whw_roce_qp *r = qp->roce;

	/* Without the QP type's capability there is no data path at all. */
	if ((qp->state != WREN_QPS_RTS && qp->state != WREN_QPS_SQD) ||
	    !type_enabled(hw, qp))
		return;
	if (!r->sw) {
		r->sw = calloc(WHW_SQ_WINDOW, sizeof(*r->sw));
		if (!r->sw)
			return;
		r->sq_fetch = r->tx_idx = qp->sq_ci;
	}
	for (;;) {
		uint32_t fetched = r->sq_fetch;
		bool failing = false;

		/* A refused WQE stops the SQ until it is reported. */
		for (uint32_t i = qp->sq_ci; i != r->sq_fetch; i++) {
			struct whw_swqe *w = whw_swqe(r, i);

			if (w->done && w->status)
				failing = true;
		}
		while (!failing && qp->state == WREN_QPS_RTS &&
		       r->sq_fetch != qp->sq_pi &&
		       r->sq_fetch - qp->sq_ci < WHW_SQ_WINDOW) {
			if (!start_wqe(hw, qp))
				break;
		}
		if (qp->state == WREN_QPS_ERR)
			return;
		while (!r->rnr_wait && *budget && r->tx_idx != r->sq_fetch) {
			struct whw_swqe *w = whw_swqe(r, r->tx_idx);
			const struct wren_av *av;

			if (!wqe_has_more(w)) {
				r->tx_idx++;
				continue;
			}
			if (!may_send(hw, qp, w))
				break;	/* an ACK or response reopens it */
			if (!whw_rp_may_send(hw, qp))
				break;	/* DCQCN's rate: a timer kicks us */
			av = wren_qpt_datagram(qp->type) ? &w->av :
							    &qp->attr.av;
			if (!whw_port_tx_room(hw, whw_roce_av_prio(hw, av))) {
				r->tx_wait = true;
				break;	/* the port wakes us when it drains */
			}
			send_packet(hw, qp, w);
			(*budget)--;
		}
		whw_comp_retire(hw, qp);
		if (qp->state == WREN_QPS_ERR)
			return;
		/* Completions may have opened the window: go on if budget. */
		if (!*budget || r->sq_fetch == qp->sq_pi ||
		    r->sq_fetch - qp->sq_ci >= WHW_SQ_WINDOW || failing ||
		    r->tx_idx != r->sq_fetch)
			break;
		if (wren_qpt_reliable(qp->type))
			break;	/* RC waits for ACKs to free the window */
		/*
		 * UD and UC: another pass only if this one started WQEs.  In SQD,
		 * or with the next WQE made to wait, none starts, and the SQ
		 * waits for the next doorbell or state change - going round
		 * again would never end.
		 */
		if (r->sq_fetch == fetched)
			break;
	}
	whw_comp_timer_update(hw, qp);
}
