// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* PDs, UARs, GIDs, AHs, CQs and SRQs: creation checks and references. */
#include "tests.h"
#include "wrenhw_int.h"

#define SYND_GID(f)	SYND_IN(struct wren_set_gid_in, f)
#define SYND_AH(f)	SYND_IN(struct wren_create_ah_in, f)
#define SYND_CQ(f)	SYND_IN(struct wren_create_cq_in, f)
#define SYND_SRQ(f)	SYND_IN(struct wren_create_srq_in, f)

static void pd_uar(void)
{
	struct wrenhw_config cfg = { .mac = { 2, 0, 0, 0, 0, 1 }, .max_pd = 3,
				     .num_db_pages = 4 };
	struct td *d = td_new(&cfg);

	tap_ok(td_alloc_pd(d) == 1 && td_alloc_pd(d) == 2,
	       "ALLOC_PD gives 1, 2");
	tap_ok(td_alloc_pd(d) == -WREN_AQ_STATUS_NO_RESOURCES,
	       "PD table full -> NO_RESOURCES");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEALLOC_PD, 2, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DEALLOC_PD");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEALLOC_PD, 2, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, SYND_CMD(u.handle.handle),
	       "double DEALLOC_PD -> BAD_HANDLE");
	{
		struct wren_aq_handle h = { .handle = 1, .rsvd[6] = 1 };

		expect(td_cmd(d, WREN_AQ_OP_DEALLOC_PD, &h, sizeof(h), NULL, 0,
			      NULL, 0), WREN_AQ_STATUS_BAD_PARAM,
		       SYND_CMD(u.handle.rsvd) + 24,
		       "handle command reserved word -> BAD_PARAM");
	}
	tap_ok(td_alloc_uar(d) == 1 && td_alloc_uar(d) == 2 &&
	       td_alloc_uar(d) == 3, "ALLOC_UAR gives pages 1..3");
	tap_ok(td_alloc_uar(d) == -WREN_AQ_STATUS_NO_RESOURCES,
	       "4 doorbell pages: no 5th UAR");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEALLOC_UAR, 3, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DEALLOC_UAR");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEALLOC_UAR, 4, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, ANY_SYND,
	       "DEALLOC_UAR beyond BAR2 -> BAD_HANDLE");
	td_free(d);
}

static struct wren_set_gid_in gid_in(uint32_t index)
{
	struct wren_set_gid_in g;

	memset(&g, 0, sizeof(g));
	g.index = index;
	g.type = WREN_GID_ROCE_V2;
	g.gid[0] = 0xfe;
	g.gid[1] = 0x80;
	g.mac[0] = 2;
	g.mac[5] = 9;
	return g;
}

static struct td_res set_gid(struct td *d, struct wren_set_gid_in *g)
{
	return td_cmd(d, WREN_AQ_OP_SET_GID, NULL, 0, g, sizeof(*g), NULL, 0);
}

