// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue pairs: creation checks, references, the whole IB state transition
 * table for RC (checked against an independent copy of the IB spec's
 * table, not the model's), attribute ranges, QUERY_QP, SQ doorbells.
 */
#include "tests.h"
#include "wrenhw_int.h"

#define SYND_CQP(f)	SYND_IN(struct wren_create_qp_in, f)
#define SYND_MQP(f)	SYND_IN(struct wren_modify_qp_in, f)

struct env {
	struct td *d;
	uint32_t pd, eq, cq, uar;
};

static void env_init_objects(struct env *e)
{
	e->pd = (uint32_t)td_alloc_pd(e->d);
	e->eq = (uint32_t)td_create_eq(e->d, 4, 1, NULL);
	e->uar = (uint32_t)td_alloc_uar(e->d);
	/* A QP's CQs must share its doorbell page (else PERM). */
	e->cq = (uint32_t)td_create_cq(e->d, e->eq, e->uar, 6);
	td_set_gid(e->d, 0);
}

static void env_init(struct env *e)
{
	e->d = td_new(NULL);
	env_init_objects(e);
}

static struct wren_create_qp_in qp_in(struct env *e, uint8_t type)
{
	struct wren_create_qp_in in;

	memset(&in, 0, sizeof(in));
	in.type = type;
	in.sq_wqe_shift = 7;
	in.rq_wqe_shift = 6;
	in.sq_log_size = 4;
	in.rq_log_size = 5;
	in.max_inline = 64;
	in.pdn = e->pd;
	in.send_cqn = e->cq;
	in.recv_cqn = e->cq;
	in.uar = e->uar;
	in.rq_offset = 1u << 11;
	in.buf.addr = td_alloc(e->d, 4096, 4096);
	in.buf.page_shift = 12;
	in.dbrec_addr = td_alloc(e->d, 8, 8);
	return in;
}

static struct td_res create_qp(struct env *e, struct wren_create_qp_in *in)
{
	return td_cmd(e->d, WREN_AQ_OP_CREATE_QP, NULL, 0, in, sizeof(*in),
		      NULL, 0);
}

static void create_checks(void)
{
	struct env e;
	struct wren_create_qp_in in;
	struct td_res r;

	env_init(&e);
	in = qp_in(&e, 7);
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CQP(type),
	       "QP type 7 -> BAD_PARAM");
	in = qp_in(&e, WREN_QPT_RC);
	in.flags = 0x04;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CQP(flags),
	       "QP unknown flag -> BAD_PARAM");
	in = qp_in(&e, WREN_QPT_RC);
	in.sq_wqe_shift = 5;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CQP(sq_wqe_shift), "SQ stride 32 -> BAD_PARAM");
	in.sq_wqe_shift = 11;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CQP(sq_wqe_shift), "SQ stride 2048 -> BAD_PARAM");
	in = qp_in(&e, WREN_QPT_RC);
	in.sq_log_size = 0;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_SIZE,
	       SYND_CQP(sq_log_size), "SQ log size 0 -> BAD_SIZE");
	in.sq_log_size = 16;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_SIZE,
	       SYND_CQP(sq_log_size), "SQ log size 16 -> BAD_SIZE");
	in = qp_in(&e, WREN_QPT_RC);
	in.rq_log_size = 16;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_SIZE,
	       SYND_CQP(rq_log_size), "RQ log size 16 -> BAD_SIZE");
	in = qp_in(&e, WREN_QPT_RC);
	in.rq_offset = 1024;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CQP(rq_offset), "RQ overlapping the SQ -> BAD_PARAM");
	in.rq_offset = 2048 + 32;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CQP(rq_offset), "RQ offset not a stride multiple -> BAD_PARAM");
	in = qp_in(&e, WREN_QPT_RC);
	in.max_inline = 128;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CQP(max_inline), "inline data larger than the WQE -> BAD_PARAM");
	in = qp_in(&e, WREN_QPT_RC);
	in.pdn = 99;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_HANDLE, SYND_CQP(pdn),
	       "QP on a missing PD -> BAD_HANDLE");
	in = qp_in(&e, WREN_QPT_RC);
	in.send_cqn = 99;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_HANDLE, SYND_CQP(send_cqn),
	       "QP on a missing send CQ -> BAD_HANDLE");
	in = qp_in(&e, WREN_QPT_RC);
	in.recv_cqn = 99;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_HANDLE, SYND_CQP(recv_cqn),
	       "QP on a missing recv CQ -> BAD_HANDLE");
	in = qp_in(&e, WREN_QPT_RC);
	in.srqn = 3;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CQP(srqn),
	       "srqn without USE_SRQ -> BAD_PARAM");
	in.srqn = 0;
	in.flags = WREN_QP_F_USE_SRQ;
	in.rq_log_size = 0;
	in.rq_wqe_shift = 0;
	in.rq_offset = 0;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_HANDLE, SYND_CQP(srqn),
	       "USE_SRQ on a missing SRQ -> BAD_HANDLE");
	in = qp_in(&e, WREN_QPT_RC);
	in.uar = 77;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_HANDLE, SYND_CQP(uar),
	       "QP on an unallocated UAR -> BAD_HANDLE");
	in = qp_in(&e, WREN_QPT_RC);
	in.dbrec_addr |= 4;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_ADDR, SYND_CQP(dbrec_addr),
	       "unaligned QP doorbell record -> BAD_ADDR");
	in = qp_in(&e, WREN_QPT_RC);
	in.buf.npages = 2;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_SIZE, SYND_CQP(buf.npages),
	       "QP page list not matching its 4 KiB -> BAD_SIZE");
	in = qp_in(&e, WREN_QPT_RC);
	in.buf.addr = e.d->aeq;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_ADDR, SYND_CQP(buf.addr),
	       "QP buffer over the AEQ -> BAD_ADDR");
	in = qp_in(&e, WREN_QPT_RC);
	in.rsvd[16] = 1;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CQP(rsvd) + 64, "QP reserved -> BAD_PARAM");

	in = qp_in(&e, WREN_QPT_RC);
	r = create_qp(&e, &in);
	tap_ok(r.status == 0 && r.result == 2, "first RC QP is qpn 2");
	in = qp_in(&e, WREN_QPT_GSI);
	r = create_qp(&e, &in);
	tap_ok(r.status == 0 && r.result == 1, "the GSI QP is qpn 1");
	in = qp_in(&e, WREN_QPT_GSI);
	expect(create_qp(&e, &in), WREN_AQ_STATUS_EXISTS, SYND_CQP(type),
	       "second GSI QP -> EXISTS");
	in = qp_in(&e, WREN_QPT_UD);
	in.rq_log_size = 0;
	in.rq_wqe_shift = 0;
	in.rq_offset = 0;
	r = create_qp(&e, &in);
	tap_ok(r.status == 0 && r.result == 3, "UD QP without RQ is qpn 3");
	expect(td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_CQ, e.cq, NULL, 0),
	       WREN_AQ_STATUS_BUSY, ANY_SYND, "DESTROY_CQ under a QP -> BUSY");
	expect(td_handle_cmd(e.d, WREN_AQ_OP_DEALLOC_PD, e.pd, NULL, 0),
	       WREN_AQ_STATUS_BUSY, ANY_SYND, "DEALLOC_PD under a QP -> BUSY");
	expect(td_handle_cmd(e.d, WREN_AQ_OP_DEALLOC_UAR, e.uar, NULL, 0),
	       WREN_AQ_STATUS_BUSY, ANY_SYND, "DEALLOC_UAR under a QP -> BUSY");
	for (uint32_t q = 1; q <= 3; q++)
		td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_QP, q, NULL, 0);
	expect(td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_QP, 2, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, ANY_SYND,
	       "DESTROY_QP twice -> BAD_HANDLE");
	expect(td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_QP, 0, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, ANY_SYND, "qpn 0 does not exist");
	expect(td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_CQ, e.cq, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "CQ free once its QPs are gone");
	td_free(e.d);
}

