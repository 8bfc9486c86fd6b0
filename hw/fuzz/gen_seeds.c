// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Writes the generated seed corpora of the fuzz harnesses (make
 * fuzz-seeds): for each harness a few dozen small inputs in its record
 * format that do valid, useful things - every admin command with sane
 * parameters, a WQE of every opcode on live QPs, a frame of every
 * RoCEv2 opcode at the right QP and PSN, register and doorbell
 * programming - so that libFuzzer's mutations start next to the deep
 * paths instead of at the first validation check.
 *
 * usage: gen_seeds DIR   (writes DIR/<harness>/seed-<name>)
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/wren/wren_hw.h>

#include "fuzz_admin.h"
#include "fuzz_mmio.h"
#include "fuzz_rings.h"
#include "fuzz_rx.h"
#include "fz.h"
#include "fz_frame.h"
#include "fz_rdma.h"

struct out {
	uint8_t b[16384];
	size_t n;
};

static const char *root;

static void put(struct out *o, const void *p, size_t n)
{
	if (o->n + n > sizeof(o->b)) {
		fprintf(stderr, "gen_seeds: seed too large\n");
		exit(1);
	}
	memcpy(o->b + o->n, p, n);
	o->n += n;
}

static void put8(struct out *o, uint32_t v)
{
	uint8_t b = (uint8_t)v;

	put(o, &b, 1);
}

static void put16(struct out *o, uint32_t v)
{
	put8(o, v);
	put8(o, v >> 8);
}

static void put32(struct out *o, uint32_t v)
{
	put16(o, v);
	put16(o, v >> 16);
}

static void put64(struct out *o, uint64_t v)
{
	put32(o, (uint32_t)v);
	put32(o, (uint32_t)(v >> 32));
}

static void save(const char *harness, const char *name, struct out *o)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, harness);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/seed-%s", root, harness, name);
	f = fopen(path, "wb");
	if (!f || fwrite(o->b, 1, o->n, f) != o->n || fclose(f)) {
		perror(path);
		exit(1);
	}
	o->n = 0;
}

/* ------------------------------------------------------------ admin */

#define P(off)	(FZ_PLAY_BASE + (off))

static void acmd(struct out *o, uint8_t op, const void *inl, size_t inl_len,
		 const void *in, uint32_t in_len, uint32_t out_len)
{
	struct wren_aq_cmd c;
	uint8_t how = 0;

	memset(&c, 0, sizeof(c));
	c.opcode = op;
	if (inl)
		memcpy(c.u.raw, inl, inl_len);
	if (in_len) {
		how |= FA_IN_SCRATCH;
		c.in_len = in_len;
	}
	if (out_len) {
		how |= FA_OUT_SCRATCH;
		c.out_len = out_len;
	}
	put8(o, FA_CMD);
	put8(o, how);
	put(o, &c, sizeof(c));
	put16(o, in_len);
	put(o, in, in_len);
}

static void ahandle(struct out *o, uint8_t op, uint32_t h, uint32_t out_len)
{
	struct wren_aq_handle x = { .handle = h };

	acmd(o, op, &x, sizeof(x), NULL, 0, out_len);
}

static void a_eq(struct out *o, uint64_t ring, uint8_t log)
{
	struct wren_aq_create_eq e;

	memset(&e, 0, sizeof(e));
	e.ring.addr = ring;
	e.ring.page_shift = 12;
	e.log_size = log;
	e.msix_vector = 1;
	acmd(o, WREN_AQ_OP_CREATE_EQ, &e, sizeof(e), NULL, 0, 0);
}

static void a_cq(struct out *o, uint64_t ring, uint64_t dbrec, uint32_t uar)
{
	struct wren_create_cq_in c;

	memset(&c, 0, sizeof(c));
	c.ring.addr = ring;
	c.ring.page_shift = 12;
	c.dbrec_addr = dbrec;
	c.uar = uar;
	c.log_size = 6;
	acmd(o, WREN_AQ_OP_CREATE_CQ, NULL, 0, &c, sizeof(c), 0);
}

static void a_qp(struct out *o, uint8_t type, uint32_t flags, uint64_t buf)
{
	struct wren_create_qp_in q;

	memset(&q, 0, sizeof(q));
	q.type = type;
	q.flags = (uint8_t)flags;
	q.sq_wqe_shift = 6;
	q.sq_log_size = 4;
	if (!(flags & WREN_QP_F_USE_SRQ)) {
		q.rq_wqe_shift = 6;
		q.rq_log_size = 4;
		q.rq_offset = 1024;
	}
	q.pdn = 1;
	q.buf.addr = buf;
	q.buf.page_shift = 12;
	q.dbrec_addr = buf + 0x1000;
	acmd(o, WREN_AQ_OP_CREATE_QP, NULL, 0, &q, sizeof(q), 0);
}

static void a_srq(struct out *o, uint8_t flags, uint32_t xrcdn)
{
	struct wren_create_srq_in s;

	memset(&s, 0, sizeof(s));
	s.pdn = 1;
	s.log_size = 5;
	s.wqe_shift = 6;
	s.flags = flags;
	s.xrcdn = xrcdn;
	s.buf.addr = P(0x60000);
	s.buf.page_shift = 12;
	s.dbrec_addr = P(0x61000);
	acmd(o, WREN_AQ_OP_CREATE_SRQ, NULL, 0, &s, sizeof(s), 0);
}

static void a_modify(struct out *o, uint32_t qpn, uint8_t state, uint32_t mask)
{
	struct wren_modify_qp_in m;

	memset(&m, 0, sizeof(m));
	m.qpn = qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | mask;
	m.new_state = state;
	m.access_flags = WREN_ACCESS_REMOTE_WRITE | WREN_ACCESS_REMOTE_READ;
	m.qkey = FZ_QKEY;
	m.path_mtu = FZ_PATH_MTU;
	m.dest_qpn = 2;
	m.rq_psn = 0x10;
	m.sq_psn = 0x20;
	m.max_dest_rd_atomic = 4;
	m.max_rd_atomic = 4;
	m.min_rnr_timer = 1;
	m.timeout = 10;
	m.retry_cnt = 3;
	m.rnr_retry = 3;
	m.av.hop_limit = 64;
	m.av.flags = WREN_AV_F_IPV4;
	m.av.dgid[10] = m.av.dgid[11] = 0xff;
	m.av.dgid[12] = 10;
	m.av.dgid[15] = 2;
	m.av.dmac[0] = 2;
	m.av.dmac[5] = 2;
	acmd(o, WREN_AQ_OP_MODIFY_QP, NULL, 0, &m, sizeof(m), 0);
}

static void a_base(struct out *o)
{
	acmd(o, WREN_AQ_OP_ALLOC_PD, NULL, 0, NULL, 0, 0);
	a_eq(o, P(0), 6);
	a_cq(o, P(0x10000), P(0x20000), 0);
}

static void a_gid(struct out *o, uint32_t index)
{
	struct wren_set_gid_in g;
	const uint8_t ip[4] = FZ_IP4, mac[6] = FZ_MAC;

	memset(&g, 0, sizeof(g));
	g.index = index;
	g.type = WREN_GID_ROCE_V2;
	g.flags = WREN_AV_F_IPV4;
	g.gid[10] = g.gid[11] = 0xff;
	memcpy(g.gid + 12, ip, 4);
	memcpy(g.mac, mac, 6);
	acmd(o, WREN_AQ_OP_SET_GID, NULL, 0, &g, sizeof(g), 0);
}

