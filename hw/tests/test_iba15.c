// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * IBA 1.5's FLUSH and ATOMIC WRITE (WREN_CAP_RDMA_FLUSH, _ATOMIC_WRITE;
 * wren_queues.h, wren_admin.h's FLUSH rights) between two models: the
 * frames as the spec encodes them, both completing in order behind an
 * RDMA WRITE, every refusal (alignment, rights of the QP and of the MR,
 * the persistent type no MR has, range, the WQE's own fields, a QP
 * without responder resources), a lost response answered again without
 * executing again, and the capabilities' gates.  Node 0 requests, node 1
 * responds.
 */
#include <stdlib.h>

#include "roce/whw_roce.h"
#include "roce_tests.h"
#include "whw_device.h"

#define ALL_ACCESS	(WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE | \
			 WREN_ACCESS_REMOTE_READ | WREN_ACCESS_REMOTE_ATOMIC)
#define QP_ACCESS	(ALL_ACCESS | WREN_ACCESS_FLUSH_GLOBAL | \
			 WREN_ACCESS_FLUSH_PERSISTENT)
#define FL_IOVA		0x7d0000000000ull	/* node 1's MR with FLUSH */
#define FL_LEN		(64u * 1024)
#define SETTLE		1000000000ull
#define SYND_CMR(f)	SYND_IN(struct wren_create_mr_in, f)

struct fl_env {
	struct rc_env e;
	struct ro_mr fl;	/* node 1: ALL_ACCESS | FLUSH_GLOBAL */
};

static void fl_init(struct fl_env *m, uint16_t qp_access, uint8_t rd_atomic)
{
	struct ro_conn c = {
		.mtu = WREN_MTU_4096, .timeout = 14, .retry = 7,
		.rnr_retry = 7, .min_rnr = 1, .rd_atomic = rd_atomic,
		.access = qp_access,
	};

	rc_env_init(&m->e, &c);
	ro_mr_reg(&m->e.p.n[1], &m->fl, m->e.p.n[1].pd, FL_IOVA, FL_LEN,
		  ALL_ACCESS | WREN_ACCESS_FLUSH_GLOBAL, 12, true);
}

static void fl_fini(struct fl_env *m)
{
	ro_mr_free(&m->fl);
	rc_env_fini(&m->e);
}

static struct ro_wqe flush_wqe(uint64_t raddr, uint32_t rkey, uint32_t len,
			       uint8_t type, uint8_t level)
{
	struct ro_wqe w = { .opcode = WREN_WQE_FLUSH,
			    .flags = WREN_WQE_F_SIGNALED,
			    .raddr = raddr, .rkey = rkey };

	w.flush.length = len;
	w.flush.type = type;
	w.flush.level = level;
	return w;
}

static struct ro_wqe aw_wqe(uint64_t raddr, uint32_t rkey, uint64_t v)
{
	struct ro_wqe w = { .opcode = WREN_WQE_ATOMIC_WRITE,
			    .flags = WREN_WQE_F_SIGNALED,
			    .raddr = raddr, .rkey = rkey };

	memcpy(w.aw, &v, 8);
	return w;
}

/* Posts @w alone and returns its one CQE's status (-1: none). */
static int run_one(struct fl_env *m, const struct ro_wqe *w,
		   struct wren_cqe *c)
{
	ro_post_send(&m->e.qp[0], w);
	ro_settle(&m->e.p, SETTLE);
	return rc_one_cqe(&m->e.cq[0], c) ? c->status : -1;
}

/* Posts @w alone: did the device refuse it itself, with @vendor? */
static bool refused_locally(struct fl_env *m, const struct ro_wqe *w,
			    uint8_t vendor)
{
	struct wren_cqe c;

	return run_one(m, w, &c) == WREN_CQE_LOC_QP_OP_ERR &&
	       c.vendor_err == vendor;
}

/* ---------------------------------------------------------- the wire */

struct capture {
	uint8_t req[128], resp[128];
	size_t req_len, resp_len;
};

