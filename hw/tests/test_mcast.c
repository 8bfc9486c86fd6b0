// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD multicast (WREN_CAP_RDMA_MCAST, wren_admin.h "Multicast"): the GID
 * to MAC rule; ATTACH_MCAST and DETACH_MCAST and every refusal, the
 * table's limits; then between two models: a send to an IPv4 and an IPv6
 * group received by each member on the other node (data, GRH, CQE) and
 * by the sender's own node's members (loopback), the frame on the wire
 * (group MAC, QPN 0xffffff), the counters, a member with the wrong
 * Q_Key, the wrong destination QPN, a group with no members here (the
 * MAC filter drops it), and a destroyed QP leaving its groups.
 */
#include <stdlib.h>

#include "roce/whw_roce.h"
#include "roce_tests.h"
#include "whw_device.h"

#define SETTLE		1000000000ull
#define QKEY		0x11223344u
#define SYND_MC(f)	SYND_CMD(u.mcast.f)
#define NMEMB		3	/* node 1: two members; node 0: one */

static const uint8_t grp4[16] = { [10] = 0xff, [11] = 0xff,
				  239, 129, 2, 3 };
static const uint8_t grp6[16] = { 0xff, 0x0e, [13] = 0x12, [14] = 0x34,
				  [15] = 0x56 };

static struct td_res mcast_cmd(struct td *d, uint8_t op, uint32_t qpn,
			       const uint8_t *gid)
{
	struct wren_aq_mcast m;

	memset(&m, 0, sizeof(m));
	m.qpn = qpn;
	memcpy(m.gid, gid, 16);
	return td_cmd(d, op, &m, sizeof(m), NULL, 0, NULL, 0);
}

static int attach(struct td *d, uint32_t qpn, const uint8_t *gid)
{
	return mcast_cmd(d, WREN_AQ_OP_ATTACH_MCAST, qpn, gid).status;
}

static int detach(struct td *d, uint32_t qpn, const uint8_t *gid)
{
	return mcast_cmd(d, WREN_AQ_OP_DETACH_MCAST, qpn, gid).status;
}

static uint64_t port_counter(struct td *d, unsigned int which)
{
	return td_counter(d, WREN_COUNTERS_PORT, 0, which);
}

static void mac_rule(void)
{
	uint8_t mac[6];
	static const uint8_t m4[6] = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 };
	static const uint8_t m6[6] = { 0x33, 0x33, 0x00, 0x12, 0x34, 0x56 };
	uint8_t uni4[16], uni6[16], low4[16];

	memcpy(uni4, grp4, 16);
	uni4[12] = 192;
	memcpy(uni6, grp6, 16);
	uni6[0] = 0xfe;
	memcpy(low4, grp4, 16);
	low4[12] = 223;
	tap_ok(wren_gid_is_mcast(grp4) && wren_gid_is_mcast(grp6) &&
	       !wren_gid_is_mcast(uni4) && !wren_gid_is_mcast(uni6) &&
	       !wren_gid_is_mcast(low4),
	       "multicast GIDs: IPv4-mapped 224/4 and IPv6 ff00::/8 only");
	wren_mcast_mac(grp4, mac);
	tap_ok(!memcmp(mac, m4, 6),
	       "239.129.2.3 maps to 01:00:5e:01:02:03 (low 23 bits)");
	wren_mcast_mac(grp6, mac);
	tap_ok(!memcmp(mac, m6, 6), "ff0e::12:3456 maps to 33:33:00:12:34:56");
}

/* --------------------------------------------------------- the table */

