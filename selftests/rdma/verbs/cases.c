// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The initiator's cases: data integrity for every opcode and size, then
 * the protection cases, then re-registration (rereg.c), then memory
 * windows (mwcases.c).  One TAP line per case (ini.c); the target (and,
 * for the "another process" cases, the target's child process) judges its
 * memory and the initiator its completions and its own buffers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cases.h"
#include "tap.h"

enum { OP_SEND, OP_SEND_IMM, OP_WRITE, OP_WRITE_IMM, OP_READ, OP_NOPS };
#define N_UC_SIZES	6
static const char *const op_name[] = { "SEND", "SEND_IMM", "WRITE", "WRITE_IMM", "READ" };

/* A fresh connected QP pair with the target's QP @id (in its first PD). */
static bool pair(struct ini *in, struct ctl *c, struct conn *cn, int id,
		 enum ibv_qp_type t, const union ibv_gid *gid)
{
	return pair_pd(in, c, cn, id, t, gid, 0);
}

static bool rc_ready(struct ini *in)
{
	if (!in->rc_up)
		in->rc_up = pair(in, in->p, &in->rc, 0, IBV_QPT_RC, &in->tgid);
	return in->rc_up;
}

/*
 * UC: a WRITE completes once it has left, and nothing says when it lands.
 * A WRITE with immediate of no bytes behind it on the same QP lands after
 * it (a UC responder takes packets in order), so its receive completion
 * at the target says the WRITE is in place.
 */
#define UC_FENCE_IMM	0xfe9ce000u

static bool uc_fence(struct ini *in, struct conn *cn, int tid,
		     const struct rmr *t)
{
	struct ibv_send_wr wr = { 0 };

	wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	wr.imm_data = htobe32(UC_FENCE_IMM);
	wr.wr.rdma.remote_addr = t->addr;
	wr.wr.rdma.rkey = t->rkey;
	return call(in, in->p, NULL, 0, "RECV %d %d 0 0 0", tid, S_R) &&
	       post_wait(in, cn, &wr, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE) &&
	       call(in, in->p, NULL, 0, "WAITRECV %d 0 0 0x%x 0 %d", tid,
		    UC_FENCE_IMM, IBV_WC_RECV_RDMA_WITH_IMM);
}

/*
 * One case over the connected QP @cn (the target's QP @tid): @op of
 * @size bytes, spread over SGEs, unaligned.  A failure marks it down.
 */
static bool xfer_case(struct ini *in, struct conn *cn, bool *up, int tid,
		      int op, size_t size, int idx, bool inl)
{
	struct ibv_sge sg[WVT_MAX_SGE];
	struct ibv_send_wr wr = { 0 };
	struct layout l;
	struct rmr *t = &in->s[S_T];
	int nsge = size ? 1 + idx % in->sge : 0;
	size_t lbase = 1 + (size_t)(idx * 3) % 61;
	size_t roff = 1 + (size_t)(idx * 37) % 4093;
	uint32_t seed = 0x1000u + (uint32_t)idx;
	uint32_t imm = 0x5eed0000u + (uint32_t)idx;
	static const enum ibv_wr_opcode wop[] = {
		IBV_WR_SEND, IBV_WR_SEND_WITH_IMM, IBV_WR_RDMA_WRITE,
		IBV_WR_RDMA_WRITE_WITH_IMM, IBV_WR_RDMA_READ };
	static const enum ibv_wc_opcode cop[] = {
		IBV_WC_SEND, IBV_WC_SEND, IBV_WC_RDMA_WRITE, IBV_WC_RDMA_WRITE,
		IBV_WC_RDMA_READ };
	bool imm_op = op == OP_SEND_IMM || op == OP_WRITE_IMM;
	char immstr[16];
	bool ok;

	layout_make(&l, size, nsge, lbase, 2);
	if (op != OP_READ)
		pieces_fill(in, &l, seed);
	sges(in, &l, sg, -1);
	wr.opcode = wop[op];
	wr.sg_list = sg;
	wr.num_sge = l.n;
	if (inl)
		wr.send_flags = IBV_SEND_INLINE;
	if (imm_op)
		wr.imm_data = htobe32(imm);
	snprintf(immstr, sizeof(immstr), imm_op ? "0x%x" : "-", imm);
	if (op == OP_WRITE || op == OP_WRITE_IMM || op == OP_READ) {
		wr.wr.rdma.remote_addr = t->addr + roff;
		wr.wr.rdma.rkey = t->rkey;
	}
	if (op == OP_SEND || op == OP_SEND_IMM) {
		/* Room for 7 bytes more: they must stay untouched. */
		if (!call(in, in->p, NULL, 0, "RECV %d %d %zu %zu %d", tid, S_R,
			  roff, size + 7, 1 + (idx + 1) % in->sge))
			return false;
	} else if (op == OP_WRITE_IMM) {
		if (!call(in, in->p, NULL, 0, "RECV %d %d 0 0 0", tid, S_R))
			return false;
	}
	ok = post_wait(in, cn, &wr, IBV_WC_SUCCESS, cop[op]);
	if (ok && op == OP_WRITE && cn->type == IBV_QPT_UC)
		ok = uc_fence(in, cn, tid, t);
	if (ok && (op == OP_SEND || op == OP_SEND_IMM))
		ok = call(in, in->p, NULL, 0, "WAITRECV %d %zu %u %s 0 %d", tid,
			  size, seed, immstr, IBV_WC_RECV);
	if (ok && op == OP_WRITE_IMM)
		ok = call(in, in->p, NULL, 0, "WAITRECV %d %zu %u %s 0 %d", tid,
			  size, seed, immstr, IBV_WC_RECV_RDMA_WITH_IMM);
	if (ok && (op == OP_WRITE || op == OP_WRITE_IMM))
		ok = call(in, in->p, NULL, 0, "CHECK %d %zu %zu %u", S_T, roff, size, seed);
	if (ok && op == OP_READ) {
		ok = local_verify(in, &l, t->seed, t->off + roff);
		ok = call(in, in->p, NULL, 0, "CHECK %d 0 0 0", S_T) && ok;
	} else {
		/* Sources must be left alone too. */
		ok = local_verify(in, &l, op == OP_READ ? 0 : seed, 0) && ok;
	}
	if (!ok)
		*up = false;
	return ok;
}

static bool rc_case(struct ini *in, int op, size_t size, int idx, bool inl)
{
	return rc_ready(in) &&
	       xfer_case(in, &in->rc, &in->rc_up, 0, op, size, idx, inl);
}

static void rc_integrity(struct ini *in, const size_t *sizes, int nsizes)
{
	int idx = 0;

	for (int op = 0; op < OP_NOPS; op++)
		for (int i = 0; i < nsizes; i++, idx++) {
			size_t sz = sizes[i];
			int nsge = sz ? 1 + idx % in->sge : 0;
			char what[160];

			snprintf(what, sizeof(what), "RC %s %zu B (%d SGE%s, local +%zu, remote +%zu): completes, data identical",
				 op_name[op], sz, nsge > (int)sz ? (int)sz : nsge,
				 nsge == 1 ? "" : "s", 1 + (size_t)(idx * 3) % 61,
				 1 + (size_t)(idx * 37) % 4093);
			if (sz > in->d->port.max_msg_sz) {
				tap_skip(in, what, "beyond the port's max_msg_sz");
				continue;
			}
			tap(in, rc_case(in, op, sz, idx, false), "%s", what);
		}
}

static void rc_inline(struct ini *in)
{
	static const struct { int op; size_t size; } c[] = {
		{ OP_SEND, 1 }, { OP_SEND_IMM, 33 }, { OP_SEND, 64 },
		{ OP_WRITE, 7 }, { OP_WRITE, 64 },
	};

	for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char what[128];

		snprintf(what, sizeof(what), "RC %s %zu B inline: data identical",
			 op_name[c[i].op], c[i].size);
		if (!rc_ready(in)) {
			tap(in, false, "%s", what);
			continue;
		}
		if (in->rc.max_inline < c[i].size) {
			tap_skip(in, what, "the QP has less inline room");
			continue;
		}
		tap(in, rc_case(in, c[i].op, c[i].size, 200 + (int)i, true), "%s", what);
	}
}

