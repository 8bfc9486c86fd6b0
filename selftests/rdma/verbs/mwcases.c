// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory windows across the wire: the target binds windows on its memory
 * (an MR registered with every right and IBV_ACCESS_MW_BIND, slot S_MW)
 * and this side reaches that memory through the windows' keys only.
 *
 * Type 2 windows are bound with IBV_WR_BIND_MW on the target's RC QP (its
 * QP 0, the peer of in->rc): WRITE and READ through the key work, data
 * byte for byte; a WRITE one byte past the window's end, a READ through a
 * write-only window, the key over another QP pair of the same target PD,
 * the key after the target's LOCAL_INV, the old key after a rebind and
 * the key after our SEND_WITH_INV named it are all IBV_WC_REM_ACCESS_ERR
 * with the target's memory as it was.  Type 1 windows (ibv_bind_mw): WRITE
 * and READ work, a rebind changes the key and the old one is refused, and
 * so is the key of a window deallocated while bound.  ibv_dereg_mr of an
 * MR with a bound window fails on the target (EBUSY on Wren) and leaves
 * the MR and the window working.
 *
 * Every refused access takes the RC pair down: the next case makes a new
 * one (a type 2 window bound to the old target QP is deallocated first,
 * see target.c).  A target without windows answers REFUSED, and the cases
 * are skipped; there are N_MW of them either way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cases.h"

#define WREN_VENDOR_ID	0x1f57		/* as rereg.c: the Wren NIC's PCI vendor */
#define MW_LEN		(64u << 10)	/* S_MW's MR */
#define MW_MOFF		(4096u + 9u)	/* the MR starts mid-page */
#define W2_OFF		(8192u + 3u)	/* type 2 windows, in the MR */
#define W2_LEN		(16384u + 5u)
#define W1_OFF		(32768u + 1u)	/* type 1 windows */
#define W1_LEN		(16384u + 7u)
#define MW_RW		(IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ)

/* What this side knows of the target's window (target.c keeps one). */
static struct {
	bool ready;		/* S_MW is registered */
	bool wren;		/* the target is a Wren NIC */
	int type;		/* 0: the target has no window */
	bool bound;		/* type 2: to the target's QP 0, in->rc's peer */
	unsigned int access;
	uint32_t key;		/* its key at the last bind */
	size_t xfer;		/* bytes a transfer moves: a few packets */
	char skip[256];		/* why a REFUSED case is skipped */
} w;

static bool mw_free(struct ini *in)
{
	w.type = 0;
	w.bound = false;
	return call(in, in->p, NULL, 0, "MWFREE");
}

/* The RC pair with the target's QP 0, made afresh if it went down; a
 * type 2 window bound to the old target QP goes first. */
static bool mw_pair(struct ini *in)
{
	if (in->rc_up)
		return true;
	if (w.type == 2 && w.bound && !mw_free(in))
		return false;
	in->rc_up = pair_pd(in, in->p, &in->rc, 0, IBV_QPT_RC, &in->tgid, 0);
	return in->rc_up;
}

/*
 * The target binds a window of @type to [@off, @off + @len) of S_MW with
 * @access on its QP 0 (a type 1 window it has is rebound, a type 2 one
 * must be unbound): 1, 0 (failed, why in in->why) or -1 (refused, why in
 * w.skip).
 */
static int mw_bind(struct ini *in, int type, size_t off, size_t len,
		   unsigned int access)
{
	unsigned int key;
	char r[512];

	if (!w.ready)
		return fail(in, "no S_MW (the setup case failed)");
	if (w.type && w.type != type && !mw_free(in))
		return 0;
	if (!mw_pair(in))
		return 0;
	if (ctl_call(in->p, r, sizeof(r), "MW %d %d 0 %zu %zu %u", S_MW, type,
		     off, len, access))
		return fail(in, "target: MW: no answer");
	if (!strncmp(r, "REFUSED", 7)) {
		snprintf(w.skip, sizeof(w.skip), "the target: %.200s", r + 8);
		return -1;
	}
	if (sscanf(r, "OK %u", &key) != 1) {
		fail(in, "target: MW %d %d 0 %zu %zu %u -> %s", S_MW, type, off,
		     len, access, r);
		/* A failed bind takes the target's QP down; start afresh. */
		in->rc_up = false;
		mw_free(in);
		return 0;
	}
	w.type = type;
	w.bound = true;
	w.access = access;
	w.key = key;
	return 1;
}

/* The target's LOCAL_INV of the bound type 2 window's key on its QP 0;
 * a failure leaves that QP in doubt: start afresh. */
static bool mw_inv(struct ini *in)
{
	if (call(in, in->p, NULL, 0, "MWINV 0")) {
		w.bound = false;
		return true;
	}
	in->rc_up = false;
	mw_free(in);
	return false;
}

