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
 *   MR <slot> <len> <off> <access> <pd> <seed>  -> OK <addr> <rkey>
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

struct target {
	struct dev *d;
	union ibv_gid peer_gid;
	struct slot s[WVT_MAX_SLOTS];
	struct tqp q[WVT_MAX_QPS];
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
	char why[256];
	int n;

	if (sscanf(a, "%d %zu %u %15s %d %d", &id, &len, &seed, imm, &status, &opcode) != 6 ||
	    !(q = get_qp(t, id)) || !(s = get_slot(t, q->rslot)))
		return snprintf(out, on, "BAD usage"), -1;
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
		if (strcmp(imm, "-") ? !(wc.wc_flags & IBV_WC_WITH_IMM) ||
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
		return snprintf(out, on, "BAD %s", why), -1;
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
