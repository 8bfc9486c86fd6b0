// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory windows (WREN_CAP_RDMA_MW, wren_admin.h "MW"): CREATE_MW and
 * DESTROY_MW and their checks, the PD and MR they hold busy, the
 * capability's gates, reset; then between two models: BIND_MW of type 1
 * and 2 windows, WRITE, READ and atomics through their keys with the data
 * checked, every refusal of an access (range, rights, rebound key, unbind,
 * another QP, deactivated MR, as an lkey), LOCAL_INV and SEND_INV of type
 * 2 windows, and every refusal of a bind.  Node 1 owns the windows and
 * binds them on its QP; node 0 accesses them.
 */
#include <stdlib.h>

#include "roce_tests.h"
#include "whw_device.h"

#define ALL_ACCESS	(WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE | \
			 WREN_ACCESS_REMOTE_READ | WREN_ACCESS_REMOTE_ATOMIC)
#define REMOTE_RW	(WREN_ACCESS_REMOTE_WRITE | WREN_ACCESS_REMOTE_READ)
#define SYND_CMW(f)	SYND_CMD(u.create_mw.f)
#define WIN_IOVA	0x7e0000000000ull	/* node 1's window MR */
#define WIN_LEN		(64u * 1024)
#define SETTLE		1000000000ull

/* ------------------------------------------------------------- admin */

static struct td_res create_mw(struct td *d, uint32_t pdn, uint8_t type,
			       uint8_t tag)
{
	struct wren_aq_create_mw m;

	memset(&m, 0, sizeof(m));
	m.pdn = pdn;
	m.type = type;
	m.key_tag = tag;
	return td_cmd(d, WREN_AQ_OP_CREATE_MW, &m, sizeof(m), NULL, 0, NULL,
		      0);
}

static struct td_res create_mr(struct td *d, uint32_t pdn, uint32_t access)
{
	struct wren_create_mr_in in;

	memset(&in, 0, sizeof(in));
	in.pdn = pdn;
	in.access = access;
	in.iova = 0x10000;
	in.length = 4096;
	in.num_mtt = 1;
	in.page_shift = 12;
	return td_cmd(d, WREN_AQ_OP_CREATE_MR, NULL, 0, &in, sizeof(in), NULL,
		      0);
}

static uint32_t query_max_mw(struct td *d, uint64_t *caps)
{
	struct wren_device_attr a;

	memset(&a, 0xff, sizeof(a));
	td_cmd(d, WREN_AQ_OP_QUERY_DEVICE, NULL, 0, NULL, 0, &a, sizeof(a));
	if (caps)
		*caps = a.caps;
	return a.max_mw;
}