/* ---------------------------------------------------- transitions (RC) */

/* The IB spec's RC table (IBA 11.2.4.2 / ib_core), written out again. */
static const bool rc_valid[7][7] = {
	/* to: RESET INIT  RTR   RTS   SQD   SQE   ERR */
	[0] = { 1, 1, 0, 0, 0, 0, 0 },
	[1] = { 1, 1, 1, 0, 0, 0, 1 },
	[2] = { 1, 0, 0, 1, 0, 0, 1 },
	[3] = { 1, 0, 0, 1, 1, 0, 1 },
	[4] = { 1, 0, 0, 1, 1, 0, 1 },
	[5] = { 1, 0, 0, 1, 0, 0, 1 },
	[6] = { 1, 0, 0, 0, 0, 0, 1 },
};

static uint32_t rc_required(int from, int to)
{
	if (from == 0 && to == 1)
		return WREN_QP_ATTR_ACCESS_FLAGS;
	if (from == 1 && to == 2)
		return WREN_QP_ATTR_AV | WREN_QP_ATTR_PATH_MTU |
		       WREN_QP_ATTR_DEST_QPN | WREN_QP_ATTR_RQ_PSN |
		       WREN_QP_ATTR_MAX_DEST_RD_ATOMIC |
		       WREN_QP_ATTR_MIN_RNR_TIMER;
	if (from == 2 && to == 3)
		return WREN_QP_ATTR_TIMEOUT | WREN_QP_ATTR_RETRY_CNT |
		       WREN_QP_ATTR_RNR_RETRY | WREN_QP_ATTR_SQ_PSN |
		       WREN_QP_ATTR_MAX_QP_RD_ATOMIC;
	return 0;
}

