/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* wren_ib.ko: state shared by the RDMA driver's files. */
#ifndef _WREN_IB_H
#define _WREN_IB_H

#include <linux/completion.h>
#include <linux/dmapool.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/refcount.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_umem.h>
#ifdef HAVE_RDMA_ITER_H
#include <rdma/iter.h>	/* split out of ib_verbs.h by some kernels */
#endif
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>
#include <rdma/uverbs_ioctl.h>
#include <linux/wren/wren_cmd.h>
#include <linux/wren/wren_core.h>

#ifndef HAVE_KZALLOC_OBJ
/* The typed allocator of newer kernels' <linux/slab.h>, for older ones. */
#define kzalloc_obj(P, GFP)	kzalloc(sizeof(P), (GFP))
#endif

/* Port numbers are 1-based in ib_core; the NIC has one port. */
#define WREN_IB_PORT		1

/* Page sizes a ring or MR may use: the contract's range. */
#define WREN_IB_PGSZ_RANGE	GENMASK_ULL(WREN_PAGE_SHIFT_MAX, WREN_PAGE_SHIFT_MIN)

struct wren_ib_dev {
	struct ib_device ibdev;
	struct wren_aux_dev *wadev;
	struct wren_core_dev *cdev;
	struct device *dmadev;		/* the PCI function */
	struct net_device *netdev;
	const struct wren_device_attr *attr;
	u64 caps;
	u64 pgsz_bitmap;		/* page_size_cap within the range */
	phys_addr_t db_bar;		/* BAR2 */
	phys_addr_t regs_bar;		/* BAR0: its clock page */
	u32 num_db_pages;
	void __iomem *kdb;		/* WREN_KERNEL_UAR, mapped by wren.ko */
	u32 reserved_lkey;		/* 0: the device has none */

	struct dma_pool *dbrec_pool;	/* kernel queues' doorbell records */

	/* Objects the device names in events: cqn, qpn, srqn -> object.
	 * Looked up from interrupt context (CQs) and the event work.
	 */
	struct xarray cqs;
	struct xarray qps;
	struct xarray srqs;
	/*
	 * The device may hand a number out again as soon as it destroyed
	 * its object, before the destroyer erased it from the table above:
	 * a create on another CPU then found it taken (xa_insert -EBUSY,
	 * seen as ibv_create_qp failing on a two-vCPU guest).  Destroys take
	 * this for write from the device's destroy to the erase, creates for
	 * read from the device's create to the insert.
	 */
	struct rw_semaphore num_reuse;

	struct workqueue_struct *event_wq;
	atomic_t fatal_reported;
	/* The device reported a fatal error: kernel queues flush (wren_ib_flush.c). */
	bool dead;
	/* Kernel consumers' QPs and PDs, not ib_core's GSI QP and its PD. */
	atomic_t ulp_objs;
	atomic_t key_tag;		/* MR key tags, so stale keys die */
};

static inline struct wren_ib_dev *to_wdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct wren_ib_dev, ibdev);
}

struct wren_ib_ucontext {
	struct ib_ucontext ibuctx;
	u32 uar;			/* the context's doorbell page */
	struct rdma_user_mmap_entry *db_entry;
	struct rdma_user_mmap_entry *clock_entry;	/* or NULL */
};

static inline struct wren_ib_ucontext *to_wuctx(struct ib_ucontext *u)
{
	return container_of(u, struct wren_ib_ucontext, ibuctx);
}

enum wren_ib_mmap_type {
	WREN_IB_MMAP_DB,		/* the context's doorbell page */
	WREN_IB_MMAP_CLOCK,		/* BAR0's clock page, read-only */
};

struct wren_ib_mmap_entry {
	struct rdma_user_mmap_entry rdma_entry;
	phys_addr_t address;
	enum wren_ib_mmap_type type;
};

struct wren_ib_pd {
	struct ib_pd ibpd;
	u32 pdn;
	bool ulp;			/* a kernel consumer's: in ulp_objs */
};

static inline struct wren_ib_pd *to_wpd(struct ib_pd *pd)
{
	return container_of(pd, struct wren_ib_pd, ibpd);
}

struct wren_ib_xrcd {
	struct ib_xrcd ibxrcd;
	u32 xrcdn;
};