static void table(void)
{
	struct ro_pair p;
	struct ro_node *n;
	struct ro_cq cq;
	struct ro_qp ud[WHW_MAX_MCAST_QP_ATTACH + 1], rc;
	struct ro_qp_opts o = { .type = WREN_QPT_UD };
	struct wren_device_attr a;
	struct wren_aq_mcast m;
	uint8_t gid[16], uni[16];
	unsigned int ud1_groups = 0;
	struct td_res r;
	bool all = true;
	int st;

	ro_pair_init(&p);
	n = &p.n[0];
	memset(&a, 0, sizeof(a));
	td_cmd(n->d, WREN_AQ_OP_QUERY_DEVICE, NULL, 0, NULL, 0, &a, sizeof(a));
	tap_ok((a.caps & WREN_CAP_RDMA_MCAST) &&
	       a.max_mcast_grp == WHW_MAX_MCAST_GRP &&
	       a.max_mcast_qp_attach == WHW_MAX_MCAST_QP_ATTACH,
	       "QUERY_DEVICE: multicast, %u groups of %u QPs",
	       a.max_mcast_grp, a.max_mcast_qp_attach);

	ro_cq_create(n, &cq, 8, 0);
	o.scq = o.rcq = cq.cqn;
	for (unsigned int i = 0; i <= WHW_MAX_MCAST_QP_ATTACH; i++)
		ro_qp_create(n, &ud[i], &o);
	o.type = WREN_QPT_RC;
	ro_qp_create(n, &rc, &o);
	memcpy(uni, n->gid4, 16);

	r = mcast_cmd(n->d, WREN_AQ_OP_ATTACH_MCAST, rc.qpn, grp4);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_PARAM && r.synd == SYND_MC(qpn),
	       "ATTACH_MCAST of an RC QP: BAD_PARAM at qpn");
	r = mcast_cmd(n->d, WREN_AQ_OP_ATTACH_MCAST, 1, grp4);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_HANDLE || r.status ==
	       WREN_AQ_STATUS_BAD_PARAM,
	       "ATTACH_MCAST of QP 1 (GSI, or none): refused (%d)", r.status);
	r = mcast_cmd(n->d, WREN_AQ_OP_ATTACH_MCAST, ud[0].qpn + 0x100, grp4);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_HANDLE && r.synd == SYND_MC(qpn),
	       "ATTACH_MCAST of no QP: BAD_HANDLE at qpn");
	r = mcast_cmd(n->d, WREN_AQ_OP_ATTACH_MCAST, ud[0].qpn, uni);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_PARAM && r.synd == SYND_MC(gid),
	       "ATTACH_MCAST of a unicast GID: BAD_PARAM at gid");
	memset(&m, 0, sizeof(m));
	m.qpn = ud[0].qpn;
	memcpy(m.gid, grp4, 16);
	m.rsvd[1] = 1;
	r = td_cmd(n->d, WREN_AQ_OP_ATTACH_MCAST, &m, sizeof(m), NULL, 0, NULL,
		   0);
	tap_ok(r.status != WREN_AQ_STATUS_OK &&
	       detach(n->d, ud[0].qpn, grp4) == WREN_AQ_STATUS_BAD_HANDLE,
	       "ATTACH_MCAST with a reserved field set: refused (%d), nothing "
	       "attached", r.status);

	tap_ok(attach(n->d, ud[0].qpn, grp4) == 0 &&
	       attach(n->d, ud[0].qpn, grp4) == WREN_AQ_STATUS_EXISTS &&
	       attach(n->d, ud[0].qpn, grp6) == 0,
	       "ATTACH_MCAST: a QP joins two groups; twice the same: EXISTS");
	for (unsigned int i = 1; i < WHW_MAX_MCAST_QP_ATTACH; i++)
		all &= attach(n->d, ud[i].qpn, grp4) == 0;
	r = mcast_cmd(n->d, WREN_AQ_OP_ATTACH_MCAST,
		      ud[WHW_MAX_MCAST_QP_ATTACH].qpn, grp4);
	tap_ok(all && r.status == WREN_AQ_STATUS_NO_RESOURCES &&
	       r.synd == SYND_MC(qpn),
	       "a group of %u QPs is full: NO_RESOURCES at qpn",
	       WHW_MAX_MCAST_QP_ATTACH);

	r = mcast_cmd(n->d, WREN_AQ_OP_DETACH_MCAST,
		      ud[WHW_MAX_MCAST_QP_ATTACH].qpn, grp4);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_HANDLE && r.synd == SYND_MC(qpn),
	       "DETACH_MCAST of a QP not in the group: BAD_HANDLE at qpn");
	memcpy(gid, grp4, 16);
	gid[15] ^= 0x80;
	r = mcast_cmd(n->d, WREN_AQ_OP_DETACH_MCAST, ud[0].qpn, gid);
	tap_ok(r.status == WREN_AQ_STATUS_BAD_HANDLE && r.synd == SYND_MC(gid),
	       "DETACH_MCAST of a group not in the table: BAD_HANDLE at gid");
	all = true;
	for (unsigned int i = 0; i < WHW_MAX_MCAST_QP_ATTACH; i++)
		all &= detach(n->d, ud[i].qpn, grp4) == 0;
	tap_ok(all && n->d->h->hw->mcast_groups == 1 &&
	       detach(n->d, ud[0].qpn, grp4) == WREN_AQ_STATUS_BAD_HANDLE,
	       "DETACH_MCAST of every member: the group goes, the other stays");

	/* As many groups as the table holds (grp6 is one), a QP in each. */
	all = true;
	for (unsigned int i = 1; i < WHW_MAX_MCAST_GRP; i++) {
		memcpy(gid, grp4, 16);
		gid[14] = (uint8_t)(i >> 8);
		gid[15] = (uint8_t)i;
		all &= attach(n->d, ud[1 + i % 8].qpn, gid) == 0;
		ud1_groups += i % 8 == 0;
	}
	memcpy(gid, grp6, 16);
	gid[15] ^= 1;
	r = mcast_cmd(n->d, WREN_AQ_OP_ATTACH_MCAST, ud[0].qpn, gid);
	tap_ok(all && r.status == WREN_AQ_STATUS_NO_RESOURCES &&
	       r.synd == SYND_MC(gid),
	       "a table of %u groups is full: NO_RESOURCES at gid",
	       WHW_MAX_MCAST_GRP);

	/* A destroyed QP leaves its groups, and those it alone was in go. */
	st = (int)td_handle_cmd(n->d, WREN_AQ_OP_DESTROY_QP, ud[1].qpn, NULL,
				0).status;
	tap_ok(st == 0 && n->d->h->hw->mcast_groups ==
	       WHW_MAX_MCAST_GRP - ud1_groups,
	       "DESTROY_QP takes the QP out of its %u groups (%u left)",
	       ud1_groups, n->d->h->hw->mcast_groups);
	ro_pair_fini(&p);
}