static void gen_admin(void)
{
	struct out o = { .n = 0 };

	acmd(&o, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, 0);
	acmd(&o, WREN_AQ_OP_QUERY_DEVICE, NULL, 0, NULL, 0, 256);
	acmd(&o, WREN_AQ_OP_QUERY_PORT, NULL, 0, NULL, 0, 64);
	save("admin", "query", &o);

	{
		struct wren_set_port_in p;

		memset(&p, 0, sizeof(p));
		p.mask = WREN_SET_PORT_MTU | WREN_SET_PORT_ADMIN |
			 WREN_SET_PORT_PAUSE;
		p.mtu = 9000;
		p.admin_up = 1;
		p.pause = 3;
		acmd(&o, WREN_AQ_OP_SET_PORT, NULL, 0, &p, sizeof(p), 0);
		save("admin", "set-port", &o);
	}

	a_eq(&o, P(0), 6);
	ahandle(&o, WREN_AQ_OP_DESTROY_EQ, 0, 0);
	acmd(&o, WREN_AQ_OP_ALLOC_UAR, NULL, 0, NULL, 0, 0);
	ahandle(&o, WREN_AQ_OP_DEALLOC_UAR, 1, 0);
	acmd(&o, WREN_AQ_OP_ALLOC_PD, NULL, 0, NULL, 0, 0);
	ahandle(&o, WREN_AQ_OP_DEALLOC_PD, 1, 0);
	save("admin", "eq-uar-pd", &o);

	{
		/* An EQ on a list of two pages (written with FA_MEM). */
		struct wren_aq_create_eq e;
		uint64_t pages[2] = { P(0x40000), P(0x48000) };

		put8(&o, FA_MEM);
		put32(&o, 0x50000);
		put8(&o, sizeof(pages));
		put(&o, pages, sizeof(pages));
		memset(&e, 0, sizeof(e));
		e.ring.addr = P(0x50000);
		e.ring.npages = 2;
		e.ring.page_shift = 12;
		e.log_size = 9;
		e.moderation_usec = 10;
		e.moderation_count = 4;
		acmd(&o, WREN_AQ_OP_CREATE_EQ, &e, sizeof(e), NULL, 0, 0);
		put8(&o, FA_TIME);
		put32(&o, 100);
		save("admin", "eq-paged", &o);
	}

	a_base(&o);
	{
		struct wren_aq_modify_cq m = { .cqn = 0,
					       .mask = WREN_MODIFY_CQ_MODERATION,
					       .moderation_usec = 5,
					       .moderation_count = 8 };

		acmd(&o, WREN_AQ_OP_MODIFY_CQ, &m, sizeof(m), NULL, 0, 0);
	}
	{
		/* A resize to 128 entries in a ring of its own. */
		struct wren_resize_cq_in rs;

		memset(&rs, 0, sizeof(rs));
		rs.log_size = 7;
		rs.ring.addr = P(0xa0000);
		rs.ring.page_shift = 12;
		rs.dbrec_addr = P(0xa2000);
		acmd(&o, WREN_AQ_OP_RESIZE_CQ, NULL, 0, &rs, sizeof(rs), 0);
	}
	ahandle(&o, WREN_AQ_OP_DESTROY_CQ, 0, 0);
	save("admin", "cq", &o);

	a_base(&o);
	a_qp(&o, WREN_QPT_RC, 0, P(0x30000));
	a_modify(&o, 2, WREN_QPS_INIT, WREN_QP_ATTR_ACCESS_FLAGS);
	a_modify(&o, 2, WREN_QPS_RTR, WREN_QP_ATTR_AV | WREN_QP_ATTR_PATH_MTU |
		 WREN_QP_ATTR_DEST_QPN | WREN_QP_ATTR_RQ_PSN |
		 WREN_QP_ATTR_MAX_DEST_RD_ATOMIC | WREN_QP_ATTR_MIN_RNR_TIMER);
	a_modify(&o, 2, WREN_QPS_RTS, WREN_QP_ATTR_TIMEOUT |
		 WREN_QP_ATTR_RETRY_CNT | WREN_QP_ATTR_RNR_RETRY |
		 WREN_QP_ATTR_SQ_PSN | WREN_QP_ATTR_MAX_QP_RD_ATOMIC);
	ahandle(&o, WREN_AQ_OP_QUERY_QP, 2, 256);
	a_modify(&o, 2, WREN_QPS_SQD, WREN_QP_ATTR_SQ_DRAIN_NOTIFY);
	a_modify(&o, 2, WREN_QPS_ERR, 0);
	ahandle(&o, WREN_AQ_OP_DESTROY_QP, 2, 0);
	save("admin", "qp-rc", &o);

	a_base(&o);
	a_qp(&o, WREN_QPT_UD, 0, P(0x30000));
	a_qp(&o, WREN_QPT_GSI, 0, P(0x38000));
	a_modify(&o, 2, WREN_QPS_INIT, WREN_QP_ATTR_QKEY);
	a_modify(&o, 2, WREN_QPS_RTR, 0);
	a_modify(&o, 2, WREN_QPS_RTS, WREN_QP_ATTR_SQ_PSN);
	a_modify(&o, 1, WREN_QPS_INIT, WREN_QP_ATTR_QKEY);
	save("admin", "qp-ud-gsi", &o);

	/* Multicast: a UD QP in an IPv4 and an IPv6 group, in twice, out. */
	a_base(&o);
	a_qp(&o, WREN_QPT_UD, 0, P(0x30000));
	a_modify(&o, 2, WREN_QPS_INIT, WREN_QP_ATTR_QKEY);
	{
		struct wren_aq_mcast m;

		memset(&m, 0, sizeof(m));
		m.qpn = 2;
		m.gid[10] = m.gid[11] = 0xff;
		m.gid[12] = 239;
		m.gid[15] = 1;
		acmd(&o, WREN_AQ_OP_ATTACH_MCAST, &m, sizeof(m), NULL, 0, 0);
		acmd(&o, WREN_AQ_OP_ATTACH_MCAST, &m, sizeof(m), NULL, 0, 0);
		memset(m.gid, 0, sizeof(m.gid));
		m.gid[0] = 0xff;
		m.gid[1] = 0x0e;
		m.gid[15] = 7;
		acmd(&o, WREN_AQ_OP_ATTACH_MCAST, &m, sizeof(m), NULL, 0, 0);
		acmd(&o, WREN_AQ_OP_DETACH_MCAST, &m, sizeof(m), NULL, 0, 0);
		acmd(&o, WREN_AQ_OP_DETACH_MCAST, &m, sizeof(m), NULL, 0, 0);
	}
	ahandle(&o, WREN_AQ_OP_DESTROY_QP, 2, 0);
	save("admin", "mcast", &o);

	a_base(&o);
	{
		struct wren_aq_modify_srq m = { .srqn = 0,
						.mask = WREN_MODIFY_SRQ_LIMIT,
						.limit = 4 };

		a_srq(&o, 0, 0);
		acmd(&o, WREN_AQ_OP_MODIFY_SRQ, &m, sizeof(m), NULL, 0, 0);
		{
			/* Grown to 64 WQEs in a ring and record of its own. */
			struct wren_resize_srq_in rs;

			memset(&rs, 0, sizeof(rs));
			rs.log_size = 6;
			rs.buf.addr = P(0x62000);
			rs.buf.page_shift = 12;
			rs.dbrec_addr = P(0x63000);
			acmd(&o, WREN_AQ_OP_RESIZE_SRQ, NULL, 0, &rs, sizeof(rs), 0);
		}
		ahandle(&o, WREN_AQ_OP_QUERY_SRQ, 0, 32);
		a_qp(&o, WREN_QPT_RC, WREN_QP_F_USE_SRQ, P(0x30000));
		ahandle(&o, WREN_AQ_OP_DESTROY_SRQ, 0, 0);
		save("admin", "srq", &o);
	}

	/* XRC: a domain, its SRQ (CQ 0), a target and an initiator. */
	a_base(&o);
	acmd(&o, WREN_AQ_OP_ALLOC_XRCD, NULL, 0, NULL, 0, 0);
	{
		struct wren_create_qp_in t;

		a_srq(&o, WREN_SRQ_F_XRC, 1);
		memset(&t, 0, sizeof(t));
		t.type = WREN_QPT_XRC_TGT;
		t.xrcdn = 1;
		acmd(&o, WREN_AQ_OP_CREATE_QP, NULL, 0, &t, sizeof(t), 0);
		a_modify(&o, 2, WREN_QPS_INIT, WREN_QP_ATTR_ACCESS_FLAGS);
		a_modify(&o, 2, WREN_QPS_RTR,
			 WREN_QP_ATTR_AV | WREN_QP_ATTR_PATH_MTU |
			 WREN_QP_ATTR_DEST_QPN | WREN_QP_ATTR_RQ_PSN |
			 WREN_QP_ATTR_MAX_DEST_RD_ATOMIC |
			 WREN_QP_ATTR_MIN_RNR_TIMER);
		a_modify(&o, 2, WREN_QPS_RTS,
			 WREN_QP_ATTR_TIMEOUT | WREN_QP_ATTR_SQ_PSN);
		ahandle(&o, WREN_AQ_OP_QUERY_QP, 2, 256);
		/* An initiator: an SQ, its CQ and PD, no receive side. */
		memset(&t, 0, sizeof(t));
		t.type = WREN_QPT_XRC_INI;
		t.sq_wqe_shift = 6;
		t.sq_log_size = 4;
		t.pdn = 1;
		t.buf.addr = P(0x30000);
		t.buf.page_shift = 12;
		t.dbrec_addr = P(0x31000);
		acmd(&o, WREN_AQ_OP_CREATE_QP, NULL, 0, &t, sizeof(t), 0);
		ahandle(&o, WREN_AQ_OP_DEALLOC_XRCD, 1, 0);
		ahandle(&o, WREN_AQ_OP_DESTROY_QP, 2, 0);
		ahandle(&o, WREN_AQ_OP_DESTROY_SRQ, 0, 0);
		ahandle(&o, WREN_AQ_OP_DEALLOC_XRCD, 1, 0);
		save("admin", "xrc", &o);
	}

	acmd(&o, WREN_AQ_OP_ALLOC_PD, NULL, 0, NULL, 0, 0);
	{
		struct wren_create_mr_in m;
		struct wren_aq_write_mtt w = { .mr_index = 1, .count = 4 };
		struct wren_modify_mr_in mm;
		uint64_t pages[4] = { P(0x70000), P(0x72000), P(0x74000),
				      P(0x76000) };

		memset(&m, 0, sizeof(m));
		m.pdn = 1;
		m.access = 0xf;
		m.iova = 0x1000;
		m.length = 0x4000;
		m.num_mtt = 4;
		m.page_shift = 12;
		m.key_tag = 7;
		acmd(&o, WREN_AQ_OP_CREATE_MR, NULL, 0, &m, sizeof(m), 0);
		acmd(&o, WREN_AQ_OP_WRITE_MTT, &w, sizeof(w), pages,
		     sizeof(pages), 0);
		ahandle(&o, WREN_AQ_OP_ACTIVATE_MR, 1, 0);
		ahandle(&o, WREN_AQ_OP_QUERY_MR, 1, 64);
		ahandle(&o, WREN_AQ_OP_DEACTIVATE_MR, 1, 0);
		memset(&mm, 0, sizeof(mm));
		mm.mr_index = 1;
		mm.mask = WREN_MODIFY_MR_ACCESS | WREN_MODIFY_MR_KEY |
			  WREN_MODIFY_MR_RANGE;
		mm.access = 1;
		mm.iova = 0x2000;
		mm.length = 0x2000;
		mm.key_tag = 9;
		acmd(&o, WREN_AQ_OP_MODIFY_MR, NULL, 0, &mm, sizeof(mm), 0);
		ahandle(&o, WREN_AQ_OP_DESTROY_MR, 1, 0);
		m.flags = WREN_MR_F_FAST_REG;
		acmd(&o, WREN_AQ_OP_CREATE_MR, NULL, 0, &m, sizeof(m), 0);
		save("admin", "mr", &o);
	}

	/* Windows: made, their PD and MR held busy, destroyed. */
	acmd(&o, WREN_AQ_OP_ALLOC_PD, NULL, 0, NULL, 0, 0);
	{
		struct wren_create_mr_in m;
		struct wren_aq_create_mw w;

		memset(&m, 0, sizeof(m));
		m.pdn = 1;
		m.access = 0x1f;	/* every right and MW_BIND */
		m.iova = 0x1000;
		m.length = 0x1000;
		m.num_mtt = 1;
		m.page_shift = 12;
		acmd(&o, WREN_AQ_OP_CREATE_MR, NULL, 0, &m, sizeof(m), 0);
		memset(&w, 0, sizeof(w));
		w.pdn = 1;
		w.type = WREN_MW_TYPE_1;
		w.key_tag = 0x11;
		acmd(&o, WREN_AQ_OP_CREATE_MW, &w, sizeof(w), NULL, 0, 0);
		w.type = WREN_MW_TYPE_2;
		acmd(&o, WREN_AQ_OP_CREATE_MW, &w, sizeof(w), NULL, 0, 0);
		ahandle(&o, WREN_AQ_OP_DEALLOC_PD, 1, 0);
		ahandle(&o, WREN_AQ_OP_DESTROY_MW, 16, 0);
		ahandle(&o, WREN_AQ_OP_DESTROY_MW, 17, 0);
		ahandle(&o, WREN_AQ_OP_DESTROY_MR, 1, 0);
		save("admin", "mw", &o);
	}

	acmd(&o, WREN_AQ_OP_ALLOC_PD, NULL, 0, NULL, 0, 0);
	a_gid(&o, 0);
	{
		struct wren_create_ah_in a;

		memset(&a, 0, sizeof(a));
		a.pdn = 1;
		a.av.hop_limit = 64;
		a.av.flags = WREN_AV_F_IPV4 | WREN_AV_F_VLAN;
		a.av.vlan_id = 5;
		a.av.dgid[10] = a.av.dgid[11] = 0xff;
		a.av.dgid[12] = 10;
		a.av.dmac[0] = 2;
		a.av.sl = 3;
		acmd(&o, WREN_AQ_OP_CREATE_AH, NULL, 0, &a, sizeof(a), 0);
		ahandle(&o, WREN_AQ_OP_DESTROY_AH, 1, 0);
		save("admin", "gid-ah", &o);
	}

	a_base(&o);
	{
		struct wren_create_eth_q_in q;
		static struct wren_set_rss_in r;
		struct wren_set_rx_mode_in m;

		memset(&q, 0, sizeof(q));
		q.ring.addr = P(0x80000);
		q.ring.page_shift = 12;
		q.log_size = 4;
		q.prio = 3;
		acmd(&o, WREN_AQ_OP_CREATE_ETH_TXQ, NULL, 0, &q, sizeof(q), 0);
		q.ring.addr = P(0x90000);
		acmd(&o, WREN_AQ_OP_CREATE_ETH_RXQ, NULL, 0, &q, sizeof(q), 0);
		memset(&r, 0, sizeof(r));
		r.key[0] = 0x6d;
		r.table_size = 4;
		r.hash_types = 0x3f;
		acmd(&o, WREN_AQ_OP_SET_RSS, NULL, 0, &r, 64 + 16, 0);
		memset(&m, 0, sizeof(m));
		m.flags = WREN_RX_MODE_ALLMULTI;
		m.num_macs = 1;
		m.macs[0][0] = 0x02;
		acmd(&o, WREN_AQ_OP_SET_RX_MODE, NULL, 0, &m, 16, 0);
		ahandle(&o, WREN_AQ_OP_DESTROY_ETH_TXQ, 0, 0);
		ahandle(&o, WREN_AQ_OP_DESTROY_ETH_RXQ, 0, 0);
		save("admin", "eth", &o);
	}

	{
		struct wren_ets e = { .tc_tsa = { 2, 2, 0 },
				      .tc_bw = { 60, 40 },
				      .prio_tc = { 0, 0, 1, 2 } };
		struct wren_pfc p = { .pfc_en = 0x08, .delay = 100 };
		struct wren_trust t = { .trust = WREN_TRUST_DSCP };
		struct wren_buffer b;
		struct wren_maxrate mr = { .tc_maxrate_kbps = { 1000000 } };
		struct wren_pfc_wd w = { .timeout_ms = 100,
					 .recovery_ms = 200 };
		struct wren_cc_params c;
		struct wren_aq_handle prio = { .handle = 3 };

		memset(&b, 0, sizeof(b));
		for (int i = 0; i < 8; i++) {
			b.size[i] = i == 3 ? 131072 : 32768;
			b.xoff[i] = 16384;
			b.xon[i] = 8192;
			b.prio2buffer[i] = (uint8_t)i;
		}
		memset(&c, 0, sizeof(c));
		c.prio_mask = 0x08;
		c.np_enable = c.rp_enable = c.ecn_enable = 1;
		c.rp_initial_alpha = 1023;
		c.rp_g = 4;
		c.rp_alpha_update_us = 55;
		c.rp_time_reset_us = 300;
		c.rp_byte_reset = 32768;
		c.rp_threshold = 5;
		c.rp_ai_rate_mbps = 5;
		c.rp_hai_rate_mbps = 50;
		c.rp_min_rate_mbps = 1;
		c.rp_rate_reduce_period_us = 4;
		c.rp_min_dec_fac = 50;
		c.rp_gd = 11;
		acmd(&o, WREN_AQ_OP_SET_ETS, NULL, 0, &e, sizeof(e), 0);
		acmd(&o, WREN_AQ_OP_SET_PFC, NULL, 0, &p, sizeof(p), 0);
		acmd(&o, WREN_AQ_OP_SET_TRUST, NULL, 0, &t, sizeof(t), 0);
		acmd(&o, WREN_AQ_OP_SET_BUFFER, NULL, 0, &b, sizeof(b), 0);
		acmd(&o, WREN_AQ_OP_SET_MAXRATE, NULL, 0, &mr, sizeof(mr), 0);
		acmd(&o, WREN_AQ_OP_SET_PFC_WD, NULL, 0, &w, sizeof(w), 0);
		acmd(&o, WREN_AQ_OP_QUERY_DCB, NULL, 0, NULL, 0, 512);
		acmd(&o, WREN_AQ_OP_SET_CC, NULL, 0, &c, sizeof(c), 0);
		acmd(&o, WREN_AQ_OP_QUERY_CC, &prio, sizeof(prio), NULL, 0,
		     128);
		save("admin", "dcb-cc", &o);
	}

	for (uint8_t set = 0; set <= WREN_COUNTERS_PFC; set++) {
		struct wren_aq_counters c = { .set = set };

		acmd(&o, WREN_AQ_OP_QUERY_COUNTERS, &c, sizeof(c), NULL, 0,
		     1024);
		acmd(&o, WREN_AQ_OP_CLEAR_COUNTERS, &c, sizeof(c), NULL, 0, 0);
	}
	save("admin", "counters", &o);

	{
		static const uint32_t faults[][2] = {
			{ WREN_DIAG_AQ_LATE, 50 }, { WREN_DIAG_DROP_EQE, 3 },
			{ WREN_DIAG_LINK_FLAP, 20 }, { WREN_DIAG_RX_DRAIN, 100 },
			{ WREN_DIAG_AQ_STALL, 0 }, { WREN_DIAG_FATAL, 0 },
		};

		for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]);
		     i++) {
			struct wren_aq_diag_fault f = { .fault = faults[i][0],
							.arg = faults[i][1] };
			char name[32];

			acmd(&o, WREN_AQ_OP_DIAG_FAULT, &f, sizeof(f), NULL, 0,
			     0);
			acmd(&o, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, 0);
			put8(&o, FA_TIME);
			put32(&o, 100000);
			acmd(&o, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, 0);
			snprintf(name, sizeof(name), "diag-%u", faults[i][0]);
			save("admin", name, &o);
		}
	}

	/* A batch, a producer beyond the ring, completions left unacked. */
	for (int i = 0; i < 5; i++) {
		struct wren_aq_cmd c;

		memset(&c, 0, sizeof(c));
		put8(&o, FA_CMD);
		put8(&o, FA_QUEUE_ONLY);
		put(&o, &c, sizeof(c));
		put16(&o, 0);
	}
	put8(&o, FA_RING);
	put8(&o, FA_AQ_PI);
	put32(&o, 0x1000);
	put8(&o, FA_ACQ);
	put8(&o, 0);
	put32(&o, 0);
	for (int i = 0; i < 3; i++)
		acmd(&o, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, 0);
	put8(&o, FA_ACQ);
	put8(&o, 2);
	put32(&o, 0);
	put8(&o, FA_AEQ);
	put8(&o, 1);
	put32(&o, 7);
	save("admin", "aq-indexes", &o);

	/* A command whose input buffer faults. */
	put8(&o, FA_FAULT);
	put8(&o, 2);
	put32(&o, 0);
	put16(&o, 16);
	a_cq(&o, P(0x10000), P(0x20000), 0);
	put8(&o, FA_FAULT);
	put8(&o, 0);
	put32(&o, 0);
	put16(&o, 0);
	save("admin", "dma-fault", &o);
}

