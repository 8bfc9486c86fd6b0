// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queues.  A user CQ's ring and doorbell record are the
 * provider's memory (uapi.rst) and the CQ is bound to the context's
 * doorbell page; a kernel CQ (no udata) is wren_ib_kcq.c's.  Both report
 * to the completion EQ of their comp_vector.  User CQs can move to a new
 * ring (RESIZE_CQ); kernel CQs cannot (-EOPNOTSUPP).
 */
#include <rdma/uverbs_ioctl.h>
#include <rdma/wren-abi.h>

#include "wren_ib.h"

/*
 * The ring a provider describes for create_cq and resize_cq (the two
 * requests share their layout): no comp_mask bits, reserved bytes zero,
 * 1 << @log_size entries for @entries, within the device's limits.
 */
static int wren_ib_cq_ring_req(struct wren_ib_dev *dev, u32 comp_mask,
			       const u8 *reserved, size_t reserved_len,
			       u8 log_size, unsigned int entries)
{
	u32 max_cqe = le32_to_cpu(dev->attr->max_cqe);
	unsigned int max_log;

	if (comp_mask)
		return -EOPNOTSUPP;
	if (memchr_inv(reserved, 0, reserved_len))
		return -EINVAL;
	max_log = min_t(unsigned int, WREN_CQ_LOG_SIZE_MAX,
			ilog2(max_t(u32, max_cqe, 2)));
	if (log_size < WREN_CQ_LOG_SIZE_MIN || log_size > max_log)
		return -EINVAL;
	if (!entries || entries > BIT(log_size))
		return -EINVAL;
	return 0;
}

static int wren_ib_cq_req(struct wren_ib_dev *dev,
			  const struct ib_cq_init_attr *attr,
			  struct ib_udata *udata, struct wren_ib_create_cq *req)
{
	int err;

	err = wren_ib_udata_in(udata, req, sizeof(*req));
	if (err)
		return err;
	return wren_ib_cq_ring_req(dev, req->comp_mask, req->reserved,
				   sizeof(req->reserved), req->log_size,
				   attr->cqe);
}

static int wren_ib_create_cq_locked(struct ib_cq *ibcq,
				    const struct ib_cq_init_attr *attr,
				    struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibcq->device);
	struct wren_ib_cq *cq = to_wcq(ibcq);
	struct wren_ib_ucontext *uctx;
	struct wren_ib_create_cq_resp resp = {};
	struct wren_ib_create_cq req;
	struct wren_create_cq_in in = {};
	size_t list_size;
	dma_addr_t list_dma;
	void *list;
	u64 bytes;
	int err;

	/* Timestamps are for user CQs: a provider reads them, ib_poll_cq()
	 * has nowhere to put them.
	 */
	if (attr->flags & ~IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION)
		return -EOPNOTSUPP;
	if (attr->flags && (!udata || !(dev->caps & WREN_CAP_TIMESTAMP)))
		return -EOPNOTSUPP;
	if (attr->comp_vector >= dev->ibdev.num_comp_vectors)
		return -EINVAL;
	if (!udata)
		return wren_ib_create_kcq(cq, attr);
	err = wren_ib_cq_req(dev, attr, udata, &req);
	if (err)
		return err;
	uctx = rdma_udata_to_drv_context(udata, struct wren_ib_ucontext, ibuctx);

	/* The provider lays out 64-byte entries when it asked for this. */
	if (attr->flags & IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION)
		in.flags = WREN_CQ_F_CQE64;
	cq->stride = wren_cqe_stride(in.flags);
	bytes = (u64)cq->stride << req.log_size;
	err = wren_ib_uring_get(dev, &cq->ring, req.buf_addr, bytes,
				req.dbrec_addr);
	if (err)
		return err;
	err = wren_ib_buf_desc(dev, cq->ring.umem, req.buf_addr, bytes,
			       &in.ring, &list, &list_dma, &list_size);
	if (err)
		goto err_ring;

	cq->eq_index = attr->comp_vector;
	cq->log_size = req.log_size;
	in.dbrec_addr = cpu_to_le64(cq->ring.dbrec_dma);
	in.eqn = cpu_to_le32(wren_core_comp_eqn(dev->wadev, cq->eq_index));
	in.uar = cpu_to_le32(uctx->uar);
	in.log_size = req.log_size;
	err = wren_cmd_create_cq(dev->cdev, &in, &cq->cqn);
	if (err != -ETIMEDOUT)
		wren_ib_buf_desc_free(dev, list, list_dma, list_size);
	if (err)
		goto err_ring;
	ibcq->cqe = BIT(req.log_size);
	mutex_init(&cq->resize_lock);

	wren_ib_obj_ref_init(&cq->ref);
	err = xa_insert_irq(&dev->cqs, cq->cqn, cq, GFP_KERNEL);
	if (err)
		goto err_destroy;

	resp.cqn = cq->cqn;
	resp.log_size = req.log_size;
	err = wren_ib_udata_out(udata, &resp, sizeof(resp));
	if (err)
		goto err_erase;
	return 0;

err_erase:
	xa_erase_irq(&dev->cqs, cq->cqn);
err_destroy:
	mutex_destroy(&cq->resize_lock);
	wren_cmd_destroy_cq(dev->cdev, cq->cqn);
err_ring:
	wren_ib_uring_put(&cq->ring);
	return err;
}