/*
 * UC (the target's QP 2): SENDs and WRITEs across packet boundaries, on a
 * quiet wire every message arrives whole.  A device without UC skips.
 */
static void uc_integrity(struct ini *in)
{
	size_t mtu = in->mtu;
	const size_t sizes[N_UC_SIZES] = { 0, 1, mtu + 1, 3 * mtu - 5, 65536,
					   100001 };
	int idx = 300;

	for (int op = 0; op < OP_READ; op++)
		for (int i = 0; i < N_UC_SIZES; i++, idx++) {
			char what[128];

			snprintf(what, sizeof(what), "UC %s %zu B: completes, data identical",
				 op_name[op], sizes[i]);
			if (!in->uc_up && !in->uc_refused) {
				struct conn probe;

				if (conn_create(in->d, &probe, IBV_QPT_UC, 0, 1))
					in->uc_refused = errno == EOPNOTSUPP;
				conn_destroy(&probe);
				if (!in->uc_refused)
					in->uc_up = pair(in, in->p, &in->uc, 2,
							 IBV_QPT_UC, &in->tgid);
			}
			if (in->uc_refused) {
				tap_skip(in, what, "the device has no UC QPs");
				continue;
			}
			tap(in, in->uc_up &&
			    xfer_case(in, &in->uc, &in->uc_up, 2, op, sizes[i],
				      idx, false), "%s", what);
		}
}

