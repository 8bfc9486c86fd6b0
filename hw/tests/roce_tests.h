/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A connected QP pair (RC unless asked otherwise) with a 1 MiB MR on each
 * side, shared by the RoCE tests.
 */
#ifndef WRENHW_TEST_ROCE_TESTS_H
#define WRENHW_TEST_ROCE_TESTS_H

#include "roce_util.h"

#define WREN_MTU_1024_	3

struct rc_env {
	struct ro_pair p;
	struct ro_cq cq[2];
	struct ro_qp qp[2];
	struct ro_mr mr[2];
	struct ro_conn conn;
	bool ok;
};

/* NULL: MTU 4096, timeout 14, retry 7, rnr_retry 7, rd_atomic 4. */
void rc_env_init(struct rc_env *e, const struct ro_conn *c);
/* As rc_env_init(), with 1 << @sq_log send WQEs a QP (0: the default). */
void rc_env_init_sq(struct rc_env *e, const struct ro_conn *c,
		    uint32_t sq_log);
/* As rc_env_init_sq(), with QPs of @type (WREN_QPT_RC or _UC). */
void rc_env_init_type(struct rc_env *e, const struct ro_conn *c,
		      uint32_t sq_log, uint8_t type);
void rc_env_fini(struct rc_env *e);
struct wren_wqe_sge rc_sge(struct rc_env *e, int side, uint64_t off,
			   uint32_t len);
void rc_post_recv(struct rc_env *e, int side, uint64_t off, uint32_t len);
uint8_t *rc_pattern(struct rc_env *e, int side, uint64_t off, uint32_t len,
		    uint32_t seed);
bool rc_same(struct rc_env *e, int side, uint64_t off, const uint8_t *want,
	     uint32_t len);
bool rc_one_cqe(struct ro_cq *cq, struct wren_cqe *c);

#endif