static void capture_fn(void *ctx, int from, bool delivered, const uint8_t *f,
		       size_t len)
{
	struct capture *cap = ctx;
	uint8_t *dst = from ? cap->resp : cap->req;
	size_t *n = from ? &cap->resp_len : &cap->req_len;

	/* Ethernet 14 + IPv4 20 + UDP 8: the BTH's opcode at 42. */
	if (delivered || *n || len > sizeof(cap->req) || len < 54)
		return;
	memcpy(dst, f, len);
	*n = len;
}

static void wire(void)
{
	struct fl_env m;
	struct capture cap = { 0 };
	struct ro_wqe w;
	struct wren_cqe c;
	const uint8_t *b;

	fl_init(&m, QP_ACCESS, 4);
	m.e.p.watch = capture_fn;
	m.e.p.watch_ctx = &cap;
	w = flush_wqe(FL_IOVA + 256, m.fl.key, 4096, WREN_FLUSH_GLOBAL,
		      WREN_FLUSH_RANGE);
	run_one(&m, &w, &c);
	b = cap.req + 42;
	/* BTH 12, FETH 4, RETH 16, ICRC 4, no payload. */
	tap_ok(cap.req_len == 42 + 12 + 4 + 16 + 4 && b[0] == 0x1c &&
	       (b[8] & 0x80) && b[12] == 0 && b[13] == 0 && b[14] == 0 &&
	       b[15] == (WREN_FLUSH_RANGE << 4 | WREN_FLUSH_GLOBAL) &&
	       whw_rd64be(b + 16) == FL_IOVA + 256 &&
	       whw_rd32be(b + 24) == m.fl.key && whw_rd32be(b + 28) == 4096,
	       "FLUSH on the wire: opcode 0x1c, AckReq, FETH (level 0, type "
	       "1), RETH with address, rkey and length");
	b = cap.resp + 42;
	tap_ok(cap.resp_len == 42 + 12 + 4 + 4 && b[0] == 0x10 &&
	       b[12] == 0x1f && c.status == 0 && c.opcode == WREN_WQE_FLUSH &&
	       c.byte_len == 0,
	       "answered by an RDMA READ response ONLY with an AETH and no "
	       "payload; the CQE is FLUSH's, 0 bytes");
	fl_fini(&m);

	memset(&cap, 0, sizeof(cap));
	fl_init(&m, QP_ACCESS, 4);
	m.e.p.watch = capture_fn;
	m.e.p.watch_ctx = &cap;
	w = aw_wqe(m.e.mr[1].iova + 64, m.e.mr[1].key, 0x0123456789abcdefull);
	run_one(&m, &w, &c);
	b = cap.req + 42;
	tap_ok(cap.req_len == 42 + 12 + 16 + 8 + 4 && b[0] == 0x1d &&
	       whw_rd64be(b + 12) == m.e.mr[1].iova + 64 &&
	       whw_rd32be(b + 20) == m.e.mr[1].key &&
	       whw_rd32be(b + 24) == 8 && !memcmp(b + 28, w.aw, 8),
	       "ATOMIC WRITE on the wire: opcode 0x1d, RETH of 8 bytes, the "
	       "8 bytes as they are in memory");
	b = cap.resp + 42;
	tap_ok(cap.resp_len == 42 + 12 + 4 + 4 && b[0] == 0x10 &&
	       c.status == 0 && c.opcode == WREN_WQE_ATOMIC_WRITE,
	       "answered by an empty RDMA READ response ONLY; the CQE is "
	       "ATOMIC WRITE's");
	fl_fini(&m);
}

/* ------------------------------------------------------------ success */

