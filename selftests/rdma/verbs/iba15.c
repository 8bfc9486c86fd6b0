// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * IBA 1.5's FLUSH and ATOMIC WRITE across the wire, through the extended
 * post API (ibv_wr_flush(), ibv_wr_atomic_write()) on an RC QP of our own
 * with the target's QP 3.  The target's memory is checked byte for byte
 * after each: an ATOMIC WRITE's 8 bytes in place (or, refused, nothing
 * changed); a FLUSH behind an RDMA WRITE completes only once the WRITE's
 * data is in place.  The refusals are the spec's: a misaligned ATOMIC
 * WRITE is an invalid request, one on a read-only MR a remote access
 * error, and so is a FLUSH of a placement type the MR has no right for
 * (a persistent one on every Wren MR: the NIC offers global visibility
 * only).  The target registers slot S_FL with IBV_ACCESS_FLUSH_GLOBAL.
 *
 * Each device says what it has in device_cap_flags_ex (the kernel's
 * IB_UVERBS_DEVICE_FLUSH_GLOBAL and _ATOMIC_WRITE, reported from 6.2 on;
 * the target's through DEVCAP): unless both have it, a case is skipped,
 * and so are the FLUSH cases when the target cannot register an MR with
 * the FLUSH right (dma-buf memory), and between Wren and rdma_rxe: rxe's
 * FLUSH packets carry an ICRC computed over their headers twice (the
 * RC_FLUSH entry of rxe_opcode.c has no payload offset, so rxe's ICRC
 * takes the payload to start at the BTH), so each side drops the other's
 * FLUSH as corrupt - Wren's follow IBA (selftests/host's capture checker
 * holds one of each).  ATOMIC WRITE works between them.  There are
 * N_IBA15 cases either way.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cases.h"

#define TQP		3		/* the target's QP for these cases */
#define FL_LEN		(64u << 10)	/* S_FL's MR */
#define FL_OFF		(4096u + 24u)	/* it starts mid-page, 8-aligned */
#define WREN_VENDOR_ID	0x1f57		/* as rereg.c: the Wren NIC's PCI vendor */
#define RXE_VENDOR_ID	0xffffff	/* rdma_rxe's (rxe_param.h) */

static struct {
	bool fl_ready;		/* S_FL is registered */
	char fl_skip[640];	/* why not */
	struct conn x;
	bool up;
} s;

static uint64_t ops_of(const struct dev *d)
{
	uint64_t ops = IBV_QP_EX_WITH_RDMA_WRITE;

	if (d->cap_ex & WVT_DEV_FLUSH_GLOBAL)
		ops |= IBV_QP_EX_WITH_FLUSH;
	if (d->cap_ex & WVT_DEV_ATOMIC_WRITE)
		ops |= IBV_QP_EX_WITH_ATOMIC_WRITE;
	return ops;
}

static bool x_ready(struct ini *in)
{
	if (!s.up)
		s.up = pair_ops(in, in->p, &s.x, TQP, IBV_QPT_RC, &in->tgid, 0,
				ops_of(in->d));
	return s.up;
}

static bool done(bool ok, enum ibv_wc_status want)
{
	/* An error completion took the pair down: a fresh one next. */
	if (!ok || want != IBV_WC_SUCCESS)
		s.up = false;
	return ok;
}

/* ATOMIC WRITE of @v at @slot's offset @off, then its memory checked. */
static bool aw_case(struct ini *in, int slot, size_t off, uint64_t v,
		    enum ibv_wc_status want)
{
	const struct rmr *t = &in->s[slot];
	bool ok;
	int err;

	if (!x_ready(in))
		return false;
	ibv_wr_start(s.x.qpx);
	s.x.qpx->wr_id = 1;
	s.x.qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_write(s.x.qpx, t->rkey, t->addr + off, &v);
	err = ibv_wr_complete(s.x.qpx);
	if (err)
		return done(fail(in, "ibv_wr_complete: %s", strerror(err)),
			    want);
	ok = wait_send(in, &s.x, want, IBV_WC_ATOMIC_WRITE);
	if (ok)
		ok = want == IBV_WC_SUCCESS ?
		     call(in, in->p, NULL, 0, "CHECK8 %d %zu %" PRIu64, slot,
			  off, v) :
		     call(in, in->p, NULL, 0, "CHECK %d 0 0 0", slot);
	return done(ok, want);
}

/*
 * An RDMA WRITE of @len bytes at S_FL's offset @off (none for @len 0),
 * then a FLUSH of @type and @level over [@off, @off + @len) of @slot, in
 * one batch; only the FLUSH is signalled.  Then the target's memory.
 */
