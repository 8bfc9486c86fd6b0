/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libwren: the rdma-core provider for the Wren RoCEv2 NIC.
 *
 * The kernel (wren_ib.ko) creates every object through the admin queue; the
 * provider owns the memory of the work and completion queues (pinned by the
 * kernel, which hands the NIC their bus addresses) and the context's
 * doorbell page (mmapped), so posting work and polling completions never
 * enter the kernel.
 */
#ifndef WREN_H
#define WREN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <infiniband/driver.h>
#include <util/mmio.h>
#include <util/udma_barrier.h>
#include <util/util.h>

#include "wren_wqe.h"

struct wren_device {
	struct verbs_device ibv_dev;
	size_t page_size;
};

struct wren_qp;
struct wren_srq;

/*
 * A 24-bit number -> object map for CQ polling (QPN -> QP, SRQN -> XRC
 * SRQ): two levels of 4096 so lookups never lock (qp_table.c).
 */
#define WREN_TABLE_SHIFT	12
#define WREN_TABLE_SIZE		(1 << WREN_TABLE_SHIFT)
#define WREN_TABLE_MASK		(WREN_TABLE_SIZE - 1)

struct wren_table {
	pthread_mutex_t mutex;		/* held to change it, not to look */
	struct {
		void **table;
		int refcnt;
	} dir[WREN_TABLE_SIZE];
};

struct wren_context {
	struct verbs_context ibv_ctx;
	void *db_page;			/* this context's doorbell page (UAR) */
	size_t db_length;
	const volatile uint8_t *clock_page;	/* BAR0's clock page, or NULL */
	size_t clock_length;
	size_t page_size;
	/* Limits from alloc_ucontext, checked before the kernel sees them. */
	uint64_t caps;			/* WREN_CAP_* */
	uint32_t max_qp_wr;
	uint32_t max_srq_wr;
	uint32_t max_cqe;
	uint32_t max_inline;
	uint32_t max_sge;
	uint32_t max_sge_rd;
	uint8_t max_sq_wqe_shift;
	uint8_t max_rq_wqe_shift;
	uint8_t max_wq_log_size;
	uint8_t max_cq_log_size;
	struct wren_table qp_table;	/* QPs with rings, by QPN */
	struct wren_table srq_table;	/* XRC SRQs, by SRQN */
};

/* A thread domain: its QPs are posted to by one thread at a time. */
struct wren_td {
	struct ibv_td ibv_td;
	atomic_int refcount;		/* parent domains on it, +1 */
};

/*
 * A PD, or a parent domain (@protection set): the PD it stands for, an
 * optional thread domain and the application's ring allocator (pd.c).
 */
struct wren_pd {
	struct ibv_pd ibv_pd;
	struct wren_pd *protection;
	struct wren_td *td;
	void *(*alloc)(struct ibv_pd *pd, void *pd_context, size_t size,
		       size_t alignment, uint64_t resource_type);
	void (*free)(struct ibv_pd *pd, void *pd_context, void *ptr,
		     uint64_t resource_type);
	void *pd_context;
	atomic_int refcount;		/* parent domains or queues on it, +1 */
};

/* What a parent domain's allocator is asked memory for (resource_type). */
enum wren_res_type {
	WREN_RES_TYPE_QP = 1,		/* a QP's rings and doorbell record */
	WREN_RES_TYPE_SRQ = 2,		/* an SRQ's ring and doorbell record */
	WREN_RES_TYPE_CQ = 3,		/* a CQ's ring and doorbell record */
};

/*
 * Memory a queue lives in: page-aligned; kept out of fork()ed children
 * unless the application allocated it (@pd: the parent domain whose
 * allocator did, which frees it).
 */
struct wren_buf {
	void *addr;
	size_t length;
	struct wren_pd *pd;
	uint64_t res_type;
};

struct wren_cq {
	struct verbs_cq verbs_cq;
	pthread_spinlock_t lock;
	struct wren_buf buf;
	uint8_t *ring;
	struct wren_cq_dbrec *dbrec;	/* in buf, after the ring */
	unsigned int log_size;
	unsigned int stride;		/* wren_cqe_stride(): 32, 64 with timestamps */
	uint32_t ci;			/* consumer index, free-running */
	uint32_t cqn;
	struct wren_pd *parent;		/* the parent domain it was made in */
	bool single_threaded;
	/* ibv_cq_ex polling state: the entry being read, and its timestamp. */
	struct wren_cqe cur;
	uint64_t cur_ts;
};

/* A work queue ring with its wr_id bookkeeping. */
struct wren_wq {
	uint8_t *ring;
	uint64_t *wrid;
	uint32_t entries;		/* power of two */
	unsigned int log_size;
	unsigned int wqe_shift;
	uint32_t max_sge;
	uint32_t pi;			/* producer index, free-running */
	uint32_t tail;			/* oldest WQE not yet completed */
	pthread_spinlock_t lock;
	bool lockless;			/* a thread domain's QP: no lock */
};