/* ------------------------------------------------------------ rings */

/* A send WQE: control, the opcode's fixed segment, @nsge SGEs. */
static size_t wqe(uint8_t *b, uint8_t op, uint8_t flags, bool ud,
		  unsigned int nsge, uint32_t len)
{
	struct wren_wqe_ctrl *c = (void *)b;
	size_t off = sizeof(*c);

	memset(b, 0, 256);
	c->opcode = op;
	c->flags = flags | WREN_WQE_F_SIGNALED;
	c->imm_data = 0x01020304;
	if (op == WREN_WQE_SEND_INV || op == WREN_WQE_LOCAL_INV)
		c->inv_rkey = FZ_FR_KEY;
	if (ud && op <= WREN_WQE_SEND_INV) {
		struct wren_wqe_ud u = { .ah = FZ_AH,
					 .dest_qpn = FZ_QPN_GSI,
					 .qkey = FZ_QKEY };

		memcpy(b + off, &u, sizeof(u));
		off += sizeof(u);
	} else if (op >= WREN_WQE_RDMA_WRITE &&
		   op <= WREN_WQE_ATOMIC_FETCH_ADD) {
		struct wren_wqe_raddr ra = { .raddr = FZ_MR_IOVA + 40960,
					     .rkey = FZ_MR_KEY };
		struct wren_wqe_atomic at = { .swap_add = 5, .compare = 0 };

		memcpy(b + off, &ra, sizeof(ra));
		off += sizeof(ra);
		if (wren_wqe_is_atomic(op)) {
			memcpy(b + off, &at, sizeof(at));
			off += sizeof(at);
		}
	} else if (wren_wqe_is_iba15(op)) {
		struct wren_wqe_raddr ra = { .raddr = FZ_MR_IOVA + 40960,
					     .rkey = FZ_MR_KEY };
		struct wren_wqe_flush fl = { .length = len,
					     .type = WREN_FLUSH_GLOBAL,
					     .level = WREN_FLUSH_RANGE };
		struct wren_wqe_atomic_write aw = { .data = { 1, 2, 3 } };

		memcpy(b + off, &ra, sizeof(ra));
		off += sizeof(ra);
		if (op == WREN_WQE_FLUSH)
			memcpy(b + off, &fl, sizeof(fl));
		else
			memcpy(b + off, &aw, sizeof(aw));
		off += 16;
		nsge = 0;
	} else if (op == WREN_WQE_REG_MR) {
		struct wren_wqe_reg_mr r;

		memset(&r, 0, sizeof(r));
		r.key = FZ_FR_KEY;
		r.access = 0xf;
		r.iova = 0x20000000;
		r.length = 8192;
		r.npages = 2;
		r.page_shift = 12;
		r.pbl_addr = FZ_PBL;
		memcpy(b + off, &r, sizeof(r));
		off += sizeof(r);
		nsge = 0;
	}
	if (flags & WREN_WQE_F_INLINE) {
		struct wren_wqe_inline in = { .length = 40 };

		memcpy(b + off, &in, sizeof(in));
		memset(b + off + 16, 0x5a, 40);
		off += 16 + 48;
		c->ds_count = (uint8_t)wren_inline_ds(40);
		return off;
	}
	for (unsigned int i = 0; i < nsge; i++) {
		struct wren_wqe_sge s = { .addr = FZ_MR_IOVA + 32768 + i * 100,
					  .length = wren_wqe_is_atomic(op) ?
						    8 : len,
					  .lkey = FZ_MR_KEY };

		memcpy(b + off, &s, sizeof(s));
		off += sizeof(s);
	}
	c->ds_count = (uint8_t)nsge;
	return off;
}