static inline struct wren_ib_xrcd *to_wxrcd(struct ib_xrcd *xrcd)
{
	return container_of(xrcd, struct wren_ib_xrcd, ibxrcd);
}

/*
 * XRC (wren_ib_xrcd.c): the device's, and SRQs too, which its receives
 * land on; the driver offers neither half alone.
 */
static inline bool wren_ib_has_xrc(const struct wren_ib_dev *dev)
{
	return (dev->caps & WREN_CAP_RDMA_XRC) &&
	       (dev->caps & WREN_CAP_RDMA_SRQ);
}

/* A ring in the provider's memory, pinned, and its doorbell record. */
struct wren_ib_uring {
	struct ib_umem *umem;
	struct ib_umem *dbrec_umem;
	dma_addr_t dbrec_dma;
};

/* A ring of a kernel object in coherent memory, and its doorbell record. */
struct wren_ib_kring {
	void *buf;
	dma_addr_t dma;
	size_t ring_bytes;
	__le32 *dbrec;			/* the record's first word: rq_pi / ci */
	dma_addr_t dbrec_dma;
};

/* A kernel SQ or RQ: WQE slots and the wr_id of each. */
struct wren_ib_kwq {
	spinlock_t lock;		/* posters */
	void *base;			/* first WQE */
	u64 *wrid;
	u32 pi;				/* next WQE, free-running */
	u32 tail;			/* oldest outstanding (smp_*_acquire/release) */
	u32 mask;			/* entries - 1 */
	u32 max_sge;
	u8 wqe_shift;
};

/* Objects the event path can find; destroy waits until it let go. */
struct wren_ib_obj_ref {
	refcount_t refs;
	struct completion free;
};

struct wren_ib_cq {
	struct ib_cq ibcq;
	u32 cqn;
	u32 eq_index;
	u8 log_size;
	bool kernel;
	u8 stride;			/* wren_cqe_stride() of its flags */
	struct wren_ib_uring ring;	/* user CQs */
	/*
	 * User CQs: serialises resizes (uverbs runs them under a read lock);
	 * the ring a resize handed the device before its command timed out.
	 */
	struct mutex resize_lock;
	struct wren_ib_uring stale_ring;
	struct wren_ib_obj_ref ref;
	/* Kernel CQs: the ring, and the consumer index under the lock. */
	spinlock_t lock;
	u32 ci;
	struct wren_ib_kring kring;
	struct work_struct kick_work;	/* wren_ib_kick_cq() on a dead device */
};

static inline struct wren_ib_cq *to_wcq(struct ib_cq *cq)
{
	return container_of(cq, struct wren_ib_cq, ibcq);
}

struct wren_ib_srq {
	struct ib_srq ibsrq;
	u32 srqn;
	u32 max_wr;
	u32 max_sge;
	u8 log_size;
	u8 wqe_shift;
	bool kernel;
	struct wren_ib_uring ring;	/* user SRQs */
	/*
	 * User SRQs: serialises resizes (uverbs runs modify_srq under a read
	 * lock); the ring a resize handed the device before its command
	 * timed out.
	 */
	struct mutex resize_lock;
	struct wren_ib_uring stale_ring;
	struct wren_ib_obj_ref ref;
	/*
	 * Kernel SRQs: the ring, and per slot the wr_id and whether the
	 * device may still own it.  SRQ WQEs complete in any order across
	 * the QPs sharing them, so slots are freed one by one, by poll_cq.
	 * WQEs posted while the slot at pi is still busy wait, formatted, in
	 * the backlog (positions pi .. spi - 1, each at its own slot).
	 */
	struct wren_ib_kring kring;
	spinlock_t lock;		/* posters and pollers */
	u32 pi;				/* next WQE the device sees, free-running */
	u32 spi;			/* next WQE posted (pi + backlog) */
	u32 outstanding;		/* posted, not yet completed */
	u64 *wrid;
	unsigned long *busy;
	void *backlog;			/* a ring's worth of WQEs */
	u64 *backlog_wrid;
};

static inline struct wren_ib_srq *to_wsrq(struct ib_srq *srq)
{
	return container_of(srq, struct wren_ib_srq, ibsrq);
}