/* Atomics on T: aligned remote, unaligned local result buffer. */
static bool atomic_case(struct ini *in, int kind, int idx)
{
	struct rmr *t = &in->s[S_T];
	size_t ro = (size_t)((8 - t->addr % 8) % 8) + 8u * (size_t)(idx + 1);
	uint64_t orig = pat_u64(t->seed, t->off + ro), want = orig, got;
	const size_t lo = 9;	/* result lands at an odd local address */
	int nops = kind == 3 ? 4 : 1;
	struct ibv_send_wr wr[4] = { 0 }, *bad;
	struct ibv_sge sg[4];
	struct ibv_wc wc;
	bool ok = true;

	if (!rc_ready(in))
		return false;
	for (int i = 0; i < nops; i++) {
		sg[i].addr = (uintptr_t)(in->lb[0] + lo + 16 * (size_t)i);
		sg[i].length = 8;
		sg[i].lkey = in->lmr[0]->lkey;
		wr[i].sg_list = &sg[i];
		wr[i].num_sge = 1;
		wr[i].send_flags = IBV_SEND_SIGNALED;
		wr[i].wr.atomic.remote_addr = t->addr + ro;
		wr[i].wr.atomic.rkey = t->rkey;
		wr[i].next = i + 1 < nops ? &wr[i + 1] : NULL;
		if (kind == 0 || kind == 3) {
			wr[i].opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
			wr[i].wr.atomic.compare_add = 0x0101010101010101ull * (uint64_t)(i + 1) + (uint64_t)idx;
		} else {
			wr[i].opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
			wr[i].wr.atomic.compare_add = kind == 1 ? orig : orig ^ 1;
			wr[i].wr.atomic.swap = 0xdeadbeefcafef00dull;
		}
	}
	int err = ibv_post_send(in->rc.qp, wr, &bad);

	if (err) {
		in->rc_up = false;
		return fail(in, "ibv_post_send: %s", strerror(err));
	}
	for (int i = 0; i < nops && ok; i++) {
		if (poll_one(in->rc.scq, &wc, WAIT_MS))
			ok = fail(in, "no completion");
		else if (wc.status != IBV_WC_SUCCESS)
			ok = fail(in, "status %s", ibv_wc_status_str(wc.status));
		else if (wc.opcode != (kind == 0 || kind == 3 ? IBV_WC_FETCH_ADD : IBV_WC_COMP_SWAP))
			ok = fail(in, "opcode %d", wc.opcode);
	}
	for (int i = 0; i < nops && ok; i++) {
		memcpy(&got, in->lb[0] + lo + 16 * (size_t)i, 8);
		if (got != want)
			ok = fail(in, "op %d returned 0x%" PRIx64 ", want 0x%" PRIx64, i, got, want);
		if (kind == 0 || kind == 3)
			want += wr[i].wr.atomic.compare_add;
		else if (kind == 1)
			want = wr[i].wr.atomic.swap;
	}
	if (ok)
		ok = want == orig ? call(in, in->p, NULL, 0, "CHECK %d 0 0 0", S_T) :
		     call(in, in->p, NULL, 0, "CHECK8 %d %zu %" PRIu64, S_T, ro, want);
	/* The local bytes around the results are untouched. */
	for (int i = 0; i < nops; i++)
		pat_fill(in->lb[0] + lo + 16 * (size_t)i, 8, in->lseed[0], lo + 16 * (size_t)i);
	{
		struct layout none = { 0 };

		ok = local_verify(in, &none, 0, 0) && ok;
	}
	if (!ok)
		in->rc_up = false;
	return ok;
}