static void admin(void)
{
	struct wrenhw_config cfg = { .mac = { 2, 0, 0, 0, 0, 1 }, .max_mr = 3,
				     .max_mw = 2 };
	struct td *d = td_new(NULL);
	uint32_t pd = (uint32_t)td_alloc_pd(d);
	struct wren_aq_create_mw m;
	struct td_res r, r2;
	uint64_t caps;

	tap_ok(query_max_mw(d, &caps) == 4096 && (caps & WREN_CAP_RDMA_MW),
	       "QUERY_DEVICE: RDMA_MW, max_mw 4096 (as many as MRs)");
	r = create_mw(d, pd, WREN_MW_TYPE_1, 0x42);
	tap_ok(r.completed && r.status == 0 && r.result == 4096 &&
	       r.result2 == (4096u << 8 | 0x42),
	       "CREATE_MW type 1: index max_mr (4096), key index << 8 | tag");
	r2 = create_mw(d, pd, WREN_MW_TYPE_2, 0x07);
	tap_ok(r2.completed && r2.status == 0 && r2.result == 4097 &&
	       r2.result2 == (4097u << 8 | 0x07),
	       "CREATE_MW type 2: the next index");
	expect(create_mw(d, pd + 5, WREN_MW_TYPE_1, 0), WREN_AQ_STATUS_BAD_HANDLE,
	       SYND_CMW(pdn), "CREATE_MW of an unknown PD -> BAD_HANDLE");
	expect(create_mw(d, pd, 0, 0), WREN_AQ_STATUS_BAD_PARAM, SYND_CMW(type),
	       "CREATE_MW type 0 -> BAD_PARAM");
	expect(create_mw(d, pd, 3, 0), WREN_AQ_STATUS_BAD_PARAM, SYND_CMW(type),
	       "CREATE_MW type 3 -> BAD_PARAM");
	memset(&m, 0, sizeof(m));
	m.pdn = pd;
	m.type = WREN_MW_TYPE_1;
	m.rsvd0[1] = 1;
	expect(td_cmd(d, WREN_AQ_OP_CREATE_MW, &m, sizeof(m), NULL, 0, NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_CMW(rsvd0) + 1,
	       "CREATE_MW rsvd0 non-zero -> BAD_PARAM at the byte");
	m.rsvd0[1] = 0;
	m.rsvd[5] = 1;
	expect(td_cmd(d, WREN_AQ_OP_CREATE_MW, &m, sizeof(m), NULL, 0, NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_CMW(rsvd[5]),
	       "CREATE_MW rsvd[5] non-zero -> BAD_PARAM at the byte");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEALLOC_PD, pd, NULL, 0),
	       WREN_AQ_STATUS_BUSY, SYND_CMD(u.handle.handle),
	       "DEALLOC_PD with windows -> BUSY");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MW, 1, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, SYND_CMD(u.handle.handle),
	       "DESTROY_MW of an MR's index -> BAD_HANDLE");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MW, 4098, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, SYND_CMD(u.handle.handle),
	       "DESTROY_MW of a free window index -> BAD_HANDLE");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MW, 0xffffffffu, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, SYND_CMD(u.handle.handle),
	       "DESTROY_MW of index 0xffffffff -> BAD_HANDLE");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MW, 4096, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DESTROY_MW of an unbound window");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MW, 4096, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, SYND_CMD(u.handle.handle),
	       "DESTROY_MW twice -> BAD_HANDLE");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MW, 4097, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DESTROY_MW of the type 2 window");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEALLOC_PD, pd, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "then DEALLOC_PD succeeds");

	/* MW_BIND on MRs, with the capability. */
	pd = (uint32_t)td_alloc_pd(d);
	r = create_mr(d, pd, WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_MW_BIND);
	tap_ok(r.completed && r.status == 0,
	       "CREATE_MR with MW_BIND, capability on: OK");
	{
		struct wren_modify_mr_in mm;

		memset(&mm, 0, sizeof(mm));
		mm.mr_index = (uint32_t)r.result;
		mm.mask = WREN_MODIFY_MR_ACCESS;
		mm.access = WREN_ACCESS_MW_BIND;
		expect(td_cmd(d, WREN_AQ_OP_MODIFY_MR, NULL, 0, &mm, sizeof(mm),
			      NULL, 0), WREN_AQ_STATUS_OK, 0,
		       "MODIFY_MR to MW_BIND, capability on: OK");
		whw_test_set_caps(d->h->hw, WHW_CAPS & ~WREN_CAP_RDMA_MW);
		expect(td_cmd(d, WREN_AQ_OP_MODIFY_MR, NULL, 0, &mm, sizeof(mm),
			      NULL, 0), WREN_AQ_STATUS_BAD_PARAM,
		       SYND_IN(struct wren_modify_mr_in, access),
		       "MODIFY_MR to MW_BIND, capability off -> BAD_PARAM");
	}
	expect(create_mr(d, pd, WREN_ACCESS_MW_BIND), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_IN(struct wren_create_mr_in, access),
	       "CREATE_MR with MW_BIND, capability off -> BAD_PARAM");
	expect(create_mw(d, pd, WREN_MW_TYPE_1, 0),
	       WREN_AQ_STATUS_NOT_SUPPORTED, SYND_CMD(opcode),
	       "CREATE_MW, capability off -> NOT_SUPPORTED");
	expect(create_mw(d, 999, 9, 0), WREN_AQ_STATUS_NOT_SUPPORTED,
	       SYND_CMD(opcode),
	       "... before any other check");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MW, 4096, NULL, 0),
	       WREN_AQ_STATUS_NOT_SUPPORTED, SYND_CMD(opcode),
	       "DESTROY_MW, capability off -> NOT_SUPPORTED");
	tap_ok(query_max_mw(d, &caps) == 0 && !(caps & WREN_CAP_RDMA_MW),
	       "QUERY_DEVICE without the capability: max_mw 0");
	td_free(d);

	/* A small board: indexes follow max_mr, the table fills, reset. */
	d = td_new(&cfg);
	pd = (uint32_t)td_alloc_pd(d);
	tap_ok(query_max_mw(d, NULL) == 2, "max_mw from the board: 2");
	r = create_mw(d, pd, WREN_MW_TYPE_2, 1);
	r2 = create_mw(d, pd, WREN_MW_TYPE_1, 2);
	tap_ok(r.status == 0 && r.result == 3 && r2.status == 0 &&
	       r2.result == 4 && r2.result2 == (4u << 8 | 2),
	       "max_mr 3: windows 3 and 4");
	expect(create_mw(d, pd, WREN_MW_TYPE_1, 3),
	       WREN_AQ_STATUS_NO_RESOURCES, ANY_SYND,
	       "a third window of 2 -> NO_RESOURCES");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MR, 3, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, ANY_SYND,
	       "a window's index is no MR (DESTROY_MR -> BAD_HANDLE)");
	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	td_enable(d);
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MW, 3, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, SYND_CMD(u.handle.handle),
	       "reset destroyed the windows");
	pd = (uint32_t)td_alloc_pd(d);
	r = create_mw(d, pd, WREN_MW_TYPE_1, 9);
	r2 = create_mw(d, pd, WREN_MW_TYPE_1, 9);
	tap_ok(r.status == 0 && r.result == 3 && r2.status == 0 &&
	       r2.result == 4, "after reset the whole table is free again");
	td_free(d);
}

/* ------------------------------------------------------------- data */

struct mw_env {
	struct rc_env e;
	struct ro_mr wm;	/* node 1: ALL_ACCESS | MW_BIND */
	uint32_t mw1, mw2;	/* node 1: keys of a type 1 and a type 2 */
	bool ok;
};

static void mw_env_init_type(struct mw_env *m, uint8_t qpt)
{
	struct ro_node *n;
	struct td_res r;

	memset(m, 0, sizeof(*m));
	rc_env_init_type(&m->e, NULL, 0, qpt);
	n = &m->e.p.n[1];
	m->ok = m->e.ok &&
		ro_mr_reg(n, &m->wm, n->pd, WIN_IOVA, WIN_LEN,
			  ALL_ACCESS | WREN_ACCESS_MW_BIND, 12, true) >= 0;
	r = create_mw(n->d, n->pd, WREN_MW_TYPE_1, 0x11);
	m->mw1 = r.result2;
	m->ok = m->ok && r.completed && !r.status;
	r = create_mw(n->d, n->pd, WREN_MW_TYPE_2, 0x22);
	m->mw2 = r.result2;
	m->ok = m->ok && r.completed && !r.status;
}

static void mw_env_init(struct mw_env *m)
{
	mw_env_init_type(m, WREN_QPT_RC);
}

static void mw_env_fini(struct mw_env *m)
{
	ro_mr_free(&m->wm);
	rc_env_fini(&m->e);
}

static struct ro_wqe bind_wqe(uint32_t mw_key, uint32_t mr_key,
			      uint64_t addr, uint64_t len, uint32_t access,
			      uint8_t type)
{
	struct ro_wqe w;

	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_BIND_MW;
	w.flags = WREN_WQE_F_SIGNALED;
	w.bind.mw_key = mw_key;
	w.bind.mr_key = mr_key;
	w.bind.addr = addr;
	w.bind.length = len;
	w.bind.access = access;
	w.bind.type = type;
	return w;
}