struct wren_ib_qp {
	struct ib_qp ibqp;
	u32 qpn;
	u8 sq_wqe_shift;
	u8 sq_log_size;
	u8 rq_wqe_shift;
	u8 rq_log_size;
	u8 state;			/* enum ib_qp_state, as last known */
	u8 sq_sig_all;
	bool kernel;
	bool ulp;			/* kernel, not the GSI QP: in ulp_objs */
	struct ib_qp_cap cap;
	struct mutex lock;		/* serialises modify and query */
	struct wren_ib_uring ring;	/* user QPs */
	struct wren_ib_obj_ref ref;
	/* Kernel QPs: SQ and RQ in one coherent buffer. */
	struct wren_ib_kring kring;
	struct wren_ib_kwq sq;
	struct wren_ib_kwq rq;
	u32 max_inline;
};

static inline struct wren_ib_qp *to_wqp(struct ib_qp *qp)
{
	return container_of(qp, struct wren_ib_qp, ibqp);
}

/* UD and GSI: each send names its AH; RC, UC and XRC are connected. */
static inline bool wren_ib_qp_datagram(const struct wren_ib_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_UD || qp->ibqp.qp_type == IB_QPT_GSI;
}

enum wren_ib_mr_kind {
	WREN_IB_MR_USER,		/* reg_user_mr: pinned umem */
	WREN_IB_MR_DMA,			/* get_dma_mr: the reserved lkey */
	WREN_IB_MR_FAST_REG,		/* alloc_mr: filled by IB_WR_REG_MR */
	WREN_IB_MR_DMABUF,		/* reg_user_mr_dmabuf: pinned dma-buf */
	WREN_IB_MR_PEER,		/* reg_user_mr of peer memory (wren_ib_peer.c) */
};

struct wren_ib_mr {
	struct ib_mr ibmr;
	struct ib_umem *umem;
	u32 index;
	u32 num_mtt;
	u8 page_shift;
	u8 kind;			/* enum wren_ib_mr_kind */
	/* A rereg with a new translation destroyed it on the device. */
	bool replaced;
	int access;			/* IB_ACCESS_* of user-reachable MRs */
	/* Fast registration: the page list map_mr_sg fills, REG_MR reads. */
	__le64 *pbl;
	dma_addr_t pbl_dma;
	u32 npages;
};

static inline struct wren_ib_mr *to_wmr(struct ib_mr *mr)
{
	return container_of(mr, struct wren_ib_mr, ibmr);
}

struct wren_ib_mw {
	struct ib_mw ibmw;
	u32 index;
};

static inline struct wren_ib_mw *to_wmw(struct ib_mw *mw)
{
	return container_of(mw, struct wren_ib_mw, ibmw);
}

struct wren_ib_ah {
	struct ib_ah ibah;
	u32 handle;
	struct wren_av av;
};

static inline struct wren_ib_ah *to_wah(struct ib_ah *ah)
{
	return container_of(ah, struct wren_ib_ah, ibah);
}

/*
 * udata: the driver-private part of every verb's request and response,
 * whose layouts wren_ib_abi_sizes() pins.  Every verb file uses these, so
 * they live here rather than in one of them.  (Admin commands go through
 * wren.ko's typed command layer, wren_cmd.h.)
 *
 * Copy a request of @len bytes (the ABI version 1 size, which is also the
 * minimum).  Shorter requests are refused; longer ones only if every byte
 * this driver does not know is zero.
 */
static inline int wren_ib_udata_in(struct ib_udata *udata, void *req,
				   size_t len)
{
	if (udata->inlen < len)
		return -EINVAL;
	if (udata->inlen > len &&
	    !ib_is_udata_cleared(udata, len, udata->inlen - len))
		return -EOPNOTSUPP;
	return ib_copy_from_udata(req, udata, len);
}

/* The response, cut to what the caller has room for, which must hold at
 * least the version 1 fields (@len).
 */
static inline int wren_ib_udata_out(struct ib_udata *udata, void *resp,
				    size_t len)
{
	if (udata->outlen < len)
		return -EINVAL;
	return ib_copy_to_udata(udata, resp, len);
}

/* A verb with no driver-private request: anything sent must be zero. */
static inline int wren_ib_udata_none(struct ib_udata *udata)
{
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EOPNOTSUPP;
	return 0;
}