static void gid_ah(void)
{
	struct td *d = td_new(NULL);
	struct wren_set_gid_in g;
	struct wren_create_ah_in ah;
	int64_t pd = td_alloc_pd(d);
	struct td_res r;

	g = gid_in(128);
	expect(set_gid(d, &g), WREN_AQ_STATUS_BAD_PARAM, SYND_GID(index),
	       "GID index 128 -> BAD_PARAM");
	g = gid_in(0);
	g.type = 1;
	expect(set_gid(d, &g), WREN_AQ_STATUS_BAD_PARAM, SYND_GID(type),
	       "GID type RoCE v1 -> BAD_PARAM");
	g = gid_in(0);
	g.flags = 0x80;
	expect(set_gid(d, &g), WREN_AQ_STATUS_BAD_PARAM, SYND_GID(flags),
	       "GID unknown flag -> BAD_PARAM");
	g = gid_in(0);
	g.vlan_id = 5;
	expect(set_gid(d, &g), WREN_AQ_STATUS_BAD_PARAM, SYND_GID(vlan_id),
	       "GID vlan_id without the VLAN flag -> BAD_PARAM");
	g.flags = WREN_AV_F_VLAN;
	g.vlan_id = 4096;
	expect(set_gid(d, &g), WREN_AQ_STATUS_BAD_PARAM, SYND_GID(vlan_id),
	       "GID vlan 4096 -> BAD_PARAM");
	g = gid_in(0);
	g.flags = WREN_AV_F_IPV4;
	expect(set_gid(d, &g), WREN_AQ_STATUS_BAD_PARAM, SYND_GID(gid),
	       "IPv4 GID that is not v4-mapped -> BAD_PARAM");
	g = gid_in(0);
	g.mac[0] = 1;
	expect(set_gid(d, &g), WREN_AQ_STATUS_BAD_PARAM, SYND_GID(mac),
	       "GID with a multicast MAC -> BAD_PARAM");
	g = gid_in(0);
	g.rsvd[3] = 1;
	expect(set_gid(d, &g), WREN_AQ_STATUS_BAD_PARAM, SYND_GID(rsvd) + 12,
	       "GID reserved -> BAD_PARAM");
	g = gid_in(0);
	memset(g.gid, 0, 10);
	g.gid[10] = g.gid[11] = 0xff;
	g.gid[12] = 10;
	g.flags = WREN_AV_F_IPV4 | WREN_AV_F_VLAN;
	g.vlan_id = 100;
	expect(set_gid(d, &g), WREN_AQ_STATUS_OK, 0,
	       "IPv4-mapped GID on VLAN 100");

	memset(&ah, 0, sizeof(ah));
	ah.pdn = (uint32_t)pd;
	ah.av.gid_index = 1;
	ah.av.dmac[0] = 2;
	r = td_cmd(d, WREN_AQ_OP_CREATE_AH, NULL, 0, &ah, sizeof(ah), NULL, 0);
	expect(r, WREN_AQ_STATUS_BAD_PARAM, SYND_AH(av.gid_index),
	       "AH on an empty GID entry -> BAD_PARAM");
	ah.av.gid_index = 0;
	ah.av.sl = 8;
	r = td_cmd(d, WREN_AQ_OP_CREATE_AH, NULL, 0, &ah, sizeof(ah), NULL, 0);
	expect(r, WREN_AQ_STATUS_BAD_PARAM, SYND_AH(av.sl), "AH sl 8 -> BAD_PARAM");
	ah.av.sl = 3;
	ah.av.flow_label = 1u << 20;
	r = td_cmd(d, WREN_AQ_OP_CREATE_AH, NULL, 0, &ah, sizeof(ah), NULL, 0);
	expect(r, WREN_AQ_STATUS_BAD_PARAM, SYND_AH(av.flow_label),
	       "AH flow label > 20 bits -> BAD_PARAM");
	ah.av.flow_label = 0;
	ah.av.rsvd[1] = 1;
	r = td_cmd(d, WREN_AQ_OP_CREATE_AH, NULL, 0, &ah, sizeof(ah), NULL, 0);
	expect(r, WREN_AQ_STATUS_BAD_PARAM, SYND_AH(av.rsvd) + 4,
	       "AH av reserved -> BAD_PARAM");
	ah.av.rsvd[1] = 0;
	ah.pdn = 77;
	r = td_cmd(d, WREN_AQ_OP_CREATE_AH, NULL, 0, &ah, sizeof(ah), NULL, 0);
	expect(r, WREN_AQ_STATUS_BAD_HANDLE, SYND_AH(pdn),
	       "AH on a missing PD -> BAD_HANDLE");
	ah.pdn = (uint32_t)pd;
	r = td_cmd(d, WREN_AQ_OP_CREATE_AH, NULL, 0, &ah, sizeof(ah), NULL, 0);
	expect(r, WREN_AQ_STATUS_OK, 0, "CREATE_AH");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEALLOC_PD, (uint32_t)pd, NULL, 0),
	       WREN_AQ_STATUS_BUSY, SYND_CMD(u.handle.handle),
	       "DEALLOC_PD with an AH -> BUSY");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_AH, (uint32_t)r.result,
			     NULL, 0), WREN_AQ_STATUS_OK, 0, "DESTROY_AH");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_AH, (uint32_t)r.result,
			     NULL, 0), WREN_AQ_STATUS_BAD_HANDLE, ANY_SYND,
	       "double DESTROY_AH -> BAD_HANDLE");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEALLOC_PD, (uint32_t)pd, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "then DEALLOC_PD works");
	g = gid_in(1);
	g.type = WREN_GID_INVALID;
	expect(set_gid(d, &g), WREN_AQ_STATUS_BAD_PARAM, SYND_GID(gid),
	       "clearing a GID with data in it -> BAD_PARAM");
	memset(&g, 0, sizeof(g));
	g.index = 1;
	expect(set_gid(d, &g), WREN_AQ_STATUS_OK, 0, "clearing a GID");
	td_free(d);
}