static void atomics(struct ini *in)
{
	static const char *const what[] = {
		"RC FETCH_ADD: returns the old value, target holds the sum",
		"RC CMP_SWAP (equal): returns the old value, target holds the swap value",
		"RC CMP_SWAP (not equal): returns the old value, target unchanged",
		"RC 4 FETCH_ADDs in flight on one address: each sees the previous sum",
	};

	for (int k = 0; k < 4; k++) {
		if (in->d->attr.atomic_cap == IBV_ATOMIC_NONE)
			tap_skip(in, what[k], "the device has no atomics");
		else
			tap(in, atomic_case(in, k, k * 3), "%s", what[k]);
	}
}

static bool ud_case(struct ini *in, size_t size, int idx)
{
	struct ibv_sge sg[WVT_MAX_SGE];
	struct ibv_send_wr wr = { 0 };
	struct layout l;
	int nsge = size ? 1 + idx % in->sge : 0;
	uint32_t seed = 0x3000u + (uint32_t)idx, imm = 0xabc00000u + (uint32_t)idx;
	bool imm_op = idx & 1, ok;
	char immstr[16];

	if (!in->ud_up)
		in->ud_up = pair(in, in->p, &in->ud, 1, IBV_QPT_UD, &in->tgid);
	if (!in->ud_up)
		return false;
	layout_make(&l, size, nsge, 3 + (size_t)idx, 2);
	pieces_fill(in, &l, seed);
	sges(in, &l, sg, -1);
	wr.opcode = imm_op ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
	wr.imm_data = htobe32(imm);
	wr.sg_list = sg;
	wr.num_sge = l.n;
	wr.wr.ud.ah = in->ud.ah;
	wr.wr.ud.remote_qpn = in->ud.peer_qpn;
	wr.wr.ud.remote_qkey = WVT_QKEY;
	snprintf(immstr, sizeof(immstr), imm_op ? "0x%x" : "-", imm);
	/* The GRH area must fit the first receive SGE. */
	if (!call(in, in->p, NULL, 0, "RECV 1 %d %zu %zu %d", S_R, (size_t)(5 + idx),
		  size + 7, size + 47 >= 200 ? 2 : 1))
		return false;
	ok = post_wait(in, &in->ud, &wr, IBV_WC_SUCCESS, IBV_WC_SEND) &&
	     call(in, in->p, NULL, 0, "WAITRECV 1 %zu %u %s 0 %d", size, seed,
		  immstr, IBV_WC_RECV);
	ok = local_verify(in, &l, seed, 0) && ok;
	if (!ok)
		in->ud_up = false;
	return ok;
}

