// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory window mode (wren_verbs_test mw): one node, a pair of RC QPs that
 * the NIC loops back to itself.  QP b owns the memory: an MR registered
 * with IBV_ACCESS_MW_BIND and no remote rights of its own, to which b
 * binds windows; QP a reaches it only through the windows' keys.
 *
 * Type 1: ibv_bind_mw (the key becomes ibv_inc_rkey of the old one), RDMA
 * WRITE and READ through it with the data checked byte for byte, accesses
 * past the window's end or beyond its rights refused, a rebind that makes
 * the old key useless, an unbind (length 0).  Type 2: IBV_WR_BIND_MW with
 * ibv_inc_rkey, the key refused on any QP but the one that bound it,
 * LOCAL_INV, SEND_WITH_INV from the peer (the receive completion says
 * IBV_WC_WITH_INV and names the key), ibv_dealloc_mw of a bound window.
 * ibv_dereg_mr of an MR with a bound window is EBUSY until the window
 * goes; binds the device refuses complete with IBV_WC_MW_BIND_ERR.
 *
 * Each refused access leaves the memory as it was (the whole buffer is
 * compared with what it should hold) and both QPs in the error state:
 * the case after it gets a fresh pair.  A device with no memory windows
 * (max_mw 0) skips every case.  TAP on stdout, tap_done()'s status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wvt.h"
#include "tap.h"

#define MW_WAIT_MS	20000
#define TB_LEN		(64u << 10)	/* the target buffer and its MR */
#define LB_LEN		(64u << 10)	/* the local buffer: SGEs, receives */
#define NB_LEN		8192u		/* the MR without MW_BIND */
#define W1_OFF		(8192u + 3u)	/* the type 1 window in the MR */
#define W1_LEN		(16384u + 13u)
#define W2_OFF		(32768u + 1u)	/* the type 2 window */
#define W2_LEN		16384u
#define L_OFF		64u		/* where in lbuf transfers go */
#define L_RECV		(48u << 10)	/* where in lbuf receives land */
#define RW		(IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ)

struct mwt {
	struct dev *d;
	struct conn a, b;	/* a: requester; b: binds, responds */
	bool up;		/* a and b connected, neither in error */
	uint8_t *t, *expect;	/* target buffer; what it must hold */
	uint8_t *l, *nb;
	struct ibv_mr *tmr, *lmr, *nmr;
	struct ibv_mw *mw1, *mw2;
	uint32_t key1_old;	/* type 1: the key before the last rebind */
	uint32_t key2;		/* type 2: the key of its last bind */
	size_t xfer;		/* bytes a transfer moves: a few packets */
	uint32_t seed;
	char why[WVT_WHY];
};

/* A case failed, and why (why.c). */
#define fail(s, ...) why_set((s)->why, __VA_ARGS__)

/* Two RC QPs of this NIC connected to each other. */
static bool pair_make(struct mwt *s, struct conn *a, struct conn *b)
{
	if (conn_create(s->d, a, IBV_QPT_RC, 0, 16) ||
	    conn_create(s->d, b, IBV_QPT_RC, 0, 16) ||
	    conn_connect(s->d, a, b->qp->qp_num, b->psn, &s->d->gid) ||
	    conn_connect(s->d, b, a->qp->qp_num, a->psn, &s->d->gid))
		return fail(s, "a loopback RC pair: %s", strerror(errno));
	return true;
}

/* The pair, made afresh after an error took both QPs down. */
static bool pair_ready(struct mwt *s)
{
	if (s->up)
		return true;
	conn_destroy(&s->a);
	conn_destroy(&s->b);
	if (!pair_make(s, &s->a, &s->b))
		return false;
	s->up = true;
	return true;
}

/* The next completion of @cq: status @want and, on success, opcode @op. */
static bool wait_wc(struct mwt *s, struct ibv_cq *cq, enum ibv_wc_status want,
		    enum ibv_wc_opcode op, struct ibv_wc *wc, const char *what)
{
	if (poll_one(cq, wc, MW_WAIT_MS))
		return fail(s, "%s: no completion within %d ms", what, MW_WAIT_MS);
	if (wc->status != want)
		return fail(s, "%s: completion %s (vendor error 0x%x), want %s",
			    what, ibv_wc_status_str(wc->status), wc->vendor_err,
			    ibv_wc_status_str(want));
	if (want == IBV_WC_SUCCESS && wc->opcode != op)
		return fail(s, "%s: completion opcode %d, want %d", what,
			    wc->opcode, op);
	return true;
}

