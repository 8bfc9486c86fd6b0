// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UC between two models: SEND, SEND with immediate, WRITE and WRITE with
 * immediate across several packets, with UC's opcodes on the wire and
 * nothing coming back; the modify-QP attributes UC takes and refuses; the
 * opcodes UC may not post; a lost packet dropping its message (and the
 * receive WQE it had taken serving the next one); a SEND without a
 * receive and a WRITE outside its key dropped quietly; a receive too
 * small breaking the QP; RC and UC packets kept apart; and no data path
 * without WREN_CAP_RDMA_UC.
 */
#include <stdlib.h>
#include <string.h>

#include "roce/whw_roce.h"
#include "roce_tests.h"
#include "wrenhw_int.h"

#define UC_ACCESS	(WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE)

static const struct ro_conn uc_conn = {
	.mtu = WREN_MTU_1024_, .access = UC_ACCESS,
};

/* Frames seen leaving each side, and their BTH opcodes' classes. */
struct uc_watch {
	unsigned int frames[2];
	unsigned int not_uc;
};

static void watch(void *ctx, int from, bool delivered, const uint8_t *f,
		  size_t len)
{
	struct uc_watch *w = ctx;
	size_t off = 14 + (f[12] == 0x08 ? 20 : 40) + 8;

	if (delivered || off >= len)
		return;
	w->frames[from]++;
	if ((f[off] & WHW_OP_CLASS) != WHW_OP_CLASS_UC)
		w->not_uc++;
}

static void uc_init(struct rc_env *e, struct uc_watch *w)
{
	rc_env_init_type(e, &uc_conn, 0, WREN_QPT_UC);
	memset(w, 0, sizeof(*w));
	e->p.watch = watch;
	e->p.watch_ctx = w;
}

static void post(struct rc_env *e, uint8_t op, uint64_t off, uint32_t len,
		 uint32_t rkey)
{
	struct ro_wqe w = { .opcode = op, .flags = WREN_WQE_F_SIGNALED,
			    .nsge = 1, .imm = 0x11223344 };

	w.sge[0] = rc_sge(e, 0, off, len);
	w.raddr = e->mr[1].iova + off;
	w.rkey = rkey;
	ro_post_send(&e->qp[0], &w);
}

static void data_path(void)
{
	struct rc_env e;
	struct uc_watch w;
	struct wren_cqe c[4], r[4];
	uint8_t *s1, *s2, *w1, *w2;
	unsigned int ns, nr;

	uc_init(&e, &w);
	tap_ok(e.ok, "UC: RESET -> INIT -> RTR -> RTS with UC's attributes");
	s1 = rc_pattern(&e, 0, 0, 5000, 1);
	s2 = rc_pattern(&e, 0, 100000, 1024, 2);
	w1 = rc_pattern(&e, 0, 200000, 9000, 3);
	w2 = rc_pattern(&e, 0, 300000, 3000, 4);
	rc_post_recv(&e, 1, 0, 8192);
	rc_post_recv(&e, 1, 100000, 1024);
	rc_post_recv(&e, 1, 400000, 16);
	post(&e, WREN_WQE_SEND, 0, 5000, 0);
	post(&e, WREN_WQE_SEND_IMM, 100000, 1024, 0);
	post(&e, WREN_WQE_RDMA_WRITE, 200000, 9000, e.mr[1].key);
	post(&e, WREN_WQE_RDMA_WRITE_IMM, 300000, 3000, e.mr[1].key);
	ro_settle(&e.p, 1000000000ull);
	ns = ro_cq_drain(&e.cq[0], c, 4);
	nr = ro_cq_drain(&e.cq[1], r, 4);
	tap_ok(ns == 4 && !c[0].status && !c[1].status && !c[2].status &&
	       !c[3].status && c[2].opcode == WREN_WQE_RDMA_WRITE,
	       "UC: four sends complete once on the wire (%u CQEs)", ns);
	tap_ok(nr == 3 && !r[0].status && r[0].opcode == WREN_CQE_OP_RECV &&
	       r[0].byte_len == 5000 && !r[1].status &&
	       (r[1].flags & WREN_CQE_F_IMM) && r[1].imm_data == 0x11223344 &&
	       r[2].opcode == WREN_CQE_OP_RECV_RDMA_IMM &&
	       r[2].byte_len == 3000 && r[2].imm_data == 0x11223344,
	       "UC: SEND, SEND with immediate and WRITE with immediate "
	       "complete at the receiver (%u CQEs)", nr);
	tap_ok(rc_same(&e, 1, 0, s1, 5000) && rc_same(&e, 1, 100000, s2, 1024) &&
	       rc_same(&e, 1, 200000, w1, 9000) &&
	       rc_same(&e, 1, 300000, w2, 3000),
	       "UC: every byte of 5000 + 1024 sent and 9000 + 3000 written");
	tap_ok(w.frames[0] == 5 + 1 + 9 + 3 && !w.frames[1] && !w.not_uc,
	       "UC: %u frames out, all of UC's opcodes; %u back (no ACKs)",
	       w.frames[0], w.frames[1]);
	free(s1);
	free(s2);
	free(w1);
	free(w2);
	rc_env_fini(&e);
}

