// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_rereg_mr as the wire sees it: the target re-registers one MR (access
 * rights taken away and given back, moved to its other PD and back) while
 * this side goes on using the rkey it was given at registration.  A right
 * taken away must fail the access and leave the memory byte for byte as it
 * was; a right given back must work again.  The keys stay throughout.
 * Locally: a new address range moves the MR there (Wren; a device that
 * refuses must leave the MR as it was), and it takes data where it is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cases.h"

#define WREN_VENDOR_ID	0x1f57	/* PCI vendor of the Wren NIC */
#define RR_LEN		(16384u + 4096u)
#define RR_OFF		(4096u + 5u)	/* the MR starts mid-page */
#define RR_ROFF		7u		/* where in the MR the transfers go */
#define RR_ACCESS	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			 IBV_ACCESS_REMOTE_READ)
#define RR_NO_WRITE	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ)
#define LT_LEN		8192u		/* local buffers of the translation case */
#define LT_OFF		3u		/* the local MR starts there */

/* The local MR whose translation the case changes. */
struct lt {
	uint8_t *a, *b;		/* registered range; the one asked for */
	struct ibv_mr *mr;
	bool moved;		/* the MR is on b now */
};

static size_t rr_len(struct ini *in)
{
	size_t len = 3 * (size_t)in->mtu + 5;	/* several packets */

	return len < RR_LEN - RR_ROFF ? len : RR_LEN - RR_ROFF;
}

/*
 * One WRITE or READ of a few MTUs at the target's S_RR with its original
 * rkey, over a fresh QP pair whose target QP is in PD @tpd; then the
 * target's memory (the data written, or unchanged) and ours.
 */
static bool rr_xfer(struct ini *in, bool read, enum ibv_wc_status want,
		    int tpd, uint32_t seed)
{
	struct rmr *m = &in->s[S_RR];

	in->rc_up = false;	/* the RC pair is replaced below */
	if (!pair_pd(in, in->p, &in->rc, 0, IBV_QPT_RC, &in->tgid, tpd))
		return false;
	return slot_xfer(in, &in->rc, S_RR, read, m->rkey, RR_ROFF,
			 rr_len(in), want, seed);
}

/* The target re-registers S_RR; it checks its lkey, we the rkey. */
static bool rr_rereg(struct ini *in, int flags, int access, int pd)
{
	unsigned int lkey, rkey;
	char r[160];

	if (!call(in, in->p, r, sizeof(r), "REREG %d %d %d %d", S_RR, flags,
		  access, pd))
		return false;
	if (sscanf(r, "OK %u %u", &lkey, &rkey) != 2)
		return fail(in, "bad REREG answer %s", r);
	if (rkey != in->s[S_RR].rkey)
		return fail(in, "rkey 0x%x after ibv_rereg_mr, 0x%x at registration",
			    rkey, in->s[S_RR].rkey);
	return true;
}

/*
 * IBV_REREG_MR_CHANGE_TRANSLATION on a local MR.  Wren registers the new
 * range anew: ibv_rereg_mr 0, the ibv_mr on the new range (new keys are
 * allowed).  A device without it (rdma_rxe's rereg takes a PD and rights
 * only) refuses with EOPNOTSUPP, libibverbs returns
 * IBV_REREG_MR_ERR_CMD, and the MR keeps its keys, range and PD.
 */
static bool rr_translation(struct ini *in, struct lt *lt)
{
	size_t len = LT_LEN - LT_OFF - 64;
	uint32_t lkey, rkey;
	int ret, err;

	if (posix_memalign((void **)&lt->a, 4096, LT_LEN) ||
	    posix_memalign((void **)&lt->b, 4096, LT_LEN))
		return fail(in, "out of memory");
	pat_fill(lt->a, LT_LEN, 0x6a, 0);
	pat_fill(lt->b, LT_LEN, 0x6b, 0);
	lt->mr = ibv_reg_mr(in->d->pd[0], lt->a + LT_OFF, len,
			    IBV_ACCESS_LOCAL_WRITE);
	if (!lt->mr)
		return fail(in, "ibv_reg_mr: %s", strerror(errno));
	lkey = lt->mr->lkey;
	rkey = lt->mr->rkey;
	errno = 0;
	ret = ibv_rereg_mr(lt->mr, IBV_REREG_MR_CHANGE_TRANSLATION,
			   in->d->pd[0], lt->b + LT_OFF, len, 0);
	err = errno;
	if (!ret) {
		lt->moved = true;
		if (lt->mr->addr != lt->b + LT_OFF || lt->mr->length != len ||
		    lt->mr->pd != in->d->pd[0])
			return fail(in, "ibv_mr after the rereg: %p+%zu, want %p+%zu",
				    lt->mr->addr, lt->mr->length,
				    (void *)(lt->b + LT_OFF), len);
		printf("# rereg CHANGE_TRANSLATION: lkey 0x%x -> 0x%x\n", lkey,
		       lt->mr->lkey);
		return true;
	}
	if (in->d->attr.vendor_id == WREN_VENDOR_ID)
		return fail(in, "ibv_rereg_mr returned %d, errno %d (%s); want 0",
			    ret, err, strerror(err));
	if (ret != IBV_REREG_MR_ERR_CMD || err != EOPNOTSUPP)
		return fail(in, "ibv_rereg_mr returned %d, errno %d (%s); want 0, or %d (IBV_REREG_MR_ERR_CMD) and EOPNOTSUPP",
			    ret, err, strerror(err), IBV_REREG_MR_ERR_CMD);
	printf("# rereg CHANGE_TRANSLATION refused (EOPNOTSUPP): the MR stays\n");
	if (lt->mr->lkey != lkey || lt->mr->rkey != rkey)
		return fail(in, "keys changed: lkey 0x%x -> 0x%x, rkey 0x%x -> 0x%x",
			    lkey, lt->mr->lkey, rkey, lt->mr->rkey);
	if (lt->mr->addr != lt->a + LT_OFF || lt->mr->length != len ||
	    lt->mr->pd != in->d->pd[0])
		return fail(in, "ibv_mr changed: %p+%zu, registered %p+%zu",
			    lt->mr->addr, lt->mr->length,
			    (void *)(lt->a + LT_OFF), len);
	return true;
}

