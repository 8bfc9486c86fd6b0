// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What every initiator case file (cases.c, rereg.c) uses: TAP lines with
 * their reasons, commands to the target, its MRs and QPs, and the local
 * buffers' fill, check and SGEs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cases.h"

/* The program's TAP counters (kselftest.h, selftests/lib/tap.h) live here. */
#define TAP_IMPLEMENTATION
#include "tap.h"

void tap(struct ini *in, bool ok, const char *fmt, ...)
{
	va_list ap;

	in->n++;
	va_start(ap, fmt);
	tap_vok(ok, fmt, ap);
	va_end(ap);
	if (!ok) {
		in->failed++;
		tap_diag("%s", in->why);
	}
	in->why[0] = 0;
}

void tap_skip(struct ini *in, const char *what, const char *reason)
{
	in->n++;
	tap_skipped(reason, "%s", what);
	in->why[0] = 0;
}

/* Reasons add up: the first (a wrong completion, say) is often the one
 * that explains the next (the memory check that follows it). */
bool fail(struct ini *in, const char *fmt, ...)
{
	size_t n = strlen(in->why);
	va_list ap;

	if (n) {
		if (n + 3 >= sizeof(in->why))
			return false;
		memcpy(in->why + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(in->why + n, sizeof(in->why) - n, fmt, ap);
	va_end(ap);
	return false;
}

/* A command to a target that must answer OK. */
bool call(struct ini *in, struct ctl *c, char *reply, size_t n,
		 const char *fmt, ...)
{
	char cmd[512], r[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (!reply) {
		reply = r;
		n = sizeof(r);
	}
	if (ctl_call(c, reply, n, "%s", cmd) || strncmp(reply, "OK", 2))
		return fail(in, "target: %s -> %s", cmd, reply);
	return true;
}

bool tmr(struct ini *in, struct ctl *c, int slot, struct rmr *m,
		size_t len, size_t off, int access, int pd)
{
	char r[128];

	m->seed = 0x200u + (uint32_t)slot + (c == in->ch ? 0x80u : 0u);
	m->len = len;
	m->off = off;
	if (!call(in, c, r, sizeof(r), "MR %d %zu %zu %d %d %u", slot, len, off,
		  access, pd, m->seed))
		return false;
	return sscanf(r, "OK %" SCNu64 " %u", &m->addr, &m->rkey) == 2 ||
	       fail(in, "bad MR answer %s", r);
}

bool pair_pd(struct ini *in, struct ctl *c, struct conn *cn, int id,
	     enum ibv_qp_type t, const union ibv_gid *gid, int pd)
{
	return pair_ops(in, c, cn, id, t, gid, pd, 0);
}

bool pair_ops(struct ini *in, struct ctl *c, struct conn *cn, int id,
	      enum ibv_qp_type t, const union ibv_gid *gid, int pd,
	      uint64_t send_ops)
{
	char r[128];
	unsigned int qpn, psn;

	conn_destroy(cn);
	if (conn_create_ops(in->d, cn, t, 0, 16, send_ops))
		return fail(in, "cannot create the local QP: %s",
			    strerror(errno));
	if (!call(in, c, r, sizeof(r), "QP %d %s %d %u %u", id,
		  t == IBV_QPT_UD ? "UD" : t == IBV_QPT_UC ? "UC" : "RC", pd,
		  cn->qp->qp_num, cn->psn))
		return false;
	if (sscanf(r, "OK %u %u", &qpn, &psn) != 2 ||
	    conn_connect(in->d, cn, qpn, psn, gid))
		return fail(in, "cannot connect to the target's QP");
	return true;
}

/* Local buffers: pattern everywhere; a message's pieces get @seed's stream. */
void pieces_fill(struct ini *in, const struct layout *l, uint32_t seed)
{
	for (int i = 0; i < l->n; i++)
		pat_fill(in->lb[l->mr[i]] + l->off[i], l->len[i], seed, l->start[i]);
}

/* Both local buffers around @l: the pieces hold stream @seed from @pos0
 * (unless @seed is 0: unchanged), the rest the buffers' own pattern.
 * Refills what it looked at. */
bool local_verify(struct ini *in, const struct layout *l,
			 uint32_t seed, uint64_t pos0)
{
	bool ok = true;

	for (int b = 0; b < 2; b++) {
		size_t end = layout_end(l, b) + 256, pos = 0;

		if (end > LSIZE)
			end = LSIZE;
		for (int i = 0; i <= l->n && ok; i++) {
			size_t stop = end;
			long k;

			if (i < l->n && l->mr[i] != b)
				continue;
			if (i < l->n)
				stop = l->off[i];
			k = pat_diff(in->lb[b] + pos, stop - pos, in->lseed[b], pos);
			if (k >= 0) {
				ok = fail(in, "local buffer %d byte %zu changed", b, pos + (size_t)k);
				break;
			}
			if (i == l->n)
				break;
			if (seed) {
				k = pat_diff(in->lb[b] + l->off[i], l->len[i], seed,
					     pos0 + l->start[i]);
				if (k >= 0) {
					ok = fail(in, "byte %zu of the message is 0x%02x, want 0x%02x",
						  l->start[i] + (size_t)k,
						  in->lb[b][l->off[i] + (size_t)k],
						  pat_byte(seed, pos0 + l->start[i] + (size_t)k));
					break;
				}
			} else {
				k = pat_diff(in->lb[b] + l->off[i], l->len[i], in->lseed[b], l->off[i]);
				if (k >= 0) {
					ok = fail(in, "local buffer %d byte %zu changed", b, l->off[i] + (size_t)k);
					break;
				}
			}
			pos = l->off[i] + l->len[i];
		}
		pat_fill(in->lb[b], end, in->lseed[b], 0);
	}
	return ok;
}

void sges(struct ini *in, const struct layout *l, struct ibv_sge *sg,
		 int lmr)
{
	for (int i = 0; i < l->n; i++) {
		int b = lmr >= 0 ? lmr : l->mr[i];

		sg[i].addr = (uintptr_t)(in->lb[b] + l->off[i]);
		sg[i].length = (uint32_t)l->len[i];
		sg[i].lkey = in->lmr[b]->lkey;
	}
}

bool slot_xfer(struct ini *in, struct conn *cn, int slot, bool read,
	       uint32_t rkey, size_t roff, size_t len,
	       enum ibv_wc_status want, uint32_t seed)
{
	struct rmr *m = &in->s[slot];
	struct ibv_sge sg[WVT_MAX_SGE];
	struct ibv_send_wr wr = { 0 };
	struct layout l;
	bool ok;

	layout_make(&l, len, in->sge < 2 ? in->sge : 2, 11, 1);
	if (!read)
		pieces_fill(in, &l, seed);
	sges(in, &l, sg, 0);
	wr.opcode = read ? IBV_WR_RDMA_READ : IBV_WR_RDMA_WRITE;
	wr.sg_list = sg;
	wr.num_sge = l.n;
	wr.wr.rdma.remote_addr = m->addr + roff;
	wr.wr.rdma.rkey = rkey;
	ok = post_wait(in, cn, &wr, want,
		       read ? IBV_WC_RDMA_READ : IBV_WC_RDMA_WRITE);
	if (!read && want == IBV_WC_SUCCESS)
		ok = call(in, in->p, NULL, 0, "CHECK %d %zu %zu %u", slot, roff,
			  len, seed) && ok;
	else
		ok = call(in, in->p, NULL, 0, "CHECK %d 0 0 0", slot) && ok;
	if (read && want == IBV_WC_SUCCESS)
		ok = local_verify(in, &l, m->seed, m->off + roff) && ok;
	else
		ok = local_verify(in, &l, read ? 0 : seed, 0) && ok;
	return ok;
}

/* Post one WR on @cn and wait for its completion with @want status. */
bool post_wait(struct ini *in, struct conn *cn, struct ibv_send_wr *wr,
		      enum ibv_wc_status want, enum ibv_wc_opcode wop)
{
	struct ibv_send_wr *bad;
	int err;

	wr->send_flags |= IBV_SEND_SIGNALED;
	err = ibv_post_send(cn->qp, wr, &bad);
	/* A provider may refuse a malformed WR when it is posted. */
	if (err && want == IBV_WC_REM_INV_REQ_ERR && err == EINVAL &&
	    wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP)
		return true;
	if (err)
		return fail(in, "ibv_post_send: %s", strerror(err));
	return wait_send(in, cn, want, wop);
}

bool wait_send(struct ini *in, struct conn *cn, enum ibv_wc_status want,
	       enum ibv_wc_opcode wop)
{
	struct ibv_wc wc;

	if (poll_one(cn->scq, &wc, WAIT_MS))
		return fail(in, "no send completion within %d ms", WAIT_MS);
	if (wc.status != want)
		return fail(in, "completion status %s (vendor_err 0x%x), want %s",
			    ibv_wc_status_str(wc.status), wc.vendor_err,
			    ibv_wc_status_str(want));
	if (want == IBV_WC_SUCCESS && wc.opcode != wop)
		return fail(in, "completion opcode %d, want %d", wc.opcode, wop);
	return true;
}