static struct wren_modify_qp_in mod(uint32_t qpn, int to, uint32_t attrs)
{
	struct wren_modify_qp_in m;

	memset(&m, 0, sizeof(m));
	m.qpn = qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | attrs;
	m.new_state = (uint8_t)to;
	m.path_mtu = WREN_MTU_4096;
	m.timeout = 14;
	m.retry_cnt = 7;
	m.rnr_retry = 7;
	m.min_rnr_timer = 12;
	m.max_rd_atomic = 4;
	m.max_dest_rd_atomic = 4;
	m.access_flags = WREN_ACCESS_REMOTE_WRITE | WREN_ACCESS_LOCAL_WRITE;
	m.sq_psn = 0x123456;
	m.rq_psn = 0x654321;
	m.dest_qpn = 0x42;
	m.av.gid_index = 0;
	m.av.hop_limit = 64;
	m.av.dgid[0] = 0xfe;
	m.av.dmac[0] = 0x02;
	m.av.dmac[5] = 0x77;
	return m;
}

static struct td_res modify(struct env *e, struct wren_modify_qp_in *m)
{
	return td_cmd(e->d, WREN_AQ_OP_MODIFY_QP, NULL, 0, m, sizeof(*m),
		      NULL, 0);
}

/* Walks a fresh QP to @state along valid transitions. */
static bool reach(struct env *e, uint32_t qpn, int state)
{
	static const int path[] = { 1, 2, 3, 4 };
	struct wren_modify_qp_in m;
	int cur = 0;

	if (state == 6) {
		m = mod(qpn, 1, rc_required(0, 1));
		if (modify(e, &m).status)
			return false;
		m = mod(qpn, 6, 0);
		return modify(e, &m).status == 0;
	}
	for (unsigned int i = 0; i < 4 && cur != state; i++) {
		m = mod(qpn, path[i], rc_required(cur, path[i]));
		if (modify(e, &m).status)
			return false;
		cur = path[i];
	}
	return cur == state;
}

static int query_state(struct env *e, uint32_t qpn, struct wren_query_qp_out *o)
{
	struct td_res r = td_handle_cmd(e->d, WREN_AQ_OP_QUERY_QP, qpn, o,
					sizeof(*o));

	return r.status ? -1 : o->state;
}

static void transitions(void)
{
	struct env e;
	unsigned int good = 0, total = 0;

	env_init(&e);
	/* SQE (5) is entered only by the device on errors; not reachable. */
	for (int from = 0; from < 7; from++) {
		if (from == 5)
			continue;
		for (int to = 0; to < 7; to++) {
			struct wren_create_qp_in in = qp_in(&e, WREN_QPT_RC);
			struct wren_modify_qp_in m;
			struct wren_query_qp_out o;
			struct td_res r = create_qp(&e, &in);
			uint32_t qpn = (uint32_t)r.result;
			bool ok;

			if (r.status || !reach(&e, qpn, from)) {
				tap_ok(false, "setup %d -> %d", from, to);
				continue;
			}
			m = mod(qpn, to, rc_required(from, to));
			r = modify(&e, &m);
			if (rc_valid[from][to])
				ok = r.status == 0 && query_state(&e, qpn, &o) == to;
			else
				ok = r.status == WREN_AQ_STATUS_BAD_STATE &&
				     r.synd == SYND_MQP(new_state) &&
				     query_state(&e, qpn, &o) == from;
			total++;
			good += ok;
			if (!ok)
				tap_diag("RC %d -> %d: status %d", from, to,
					 r.status);
			td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_QP, qpn, NULL, 0);
		}
	}
	tap_ok(good == total && total == 42,
	       "RC transition table: %u of %u transitions as the IB spec says",
	       good, total);
	td_free(e.d);
}