/* A type 2 window bound with @access on the live pair: kept if there is
 * one, else bound afresh. */
static int w2_ready(struct ini *in, unsigned int access)
{
	if (in->rc_up && w.type == 2 && w.bound && w.access == access)
		return 1;
	if (w.type == 2 && w.bound && !mw_free(in))
		return 0;
	return mw_bind(in, 2, W2_OFF, W2_LEN, access);
}

/* A bound type 1 window: kept if there is one, else bound afresh. */
static int w1_ready(struct ini *in)
{
	if (w.type == 1 && w.bound)
		return mw_pair(in) ? 1 : 0;
	return mw_bind(in, 1, W1_OFF, W1_LEN, MW_RW);
}

/*
 * One RDMA WRITE or READ of @len bytes at S_MW's offset @roff through
 * @key over @cn (in->rc or another pair), completing with @want; then the
 * target's memory (the data written, or unchanged) and ours.  Anything but
 * a success takes in->rc down.
 */
static bool mw_xfer(struct ini *in, struct conn *cn, bool read, uint32_t key,
		    size_t roff, size_t len, enum ibv_wc_status want,
		    uint32_t seed)
{
	bool ok;

	if (cn == &in->rc && !mw_pair(in))
		return false;
	ok = slot_xfer(in, cn, S_MW, read, key, roff, len, want, seed);
	if ((!ok || want != IBV_WC_SUCCESS) && cn == &in->rc)
		in->rc_up = false;
	return ok;
}

static int res(bool ok)
{
	return ok ? 1 : 0;
}

/* ------------------------------------------------------------- cases */

static int c_setup(struct ini *in)
{
	w.ready = tmr(in, in->p, S_MW, &in->s[S_MW], MW_LEN, MW_MOFF,
		      ALL_ACCESS | IBV_ACCESS_MW_BIND, 0);
	return res(w.ready);
}

static int c_t2_write(struct ini *in)
{
	int r = w2_ready(in, MW_RW);

	if (r <= 0)
		return r;
	return res(mw_xfer(in, &in->rc, false, w.key, W2_OFF + 5, w.xfer,
			   IBV_WC_SUCCESS, 0x6001));
}

static int c_t2_read(struct ini *in)
{
	int r = w2_ready(in, MW_RW);

	if (r <= 0)
		return r;
	return res(mw_xfer(in, &in->rc, true, w.key, W2_OFF + 7, w.xfer,
			   IBV_WC_SUCCESS, 0));
}

/*
 * Its last byte is the first past the window, its first packets are in
 * bounds: the whole WRITE is refused.  rdma_rxe (6.1) checks an access
 * through a window against the range of the window's MR only
 * (check_rkey() in rxe_resp.c calls mr_check_range(mw->mr, ...)), so an
 * rxe target takes this WRITE, and the target's CHECK sees the bytes
 * inside the MR change: expected to fail with rxe as the target.
 */
static int c_t2_past_end(struct ini *in)
{
	int r = w2_ready(in, MW_RW);

	if (r <= 0)
		return r;
	return res(mw_xfer(in, &in->rc, false, w.key,
			   W2_OFF + W2_LEN - w.xfer + 1, w.xfer,
			   IBV_WC_REM_ACCESS_ERR, 0x6003));
}

static int c_t2_write_only(struct ini *in)
{
	int r = w2_ready(in, IBV_ACCESS_REMOTE_WRITE);

	if (r <= 0)
		return r;
	return res(mw_xfer(in, &in->rc, true, w.key, W2_OFF + 5, w.xfer,
			   IBV_WC_REM_ACCESS_ERR, 0));
}

/* The target's QP 3, in the same PD as its QP 0, and ours to it. */
static int c_t2_other_qp(struct ini *in)
{
	struct conn o = { 0 };
	int r = w2_ready(in, MW_RW);
	bool ok;

	if (r <= 0)
		return r;
	ok = pair_pd(in, in->p, &o, 3, IBV_QPT_RC, &in->tgid, 0) &&
	     mw_xfer(in, &o, false, w.key, W2_OFF + 5, w.xfer,
		     IBV_WC_REM_ACCESS_ERR, 0x6005);
	conn_destroy(&o);
	ok = call(in, in->p, NULL, 0, "DESTROY 3") && ok;
	/* Where it was bound, it still works. */
	return res(ok && mw_xfer(in, &in->rc, false, w.key, W2_OFF + 9,
				 w.xfer, IBV_WC_SUCCESS, 0x6006));
}

static int c_t2_local_inv(struct ini *in)
{
	int r = w2_ready(in, MW_RW);

	if (r <= 0)
		return r;
	if (!mw_inv(in))
		return 0;
	return res(mw_xfer(in, &in->rc, false, w.key, W2_OFF + 5, w.xfer,
			   IBV_WC_REM_ACCESS_ERR, 0x6007));
}