static struct wren_create_cq_in cq_in(struct td *d, uint32_t eqn, uint8_t log)
{
	struct wren_create_cq_in in;

	memset(&in, 0, sizeof(in));
	in.ring.addr = td_alloc(d, (uint64_t)32 << log, 4096);
	in.ring.page_shift = 12;
	in.dbrec_addr = td_alloc(d, 8, 8);
	in.eqn = eqn;
	in.log_size = log;
	return in;
}

static struct td_res create_cq(struct td *d, struct wren_create_cq_in *in)
{
	return td_cmd(d, WREN_AQ_OP_CREATE_CQ, NULL, 0, in, sizeof(*in), NULL, 0);
}

static void cq(void)
{
	struct td *d = td_new(NULL);
	int64_t eqn = td_create_eq(d, 4, 1, NULL);
	struct wren_create_cq_in in;
	struct wren_aq_modify_cq m;
	struct td_res r;

	in = cq_in(d, 5, 4);
	expect(create_cq(d, &in), WREN_AQ_STATUS_BAD_HANDLE, SYND_CQ(eqn),
	       "CQ on a missing EQ -> BAD_HANDLE");
	in = cq_in(d, (uint32_t)eqn, 4);
	in.uar = 9;
	expect(create_cq(d, &in), WREN_AQ_STATUS_BAD_HANDLE, SYND_CQ(uar),
	       "CQ on an unallocated UAR -> BAD_HANDLE");
	in = cq_in(d, (uint32_t)eqn, 0);
	expect(create_cq(d, &in), WREN_AQ_STATUS_BAD_SIZE, SYND_CQ(log_size),
	       "CQ log size 0 -> BAD_SIZE");
	in.log_size = 23;
	expect(create_cq(d, &in), WREN_AQ_STATUS_BAD_SIZE, SYND_CQ(log_size),
	       "CQ log size 23 -> BAD_SIZE");
	in = cq_in(d, (uint32_t)eqn, 4);
	in.flags = 2;
	expect(create_cq(d, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CQ(flags),
	       "CQ flags beyond CQE64 -> BAD_PARAM");
	in.flags = 0;
	in.rsvd[5] = 1;
	expect(create_cq(d, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CQ(rsvd) + 20,
	       "CQ reserved -> BAD_PARAM");
	in.rsvd[5] = 0;
	in.dbrec_addr = 0;
	expect(create_cq(d, &in), WREN_AQ_STATUS_BAD_ADDR, SYND_CQ(dbrec_addr),
	       "CQ doorbell record at 0 -> BAD_ADDR");
	in.dbrec_addr = 0x1004;
	expect(create_cq(d, &in), WREN_AQ_STATUS_BAD_ADDR, SYND_CQ(dbrec_addr),
	       "CQ doorbell record unaligned -> BAD_ADDR");
	in.dbrec_addr = 0x1000;
	in.ring.addr = d->acq;
	expect(create_cq(d, &in), WREN_AQ_STATUS_BAD_ADDR, SYND_CQ(ring.addr),
	       "CQ ring overlapping the ACQ -> BAD_ADDR");
	in = cq_in(d, (uint32_t)eqn, 4);
	r = create_cq(d, &in);
	expect(r, WREN_AQ_STATUS_OK, 0, "CREATE_CQ");
	in.dbrec_addr += 64;
	expect(create_cq(d, &in), WREN_AQ_STATUS_BAD_ADDR, SYND_CQ(ring.addr),
	       "second CQ on the same ring -> BAD_ADDR");

	memset(&m, 0, sizeof(m));
	m.cqn = (uint32_t)r.result;
	m.mask = 2;
	expect(td_cmd(d, WREN_AQ_OP_MODIFY_CQ, &m, sizeof(m), NULL, 0, NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_CMD(u.modify_cq.mask),
	       "MODIFY_CQ unknown mask bit -> BAD_PARAM");
	m.mask = WREN_MODIFY_CQ_MODERATION;
	m.moderation_usec = 8;
	expect(td_cmd(d, WREN_AQ_OP_MODIFY_CQ, &m, sizeof(m), NULL, 0, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "MODIFY_CQ moderation");
	m.cqn = 99;
	expect(td_cmd(d, WREN_AQ_OP_MODIFY_CQ, &m, sizeof(m), NULL, 0, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, SYND_CMD(u.modify_cq.cqn),
	       "MODIFY_CQ missing CQ -> BAD_HANDLE");

	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_CQ, (uint32_t)r.result,
			     NULL, 0), WREN_AQ_STATUS_OK, 0, "DESTROY_CQ");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_CQ, (uint32_t)r.result,
			     NULL, 0), WREN_AQ_STATUS_BAD_HANDLE, ANY_SYND,
	       "double DESTROY_CQ -> BAD_HANDLE");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_EQ, (uint32_t)eqn, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "EQ free again once its CQ is gone");
	td_free(d);
}