static bool flush_case(struct ini *in, int slot, size_t off, size_t len,
		       uint8_t type, uint8_t level, enum ibv_wc_status want)
{
	const struct rmr *t = &in->s[slot];
	uint32_t seed = 0x15a0u + (uint32_t)len;
	bool ok;
	int err;

	if (!x_ready(in))
		return false;
	pat_fill(in->lb[0], len, seed, 0);
	ibv_wr_start(s.x.qpx);
	if (len) {
		s.x.qpx->wr_id = 1;
		s.x.qpx->wr_flags = 0;
		ibv_wr_rdma_write(s.x.qpx, t->rkey, t->addr + off);
		ibv_wr_set_sge(s.x.qpx, in->lmr[0]->lkey,
			       (uintptr_t)in->lb[0], (uint32_t)len);
	}
	s.x.qpx->wr_id = 2;
	s.x.qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_flush(s.x.qpx, t->rkey, t->addr + off, len, type, level);
	err = ibv_wr_complete(s.x.qpx);
	if (err)
		return done(fail(in, "ibv_wr_complete: %s", strerror(err)),
			    want);
	ok = wait_send(in, &s.x, want, IBV_WC_FLUSH);
	if (ok && len)
		ok = call(in, in->p, NULL, 0, "CHECK %d %zu %zu %u", slot, off,
			  len, seed);
	/* Our buffer's own pattern back for the cases after these. */
	pat_fill(in->lb[0], len, in->lseed[0], 0);
	return done(ok, want);
}

/* Twelve in flight at once (the model test goes over its resources). */
static bool many_case(struct ini *in)
{
	const struct rmr *t = &in->s[S_FL];
	bool ok = true;
	uint64_t v = 0;
	int err;

	if (!x_ready(in))
		return false;
	ibv_wr_start(s.x.qpx);
	for (int i = 0; i < 12; i++) {
		s.x.qpx->wr_id = (uint64_t)i;
		s.x.qpx->wr_flags = IBV_SEND_SIGNALED;
		v = 0x1515151515151515ull * (uint64_t)(i + 1);
		if (i & 1)
			ibv_wr_flush(s.x.qpx, t->rkey, t->addr, FL_LEN,
				     IBV_FLUSH_GLOBAL, IBV_FLUSH_RANGE);
		else
			ibv_wr_atomic_write(s.x.qpx, t->rkey, t->addr + 64, &v);
	}
	err = ibv_wr_complete(s.x.qpx);
	if (err)
		return done(fail(in, "ibv_wr_complete: %s", strerror(err)),
			    IBV_WC_SUCCESS);
	for (int i = 0; i < 12 && ok; i++)
		ok = wait_send(in, &s.x, IBV_WC_SUCCESS,
			       i & 1 ? IBV_WC_FLUSH : IBV_WC_ATOMIC_WRITE);
	/* The last ATOMIC WRITE was the 11th (i = 10). */
	v = 0x1515151515151515ull * 11;
	if (ok)
		ok = call(in, in->p, NULL, 0, "CHECK8 %d 64 %" PRIu64, S_FL, v);
	return done(ok, IBV_WC_SUCCESS);
}

/* A FLUSH naming no placement type: Wren's provider refuses to post it. */
static bool bad_type_case(struct ini *in)
{
	const struct rmr *t = &in->s[S_FL];
	int err;

	if (!x_ready(in))
		return false;
	ibv_wr_start(s.x.qpx);
	s.x.qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_flush(s.x.qpx, t->rkey, t->addr, 64, 0, IBV_FLUSH_RANGE);
	err = ibv_wr_complete(s.x.qpx);
	if (err != EINVAL)
		return done(fail(in, "ibv_wr_complete: %d, want EINVAL", err),
			    IBV_WC_SUCCESS);
	/* Nothing was posted: the QP still works. */
	return flush_case(in, S_FL, 0, 0, IBV_FLUSH_GLOBAL, IBV_FLUSH_MR,
			  IBV_WC_SUCCESS);
}