/*
 * The NIC takes SRQ WQEs in ring order, but they complete in any order
 * across QPs, and a slot is rewritten only after its completion.  A WQE
 * posted while the slot at the producer index is still busy waits,
 * already formatted, at the same position in the backlog (a host-memory
 * copy of the ring) and moves in when that slot completes.
 */
struct wren_srq {
	struct verbs_srq verbs_srq;
	struct wren_buf buf;
	struct wren_wq wq;		/* wq.pi: WQEs handed to the NIC */
	struct wren_wq backlog;		/* ring and wrid only */
	uint32_t spi;			/* WQEs posted, backlog included */
	uint32_t outstanding;		/* posted, not completed */
	uint8_t *busy;			/* per slot: in the ring, not completed */
	struct wren_srq_dbrec *dbrec;
	struct wren_pd *parent;		/* the parent domain it was made in */
	struct wren_cq *xrc_cq;		/* an XRC SRQ's CQ; NULL: basic */
	uint32_t srqn;
};

struct wren_qp {
	struct verbs_qp verbs_qp;
	struct wren_buf buf;
	struct wren_wq sq;
	struct wren_wq rq;
	struct wren_qp_dbrec *dbrec;
	struct wren_srq *srq;
	struct wren_pd *parent;		/* the parent domain it was made in */
	uint32_t qpn;
	uint32_t max_inline;
	bool sq_sig_all;
	bool ud;
	bool uc;			/* UC: no READ, atomics or SEND_INV */
	bool xrc_send;			/* XRC initiator: WQEs name an SRQ */
	bool xrc_recv;			/* XRC target: a handle, no rings */
	/* ibv_qp_ex: the WQE being built and the session's first error. */
	struct wren_wqe_ctrl *cur_ctrl;
	uint8_t *cur_ds;		/* first data segment of cur */
	uint32_t session_pi;		/* pi at wr_start, for wr_abort */
	int session_err;
};

struct wren_ah {
	struct ibv_ah ibv_ah;
	uint32_t handle;		/* the NIC's AH, for UD WQEs */
};

static inline struct wren_device *to_wren_dev(struct ibv_device *d)
{
	return container_of(d, struct wren_device, ibv_dev.device);
}

static inline struct wren_context *to_wren_ctx(struct ibv_context *c)
{
	return container_of(c, struct wren_context, ibv_ctx.context);
}

static inline struct wren_pd *to_wren_pd(struct ibv_pd *p)
{
	return container_of(p, struct wren_pd, ibv_pd);
}

static inline struct wren_td *to_wren_td(struct ibv_td *t)
{
	return container_of(t, struct wren_td, ibv_td);
}

static inline struct wren_cq *to_wren_cq(struct ibv_cq *c)
{
	return container_of(c, struct wren_cq, verbs_cq.cq);
}

static inline struct wren_cq *to_wren_cq_ex(struct ibv_cq_ex *c)
{
	return container_of(c, struct wren_cq, verbs_cq.cq_ex);
}

static inline struct wren_qp *to_wren_qp(struct ibv_qp *q)
{
	return container_of(q, struct wren_qp, verbs_qp.qp);
}

static inline struct wren_qp *to_wren_qp_ex(struct ibv_qp_ex *q)
{
	return container_of(q, struct wren_qp, verbs_qp.qp_ex);
}

static inline struct wren_srq *to_wren_srq(struct ibv_srq *s)
{
	return container_of(s, struct wren_srq, verbs_srq.srq);
}

static inline struct wren_ah *to_wren_ah(struct ibv_ah *a)
{
	return container_of(a, struct wren_ah, ibv_ah);
}

static inline void wren_wq_lock(struct wren_wq *wq)
{
	if (!wq->lockless)
		pthread_spin_lock(&wq->lock);
}

static inline void wren_wq_unlock(struct wren_wq *wq)
{
	if (!wq->lockless)
		pthread_spin_unlock(&wq->lock);
}

static inline void *wren_wq_slot(struct wren_wq *wq, uint32_t idx)
{
	return wq->ring + ((size_t)(idx & (wq->entries - 1)) << wq->wqe_shift);
}

/* Doorbells: 64-bit writes to this context's page (wren_regs.h). */
static inline void wren_ring_db(struct wren_context *ctx, unsigned int offset,
				uint64_t val)
{
	/*
	 * The page may be mapped write-combining: the caller's
	 * udma_to_device_barrier() orders its WQE writes before this store,
	 * and the flush pushes the store out now instead of when the WC
	 * buffer happens to drain.
	 */
	mmio_write64_le((uint8_t *)ctx->db_page + offset, htole64(val));
	mmio_flush_writes();
}

/* qp_table.c: used by CQ polling to find a CQE's QP, or its XRC SRQ. */
void wren_table_init(struct wren_table *t);
void wren_table_fini(struct wren_table *t);
struct wren_qp *wren_find_qp(struct wren_context *ctx, uint32_t qpn);
int wren_store_qp(struct wren_context *ctx, struct wren_qp *qp);
void wren_clear_qp(struct wren_context *ctx, uint32_t qpn);
struct wren_srq *wren_find_srq(struct wren_context *ctx, uint32_t srqn);
int wren_store_srq(struct wren_context *ctx, struct wren_srq *srq);
void wren_clear_srq(struct wren_context *ctx, uint32_t srqn);