static void attributes(void)
{
	struct env e;
	struct wren_create_qp_in in;
	struct wren_modify_qp_in m;
	struct wren_query_qp_out o;
	uint32_t qpn, ud;
	struct wren_eqe ev;
	struct td_res r;

	env_init(&e);
	in = qp_in(&e, WREN_QPT_RC);
	qpn = (uint32_t)create_qp(&e, &in).result;
	m = mod(qpn, 1, 0);
	expect(modify(&e, &m), WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(attr_mask),
	       "RESET->INIT without ACCESS_FLAGS -> BAD_PARAM");
	m = mod(qpn, 1, WREN_QP_ATTR_ACCESS_FLAGS | WREN_QP_ATTR_PATH_MTU);
	expect(modify(&e, &m), WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(attr_mask),
	       "RESET->INIT with PATH_MTU (not allowed) -> BAD_PARAM");
	m = mod(qpn, 1, WREN_QP_ATTR_ACCESS_FLAGS | 0x10000);
	expect(modify(&e, &m), WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(attr_mask),
	       "unknown attr_mask bit -> BAD_PARAM");
	m = mod(qpn, 7, WREN_QP_ATTR_ACCESS_FLAGS);
	expect(modify(&e, &m), WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(new_state),
	       "new_state 7 -> BAD_PARAM");
	m = mod(qpn, 1, WREN_QP_ATTR_ACCESS_FLAGS);
	m.access_flags = 0x10;
	expect(modify(&e, &m), WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(access_flags),
	       "unknown access flag -> BAD_PARAM");
	m = mod(qpn, 1, WREN_QP_ATTR_ACCESS_FLAGS);
	m.rsvd[3] = 1;
	expect(modify(&e, &m), WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(rsvd) + 12,
	       "MODIFY_QP reserved -> BAD_PARAM");
	m = mod(qpn, 1, WREN_QP_ATTR_ACCESS_FLAGS | WREN_QP_ATTR_CUR_STATE);
	m.cur_state = WREN_QPS_INIT;
	expect(modify(&e, &m), WREN_AQ_STATUS_BAD_STATE, SYND_MQP(cur_state),
	       "cur_state not matching -> BAD_STATE");
	m = mod(99, 1, WREN_QP_ATTR_ACCESS_FLAGS);
	expect(modify(&e, &m), WREN_AQ_STATUS_BAD_HANDLE, SYND_MQP(qpn),
	       "MODIFY_QP missing QP -> BAD_HANDLE");
	m = mod(qpn, 1, WREN_QP_ATTR_ACCESS_FLAGS);
	expect(modify(&e, &m), WREN_AQ_STATUS_OK, 0, "RESET->INIT");

#define RTR_BAD(field, value, what) do {				\
		m = mod(qpn, 2, rc_required(1, 2));			\
		m.field = value;					\
		expect(modify(&e, &m), WREN_AQ_STATUS_BAD_PARAM,	\
		       SYND_MQP(field), what);				\
	} while (0)
	RTR_BAD(path_mtu, 6, "path_mtu 6 -> BAD_PARAM");
	RTR_BAD(path_mtu, 0, "path_mtu 0 -> BAD_PARAM");
	RTR_BAD(min_rnr_timer, 32, "min_rnr_timer 32 -> BAD_PARAM");
	RTR_BAD(rq_psn, 1u << 24, "rq_psn beyond 24 bits -> BAD_PARAM");
	RTR_BAD(dest_qpn, 1u << 24, "dest_qpn beyond 24 bits -> BAD_PARAM");
	RTR_BAD(max_dest_rd_atomic, 17, "max_dest_rd_atomic 17 -> BAD_PARAM");
	RTR_BAD(av.gid_index, 5, "AV on an empty GID entry -> BAD_PARAM");
	RTR_BAD(av.gid_index, 200, "AV gid_index 200 -> BAD_PARAM");
	RTR_BAD(av.flags, 0x40, "AV unknown flag -> BAD_PARAM");
	m = mod(qpn, 2, rc_required(1, 2) & ~WREN_QP_ATTR_AV);
	expect(modify(&e, &m), WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(attr_mask),
	       "INIT->RTR without AV -> BAD_PARAM");
	m = mod(qpn, 2, rc_required(1, 2));
	expect(modify(&e, &m), WREN_AQ_STATUS_OK, 0, "INIT->RTR");