static void ordered(void)
{
	struct ro_wqe wr = { .opcode = WREN_WQE_RDMA_WRITE, .nsge = 1 };
	struct ro_wqe fl, aw;
	struct wren_cqe cq[4];
	struct fl_env m;
	uint8_t *pat;
	uint64_t got, want = 0xfeedfacecafebeefull;
	unsigned int n;

	fl_init(&m, QP_ACCESS, 4);
	/* The persistent-log pattern: data, FLUSH it, then the flag. */
	pat = rc_pattern(&m.e, 0, 0, 20000, 7);
	wr.sge[0] = rc_sge(&m.e, 0, 0, 20000);
	wr.raddr = FL_IOVA;
	wr.rkey = m.fl.key;
	fl = flush_wqe(FL_IOVA, m.fl.key, 20000, WREN_FLUSH_GLOBAL,
		       WREN_FLUSH_RANGE);
	aw = aw_wqe(FL_IOVA + 32768, m.fl.key, want);
	ro_write_send(&m.e.qp[0], &wr);
	ro_write_send(&m.e.qp[0], &fl);
	ro_write_send(&m.e.qp[0], &aw);
	ro_ring(&m.e.qp[0]);
	ro_settle(&m.e.p, SETTLE);
	n = ro_cq_drain(&m.e.cq[0], cq, 4);
	ro_mr_read(&m.fl, FL_IOVA + 32768, &got, 8);
	{
		uint8_t back[20000];

		ro_mr_read(&m.fl, FL_IOVA, back, sizeof(back));
		tap_ok(n == 2 && cq[0].status == 0 &&
		       cq[0].opcode == WREN_WQE_FLUSH && cq[1].status == 0 &&
		       cq[1].opcode == WREN_WQE_ATOMIC_WRITE && got == want &&
		       !memcmp(back, pat, sizeof(back)),
		       "WRITE, FLUSH of its range, ATOMIC WRITE of a flag: in "
		       "order, data and flag in place");
	}
	free(pat);

	/* The MR level: address and length are not looked at. */
	fl = flush_wqe(0, m.fl.key, 0, WREN_FLUSH_GLOBAL, WREN_FLUSH_MR);
	tap_ok(run_one(&m, &fl, &cq[0]) == 0,
	       "FLUSH of the whole MR (address 0, length 0 ignored)");
	fl = flush_wqe(~0ull - 4, m.fl.key, 0xffffffffu, WREN_FLUSH_GLOBAL,
		       WREN_FLUSH_MR);
	tap_ok(run_one(&m, &fl, &cq[0]) == 0,
	       "FLUSH of the whole MR with an address and length that wrap: "
	       "not looked at");
	fl = flush_wqe(FL_IOVA + 100, m.fl.key, 0, WREN_FLUSH_GLOBAL,
		       WREN_FLUSH_RANGE);
	tap_ok(run_one(&m, &fl, &cq[0]) == 0,
	       "FLUSH of an empty range inside the MR");
	/* Fewer responder resources than requests: they wait their turn. */
	for (int i = 0; i < 12; i++) {
		fl = flush_wqe(FL_IOVA, m.fl.key, FL_LEN, WREN_FLUSH_GLOBAL,
			       WREN_FLUSH_RANGE);
		aw = aw_wqe(FL_IOVA + 8 * i, m.fl.key, (uint64_t)i * 3);
		ro_write_send(&m.e.qp[0], i & 1 ? &fl : &aw);
	}
	ro_ring(&m.e.qp[0]);
	ro_settle(&m.e.p, SETTLE);
	n = ro_cq_drain(&m.e.cq[0], NULL, 0);
	ro_mr_read(&m.fl, FL_IOVA + 80, &got, 8);
	tap_ok(n == 12 && got == 30 &&
	       ro_qp_state(&m.e.p.n[0], m.e.qp[0].qpn) == WREN_QPS_RTS,
	       "12 FLUSHes and ATOMIC WRITEs with max_rd_atomic 4: all "
	       "complete, the QP stays in RTS");
	fl_fini(&m);
}

/* ------------------------------------------------------------ refusals */

struct refusal {
	const char *what;
	uint16_t qp_access;
	int kind;		/* 0 FLUSH, 1 ATOMIC WRITE */
	uint64_t raddr_off;	/* from the flush MR (0) or node 1's MR (1) */
	int mr;			/* 0: flush MR, 1: node 1's plain MR */
	uint32_t len;
	uint8_t type, level;
	uint8_t status;
};

