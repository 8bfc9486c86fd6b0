/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Two Wren models back to back for the RoCE engine tests: a frame queue
 * between them (never delivered from inside tx_frame: the model must not
 * re-enter), loss and corruption on demand, and a tiny RDMA "driver" that
 * makes PDs, CQs, QPs and MRs through the admin queue as wren_ib.ko will,
 * posts WQEs, rings doorbells and polls CQEs.
 */
#ifndef WRENHW_TEST_ROCE_UTIL_H
#define WRENHW_TEST_ROCE_UTIL_H

#include "tests.h"

#define RO_MAX_QUEUE	16384
/*
 * The pair's link: fast enough that a whole 256 KiB window leaves within
 * the window tests' ACK timeout (test_roce_window.c).
 */
#define RO_LINK_MBPS	100000u

struct ro_cq {
	struct td *d;
	uint32_t cqn;
	uint64_t ring, dbrec;
	uint32_t log, ci;
};

struct ro_qp {
	struct td *d;
	uint32_t qpn;
	uint8_t type;
	uint32_t uar;
	uint64_t buf, dbrec;
	uint32_t sq_log, sq_shift, rq_log, rq_shift, rq_off;
	uint32_t sq_pi, rq_pi;
	bool srq;
};

struct ro_srq {
	struct td *d;
	uint32_t srqn;
	uint64_t buf, dbrec;
	uint32_t log, shift, pi;
};

struct ro_mr {
	struct td *d;
	uint32_t idx, key;
	uint64_t iova, len;
	uint8_t shift;
	uint32_t npages;
	uint64_t *pages;
};

struct ro_node {
	struct td *d;
	uint32_t pd, eq, uar;
	uint8_t mac[6];
	uint8_t gid4[16], gid6[16];
};

struct ro_frame {
	int to;
	size_t len;
	uint8_t *data;
};

struct ro_pair;

struct ro_hook {
	struct ro_pair *p;
	int from;
};

struct ro_pair {
	struct ro_node n[2];
	struct ro_hook hk[2];
	struct ro_frame *q;
	unsigned int qhead, qlen;
	/* Loss and corruption: drop frame number k (counted from 1) ... */
	unsigned int sent;
	unsigned int drop_every;	/* drop 1 in n frames at random (0: none) */
	uint32_t rng;
	unsigned int drop_next;		/* drop the next n frames */
	unsigned int corrupt_next;	/* flip a payload byte of the next n */
	int only_from;			/* -1: both directions, else node */
	uint8_t drop_opcode;		/* with drop_opcode_n: BTH opcode */
	unsigned int drop_opcode_n;
	unsigned int delivered;
	/* A congested switch: the next ce_next ECN-capable frames from
	 * ce_from (-1: either side) are delivered marked CE. */
	unsigned int ce_next;
	int ce_from;
	unsigned int ce_marked;
	unsigned int hold;		/* keep frames queued (for inspection) */
	/* If set: sees every frame as sent (@delivered false), and as
	 * delivered (not lost) just before the receiver gets it. */
	void (*watch)(void *ctx, int from, bool delivered, const uint8_t *f,
		      size_t len);
	void *watch_ctx;
};

/* Two linked NICs with RDMA capabilities, MTU 9000, GIDs 0 (IPv4) and 1. */
void ro_pair_init(struct ro_pair *p);
void ro_pair_fini(struct ro_pair *p);
/* Delivers frames and runs both models until quiet (timers included,
 * up to @max_ns of simulated time). */
void ro_settle(struct ro_pair *p, uint64_t max_ns);
/* Both nodes' clocks @ns on, firing their timers; delivers nothing. */
void ro_advance(struct ro_pair *p, uint64_t ns);
/* One step in an order of the test's choosing: every queued frame
 * delivered (no loss, marks or watch), then one wrenhw_process() call of
 * @node if it asked for one (-1: no node's). */
void ro_step(struct ro_pair *p, int node);
/* BTH opcode of queued frame i (hold mode), or -1. */
int ro_queued_opcode(struct ro_pair *p, unsigned int i);

int64_t ro_cq_create(struct ro_node *n, struct ro_cq *cq, uint32_t log,
		     uint32_t uar);
bool ro_cq_poll(struct ro_cq *cq, struct wren_cqe *c);
unsigned int ro_cq_drain(struct ro_cq *cq, struct wren_cqe *out,
			 unsigned int max);

struct ro_qp_opts {
	uint8_t type;
	uint32_t uar;
	uint32_t scq, rcq;
	struct ro_srq *srq;
	uint32_t sq_log, rq_log;
	uint16_t max_inline;
	uint8_t flags;
};

int64_t ro_qp_create(struct ro_node *n, struct ro_qp *qp,
		     const struct ro_qp_opts *o);