/* ---------------------------------------------------- on the wire */

struct mc_env {
	struct ro_pair p;
	struct ro_cq cq;		/* the sender's */
	struct ro_cq mcq[NMEMB];	/* one a member */
	struct ro_qp tx;		/* node 0's sender */
	struct ro_qp memb[NMEMB];	/* node 1: 0 and 1; node 0: 2 */
	struct ro_mr mr[2];
	uint32_t ah[2];			/* node 0: to grp4, to grp6 */
};

static int memb_node(int i)
{
	return i < 2 ? 1 : 0;
}

static uint32_t group_ah(struct mc_env *e, const uint8_t *gid)
{
	struct wren_create_ah_in in;

	memset(&in, 0, sizeof(in));
	in.pdn = e->p.n[0].pd;
	in.av.gid_index = gid[0] == 0xff ? 1 : 0;	/* ro_pair's GIDs */
	in.av.flags = gid[0] == 0xff ? 0 : WREN_AV_F_IPV4;
	memcpy(in.av.dgid, gid, 16);
	wren_mcast_mac(gid, in.av.dmac);
	return (uint32_t)td_cmd(e->p.n[0].d, WREN_AQ_OP_CREATE_AH, NULL, 0,
				&in, sizeof(in), NULL, 0).result;
}

static void mc_init(struct mc_env *e)
{
	struct ro_qp_opts o = { .type = WREN_QPT_UD };

	memset(e, 0, sizeof(*e));
	ro_pair_init(&e->p);
	for (int i = 0; i < 2; i++) {
		struct ro_node *n = &e->p.n[i];

		ro_mr_reg(n, &e->mr[i], n->pd, 0x40000, 65536,
			  WREN_ACCESS_LOCAL_WRITE, 12, false);
	}
	ro_cq_create(&e->p.n[0], &e->cq, 8, 0);
	o.scq = o.rcq = e->cq.cqn;
	ro_qp_create(&e->p.n[0], &e->tx, &o);
	ro_ud_ready(&e->p.n[0], &e->tx, QKEY);
	for (int i = 0; i < NMEMB; i++) {
		int k = memb_node(i);

		ro_cq_create(&e->p.n[k], &e->mcq[i], 8, 0);
		o.scq = o.rcq = e->mcq[i].cqn;
		ro_qp_create(&e->p.n[k], &e->memb[i], &o);
		ro_ud_ready(&e->p.n[k], &e->memb[i], QKEY);
	}
	e->ah[0] = group_ah(e, grp4);
	e->ah[1] = group_ah(e, grp6);
}

static void mc_fini(struct mc_env *e)
{
	ro_mr_free(&e->mr[0]);
	ro_mr_free(&e->mr[1]);
	ro_pair_fini(&e->p);
}

/* A receive of 2000 bytes for member @i, at its own 4 KiB of its MR. */
static void mc_recv(struct mc_env *e, int i)
{
	struct ro_mr *mr = &e->mr[memb_node(i)];
	struct wren_wqe_sge s = { .addr = mr->iova + 4096 * (uint64_t)(i + 1),
				  .length = 2000, .lkey = mr->key };

	ro_post_recv(&e->memb[i], &s, 1);
}