static void r_wqe(struct out *o, uint8_t q, uint8_t op, uint8_t flags,
		  unsigned int nsge, uint32_t len)
{
	uint8_t b[256];
	size_t n = wqe(b, op, flags, q >= FZ_QP_UD, nsge, len);

	put8(o, FR_SQ_WQE);
	put8(o, q);
	put8(o, FR_FIX_IDX | FR_RING);
	put8(o, (uint32_t)n);
	put(o, b, n);
}

/* BIND_MW on @q of a window of the setup to 4 KiB of the data MR. */
static void r_bind(struct out *o, uint8_t q, uint32_t mw_key, uint8_t type)
{
	uint8_t b[64];
	struct wren_wqe_ctrl *c = (void *)b;
	struct wren_wqe_bind_mw w;

	memset(b, 0, sizeof(b));
	c->opcode = WREN_WQE_BIND_MW;
	c->flags = WREN_WQE_F_SIGNALED;
	memset(&w, 0, sizeof(w));
	w.mw_key = mw_key;
	w.mr_key = FZ_MR_KEY;
	w.addr = FZ_MR_IOVA + 40960;
	w.length = 4096;
	w.access = WREN_ACCESS_REMOTE_WRITE | WREN_ACCESS_REMOTE_READ |
		   WREN_ACCESS_REMOTE_ATOMIC;
	w.type = type;
	memcpy(b + sizeof(*c), &w, sizeof(w));
	put8(o, FR_SQ_WQE);
	put8(o, q);
	put8(o, FR_FIX_IDX | FR_RING);
	put8(o, sizeof(*c) + sizeof(w));
	put(o, b, sizeof(*c) + sizeof(w));
}