/* Posts @w on @qp, settles, returns its CQE's status (0xff: no one CQE). */
static uint8_t run(struct mw_env *m, struct ro_qp *qp, struct ro_cq *cq,
		   const struct ro_wqe *w, struct wren_cqe *out)
{
	struct wren_cqe c;

	ro_post_send(qp, w);
	ro_settle(&m->e.p, SETTLE);
	if (!rc_one_cqe(cq, &c))
		return 0xff;
	if (out)
		*out = c;
	return c.status;
}

/* A bind on node 1's QP; its CQE status. */
static uint8_t bind(struct mw_env *m, uint32_t mw_key, uint32_t mr_key,
		    uint64_t addr, uint64_t len, uint32_t access, uint8_t type,
		    struct wren_cqe *out)
{
	struct ro_wqe w = bind_wqe(mw_key, mr_key, addr, len, access, type);

	return run(m, &m->e.qp[1], &m->e.cq[1], &w, out);
}

/* Node 0 WRITEs @len bytes of a pattern to @raddr under @rkey. */
static uint8_t rwrite(struct mw_env *m, uint32_t rkey, uint64_t raddr,
		      uint32_t len, uint32_t seed, uint8_t **pat)
{
	struct ro_wqe w;
	uint8_t st;

	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_RDMA_WRITE;
	w.flags = WREN_WQE_F_SIGNALED;
	w.nsge = 1;
	w.sge[0] = rc_sge(&m->e, 0, 0, len);
	w.raddr = raddr;
	w.rkey = rkey;
	*pat = rc_pattern(&m->e, 0, 0, len, seed);
	st = run(m, &m->e.qp[0], &m->e.cq[0], &w, NULL);
	return st;
}

/* Did @pat land at @addr of node 1's window MR? */
static bool landed(struct mw_env *m, uint64_t addr, const uint8_t *pat,
		   uint32_t len)
{
	uint8_t *got = malloc(len);
	bool same;

	ro_mr_read(&m->wm, addr, got, len);
	same = !memcmp(got, pat, len);
	free(got);
	return same;
}

/* A WRITE that must succeed and land; frees the pattern. */
static bool write_ok(struct mw_env *m, uint32_t rkey, uint64_t raddr,
		     uint32_t len, uint32_t seed)
{
	uint8_t *pat;
	bool ok = rwrite(m, rkey, raddr, len, seed, &pat) == 0 &&
		  landed(m, raddr, pat, len);

	free(pat);
	return ok;
}

static uint8_t write_st(struct mw_env *m, uint32_t rkey, uint64_t raddr,
			uint32_t len)
{
	uint8_t *pat;
	uint8_t st = rwrite(m, rkey, raddr, len, 1, &pat);

	free(pat);
	return st;
}

static bool mr_state_is(struct mw_env *m, uint32_t idx, uint8_t state)
{
	struct wren_query_mr_out o;

	memset(&o, 0, sizeof(o));
	td_handle_cmd(m->e.p.n[1].d, WREN_AQ_OP_QUERY_MR, idx, &o, sizeof(o));
	return o.state == state;
}

static void type1_access(void)
{
	struct mw_env m;
	struct wren_cqe c;
	uint64_t base = WIN_IOVA + 0x3000, v;
	uint32_t key;
	uint8_t *pat;
	bool ok;

	mw_env_init(&m);
	key = (m.mw1 & ~0xffu) | 0x5c;
	ok = bind(&m, key, m.wm.key, base, 0x4000,
		  REMOTE_RW | WREN_ACCESS_REMOTE_ATOMIC, WREN_MW_TYPE_1,
		  &c) == 0 && c.opcode == WREN_WQE_BIND_MW && c.vendor_err == 0;
	tap_ok(m.ok && ok, "BIND_MW type 1: CQE success, opcode BIND_MW");
	tap_ok(write_ok(&m, key, base + 100, 9000, 3),
	       "RDMA WRITE through the window key lands in the MR");
	{
		struct ro_wqe w;

		memset(&w, 0, sizeof(w));
		w.opcode = WREN_WQE_RDMA_READ;
		w.flags = WREN_WQE_F_SIGNALED;
		w.nsge = 1;
		w.sge[0] = rc_sge(&m.e, 0, 0x20000, 0x4000);
		w.raddr = base;
		w.rkey = key;
		pat = malloc(0x4000);
		ro_fill(pat, 0x4000, 77);
		ro_mr_write(&m.wm, base, pat, 0x4000);
		ok = run(&m, &m.e.qp[0], &m.e.cq[0], &w, &c) == 0 &&
		     c.byte_len == 0x4000 &&
		     rc_same(&m.e, 0, 0x20000, pat, 0x4000);
		free(pat);
		tap_ok(ok, "RDMA READ of the whole window through its key");
		memset(&w, 0, sizeof(w));
		w.opcode = WREN_WQE_ATOMIC_FETCH_ADD;
		w.flags = WREN_WQE_F_SIGNALED;
		w.nsge = 1;
		w.sge[0] = rc_sge(&m.e, 0, 0x30000, 8);
		w.raddr = base + 0x3ff8;
		w.rkey = key;
		w.swap = 5;
		v = 1000;
		ro_mr_write(&m.wm, base + 0x3ff8, &v, 8);
		ok = run(&m, &m.e.qp[0], &m.e.cq[0], &w, &c) == 0;
		ro_mr_read(&m.wm, base + 0x3ff8, &v, 8);
		tap_ok(ok && v == 1005,
		       "FETCH_ADD at the window's last 8 bytes");
	}
	/* Rebind elsewhere with another tag: the old key names nothing. */
	ok = bind(&m, key + 1, m.wm.key, WIN_IOVA, 0x1000, REMOTE_RW,
		  WREN_MW_TYPE_1, NULL) == 0;
	tap_ok(ok && write_ok(&m, key + 1, WIN_IOVA + 0xf00, 0x100, 4),
	       "type 1 rebind with a new tag and range: the new key works");
	tap_ok(write_st(&m, key, base + 100, 16) == WREN_CQE_REM_ACCESS_ERR,
	       "the old key after the rebind: REM_ACCESS_ERR");
	mw_env_fini(&m);
}