static void refusals(void)
{
	static const struct refusal t[] = {
		{ "ATOMIC WRITE at an address not 8-byte aligned", QP_ACCESS,
		  1, 68, 0, 0, 0, 0, WREN_CQE_REM_INV_REQ_ERR },
		{ "ATOMIC WRITE past the MR's end", QP_ACCESS, 1,
		  FL_LEN, 0, 0, 0, 0, WREN_CQE_REM_ACCESS_ERR },
		{ "ATOMIC WRITE on a QP without remote write",
		  WREN_ACCESS_REMOTE_READ | WREN_ACCESS_FLUSH_GLOBAL, 1, 64,
		  0, 0, 0, 0, WREN_CQE_REM_ACCESS_ERR },
		{ "FLUSH on an MR without the global FLUSH right", QP_ACCESS,
		  0, 0, 1, 4096, WREN_FLUSH_GLOBAL, WREN_FLUSH_RANGE,
		  WREN_CQE_REM_ACCESS_ERR },
		{ "FLUSH of the whole MR without its right", QP_ACCESS, 0, 0,
		  1, 0, WREN_FLUSH_GLOBAL, WREN_FLUSH_MR,
		  WREN_CQE_REM_ACCESS_ERR },
		{ "persistent FLUSH (no MR has that right)", QP_ACCESS, 0, 0,
		  0, 4096, WREN_FLUSH_PERSISTENT, WREN_FLUSH_RANGE,
		  WREN_CQE_REM_ACCESS_ERR },
		{ "both types at once (persistent among them)", QP_ACCESS, 0,
		  0, 0, 4096, WREN_FLUSH_TYPES, WREN_FLUSH_RANGE,
		  WREN_CQE_REM_ACCESS_ERR },
		{ "FLUSH of a range past the MR's end", QP_ACCESS, 0, 4096, 0,
		  FL_LEN, WREN_FLUSH_GLOBAL, WREN_FLUSH_RANGE,
		  WREN_CQE_REM_ACCESS_ERR },
		{ "FLUSH on a QP without the global FLUSH right", ALL_ACCESS,
		  0, 0, 0, 4096, WREN_FLUSH_GLOBAL, WREN_FLUSH_RANGE,
		  WREN_CQE_REM_ACCESS_ERR },
	};

	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct fl_env m;
		struct ro_wqe w;
		struct wren_cqe c;
		uint64_t before = 0x5555aaaa5555aaaaull, after, base;
		uint32_t key;
		int st;

		fl_init(&m, t[i].qp_access, 4);
		base = t[i].mr ? m.e.mr[1].iova : FL_IOVA;
		key = t[i].mr ? m.e.mr[1].key : m.fl.key;
		ro_mr_write(&m.fl, FL_IOVA + 64, &before, 8);
		if (t[i].kind)
			w = aw_wqe(base + t[i].raddr_off, key, 1);
		else
			w = flush_wqe(base + t[i].raddr_off, key, t[i].len,
				      t[i].type, t[i].level);
		st = run_one(&m, &w, &c);
		ro_mr_read(&m.fl, FL_IOVA + 64, &after, 8);
		tap_ok(st == t[i].status && after == before &&
		       ro_qp_state(&m.e.p.n[0], m.e.qp[0].qpn) ==
		       WREN_QPS_ERR &&
		       ro_qp_state(&m.e.p.n[1], m.e.qp[1].qpn) == WREN_QPS_ERR,
		       "%s: status %d, nothing written, both QPs in ERR",
		       t[i].what, st);
		fl_fini(&m);
	}
}