/* A WRITE (or LOCAL_INV / SEND_INV) from @q naming @key instead. */
static void r_wqe_key(struct out *o, uint8_t q, uint8_t op, uint32_t key)
{
	uint8_t b[256];
	size_t n = wqe(b, op, 0, false, op == WREN_WQE_LOCAL_INV ? 0 : 1, 64);
	struct wren_wqe_ctrl *c = (void *)b;

	if (op == WREN_WQE_RDMA_WRITE)
		memcpy(b + sizeof(*c) + offsetof(struct wren_wqe_raddr, rkey),
		       &key, 4);
	else
		c->inv_rkey = key;
	put8(o, FR_SQ_WQE);
	put8(o, q);
	put8(o, FR_FIX_IDX | FR_RING);
	put8(o, (uint32_t)n);
	put(o, b, n);
}

/* Runs the NIC until quiet: the WQEs so far complete before the next. */
static void r_settle(struct out *o)
{
	put8(o, FR_SETTLE);
	put32(o, 100000);
	put8(o, FR_POLL);
}

static void r_end(struct out *o, const char *name)
{
	put8(o, FR_SETTLE);
	put32(o, 100000);
	put8(o, FR_POLL);
	save("rings", name, o);
}

static void gen_rings(void)
{
	static const struct {
		const char *name;
		uint8_t op, flags;
		unsigned int nsge;
		uint32_t len;
	} w[] = {
		{ "nop", WREN_WQE_NOP, 0, 0, 0 },
		{ "send", WREN_WQE_SEND, 0, 1, 1000 },
		{ "send-imm", WREN_WQE_SEND_IMM, WREN_WQE_F_SOLICITED, 1, 10 },
		{ "send-inv", WREN_WQE_SEND_INV, 0, 1, 64 },
		{ "send-3sge", WREN_WQE_SEND, 0, 3, 700 },
		{ "send-inline", WREN_WQE_SEND, WREN_WQE_F_INLINE, 0, 0 },
		{ "write", WREN_WQE_RDMA_WRITE, 0, 1, 3000 },
		{ "write-imm", WREN_WQE_RDMA_WRITE_IMM, 0, 1, 100 },
		{ "read", WREN_WQE_RDMA_READ, WREN_WQE_F_FENCE, 1, 2500 },
		{ "cmp-swap", WREN_WQE_ATOMIC_CMP_SWP, 0, 1, 8 },
		{ "fetch-add", WREN_WQE_ATOMIC_FETCH_ADD, 0, 1, 8 },
		{ "local-inv", WREN_WQE_LOCAL_INV, 0, 0, 0 },
		{ "reg-mr", WREN_WQE_REG_MR, 0, 0, 0 },
		{ "flush", WREN_WQE_FLUSH, WREN_WQE_F_FENCE, 0, 4096 },
		{ "atomic-write", WREN_WQE_ATOMIC_WRITE, 0, 0, 0 },
	};
	struct out o = { .n = 0 };

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		r_wqe(&o, FZ_QP_A, w[i].op, w[i].flags, w[i].nsge, w[i].len);
		/* And back from B: its receives come from A's RQ. */
		if (w[i].op == WREN_WQE_SEND)
			r_wqe(&o, FZ_QP_B, w[i].op, w[i].flags, w[i].nsge,
			      w[i].len);
		r_end(&o, w[i].name);
	}
	r_wqe(&o, FZ_QP_UD, WREN_WQE_SEND, 0, 1, 200);
	r_wqe(&o, FZ_QP_GSI, WREN_WQE_SEND_IMM, 0, 1, 100);
	r_end(&o, "ud-gsi");

	/*
	 * Windows: a type 1 bound on A, written through by A (B's responder
	 * checks it), rebound with another tag; a type 2 bound on B (A's
	 * requests arrive there), written, invalidated by A's SEND_INV.
	 */
	r_bind(&o, FZ_QP_A, FZ_MW1_KEY, WREN_MW_TYPE_1);
	r_settle(&o);
	r_wqe_key(&o, FZ_QP_A, WREN_WQE_RDMA_WRITE, FZ_MW1_KEY);
	r_settle(&o);
	r_bind(&o, FZ_QP_B, FZ_MW1_KEY + 1, WREN_MW_TYPE_1);
	r_settle(&o);
	r_wqe_key(&o, FZ_QP_A, WREN_WQE_RDMA_WRITE, FZ_MW1_KEY + 1);
	r_end(&o, "bind-mw1");
	r_bind(&o, FZ_QP_B, FZ_MW2_KEY, WREN_MW_TYPE_2);
	r_settle(&o);
	r_wqe_key(&o, FZ_QP_A, WREN_WQE_RDMA_WRITE, FZ_MW2_KEY);
	r_settle(&o);
	r_wqe_key(&o, FZ_QP_A, WREN_WQE_SEND_INV, FZ_MW2_KEY);
	r_settle(&o);
	r_bind(&o, FZ_QP_B, FZ_MW2_KEY + 1, WREN_MW_TYPE_2);
	r_settle(&o);
	r_wqe_key(&o, FZ_QP_B, WREN_WQE_LOCAL_INV, FZ_MW2_KEY + 1);
	r_end(&o, "bind-mw2");

	/* Several WQEs written, one doorbell; then one beyond the ring. */
	for (int i = 0; i < 3; i++) {
		uint8_t b[256];
		size_t n = wqe(b, WREN_WQE_RDMA_WRITE, 0, false, 1, 512);

		put8(&o, FR_SQ_WQE);
		put8(&o, FZ_QP_A);
		put8(&o, FR_FIX_IDX);
		put8(&o, (uint32_t)n);
		put(&o, b, n);
	}
	put8(&o, FR_SQ_DB);
	put8(&o, FZ_QP_A);
	put8(&o, 0);
	put32(&o, 0);
	put8(&o, 0);
	put8(&o, FR_SQ_DB);
	put8(&o, FZ_QP_B);
	put8(&o, FR_DB_RAW_INDEX);
	put32(&o, 1000);
	put8(&o, 0);
	r_end(&o, "doorbells");

	/* A receive WQE posted by hand, a bad doorbell record. */
	{
		struct {
			struct wren_rqe h;
			struct wren_wqe_sge s[2];
		} rq;

		memset(&rq, 0, sizeof(rq));
		rq.h.ds_count = 2;
		rq.s[0].addr = FZ_MR_IOVA + 50000;
		rq.s[0].length = 100;
		rq.s[0].lkey = FZ_MR_KEY;
		rq.s[1] = rq.s[0];
		rq.s[1].addr += 200;
		put8(&o, FR_RQ_WQE);
		put8(&o, 3);		/* the SRQ */
		put8(&o, FR_FIX_IDX);
		put8(&o, sizeof(rq));
		put(&o, &rq, sizeof(rq));
		r_wqe(&o, FZ_QP_A, WREN_WQE_SEND, 0, 1, 250);
		put8(&o, FR_DBREC);
		put8(&o, 0);
		put32(&o, 0x7000);
		r_wqe(&o, FZ_QP_B, WREN_WQE_SEND, 0, 1, 250);
		r_end(&o, "recv");
	}

	/* CQ armed, QP to ERR under traffic, reconnected; MR flipped. */
	put8(&o, FR_CQ_DB);
	put8(&o, 1);
	put8(&o, 1);
	put32(&o, 0);
	r_wqe(&o, FZ_QP_A, WREN_WQE_RDMA_READ, 0, 1, 4000);
	put8(&o, FR_QP_STATE);
	put8(&o, FZ_QP_B);
	put8(&o, WREN_QPS_ERR);
	put8(&o, FR_SETTLE);
	put32(&o, 1000);
	put8(&o, FR_QP_STATE);
	put8(&o, FZ_QP_B);
	put8(&o, FR_RECONNECT);
	put8(&o, FR_MR);
	put8(&o, 1);
	r_wqe(&o, FZ_QP_A, WREN_WQE_RDMA_WRITE, 0, 1, 100);
	put8(&o, FR_MR);
	put8(&o, 0);
	r_end(&o, "states");
}