static void type1_refusals(void)
{
	uint64_t base = WIN_IOVA + 0x2000;
	struct mw_env m;
	uint32_t key;

	/* Outside the range: the MR's own key reaches it, the window's not. */
	mw_env_init(&m);
	key = m.mw1;
	tap_ok(bind(&m, key, m.wm.key, base, 0x1000, REMOTE_RW,
		    WREN_MW_TYPE_1, NULL) == 0 &&
	       write_ok(&m, m.wm.key, base + 0xff0, 0x20, 5),
	       "the MR key writes across the window's end");
	tap_ok(write_st(&m, key, base + 0xff0, 0x20) == WREN_CQE_REM_ACCESS_ERR,
	       "the window key across its end: REM_ACCESS_ERR");
	mw_env_fini(&m);

	mw_env_init(&m);
	tap_ok(bind(&m, m.mw1, m.wm.key, base, 0x1000, REMOTE_RW,
		    WREN_MW_TYPE_1, NULL) == 0 &&
	       write_st(&m, m.mw1, base - 1, 1) == WREN_CQE_REM_ACCESS_ERR,
	       "the window key one byte before its start: REM_ACCESS_ERR");
	mw_env_fini(&m);

	/* Without the right: READ only. */
	mw_env_init(&m);
	{
		struct ro_wqe w;

		tap_ok(bind(&m, m.mw1, m.wm.key, base, 0x1000,
			    WREN_ACCESS_REMOTE_READ, WREN_MW_TYPE_1, NULL) == 0,
		       "bind with REMOTE_READ only");
		memset(&w, 0, sizeof(w));
		w.opcode = WREN_WQE_RDMA_READ;
		w.flags = WREN_WQE_F_SIGNALED;
		w.nsge = 1;
		w.sge[0] = rc_sge(&m.e, 0, 0, 64);
		w.raddr = base;
		w.rkey = m.mw1;
		tap_ok(run(&m, &m.e.qp[0], &m.e.cq[0], &w, NULL) == 0,
		       "READ through it works");
		tap_ok(write_ok(&m, m.wm.key, base, 64, 6),
		       "the MR key (with REMOTE_WRITE) writes there");
		tap_ok(write_st(&m, m.mw1, base, 64) == WREN_CQE_REM_ACCESS_ERR,
		       "WRITE through the read-only window: REM_ACCESS_ERR");
	}
	mw_env_fini(&m);

	/* A bind of length 0 unbinds a type 1 window (no MR needed). */
	mw_env_init(&m);
	tap_ok(bind(&m, m.mw1, m.wm.key, base, 0x1000, REMOTE_RW,
		    WREN_MW_TYPE_1, NULL) == 0 &&
	       write_ok(&m, m.mw1, base, 16, 7) &&
	       expect(td_handle_cmd(m.e.p.n[1].d, WREN_AQ_OP_DESTROY_MR,
				    m.wm.idx, NULL, 0),
		      WREN_AQ_STATUS_BUSY, SYND_CMD(u.handle.handle),
		      "DESTROY_MR with a window bound -> BUSY"),
	       "bound window works; its MR cannot be destroyed");
	tap_ok(bind(&m, m.mw1 + 1, 0, 0, 0, 0, WREN_MW_TYPE_1, NULL) == 0,
	       "type 1 bind of length 0, no MR: success (unbind)");
	tap_ok(write_st(&m, m.mw1 + 1, base, 16) == WREN_CQE_REM_ACCESS_ERR,
	       "the unbound window's key: REM_ACCESS_ERR");
	expect(td_handle_cmd(m.e.p.n[1].d, WREN_AQ_OP_DESTROY_MR, m.wm.idx,
			     NULL, 0), WREN_AQ_STATUS_OK, 0,
	       "after the unbind DESTROY_MR succeeds");
	mw_env_fini(&m);

	/* Window keys are not lkeys. */
	mw_env_init(&m);
	{
		struct ro_wqe w;
		struct wren_cqe c;

		tap_ok(bind(&m, m.mw1, m.wm.key, base, 0x1000, ALL_ACCESS &
			    ~WREN_ACCESS_LOCAL_WRITE, WREN_MW_TYPE_1, NULL) == 0,
		       "bind for the lkey test");
		memset(&w, 0, sizeof(w));
		w.opcode = WREN_WQE_RDMA_WRITE;
		w.flags = WREN_WQE_F_SIGNALED;
		w.nsge = 1;
		w.sge[0].addr = base;
		w.sge[0].length = 64;
		w.sge[0].lkey = m.mw1;
		w.raddr = m.e.mr[0].iova;
		w.rkey = m.e.mr[0].key;
		tap_ok(run(&m, &m.e.qp[1], &m.e.cq[1], &w, &c) ==
		       WREN_CQE_LOC_PROT_ERR && c.vendor_err == WREN_VERR_SQ_KEY,
		       "a window key as an SGE's lkey: LOC_PROT_ERR");
	}
	mw_env_fini(&m);
}