int ro_modify(struct ro_node *n, struct wren_modify_qp_in *m);

struct ro_conn {
	uint8_t mtu;		/* WREN_MTU_* */
	uint8_t timeout, retry, rnr_retry, min_rnr;
	uint8_t rd_atomic;	/* both directions */
	uint16_t access;
	bool ipv6;
};

/* RC, UC: RESET -> INIT -> RTR -> RTS against the peer QP. */
int ro_connect(struct ro_pair *p, int side, struct ro_qp *qp,
	       struct ro_qp *peer, const struct ro_conn *c);
/* The same against any node (e.g. itself: loopback) and QP number. */
int ro_connect_to(struct ro_node *n, struct ro_qp *qp,
		  const struct ro_node *peer, uint32_t dest_qpn,
		  uint32_t sq_psn, uint32_t rq_psn, const struct ro_conn *c);
/* The address vector of a QP on @peer (GID 1 if @ipv6, else 0). */
void ro_fill_av(const struct ro_node *peer, struct wren_av *av, bool ipv6);
/* UD/GSI: RESET -> INIT -> RTR -> RTS with @qkey. */
int ro_ud_ready(struct ro_node *n, struct ro_qp *qp, uint32_t qkey);
int64_t ro_ah_create(struct ro_pair *p, int side, bool ipv6);

int64_t ro_mr_reg(struct ro_node *n, struct ro_mr *mr, uint32_t pd,
		  uint64_t iova, uint64_t len, uint32_t access, uint8_t shift,
		  bool scatter);
void ro_mr_free(struct ro_mr *mr);
void ro_mr_write(struct ro_mr *mr, uint64_t addr, const void *b, size_t len);
void ro_mr_read(struct ro_mr *mr, uint64_t addr, void *b, size_t len);
/* An SGE of [off, off + len) of @mr's iova range. */
struct wren_wqe_sge ro_mr_sge(const struct ro_mr *mr, uint64_t off,
			      uint32_t len);
/* Fills [off, off + len) of @mr with pattern @seed; returns a copy. */
uint8_t *ro_mr_pattern(struct ro_mr *mr, uint64_t off, uint32_t len,
		       uint32_t seed);
/* Whether [off, off + len) of @mr holds @want. */
bool ro_mr_same(struct ro_mr *mr, uint64_t off, const uint8_t *want,
		uint32_t len);

/* A send WQE: fills a stride-sized buffer; returns its bytes. */
struct ro_wqe {
	uint8_t opcode, flags;
	uint32_t imm;		/* SEND_IMM/WRITE_IMM (wire order), INV key */
	uint64_t raddr;
	uint32_t rkey;
	uint64_t swap, cmp;
	uint32_t ah, dqpn, qkey;
	unsigned int nsge;
	struct wren_wqe_sge sge[32];
	struct wren_wqe_reg_mr reg;	/* REG_MR */
	struct wren_wqe_bind_mw bind;	/* BIND_MW */
	struct wren_wqe_flush flush;	/* FLUSH */
	uint8_t aw[8];			/* ATOMIC_WRITE's data */
	uint32_t xrc_srqn;		/* XRC initiators: the remote SRQ */
	const void *inl;
	uint32_t inl_len;
	uint8_t ds_override;	/* non-zero: ds_count as given */
};

void ro_post_send(struct ro_qp *qp, const struct ro_wqe *w);
/* Writes the WQE at the next slot without ringing. */
void ro_write_send(struct ro_qp *qp, const struct ro_wqe *w);
void ro_ring(struct ro_qp *qp);
void ro_post_recv(struct ro_qp *qp, const struct wren_wqe_sge *sge,
		  unsigned int n);
int64_t ro_srq_create(struct ro_node *n, struct ro_srq *s, uint32_t log,
		      uint32_t limit);
void ro_srq_post(struct ro_srq *s, const struct wren_wqe_sge *sge,
		 unsigned int n);

uint64_t ro_counter(struct ro_node *n, unsigned int which);
uint8_t ro_qp_state(struct ro_node *n, uint32_t qpn);
/*
 * A RoCEv2 frame over IPv4 whose IP packet (IP header to ICRC) is @l3
 * bytes: the Ethernet, IP and UDP headers written, the rest zeroed.
 * Returns the BTH, which the caller fills, and the ICRC.
 */
uint8_t *ro_frame_v4(uint8_t *f, uint32_t l3, const uint8_t *dmac,
		     const uint8_t *smac, const uint8_t *sip,
		     const uint8_t *dip, uint16_t sport);
/* Pattern helpers. */
void ro_fill(uint8_t *b, size_t n, uint32_t seed);

#endif