static struct wren_create_srq_in srq_in(struct td *d, uint32_t pdn)
{
	struct wren_create_srq_in in;

	memset(&in, 0, sizeof(in));
	in.pdn = pdn;
	in.log_size = 4;
	in.wqe_shift = 6;
	in.limit = 3;
	in.buf.addr = td_alloc(d, 1024, 4096);
	in.buf.page_shift = 12;
	in.dbrec_addr = td_alloc(d, 8, 8);
	return in;
}

static void srq(void)
{
	struct td *d = td_new(NULL);
	int64_t pd = td_alloc_pd(d);
	int64_t eqn = td_create_eq(d, 4, 1, NULL);
	int64_t cqn = td_create_cq(d, (uint32_t)eqn, 0, 4);
	struct wren_create_srq_in in;
	struct wren_create_qp_in qp;
	struct wren_aq_modify_srq m;
	struct wren_query_srq_out q;
	uint32_t pi = 5;
	struct td_res r;

	in = srq_in(d, (uint32_t)pd);
	in.limit = 16;
	expect(td_cmd(d, WREN_AQ_OP_CREATE_SRQ, NULL, 0, &in, sizeof(in), NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_SRQ(limit),
	       "SRQ limit >= size -> BAD_PARAM");
	in = srq_in(d, 55);
	expect(td_cmd(d, WREN_AQ_OP_CREATE_SRQ, NULL, 0, &in, sizeof(in), NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, SYND_SRQ(pdn),
	       "SRQ on a missing PD -> BAD_HANDLE");
	in = srq_in(d, (uint32_t)pd);
	in.wqe_shift = 10;
	expect(td_cmd(d, WREN_AQ_OP_CREATE_SRQ, NULL, 0, &in, sizeof(in), NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_SRQ(wqe_shift),
	       "SRQ WQE stride 1024 -> BAD_PARAM");
	in = srq_in(d, (uint32_t)pd);
	r = td_cmd(d, WREN_AQ_OP_CREATE_SRQ, NULL, 0, &in, sizeof(in), NULL, 0);
	expect(r, WREN_AQ_STATUS_OK, 0, "CREATE_SRQ");
	th_mem_write(d->h, in.dbrec_addr, &pi, sizeof(pi));
	memset(&q, 0, sizeof(q));
	expect(td_handle_cmd(d, WREN_AQ_OP_QUERY_SRQ, (uint32_t)r.result, &q,
			     sizeof(q)), WREN_AQ_STATUS_OK, 0, "QUERY_SRQ");
	tap_ok(q.limit == 3 && q.wqes_posted == 5,
	       "QUERY_SRQ: limit and WQEs posted from the doorbell record");
	memset(&m, 0, sizeof(m));
	m.srqn = (uint32_t)r.result;
	m.mask = WREN_MODIFY_SRQ_LIMIT;
	m.limit = 16;
	expect(td_cmd(d, WREN_AQ_OP_MODIFY_SRQ, &m, sizeof(m), NULL, 0, NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_CMD(u.modify_srq.limit),
	       "MODIFY_SRQ limit >= size -> BAD_PARAM");
	m.limit = 7;
	expect(td_cmd(d, WREN_AQ_OP_MODIFY_SRQ, &m, sizeof(m), NULL, 0, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "MODIFY_SRQ limit");
	th_fault_add(d->h, in.dbrec_addr, 8, true, false);
	expect(td_handle_cmd(d, WREN_AQ_OP_QUERY_SRQ, (uint32_t)r.result, &q,
			     sizeof(q)), WREN_AQ_STATUS_DMA_ERROR, ANY_SYND,
	       "QUERY_SRQ with its doorbell record unreadable -> DMA_ERROR");
	th_fault_clear(d->h);

	memset(&qp, 0, sizeof(qp));
	qp.type = WREN_QPT_RC;
	qp.flags = WREN_QP_F_USE_SRQ;
	qp.sq_wqe_shift = 6;
	qp.sq_log_size = 4;
	qp.pdn = (uint32_t)pd;
	qp.send_cqn = qp.recv_cqn = (uint32_t)cqn;
	qp.srqn = (uint32_t)r.result;
	qp.buf.addr = td_alloc(d, 1024, 4096);
	qp.buf.page_shift = 12;
	qp.dbrec_addr = td_alloc(d, 8, 8);
	expect(td_cmd(d, WREN_AQ_OP_CREATE_QP, NULL, 0, &qp, sizeof(qp), NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "QP on the SRQ");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_SRQ, (uint32_t)r.result,
			     NULL, 0), WREN_AQ_STATUS_BUSY, ANY_SYND,
	       "DESTROY_SRQ with a QP on it -> BUSY");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_QP, 2, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DESTROY_QP");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_SRQ, (uint32_t)r.result,
			     NULL, 0), WREN_AQ_STATUS_OK, 0, "then DESTROY_SRQ");
	expect(td_handle_cmd(d, WREN_AQ_OP_QUERY_SRQ, (uint32_t)r.result, &q,
			     sizeof(q)), WREN_AQ_STATUS_BAD_HANDLE, ANY_SYND,
	       "QUERY_SRQ of a destroyed SRQ -> BAD_HANDLE");
	td_free(d);
}

static void table(void)
{
	struct whw_table t;
	struct whw_obj a, b, c, x;
	bool ok;

	ok = whw_table_init(&t, 4, 1) == 0;
	ok &= whw_table_alloc(&t, &a) == 1 && whw_table_alloc(&t, &b) == 2 &&
	      whw_table_alloc(&t, &c) == 3 && whw_table_alloc(&t, &x) == -1;
	tap_ok(ok && t.used == 3, "table: lowest-free from `first`, full at size");
	tap_ok(!whw_table_get(&t, 0) && !whw_table_get(&t, 4) &&
	       !whw_table_get(&t, UINT64_MAX) && whw_table_get(&t, 2) == &b,
	       "table: out-of-range and reserved handles are not found");
	whw_table_remove(&t, 2);
	tap_ok(!whw_table_get(&t, 2) && whw_table_alloc(&t, &x) == 2,
	       "table: a freed handle is reused first");
	tap_ok(x.gen == b.gen + 1 && !whw_table_get_gen(&t, 2, b.gen) &&
	       whw_table_get_gen(&t, 2, x.gen) == &x,
	       "table: the generation tells a successor from the old object");
	tap_ok(whw_table_insert_at(&t, 0, &b) && !whw_table_insert_at(&t, 0, &b) &&
	       !whw_table_insert_at(&t, 9, &b),
	       "table: insert_at takes a reserved free slot once, bounded");
	whw_table_fini(&t);
}

static void tagged_table(void)
{
	struct whw_table t;
	struct whw_obj r, a, b;
	int64_t h1, h2, h3, h4;

	whw_table_init(&t, 4, 1);
	whw_table_set_tags(&t, 8, 3);
	tap_ok(whw_table_insert_at(&t, 0, &r) && whw_table_get(&t, 0) == &r,
	       "tagged table: a reserved slot's handle is its slot");
	h1 = whw_table_alloc(&t, &a);
	whw_table_remove(&t, (uint32_t)h1);
	h2 = whw_table_alloc(&t, &b);
	tap_ok(h1 == 1 && h2 == (1 | 1 << 8) && !whw_table_get(&t, 1) &&
	       whw_table_get(&t, (uint64_t)h2) == &b,
	       "tagged table: a reused slot gets a new handle, the old names nothing");
	whw_table_remove(&t, 1);
	tap_ok(whw_table_get(&t, (uint64_t)h2) == &b && t.used == 2,
	       "tagged table: removing by a stale handle frees nothing");
	whw_table_remove(&t, (uint32_t)h2);
	h3 = whw_table_alloc(&t, &a);
	whw_table_remove(&t, (uint32_t)h3);
	h4 = whw_table_alloc(&t, &b);
	tap_ok(h3 == (1 | 2 << 8) && h4 == 1 && whw_table_slot(&t, 1) == &b &&
	       !whw_table_get(&t, 1 | 2 << 8),
	       "tagged table: tags cycle through num_tags, slot walks see every object");
	whw_table_fini(&t);
}

void test_objects(void)
{
	table();
	tagged_table();
	pd_uar();
	gid_ah();
	cq();
	srq();
}