/*
 * The whole target buffer holds what it should.  A difference is reported
 * once: what the buffer holds then is what later cases start from.
 */
static bool target_intact(struct mwt *s)
{
	for (size_t i = 0; i < TB_LEN; i++)
		if (s->t[i] != s->expect[i]) {
			fail(s, "target byte %zu is 0x%02x, want 0x%02x", i,
			     s->t[i], s->expect[i]);
			memcpy(s->expect, s->t, TB_LEN);
			return false;
		}
	return true;
}

/*
 * One RDMA WRITE or READ from QP a of @len bytes at target offset @toff
 * through @rkey, completing with @want; then the memory on both sides.
 * An error leaves both QPs in the error state.
 */
static bool xfer_on(struct mwt *s, struct conn *c, bool read, uint32_t rkey,
		    size_t toff, size_t len, enum ibv_wc_status want)
{
	struct ibv_sge sg = { .addr = (uintptr_t)(s->l + L_OFF),
			      .length = (uint32_t)len, .lkey = s->lmr->lkey };
	struct ibv_send_wr wr = { .wr_id = 1, .sg_list = &sg, .num_sge = 1,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	uint32_t seed = ++s->seed;
	struct ibv_wc wc = { 0 };
	bool ok;
	int ret;

	wr.opcode = read ? IBV_WR_RDMA_READ : IBV_WR_RDMA_WRITE;
	wr.wr.rdma.remote_addr = (uintptr_t)(s->t + toff);
	wr.wr.rdma.rkey = rkey;
	if (read)
		memset(s->l + L_OFF, 0, len);
	else
		pat_fill(s->l + L_OFF, len, seed, 0);
	ret = ibv_post_send(c->qp, &wr, &bad);
	if (ret)
		return fail(s, "ibv_post_send: %s", strerror(ret));
	ok = wait_wc(s, c->scq, want,
		     read ? IBV_WC_RDMA_READ : IBV_WC_RDMA_WRITE, &wc,
		     read ? "RDMA READ" : "RDMA WRITE");
	/* An error (or a missing completion): the pair is made afresh. */
	if ((!ok || wc.status != IBV_WC_SUCCESS) && c == &s->a)
		s->up = false;
	if (!ok)
		return false;
	if (want == IBV_WC_SUCCESS && !read)
		memcpy(s->expect + toff, s->l + L_OFF, len);
	if (want == IBV_WC_SUCCESS && read &&
	    memcmp(s->l + L_OFF, s->t + toff, len))
		return fail(s, "the READ's data differ from the target's");
	/* Nothing may land in a refused READ's buffer: it was 0. */
	for (size_t i = 0; want != IBV_WC_SUCCESS && read && i < len; i++)
		if (s->l[L_OFF + i])
			return fail(s, "a refused READ wrote local byte %zu", i);
	return target_intact(s);
}

static bool xfer(struct mwt *s, bool read, uint32_t rkey, size_t toff,
		 size_t len, enum ibv_wc_status want)
{
	if (!pair_ready(s))
		return false;
	return xfer_on(s, &s->a, read, rkey, toff, len, want);
}

/* Type 1: ibv_bind_mw on QP b, completing with @want. */
static bool bind1(struct mwt *s, struct ibv_mw *mw, struct ibv_mr *mr,
		  size_t off, size_t len, unsigned int access,
		  enum ibv_wc_status want)
{
	struct ibv_mw_bind mb = {
		.wr_id = 0x1b, .send_flags = IBV_SEND_SIGNALED,
		.bind_info = { .mr = mr, .mw_access_flags = access,
			       .addr = mr ? (uintptr_t)mr->addr + off : 0,
			       .length = len },
	};
	uint32_t old = mw->rkey;
	struct ibv_wc wc = { 0 };
	bool ok;
	int ret;

	if (!pair_ready(s))
		return false;
	ret = ibv_bind_mw(s->b.qp, mw, &mb);
	if (ret)
		return fail(s, "ibv_bind_mw: %s", strerror(ret));
	if (mw->rkey != ibv_inc_rkey(old))
		return fail(s, "mw->rkey 0x%x after ibv_bind_mw, want 0x%x",
			    mw->rkey, ibv_inc_rkey(old));
	s->key1_old = old;
	/* A failed bind takes QP b to the error state. */
	ok = wait_wc(s, s->b.scq, want, IBV_WC_BIND_MW, &wc, "bind");
	if (!ok || wc.status != IBV_WC_SUCCESS)
		s->up = false;
	if (!ok)
		return false;
	if (wc.wr_id != 0x1b)
		return fail(s, "bind completion wr_id 0x%llx, want 0x1b",
			    (unsigned long long)wc.wr_id);
	return true;
}

/* Type 2: IBV_WR_BIND_MW on QP b with the key @key, completing with @want. */
static bool bind2(struct mwt *s, struct ibv_mw *mw, uint32_t key,
		  struct ibv_mr *mr, size_t off, size_t len,
		  unsigned int access, enum ibv_wc_status want)
{
	struct ibv_send_wr wr = { .wr_id = 0x2b, .opcode = IBV_WR_BIND_MW,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct ibv_wc wc = { 0 };
	bool ok;
	int ret;

	if (!pair_ready(s))
		return false;
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = key;
	wr.bind_mw.bind_info = (struct ibv_mw_bind_info){
		.mr = mr, .addr = (uintptr_t)mr->addr + off, .length = len,
		.mw_access_flags = access,
	};
	ret = ibv_post_send(s->b.qp, &wr, &bad);
	if (ret)
		return fail(s, "ibv_post_send(IBV_WR_BIND_MW): %s", strerror(ret));
	ok = wait_wc(s, s->b.scq, want, IBV_WC_BIND_MW, &wc, "IBV_WR_BIND_MW");
	if (!ok || wc.status != IBV_WC_SUCCESS)
		s->up = false;
	return ok;
}

/* A WRITE of a few packets inside a window. */
static bool write_in(struct mwt *s, uint32_t key, size_t woff)
{
	return xfer(s, false, key, woff + 5, s->xfer, IBV_WC_SUCCESS);
}

static bool write_refused(struct mwt *s, uint32_t key, size_t woff)
{
	return xfer(s, false, key, woff + 5, s->xfer, IBV_WC_REM_ACCESS_ERR);
}

/* ------------------------------------------------------------- cases */

static bool c_reg(struct mwt *s)
{
	s->tmr = ibv_reg_mr(s->d->pd[0], s->t, TB_LEN,
			    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND);
	if (!s->tmr)
		return fail(s, "ibv_reg_mr(LOCAL_WRITE | MW_BIND): %s",
			    strerror(errno));
	return true;
}

static bool c_alloc(struct mwt *s)
{
	s->mw1 = ibv_alloc_mw(s->d->pd[0], IBV_MW_TYPE_1);
	if (!s->mw1)
		return fail(s, "ibv_alloc_mw(IBV_MW_TYPE_1): %s", strerror(errno));
	s->mw2 = ibv_alloc_mw(s->d->pd[0], IBV_MW_TYPE_2);
	if (!s->mw2)
		return fail(s, "ibv_alloc_mw(IBV_MW_TYPE_2): %s", strerror(errno));
	if (s->mw1->type != IBV_MW_TYPE_1 || s->mw2->type != IBV_MW_TYPE_2 ||
	    s->mw1->pd != s->d->pd[0])
		return fail(s, "the windows' type or PD is not what was asked");
	if ((s->mw1->rkey >> 8) == (s->mw2->rkey >> 8) ||
	    (s->tmr && ((s->mw1->rkey >> 8) == (s->tmr->rkey >> 8) ||
			(s->mw2->rkey >> 8) == (s->tmr->rkey >> 8))))
		return fail(s, "keys share an index: type 1 0x%x, type 2 0x%x, MR 0x%x",
			    s->mw1->rkey, s->mw2->rkey,
			    s->tmr ? s->tmr->rkey : 0);
	if (!(s->d->attr.device_cap_flags & IBV_DEVICE_MEM_WINDOW) ||
	    !(s->d->attr.device_cap_flags & IBV_DEVICE_MEM_WINDOW_TYPE_2B))
		return fail(s, "device_cap_flags 0x%x lack IBV_DEVICE_MEM_WINDOW or _TYPE_2B",
			    s->d->attr.device_cap_flags);
	return true;
}

static bool need(struct mwt *s, bool mw1, bool mw2)
{
	if (!s->tmr || (mw1 && !s->mw1) || (mw2 && !s->mw2))
		return fail(s, "no MR or window (an earlier case failed)");
	return true;
}

static bool c_bind1(struct mwt *s)
{
	return need(s, true, false) &&
	       bind1(s, s->mw1, s->tmr, W1_OFF, W1_LEN, RW, IBV_WC_SUCCESS);
}

static bool c_write1(struct mwt *s)
{
	return need(s, true, false) && write_in(s, s->mw1->rkey, W1_OFF);
}

static bool c_read1(struct mwt *s)
{
	return need(s, true, false) &&
	       xfer(s, true, s->mw1->rkey, W1_OFF + 5, s->xfer, IBV_WC_SUCCESS);
}

static bool c_past_end(struct mwt *s)
{
	return need(s, true, false) &&
	       xfer(s, false, s->mw1->rkey, W1_OFF + W1_LEN - 32, 64,
		    IBV_WC_REM_ACCESS_ERR);
}

static bool c_mr_key(struct mwt *s)
{
	return need(s, false, false) &&
	       xfer(s, false, s->tmr->rkey, W1_OFF + 5, 64,
		    IBV_WC_REM_ACCESS_ERR);
}

static bool c_rebind(struct mwt *s)
{
	return need(s, true, false) &&
	       bind1(s, s->mw1, s->tmr, W1_OFF, W1_LEN,
		     IBV_ACCESS_REMOTE_READ, IBV_WC_SUCCESS) &&
	       (s->mw1->rkey != s->key1_old ||
		fail(s, "the key did not change"));
}

static bool c_old_key(struct mwt *s)
{
	return need(s, true, false) &&
	       xfer(s, true, s->mw1->rkey, W1_OFF + 5, s->xfer,
		    IBV_WC_SUCCESS) &&
	       xfer(s, true, s->key1_old, W1_OFF + 5, s->xfer,
		    IBV_WC_REM_ACCESS_ERR);
}

static bool c_no_write(struct mwt *s)
{
	return need(s, true, false) && write_refused(s, s->mw1->rkey, W1_OFF);
}

static bool c_dereg_busy(struct mwt *s)
{
	int ret;

	if (!need(s, true, false))
		return false;
	errno = 0;
	ret = ibv_dereg_mr(s->tmr);
	if (!ret) {
		s->tmr = NULL;
		return fail(s, "ibv_dereg_mr of an MR with a bound window succeeded");
	}
	if (ret != EBUSY && errno != EBUSY)
		return fail(s, "ibv_dereg_mr: %d (%s), want EBUSY", ret,
			    strerror(ret));
	return xfer(s, true, s->mw1->rkey, W1_OFF + 5, s->xfer,
		    IBV_WC_SUCCESS);
}

static bool c_unbind(struct mwt *s)
{
	if (!need(s, true, false) ||
	    !bind1(s, s->mw1, NULL, 0, 0, 0, IBV_WC_SUCCESS))
		return false;
	return xfer(s, true, s->mw1->rkey, W1_OFF + 5, 64,
		    IBV_WC_REM_ACCESS_ERR) &&
	       xfer(s, true, s->key1_old, W1_OFF + 5, 64,
		    IBV_WC_REM_ACCESS_ERR);
}

static bool c_bind2(struct mwt *s)
{
	if (!need(s, false, true))
		return false;
	s->key2 = ibv_inc_rkey(s->mw2->rkey);
	return bind2(s, s->mw2, s->key2, s->tmr, W2_OFF, W2_LEN, RW,
		     IBV_WC_SUCCESS) &&
	       write_in(s, s->key2, W2_OFF);
}

static bool c_other_qp(struct mwt *s)
{
	struct conn c = { 0 }, d = { 0 };
	bool ok;

	if (!need(s, false, true) || !s->up)
		return fail(s, "no bound type 2 window (an earlier case failed)");
	/* c, d: a second pair, in the same PD. */
	ok = pair_make(s, &c, &d) &&
	     xfer_on(s, &c, false, s->key2, W2_OFF + 5, s->xfer,
		     IBV_WC_REM_ACCESS_ERR);
	conn_destroy(&c);
	conn_destroy(&d);
	/* Still good where it was bound. */
	return ok && s->up && write_in(s, s->key2, W2_OFF);
}

static bool c_local_inv(struct mwt *s)
{
	struct ibv_send_wr wr = { .wr_id = 0x11, .opcode = IBV_WR_LOCAL_INV,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct ibv_wc wc;
	int ret;

	if (!need(s, false, true) || !pair_ready(s))
		return false;
	wr.invalidate_rkey = s->key2;
	ret = ibv_post_send(s->b.qp, &wr, &bad);
	if (ret)
		return fail(s, "ibv_post_send(IBV_WR_LOCAL_INV): %s", strerror(ret));
	if (!wait_wc(s, s->b.scq, IBV_WC_SUCCESS, IBV_WC_LOCAL_INV, &wc,
		     "LOCAL_INV")) {
		s->up = false;
		return false;
	}
	return write_refused(s, s->key2, W2_OFF);
}

static bool c_rebind2(struct mwt *s)
{
	if (!need(s, false, true))
		return false;
	s->key2 = ibv_inc_rkey(s->key2);
	return bind2(s, s->mw2, s->key2, s->tmr, W2_OFF, W2_LEN, RW,
		     IBV_WC_SUCCESS) &&
	       write_in(s, s->key2, W2_OFF);
}

static bool c_send_inv(struct mwt *s)
{
	struct ibv_sge ssg = { .addr = (uintptr_t)(s->l + L_OFF), .length = 16,
			       .lkey = s->lmr->lkey };
	struct ibv_sge rsg = { .addr = (uintptr_t)(s->l + L_RECV), .length = 64,
			       .lkey = s->lmr->lkey };
	struct ibv_send_wr wr = { .wr_id = 0x51, .sg_list = &ssg, .num_sge = 1,
				  .opcode = IBV_WR_SEND_WITH_INV,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct ibv_recv_wr rwr = { .wr_id = 0x52, .sg_list = &rsg,
				   .num_sge = 1 }, *rbad;
	struct ibv_wc wc;
	int ret;

	/* The window c_rebind2() bound: a SEND_INV that QP b receives
	 * unbinds it. */
	if (!need(s, false, true) || !s->up)
		return fail(s, "no bound type 2 window (an earlier case failed)");
	ret = ibv_post_recv(s->b.qp, &rwr, &rbad);
	if (ret)
		return fail(s, "ibv_post_recv: %s", strerror(ret));
	wr.invalidate_rkey = s->key2;
	pat_fill(s->l + L_OFF, 16, ++s->seed, 0);
	ret = ibv_post_send(s->a.qp, &wr, &bad);
	if (ret)
		return fail(s, "ibv_post_send(IBV_WR_SEND_WITH_INV): %s",
			    strerror(ret));
	if (!wait_wc(s, s->a.scq, IBV_WC_SUCCESS, IBV_WC_SEND, &wc,
		     "SEND_WITH_INV") ||
	    !wait_wc(s, s->b.rcq, IBV_WC_SUCCESS, IBV_WC_RECV, &wc,
		     "its receive")) {
		s->up = false;
		return false;
	}
	if (!(wc.wc_flags & IBV_WC_WITH_INV) || wc.invalidated_rkey != s->key2)
		return fail(s, "receive completion: wc_flags 0x%x, invalidated_rkey 0x%x; want IBV_WC_WITH_INV and 0x%x",
			    wc.wc_flags, wc.invalidated_rkey, s->key2);
	if (wc.byte_len != 16 || memcmp(s->l + L_RECV, s->l + L_OFF, 16))
		return fail(s, "the SEND's 16 bytes did not arrive (byte_len %u)",
			    wc.byte_len);
	return write_refused(s, s->key2, W2_OFF);
}

static bool c_dealloc2(struct mwt *s)
{
	int ret;

	if (!need(s, false, true) || !c_rebind2(s))
		return false;
	ret = ibv_dealloc_mw(s->mw2);
	if (ret)
		return fail(s, "ibv_dealloc_mw of a bound type 2 window: %s",
			    strerror(ret));
	s->mw2 = NULL;
	return write_refused(s, s->key2, W2_OFF);
}

static bool c_no_bind_right(struct mwt *s)
{
	struct ibv_mw *mw;
	bool ok;

	if (!s->nmr)
		return fail(s, "no MR without MW_BIND: %s", strerror(errno));
	mw = ibv_alloc_mw(s->d->pd[0], IBV_MW_TYPE_1);
	if (!mw)
		return fail(s, "ibv_alloc_mw: %s", strerror(errno));
	ok = bind1(s, mw, s->nmr, 0, 4096, RW, IBV_WC_MW_BIND_ERR);
	if (ibv_dealloc_mw(mw) && ok)
		ok = fail(s, "ibv_dealloc_mw of the window: %s", strerror(errno));
	return ok;
}

static bool c_past_mr(struct mwt *s)
{
	struct ibv_mw *mw;
	bool ok;

	if (!need(s, false, false))
		return false;
	mw = ibv_alloc_mw(s->d->pd[0], IBV_MW_TYPE_1);
	if (!mw)
		return fail(s, "ibv_alloc_mw: %s", strerror(errno));
	ok = bind1(s, mw, s->tmr, TB_LEN - 4096, 8192, RW,
		   IBV_WC_MW_BIND_ERR);
	if (ibv_dealloc_mw(mw) && ok)
		ok = fail(s, "ibv_dealloc_mw of the window: %s", strerror(errno));
	return ok;
}

static bool c_dereg_after(struct mwt *s)
{
	int ret;

	if (!need(s, true, false) ||
	    !bind1(s, s->mw1, s->tmr, W1_OFF, W1_LEN, IBV_ACCESS_REMOTE_READ,
		   IBV_WC_SUCCESS))
		return false;
	ret = ibv_dealloc_mw(s->mw1);
	if (ret)
		return fail(s, "ibv_dealloc_mw of the bound type 1 window: %s",
			    strerror(ret));
	s->mw1 = NULL;
	ret = ibv_dereg_mr(s->tmr);
	if (ret)
		return fail(s, "ibv_dereg_mr after the window went: %s",
			    strerror(ret));
	s->tmr = NULL;
	return true;
}

static const struct {
	bool (*run)(struct mwt *s);
	const char *what;
} cases[] = {
	{ c_reg, "mw: ibv_reg_mr with IBV_ACCESS_MW_BIND (no remote rights)" },
	{ c_alloc, "mw: ibv_alloc_mw of type 1 and type 2, keys of their own; the device says IBV_DEVICE_MEM_WINDOW and _TYPE_2B" },
	{ c_bind1, "mw type 1: ibv_bind_mw completes IBV_WC_BIND_MW, mw->rkey becomes ibv_inc_rkey of the old key" },
	{ c_write1, "mw type 1: RDMA WRITE through the window's key completes, data identical, nothing else changed" },
	{ c_read1, "mw type 1: RDMA READ through the window's key completes, data identical" },
	{ c_past_end, "mw type 1: a WRITE running past the window's end: IBV_WC_REM_ACCESS_ERR, memory unchanged" },
	{ c_mr_key, "mw: the MR's own rkey (no remote rights): IBV_WC_REM_ACCESS_ERR" },
	{ c_rebind, "mw type 1: rebind with REMOTE_READ only completes, the key changes again" },
	{ c_old_key, "mw type 1: READ with the new key completes, data identical; with the old key: IBV_WC_REM_ACCESS_ERR" },
	{ c_no_write, "mw type 1: WRITE through a window without REMOTE_WRITE: IBV_WC_REM_ACCESS_ERR, memory unchanged" },
	{ c_dereg_busy, "mw: ibv_dereg_mr of an MR with a bound window fails with EBUSY; the window still works" },
	{ c_unbind, "mw type 1: unbind (length 0) completes; its key and the one before: IBV_WC_REM_ACCESS_ERR" },
	{ c_bind2, "mw type 2: IBV_WR_BIND_MW with ibv_inc_rkey completes IBV_WC_BIND_MW; a WRITE through the key completes, data identical" },
	{ c_other_qp, "mw type 2: the key on a QP pair other than the one it was bound on: IBV_WC_REM_ACCESS_ERR; still good on its own" },
	{ c_local_inv, "mw type 2: LOCAL_INV of the key completes IBV_WC_LOCAL_INV; a WRITE through it then: IBV_WC_REM_ACCESS_ERR" },
	{ c_rebind2, "mw type 2: bound again with the next key; a WRITE completes, data identical" },
	{ c_send_inv, "mw type 2: SEND_WITH_INV from the peer: the receive has IBV_WC_WITH_INV and the key; a WRITE through it then: IBV_WC_REM_ACCESS_ERR" },
	{ c_dealloc2, "mw type 2: bound again, ibv_dealloc_mw of the bound window succeeds; a WRITE through its key then: IBV_WC_REM_ACCESS_ERR" },
	{ c_no_bind_right, "mw: a bind to an MR without IBV_ACCESS_MW_BIND completes IBV_WC_MW_BIND_ERR" },
	{ c_past_mr, "mw: a bind of a range past the MR's end completes IBV_WC_MW_BIND_ERR" },
	{ c_dereg_after, "mw: a bound type 1 window deallocated, ibv_dereg_mr of its MR succeeds" },
};

#define N_CASES	(sizeof(cases) / sizeof(cases[0]))

int mw_run(struct dev *d)
{
	struct mwt s = { .d = d, .seed = 0x3a00 };
	size_t i;

	tap_plan(N_CASES);
	if (!d->attr.max_mw) {
		for (i = 0; i < N_CASES; i++)
			tap_skipped("the device has no memory windows (max_mw 0)",
				    "%s", cases[i].what);
		return tap_done();
	}
	tap_diag("mw: max_mw %d, device_cap_flags 0x%x", d->attr.max_mw,
		 d->attr.device_cap_flags);
	s.xfer = 3 * (size_t)d->mtu + 5;
	if (s.xfer > W2_LEN - 16)
		s.xfer = W2_LEN - 16;
	s.t = aligned_alloc(4096, TB_LEN);
	s.expect = malloc(TB_LEN);
	s.l = aligned_alloc(4096, LB_LEN);
	s.nb = aligned_alloc(4096, NB_LEN);
	if (!s.t || !s.expect || !s.l || !s.nb) {
		tap_diag("mw: out of memory");
		return 1;
	}
	pat_fill(s.t, TB_LEN, 0x3a, 0);
	memcpy(s.expect, s.t, TB_LEN);
	memset(s.l, 0, LB_LEN);
	s.lmr = ibv_reg_mr(d->pd[0], s.l, LB_LEN, IBV_ACCESS_LOCAL_WRITE);
	s.nmr = ibv_reg_mr(d->pd[0], s.nb, NB_LEN, IBV_ACCESS_LOCAL_WRITE |
			   IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	if (!s.lmr)
		tap_diag("mw: ibv_reg_mr of the local buffer: %s", strerror(errno));
	for (i = 0; i < N_CASES; i++)
		why_report(s.why, s.lmr && cases[i].run(&s), cases[i].what);

	conn_destroy(&s.a);
	conn_destroy(&s.b);
	if (s.mw1)
		ibv_dealloc_mw(s.mw1);
	if (s.mw2)
		ibv_dealloc_mw(s.mw2);
	if (s.tmr)
		ibv_dereg_mr(s.tmr);
	if (s.nmr)
		ibv_dereg_mr(s.nmr);
	if (s.lmr)
		ibv_dereg_mr(s.lmr);
	free(s.t);
	free(s.expect);
	free(s.l);
	free(s.nb);
	return tap_done();
}