/* The device refuses what the WQE itself gets wrong, before any packet. */
static void bad_wqes(void)
{
	struct fl_env m;
	struct ro_wqe w;
	struct wren_cqe c;
	struct {
		const char *what;
		uint8_t vendor;
	} cases[] = {
		{ "FLUSH with no placement type", WREN_VERR_SQ_FLUSH },
		{ "FLUSH with an unknown placement type bit",
		  WREN_VERR_SQ_FLUSH },
		{ "FLUSH with selectivity level 2", WREN_VERR_SQ_FLUSH },
		{ "FLUSH with a reserved byte set", WREN_VERR_SQ_RSVD },
		{ "FLUSH with a data segment", WREN_VERR_SQ_STRIDE },
		{ "ATOMIC WRITE marked inline", WREN_VERR_SQ_STRIDE },
		{ "ATOMIC WRITE with its reserved half set",
		  WREN_VERR_SQ_RSVD },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t tx;

		fl_init(&m, QP_ACCESS, 4);
		w = flush_wqe(FL_IOVA, m.fl.key, 64, WREN_FLUSH_GLOBAL,
			      WREN_FLUSH_RANGE);
		switch (i) {
		case 0:
			w.flush.type = 0;
			break;
		case 1:
			w.flush.type = 4;
			break;
		case 2:
			w.flush.level = 2;
			break;
		case 3:
			w.flush.rsvd0[1] = 1;
			break;
		case 4:
			w.ds_override = 1;
			break;
		case 5:
			w = aw_wqe(FL_IOVA, m.fl.key, 1);
			w.flags |= WREN_WQE_F_INLINE;
			w.inl = w.aw;
			w.inl_len = 8;
			break;
		default:
			w = aw_wqe(FL_IOVA, m.fl.key, 1);
			break;
		}
		tx = ro_counter(&m.e.p.n[0], WREN_RDMA_CNT_TX_ROCE_PACKETS);
		if (i == 6) {
			/* The reserved half follows the 8 data bytes. */
			ro_write_send(&m.e.qp[0], &w);
			{
				uint64_t slot = (uint64_t)((m.e.qp[0].sq_pi - 1) &
					((1u << m.e.qp[0].sq_log) - 1))
					<< m.e.qp[0].sq_shift;
				uint8_t one = 1;

				th_mem_write(m.e.qp[0].d->h,
					     m.e.qp[0].buf + slot + 40, &one, 1);
			}
			ro_ring(&m.e.qp[0]);
			ro_settle(&m.e.p, SETTLE);
			rc_one_cqe(&m.e.cq[0], &c);
		} else {
			run_one(&m, &w, &c);
		}
		tap_ok(c.status == WREN_CQE_LOC_QP_OP_ERR &&
		       c.vendor_err == cases[i].vendor &&
		       ro_counter(&m.e.p.n[0], WREN_RDMA_CNT_TX_ROCE_PACKETS) == tx,
		       "%s: LOC_QP_OP_ERR, vendor 0x%02x, nothing sent",
		       cases[i].what, c.vendor_err);
		fl_fini(&m);
	}

	fl_init(&m, QP_ACCESS, 0);
	w = flush_wqe(FL_IOVA, m.fl.key, 64, WREN_FLUSH_GLOBAL,
		      WREN_FLUSH_RANGE);
	tap_ok(refused_locally(&m, &w, WREN_VERR_SQ_RD_ATOMIC),
	       "FLUSH on a QP with max_rd_atomic 0: WREN_VERR_SQ_RD_ATOMIC");
	fl_fini(&m);
}

/* ------------------------------------------------------------ replays */

static void replay(void)
{
	uint64_t first = 0x1111111111111111ull, later = 0x2222222222222222ull;
	struct fl_env m;
	struct ro_wqe w;
	struct wren_cqe c;
	uint64_t got;
	bool ok;

	/*
	 * The response is lost; before the retry arrives the responder's
	 * memory changes: a retried ATOMIC WRITE must not write again.
	 */
	fl_init(&m, QP_ACCESS, 4);
	m.e.p.drop_opcode = WHW_OP_READ_RESP_ONLY;
	m.e.p.drop_opcode_n = 1;
	w = aw_wqe(FL_IOVA + 64, m.fl.key, first);
	ro_post_send(&m.e.qp[0], &w);
	ro_settle(&m.e.p, 1000000);	/* 1 ms: before the 67 ms timeout */
	ro_mr_read(&m.fl, FL_IOVA + 64, &got, 8);
	ok = got == first && !rc_one_cqe(&m.e.cq[0], &c);
	ro_mr_write(&m.fl, FL_IOVA + 64, &later, 8);
	ro_settle(&m.e.p, SETTLE);
	ro_mr_read(&m.fl, FL_IOVA + 64, &got, 8);
	tap_ok(ok && rc_one_cqe(&m.e.cq[0], &c) && c.status == 0 &&
	       got == later &&
	       ro_counter(&m.e.p.n[1], WREN_RDMA_CNT_DUPLICATE_REQUEST) == 1,
	       "ATOMIC WRITE's response lost: the retry is answered from "
	       "the responder resource, memory not written again");
	fl_fini(&m);

	fl_init(&m, QP_ACCESS, 4);
	m.e.p.drop_opcode = WHW_OP_READ_RESP_ONLY;
	m.e.p.drop_opcode_n = 1;
	w = flush_wqe(FL_IOVA, m.fl.key, 4096, WREN_FLUSH_GLOBAL,
		      WREN_FLUSH_RANGE);
	tap_ok(run_one(&m, &w, &c) == 0 &&
	       ro_counter(&m.e.p.n[1], WREN_RDMA_CNT_DUPLICATE_REQUEST) == 1 &&
	       ro_counter(&m.e.p.n[0], WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR) ==
	       1,
	       "FLUSH's response lost: timeout, the retry answered again");
	fl_fini(&m);
}