static void mr_busy_and_deactivate(void)
{
	uint64_t base = WIN_IOVA + 0x1000;
	struct wren_modify_mr_in mm;
	struct mw_env m;
	struct td *d;

	mw_env_init(&m);
	d = m.e.p.n[1].d;
	bind(&m, m.mw1, m.wm.key, base, 0x1000, REMOTE_RW, WREN_MW_TYPE_1,
	     NULL);
	memset(&mm, 0, sizeof(mm));
	mm.mr_index = m.wm.idx;
	mm.mask = WREN_MODIFY_MR_KEY;
	mm.key_tag = 3;
	expect(td_cmd(d, WREN_AQ_OP_MODIFY_MR, NULL, 0, &mm, sizeof(mm), NULL,
		      0), WREN_AQ_STATUS_BUSY,
	       SYND_IN(struct wren_modify_mr_in, mr_index),
	       "MODIFY_MR with a window bound -> BUSY");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEACTIVATE_MR, m.wm.idx, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DEACTIVATE_MR with a window bound: OK");
	tap_ok(mr_state_is(&m, m.wm.idx, WREN_MR_FREE) &&
	       write_st(&m, m.mw1, base, 16) == WREN_CQE_REM_ACCESS_ERR,
	       "through the window of a deactivated MR: REM_ACCESS_ERR");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MR, m.wm.idx, NULL, 0),
	       WREN_AQ_STATUS_BUSY, SYND_CMD(u.handle.handle),
	       "DESTROY_MR of the deactivated MR, window bound -> BUSY");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MW, m.mw1 >> 8, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DESTROY_MW of the bound window");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MR, m.wm.idx, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "then DESTROY_MR succeeds");
	mw_env_fini(&m);
}

/* A second connected pair: node 0's qp[0] -> node 1's qp[1] as well. */
static bool second_pair(struct mw_env *m, struct ro_qp qp[2])
{
	for (int i = 0; i < 2; i++) {
		struct ro_qp_opts o = { .type = WREN_QPT_RC };

		o.scq = o.rcq = m->e.cq[i].cqn;
		if (ro_qp_create(&m->e.p.n[i], &qp[i], &o) < 0)
			return false;
	}
	return !ro_connect(&m->e.p, 0, &qp[0], &qp[1], &m->e.conn) &&
	       !ro_connect(&m->e.p, 1, &qp[1], &qp[0], &m->e.conn);
}

static struct ro_wqe inv_wqe(uint8_t opcode, uint32_t key,
			     struct mw_env *m)
{
	struct ro_wqe w;

	memset(&w, 0, sizeof(w));
	w.opcode = opcode;
	w.flags = WREN_WQE_F_SIGNALED;
	w.imm = key;
	if (opcode == WREN_WQE_SEND_INV) {
		w.nsge = 1;
		w.sge[0] = rc_sge(&m->e, 0, 0, 64);
	}
	return w;
}