/* Unbound by LOCAL_INV, bound again with the next key. */
static int c_t2_rebind(struct ini *in)
{
	int r = w2_ready(in, MW_RW);
	uint32_t old;
	bool ok;

	if (r <= 0)
		return r;
	old = w.key;
	if (!mw_inv(in))
		return 0;
	r = mw_bind(in, 2, W2_OFF, W2_LEN, MW_RW);
	if (r <= 0)
		return r;
	if (w.key == old)
		return fail(in, "the key stayed 0x%x", old);
	ok = mw_xfer(in, &in->rc, false, w.key, W2_OFF + 5, w.xfer,
		     IBV_WC_SUCCESS, 0x6008);
	return res(mw_xfer(in, &in->rc, false, old, W2_OFF + 5, w.xfer,
			   IBV_WC_REM_ACCESS_ERR, 0x6009) && ok);
}

/*
 * A SEND_WITH_INV of a few packets naming the key, into a receive on the
 * window's QP: its completion says IBV_WC_WITH_INV and the key, and the
 * window is unbound.  rdma_rxe (6.1) writes the kernel's
 * IB_WC_WITH_INVALIDATE (1 << 2) into a user CQ's wc_flags, which
 * libibverbs reads as IBV_WC_IP_CSUM_OK; IBV_WC_WITH_INV is 1 << 3.  So
 * an rxe target is expected to answer "wc_flags 0x5" (with IB_WC_GRH),
 * and the right invalidated_rkey.
 */
static int c_t2_send_inv(struct ini *in)
{
	struct ibv_sge sg[WVT_MAX_SGE];
	struct ibv_send_wr wr = { 0 };
	int r = w2_ready(in, MW_RW);
	uint32_t seed = 0x600a;
	struct layout l;
	bool ok;

	if (r <= 0)
		return r;
	layout_make(&l, w.xfer, in->sge < 2 ? in->sge : 2, 5, 1);
	pieces_fill(in, &l, seed);
	sges(in, &l, sg, 0);
	wr.opcode = IBV_WR_SEND_WITH_INV;
	wr.sg_list = sg;
	wr.num_sge = l.n;
	wr.invalidate_rkey = w.key;
	if (!call(in, in->p, NULL, 0, "RECV 0 %d 32 %zu %d", S_R, w.xfer + 7,
		  in->sge < 2 ? 1 : 2))
		return 0;
	ok = post_wait(in, &in->rc, &wr, IBV_WC_SUCCESS, IBV_WC_SEND);
	if (!ok) {
		in->rc_up = false;
		return 0;
	}
	w.bound = false;
	ok = call(in, in->p, NULL, 0, "WAITRECV 0 %zu %u inv:0x%x 0 %d", w.xfer,
		  seed, w.key, IBV_WC_RECV);
	ok = local_verify(in, &l, seed, 0) && ok;
	return res(mw_xfer(in, &in->rc, false, w.key, W2_OFF + 5, w.xfer,
			   IBV_WC_REM_ACCESS_ERR, 0x600b) && ok);
}

static int c_t1_write_read(struct ini *in)
{
	int r = mw_bind(in, 1, W1_OFF, W1_LEN, MW_RW);

	if (r <= 0)
		return r;
	return res(mw_xfer(in, &in->rc, false, w.key, W1_OFF + 3, w.xfer,
			   IBV_WC_SUCCESS, 0x6101) &&
		   mw_xfer(in, &in->rc, true, w.key, W1_OFF + 6, w.xfer,
			   IBV_WC_SUCCESS, 0));
}

/* A bound type 1 window is bound again as it is. */
static int c_t1_rebind(struct ini *in)
{
	int r = w1_ready(in);
	uint32_t old;
	bool ok;

	if (r <= 0)
		return r;
	old = w.key;
	r = mw_bind(in, 1, W1_OFF, W1_LEN, MW_RW);
	if (r <= 0)
		return r;
	if (w.key == old)
		return fail(in, "the key stayed 0x%x", old);
	ok = mw_xfer(in, &in->rc, true, w.key, W1_OFF + 3, w.xfer,
		     IBV_WC_SUCCESS, 0);
	return res(mw_xfer(in, &in->rc, true, old, W1_OFF + 3, w.xfer,
			   IBV_WC_REM_ACCESS_ERR, 0) && ok);
}

static int c_t1_dealloc(struct ini *in)
{
	int r = w1_ready(in);

	if (r <= 0)
		return r;
	if (!mw_free(in))
		return 0;
	return res(mw_xfer(in, &in->rc, false, w.key, W1_OFF + 3, w.xfer,
			   IBV_WC_REM_ACCESS_ERR, 0x6103));
}