#define RTS_BAD(field, value, what) do {				\
		m = mod(qpn, 3, rc_required(2, 3));			\
		m.field = value;					\
		expect(modify(&e, &m), WREN_AQ_STATUS_BAD_PARAM,	\
		       SYND_MQP(field), what);				\
	} while (0)
	RTS_BAD(retry_cnt, 8, "retry_cnt 8 -> BAD_PARAM");
	RTS_BAD(rnr_retry, 8, "rnr_retry 8 -> BAD_PARAM");
	RTS_BAD(timeout, 32, "timeout 32 -> BAD_PARAM");
	RTS_BAD(sq_psn, 0x1000000, "sq_psn beyond 24 bits -> BAD_PARAM");
	RTS_BAD(max_rd_atomic, 17, "max_rd_atomic 17 -> BAD_PARAM");
	m = mod(qpn, 3, rc_required(2, 3));
	expect(modify(&e, &m), WREN_AQ_STATUS_OK, 0, "RTR->RTS");
	memset(&o, 0, sizeof(o));
	tap_ok(query_state(&e, qpn, &o) == WREN_QPS_RTS &&
	       o.path_mtu == WREN_MTU_4096 && o.sq_psn == 0x123456 &&
	       o.rq_psn == 0x654321 && o.dest_qpn == 0x42 && o.timeout == 14 &&
	       o.retry_cnt == 7 && o.max_rd_atomic == 4 &&
	       o.access_flags == (WREN_ACCESS_REMOTE_WRITE |
				  WREN_ACCESS_LOCAL_WRITE) &&
	       o.av.dmac[5] == 0x77 && o.av.hop_limit == 64,
	       "QUERY_QP returns what was set");

	/* SQ doorbells (QP on page e.uar, 16 WQEs): the doorbell checks
	 * alone, without the RoCE engine reading the ring's empty WQEs.
	 */
	whw_test_set_caps(e.d->h->hw, WHW_CAPS & ~WHW_CAPS_RDMA);
	th_db_write(e.d->h, e.uar, WREN_DB_SQ, WREN_DB_VAL(qpn, 0, 16));
	tap_ok(td_aeq_count(e.d, WREN_EVENT_QP_FATAL) == 0 &&
	       query_state(&e, qpn, &o) == WREN_QPS_RTS,
	       "SQ doorbell of a full ring is fine");
	th_db_write(e.d->h, 0, WREN_DB_SQ, WREN_DB_VAL(qpn, 0, 17));
	tap_ok(td_aeq_count(e.d, WREN_EVENT_DB_ERR) == 1 &&
	       query_state(&e, qpn, &o) == WREN_QPS_RTS,
	       "SQ doorbell through another page: ignored, DB_ERR");
	th_db_write(e.d->h, e.uar, WREN_DB_SQ, WREN_DB_VAL(qpn, 0, 17));
	tap_ok(td_aeq_poll(e.d, &ev) && ev.type == WREN_EVENT_QP_FATAL &&
	       ev.sub == WREN_WQ_SYND_BAD_INDEX && ev.data == qpn &&
	       query_state(&e, qpn, &o) == WREN_QPS_ERR,
	       "SQ producer beyond the ring -> QP ERR, QP_FATAL BAD_INDEX");
	m = mod(qpn, 0, 0);
	expect(modify(&e, &m), WREN_AQ_STATUS_OK, 0, "ERR->RESET");
	tap_ok(query_state(&e, qpn, &o) == 0 && o.sq_psn == 0 &&
	       o.path_mtu == 0, "RESET clears the attributes");
	th_db_write(e.d->h, e.uar, WREN_DB_SQ, WREN_DB_VAL(qpn, 0, 1));
	tap_ok(td_aeq_count(e.d, WREN_EVENT_DB_ERR) == 0,
	       "doorbell on a RESET QP is counted (reported once already)");

	/* SQ drain notification. */
	reach(&e, qpn, 3);
	m = mod(qpn, 4, WREN_QP_ATTR_SQ_DRAIN_NOTIFY);
	expect(modify(&e, &m), WREN_AQ_STATUS_OK, 0, "RTS->SQD with notify");
	tap_ok(td_aeq_poll(e.d, &ev) && ev.type == WREN_EVENT_QP_SQ_DRAINED &&
	       ev.data == qpn, "SQ_DRAINED event");

	/* UD */
	in = qp_in(&e, WREN_QPT_UD);
	ud = (uint32_t)create_qp(&e, &in).result;
	m = mod(ud, 1, WREN_QP_ATTR_ACCESS_FLAGS);
	expect(modify(&e, &m), WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(attr_mask),
	       "UD RESET->INIT needs QKEY, not ACCESS_FLAGS");
	m = mod(ud, 1, WREN_QP_ATTR_QKEY);
	m.qkey = 0x11111111;
	expect(modify(&e, &m), WREN_AQ_STATUS_OK, 0, "UD RESET->INIT");
	m = mod(ud, 2, WREN_QP_ATTR_AV);
	expect(modify(&e, &m), WREN_AQ_STATUS_BAD_PARAM, SYND_MQP(attr_mask),
	       "UD INIT->RTR with an AV -> BAD_PARAM");
	m = mod(ud, 2, 0);
	r = modify(&e, &m);
	m = mod(ud, 3, WREN_QP_ATTR_SQ_PSN);
	expect(modify(&e, &m), WREN_AQ_STATUS_OK, 0, "UD INIT->RTR->RTS");
	tap_ok(r.status == 0 && query_state(&e, ud, &o) == WREN_QPS_RTS &&
	       o.qkey == 0x11111111, "UD QP in RTS keeps its QKEY");
	td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_QP, ud, NULL, 0);
	m = mod(ud, 0, 0);
	expect(modify(&e, &m), WREN_AQ_STATUS_BAD_HANDLE, ANY_SYND,
	       "MODIFY_QP of a destroyed QP -> BAD_HANDLE");
	td_free(e.d);
}