static void mc_send(struct mc_env *e, int ah, uint32_t dqpn, uint32_t len)
{
	struct ro_wqe w = { .opcode = WREN_WQE_SEND_IMM,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1,
			    .imm = 0x600df00d };

	w.ah = e->ah[ah];
	w.dqpn = dqpn;
	w.qkey = QKEY;
	w.sge[0].addr = e->mr[0].iova;
	w.sge[0].length = len;
	w.sge[0].lkey = e->mr[0].key;
	ro_post_send(&e->tx, &w);
}

/* Member @i's one completion: a receive of @len bytes from the sender. */
static bool got_one(struct mc_env *e, int i, uint32_t len,
		    const uint8_t *pat)
{
	struct ro_mr *mr = &e->mr[memb_node(i)];
	uint8_t buf[2000];
	struct wren_cqe c[4];
	unsigned int n, mine = 0;
	bool ok = false;

	n = ro_cq_drain(&e->mcq[i], c, 4);
	for (unsigned int k = 0; k < n; k++) {
		mine += c[k].qpn == e->memb[i].qpn;
		ok = c[k].status == 0 && c[k].opcode == WREN_CQE_OP_RECV &&
		     c[k].byte_len == 40 + len &&
		     c[k].src_qp == e->tx.qpn &&
		     (c[k].flags & WREN_CQE_F_IMM) &&
		     c[k].imm_data == 0x600df00d;
	}
	ro_mr_read(mr, mr->iova + 4096 * (uint64_t)(i + 1), buf, 40 + len);
	return mine == 1 && ok && !memcmp(buf + 40, pat, len);
}

static void wire(bool ipv6)
{
	const uint8_t *grp = ipv6 ? grp6 : grp4;
	struct mc_env e;
	uint8_t pat[1000], buf[40], mac[6];
	const struct ro_frame *f;
	uint64_t tx0, rx1, rx0;
	bool frame_ok, grh_ok;
	unsigned int l3;

	mc_init(&e);
	for (int i = 0; i < NMEMB; i++) {
		attach(e.p.n[memb_node(i)].d, e.memb[i].qpn, grp);
		mc_recv(&e, i);
	}
	ro_fill(pat, sizeof(pat), ipv6 ? 66 : 44);
	ro_mr_write(&e.mr[0], e.mr[0].iova, pat, sizeof(pat));
	tx0 = ro_counter(&e.p.n[0], WREN_RDMA_CNT_TX_MCAST_PACKETS);
	rx1 = ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_MCAST_PACKETS);
	rx0 = ro_counter(&e.p.n[0], WREN_RDMA_CNT_RX_MCAST_PACKETS);
	e.p.hold = 1;
	mc_send(&e, ipv6, WREN_MCAST_QPN, sizeof(pat));
	ro_settle(&e.p, 0);
	f = &e.p.q[e.p.qhead];
	l3 = 14;
	wren_mcast_mac(grp, mac);
	frame_ok = e.p.qlen == 1 && !memcmp(f->data, mac, 6) &&
		   (ipv6 ? !memcmp(f->data + l3 + 24, grp, 16)
			 : !memcmp(f->data + l3 + 16, grp + 12, 4)) &&
		   ro_queued_opcode(&e.p, 0) == WHW_OP_UD_SEND_ONLY_IMM;
	memset(buf, 0, sizeof(buf));
	if (e.p.qlen) {
		uint32_t dqpn = 0;
		unsigned int bth = l3 + (ipv6 ? 40 : 20) + 8;

		dqpn = (uint32_t)f->data[bth + 5] << 16 |
		       (uint32_t)f->data[bth + 6] << 8 | f->data[bth + 7];
		frame_ok &= dqpn == WREN_MCAST_QPN;
		if (ipv6)
			memcpy(buf, f->data + l3, 40);
		else
			memcpy(buf + 20, f->data + l3, 20);
	}
	e.p.hold = 0;
	ro_settle(&e.p, SETTLE);
	tap_ok(frame_ok, "%s group: one frame to its MAC, its address, QPN "
	       "0xffffff", ipv6 ? "IPv6" : "IPv4");
	tap_ok(got_one(&e, 0, sizeof(pat), pat) &&
	       got_one(&e, 1, sizeof(pat), pat),
	       "%s group: both members on the other node receive it, data "
	       "and CQE right", ipv6 ? "IPv6" : "IPv4");
	{
		struct ro_mr *mr = &e.mr[1];
		uint8_t g[40];

		ro_mr_read(mr, mr->iova + 4096, g, 40);
		grh_ok = !memcmp(g, buf, 40);
	}
	tap_ok(grh_ok, "%s group: the GRH area is the IP header, the "
	       "group's address in it", ipv6 ? "IPv6" : "IPv4");
	tap_ok(got_one(&e, 2, sizeof(pat), pat) &&
	       ro_cq_drain(&e.cq, NULL, 4) == 1,
	       "%s group: the sender's node's member receives it too "
	       "(loopback); the sender gets its send CQE only",
	       ipv6 ? "IPv6" : "IPv4");
	tap_ok(ro_counter(&e.p.n[0], WREN_RDMA_CNT_TX_MCAST_PACKETS) ==
	       tx0 + 1 &&
	       ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_MCAST_PACKETS) ==
	       rx1 + 1 &&
	       ro_counter(&e.p.n[0], WREN_RDMA_CNT_RX_MCAST_PACKETS) ==
	       rx0 + 1,
	       "%s group: tx_mcast_packets +1, rx_mcast_packets +1 on each "
	       "node", ipv6 ? "IPv6" : "IPv4");
	mc_fini(&e);
}

