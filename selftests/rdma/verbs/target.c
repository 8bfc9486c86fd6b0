// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The target: owns the memory the initiator writes, reads and attacks,
 * and judges it.  Every buffer ("slot") is filled with its own pattern,
 * guard bytes before and after the MR included; after each case the whole
 * buffer is compared byte for byte with what the case may have changed
 * and nothing else, then refilled.  Commands, one line each, answered
 * with "OK ..." or "BAD <why>":
 *
 *   HELLO <gid>                          -> OK <gid> <mtu> <memory>
 *   MR <slot> <len> <off> <access> <pd> <seed>  -> OK <addr> <rkey>, or
 *                                        REFUSED <why> for a FLUSH right
 *                                        this kernel or memory cannot have
 *   DEREG <slot>
 *   REREG <slot> <flags> <access> <pd>   ibv_rereg_mr; OK <lkey> <rkey> only
 *                                        if it returned 0 and kept the keys,
 *                                        REFUSED <why> if it failed
 *   QP <id> RC|UD <pd> <peer_qpn> <peer_psn>    -> OK <qpn> <psn>
 *   DESTROY <id>
 *   RECV <id> <slot> <off> <cap> <nsge>  post one receive, scattered
 *   WAITRECV <id> <len> <seed> <imm|-> <status> <opcode>
 *                                        its completion and its data
 *   CHECK <slot> <off> <len> <seed>      [off, off+len) of the MR holds
 *                                        stream <seed>, all else unchanged
 *   CHECK8 <slot> <off> <value>          8 bytes hold value, all else unchanged
 *   DEVCAP                               -> OK <vendor_id> <device_cap_flags_ex>
 *
 * Memory windows (one at a time; REFUSED <why> where the device has none):
 *
 *   MWCAP                                -> OK <max_mw> <vendor_id>
 *   MW <slot> <type> <id> <off> <len> <access>
 *                                        bind a window of type 1 (ibv_bind_mw)
 *                                        or 2 (IBV_WR_BIND_MW, ibv_inc_rkey)
 *                                        to [off, off+len) of the slot's MR
 *                                        (registered with IBV_ACCESS_MW_BIND)
 *                                        on QP <id>; allocated in the MR's PD
 *                                        unless one of that type is there;
 *                                        a bound type 2 one must go first
 *                                        -> OK <rkey>, after its completion
 *   MWINV <id>                           LOCAL_INV of the bound type 2
 *                                        window's key on QP <id>, completed
 *   MWFREE                               ibv_dealloc_mw, bound or not
 *   MWDEREG <slot>                       ibv_dereg_mr of the MR the window is
 *                                        bound to: it must fail, the MR stays
 *                                        -> OK <ret> <errno>
 *   WAITRECV ... inv:<rkey> ...          in place of <imm|->: a receive that
 *                                        completed with IBV_WC_WITH_INV and
 *                                        invalidated_rkey <rkey>
 *   BYE
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wvt.h"

#define GUARD 4096

struct slot {
	struct mem m;		/* --mem: host or GPU memory */
	uint8_t *alloc, *buf;	/* m.ptr, and the MR's start in it */
	size_t alloc_len, off, len;
	struct ibv_mr *mr;
	uint32_t seed;
};

struct tqp {
	struct conn c;
	struct layout rl;	/* the receive posted last */
	int rslot;
	size_t rbase;
};

/* An expected region of a slot, in allocation offsets. */
struct region {
	size_t pos, len;
	bool skip;		/* contents unspecified (GRH, partial data) */
	uint32_t seed;
	uint64_t spos;		/* stream position of its first byte */
};

/* The memory window of the MW commands. */
struct twin {
	struct ibv_mw *mw;
	bool bound;
	int slot;		/* bound: the slot whose MR it is bound to */
	int qp;			/* bound, type 2: the QP it is bound to */
};

struct target {
	struct dev *d;
	union ibv_gid peer_gid;
	struct slot s[WVT_MAX_SLOTS];
	struct tqp q[WVT_MAX_QPS];
	struct twin w;
};