/* rdma_rxe (6.1) refuses it with EINVAL, Wren with EBUSY. */
static int c_dereg_busy(struct ini *in)
{
	int r = w2_ready(in, MW_RW), ret, err;
	char a[160];
	bool ok;

	if (r <= 0)
		return r;
	if (!call(in, in->p, a, sizeof(a), "MWDEREG %d", S_MW))
		return 0;
	if (sscanf(a, "OK %d %d", &ret, &err) != 2)
		return fail(in, "bad MWDEREG answer %s", a);
	ok = !w.wren || ret == EBUSY || (ret < 0 && err == EBUSY) ||
	     fail(in, "ibv_dereg_mr on the Wren target: %s, want EBUSY", a + 3);
	ok = mw_xfer(in, &in->rc, false, w.key, W2_OFF + 5, w.xfer,
		     IBV_WC_SUCCESS, 0x6201) && ok;
	return res(mw_free(in) && ok);
}

void mw_cases(struct ini *in)
{
	static const struct {
		int (*run)(struct ini *in);
		const char *what;
	} c[N_MW] = {
		{ c_setup, "mw: the target registers an MR with every right and IBV_ACCESS_MW_BIND" },
		{ c_t2_write, "mw type 2: the target binds a window (IBV_WR_BIND_MW) on its RC QP; WRITE through its key completes, data identical, nothing else changed" },
		{ c_t2_read, "mw type 2: READ through the window's key completes, data identical" },
		{ c_t2_past_end, "mw type 2: WRITE of a few packets whose last byte is one past the window: REM_ACCESS_ERR, target unchanged" },
		{ c_t2_write_only, "mw type 2: READ through a window bound with REMOTE_WRITE only: REM_ACCESS_ERR, local buffer unchanged" },
		{ c_t2_other_qp, "mw type 2: the key over another QP pair of the same target PD: REM_ACCESS_ERR, target unchanged; over its own QP a WRITE still completes" },
		{ c_t2_local_inv, "mw type 2: after the target's LOCAL_INV of the key, WRITE through it: REM_ACCESS_ERR, target unchanged" },
		{ c_t2_rebind, "mw type 2: bound again with a new key: WRITE with it completes, data identical; with the old key: REM_ACCESS_ERR" },
		{ c_t2_send_inv, "mw type 2: SEND_WITH_INV naming the key: the target's receive has IBV_WC_WITH_INV and the key, data identical; WRITE through it then: REM_ACCESS_ERR" },
		{ c_t1_write_read, "mw type 1: the target binds a window (ibv_bind_mw); WRITE and READ through its key complete, data identical" },
		{ c_t1_rebind, "mw type 1: bound again, the key changes; READ with the new key completes, with the old key: REM_ACCESS_ERR" },
		{ c_t1_dealloc, "mw type 1: ibv_dealloc_mw of the bound window; WRITE through its key then: REM_ACCESS_ERR, target unchanged" },
		{ c_dereg_busy, "mw: ibv_dereg_mr on the target of an MR with a bound window fails (EBUSY on Wren), the MR stays; WRITE through the window then completes, data identical" },
	};
	unsigned int max_mw = 0, vendor = 0;
	char r[256] = "";

	memset(&w, 0, sizeof(w));
	w.xfer = 3 * (size_t)in->mtu + 5;	/* several packets */
	if (w.xfer > W2_LEN - 16)
		w.xfer = W2_LEN - 16;
	if (ctl_call(in->p, r, sizeof(r), "MWCAP") ||
	    (strncmp(r, "REFUSED", 7) &&
	     sscanf(r, "OK %u %u", &max_mw, &vendor) != 2)) {
		snprintf(w.skip, sizeof(w.skip), "the target's MWCAP answered \"%.200s\"", r);
		for (int i = 0; i < N_MW; i++) {
			fail(in, "%s", w.skip);
			tap(in, false, "%s", c[i].what);
		}
		return;
	}
	if (!strncmp(r, "REFUSED", 7)) {
		snprintf(w.skip, sizeof(w.skip), "the target: %.200s", r + 8);
		for (int i = 0; i < N_MW; i++)
			tap_skip(in, c[i].what, w.skip);
		return;
	}
	w.wren = vendor == WREN_VENDOR_ID;
	printf("# target memory windows: max_mw %u, vendor 0x%x\n", max_mw, vendor);
	for (int i = 0; i < N_MW; i++) {
		int ok;

		w.skip[0] = 0;
		ok = c[i].run(in);
		if (ok < 0)
			tap_skip(in, c[i].what, w.skip);
		else
			tap(in, ok > 0, "%s", c[i].what);
	}
	/* Nothing of ours stays bound on the target. */
	if (w.type && !mw_free(in))
		in->why[0] = 0;
}
