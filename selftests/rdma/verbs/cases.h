/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The initiator's state and the helpers its case files share (ini.c),
 * for cases.c (integrity and protection), rereg.c (ibv_rereg_mr) and
 * mwcases.c (memory windows).
 */
#ifndef WVT_CASES_H
#define WVT_CASES_H

#include "wvt.h"

#define LSIZE	((1u << 20) + (64u << 10))
#define TLEN	((1u << 20) + (64u << 10))
#define SMALL	8192u
#define ALL_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
		    IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)
#define WAIT_MS	20000

/* Target slots; S_RR is the MR that rereg.c re-registers, S_MW the one
 * mwcases.c binds memory windows to, S_FL iba15.c's with the FLUSH right. */
enum { S_T, S_RO, S_WO, S_NA, S_PD1, S_DEREG, S_R, S_RR, S_MW, S_FL,
       S_NSLOTS };

struct rmr {
	uint64_t addr;
	uint32_t rkey, seed;
	size_t off, len;
};

struct ini {
	struct dev *d;
	struct ctl *p, *ch;
	union ibv_gid tgid, cgid;
	uint32_t mtu;
	uint8_t *lb[3];
	struct ibv_mr *lmr[3];	/* [2]: no LOCAL_WRITE */
	uint32_t lseed[3];
	struct conn rc, ud, crc, uc;
	bool rc_up, ud_up, crc_up, uc_up;
	bool uc_refused;	/* this device makes no UC QPs */
	struct rmr s[S_NSLOTS], child;
	int n, failed, sge;
	char tmem[16];		/* where the target's MRs live (its --mem) */
	char why[512];
};

/* One TAP line; a failed case prints in->why under it. */
void tap(struct ini *in, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tap_skip(struct ini *in, const char *what, const char *reason);
/* Record why a case failed; returns false. */
bool fail(struct ini *in, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A command to a target that must answer OK (the answer in @reply). */
bool call(struct ini *in, struct ctl *c, char *reply, size_t n,
	  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Have the target register slot @slot; its address and rkey into @m. */
bool tmr(struct ini *in, struct ctl *c, int slot, struct rmr *m,
	 size_t len, size_t off, int access, int pd);
/* A fresh connected QP pair with the target's QP @id in its PD @pd. */
bool pair_pd(struct ini *in, struct ctl *c, struct conn *cn, int id,
	     enum ibv_qp_type t, const union ibv_gid *gid, int pd);
/* The same, our QP made with @send_ops (ibv_wr_*; 0: ibv_create_qp). */
bool pair_ops(struct ini *in, struct ctl *c, struct conn *cn, int id,
	      enum ibv_qp_type t, const union ibv_gid *gid, int pd,
	      uint64_t send_ops);
void pieces_fill(struct ini *in, const struct layout *l, uint32_t seed);
bool local_verify(struct ini *in, const struct layout *l, uint32_t seed,
		  uint64_t pos0);
void sges(struct ini *in, const struct layout *l, struct ibv_sge *sg, int lmr);
bool post_wait(struct ini *in, struct conn *cn, struct ibv_send_wr *wr,
	       enum ibv_wc_status want, enum ibv_wc_opcode wop);
/* The next send completion of @cn: @want, and @wop if a success. */
bool wait_send(struct ini *in, struct conn *cn, enum ibv_wc_status want,
	       enum ibv_wc_opcode wop);
/*
 * One RDMA WRITE or READ of @len bytes (a few pieces over up to two SGEs
 * of our buffer 0; a WRITE's filled from @seed) at the target's slot
 * @slot, offset @roff, under @rkey over @cn, completing with @want; then
 * the target's memory (the data written, or unchanged) and ours.
 */
bool slot_xfer(struct ini *in, struct conn *cn, int slot, bool read,
	       uint32_t rkey, size_t roff, size_t len,
	       enum ibv_wc_status want, uint32_t seed);

/* rereg.c */
#define N_REREG	13
void rereg_cases(struct ini *in);

/* mwcases.c: memory windows the target binds, used from here */
#define N_MW	13
void mw_cases(struct ini *in);

/* iba15.c: IBA 1.5's FLUSH and ATOMIC WRITE */
#define N_IBA15	9
void iba15_cases(struct ini *in);

#endif