/*
 * A QPN is not handed out again right after its QP goes, nor after a
 * reset: a peer's CM still knows the old one (see whw_board.h).
 */
static void qpn_reuse(void)
{
	struct wren_create_qp_in in;
	struct wren_modify_qp_in m;
	struct td_res r1, r2, r3;
	struct env e;

	env_init(&e);
	in = qp_in(&e, WREN_QPT_RC);
	r1 = create_qp(&e, &in);
	td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_QP, (uint32_t)r1.result, NULL, 0);
	in = qp_in(&e, WREN_QPT_RC);
	r2 = create_qp(&e, &in);
	tap_ok(r1.status == 0 && r2.status == 0 && r1.result == 2 &&
	       r2.result == (2 | 1u << 16),
	       "a recreated QP in the same slot gets a new QPN (%#llx, %#llx)",
	       (unsigned long long)r1.result, (unsigned long long)r2.result);
	m = mod((uint32_t)r1.result, WREN_QPS_INIT, 0);
	expect(modify(&e, &m), WREN_AQ_STATUS_BAD_HANDLE, SYND_MQP(qpn),
	       "MODIFY_QP of the slot's old QPN -> BAD_HANDLE");
	expect(td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_QP, (uint32_t)r1.result,
			     NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, ANY_SYND,
	       "DESTROY_QP of the slot's old QPN -> BAD_HANDLE");
	th_reg_write(e.d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	td_enable(e.d);
	env_init_objects(&e);
	in = qp_in(&e, WREN_QPT_RC);
	r3 = create_qp(&e, &in);
	tap_ok(r3.status == 0 && r3.result == (2 | 2u << 16),
	       "after a reset the first QP's QPN is not one used before (%#llx)",
	       (unsigned long long)r3.result);
	td_free(e.d);
}