static void type2(void)
{
	uint64_t base = WIN_IOVA + 0x8000;
	struct ro_qp q2[2];
	struct wren_cqe c;
	struct mw_env m;
	struct ro_wqe w;
	uint32_t key;

	mw_env_init(&m);
	key = (m.mw2 & ~0xffu) | 0x90;
	tap_ok(bind(&m, key, m.wm.key, base, 0x2000, REMOTE_RW,
		    WREN_MW_TYPE_2, &c) == 0 && c.opcode == WREN_WQE_BIND_MW,
	       "BIND_MW type 2 on node 1's QP");
	tap_ok(write_ok(&m, key, base + 0x1000, 0x1000, 8),
	       "WRITE from the peer of the bound QP lands");
	tap_ok(second_pair(&m, q2), "a second connected QP pair");
	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_RDMA_WRITE;
	w.flags = WREN_WQE_F_SIGNALED;
	w.nsge = 1;
	w.sge[0] = rc_sge(&m.e, 0, 0, 32);
	w.raddr = base;
	w.rkey = key;
	tap_ok(run(&m, &q2[0], &m.e.cq[0], &w, NULL) ==
	       WREN_CQE_REM_ACCESS_ERR,
	       "the type 2 key on another QP of its PD: REM_ACCESS_ERR");
	ro_cq_drain(&m.e.cq[1], NULL, 0);
	tap_ok(write_ok(&m, key, base, 32, 9),
	       "... while the bound QP still takes it");
	mw_env_fini(&m);

	/* LOCAL_INV unbinds, on any QP of the PD; then it binds again. */
	mw_env_init(&m);
	key = m.mw2 + 1;
	bind(&m, key, m.wm.key, base, 0x2000, REMOTE_RW, WREN_MW_TYPE_2, NULL);
	tap_ok(second_pair(&m, q2), "a second pair for LOCAL_INV");
	w = inv_wqe(WREN_WQE_LOCAL_INV, key, &m);
	tap_ok(run(&m, &q2[1], &m.e.cq[1], &w, &c) == 0 &&
	       c.opcode == WREN_WQE_LOCAL_INV,
	       "LOCAL_INV of the type 2 key on another QP of the PD: success");
	tap_ok(bind(&m, key + 1, m.wm.key, base, 16, REMOTE_RW,
		    WREN_MW_TYPE_2, NULL) == 0 &&
	       write_ok(&m, key + 1, base, 16, 10),
	       "after LOCAL_INV a type 2 window binds again (new tag) and works");
	tap_ok(bind(&m, key + 2, m.wm.key, base, 16, REMOTE_RW,
		    WREN_MW_TYPE_2, &c) == WREN_CQE_MW_BIND_ERR &&
	       c.vendor_err == WREN_VERR_SQ_BIND &&
	       c.opcode == WREN_WQE_BIND_MW &&
	       ro_qp_state(&m.e.p.n[1], m.e.qp[1].qpn) == WREN_QPS_ERR,
	       "type 2 bind of a bound window: MW_BIND_ERR, SQ_BIND, QP in ERR");
	mw_env_fini(&m);

	mw_env_init(&m);
	key = m.mw2 + 1;
	bind(&m, key, m.wm.key, base, 0x2000, REMOTE_RW, WREN_MW_TYPE_2, NULL);
	w = inv_wqe(WREN_WQE_LOCAL_INV, key, &m);
	tap_ok(run(&m, &m.e.qp[1], &m.e.cq[1], &w, NULL) == 0 &&
	       write_st(&m, key, base, 16) == WREN_CQE_REM_ACCESS_ERR,
	       "after LOCAL_INV the key: REM_ACCESS_ERR");
	mw_env_fini(&m);

	mw_env_init(&m);
	bind(&m, m.mw2, m.wm.key, base, 16, REMOTE_RW, WREN_MW_TYPE_2, NULL);
	w = inv_wqe(WREN_WQE_LOCAL_INV, m.mw2 + 1, &m);
	tap_ok(run(&m, &m.e.qp[1], &m.e.cq[1], &w, NULL) ==
	       WREN_CQE_LOC_PROT_ERR,
	       "LOCAL_INV of a type 2 key with another tag: LOC_PROT_ERR");
	mw_env_fini(&m);

	/* Empty type 2 windows, and SEND_INV from the peer. */
	mw_env_init(&m);
	key = m.mw2;
	tap_ok(bind(&m, key, m.wm.key, base, 0, REMOTE_RW, WREN_MW_TYPE_2,
		    NULL) == 0, "type 2 bind of length 0: an empty window");
	w = inv_wqe(WREN_WQE_LOCAL_INV, key, &m);
	run(&m, &m.e.qp[1], &m.e.cq[1], &w, NULL);
	bind(&m, key, m.wm.key, base, 0x100, REMOTE_RW, WREN_MW_TYPE_2, NULL);
	rc_post_recv(&m.e, 1, 0, 64);
	w = inv_wqe(WREN_WQE_SEND_INV, key, &m);
	ro_post_send(&m.e.qp[0], &w);
	ro_settle(&m.e.p, SETTLE);
	tap_ok(rc_one_cqe(&m.e.cq[1], &c) && c.status == 0 &&
	       (c.flags & WREN_CQE_F_INV) && c.inv_rkey == key &&
	       rc_one_cqe(&m.e.cq[0], &c) && c.status == 0,
	       "SEND_INV of the type 2 key at its QP: receive CQE has INV");
	tap_ok(write_st(&m, key, base, 16) == WREN_CQE_REM_ACCESS_ERR,
	       "after SEND_INV the key: REM_ACCESS_ERR");
	mw_env_fini(&m);

	/* SEND_INV at another QP than the bound one. */
	mw_env_init(&m);
	bind(&m, m.mw2, m.wm.key, base, 0x100, REMOTE_RW, WREN_MW_TYPE_2, NULL);
	tap_ok(second_pair(&m, q2), "a second pair for SEND_INV");
	{
		struct wren_wqe_sge s = rc_sge(&m.e, 1, 0, 64);

		ro_post_recv(&q2[1], &s, 1);
	}
	w = inv_wqe(WREN_WQE_SEND_INV, m.mw2, &m);
	ro_post_send(&q2[0], &w);
	ro_settle(&m.e.p, SETTLE);
	ro_cq_drain(&m.e.cq[1], NULL, 0);
	tap_ok(rc_one_cqe(&m.e.cq[0], &c) &&
	       c.status == WREN_CQE_REM_INV_REQ_ERR &&
	       write_ok(&m, m.mw2, base, 16, 11),
	       "SEND_INV of a type 2 key at another QP: REM_INV_REQ_ERR, "
	       "the window stays bound");
	mw_env_fini(&m);

	mw_env_init(&m);
	bind(&m, m.mw1, m.wm.key, base, 0x100, REMOTE_RW, WREN_MW_TYPE_1, NULL);
	rc_post_recv(&m.e, 1, 0, 64);
	w = inv_wqe(WREN_WQE_SEND_INV, m.mw1, &m);
	ro_post_send(&m.e.qp[0], &w);
	ro_settle(&m.e.p, SETTLE);
	ro_cq_drain(&m.e.cq[1], NULL, 0);
	tap_ok(rc_one_cqe(&m.e.cq[0], &c) &&
	       c.status == WREN_CQE_REM_INV_REQ_ERR,
	       "SEND_INV of a type 1 window's key: REM_INV_REQ_ERR");
	mw_env_fini(&m);

	mw_env_init(&m);
	bind(&m, m.mw1, m.wm.key, base, 0x100, REMOTE_RW, WREN_MW_TYPE_1, NULL);
	w = inv_wqe(WREN_WQE_LOCAL_INV, m.mw1, &m);
	tap_ok(run(&m, &m.e.qp[1], &m.e.cq[1], &w, &c) ==
	       WREN_CQE_LOC_PROT_ERR && c.vendor_err == WREN_VERR_SQ_KEY,
	       "LOCAL_INV of a type 1 window's key: LOC_PROT_ERR");
	mw_env_fini(&m);
}

/* A fast-registration MR with MW_BIND: LOCAL_INV refused while bound. */
static void fast_reg_mr(void)
{
	struct wren_create_mr_in in;
	struct ro_node *n;
	struct wren_cqe c;
	struct mw_env m;
	struct ro_wqe w;
	struct td_res r;
	uint64_t page, pbl, v = 0x1122334455667788ull, got = 0;
	uint32_t key;

	mw_env_init(&m);
	n = &m.e.p.n[1];
	memset(&in, 0, sizeof(in));
	in.pdn = n->pd;
	in.num_mtt = 1;
	in.page_shift = 12;
	in.flags = WREN_MR_F_FAST_REG;
	r = td_cmd(n->d, WREN_AQ_OP_CREATE_MR, NULL, 0, &in, sizeof(in), NULL,
		   0);
	key = (uint32_t)r.result << 8 | 0x31;
	page = td_alloc(n->d, 4096, 4096);
	pbl = td_alloc(n->d, 8, 8);
	th_mem_write(n->d->h, pbl, &page, 8);
	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_REG_MR;
	w.flags = WREN_WQE_F_SIGNALED;
	w.reg.key = key;
	w.reg.access = WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_MW_BIND;
	w.reg.iova = 0x5000;
	w.reg.length = 4096;
	w.reg.pbl_addr = pbl;
	w.reg.npages = 1;
	w.reg.page_shift = 12;
	tap_ok(run(&m, &m.e.qp[1], &m.e.cq[1], &w, NULL) == 0,
	       "REG_MR with MW_BIND");
	tap_ok(bind(&m, m.mw1, key, 0x5800, 0x100, REMOTE_RW, WREN_MW_TYPE_1,
		    NULL) == 0, "a window on the fast-registration MR");
	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_RDMA_WRITE;
	w.flags = WREN_WQE_F_SIGNALED;
	w.nsge = 1;
	w.sge[0] = rc_sge(&m.e, 0, 0, 8);
	ro_mr_write(&m.e.mr[0], m.e.mr[0].iova, &v, 8);
	w.raddr = 0x58f8;
	w.rkey = m.mw1;
	tap_ok(run(&m, &m.e.qp[0], &m.e.cq[0], &w, NULL) == 0 &&
	       !th_mem_read(n->d->h, page + 0x8f8, &got, 8) && got == v,
	       "WRITE through it lands in the page list's page");
	memset(&w, 0, sizeof(w));
	w.opcode = WREN_WQE_LOCAL_INV;
	w.flags = WREN_WQE_F_SIGNALED;
	w.imm = key;
	tap_ok(run(&m, &m.e.qp[1], &m.e.cq[1], &w, &c) ==
	       WREN_CQE_LOC_PROT_ERR,
	       "LOCAL_INV of an MR with a window bound: LOC_PROT_ERR");
	mw_env_fini(&m);
}