/* wren_ib_kring.c */
int wren_ib_kring_alloc(struct wren_ib_dev *dev, struct wren_ib_kring *r,
			size_t ring_bytes);
void wren_ib_kring_free(struct wren_ib_dev *dev, struct wren_ib_kring *r);
int wren_ib_kring_desc(struct wren_ib_dev *dev, struct wren_ib_kring *r,
		       struct wren_buf_desc *desc, void **list,
		       dma_addr_t *list_dma, size_t *list_size);

/* wren_ib_umem.c */
/*
 * Pin user memory at a virtual address: ib_umem_get() of old, named
 * ib_umem_get_va() since umems may also come from a buffer descriptor.
 */
static inline struct ib_umem *wren_ib_umem_get(struct ib_device *ibdev,
					       unsigned long addr, size_t size,
					       int access)
{
#ifdef HAVE_IB_UMEM_GET_VA
	return ib_umem_get_va(ibdev, addr, size, access);
#else
	return ib_umem_get(ibdev, addr, size, access);
#endif
}

int wren_ib_uring_get(struct wren_ib_dev *dev, struct wren_ib_uring *r,
		      u64 addr, u64 bytes, u64 dbrec_addr);
void wren_ib_uring_put(struct wren_ib_uring *r);
int wren_ib_buf_desc(struct wren_ib_dev *dev, struct ib_umem *umem, u64 addr,
		     u64 bytes, struct wren_buf_desc *desc, void **list,
		     dma_addr_t *list_dma, size_t *list_size);
void wren_ib_buf_desc_free(struct wren_ib_dev *dev, void *list,
			   dma_addr_t list_dma, size_t list_size);

/* wren_ib_event.c: QPs and objects the event path looks up */
void wren_ib_obj_ref_init(struct wren_ib_obj_ref *ref);
int wren_ib_qp_publish(struct wren_ib_dev *dev, struct wren_ib_qp *qp);
void wren_ib_obj_put(struct wren_ib_obj_ref *ref);
void wren_ib_obj_wait(struct wren_ib_obj_ref *ref);

/* wren_ib_device.c */
int wren_ib_query_device(struct ib_device *ibdev, struct ib_device_attr *attr,
			 struct ib_udata *udata);
int wren_ib_query_port(struct ib_device *ibdev, u32 port,
		       struct ib_port_attr *attr);
int wren_ib_get_port_immutable(struct ib_device *ibdev, u32 port,
			       struct ib_port_immutable *immutable);
enum rdma_link_layer wren_ib_get_link_layer(struct ib_device *ibdev, u32 port);
#ifndef HAVE_IB_DEVICE_GET_NETDEV
struct net_device *wren_ib_get_netdev(struct ib_device *ibdev, u32 port);
#endif
int wren_ib_query_pkey(struct ib_device *ibdev, u32 port, u16 index, u16 *pkey);
void wren_ib_get_dev_fw_str(struct ib_device *ibdev, char *str);
void wren_ib_set_guid(struct wren_ib_dev *dev);
int wren_ib_add_gid(const struct ib_gid_attr *attr, void **context);
int wren_ib_del_gid(const struct ib_gid_attr *attr, void **context);

/* wren_ib_ucontext.c */
int wren_ib_alloc_ucontext(struct ib_ucontext *uctx, struct ib_udata *udata);
void wren_ib_dealloc_ucontext(struct ib_ucontext *uctx);
int wren_ib_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma);
void wren_ib_mmap_free(struct rdma_user_mmap_entry *entry);
void wren_ib_disassociate_ucontext(struct ib_ucontext *uctx);
int wren_ib_alloc_pd(struct ib_pd *pd, struct ib_udata *udata);
int wren_ib_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata);
struct wren_ib_alloc_ucontext_resp;
void wren_ib_ucontext_resp(struct wren_ib_ucontext *uctx,
			   struct wren_ib_alloc_ucontext_resp *resp, size_t len);

/* wren_ib_uapi.c */
int wren_ib_query_ucontext(struct ib_ucontext *uctx,
			   struct uverbs_attr_bundle *attrs);
extern const struct uapi_definition wren_ib_uapi_defs[];