/* The MR takes a READ's data through its lkey where it now is (the new
 * range, or the old one if the device refused) and nowhere else. */
static bool rr_after_translation(struct ini *in, struct lt *lt)
{
	struct rmr *m = &in->s[S_RR];
	size_t len = rr_len(in), loff = LT_OFF + 5;
	uint8_t *at = lt->moved ? lt->b : lt->a;
	uint8_t *other = lt->moved ? lt->a : lt->b;
	uint32_t seed = lt->moved ? 0x6b : 0x6a;
	struct ibv_send_wr wr = { 0 };
	struct ibv_sge sg;
	long k;
	bool ok;

	if (!lt->mr)
		return fail(in, "no local MR (the previous case failed)");
	if (len > lt->mr->length - 5)
		len = lt->mr->length - 5;
	in->rc_up = false;
	if (!pair_pd(in, in->p, &in->rc, 0, IBV_QPT_RC, &in->tgid, 0))
		return false;
	sg.addr = (uintptr_t)(at + loff);
	sg.length = (uint32_t)len;
	sg.lkey = lt->mr->lkey;
	wr.opcode = IBV_WR_RDMA_READ;
	wr.sg_list = &sg;
	wr.num_sge = 1;
	wr.wr.rdma.remote_addr = m->addr + RR_ROFF;
	wr.wr.rdma.rkey = m->rkey;
	ok = post_wait(in, &in->rc, &wr, IBV_WC_SUCCESS, IBV_WC_RDMA_READ);
	if (ok) {
		k = pat_diff(at + loff, len, m->seed, m->off + RR_ROFF);
		if (k >= 0)
			ok = fail(in, "byte %ld of the READ is 0x%02x, want 0x%02x", k,
				  at[loff + (size_t)k],
				  pat_byte(m->seed, m->off + RR_ROFF + (uint64_t)k));
	}
	if ((k = pat_diff(at, loff, seed, 0)) >= 0 ||
	    (k = pat_diff(at + loff + len, LT_LEN - loff - len, seed,
			  loff + len)) >= 0)
		ok = fail(in, "the registered buffer changed outside the READ");
	if (pat_diff(other, LT_LEN, lt->moved ? 0x6a : 0x6b, 0) >= 0)
		ok = fail(in, "the %s range changed",
			  lt->moved ? "MR's old" : "refused rereg's");
	return call(in, in->p, NULL, 0, "CHECK %d 0 0 0", S_RR) && ok;
}

/* rdma_rxe before 6.2 has no rereg_user_mr; Wren must have it. */
static const char *rereg_unsupported(struct ini *in)
{
	struct ibv_mr *mr;
	int ret, err;

	if (in->d->attr.vendor_id == WREN_VENDOR_ID)
		return NULL;
	mr = ibv_reg_mr(in->d->pd[0], in->lb[0], 4096, IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		return NULL;	/* the cases will fail and say why */
	ret = ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0,
			   IBV_ACCESS_LOCAL_WRITE);
	err = errno;
	ibv_dereg_mr(mr);
	return ret && err == EOPNOTSUPP ? "the device has no rereg_mr" : NULL;
}

/*
 * GPU MRs (dma-buf or peer memory) are pinned translations the driver
 * cannot rebuild: rereg is refused, and the MR must go on working.
 */
