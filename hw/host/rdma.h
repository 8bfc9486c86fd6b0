/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * RDMA objects on a Wren NIC, made through the admin queue (drv.h) and
 * used through host memory and doorbells as wren_ib.ko and libwren do:
 * CQs, QPs, SRQs, MRs, send and receive WQEs, CQEs.  The host tests, the
 * fuzzers, the engine benchmark and the simulation share it.
 */
#ifndef WRENHOST_RDMA_H
#define WRENHOST_RDMA_H

#include "drv.h"

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

/* A NIC as the driver set it up: one PD, one EQ, GIDs 0 (IPv4), 1 (IPv6). */
struct ro_node {
	struct td *d;
	uint32_t pd, eq, uar;
	uint8_t mac[6];
	uint8_t gid4[16], gid6[16];
	uint32_t synd;		/* the last failed MODIFY_QP's syndrome */
};

/*
 * Creates a NIC (td_new(@cfg)) with MTU 9000, a PD, an EQ on vector 1
 * and the two RoCE v2 GIDs; AEQ events of the setup are consumed.
 * Returns 0, or -1 with @n's NIC freed or never made.
 */
int ro_node_init(struct ro_node *n, const struct wrenhw_config *cfg,
		 const uint8_t *gid4, const uint8_t *gid6);
void ro_node_fini(struct ro_node *n);

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
	/* Host memory for the rings and the doorbell record (0: allocate). */
	uint64_t buf, dbrec;
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
	uint8_t sl, tclass;	/* the path's priority and DSCP << 2 */
};

/* The same against any node (e.g. itself: loopback) and QP number. */
int ro_connect_to(struct ro_node *n, struct ro_qp *qp,
		  const struct ro_node *peer, uint32_t dest_qpn,
		  uint32_t sq_psn, uint32_t rq_psn, const struct ro_conn *c);
/* The address vector of a QP on @peer (GID 1 if @ipv6, else 0). */
void ro_fill_av(const struct ro_node *peer, struct wren_av *av, bool ipv6);
/* UD/GSI: RESET -> INIT -> RTR -> RTS with @qkey. */
int ro_ud_ready(struct ro_node *n, struct ro_qp *qp, uint32_t qkey);

int64_t ro_mr_reg(struct ro_node *n, struct ro_mr *mr, uint32_t pd,
		  uint64_t iova, uint64_t len, uint32_t access, uint8_t shift,
		  bool scatter);
void ro_mr_free(struct ro_mr *mr);
void ro_mr_write(struct ro_mr *mr, uint64_t addr, const void *b, size_t len);
void ro_mr_read(struct ro_mr *mr, uint64_t addr, void *b, size_t len);
/* An SGE of [off, off + len) of @mr's iova range. */
struct wren_wqe_sge ro_mr_sge(const struct ro_mr *mr, uint64_t off,
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

#endif
