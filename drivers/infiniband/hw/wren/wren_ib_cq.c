// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queues.  A user CQ's ring and doorbell record are the
 * provider's memory (uapi.rst) and the CQ is bound to the context's
 * doorbell page; a kernel CQ (no udata) is wren_ib_kcq.c's.  Both report
 * to the completion EQ of their comp_vector.
 */
#include <rdma/uverbs_ioctl.h>
#include <rdma/wren-abi.h>

#include "wren_ib.h"

static int wren_ib_cq_req(struct wren_ib_dev *dev,
			  const struct ib_cq_init_attr *attr,
			  struct ib_udata *udata, struct wren_ib_create_cq *req)
{
	u32 max_cqe = le32_to_cpu(dev->attr->max_cqe);
	unsigned int max_log;
	int err;

	err = wren_ib_udata_in(udata, req, sizeof(*req));
	if (err)
		return err;
	if (req->comp_mask)
		return -EOPNOTSUPP;
	if (memchr_inv(req->reserved, 0, sizeof(req->reserved)))
		return -EINVAL;
	max_log = min_t(unsigned int, WREN_CQ_LOG_SIZE_MAX,
			ilog2(max_t(u32, max_cqe, 2)));
	if (req->log_size < WREN_CQ_LOG_SIZE_MIN || req->log_size > max_log)
		return -EINVAL;
	if (!attr->cqe || attr->cqe > BIT(req->log_size))
		return -EINVAL;
	return 0;
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

	if (attr->flags)
		return -EOPNOTSUPP;
	if (attr->comp_vector >= dev->ibdev.num_comp_vectors)
		return -EINVAL;
	if (!udata)
		return wren_ib_create_kcq(cq, attr);
	err = wren_ib_cq_req(dev, attr, udata, &req);
	if (err)
		return err;
	uctx = rdma_udata_to_drv_context(udata, struct wren_ib_ucontext, ibuctx);

	bytes = (u64)WREN_CQE_SIZE << req.log_size;
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
	if (cq->kernel)
		wren_ib_destroy_kcq(cq);
	else
		wren_ib_uring_put(&cq->ring);
	return 0;
}

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