/* --------------------------------------------------------------- rx */

struct pkt {
	uint8_t op;
	uint32_t dqpn, psn;
	bool ipv6, vlan, ack_req, ecn_ce;
	bool mcast;		/* IPv4 only: to FZ_MCAST_IP4 */
	const uint8_t *ext;
	size_t ext_len;
	size_t payload;
};

/* Ethernet, IPv4 or IPv6, UDP 4791, BTH, @ext, payload, room for ICRC. */
static size_t roce(uint8_t *f, const struct pkt *p)
{
	const uint8_t mac[6] = FZ_MAC, peer[6] = FZ_PEER_MAC;
	const uint8_t ip4[4] = FZ_IP4, peer4[4] = FZ_PEER_IP4;
	const uint8_t gid6[16] = FZ_GID6, peer6[16] = FZ_PEER_GID6;
	const uint8_t grp4[4] = FZ_MCAST_IP4;
	size_t off = 12, ipl;
	uint8_t *ip, *bth;

	memset(f, 0, 2048);
	memcpy(f, mac, 6);
	memcpy(f + 6, peer, 6);
	if (p->vlan) {
		f[12] = 0x81;
		f[14] = 0x60;		/* PCP 3 */
		f[15] = 5;
		off = 16;
	}
	f[off] = p->ipv6 ? 0x86 : 0x08;
	f[off + 1] = p->ipv6 ? 0xdd : 0x00;
	ip = f + off + 2;
	if (p->ipv6) {
		ip[0] = 0x60 | (p->ecn_ce ? 0 : 0);
		ip[1] = p->ecn_ce ? 0x30 : 0x20;
		ip[6] = 17;
		ip[7] = 64;
		memcpy(ip + 8, peer6, 16);
		memcpy(ip + 24, gid6, 16);
		ipl = 40;
	} else {
		ip[0] = 0x45;
		ip[1] = p->ecn_ce ? 3 : 2;
		ip[6] = 0x40;
		ip[8] = 64;
		ip[9] = 17;
		memcpy(ip + 12, peer4, 4);
		memcpy(ip + 16, p->mcast ? grp4 : ip4, 4);
		ipl = 20;
	}
	if (p->mcast) {
		uint8_t gid[16] = { [10] = 0xff, [11] = 0xff };

		memcpy(gid + 12, grp4, 4);
		wren_mcast_mac(gid, f);
	}
	ip[ipl] = 0xc0;
	ip[ipl + 2] = 4791 >> 8;
	ip[ipl + 3] = 4791 & 0xff;
	bth = ip + ipl + 8;
	bth[0] = p->op;
	bth[2] = bth[3] = 0xff;
	bth[5] = (uint8_t)(p->dqpn >> 16);
	bth[6] = (uint8_t)(p->dqpn >> 8);
	bth[7] = (uint8_t)p->dqpn;
	bth[8] = p->ack_req ? 0x80 : 0;
	bth[9] = (uint8_t)(p->psn >> 16);
	bth[10] = (uint8_t)(p->psn >> 8);
	bth[11] = (uint8_t)p->psn;
	memcpy(bth + 12, p->ext, p->ext_len);
	for (size_t i = 0; i < p->payload; i++)
		bth[12 + p->ext_len + i] = (uint8_t)i;
	return (size_t)(bth - f) + 12 + p->ext_len + p->payload + 4;
}

static void x_frame(struct out *o, const uint8_t *f, size_t n, uint8_t fix)
{
	put8(o, FX_FRAME);
	put8(o, fix);
	put16(o, (uint32_t)n);
	put(o, f, n);
}

static void x_end(struct out *o, const char *name)
{
	put8(o, FX_TIME);
	put32(o, 10000);
	put8(o, FX_POLL);
	save("rx", name, o);
}

static void be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void be64(uint8_t *p, uint64_t v)
{
	be32(p, (uint32_t)(v >> 32));
	be32(p + 4, (uint32_t)v);
}