/* wren_ib_cq.c */
#ifdef HAVE_IB_CREATE_CQ_ATTRS
int wren_ib_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		      struct uverbs_attr_bundle *attrs);
#else
int wren_ib_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		      struct ib_udata *udata);
#endif
int wren_ib_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
#ifdef HAVE_IB_RESIZE_USER_CQ
int wren_ib_resize_cq(struct ib_cq *ibcq, unsigned int entries,
		      struct ib_udata *udata);
#else
int wren_ib_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata);
#endif
int wren_ib_fill_res_cq_entry(struct sk_buff *msg, struct ib_cq *ibcq);

/* wren_ib_kcq.c: CQs of kernel consumers */
int wren_ib_create_kcq(struct wren_ib_cq *cq, const struct ib_cq_init_attr *attr);
void wren_ib_destroy_kcq(struct wren_ib_cq *cq);
int wren_ib_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
int wren_ib_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
void wren_ib_kcq_clean(struct wren_ib_cq *cq, struct wren_ib_qp *qp);

/* wren_ib_flush.c: kernel queues on a dead device */
int wren_ib_kcq_flush(struct wren_ib_dev *dev, struct wren_ib_cq *cq,
		      struct ib_wc *wc, int num_entries);
bool wren_ib_kcq_flushable(struct wren_ib_dev *dev, struct wren_ib_cq *cq);
void wren_ib_kick_cq(struct wren_ib_dev *dev, struct wren_ib_cq *cq);
void wren_ib_kick_work(struct work_struct *work);
void wren_ib_dev_dead(struct wren_ib_dev *dev);
void wren_ib_ulp_get(struct wren_ib_dev *dev);
void wren_ib_ulp_put(struct wren_ib_dev *dev);
void wren_ib_wait_ulps(struct wren_ib_dev *dev);

/* wren_ib_qp.c */
int wren_ib_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
		      struct ib_udata *udata);
int wren_ib_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int wren_ib_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp);
int wren_ib_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);
int wren_ib_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);

/* wren_ib_kqp.c: QPs of kernel consumers, GSI included */
int wren_ib_create_kqp(struct wren_ib_qp *qp, struct ib_qp_init_attr *attr,
		       u8 type);
void wren_ib_kqp_clean(struct wren_ib_qp *qp);
void wren_ib_destroy_kqp(struct wren_ib_qp *qp);
void wren_ib_kqp_reset(struct wren_ib_qp *qp);

/* wren_ib_post.c */
int wren_ib_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		      const struct ib_send_wr **bad_wr);
int wren_ib_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr);
void wren_ib_write_rqe(void *slot, u32 idx, const struct ib_recv_wr *wr);

/* wren_ib_qp_modify.c */
int wren_ib_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		      int attr_mask, struct ib_udata *udata);
int wren_ib_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		     int attr_mask, struct ib_qp_init_attr *init_attr);

/* wren_ib_srq.c */
int wren_ib_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *attr,
		       struct ib_udata *udata);
int wren_ib_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		       enum ib_srq_attr_mask mask, struct ib_udata *udata);
int wren_ib_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int wren_ib_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
int wren_ib_fill_res_srq_entry(struct sk_buff *msg, struct ib_srq *ibsrq);

/* wren_ib_ksrq.c: SRQs of kernel consumers */
int wren_ib_create_ksrq(struct wren_ib_srq *srq, struct ib_srq_init_attr *attr);
void wren_ib_destroy_ksrq(struct wren_ib_srq *srq);
int wren_ib_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
			  const struct ib_recv_wr **bad_wr);
u64 wren_ib_ksrq_complete(struct wren_ib_srq *srq, u16 idx16);

/*
 * A restrack entry's driver attributes (rdma -dd resource show): they go in
 * an RDMA_NLDEV_ATTR_DRIVER nest of their own, which ib_core leaves to the
 * driver to open; iproute2 reads nothing outside it.
 */
static inline struct nlattr *wren_ib_res_nest(struct sk_buff *msg)
{
	return nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_DRIVER);
}

static inline int wren_ib_res_end(struct sk_buff *msg, struct nlattr *nest,
				  bool overflow)
{
	if (overflow) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* wren_ib_xrcd.c */
int wren_ib_alloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata);
int wren_ib_dealloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata);
int wren_ib_create_xrc_tgt(struct wren_ib_qp *qp, struct ib_qp_init_attr *attr,
			   struct ib_udata *udata);