static void table_full(void)
{
	struct wrenhw_config cfg = { .mac = { 2, 0, 0, 0, 0, 1 }, .max_qp = 4 };
	struct env e;
	struct wren_create_qp_in in;

	e.d = td_new(&cfg);
	e.pd = (uint32_t)td_alloc_pd(e.d);
	e.eq = (uint32_t)td_create_eq(e.d, 4, 1, NULL);
	e.cq = (uint32_t)td_create_cq(e.d, e.eq, 0, 6);
	e.uar = 0;
	in = qp_in(&e, WREN_QPT_RC);
	expect(create_qp(&e, &in), WREN_AQ_STATUS_OK, 0, "QP 2 of max 4");
	in = qp_in(&e, WREN_QPT_RC);
	expect(create_qp(&e, &in), WREN_AQ_STATUS_OK, 0, "QP 3 of max 4");
	in = qp_in(&e, WREN_QPT_RC);
	expect(create_qp(&e, &in), WREN_AQ_STATUS_NO_RESOURCES, ANY_SYND,
	       "QP table full -> NO_RESOURCES");
	in = qp_in(&e, WREN_QPT_GSI);
	expect(create_qp(&e, &in), WREN_AQ_STATUS_OK, 0,
	       "the GSI QP still has its reserved qpn 1");
	td_free(e.d);
}

static int64_t create_srq(struct env *e, uint32_t uar)
{
	struct wren_create_srq_in in;
	struct td_res r;

	memset(&in, 0, sizeof(in));
	in.pdn = e->pd;
	in.uar = uar;
	in.log_size = 4;
	in.wqe_shift = 6;
	in.buf.addr = td_alloc(e->d, 1024, 4096);
	in.buf.page_shift = 12;
	in.dbrec_addr = td_alloc(e->d, 8, 8);
	r = td_cmd(e->d, WREN_AQ_OP_CREATE_SRQ, NULL, 0, &in, sizeof(in),
		   NULL, 0);
	return r.completed && !r.status ? (int64_t)r.result : -1;
}

static struct wren_create_qp_in qp_on_srq(struct env *e, uint32_t srqn)
{
	struct wren_create_qp_in in = qp_in(e, WREN_QPT_RC);

	in.flags = WREN_QP_F_USE_SRQ;
	in.srqn = srqn;
	in.rq_log_size = 0;
	in.rq_wqe_shift = 0;
	in.rq_offset = 0;
	return in;
}

/* A QP's CQs and SRQ must be bound to the QP's own doorbell page. */
static void perm_checks(void)
{
	struct env e;
	struct wren_create_qp_in in;
	uint32_t kcq, ksrq, usrq;
	struct td_res r;

	env_init(&e);
	kcq = (uint32_t)td_create_cq(e.d, e.eq, WREN_KERNEL_UAR, 6);
	ksrq = (uint32_t)create_srq(&e, WREN_KERNEL_UAR);
	usrq = (uint32_t)create_srq(&e, e.uar);
	in = qp_in(&e, WREN_QPT_RC);
	in.send_cqn = kcq;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_PERM, SYND_CQP(send_cqn),
	       "user QP with the kernel's send CQ -> PERM");
	in = qp_in(&e, WREN_QPT_RC);
	in.recv_cqn = kcq;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_PERM, SYND_CQP(recv_cqn),
	       "user QP with the kernel's recv CQ -> PERM");
	in = qp_on_srq(&e, ksrq);
	expect(create_qp(&e, &in), WREN_AQ_STATUS_PERM, SYND_CQP(srqn),
	       "user QP on the kernel's SRQ -> PERM");
	in = qp_in(&e, WREN_QPT_RC);
	in.uar = WREN_KERNEL_UAR;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_PERM, SYND_CQP(send_cqn),
	       "kernel QP with a user page's CQs -> PERM");
	in = qp_on_srq(&e, usrq);
	in.uar = WREN_KERNEL_UAR;
	in.send_cqn = in.recv_cqn = kcq;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_PERM, SYND_CQP(srqn),
	       "kernel QP on a user page's SRQ -> PERM");
	in = qp_on_srq(&e, usrq);
	r = create_qp(&e, &in);
	expect(r, WREN_AQ_STATUS_OK, 0, "user QP, CQ and SRQ on one page");
	in = qp_on_srq(&e, ksrq);
	in.uar = WREN_KERNEL_UAR;
	in.send_cqn = in.recv_cqn = kcq;
	expect(create_qp(&e, &in), WREN_AQ_STATUS_OK, 0,
	       "kernel QP, CQ and SRQ on page 0");
	td_free(e.d);
}

void test_qp(void)
{
	create_checks();
	perm_checks();
	transitions();
	attributes();
	qpn_reuse();
	table_full();
}