static bool rr_gpu_refused(struct ini *in)
{
	const char *want;
	char r[160];

	if (!tmr(in, in->p, S_RR, &in->s[S_RR], RR_LEN, RR_OFF, RR_ACCESS, 0))
		return false;
	if (ctl_call(in->p, r, sizeof(r), "REREG %d %d %d %d", S_RR,
		     IBV_REREG_MR_CHANGE_ACCESS, RR_NO_WRITE, 0))
		return fail(in, "target: REREG: no answer");
	/* libibverbs itself refuses a dma-buf MR (IBV_REREG_MR_ERR_INPUT,
	 * EINVAL); a peer MR reaches the driver, which says EOPNOTSUPP. */
	want = strcmp(in->tmem, "gpu-dmabuf") ? "returned -4, errno 95" :
						"returned -1, errno 22";
	if (strncmp(r, "REFUSED", 7) || !strstr(r, want))
		return fail(in, "rereg of a %s MR answered \"%s\", want \"%s\"",
			    in->tmem, r, want);
	return rr_xfer(in, false, IBV_WC_SUCCESS, 0, 0x5000);
}

void rereg_cases(struct ini *in)
{
	static const char *const what[N_REREG] = {
		"rereg: WRITE to a fresh MR with remote write completes, data identical",
		"rereg ACCESS without REMOTE_WRITE: ibv_rereg_mr 0, lkey and rkey unchanged",
		"rereg: WRITE with the same rkey after REMOTE_WRITE was taken away: REM_ACCESS_ERR, target unchanged",
		"rereg: READ with the same rkey (REMOTE_READ kept): completes, data identical",
		"rereg ACCESS with REMOTE_WRITE again: ibv_rereg_mr 0, keys unchanged",
		"rereg: WRITE after REMOTE_WRITE was given back: completes, data identical",
		"rereg PD to the process's other PD: ibv_rereg_mr 0, keys unchanged, ibv_mr.pd follows",
		"rereg: WRITE over a QP of the MR's old PD: REM_ACCESS_ERR, target unchanged",
		"rereg: WRITE over a QP of the MR's new PD: completes, data identical",
		"rereg PD back: ibv_rereg_mr 0, keys unchanged",
		"rereg: WRITE over a QP of the first PD again: completes, data identical",
		"rereg CHANGE_TRANSLATION of a local MR: 0 and the MR on the new range (Wren), or IBV_REREG_MR_ERR_CMD, EOPNOTSUPP and the MR unchanged",
		"rereg: the local MR takes a READ's data through its lkey where it now is, nothing else changed",
	};
	const char *skip = rereg_unsupported(in);
	struct lt lt = { 0 };
	int k = 0;

	if (!skip && strcmp(in->tmem, "host")) {
		tap(in, rr_gpu_refused(in),
		    "rereg ACCESS of a %s MR: refused with EOPNOTSUPP, a WRITE through it still completes, data identical",
		    in->tmem);
		k = 1;
		skip = "the target's MRs are GPU memory: rereg is refused (the case above)";
	}
	if (skip) {
		for (int i = k; i < N_REREG; i++)
			tap_skip(in, what[i], skip);
		return;
	}
	tap(in, tmr(in, in->p, S_RR, &in->s[S_RR], RR_LEN, RR_OFF, RR_ACCESS, 0) &&
	    rr_xfer(in, false, IBV_WC_SUCCESS, 0, 0x5000), "%s", what[k++]);
	tap(in, rr_rereg(in, IBV_REREG_MR_CHANGE_ACCESS, RR_NO_WRITE, 0), "%s", what[k++]);
	tap(in, rr_xfer(in, false, IBV_WC_REM_ACCESS_ERR, 0, 0x5001), "%s", what[k++]);
	tap(in, rr_xfer(in, true, IBV_WC_SUCCESS, 0, 0), "%s", what[k++]);
	tap(in, rr_rereg(in, IBV_REREG_MR_CHANGE_ACCESS, RR_ACCESS, 0), "%s", what[k++]);
	tap(in, rr_xfer(in, false, IBV_WC_SUCCESS, 0, 0x5002), "%s", what[k++]);
	tap(in, rr_rereg(in, IBV_REREG_MR_CHANGE_PD, 0, 1), "%s", what[k++]);
	tap(in, rr_xfer(in, false, IBV_WC_REM_ACCESS_ERR, 0, 0x5003), "%s", what[k++]);
	tap(in, rr_xfer(in, false, IBV_WC_SUCCESS, 1, 0x5004), "%s", what[k++]);
	tap(in, rr_rereg(in, IBV_REREG_MR_CHANGE_PD, 0, 0), "%s", what[k++]);
	tap(in, rr_xfer(in, false, IBV_WC_SUCCESS, 0, 0x5005), "%s", what[k++]);
	tap(in, rr_translation(in, &lt), "%s", what[k++]);
	tap(in, rr_after_translation(in, &lt), "%s", what[k++]);
	if (lt.mr)
		ibv_dereg_mr(lt.mr);
	free(lt.a);
	free(lt.b);
}