static void ud_integrity(struct ini *in)
{
	size_t mtu = in->mtu;
	const size_t sizes[] = { 0, 1, 2, 3, 17, 255, 256, mtu - 1, mtu };

	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		tap(in, ud_case(in, sizes[i], (int)i), "UD %s %zu B: received once, data identical, GRH, src_qp%s",
		    i & 1 ? "SEND_IMM" : "SEND", sizes[i], i & 1 ? ", immediate" : "");
}

/* --- protection --- */

enum pkind { P_WRITE, P_READ, P_FADD, P_CSWAP, P_SEND };

struct pcase {
	const char *what;
	enum pkind kind;
	int slot;		/* target slot judged afterwards; -1: child's */
	long addr_delta;	/* from the MR start */
	size_t len;		/* 0: MTU * 3 */
	int rkey_mode;		/* 0 as is, 1 wrong key, 2 T's rkey over child QP, 3 child's over ours */
	int lmr;		/* local MR to use: -1 default, 2: no LOCAL_WRITE, 3: bad lkey */
	enum ibv_wc_status want;
	bool child_qp;
	int needs_atomic;
};

static bool prot_case(struct ini *in, const struct pcase *c)
{
	struct rmr *m = c->slot >= 0 ? &in->s[c->slot] : &in->child;
	struct conn *cn = c->child_qp ? &in->crc : &in->rc;
	struct ctl *judge = c->slot >= 0 ? in->p : in->ch;
	int jslot = c->slot >= 0 ? c->slot : 0;
	size_t len = c->len ? c->len : 3 * in->mtu;
	struct ibv_sge sg[WVT_MAX_SGE];
	struct ibv_send_wr wr = { 0 };
	struct layout l;
	bool ok;
	uint32_t seed = 0x4000;

	if (c->child_qp ? !pair(in, in->ch, &in->crc, 0, IBV_QPT_RC, &in->cgid) :
			  !pair(in, in->p, &in->rc, 0, IBV_QPT_RC, &in->tgid))
		return false;
	in->rc_up = false;
	layout_make(&l, len, c->kind == P_FADD || c->kind == P_CSWAP ? 1 : 2, 11, 1);
	if (c->kind == P_WRITE || c->kind == P_SEND)
		pieces_fill(in, &l, seed);
	sges(in, &l, sg, c->lmr == 2 ? 2 : 0);
	if (c->lmr == 3)
		sg[0].lkey ^= 0x5a;
	if (c->lmr == 2)	/* same offsets, the buffer without LOCAL_WRITE */
		for (int i = 0; i < l.n; i++)
			sg[i].addr = (uintptr_t)(in->lb[2] + l.off[i]);
	wr.sg_list = sg;
	wr.num_sge = l.n;
	wr.wr.rdma.remote_addr = (uint64_t)((int64_t)m->addr + c->addr_delta);
	wr.wr.rdma.rkey = c->rkey_mode == 1 ? m->rkey ^ 0x5a :
			  c->rkey_mode == 2 ? in->s[S_T].rkey :
			  c->rkey_mode == 3 ? in->child.rkey : m->rkey;
	if (c->rkey_mode == 2)
		wr.wr.rdma.remote_addr = in->s[S_T].addr + 64;
	if (c->rkey_mode == 3)
		wr.wr.rdma.remote_addr = in->child.addr + 64;
	switch (c->kind) {
	case P_WRITE:
		wr.opcode = IBV_WR_RDMA_WRITE;
		break;
	case P_READ:
		wr.opcode = IBV_WR_RDMA_READ;
		break;
	case P_FADD:
	case P_CSWAP:
		wr.opcode = c->kind == P_FADD ? IBV_WR_ATOMIC_FETCH_AND_ADD :
						IBV_WR_ATOMIC_CMP_AND_SWP;
		wr.wr.atomic.remote_addr = wr.wr.rdma.remote_addr;
		wr.wr.atomic.rkey = wr.wr.rdma.rkey;
		wr.wr.atomic.compare_add = 1;
		wr.wr.atomic.swap = 2;
		break;
	case P_SEND:
		wr.opcode = IBV_WR_SEND;
		if (!call(in, in->p, NULL, 0, "RECV 0 %d 64 %zu 2", S_R,
			  c->want == IBV_WC_REM_INV_REQ_ERR ? len / 3 : len + 7))
			return false;
		break;
	}
	ok = post_wait(in, cn, &wr, c->want,
		       c->kind == P_SEND ? IBV_WC_SEND : IBV_WC_RDMA_WRITE);
	if (c->kind == P_SEND && c->want == IBV_WC_REM_INV_REQ_ERR)
		/* The receive fails too, and nothing lands outside it. */
		ok = call(in, in->p, NULL, 0, "WAITRECV 0 %zu %u - %d 0", len, seed,
			  IBV_WC_LOC_LEN_ERR) && ok;
	if (c->rkey_mode == 2)	/* our T reached over the child's QP? */
		ok = call(in, in->p, NULL, 0, "CHECK %d 0 0 0", S_T) && ok;
	else if (c->rkey_mode == 3)
		ok = call(in, in->ch, NULL, 0, "CHECK 0 0 0 0") && ok;
	else if (c->want == IBV_WC_SUCCESS)
		ok = call(in, judge, NULL, 0, "CHECK %d %ld %zu %u", jslot,
			  c->addr_delta, len, seed) && ok;
	else
		ok = call(in, judge, NULL, 0, "CHECK %d 0 0 0", jslot) && ok;
	{
		/* Local memory: READ targets untouched, sources as filled. */
		struct layout none = { 0 };

		if (c->lmr == 2) {
			long k = pat_diff(in->lb[2], LSIZE, in->lseed[2], 0);

			if (k >= 0)
				ok = fail(in, "the buffer without LOCAL_WRITE changed at %ld", k);
		}
		ok = local_verify(in, c->kind == P_READ || c->kind == P_FADD ||
				  c->kind == P_CSWAP ? &none : &l,
				  c->kind == P_READ || c->kind == P_FADD ||
				  c->kind == P_CSWAP ? 0 : seed, 0) && ok;
	}
	return ok;
}