static void attributes(void)
{
	struct ro_pair p;
	struct ro_cq cq;
	struct ro_qp qp;
	struct wren_modify_qp_in m;
	struct ro_qp_opts o = { .type = WREN_QPT_UC };
	int bad_qkey, bad_rd, bad_rnr, ok_init;

	ro_pair_init(&p);
	ro_cq_create(&p.n[0], &cq, 6, 0);
	o.scq = o.rcq = cq.cqn;
	ro_qp_create(&p.n[0], &qp, &o);
	memset(&m, 0, sizeof(m));
	m.qpn = qp.qpn;
	m.new_state = WREN_QPS_INIT;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_ACCESS_FLAGS |
		      WREN_QP_ATTR_QKEY;
	bad_qkey = ro_modify(&p.n[0], &m);
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_ACCESS_FLAGS;
	ok_init = ro_modify(&p.n[0], &m);
	m.new_state = WREN_QPS_RTR;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_AV |
		      WREN_QP_ATTR_PATH_MTU | WREN_QP_ATTR_DEST_QPN |
		      WREN_QP_ATTR_RQ_PSN | WREN_QP_ATTR_MAX_DEST_RD_ATOMIC;
	m.path_mtu = WREN_MTU_1024_;
	m.av.gid_index = 0;
	m.av.flags = WREN_AV_F_IPV4;
	memcpy(m.av.dgid, p.n[1].gid4, 16);
	bad_rd = ro_modify(&p.n[0], &m);
	m.attr_mask &= ~WREN_QP_ATTR_MAX_DEST_RD_ATOMIC;
	m.attr_mask |= WREN_QP_ATTR_MIN_RNR_TIMER;
	bad_rnr = ro_modify(&p.n[0], &m);
	tap_ok(bad_qkey == WREN_AQ_STATUS_BAD_PARAM && !ok_init &&
	       bad_rd == WREN_AQ_STATUS_BAD_PARAM &&
	       bad_rnr == WREN_AQ_STATUS_BAD_PARAM,
	       "UC modify: a Q_Key, responder resources or an RNR timer "
	       "-> BAD_PARAM (%d %d %d), access flags taken", bad_qkey,
	       bad_rd, bad_rnr);
	ro_pair_fini(&p);
}

static void refused_opcodes(void)
{
	static const uint8_t ops[] = { WREN_WQE_RDMA_READ,
				       WREN_WQE_ATOMIC_FETCH_ADD,
				       WREN_WQE_SEND_INV };
	unsigned int good = 0;

	for (unsigned int i = 0; i < sizeof(ops); i++) {
		struct rc_env e;
		struct uc_watch w;
		struct wren_cqe c;
		uint32_t len = ops[i] == WREN_WQE_ATOMIC_FETCH_ADD ? 8 : 64;

		uc_init(&e, &w);
		post(&e, ops[i], 0, len, e.mr[1].key);
		ro_settle(&e.p, 100000000ull);
		if (rc_one_cqe(&e.cq[0], &c) &&
		    c.status == WREN_CQE_LOC_QP_OP_ERR &&
		    c.vendor_err == WREN_VERR_SQ_OPCODE && !w.frames[0] &&
		    ro_qp_state(&e.p.n[0], e.qp[0].qpn) == WREN_QPS_ERR)
			good++;
		else
			tap_diag("opcode %u: status %u vendor %u, %u frames",
				 ops[i], c.status, c.vendor_err, w.frames[0]);
		rc_env_fini(&e);
	}
	tap_ok(good == sizeof(ops),
	       "UC: READ, atomic and SEND with invalidate fail as a bad "
	       "opcode, nothing sent");
}