/* wren_ib_mr.c */
#ifdef HAVE_IB_REG_USER_MR_DMAH
struct ib_mr *wren_ib_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
				  u64 virt, int access, struct ib_dmah *dmah,
				  struct ib_udata *udata);
#else
struct ib_mr *wren_ib_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
				  u64 virt, int access, struct ib_udata *udata);
#endif
#if defined(HAVE_IB_REG_USER_MR_DMABUF_DMAH)
struct ib_mr *wren_ib_reg_user_mr_dmabuf(struct ib_pd *pd, u64 offset,
					 u64 length, u64 virt, int fd, int access,
					 struct ib_dmah *dmah,
					 struct uverbs_attr_bundle *attrs);
#elif defined(HAVE_IB_REG_USER_MR_DMABUF_ATTRS)
struct ib_mr *wren_ib_reg_user_mr_dmabuf(struct ib_pd *pd, u64 offset,
					 u64 length, u64 virt, int fd, int access,
					 struct uverbs_attr_bundle *attrs);
#else
struct ib_mr *wren_ib_reg_user_mr_dmabuf(struct ib_pd *pd, u64 offset,
					 u64 length, u64 virt, int fd, int access,
					 struct ib_udata *udata);
#endif
int wren_ib_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
struct ib_mr *wren_ib_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				    u64 length, u64 virt, int access,
				    struct ib_pd *pd, struct ib_udata *udata);
int wren_ib_fill_res_mr_entry(struct sk_buff *msg, struct ib_mr *ibmr);
/*
 * IB_ACCESS_FLUSH_GLOBAL and IB_ACCESS_FLUSH_PERSISTENT: uapi bits 8 and
 * 9, named only from 6.2 on.
 */
#define WREN_IB_ACCESS_FLUSH_GLOBAL	BIT(8)
#define WREN_IB_ACCESS_FLUSH_PERSISTENT	BIT(9)
u32 wren_ib_access(int ib_access);
struct ib_mr *wren_ib_get_dma_mr(struct ib_pd *pd, int access);
int wren_ib_check_access(struct wren_ib_dev *dev, int access);
int wren_ib_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata);
int wren_ib_dealloc_mw(struct ib_mw *ibmw);

/* wren_ib_peer.c */
int wren_ib_peer_get(struct wren_ib_dev *dev, struct wren_ib_mr *mr, u64 start,
		     u64 length, int access, int pin_err);
void wren_ib_peer_arm(struct wren_ib_mr *mr);
void wren_ib_peer_disarm(struct wren_ib_mr *mr);
void wren_ib_peer_release(struct wren_ib_mr *mr);
int wren_ib_peer_fill_res(struct sk_buff *msg, struct wren_ib_mr *mr);

/* wren_ib_fastreg.c */
u32 wren_ib_max_fast_reg_pages(struct wren_ib_dev *dev);
struct ib_mr *wren_ib_alloc_mr(struct ib_pd *pd, enum ib_mr_type mr_type,
			       u32 max_num_sg);
int wren_ib_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		      unsigned int *sg_offset);
void wren_ib_free_fast_reg(struct wren_ib_dev *dev, struct wren_ib_mr *mr);

/* wren_ib_ah.c */
int wren_ib_av_from_ah_attr(struct wren_ib_dev *dev,
			    const struct rdma_ah_attr *ah_attr,
			    struct wren_av *av);
int wren_ib_resolve_dmac(const struct rdma_ah_attr *ah_attr, u8 *dmac);
void wren_ib_av_to_ah_attr(struct wren_ib_dev *dev, const struct wren_av *av,
			   struct rdma_ah_attr *ah_attr);
int wren_ib_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init_attr,
		      struct ib_udata *udata);
int wren_ib_destroy_ah(struct ib_ah *ibah, u32 flags);
int wren_ib_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *ah_attr);

/* wren_ib_event.c */
extern const struct wren_core_event_ops wren_ib_event_ops;
void wren_ib_dispatch_port(struct wren_ib_dev *dev, bool active);

/* wren_ib_stats.c */
extern const struct ib_device_ops wren_ib_stats_ops;

#endif /* _WREN_IB_H */