static void protection(struct ini *in)
{
	const struct pcase pc[] = {
		{ "WRITE with a wrong rkey: REM_ACCESS_ERR, target unchanged",
		  P_WRITE, S_T, 64, 100, 1, -1, IBV_WC_REM_ACCESS_ERR, false, 0 },
		{ "READ with a wrong rkey: REM_ACCESS_ERR, local buffer and target unchanged",
		  P_READ, S_T, 64, 100, 1, -1, IBV_WC_REM_ACCESS_ERR, false, 0 },
		{ "WRITE past the MR's end: REM_ACCESS_ERR, nothing written (guard bytes included)",
		  P_WRITE, S_T, TLEN - 100, 200, 0, -1, IBV_WC_REM_ACCESS_ERR, false, 0 },
		{ "WRITE starting before the MR: REM_ACCESS_ERR, nothing written",
		  P_WRITE, S_T, -16, 64, 0, -1, IBV_WC_REM_ACCESS_ERR, false, 0 },
		{ "WRITE of 3 MTUs whose first MTU is in bounds: REM_ACCESS_ERR, not a byte written",
		  P_WRITE, S_T, -1, 0, 0, -1, IBV_WC_REM_ACCESS_ERR, false, 0 },
		{ "READ past the MR's end: REM_ACCESS_ERR, local buffer unchanged",
		  P_READ, S_T, TLEN - 8, 16, 0, -1, IBV_WC_REM_ACCESS_ERR, false, 0 },
		{ "WRITE to an MR without REMOTE_WRITE: REM_ACCESS_ERR, unchanged",
		  P_WRITE, S_RO, 8, 64, 0, -1, IBV_WC_REM_ACCESS_ERR, false, 0 },
		{ "READ from an MR without REMOTE_READ: REM_ACCESS_ERR, local buffer unchanged",
		  P_READ, S_WO, 8, 64, 0, -1, IBV_WC_REM_ACCESS_ERR, false, 0 },
		{ "FETCH_ADD on an MR without REMOTE_ATOMIC: REM_ACCESS_ERR, unchanged",
		  P_FADD, S_NA, 0, 8, 0, -1, IBV_WC_REM_ACCESS_ERR, false, 1 },
		{ "CMP_SWAP at a misaligned address: REM_INV_REQ_ERR, unchanged",
		  P_CSWAP, S_T, 0, 8, 0, -1, IBV_WC_REM_INV_REQ_ERR, false, 1 },
		{ "WRITE to an MR of another PD: REM_ACCESS_ERR, unchanged",
		  P_WRITE, S_PD1, 8, 64, 0, -1, IBV_WC_REM_ACCESS_ERR, false, 0 },
		{ "WRITE to a deregistered MR: REM_ACCESS_ERR, unchanged",
		  P_WRITE, S_DEREG, 8, 64, 0, -1, IBV_WC_REM_ACCESS_ERR, false, 0 },
		{ "READ from a deregistered MR: REM_ACCESS_ERR, local buffer unchanged",
		  P_READ, S_DEREG, 8, 64, 0, -1, IBV_WC_REM_ACCESS_ERR, false, 0 },
		{ "another process: WRITE over its QP into its own MR works (the key is live)",
		  P_WRITE, -1, 64, 256, 0, -1, IBV_WC_SUCCESS, true, 0 },
		{ "another process's QP cannot WRITE this process's MR: REM_ACCESS_ERR, unchanged",
		  P_WRITE, S_T, 0, 256, 2, -1, IBV_WC_REM_ACCESS_ERR, true, 0 },
		{ "this process's QP cannot WRITE another process's MR: REM_ACCESS_ERR, its memory unchanged",
		  P_WRITE, -1, 0, 256, 3, -1, IBV_WC_REM_ACCESS_ERR, false, 0 },
		{ "READ into a local MR without LOCAL_WRITE: LOC_PROT_ERR, local and remote unchanged",
		  P_READ, S_T, 64, 64, 0, 2, IBV_WC_LOC_PROT_ERR, false, 0 },
		{ "SEND with a wrong lkey: LOC_PROT_ERR, receive buffer unchanged",
		  P_SEND, S_R, 0, 64, 0, 3, IBV_WC_LOC_PROT_ERR, false, 0 },
		{ "SEND longer than the receive: REM_INV_REQ_ERR / LOC_LEN_ERR, nothing beyond the receive",
		  P_SEND, S_R, 0, 300, 0, -1, IBV_WC_REM_INV_REQ_ERR, false, 0 },
	};

	for (unsigned int i = 0; i < sizeof(pc) / sizeof(pc[0]); i++) {
		struct pcase c = pc[i];

		if (c.needs_atomic && in->d->attr.atomic_cap == IBV_ATOMIC_NONE) {
			tap_skip(in, c.what, "the device has no atomics");
			continue;
		}
		if (c.kind == P_CSWAP)	/* aligned + 4 */
			c.addr_delta = (long)((8 - in->s[S_T].addr % 8) % 8) + 4;
		if (c.addr_delta == -1)
			c.addr_delta = (long)(TLEN - in->mtu);
		if (c.kind == P_FADD)
			c.addr_delta = (long)((8 - in->s[c.slot].addr % 8) % 8);
		tap(in, prot_case(in, &c), "%s", c.what);
		if (c.child_qp)
			in->crc_up = false;
	}
}