static int __wren_ib_create_cq(struct ib_cq *ibcq,
			       const struct ib_cq_init_attr *attr,
			       struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibcq->device);
	int err;

	down_read(&dev->num_reuse);
	err = wren_ib_create_cq_locked(ibcq, attr, udata);
	up_read(&dev->num_reuse);
	return err;
}

#ifdef HAVE_IB_CREATE_CQ_ATTRS
int wren_ib_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		      struct uverbs_attr_bundle *attrs)
{
	return __wren_ib_create_cq(ibcq, attr, attrs ? &attrs->driver_udata : NULL);
}
#else
int wren_ib_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		      struct ib_udata *udata)
{
	return __wren_ib_create_cq(ibcq, attr, udata);
}
#endif

int wren_ib_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibcq->device);
	struct wren_ib_cq *cq = to_wcq(ibcq);
	int err;

	down_write(&dev->num_reuse);
	err = wren_cmd_destroy_cq(dev->cdev, cq->cqn);
	if (err) {
		up_write(&dev->num_reuse);
		return err;
	}
	/* No completion or event handler runs for it after this. */
	xa_erase_irq(&dev->cqs, cq->cqn);
	up_write(&dev->num_reuse);
	wren_ib_obj_wait(&cq->ref);
	if (cq->kernel) {
		wren_ib_destroy_kcq(cq);
	} else {
		wren_ib_uring_put(&cq->ring);
		wren_ib_uring_put(&cq->stale_ring);
		mutex_destroy(&cq->resize_lock);
	}
	return 0;
}

/*
 * A user CQ to a new ring the provider allocated (uapi.rst): pinned and
 * described as at create, then RESIZE_CQ, which moves the entries not
 * yet polled and restarts the indexes.  On success the old ring goes;
 * on failure the new one, and the CQ is as it was (too many entries for
 * the new size: -EINVAL).  A timeout leaves it unknown which ring the
 * device uses: both stay pinned until the CQ goes, and further resizes
 * are refused.
 */
static int wren_ib_cq_resize(struct ib_cq *ibcq, unsigned int entries,
			     struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibcq->device);
	struct wren_ib_cq *cq = to_wcq(ibcq);
	struct wren_resize_cq_in in = {};
	struct wren_ib_uring ring = {};
	struct wren_ib_resize_cq req;
	size_t list_size;
	dma_addr_t list_dma;
	void *list;
	u64 bytes;
	int err;

	if (!(dev->caps & WREN_CAP_CQ_RESIZE) || cq->kernel || !udata)
		return -EOPNOTSUPP;
	err = wren_ib_udata_in(udata, &req, sizeof(req));
	if (err)
		return err;
	err = wren_ib_cq_ring_req(dev, req.comp_mask, req.reserved,
				  sizeof(req.reserved), req.log_size,
				  entries);
	if (err)
		return err;

	mutex_lock(&cq->resize_lock);
	if (cq->stale_ring.umem) {
		err = -EBUSY;
		goto out;
	}
	bytes = (u64)cq->stride << req.log_size;
	err = wren_ib_uring_get(dev, &ring, req.buf_addr, bytes,
				req.dbrec_addr);
	if (err)
		goto out;
	err = wren_ib_buf_desc(dev, ring.umem, req.buf_addr, bytes, &in.ring,
			       &list, &list_dma, &list_size);
	if (err)
		goto put_ring;
	in.cqn = cpu_to_le32(cq->cqn);
	in.log_size = req.log_size;
	in.dbrec_addr = cpu_to_le64(ring.dbrec_dma);
	err = wren_cmd_resize_cq(dev->cdev, &in);
	if (err == -ETIMEDOUT) {
		cq->stale_ring = ring;
		goto out;
	}
	wren_ib_buf_desc_free(dev, list, list_dma, list_size);
	if (err)
		goto put_ring;
	swap(cq->ring, ring);
	cq->log_size = req.log_size;
	ibcq->cqe = BIT(req.log_size);
put_ring:
	wren_ib_uring_put(&ring);
out:
	mutex_unlock(&cq->resize_lock);
	return err;
}

/* ib_core's resize_user_cq takes the count unsigned, its resize_cq signed. */
#ifdef HAVE_IB_RESIZE_USER_CQ
int wren_ib_resize_cq(struct ib_cq *ibcq, unsigned int entries,
		      struct ib_udata *udata)
{
	return wren_ib_cq_resize(ibcq, entries, udata);
}
#else
int wren_ib_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata)
{
	return wren_ib_cq_resize(ibcq, entries < 0 ? 0 : entries, udata);
}
#endif

int wren_ib_fill_res_cq_entry(struct sk_buff *msg, struct ib_cq *ibcq)
{
	struct wren_ib_dev *dev = to_wdev(ibcq->device);
	struct wren_ib_cq *cq = to_wcq(ibcq);
	struct nlattr *nest = wren_ib_res_nest(msg);
	bool overflow;

	if (!nest)
		return -EMSGSIZE;

	overflow = rdma_nl_put_driver_u32(msg, "cqn", cq->cqn) ||
		   rdma_nl_put_driver_u32(msg, "eqn",
					  wren_core_comp_eqn(dev->wadev, cq->eq_index)) ||
		   rdma_nl_put_driver_u32(msg, "log_size", cq->log_size);
	return wren_ib_res_end(msg, nest, overflow);
}