static void gen_rx(void)
{
	static uint8_t f[FX_FRAME_MAX];
	uint8_t reth[16], aeth[4], atomic[28], ack[12], imm[4], deth[8];
	uint8_t flush[20], awrite[16];
	struct out o = { .n = 0 };
	struct pkt p;
	size_t n;

	be64(reth, FZ_MR_IOVA + 4096);
	be32(reth + 8, FZ_MR_KEY);
	be32(reth + 12, 512);
	be64(atomic, FZ_MR_IOVA + 8192);
	be32(atomic + 8, FZ_MR_KEY);
	be64(atomic + 12, 7);
	be64(atomic + 20, 0);
	be32(imm, 0xdeadbeef);
	/* FLUSH: a FETH (global, range), then a RETH of 4 KiB. */
	be32(flush, WREN_FLUSH_RANGE << 4 | WREN_FLUSH_GLOBAL);
	memcpy(flush + 4, reth, 16);
	be32(flush + 16, 4096);
	memcpy(awrite, reth, 16);
	be32(awrite + 12, 8);
	be32(deth, FZ_QKEY);
	be32(deth + 4, FZ_PEER_UD_QPN);

	/* Requests to B at its expected PSN: every request opcode. */
	{
		static const struct {
			const char *name;
			uint8_t op;
			int ext;	/* 0 none, 1 RETH, 2 atomic, 3 imm/inv,
					 * 4 RETH + imm, 5 FLUSH, 6 ATOMIC WRITE */
			size_t payload;
		} req[] = {
			{ "send-only", 0x04, 0, 100 },
			{ "send-only-imm", 0x05, 3, 64 },
			{ "send-first", 0x00, 0, 1024 },
			{ "send-only-inv", 0x17, 3, 32 },
			{ "write-only", 0x0a, 1, 512 },
			{ "write-first", 0x06, 1, 1024 },
			{ "write-only-imm", 0x0b, 4, 512 },
			{ "read-req", 0x0c, 1, 0 },
			{ "cmp-swap", 0x13, 2, 0 },
			{ "fetch-add", 0x14, 2, 0 },
			{ "flush", 0x1c, 5, 0 },
			{ "atomic-write", 0x1d, 6, 8 },
		};

		for (size_t i = 0; i < sizeof(req) / sizeof(req[0]); i++) {
			uint8_t ext[32];
			size_t el = 0;

			if (req[i].ext == 1 || req[i].ext == 4) {
				memcpy(ext, reth, 16);
				el = 16;
			}
			if (req[i].ext == 2) {
				memcpy(ext, atomic, 28);
				el = 28;
			}
			if (req[i].ext == 5) {
				memcpy(ext, flush, 20);
				el = 20;
			}
			if (req[i].ext == 6) {
				memcpy(ext, awrite, 16);
				el = 16;
			}
			if (req[i].ext == 3 || req[i].ext == 4) {
				memcpy(ext + el, imm, 4);
				el += 4;
			}
			memset(&p, 0, sizeof(p));
			p.op = req[i].op;
			p.dqpn = FZ_QPN_B;
			p.psn = FZ_B_RQ_PSN;
			p.ack_req = true;
			p.ext = ext;
			p.ext_len = el;
			p.payload = req[i].payload;
			n = roce(f, &p);
			put8(&o, (uint32_t)i);	/* a different port setup each */
			x_frame(&o, f, n, FZ_FIX_LEN | FZ_FIX_CSUM |
				FZ_FIX_ICRC);
			if (req[i].op == 0x00 || req[i].op == 0x06) {
				/* ... and its LAST at the next PSN. */
				p.op = (uint8_t)(req[i].op + 2);
				p.psn++;
				p.ext_len = 0;
				p.payload = 100;
				n = roce(f, &p);
				x_frame(&o, f, n, 7);
			}
			x_end(&o, req[i].name);
		}
	}

	/* Responses to A's outstanding WRITE, READ and atomics. */
	memset(aeth, 0, sizeof(aeth));
	memset(&p, 0, sizeof(p));
	p.dqpn = FZ_QPN_A;
	p.op = 0x11;
	p.psn = FZ_A_SQ_PSN + 1;
	p.ext = aeth;
	p.ext_len = 4;
	put8(&o, 0);
	x_frame(&o, f, roce(f, &p), 7);
	p.op = 0x0d;		/* READ_RESP_FIRST */
	p.psn++;
	p.payload = 1024;
	x_frame(&o, f, roce(f, &p), 7);
	p.op = 0x0f;		/* READ_RESP_LAST */
	p.psn++;
	x_frame(&o, f, roce(f, &p), 7);
	memset(ack, 0, sizeof(ack));
	memcpy(ack, aeth, 4);
	p.op = 0x12;		/* ATOMIC_ACK */
	p.psn++;
	p.ext = ack;
	p.ext_len = 12;
	p.payload = 0;
	x_frame(&o, f, roce(f, &p), 7);
	x_end(&o, "responses");

	/* NAKs: RNR, sequence error, remote access, remote operational. */
	{
		static const uint8_t synd[] = { 0x21, 0x60, 0x62, 0x63, 0x61 };

		for (size_t i = 0; i < sizeof(synd); i++) {
			char name[32];

			aeth[0] = synd[i];
			memset(&p, 0, sizeof(p));
			p.dqpn = FZ_QPN_A;
			p.op = 0x11;
			p.psn = FZ_A_SQ_PSN;
			p.ext = aeth;
			p.ext_len = 4;
			put8(&o, 0);
			x_frame(&o, f, roce(f, &p), 7);
			snprintf(name, sizeof(name), "nak-%02x", synd[i]);
			x_end(&o, name);
		}
	}

	/* UD to the UD QP over IPv6 and to GSI, tagged; a CNP to A. */
	memset(&p, 0, sizeof(p));
	p.op = 0x64;
	p.dqpn = FZ_QPN_UD;
	p.ext = deth;
	p.ext_len = 8;
	p.payload = 200;
	p.ipv6 = true;
	put8(&o, FX_CFG_DSCP);
	x_frame(&o, f, roce(f, &p), 7);
	p.dqpn = FZ_QPN_GSI;
	p.ipv6 = false;
	p.vlan = true;
	p.op = 0x65;
	{
		uint8_t de[12];

		memcpy(de, deth, 8);
		memcpy(de + 8, imm, 4);
		p.ext = de;
		p.ext_len = 12;
		x_frame(&o, f, roce(f, &p), 7);
	}
	x_end(&o, "ud");

	/* UD to the UD QP's group: its MAC, its address, QPN 0xffffff. */
	memset(&p, 0, sizeof(p));
	p.op = 0x64;
	p.dqpn = WREN_MCAST_QPN;
	p.ext = deth;
	p.ext_len = 8;
	p.payload = 100;
	p.mcast = true;
	x_frame(&o, f, roce(f, &p), 7);
	p.dqpn = FZ_QPN_UD;
	x_frame(&o, f, roce(f, &p), 7);
	x_end(&o, "mcast");

	memset(&p, 0, sizeof(p));
	{
		uint8_t pad[16] = { 0 };

		p.op = 0x81;
		p.dqpn = FZ_QPN_A;
		p.ext = pad;
		p.ext_len = 16;
		put8(&o, FX_CFG_CC);
		x_frame(&o, f, roce(f, &p), 7);
		/* A CE-marked request: B's NP answers with a CNP. */
		p.op = 0x04;
		p.dqpn = FZ_QPN_B;
		p.psn = FZ_B_RQ_PSN;
		p.ext_len = 0;
		p.payload = 64;
		p.ecn_ce = true;
		x_frame(&o, f, roce(f, &p), 7);
		x_end(&o, "cnp-ecn");
	}

	/* MAC control: PFC for priorities 3 and 5, then 802.3x pause. */
	{
		uint8_t m[60];
		const uint8_t dst[6] = { 0x01, 0x80, 0xc2, 0, 0, 1 };
		const uint8_t peer[6] = FZ_PEER_MAC;

		memset(m, 0, sizeof(m));
		memcpy(m, dst, 6);
		memcpy(m + 6, peer, 6);
		m[12] = 0x88;
		m[13] = 0x08;
		m[14] = 0x01;
		m[15] = 0x01;
		m[17] = 0x28;
		m[24] = 0xff;		/* class 3 quanta */
		m[28] = 0x10;		/* class 5 */
		put8(&o, FX_CFG_PFC | FX_CFG_WD);
		x_frame(&o, m, sizeof(m), 0);
		put8(&o, FX_TIME);
		put32(&o, 200000);
		m[15] = 0x01;
		m[14] = 0x00;
		m[16] = 0xff;
		m[17] = 0xff;
		x_frame(&o, m, sizeof(m), 0);
		x_end(&o, "pfc-pause");
	}

	/* The PHY's status frame: link down, then up at 100 Gb/s. */
	{
		uint8_t m[60];
		const uint8_t dst[6] = { 0x02, 0x57, 0x52, 0x45, 0x4e, 0 };

		memset(m, 0, sizeof(m));
		memcpy(m, dst, 6);
		put8(&o, 0);
		m[12] = 0x88;
		m[13] = 0xb6;
		memcpy(m + 14, "WPHY", 4);
		m[18] = 1;
		m[19] = 0;
		x_frame(&o, m, sizeof(m), 0);
		m[19] = 1;
		be32(m + 22, 100000);
		x_frame(&o, m, sizeof(m), 0);
		x_end(&o, "phy");
	}

	/* Ethernet: UDP to another port, tagged TCP, a jumbo, a runt. */
	memset(&p, 0, sizeof(p));
	p.payload = 300;
	n = roce(f, &p);
	f[14 + 20 + 2] = 0x30;		/* not 4791 */
	put8(&o, FX_CFG_PROMISC);
	x_frame(&o, f, n, FZ_FIX_LEN | FZ_FIX_CSUM);
	p.vlan = true;
	n = roce(f, &p);
	f[18 + 9] = 6;			/* TCP */
	x_frame(&o, f, n, FZ_FIX_LEN | FZ_FIX_CSUM);
	x_end(&o, "eth");

	memset(&p, 0, sizeof(p));
	p.op = 0x04;
	p.dqpn = FZ_QPN_B;
	p.psn = FZ_B_RQ_PSN;
	p.payload = 8900;
	put8(&o, FX_CFG_JUMBO | FX_CFG_DRAIN | FX_CFG_PFC | FX_CFG_PAUSE);
	n = roce(f, &p);
	x_frame(&o, f, n, 7);
	x_frame(&o, f, 40, 0);
	x_end(&o, "jumbo-runt");
}

