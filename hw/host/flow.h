/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * RC flows between NICs of the host stub, the unit of a datacenter
 * simulation: a flow moves N bytes from one node to another with RDMA
 * WRITE or SEND on one priority, over a QP pair of its own, and ends when
 * the sender's last WQE completes (a SEND flow also waits for the
 * receiver's completion).  Its data buffers are stateless host memory
 * (th_mem_stateless()), so a flow costs its rings, not its bytes.
 *
 * The embedder (the host tests' two-node harness, the ns-3 device) runs
 * the models and calls ro_flow_poll() on a node after each call into its
 * model; the flow layer only posts WQEs, rings doorbells and reads CQEs.
 */
#ifndef WRENHOST_FLOW_H
#define WRENHOST_FLOW_H

#include "rdma.h"

/* One WQE moves at most this; a longer flow posts several. */
#define RO_FLOW_MAX_WQE		(1u << 30)
/* The stateless data buffer of a node: 1 GiB, 2 MiB pages. */
#define RO_FLOW_BUF_BYTES	(1ull << 30)
#define RO_FLOW_BUF_SHIFT	21

enum ro_flow_op {
	RO_FLOW_WRITE,
	RO_FLOW_SEND,
};

struct ro_flow;

struct ro_flow_slot {
	uint32_t qpn;		/* +1: 0 marks a free slot */
	struct ro_flow *f;	/* NULL in a used slot: deleted */
};

/* A node's flow state: a CQ for all its flows, the data MR. */
struct ro_flow_host {
	struct ro_node *n;
	struct ro_cq cq;
	struct ro_mr mr;
	struct ro_conn conn;	/* MTU, timeouts and retries of its QPs */
	/*
	 * The flow of each local QP, by QP number: open addressing, as QP
	 * numbers carry a generation and grow without bound.
	 */
	struct ro_flow_slot *by_qpn;
	uint32_t slots, used;	/* used: live and deleted slots */
	unsigned int active;
	/*
	 * Ring memory of ended flows' QPs, for the next ones: the driver's
	 * heap never frees, and a simulation starts millions of flows.
	 */
	uint64_t *free_buf;
	uint32_t nfree, free_cap;
	/*
	 * A flow that ends keeps its QPs until ro_flow_release(): an
	 * embedder that runs the two ends in different processes frees
	 * them at a time both know, not at the sender's completion.
	 */
	bool defer_release;
};

struct ro_flow {
	struct ro_flow_host *src, *dst;
	enum ro_flow_op op;
	uint8_t prio;
	uint64_t bytes;
	struct ro_qp sqp, dqp;
	uint64_t posted;	/* bytes in posted WQEs */
	uint32_t wqes, done_wqes;
	uint32_t recvs;		/* SEND: receives completed */
	bool done;
	int status;		/* 0, or the first bad CQE's status */
	uint64_t start_ns, end_ns;
	/* The embedder's: told when the flow ends (it may free it then). */
	void (*done_cb)(struct ro_flow *f);
	void *ctx;
};

/*
 * Sets @n up for flows: a CQ of 2^@cq_log entries, a stateless data
 * buffer and its MR; @conn gives the QPs' path MTU, timeouts and retries.
 * Returns 0 or -1.
 */
int ro_flow_host_init(struct ro_flow_host *fh, struct ro_node *n,
		      uint32_t cq_log, const struct ro_conn *conn);
void ro_flow_host_fini(struct ro_flow_host *fh);

/*
 * Starts a flow of @bytes (> 0) from @src to @dst on priority @prio (the
 * path's 802.1p priority and DSCP 8 x @prio): QPs made and connected,
 * the first WQEs posted and rung.  Returns 0 or -1 (no resources).
 */
int ro_flow_start(struct ro_flow *f, struct ro_flow_host *src,
		  struct ro_flow_host *dst, enum ro_flow_op op,
		  uint64_t bytes, uint8_t prio);

/*
 * Reads @fh's completions at its node's time: posts what its flows have
 * room for, marks the flows that ended (their end_ns set, their QPs
 * destroyed).  Returns how many ended in this call.
 */
unsigned int ro_flow_poll(struct ro_flow_host *fh);

/*
 * The QPs of @f, ended or not, destroyed on both nodes and their rings
 * kept for the next flows; for hosts with defer_release set.
 */
void ro_flow_release(struct ro_flow *f);

#endif