static void lost_packet(void)
{
	struct rc_env e;
	struct uc_watch w;
	struct wren_cqe c[2], r[2];
	uint8_t *s1, *s2;
	unsigned int ns, nr;

	uc_init(&e, &w);
	s1 = rc_pattern(&e, 0, 0, 3000, 5);
	s2 = rc_pattern(&e, 0, 100000, 2500, 6);
	rc_post_recv(&e, 1, 0, 4096);
	e.p.drop_opcode = WHW_OP_CLASS_UC | WHW_OP_SEND_MIDDLE;
	e.p.drop_opcode_n = 1;
	post(&e, WREN_WQE_SEND, 0, 3000, 0);
	post(&e, WREN_WQE_SEND, 100000, 2500, 0);
	ro_settle(&e.p, 1000000000ull);
	ns = ro_cq_drain(&e.cq[0], c, 2);
	nr = ro_cq_drain(&e.cq[1], r, 2);
	tap_ok(ns == 2 && !c[0].status && !c[1].status && nr == 1 &&
	       !r[0].status && r[0].byte_len == 2500 && !r[0].wqe_idx &&
	       rc_same(&e, 1, 0, s2, 2500) &&
	       ro_counter(&e.p.n[1], WREN_RDMA_CNT_OUT_OF_SEQUENCE) == 1 &&
	       ro_qp_state(&e.p.n[1], e.qp[1].qpn) == WREN_QPS_RTS,
	       "UC: a SEND's middle packet lost: that message dropped, the "
	       "next lands in the same receive WQE (sends %u, receives %u, "
	       "%llu out of sequence)", ns, nr,
	       (unsigned long long)ro_counter(&e.p.n[1],
					      WREN_RDMA_CNT_OUT_OF_SEQUENCE));
	free(s1);
	free(s2);
	rc_env_fini(&e);
}

static void quiet_drops(void)
{
	struct rc_env e;
	struct uc_watch w;
	struct wren_cqe c[4], r;
	uint8_t *s, *before, *after;
	unsigned int ns;
	uint64_t disc, acc;

	uc_init(&e, &w);
	s = rc_pattern(&e, 0, 0, 2000, 7);
	before = malloc(2000);
	after = malloc(2000);
	ro_mr_read(&e.mr[1], e.mr[1].iova + 500000, before, 2000);
	disc = ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ROCE_DISCARDS);
	post(&e, WREN_WQE_SEND, 0, 2000, 0);			/* no receive */
	post(&e, WREN_WQE_RDMA_WRITE, 500000, 2000, e.mr[1].key ^ 0x80);
	ro_settle(&e.p, 1000000000ull);
	ns = ro_cq_drain(&e.cq[0], c, 4);
	ro_mr_read(&e.mr[1], e.mr[1].iova + 500000, after, 2000);
	acc = ro_counter(&e.p.n[1], WREN_RDMA_CNT_RESP_REMOTE_ACCESS_ERRORS);
	tap_ok(ns == 2 && !c[0].status && !c[1].status &&
	       !ro_cq_drain(&e.cq[1], NULL, 0) &&
	       ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ROCE_DISCARDS) > disc &&
	       acc == 1 && !memcmp(before, after, 2000) && !w.frames[1] &&
	       ro_qp_state(&e.p.n[1], e.qp[1].qpn) == WREN_QPS_RTS,
	       "UC: a SEND with no receive posted and a WRITE with a wrong "
	       "rkey dropped quietly: both sends succeed, nothing written, "
	       "counted, the QP stays RTS");
	rc_post_recv(&e, 1, 0, 2000);
	post(&e, WREN_WQE_SEND, 0, 2000, 0);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[1], &r) && !r.status && r.byte_len == 2000 &&
	       rc_same(&e, 1, 0, s, 2000),
	       "UC: the next SEND after them is received");
	free(s);
	free(before);
	free(after);
	rc_env_fini(&e);
}