static int cmp_region(const void *a, const void *b)
{
	const struct region *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Compare a whole slot with @n regions (all else: the slot's pattern),
 * describe the first difference in @why, refill the slot. */
static int slot_verify(struct slot *s, struct region *r, int n, char *why,
		       size_t wn)
{
	size_t pos = 0;
	long bad = -1;
	int rc = 0;

	qsort(r, (size_t)n, sizeof(*r), cmp_region);
	for (int i = 0; i <= n && bad < 0; i++) {
		size_t end = i < n ? r[i].pos : s->alloc_len;

		if (end > s->alloc_len)
			end = s->alloc_len;
		if (end > pos) {
			long k = pat_diff(s->alloc + pos, end - pos, s->seed, pos);

			if (k >= 0) {
				bad = (long)pos + k;
				snprintf(why, wn, "byte at MR offset %ld changed: 0x%02x, was 0x%02x",
					 bad - (long)s->off, s->alloc[bad],
					 pat_byte(s->seed, (uint64_t)bad));
				break;
			}
		}
		if (i == n)
			break;
		pos = r[i].pos > pos ? r[i].pos : pos;
		if (!r[i].skip) {
			long k = pat_diff(s->alloc + r[i].pos, r[i].len,
					  r[i].seed, r[i].spos);

			if (k >= 0) {
				bad = (long)r[i].pos + k;
				snprintf(why, wn, "byte at MR offset %ld (message byte %" PRIu64 ") is 0x%02x, sent 0x%02x",
					 bad - (long)s->off, r[i].spos + (uint64_t)k,
					 s->alloc[bad], pat_byte(r[i].seed, r[i].spos + (uint64_t)k));
				break;
			}
		}
		pos = r[i].pos + r[i].len;
	}
	if (bad >= 0)
		rc = -1;
	pat_fill(s->alloc, s->alloc_len, s->seed, 0);
	return rc;
}

static struct slot *get_slot(struct target *t, int i)
{
	if (i < 0 || i >= WVT_MAX_SLOTS || !t->s[i].alloc)
		return NULL;
	return &t->s[i];
}

static struct tqp *get_qp(struct target *t, int i)
{
	if (i < 0 || i >= WVT_MAX_QPS || !t->q[i].c.qp)
		return NULL;
	return &t->q[i];
}

/*
 * Memory windows.  The window goes before what it holds: rdma_rxe (6.1)
 * keeps a reference on the QP a type 2 window is bound to, and destroying
 * that QP then waits 50 s for it and warns; and an MR with a bound window
 * cannot be deregistered.  So a QP or MR slot that is replaced, and
 * everything at the end, takes the window with it first.
 */
static void mw_drop(struct target *t, const char *why)
{
	if (!t->w.mw)
		return;
	if (why)
		fprintf(stderr, "wvt target: memory window deallocated first: %s\n", why);
	ibv_dealloc_mw(t->w.mw);
	memset(&t->w, 0, sizeof(t->w));
}

static bool mw_errno_unsupported(int err)
{
	return err == EOPNOTSUPP || err == ENOSYS || err == EPROTONOSUPPORT;
}

/* What the initiator needs to know of this side for iba15.c's cases. */
static int cmd_devcap(struct target *t, char *out, size_t on)
{
	snprintf(out, on, "OK %u %" PRIu64, t->d->attr.vendor_id, t->d->cap_ex);
	return 0;
}

static int cmd_mwcap(struct target *t, char *out, size_t on)
{
	if (t->d->attr.max_mw <= 0)
		return snprintf(out, on, "REFUSED the device has no memory windows (max_mw 0)"), -1;
	/* ib_core's REG_DMABUF_MR method masks the access flags it takes to
	 * local/remote write, remote read and atomic, relaxed ordering.
	 */
	if (mem_kind() == MEM_GPU_DMABUF)
		return snprintf(out, on, "REFUSED ibv_reg_dmabuf_mr takes no IBV_ACCESS_MW_BIND (ib_core's access mask for dma-buf MRs)"), -1;
	snprintf(out, on, "OK %d %u", t->d->attr.max_mw, t->d->attr.vendor_id);
	return 0;
}

static int cmd_mw(struct target *t, const char *a, char *out, size_t on)
{
	struct ibv_send_wr wr = { 0 }, *bad;
	struct ibv_mw_bind_info bi;
	int si, type, id, err;
	unsigned int access;
	uint32_t old, key;
	size_t off, len;
	struct ibv_wc wc;
	struct slot *s;
	struct tqp *q;

	if (sscanf(a, "%d %d %d %zu %zu %u", &si, &type, &id, &off, &len, &access) != 6 ||
	    !(s = get_slot(t, si)) || !s->mr || !(q = get_qp(t, id)) ||
	    (type != 1 && type != 2))
		return snprintf(out, on, "BAD usage"), -1;
	if (t->d->attr.max_mw <= 0)
		return snprintf(out, on, "REFUSED the device has no memory windows (max_mw 0)"), -1;
	if (t->w.mw && (t->w.mw->type != (type == 1 ? IBV_MW_TYPE_1 : IBV_MW_TYPE_2) ||
			t->w.mw->pd != s->mr->pd))
		mw_drop(t, NULL);
	/* Type 2: bound only while unbound (a failed bind would take the
	 * QP down; rxe and Wren both refuse it). */
	if (t->w.mw && t->w.bound && type == 2)
		return snprintf(out, on, "BAD the type 2 window is bound: MWINV or MWFREE first"), -1;
	if (!t->w.mw) {
		errno = 0;
		t->w.mw = ibv_alloc_mw(s->mr->pd, type == 1 ? IBV_MW_TYPE_1 : IBV_MW_TYPE_2);
		if (!t->w.mw) {
			err = errno;
			memset(&t->w, 0, sizeof(t->w));
			return snprintf(out, on, "%s ibv_alloc_mw(type %d): %s",
					mw_errno_unsupported(err) ? "REFUSED" : "BAD",
					type, strerror(err)), -1;
		}
	}
	old = t->w.mw->rkey;
	bi = (struct ibv_mw_bind_info){ .mr = s->mr, .addr = (uintptr_t)(s->buf + off),
					.length = len, .mw_access_flags = access };
	if (type == 1) {
		struct ibv_mw_bind mb = { .wr_id = 0xb1, .send_flags = IBV_SEND_SIGNALED,
					  .bind_info = bi };

		err = ibv_bind_mw(q->c.qp, t->w.mw, &mb);
		if (err)
			return snprintf(out, on, "%s ibv_bind_mw: %s",
					mw_errno_unsupported(err) ? "REFUSED" : "BAD",
					strerror(err)), -1;
		key = t->w.mw->rkey;
	} else {
		key = ibv_inc_rkey(old);
		wr.wr_id = 0xb2;
		wr.opcode = IBV_WR_BIND_MW;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.bind_mw.mw = t->w.mw;
		wr.bind_mw.rkey = key;
		wr.bind_mw.bind_info = bi;
		err = ibv_post_send(q->c.qp, &wr, &bad);
		if (err)
			return snprintf(out, on, "%s ibv_post_send(IBV_WR_BIND_MW): %s",
					mw_errno_unsupported(err) ? "REFUSED" : "BAD",
					strerror(err)), -1;
	}
	if (poll_one(q->c.scq, &wc, 20000)) {
		mw_drop(t, "its bind did not complete");
		return snprintf(out, on, "BAD no bind completion within 20 s"), -1;
	}
	if (wc.status != IBV_WC_SUCCESS || wc.opcode != IBV_WC_BIND_MW) {
		/* ibv_bind_mw moved the key at the post: ours to undo. */
		if (type == 1)
			t->w.mw->rkey = old;
		return snprintf(out, on, "BAD bind completion %s (vendor_err 0x%x), opcode %d",
				ibv_wc_status_str(wc.status), wc.vendor_err, wc.opcode), -1;
	}
	/* Type 2: ibv_mw.rkey is the application's to keep; rxe checks it at
	 * the next bind. */
	if (type == 2)
		t->w.mw->rkey = key;
	t->w.bound = true;
	t->w.slot = si;
	t->w.qp = id;
	if (key == old)
		return snprintf(out, on, "BAD the key stayed 0x%x", key), -1;
	snprintf(out, on, "OK %u", key);
	return 0;
}

/* rdma_rxe (6.1) must not be asked to invalidate a type 2 window that is
 * not bound: it drops a reference on the QP the window does not have. */
static int cmd_mwinv(struct target *t, const char *a, char *out, size_t on)
{
	struct ibv_send_wr wr = { 0 }, *bad;
	struct ibv_wc wc;
	struct tqp *q;
	int id, err;

	if (sscanf(a, "%d", &id) != 1 || !(q = get_qp(t, id)))
		return snprintf(out, on, "BAD usage"), -1;
	if (!t->w.mw || !t->w.bound || t->w.mw->type != IBV_MW_TYPE_2)
		return snprintf(out, on, "BAD no bound type 2 window"), -1;
	wr.wr_id = 0x1b;
	wr.opcode = IBV_WR_LOCAL_INV;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.invalidate_rkey = t->w.mw->rkey;
	err = ibv_post_send(q->c.qp, &wr, &bad);
	if (err)
		return snprintf(out, on, "BAD ibv_post_send(IBV_WR_LOCAL_INV): %s",
				strerror(err)), -1;
	if (poll_one(q->c.scq, &wc, 20000))
		return snprintf(out, on, "BAD no LOCAL_INV completion within 20 s"), -1;
	if (wc.status != IBV_WC_SUCCESS || wc.opcode != IBV_WC_LOCAL_INV)
		return snprintf(out, on, "BAD LOCAL_INV completion %s (vendor_err 0x%x), opcode %d",
				ibv_wc_status_str(wc.status), wc.vendor_err, wc.opcode), -1;
	t->w.bound = false;
	snprintf(out, on, "OK");
	return 0;
}

static int cmd_mwdereg(struct target *t, const char *a, char *out, size_t on)
{
	struct slot *s;
	int si, ret, err;

	if (sscanf(a, "%d", &si) != 1 || !(s = get_slot(t, si)) || !s->mr)
		return snprintf(out, on, "BAD usage"), -1;
	if (!t->w.mw || !t->w.bound || t->w.slot != si)
		return snprintf(out, on, "BAD no window is bound to the slot's MR"), -1;
	errno = 0;
	ret = ibv_dereg_mr(s->mr);
	err = errno;
	if (!ret) {
		s->mr = NULL;
		return snprintf(out, on, "BAD ibv_dereg_mr of an MR with a bound window succeeded"), -1;
	}
	snprintf(out, on, "OK %d %d %s", ret, err, strerror(ret > 0 ? ret : err));
	return 0;
}

static int cmd_mr(struct target *t, const char *a, char *out, size_t on)
{
	int i, pd;
	size_t len, off;
	unsigned int access, seed;
	struct slot *s;

	if (sscanf(a, "%d %zu %zu %u %d %u", &i, &len, &off, &access, &pd, &seed) != 6 ||
	    i < 0 || i >= WVT_MAX_SLOTS || pd < 0 || pd > 1 || !len)
		return snprintf(out, on, "BAD usage"), -1;
	s = &t->s[i];
	if (t->w.bound && t->w.slot == i)
		mw_drop(t, "its MR's slot is registered again");
	if (s->mr)
		ibv_dereg_mr(s->mr);
	mem_free(&s->m);
	memset(s, 0, sizeof(*s));
	s->alloc_len = off + len + GUARD;
	if (mem_alloc(&s->m, s->alloc_len))
		return snprintf(out, on, "BAD out of %s memory", mem_name()), -1;
	s->alloc = s->m.ptr;
	s->off = off;
	s->len = len;
	s->buf = s->alloc + off;
	s->seed = seed;
	pat_fill(s->alloc, s->alloc_len, seed, 0);
	s->mr = mem_reg(&s->m, t->d->pd[pd], off, len, (int)access);
	/*
	 * The FLUSH right is the kernel's to give (6.2 and later, where the
	 * device has FLUSH), and ib_core's dma-buf method masks it out: a
	 * refusal to skip on, not a failure.
	 */
	if (!s->mr && (errno == EINVAL || errno == EOPNOTSUPP) &&
	    (access & (IBV_ACCESS_FLUSH_GLOBAL | IBV_ACCESS_FLUSH_PERSISTENT)))
		return snprintf(out, on, "REFUSED %s with a FLUSH right: %m",
				mem_kind() == MEM_GPU_DMABUF ?
				"ibv_reg_dmabuf_mr" : "ibv_reg_mr"), -1;
	if (!s->mr)
		return snprintf(out, on, "BAD %s: %m", mem_kind() == MEM_GPU_DMABUF ?
				"ibv_reg_dmabuf_mr" : "ibv_reg_mr"), -1;
	snprintf(out, on, "OK %" PRIu64 " %u", (uint64_t)(uintptr_t)s->buf,
		 s->mr->rkey);
	return 0;
}

/*
 * A new PD or new access rights for a slot's MR.  The keys must stay (the
 * initiator goes on using the rkey it was given), and so must the range;
 * ibv_mr.pd follows a new PD.
 */
static int cmd_rereg(struct target *t, const char *a, char *out, size_t on)
{
	int si, flags, access, pd, ret;
	uint32_t lkey, rkey;
	struct ibv_mr *mr;
	struct slot *s;

	if (sscanf(a, "%d %d %d %d", &si, &flags, &access, &pd) != 4 ||
	    !(s = get_slot(t, si)) || !s->mr || pd < 0 || pd > 1 ||
	    (flags & IBV_REREG_MR_CHANGE_TRANSLATION))
		return snprintf(out, on, "BAD usage"), -1;
	mr = s->mr;
	lkey = mr->lkey;
	rkey = mr->rkey;
	errno = 0;
	ret = ibv_rereg_mr(mr, flags, t->d->pd[pd], NULL, 0, access);
	/* A refusal is the initiator's to judge (GPU MRs must be refused). */
	if (ret)
		return snprintf(out, on, "REFUSED ibv_rereg_mr returned %d, errno %d (%s)",
				ret, errno, strerror(errno)), -1;
	if (mr->lkey != lkey || mr->rkey != rkey)
		return snprintf(out, on, "BAD keys changed: lkey 0x%x -> 0x%x, rkey 0x%x -> 0x%x",
				lkey, mr->lkey, rkey, mr->rkey), -1;
	if (mr->addr != s->buf || mr->length != s->len)
		return snprintf(out, on, "BAD range changed: %p+%zu, registered %p+%zu",
				mr->addr, mr->length, (void *)s->buf, s->len), -1;
	if ((flags & IBV_REREG_MR_CHANGE_PD) && mr->pd != t->d->pd[pd])
		return snprintf(out, on, "BAD ibv_mr.pd is not the new PD"), -1;
	snprintf(out, on, "OK %u %u", mr->lkey, mr->rkey);
	return 0;
}

static int cmd_qp(struct target *t, const char *a, char *out, size_t on)
{
	char type[8];
	int id, pd;
	unsigned int qpn, psn;
	struct tqp *q;

	if (sscanf(a, "%d %7s %d %u %u", &id, type, &pd, &qpn, &psn) != 5 ||
	    id < 0 || id >= WVT_MAX_QPS || pd < 0 || pd > 1)
		return snprintf(out, on, "BAD usage"), -1;
	q = &t->q[id];
	if (t->w.bound && t->w.qp == id && t->w.mw->type == IBV_MW_TYPE_2)
		mw_drop(t, "the QP it is bound to is replaced");
	conn_destroy(&q->c);
	if (conn_create(t->d, &q->c, !strcmp(type, "UD") ? IBV_QPT_UD :
			!strcmp(type, "UC") ? IBV_QPT_UC : IBV_QPT_RC, pd, 16) ||
	    conn_connect(t->d, &q->c, qpn, psn, &t->peer_gid))
		return snprintf(out, on, "BAD cannot create/connect the QP"), -1;
	snprintf(out, on, "OK %u %u", q->c.qp->qp_num, q->c.psn);
	return 0;
}

static int cmd_recv(struct target *t, const char *a, char *out, size_t on)
{
	int id, si, nsge;
	size_t off, cap;
	struct ibv_sge sge[WVT_MAX_SGE];
	struct ibv_recv_wr wr = { 0 }, *bad;
	struct slot *s;
	struct tqp *q;

	if (sscanf(a, "%d %d %zu %zu %d", &id, &si, &off, &cap, &nsge) != 5 ||
	    !(q = get_qp(t, id)) || !(s = get_slot(t, si)))
		return snprintf(out, on, "BAD usage"), -1;
	if (q->c.type == IBV_QPT_UD)
		cap += WVT_GRH;
	if (nsge > (int)t->d->attr.max_sge)
		nsge = t->d->attr.max_sge;
	layout_make(&q->rl, nsge ? cap : 0, nsge, off, 1);
	if (layout_end(&q->rl, 0) > s->len)
		return snprintf(out, on, "BAD receive does not fit the MR"), -1;
	q->rslot = si;
	q->rbase = off;
	for (int i = 0; i < q->rl.n; i++) {
		sge[i].addr = (uintptr_t)(s->buf + q->rl.off[i]);
		sge[i].length = (uint32_t)q->rl.len[i];
		sge[i].lkey = s->mr->lkey;
	}
	wr.wr_id = 1;
	wr.sg_list = sge;
	wr.num_sge = q->rl.n;
	int err = ibv_post_recv(q->c.qp, &wr, &bad);

	if (err)
		return snprintf(out, on, "BAD ibv_post_recv: %s", strerror(err)), -1;
	snprintf(out, on, "OK");
	return 0;
}

/* The regions a received message of @len bytes (@grh: after a GRH area)
 * occupies in the pieces of @l, in allocation offsets. */
static int recv_regions(const struct slot *s, const struct layout *l,
			size_t len, size_t grh, uint32_t seed, bool partial,
			struct region *r)
{
	int n = 0;

	for (int i = 0; i < l->n; i++) {
		size_t a = l->start[i], b = a + l->len[i];
		size_t cut[3] = { grh, grh + len, b };
		size_t p = a;

		for (int k = 0; k < 3 && p < b; k++) {
			size_t e = cut[k] < p ? p : (cut[k] > b ? b : cut[k]);

			if (e == p)
				continue;
			if (k == 0 || partial)		/* GRH, or an errored receive */
				r[n++] = (struct region){ s->off + l->off[i] + (p - a), e - p, true, 0, 0 };
			else if (k == 1)
				r[n++] = (struct region){ s->off + l->off[i] + (p - a), e - p,
							 false, seed, p - grh };
			/* k == 2: beyond the message, unchanged */
			p = e;
		}
	}
	return n;
}

static int cmd_waitrecv(struct target *t, const char *a, char *out, size_t on)
{
	int id, status, opcode;
	size_t len;
	unsigned int seed;
	char imm[16];
	struct ibv_wc wc;
	struct region r[3 * WVT_MAX_SGE];
	struct tqp *q;
	struct slot *s;
	size_t grh;
	char why[256], invbad[192] = "";
	bool inv;
	int n;

	if (sscanf(a, "%d %zu %u %15s %d %d", &id, &len, &seed, imm, &status, &opcode) != 6 ||
	    !(q = get_qp(t, id)) || !(s = get_slot(t, q->rslot)))
		return snprintf(out, on, "BAD usage"), -1;
	inv = !strncmp(imm, "inv:", 4);
	grh = q->c.type == IBV_QPT_UD ? WVT_GRH : 0;
	if (poll_one(q->c.rcq, &wc, 20000))
		return snprintf(out, on, "BAD no receive completion within 20 s"), -1;
	if ((int)wc.status != status)
		return snprintf(out, on, "BAD receive status %s, want %s",
				ibv_wc_status_str(wc.status),
				ibv_wc_status_str((enum ibv_wc_status)status)), -1;
	if (wc.status == IBV_WC_SUCCESS) {
		if ((int)wc.opcode != opcode)
			return snprintf(out, on, "BAD receive opcode %d, want %d", wc.opcode, opcode), -1;
		if (wc.byte_len != len + grh)
			return snprintf(out, on, "BAD byte_len %u, want %zu", wc.byte_len, len + grh), -1;
		if (inv) {
			uint32_t want = (uint32_t)strtoul(imm + 4, NULL, 0);

			/* A successful receive of a SEND_WITH_INV has unbound
			 * the window it names (whatever its flags say). */
			if (t->w.bound && t->w.mw->type == IBV_MW_TYPE_2 &&
			    wc.invalidated_rkey == t->w.mw->rkey)
				t->w.bound = false;
			/* Judged after the data, which are checked anyway. */
			if (!(wc.wc_flags & IBV_WC_WITH_INV) ||
			    (wc.wc_flags & IBV_WC_WITH_IMM) || wc.invalidated_rkey != want)
				snprintf(invbad, sizeof(invbad), "receive of a SEND_WITH_INV: wc_flags 0x%x, invalidated_rkey 0x%x; want IBV_WC_WITH_INV (0x%x) and 0x%x",
					 wc.wc_flags, wc.invalidated_rkey,
					 IBV_WC_WITH_INV, want);
		} else if (strcmp(imm, "-") ? !(wc.wc_flags & IBV_WC_WITH_IMM) ||
		    wc.imm_data != htobe32((uint32_t)strtoul(imm, NULL, 0)) :
		    !!(wc.wc_flags & IBV_WC_WITH_IMM))
			return snprintf(out, on, "BAD immediate: flags 0x%x, imm 0x%x, want %s",
					wc.wc_flags, be32toh(wc.imm_data), imm), -1;
		if (q->c.type == IBV_QPT_UD && wc.src_qp != q->c.peer_qpn)
			return snprintf(out, on, "BAD src_qp %u, want %u", wc.src_qp, q->c.peer_qpn), -1;
	}
	/* WRITE with immediate: the data went by RETH, CHECK judges it. */
	if (opcode == IBV_WC_RECV_RDMA_WITH_IMM && wc.status == IBV_WC_SUCCESS)
		return snprintf(out, on, "OK"), 0;
	n = recv_regions(s, &q->rl, len, grh, seed, wc.status != IBV_WC_SUCCESS, r);
	if (slot_verify(s, r, n, why, sizeof(why)))
		return snprintf(out, on, "BAD %s%s%s", invbad, invbad[0] ? "; " : "", why), -1;
	if (invbad[0])
		return snprintf(out, on, "BAD %s", invbad), -1;
	snprintf(out, on, "OK");
	return 0;
}

static int cmd_check(struct target *t, const char *a, bool eight, char *out,
		     size_t on)
{
	int si;
	size_t off, len = 8;
	unsigned int seed = 0;
	uint64_t v = 0;
	struct region r;
	struct slot *s;
	char why[256];
	int n;

	if ((eight ? sscanf(a, "%d %zu %" SCNu64, &si, &off, &v) != 3 :
		     sscanf(a, "%d %zu %zu %u", &si, &off, &len, &seed) != 4) ||
	    !(s = get_slot(t, si)))
		return snprintf(out, on, "BAD usage"), -1;
	if (eight) {
		uint64_t cur;

		memcpy(&cur, s->buf + off, 8);
		if (cur != v) {
			snprintf(out, on, "BAD 8 bytes at MR offset %zu hold 0x%" PRIx64 ", want 0x%" PRIx64,
				 off, cur, v);
			pat_fill(s->alloc, s->alloc_len, s->seed, 0);
			return -1;
		}
		r = (struct region){ s->off + off, 8, true, 0, 0 };
	} else {
		r = (struct region){ s->off + off, len, false, seed, 0 };
	}
	n = len ? 1 : 0;
	if (slot_verify(s, &r, n, why, sizeof(why)))
		return snprintf(out, on, "BAD %s", why), -1;
	snprintf(out, on, "OK");
	return 0;
}

int target_run(struct dev *d, struct ctl *c)
{
	static struct target t;
	char line[1024], out[512];
	int fails = 0;

	t.d = d;
	while (!ctl_recv(c, line, sizeof(line))) {
		char *arg = strchr(line, ' ');
		int id;

		arg = arg ? arg + 1 : line + strlen(line);
		out[0] = 0;
		if (!strncmp(line, "HELLO ", 6)) {
			char g[40];

			gid_from_str(&t.peer_gid, arg);
			gid_to_str(&d->gid, g);
			snprintf(out, sizeof(out), "OK %s %u %s", g, d->mtu, mem_name());
		} else if (!strncmp(line, "MR ", 3)) {
			cmd_mr(&t, arg, out, sizeof(out));
		} else if (!strncmp(line, "DEREG ", 6)) {
			struct slot *s = get_slot(&t, atoi(arg));

			if (s && s->mr && !ibv_dereg_mr(s->mr)) {
				s->mr = NULL;
				snprintf(out, sizeof(out), "OK");
			} else {
				snprintf(out, sizeof(out), "BAD dereg");
			}
		} else if (!strncmp(line, "REREG ", 6)) {
			cmd_rereg(&t, arg, out, sizeof(out));
		} else if (!strncmp(line, "QP ", 3)) {
			cmd_qp(&t, arg, out, sizeof(out));
		} else if (!strncmp(line, "DESTROY ", 8)) {
			id = atoi(arg);
			if (t.w.bound && t.w.qp == id && t.w.mw->type == IBV_MW_TYPE_2)
				mw_drop(&t, "the QP it is bound to is destroyed");
			if (id >= 0 && id < WVT_MAX_QPS)
				conn_destroy(&t.q[id].c);
			snprintf(out, sizeof(out), "OK");
		} else if (!strncmp(line, "RECV ", 5)) {
			cmd_recv(&t, arg, out, sizeof(out));
		} else if (!strncmp(line, "WAITRECV ", 9)) {
			cmd_waitrecv(&t, arg, out, sizeof(out));
		} else if (!strncmp(line, "CHECK ", 6)) {
			cmd_check(&t, arg, false, out, sizeof(out));
		} else if (!strncmp(line, "CHECK8 ", 7)) {
			cmd_check(&t, arg, true, out, sizeof(out));
		} else if (!strcmp(line, "DEVCAP")) {
			cmd_devcap(&t, out, sizeof(out));
		} else if (!strcmp(line, "MWCAP")) {
			cmd_mwcap(&t, out, sizeof(out));
		} else if (!strncmp(line, "MW ", 3)) {
			cmd_mw(&t, arg, out, sizeof(out));
		} else if (!strncmp(line, "MWINV ", 6)) {
			cmd_mwinv(&t, arg, out, sizeof(out));
		} else if (!strcmp(line, "MWFREE")) {
			mw_drop(&t, NULL);
			snprintf(out, sizeof(out), "OK");
		} else if (!strncmp(line, "MWDEREG ", 8)) {
			cmd_mwdereg(&t, arg, out, sizeof(out));
		} else if (!strcmp(line, "BYE")) {
			ctl_send(c, "OK");
			break;
		} else {
			snprintf(out, sizeof(out), "BAD unknown command");
		}
		/* A refusal is logged (the peer's judge may read it), not counted. */
		if (!strncmp(out, "BAD", 3))
			fails++;
		if (!strncmp(out, "BAD", 3) || !strncmp(out, "REFUSED", 7))
			fprintf(stderr, "wvt target: %s -> %s\n", line, out);
		if (ctl_send(c, "%s", out))
			break;
	}
	mw_drop(&t, NULL);
	for (int i = 0; i < WVT_MAX_QPS; i++)
		conn_destroy(&t.q[i].c);
	for (int i = 0; i < WVT_MAX_SLOTS; i++) {
		if (t.s[i].mr)
			ibv_dereg_mr(t.s[i].mr);
		mem_free(&t.s[i].m);
	}
	memset(&t, 0, sizeof(t));
	return fails;
}