void iba15_cases(struct ini *in)
{
	static const char *const what[N_IBA15] = {
		"ATOMIC WRITE: the 8 bytes in place at an aligned address",
		"ATOMIC WRITE at an address not 8-byte aligned: IBV_WC_REM_INV_REQ_ERR, target unchanged",
		"ATOMIC WRITE into a read-only MR: IBV_WC_REM_ACCESS_ERR, target unchanged",
		"RDMA WRITE of 60000 bytes, then FLUSH (global) of that range: the data in place when the FLUSH completes",
		"FLUSH (global) of the whole MR",
		"FLUSH (global) of an MR without the FLUSH right: IBV_WC_REM_ACCESS_ERR",
		"FLUSH (persistent), a right no Wren MR has: IBV_WC_REM_ACCESS_ERR",
		"12 ATOMIC WRITEs and FLUSHes in flight at once: all complete in order",
		"FLUSH with no placement type: the provider refuses it at ibv_wr_complete, the QP still works",
	};
	unsigned int tv = 0, v = in->d->attr.vendor_id;
	uint64_t tcap = 0;
	char r[128];
	bool aw, fl, wren = v == WREN_VENDOR_ID;
	const char *no_aw = "a device reports no ATOMIC WRITE (IB_UVERBS_DEVICE_ATOMIC_WRITE: 6.2 and later)";
	const char *no_fl = "a device reports no FLUSH (IB_UVERBS_DEVICE_FLUSH_GLOBAL: 6.2 and later)";
	const char *rxe_fl = "FLUSH does not pass between Wren and rxe: rxe's FLUSH ICRC covers its headers twice (rxe_opcode.c's RC_FLUSH has no payload offset), so each drops the other's as corrupt";

	if (call(in, in->p, r, sizeof(r), "DEVCAP"))
		sscanf(r, "OK %u %" SCNu64, &tv, &tcap);
	aw = in->d->cap_ex & tcap & WVT_DEV_ATOMIC_WRITE;
	fl = in->d->cap_ex & tcap & WVT_DEV_FLUSH_GLOBAL;
	if (fl && ((v == WREN_VENDOR_ID && tv == RXE_VENDOR_ID) ||
		   (v == RXE_VENDOR_ID && tv == WREN_VENDOR_ID))) {
		no_fl = rxe_fl;
		fl = false;
	}
	printf("# IBA 1.5: target vendor 0x%x, device_cap_flags_ex 0x%" PRIx64 ", ours 0x%x, 0x%" PRIx64 "\n",
	       tv, tcap, v, in->d->cap_ex);
	if (fl && !s.fl_ready) {
		s.fl_ready = tmr(in, in->p, S_FL, &in->s[S_FL], FL_LEN, FL_OFF,
				 ALL_ACCESS | IBV_ACCESS_FLUSH_GLOBAL, 0);
		if (!s.fl_ready)
			snprintf(s.fl_skip, sizeof(s.fl_skip),
				 "the target cannot register an MR with IBV_ACCESS_FLUSH_GLOBAL (%s)",
				 in->why);
	}
	for (int i = 0; i < N_IBA15; i++) {
		bool needs_aw = i < 3 || i == 7, needs_fl = i >= 3;
		bool needs_slot = needs_fl && i != 5;
		const char *skip = NULL;
		bool ok = false;

		if (needs_aw && !aw)
			skip = no_aw;
		else if (needs_fl && !fl)
			skip = no_fl;
		else if (needs_slot && !s.fl_ready)
			skip = s.fl_skip;
		else if (i == 8 && !wren)
			skip = "a provider other than Wren's may post it (rxe's checks nothing)";
		if (skip) {
			tap_skip(in, what[i], skip);
			continue;
		}
		switch (i) {
		case 0:
			ok = aw_case(in, S_T, 8 * 3 + (8 - in->s[S_T].addr % 8) % 8,
				     0x0123456789abcdefull, IBV_WC_SUCCESS);
			break;
		case 1:
			ok = aw_case(in, S_T, 8 * 5 + 4 + (8 - in->s[S_T].addr % 8) % 8,
				     1, IBV_WC_REM_INV_REQ_ERR);
			break;
		case 2:
			ok = aw_case(in, S_RO, (8 - in->s[S_RO].addr % 8) % 8, 1,
				     IBV_WC_REM_ACCESS_ERR);
			break;
		case 3:
			ok = flush_case(in, S_FL, 8, 60000, IBV_FLUSH_GLOBAL,
					IBV_FLUSH_RANGE, IBV_WC_SUCCESS);
			break;
		case 4:
			ok = flush_case(in, S_FL, 0, 0, IBV_FLUSH_GLOBAL,
					IBV_FLUSH_MR, IBV_WC_SUCCESS);
			break;
		case 5:
			ok = flush_case(in, S_T, 0, 0, IBV_FLUSH_GLOBAL,
					IBV_FLUSH_RANGE, IBV_WC_REM_ACCESS_ERR);
			break;
		case 6:
			ok = flush_case(in, S_FL, 0, 0, IBV_FLUSH_PERSISTENT,
					IBV_FLUSH_RANGE, IBV_WC_REM_ACCESS_ERR);
			break;
		case 7:
			ok = many_case(in);
			break;
		default:
			ok = bad_type_case(in);
			break;
		}
		tap(in, ok, "%s", what[i]);
	}
	conn_destroy(&s.x);
	s.up = false;
}