static void small_receive(void)
{
	struct rc_env e;
	struct uc_watch w;
	struct wren_cqe r;

	uc_init(&e, &w);
	rc_post_recv(&e, 1, 0, 1000);
	post(&e, WREN_WQE_SEND, 0, 3000, 0);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[1], &r) && r.status == WREN_CQE_LOC_LEN_ERR &&
	       ro_qp_state(&e.p.n[1], e.qp[1].qpn) == WREN_QPS_ERR &&
	       ro_qp_state(&e.p.n[0], e.qp[0].qpn) == WREN_QPS_RTS,
	       "UC: a SEND longer than its receive: LOC_LEN_ERR, the "
	       "receiver's QP in ERR, the sender's still RTS");
	rc_env_fini(&e);
}

/* UC packets to an RC QP (and back) are dropped, not taken. */
static void classes_apart(void)
{
	struct ro_pair p;
	struct ro_cq cq[2];
	struct ro_qp qp[2];
	struct ro_mr mr;
	struct wren_wqe_sge sge;
	struct ro_wqe w = { .opcode = WREN_WQE_SEND,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	uint64_t disc;

	ro_pair_init(&p);
	for (int i = 0; i < 2; i++) {
		struct ro_qp_opts o = { .type = i ? WREN_QPT_RC : WREN_QPT_UC };

		ro_cq_create(&p.n[i], &cq[i], 6, 0);
		o.scq = o.rcq = cq[i].cqn;
		ro_qp_create(&p.n[i], &qp[i], &o);
	}
	ro_mr_reg(&p.n[1], &mr, p.n[1].pd, 0x10000, 65536, UC_ACCESS, 12,
		  false);
	ro_connect(&p, 0, &qp[0], &qp[1], &uc_conn);
	ro_connect(&p, 1, &qp[1], &qp[0], &uc_conn);
	sge.addr = mr.iova;
	sge.length = 4096;
	sge.lkey = mr.key;
	ro_post_recv(&qp[1], &sge, 1);
	sge.length = 0;
	w.nsge = 0;
	disc = ro_counter(&p.n[1], WREN_RDMA_CNT_RX_ROCE_DISCARDS);
	ro_post_send(&qp[0], &w);
	ro_settle(&p, 1000000000ull);
	tap_ok(ro_cq_drain(&cq[0], NULL, 0) == 1 &&
	       !ro_cq_drain(&cq[1], NULL, 0) &&
	       ro_counter(&p.n[1], WREN_RDMA_CNT_RX_ROCE_DISCARDS) == disc + 1,
	       "UC SEND to an RC QP: discarded, no receive completes");
	ro_mr_free(&mr);
	ro_pair_fini(&p);
}

static void without_cap(void)
{
	struct rc_env e;
	struct uc_watch w;

	uc_init(&e, &w);
	for (int i = 0; i < 2; i++)
		whw_test_set_caps(e.p.n[i].d->h->hw,
				  WHW_CAPS & ~(uint64_t)WREN_CAP_RDMA_UC);
	post(&e, WREN_WQE_SEND, 0, 100, 0);
	ro_settle(&e.p, 100000000ull);
	tap_ok(e.ok && !w.frames[0] && !ro_cq_drain(&e.cq[0], NULL, 0),
	       "UC without WREN_CAP_RDMA_UC: the QP exists, its WQEs are "
	       "never read");
	rc_env_fini(&e);
}

void test_roce_uc(void)
{
	data_path();
	attributes();
	refused_opcodes();
	lost_packet();
	quiet_drops();
	small_receive();
	classes_apart();
	without_cap();
}