/* buf.c: queue memory, from @pd's allocator when it has one. */
int wren_buf_alloc(struct wren_buf *buf, size_t length, size_t page_size,
		   struct wren_pd *pd, enum wren_res_type type);
void wren_buf_free(struct wren_buf *buf);

/* pd.c */
struct ibv_pd *wren_alloc_pd(struct ibv_context *context);
int wren_dealloc_pd(struct ibv_pd *pd);
struct ibv_pd *wren_import_pd(struct ibv_context *context, uint32_t pd_handle);
void wren_unimport_pd(struct ibv_pd *pd);
struct ibv_pd *wren_alloc_parent_domain(struct ibv_context *context,
					struct ibv_parent_domain_init_attr *attr);
struct ibv_td *wren_alloc_td(struct ibv_context *context,
			     struct ibv_td_init_attr *attr);
int wren_dealloc_td(struct ibv_td *td);
/* The parent domain @pd is, held for a queue made through it; NULL for a
 * plain PD.  wren_pd_release() takes NULL.
 */
struct wren_pd *wren_pd_hold(struct ibv_pd *pd);
void wren_pd_release(struct wren_pd *pd);

/* clock.c: the raw clock, from the clock page wren.c mapped (or not). */
int wren_query_rt_values(struct ibv_context *ibctx,
			 struct ibv_values_ex *values);

/* verbs.c */
int wren_query_device_ex(struct ibv_context *context,
			 const struct ibv_query_device_ex_input *input,
			 struct ibv_device_attr_ex *attr, size_t attr_size);
int wren_query_port(struct ibv_context *context, uint8_t port,
		    struct ibv_port_attr *attr);
struct ibv_mr *wren_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			   uint64_t hca_va, int access);
struct ibv_mr *wren_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				  size_t length, uint64_t iova, int fd,
				  int access);
int wren_rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
		  void *addr, size_t length, int access);
int wren_dereg_mr(struct verbs_mr *vmr);
struct ibv_mr *wren_import_mr(struct ibv_pd *pd, uint32_t mr_handle);
void wren_unimport_mr(struct ibv_mr *mr);
struct ibv_mw *wren_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type);
int wren_dealloc_mw(struct ibv_mw *mw);
struct ibv_ah *wren_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr);
int wren_destroy_ah(struct ibv_ah *ah);

/* srq.c */
struct ibv_srq *wren_create_srq(struct ibv_pd *pd,
				struct ibv_srq_init_attr *attr);
struct ibv_srq *wren_create_srq_ex(struct ibv_context *context,
				   struct ibv_srq_init_attr_ex *attr);
int wren_get_srq_num(struct ibv_srq *srq, uint32_t *srq_num);
int wren_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr,
		    int mask);
int wren_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr);
int wren_destroy_srq(struct ibv_srq *srq);

/* cq.c */
struct ibv_cq *wren_create_cq(struct ibv_context *context, int cqe,
			      struct ibv_comp_channel *channel, int vector);
struct ibv_cq_ex *wren_create_cq_ex(struct ibv_context *context,
				    struct ibv_cq_init_attr_ex *attr);
int wren_resize_cq(struct ibv_cq *cq, int cqe);
int wren_destroy_cq(struct ibv_cq *cq);
int wren_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc);
int wren_arm_cq(struct ibv_cq *cq, int solicited_only);
void wren_cq_clean(struct wren_cq *cq, uint32_t qpn, struct wren_srq *srq);
void wren_cq_clean_xrc_srq(struct wren_cq *cq, uint32_t srqn);

/* qp.c */
struct ibv_qp *wren_create_qp(struct ibv_pd *pd,
			      struct ibv_qp_init_attr *attr);
struct ibv_qp *wren_create_qp_ex(struct ibv_context *context,
				 struct ibv_qp_init_attr_ex *attr);
int wren_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask);
int wren_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		  struct ibv_qp_init_attr *init_attr);
int wren_destroy_qp(struct ibv_qp *qp);

/* xrc.c: XRC domains and XRC target QPs (handles without rings). */
struct ibv_xrcd *wren_open_xrcd(struct ibv_context *context,
				struct ibv_xrcd_init_attr *attr);
int wren_close_xrcd(struct ibv_xrcd *xrcd);
struct ibv_qp *wren_create_xrc_recv_qp(struct ibv_context *context,
				       struct ibv_qp_init_attr_ex *attr);
struct ibv_qp *wren_open_qp(struct ibv_context *context,
			    struct ibv_qp_open_attr *attr);

/* post.c */
int wren_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		   struct ibv_send_wr **bad_wr);
int wren_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		   struct ibv_recv_wr **bad_wr);
uint64_t wren_srq_complete(struct wren_srq *srq, uint16_t wqe_idx);
int wren_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
		       struct ibv_recv_wr **bad_wr);
int wren_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw,
		 struct ibv_mw_bind *mw_bind);
void wren_qp_fill_wr_ops(struct wren_qp *qp,
			 const struct ibv_qp_init_attr_ex *attr);

#endif /* WREN_H */