struct bind_case {
	const char *what;
	uint8_t status, vendor;
};

/* One bind on a fresh pair that must fail as @bc says. */
static void bind_fails(struct mw_env *m, struct ro_wqe *w,
		       const struct bind_case *bc)
{
	struct wren_cqe c;
	uint8_t st = run(m, &m->e.qp[1], &m->e.cq[1], w, &c);

	tap_ok(m->ok && st == bc->status && c.vendor_err == bc->vendor &&
	       c.opcode == WREN_WQE_BIND_MW &&
	       ro_qp_state(&m->e.p.n[1], m->e.qp[1].qpn) == WREN_QPS_ERR,
	       "%s: status %u vendor %u, QP in ERR", bc->what, st,
	       c.vendor_err);
}

static void bind_errors(void)
{
	static const struct bind_case be = { NULL, WREN_CQE_MW_BIND_ERR,
					     WREN_VERR_SQ_BIND };
	uint64_t base = WIN_IOVA;
	struct bind_case bc = be;
	struct mw_env m;
	struct ro_wqe w;
	struct ro_mr ro;
	struct td_res r;
	uint32_t pd2;

#define CASE(text, setup)						\
	do {								\
		mw_env_init(&m);					\
		w = bind_wqe(m.mw1, m.wm.key, base, 0x100, REMOTE_RW,	\
			     WREN_MW_TYPE_1);				\
		setup;							\
		bc.what = text;						\
		bind_fails(&m, &w, &bc);				\
		mw_env_fini(&m);					\
		bc = be;						\
	} while (0)

	CASE("MR without MW_BIND", w.bind.mr_key = m.e.mr[1].key);
	CASE("MR key with a wrong tag", w.bind.mr_key ^= 1);
	CASE("no MR key (length 0x100)", w.bind.mr_key = 0);
	CASE("a window key as the MR key", w.bind.mr_key = m.mw2);
	CASE("window index of nothing",
	     w.bind.mw_key = m.mw2 + (100u << 8));
	CASE("an MR's key as the window key", w.bind.mw_key = m.wm.key);
	CASE("type 2 for a type 1 window", w.bind.type = WREN_MW_TYPE_2);
	CASE("type 1 for a type 2 window", w.bind.mw_key = m.mw2);
	CASE("type 3", w.bind.type = 3);
	CASE("access with LOCAL_WRITE",
	     w.bind.access |= WREN_ACCESS_LOCAL_WRITE);
	CASE("access with MW_BIND", w.bind.access |= WREN_ACCESS_MW_BIND);
	CASE("range past the MR's end",
	     (w.bind.addr = WIN_IOVA + WIN_LEN - 0x80));
	CASE("range before the MR's start", w.bind.addr = WIN_IOVA - 1);
	CASE("range wrapping 2^64",
	     (w.bind.addr = WIN_IOVA + 0x10, w.bind.length = ~0ull - 8));
	CASE("deactivated MR",
	     td_handle_cmd(m.e.p.n[1].d, WREN_AQ_OP_DEACTIVATE_MR, m.wm.idx,
			   NULL, 0));
	CASE("window of another PD",
	     (pd2 = (uint32_t)td_alloc_pd(m.e.p.n[1].d),
	      r = create_mw(m.e.p.n[1].d, pd2, WREN_MW_TYPE_1, 0),
	      w.bind.mw_key = r.result2));
	CASE("MR of another PD",
	     (pd2 = (uint32_t)td_alloc_pd(m.e.p.n[1].d),
	      ro_mr_reg(&m.e.p.n[1], &ro, pd2, 0x1000, 4096,
			ALL_ACCESS | WREN_ACCESS_MW_BIND, 12, false),
	      w.bind.mr_key = ro.key, w.bind.addr = 0x1000,
	      ro_mr_free(&ro)));
	CASE("remote write on an MR without local write",
	     (ro_mr_reg(&m.e.p.n[1], &ro, m.e.p.n[1].pd, 0x1000, 4096,
			WREN_ACCESS_REMOTE_READ | WREN_ACCESS_MW_BIND, 12,
			false),
	      w.bind.mr_key = ro.key, w.bind.addr = 0x1000,
	      ro_mr_free(&ro)));
	CASE("remote atomic on an MR without local write",
	     (ro_mr_reg(&m.e.p.n[1], &ro, m.e.p.n[1].pd, 0x1000, 4096,
			WREN_ACCESS_REMOTE_READ | WREN_ACCESS_MW_BIND, 12,
			false),
	      w.bind.mr_key = ro.key, w.bind.addr = 0x1000,
	      w.bind.access = WREN_ACCESS_REMOTE_ATOMIC, ro_mr_free(&ro)));
	bc.status = WREN_CQE_LOC_QP_OP_ERR;
	bc.vendor = WREN_VERR_SQ_RSVD;
	CASE("reserved byte non-zero", w.bind.rsvd0[2] = 1);
	bc.status = WREN_CQE_LOC_QP_OP_ERR;
	bc.vendor = WREN_VERR_SQ_STRIDE;
	CASE("ds_count 1", w.ds_override = 1);
	bc.status = WREN_CQE_LOC_QP_OP_ERR;
	bc.vendor = WREN_VERR_SQ_STRIDE;
	CASE("INLINE flag",
	     (w.flags |= WREN_WQE_F_INLINE, w.inl = "", w.inl_len = 0));
	bc.status = WREN_CQE_LOC_QP_OP_ERR;
	bc.vendor = WREN_VERR_SQ_OPCODE;
	CASE("capability off",
	     whw_test_set_caps(m.e.p.n[1].d->h->hw,
			       m.e.p.n[1].d->h->hw->caps &
			       ~WREN_CAP_RDMA_MW));
#undef CASE

	/* With READ-only rights the MR without local write is fine. */
	mw_env_init(&m);
	ro_mr_reg(&m.e.p.n[1], &ro, m.e.p.n[1].pd, 0x1000, 4096,
		  WREN_ACCESS_REMOTE_READ | WREN_ACCESS_MW_BIND, 12, false);
	tap_ok(bind(&m, m.mw1, ro.key, 0x1000, 4096, WREN_ACCESS_REMOTE_READ,
		    WREN_MW_TYPE_1, NULL) == 0,
	       "a READ-only window on an MR without local write binds");
	ro_mr_free(&ro);
	mw_env_fini(&m);
}

