// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Multicast mode (wren_verbs_test mcast): one node, UD QPs that the NIC
 * loops a group's packets back to.  A sender (in no group) and two
 * receivers r1 and r2 attached with ibv_attach_mcast() to a group made
 * from the device's own RoCE v2 GID (the same IPv4 address in 239/8 or,
 * for an IPv6 GID, ff0e:: and its low 64 bits); the AH to the group comes
 * from ibv_create_ah(), which gets its MAC from the kernel.
 *
 * Messages of 0, 1, 100 and up to MTU - 40 bytes with immediate data to
 * QPN 0xffffff each reach both receivers once, with the data, the GRH
 * area (the group's address as destination), the sender's QPN and the
 * immediate checked; after a detach only the other receives; attaching
 * twice still gives one copy.  Refused: an RC QP, a unicast GID, a
 * detach of a QP not in the group.  The table's limits: as many groups
 * as max_mcast_grp for one QP and as many QPs as max_mcast_qp_attach in
 * one group, then ENOMEM, and the NIC still delivers after.  A device
 * without multicast (max_mcast_grp 0) skips every case.  TAP on stdout,
 * tap_done()'s status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wvt.h"
#include "tap.h"

#define MC_WAIT_MS	10000
#define MC_QUIET_MS	300	/* how long "nothing arrives" is watched */
#define MC_DEPTH	16
#define MC_BUF		8192	/* each receiver's and the sender's buffer */
#define MC_QPN		0xffffffu

struct mct {
	struct dev *d;
	struct conn s, r[2];
	bool in[2];		/* r[i] attached (as far as the test knows) */
	union ibv_gid grp;
	struct ibv_ah *ah;
	uint8_t *buf[3];	/* s, r[0], r[1] */
	struct ibv_mr *mr[3];
	uint32_t seed;
	char why[WVT_WHY];
};

/* A case failed, and why (why.c). */
#define fail(t, ...) why_set((t)->why, __VA_ARGS__)

/* The group of this device's GID: 239.b.c.d, or ff0e:: with its low half. */
static void group_of(const union ibv_gid *gid, union ibv_gid *grp)
{
	static const uint8_t v4[12] = { [10] = 0xff, [11] = 0xff };

	*grp = *gid;
	if (!memcmp(gid->raw, v4, sizeof(v4))) {
		grp->raw[12] = 239;
		return;
	}
	memset(grp->raw, 0, 8);
	grp->raw[0] = 0xff;
	grp->raw[1] = 0x0e;
}

static bool post_recv(struct mct *t, int i)
{
	struct ibv_sge sg = { .addr = (uintptr_t)t->buf[i + 1],
			      .length = MC_BUF, .lkey = t->mr[i + 1]->lkey };
	struct ibv_recv_wr wr = { .wr_id = (uint64_t)i, .sg_list = &sg,
				  .num_sge = 1 }, *bad;
	int ret = ibv_post_recv(t->r[i].qp, &wr, &bad);

	return ret ? fail(t, "ibv_post_recv: %s", strerror(ret)) : true;
}

static bool send_one(struct mct *t, size_t len, uint32_t imm)
{
	struct ibv_sge sg = { .addr = (uintptr_t)t->buf[0],
			      .length = (uint32_t)len, .lkey = t->mr[0]->lkey };
	struct ibv_send_wr wr = { .wr_id = 7, .sg_list = &sg, .num_sge = 1,
				  .opcode = IBV_WR_SEND_WITH_IMM,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct ibv_wc wc;
	int ret;

	wr.imm_data = htobe32(imm);
	wr.wr.ud.ah = t->ah;
	wr.wr.ud.remote_qpn = MC_QPN;
	wr.wr.ud.remote_qkey = WVT_QKEY;
	pat_fill(t->buf[0], len, ++t->seed, 0);
	ret = ibv_post_send(t->s.qp, &wr, &bad);
	if (ret)
		return fail(t, "ibv_post_send: %s", strerror(ret));
	if (poll_one(t->s.scq, &wc, MC_WAIT_MS))
		return fail(t, "the send did not complete");
	if (wc.status != IBV_WC_SUCCESS)
		return fail(t, "the send completed %s",
			    ibv_wc_status_str(wc.status));
	return true;
}

/* Receiver @i got exactly the last message (@len bytes, @imm). */
static bool got(struct mct *t, int i, size_t len, uint32_t imm)
{
	const uint8_t *b = t->buf[i + 1];
	struct ibv_wc wc;
	const uint8_t *dst;

	if (poll_one(t->r[i].rcq, &wc, MC_WAIT_MS))
		return fail(t, "receiver %d: no completion", i);
	if (wc.status != IBV_WC_SUCCESS || wc.opcode != IBV_WC_RECV)
		return fail(t, "receiver %d: completion %s, opcode %d", i,
			    ibv_wc_status_str(wc.status), wc.opcode);
	if (wc.byte_len != 40 + len || wc.src_qp != t->s.qp->qp_num ||
	    !(wc.wc_flags & IBV_WC_GRH) || !(wc.wc_flags & IBV_WC_WITH_IMM) ||
	    be32toh(wc.imm_data) != imm)
		return fail(t, "receiver %d: byte_len %u (want %zu), src_qp 0x%x "
			    "(want 0x%x), flags 0x%x, imm 0x%x", i,
			    wc.byte_len, 40 + len, wc.src_qp, t->s.qp->qp_num,
			    wc.wc_flags, be32toh(wc.imm_data));
	/* The GRH area: IPv6's destination, or IPv4's behind 20 bytes. */
	dst = t->grp.raw[0] == 0xff ? b + 24 : b + 20 + 16;
	if (memcmp(dst, t->grp.raw[0] == 0xff ? t->grp.raw : t->grp.raw + 12,
		   t->grp.raw[0] == 0xff ? 16 : 4))
		return fail(t, "receiver %d: the GRH's destination is not the "
			    "group's address", i);
	if (pat_diff(b + 40, len, t->seed, 0) >= 0)
		return fail(t, "receiver %d: data differ at byte %ld", i,
			    pat_diff(b + 40, len, t->seed, 0));
	return post_recv(t, i);
}

/* Nothing more arrives at receiver @i. */
static bool quiet(struct mct *t, int i)
{
	struct ibv_wc wc;

	if (!poll_one(t->r[i].rcq, &wc, MC_QUIET_MS))
		return fail(t, "receiver %d got a completion it should not "
			    "(%s, %u bytes)", i, ibv_wc_status_str(wc.status),
			    wc.byte_len);
	return true;
}

static bool attach(struct mct *t, int i)
{
	int ret = ibv_attach_mcast(t->r[i].qp, &t->grp, 0);

	if (ret)
		return fail(t, "ibv_attach_mcast: %s", strerror(ret));
	t->in[i] = true;
	return true;
}

static bool detach(struct mct *t, int i)
{
	int ret = ibv_detach_mcast(t->r[i].qp, &t->grp, 0);

	if (ret)
		return fail(t, "ibv_detach_mcast: %s", strerror(ret));
	t->in[i] = false;
	return true;
}

/* ---------------------------------------------------------- the cases */

static bool c_both(struct mct *t)
{
	size_t lens[] = { 0, 1, 100, t->d->mtu - 40 };

	if (!attach(t, 0) || !attach(t, 1))
		return false;
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		uint32_t imm = 0x6d630000u | (uint32_t)k;

		if (!send_one(t, lens[k], imm) || !got(t, 0, lens[k], imm) ||
		    !got(t, 1, lens[k], imm))
			return false;
	}
	return quiet(t, 0) && quiet(t, 1);
}

static bool c_detach(struct mct *t)
{
	if (!detach(t, 1) || !send_one(t, 64, 1) || !got(t, 0, 64, 1))
		return false;
	return quiet(t, 1);
}

static bool c_twice(struct mct *t)
{
	/* ib_uverbs knows the QP is in the group: 0, and one copy. */
	if (!attach(t, 0) || !send_one(t, 32, 2) || !got(t, 0, 32, 2))
		return false;
	return quiet(t, 0);
}

static bool c_refused(struct mct *t)
{
	union ibv_gid uni = t->d->gid;
	struct conn rc;
	int ret;

	ret = ibv_detach_mcast(t->r[1].qp, &t->grp, 0);
	if (!ret)
		return fail(t, "a detach of a QP not in the group succeeded");
	ret = ibv_attach_mcast(t->r[1].qp, &uni, 0);
	if (!ret)
		return fail(t, "an attach to a unicast GID succeeded");
	if (conn_create(t->d, &rc, IBV_QPT_RC, 0, 4))
		return fail(t, "an RC QP: %s", strerror(errno));
	ret = ibv_attach_mcast(rc.qp, &t->grp, 0);
	conn_destroy(&rc);
	if (!ret)
		return fail(t, "an attach of an RC QP succeeded");
	/* Nothing of that changed the group: r1 alone receives. */
	if (!send_one(t, 8, 3) || !got(t, 0, 8, 3))
		return false;
	return quiet(t, 1);
}

/* As many groups as the device holds for one QP, then ENOMEM. */
static bool c_groups(struct mct *t)
{
	int n = t->d->attr.max_mcast_grp, made = 0, ret = 0;
	union ibv_gid g = t->grp;
	bool ok = true;

	/* r1's group is one of them; the others differ in byte 13. */
	for (int k = 1; k <= n && !ret; k++) {
		g.raw[13] = (uint8_t)(t->grp.raw[13] + k);
		g.raw[14] = (uint8_t)(t->grp.raw[14] + (k >> 8));
		ret = ibv_attach_mcast(t->r[1].qp, &g, 0);
		if (!ret)
			made++;
	}
	if (made != n - 1 || ret != ENOMEM)
		ok = fail(t, "%d of %d more groups, then %s (want ENOMEM)",
			  made, n - 1, strerror(ret));
	for (int k = 1; k <= made; k++) {
		g.raw[13] = (uint8_t)(t->grp.raw[13] + k);
		g.raw[14] = (uint8_t)(t->grp.raw[14] + (k >> 8));
		if (ibv_detach_mcast(t->r[1].qp, &g, 0) && ok)
			ok = fail(t, "detach of group %d failed", k);
	}
	if (!ok)
		return false;
	return send_one(t, 16, 4) && got(t, 0, 16, 4) && quiet(t, 1);
}

/* As many QPs as a group holds, then ENOMEM; r1 counts as one. */
static bool c_members(struct mct *t)
{
	int n = t->d->attr.max_mcast_qp_attach, made = 0, ret = 0;
	struct conn *q = calloc((size_t)n, sizeof(*q));
	bool ok = true;

	if (!q)
		return fail(t, "out of memory");
	for (int k = 0; k < n && !ret; k++) {
		if (conn_create(t->d, &q[k], IBV_QPT_UD, 0, 1)) {
			ret = errno;
			ok = fail(t, "UD QP %d: %s", k, strerror(ret));
			break;
		}
		ret = ibv_attach_mcast(q[k].qp, &t->grp, 0);
		if (!ret)
			made++;
	}
	if (ok && (made != n - 1 || ret != ENOMEM))
		ok = fail(t, "%d of %d more QPs, then %s (want ENOMEM)", made,
			  n - 1, strerror(ret));
	/* Destroying attached QPs: ib_uverbs detaches them first. */
	for (int k = 0; k < n; k++)
		if (q[k].qp)
			conn_destroy(&q[k]);
	free(q);
	if (!ok)
		return false;
	return send_one(t, 24, 5) && got(t, 0, 24, 5) && quiet(t, 1);
}

static const struct {
	const char *what;
	bool (*run)(struct mct *t);
} cases[] = {
	{ "two QPs attached: messages of 0, 1, 100 and MTU - 40 bytes reach "
	  "both once, data, GRH, QPN and immediate right", c_both },
	{ "one QP detached: only the other receives", c_detach },
	{ "attached twice: still one copy", c_twice },
	{ "refused: detach of a QP not in the group, a unicast GID, an RC QP",
	  c_refused },
	{ "max_mcast_grp groups for one QP, then ENOMEM; delivery after",
	  c_groups },
	{ "max_mcast_qp_attach QPs in one group, then ENOMEM; delivery after",
	  c_members },
};

#define N_CASES	(sizeof(cases) / sizeof(cases[0]))

static bool setup(struct mct *t)
{
	struct ibv_ah_attr ah = { 0 };

	for (int i = 0; i < 3; i++) {
		t->buf[i] = aligned_alloc(4096, MC_BUF);
		if (!t->buf[i])
			return fail(t, "out of memory");
		memset(t->buf[i], 0, MC_BUF);
		t->mr[i] = ibv_reg_mr(t->d->pd[0], t->buf[i], MC_BUF,
				      IBV_ACCESS_LOCAL_WRITE);
		if (!t->mr[i])
			return fail(t, "ibv_reg_mr: %s", strerror(errno));
	}
	if (conn_create(t->d, &t->s, IBV_QPT_UD, 0, MC_DEPTH) ||
	    conn_connect(t->d, &t->s, 0, 0, &t->d->gid))
		return fail(t, "the sender's UD QP: %s", strerror(errno));
	for (int i = 0; i < 2; i++)
		if (conn_create(t->d, &t->r[i], IBV_QPT_UD, 0, MC_DEPTH) ||
		    conn_connect(t->d, &t->r[i], 0, 0, &t->d->gid) ||
		    !post_recv(t, i))
			return fail(t, "receiver %d's UD QP: %s", i,
				    strerror(errno));
	group_of(&t->d->gid, &t->grp);
	ah.is_global = 1;
	ah.grh.dgid = t->grp;
	ah.grh.sgid_index = (uint8_t)t->d->gidx;
	ah.grh.hop_limit = 1;
	ah.port_num = 1;
	t->ah = ibv_create_ah(t->d->pd[0], &ah);
	if (!t->ah)
		return fail(t, "ibv_create_ah to the group: %s",
			    strerror(errno));
	return true;
}

int mcast_run(struct dev *d)
{
	struct mct t = { .d = d, .seed = 0x6d00 };
	char g[64];
	bool up;
	size_t i;

	tap_plan(N_CASES);
	if (!d->attr.max_mcast_grp) {
		for (i = 0; i < N_CASES; i++)
			tap_skipped("the device has no multicast (max_mcast_grp 0)",
				    "%s", cases[i].what);
		return tap_done();
	}
	up = setup(&t);
	gid_to_str(&t.grp, g);
	tap_diag("mcast: group %s, max_mcast_grp %d, max_mcast_qp_attach %d",
		 g, d->attr.max_mcast_grp, d->attr.max_mcast_qp_attach);
	if (!up)
		tap_diag("  %s", t.why);
	t.why[0] = 0;
	for (i = 0; i < N_CASES; i++)
		why_report(t.why, up && cases[i].run(&t), cases[i].what);
	for (i = 0; i < 2; i++)
		if (t.in[i])
			ibv_detach_mcast(t.r[i].qp, &t.grp, 0);
	if (t.ah)
		ibv_destroy_ah(t.ah);
	conn_destroy(&t.s);
	conn_destroy(&t.r[0]);
	conn_destroy(&t.r[1]);
	for (i = 0; i < 3; i++) {
		if (t.mr[i])
			ibv_dereg_mr(t.mr[i]);
		free(t.buf[i]);
	}
	return tap_done();
}