/* Cases and plan: kept in step with the functions above. */
#define N_SIZES 15
int cases_count(void)
{
	return 1 + OP_NOPS * N_SIZES + 5 + OP_READ * N_UC_SIZES + 4 + 9 + 19 +
	       N_REREG + N_MW + N_IBA15;
}

static bool setup(struct ini *in)
{
	char r[128];
	char g[40];

	gid_to_str(&in->d->gid, g);
	if (!call(in, in->p, r, sizeof(r), "HELLO %s", g) ||
	    gid_from_str(&in->tgid, r + 3))
		return false;
	if (sscanf(r, "OK %*s %*u %15s", in->tmem) != 1)
		snprintf(in->tmem, sizeof(in->tmem), "host");
	printf("# target memory: %s\n", in->tmem);
	if (!call(in, in->ch, r, sizeof(r), "HELLO %s", g) ||
	    gid_from_str(&in->cgid, r + 3))
		return false;
	for (int b = 0; b < 3; b++) {
		in->lseed[b] = 0x100u + (uint32_t)b;
		if (posix_memalign((void **)&in->lb[b], 4096, LSIZE))
			return fail(in, "out of memory");
		pat_fill(in->lb[b], LSIZE, in->lseed[b], 0);
		in->lmr[b] = ibv_reg_mr(in->d->pd[0], in->lb[b], LSIZE,
					b == 2 ? IBV_ACCESS_REMOTE_READ : IBV_ACCESS_LOCAL_WRITE);
		if (!in->lmr[b])
			return fail(in, "local ibv_reg_mr: %m");
	}
	return tmr(in, in->p, S_T, &in->s[S_T], TLEN, 4096 + 3, ALL_ACCESS, 0) &&
	       tmr(in, in->p, S_RO, &in->s[S_RO], SMALL, 101, IBV_ACCESS_REMOTE_READ, 0) &&
	       tmr(in, in->p, S_WO, &in->s[S_WO], SMALL, 203,
		   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE, 0) &&
	       tmr(in, in->p, S_NA, &in->s[S_NA], SMALL, 64,
		   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ, 0) &&
	       tmr(in, in->p, S_PD1, &in->s[S_PD1], SMALL, 77, ALL_ACCESS, 1) &&
	       tmr(in, in->p, S_DEREG, &in->s[S_DEREG], SMALL, 33, ALL_ACCESS, 0) &&
	       call(in, in->p, NULL, 0, "DEREG %d", S_DEREG) &&
	       tmr(in, in->p, S_R, &in->s[S_R], TLEN, 4096 + 1, IBV_ACCESS_LOCAL_WRITE, 0) &&
	       tmr(in, in->ch, 0, &in->child, SMALL, 129, ALL_ACCESS, 0);
}