/* ------------------------------------------------------- capabilities */

static void caps_off(void)
{
	struct fl_env m;
	struct ro_wqe w;
	struct wren_create_mr_in in;
	struct wrenhw *hw;
	struct td_res r;

	fl_init(&m, ALL_ACCESS, 4);
	hw = m.e.p.n[0].d->h->hw;
	whw_test_set_caps(hw, hw->caps & ~(WREN_CAP_RDMA_FLUSH |
					   WREN_CAP_RDMA_ATOMIC_WRITE));
	w = flush_wqe(FL_IOVA, m.fl.key, 64, WREN_FLUSH_GLOBAL,
		      WREN_FLUSH_RANGE);
	tap_ok(refused_locally(&m, &w, WREN_VERR_SQ_OPCODE),
	       "without WREN_CAP_RDMA_FLUSH: a FLUSH WQE is an unknown opcode");
	fl_fini(&m);

	fl_init(&m, ALL_ACCESS, 4);
	hw = m.e.p.n[0].d->h->hw;
	whw_test_set_caps(hw, hw->caps & ~WREN_CAP_RDMA_ATOMIC_WRITE);
	w = aw_wqe(FL_IOVA, m.fl.key, 1);
	tap_ok(refused_locally(&m, &w, WREN_VERR_SQ_OPCODE),
	       "without WREN_CAP_RDMA_ATOMIC_WRITE: so is an ATOMIC WRITE");
	whw_test_set_caps(hw, hw->caps & ~WREN_CAP_RDMA_FLUSH);
	memset(&in, 0, sizeof(in));
	in.pdn = m.e.p.n[0].pd;
	in.access = WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_FLUSH_GLOBAL;
	in.iova = 0x10000;
	in.length = 4096;
	in.num_mtt = 1;
	in.page_shift = 12;
	r = td_cmd(m.e.p.n[0].d, WREN_AQ_OP_CREATE_MR, NULL, 0, &in,
		   sizeof(in), NULL, 0);
	tap_ok(r.completed && r.status == WREN_AQ_STATUS_BAD_PARAM &&
	       r.synd == SYND_CMR(access),
	       "without it, CREATE_MR with the FLUSH right: BAD_PARAM");
	{
		struct ro_qp qp;
		struct ro_qp_opts o = { .type = WREN_QPT_RC,
					.scq = m.e.cq[0].cqn,
					.rcq = m.e.cq[0].cqn };
		struct ro_conn cn = {
			.mtu = WREN_MTU_4096, .timeout = 14, .retry = 7,
			.rnr_retry = 7, .min_rnr = 1, .rd_atomic = 4,
			.access = ALL_ACCESS | WREN_ACCESS_FLUSH_GLOBAL,
		};

		ro_qp_create(&m.e.p.n[0], &qp, &o);
		tap_ok(ro_connect(&m.e.p, 0, &qp, &m.e.qp[1], &cn) ==
		       WREN_AQ_STATUS_BAD_PARAM,
		       "and a QP with a FLUSH right does not leave RESET");
	}
	fl_fini(&m);
}

void test_iba15(void)
{
	wire();
	ordered();
	refusals();
	bad_wqes();
	replay();
	caps_off();
}