/* ------------------------------------------------------------- mmio */

static void m_reg(struct out *o, uint32_t off, uint32_t v)
{
	put8(o, FM_REG_WRITE);
	put16(o, off);
	put32(o, v);
}

static void m_db(struct out *o, uint8_t page, uint16_t off, uint64_t v)
{
	put8(o, FM_DB_WRITE);
	put8(o, page);
	put16(o, off);
	put64(o, v);
}

static void gen_mmio(void)
{
	struct out o = { .n = 0 };

	for (uint32_t off = 0; off <= WREN_REG_AEQ_CI; off += 4) {
		put8(&o, FM_REG_READ);
		put16(&o, off);
		put8(&o, 4);
	}
	save("mmio", "read-all", &o);

	/* Disable, move and shrink the AQ, enable; then a bad enable. */
	m_reg(&o, WREN_REG_CONTROL, 0);
	m_reg(&o, WREN_REG_AQ_BASE_LO, 0x00200000);
	m_reg(&o, WREN_REG_AQ_BASE_HI, 2);
	m_reg(&o, WREN_REG_AQ_LOG_SIZE, 3);
	m_reg(&o, WREN_REG_MGMT_VECTOR, 2);
	m_reg(&o, WREN_REG_CONTROL, WREN_CONTROL_AQ_ENABLE |
	      WREN_CONTROL_AEQ_ENABLE);
	m_reg(&o, WREN_REG_AQ_PI, 1);
	m_reg(&o, WREN_REG_ACQ_CI, WREN_ARM);
	m_reg(&o, WREN_REG_AEQ_CI, WREN_ARM | 3);
	put8(&o, FM_RUN);
	put32(&o, 10);
	m_reg(&o, WREN_REG_CONTROL, 0);
	m_reg(&o, WREN_REG_AEQ_LOG_SIZE, 17);
	m_reg(&o, WREN_REG_CONTROL, WREN_CONTROL_AEQ_ENABLE);
	save("mmio", "aq-program", &o);

	/* Doorbells of every kind on the live queues, good and bad. */
	m_db(&o, 0, WREN_DB_CQ, WREN_DB_VAL(0, WREN_DB_CQ_ARM_NEXT, 0));
	m_db(&o, 1, WREN_DB_CQ, WREN_DB_VAL(1, WREN_DB_CQ_ARM_SOLICITED, 0));
	m_db(&o, 0, WREN_DB_EQ, WREN_DB_VAL(0, WREN_DB_EQ_ARM, 0));
	m_db(&o, 0, WREN_DB_SQ, WREN_DB_VAL(2, 0, 1));
	m_db(&o, 0, WREN_DB_ETH_TX, WREN_DB_VAL(0, 0, 1));
	m_db(&o, 0, WREN_DB_ETH_RX, WREN_DB_VAL(0, 0, 4));
	m_db(&o, 0, WREN_DB_CQ, WREN_DB_VAL(0, 0, 200));
	m_db(&o, 2, WREN_DB_SQ, WREN_DB_VAL(2, 0, 1));
	m_db(&o, 0, 0x28, 0);
	put8(&o, FM_RUN);
	put32(&o, 1000);
	save("mmio", "doorbells", &o);

	/* Odd sizes and offsets, 64-bit halves, other BARs. */
	put8(&o, FM_RAW);
	put8(&o, 0);
	put8(&o, 3);
	put32(&o, WREN_REG_AQ_BASE_LO);
	put64(&o, 0x0000000300001000ull);
	put8(&o, 0);
	put8(&o, FM_RAW);
	put8(&o, 0);
	put8(&o, 1);
	put32(&o, 2);
	put64(&o, 0);
	put8(&o, 1);
	put8(&o, FM_RAW);
	put8(&o, 1);
	put8(&o, 2);
	put32(&o, 8);
	put64(&o, WREN_DB_VAL(0, 0, 1));
	put8(&o, 0);
	put8(&o, FM_RAW);
	put8(&o, 0xf4);
	put8(&o, 3);
	put32(&o, 0);
	put64(&o, 1);
	put8(&o, 1);
	save("mmio", "raw", &o);

	/* Reset under live queues, link flaps, time. */
	m_db(&o, 0, WREN_DB_CQ, WREN_DB_VAL(0, WREN_DB_CQ_ARM_NEXT, 0));
	put8(&o, FM_RESET);
	put8(&o, 2);
	put32(&o, 0);
	put8(&o, FM_RUN);
	put32(&o, 5000);
	put8(&o, FM_RESET);
	put8(&o, 2);
	put32(&o, 100000);
	put8(&o, FM_RESET);
	put8(&o, 1);
	put32(&o, 0);
	m_reg(&o, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	save("mmio", "reset-link", &o);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_seeds DIR\n");
		return 2;
	}
	root = argv[1];
	gen_admin();
	gen_rings();
	gen_rx();
	gen_mmio();
	return 0;
}