int cases_run(struct dev *d, struct ctl *parent, struct ctl *child)
{
	static struct ini in;
	size_t mtu = d->mtu;
	const size_t sizes[N_SIZES] = {
		0, 1, 2, 3, 17, 255, 256, mtu - 1, mtu, mtu + 1, 3 * mtu - 5,
		12345, 65536, 100001, 1u << 20 };

	in.d = d;
	in.p = parent;
	in.ch = child;
	in.mtu = d->mtu;
	in.sge = d->attr.max_sge < WVT_MAX_SGE ? d->attr.max_sge : WVT_MAX_SGE;
	tap_plan(cases_count());
	printf("# device %s, path MTU %u, max_sge %d, atomic_cap %d, max_msg_sz %u, gid index %d\n",
	       ibv_get_device_name(d->ctx->device), d->mtu, d->attr.max_sge,
	       d->attr.atomic_cap, d->port.max_msg_sz, d->gidx);
	if (!setup(&in)) {
		tap(&in, false, "setup: target MRs, local MRs");
		return 1;
	}
	tap(&in, true, "setup: target MRs (full, read-only, write-only, no-atomic, other PD, deregistered, other process), local MRs");
	rc_integrity(&in, sizes, N_SIZES);
	rc_inline(&in);
	uc_integrity(&in);
	atomics(&in);
	ud_integrity(&in);
	protection(&in);
	rereg_cases(&in);
	mw_cases(&in);
	iba15_cases(&in);
	conn_destroy(&in.rc);
	conn_destroy(&in.ud);
	conn_destroy(&in.crc);
	conn_destroy(&in.uc);
	ctl_call(parent, in.why, sizeof(in.why), "BYE");
	ctl_call(child, in.why, sizeof(in.why), "BYE");
	for (int b = 0; b < 3; b++) {
		if (in.lmr[b])
			ibv_dereg_mr(in.lmr[b]);
		free(in.lb[b]);
	}
	printf("# %d of %d cases failed\n", in.failed, in.n);
	return in.failed ? 1 : 0;
}