static void refusals(void)
{
	struct mc_env e;
	struct wren_cqe c[4];
	uint8_t pat[100];
	uint64_t disc, filt, rx;
	unsigned int n;

	mc_init(&e);
	ro_fill(pat, sizeof(pat), 9);
	ro_mr_write(&e.mr[0], e.mr[0].iova, pat, sizeof(pat));
	attach(e.p.n[1].d, e.memb[0].qpn, grp4);
	attach(e.p.n[1].d, e.memb[1].qpn, grp4);
	mc_recv(&e, 0);
	mc_recv(&e, 1);

	/* Member 1's Q_Key is not the sender's: it drops, member 0 takes. */
	{
		struct wren_modify_qp_in m;

		memset(&m, 0, sizeof(m));
		m.qpn = e.memb[1].qpn;
		m.attr_mask = WREN_QP_ATTR_QKEY;
		m.qkey = QKEY ^ 1;
		ro_modify(&e.p.n[1], &m);
	}
	disc = ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ROCE_DISCARDS);
	mc_send(&e, 0, WREN_MCAST_QPN, sizeof(pat));
	ro_settle(&e.p, SETTLE);
	n = ro_cq_drain(&e.mcq[0], c, 4);
	tap_ok(n == 1 && c[0].qpn == e.memb[0].qpn && !c[0].status &&
	       ro_cq_drain(&e.mcq[1], NULL, 4) == 0 &&
	       ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ROCE_DISCARDS) ==
	       disc + 1,
	       "a member with another Q_Key drops the packet and counts it; "
	       "the other receives");

	/* To a group, but not to the multicast QPN: nobody. */
	mc_recv(&e, 0);
	disc = ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ROCE_DISCARDS);
	mc_send(&e, 0, e.memb[0].qpn, sizeof(pat));
	ro_settle(&e.p, SETTLE);
	tap_ok(ro_cq_drain(&e.mcq[0], NULL, 4) == 0 &&
	       ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ROCE_DISCARDS) ==
	       disc + 1,
	       "a group's packet to a QPN other than 0xffffff: discarded");

	/* The members leave: the group's frames fail the MAC filter. */
	detach(e.p.n[1].d, e.memb[0].qpn, grp4);
	detach(e.p.n[1].d, e.memb[1].qpn, grp4);
	filt = port_counter(e.p.n[1].d, WREN_CNT_RX_DROPPED_FILTER);
	rx = ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ROCE_PACKETS);
	mc_send(&e, 0, WREN_MCAST_QPN, sizeof(pat));
	ro_settle(&e.p, SETTLE);
	tap_ok(ro_cq_drain(&e.mcq[0], NULL, 4) == 0 &&
	       ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ROCE_PACKETS) == rx &&
	       port_counter(e.p.n[1].d, WREN_CNT_RX_DROPPED_FILTER) ==
	       filt + 1,
	       "a group with no member here: not RoCE's, and the MAC filter "
	       "drops it");

	/* A destroyed member: its QPN's next owner is no member. */
	attach(e.p.n[1].d, e.memb[0].qpn, grp4);
	td_handle_cmd(e.p.n[1].d, WREN_AQ_OP_DESTROY_QP, e.memb[0].qpn, NULL,
		      0);
	rx = ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_MCAST_PACKETS);
	mc_send(&e, 0, WREN_MCAST_QPN, sizeof(pat));
	ro_settle(&e.p, SETTLE);
	tap_ok(e.p.n[1].d->h->hw->mcast_groups == 0 &&
	       ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_MCAST_PACKETS) == rx,
	       "a destroyed member's group goes with it; its frames are not "
	       "received");
	mc_fini(&e);
}

void test_mcast(void)
{
	mac_rule();
	table();
	wire(false);
	wire(true);
	refusals();
}