/* UC QPs bind too; UD ones do not. */
static void uc_and_ud(void)
{
	struct mw_env m;
	struct wren_cqe c;
	struct ro_qp ud;
	struct ro_cq cq;
	struct ro_wqe w;
	struct ro_node *n;
	struct ro_qp_opts o = { .type = WREN_QPT_UD };

	mw_env_init_type(&m, WREN_QPT_UC);
	tap_ok(m.ok && bind(&m, m.mw1, m.wm.key, WIN_IOVA, 0x800, REMOTE_RW,
			    WREN_MW_TYPE_1, NULL) == 0 &&
	       write_ok(&m, m.mw1, WIN_IOVA + 0x400, 0x400, 12),
	       "UC: BIND_MW and a WRITE through the window");
	mw_env_fini(&m);

	mw_env_init(&m);
	n = &m.e.p.n[1];
	ro_cq_create(n, &cq, 6, 0);
	o.scq = o.rcq = cq.cqn;
	ro_qp_create(n, &ud, &o);
	ro_ud_ready(n, &ud, 0x1234);
	w = bind_wqe(m.mw1, m.wm.key, WIN_IOVA, 0x100, REMOTE_RW,
		     WREN_MW_TYPE_1);
	ro_post_send(&ud, &w);
	ro_settle(&m.e.p, SETTLE);
	tap_ok(rc_one_cqe(&cq, &c) && c.status == WREN_CQE_LOC_QP_OP_ERR &&
	       c.vendor_err == WREN_VERR_SQ_OPCODE,
	       "UD: BIND_MW is LOC_QP_OP_ERR, SQ_OPCODE");
	mw_env_fini(&m);
}

/*
 * DESTROY_QP of the QP a type 2 window is bound to unbinds it: its MR may
 * then be destroyed, and no later QP holds the key.
 */
static void qp_destroy_unbinds(void)
{
	uint64_t base = WIN_IOVA + 0x4000;
	struct ro_qp q2[2];
	struct mw_env m;
	struct td *d;
	uint32_t key;

	mw_env_init(&m);
	d = m.e.p.n[1].d;
	tap_ok(second_pair(&m, q2), "a second pair to bind on and destroy");
	key = m.mw2 + 1;
	{
		struct ro_wqe w = bind_wqe(key, m.wm.key, base, 64, REMOTE_RW,
					   WREN_MW_TYPE_2);

		tap_ok(run(&m, &q2[1], &m.e.cq[1], &w, NULL) == 0,
		       "BIND_MW type 2 on the second QP");
	}
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_QP, q2[1].qpn, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DESTROY_QP of the QP the window is bound to");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MR, m.wm.idx, NULL, 0),
	       WREN_AQ_STATUS_OK, 0,
	       "... unbound it: DESTROY_MR of its MR succeeds");
	mw_env_fini(&m);
}

/* A reset with windows bound: gone, the MR with them, nothing leaks. */
static void reset_bound(void)
{
	struct mw_env m;
	struct td *d;
	struct td_res r;

	mw_env_init(&m);
	d = m.e.p.n[1].d;
	bind(&m, m.mw1, m.wm.key, WIN_IOVA, 0x100, REMOTE_RW, WREN_MW_TYPE_1,
	     NULL);
	bind(&m, m.mw2, m.wm.key, WIN_IOVA, 0x100, REMOTE_RW, WREN_MW_TYPE_2,
	     NULL);
	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	td_enable(d);
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MW, m.mw1 >> 8, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, SYND_CMD(u.handle.handle),
	       "reset with windows bound: they are gone");
	r = create_mw(d, (uint32_t)td_alloc_pd(d), WREN_MW_TYPE_2, 0);
	tap_ok(r.status == 0 && r.result == (m.mw1 >> 8),
	       "... and their slots free");
	mw_env_fini(&m);
}

void test_mw(void)
{
	admin();
	type1_access();
	type1_refusals();
	mr_busy_and_deactivate();
	type2();
	fast_reg_mr();
	bind_errors();
	uc_and_ud();
	qp_destroy_unbinds();
	reset_bound();
}
