// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * User contexts and protection domains.
 *
 * Each context gets a doorbell page of its own (ALLOC_UAR) and every
 * queue it creates is bound to that page, so a process can ring only its
 * own queues.  The page reaches the process only through an
 * rdma_user_mmap_entry of its context, mapped uncached and write-only.
 * With WREN_CAP_TIMESTAMP a second entry maps the device clock's page of
 * BAR0 read-only (ibv_query_rt_values_ex reads it without a syscall).
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/wren-abi.h>

#include "wren_ib.h"

static void wren_ib_abi_sizes(void)
{
	BUILD_BUG_ON(sizeof(struct wren_ib_alloc_ucontext) != 8);
	BUILD_BUG_ON(sizeof(struct wren_ib_alloc_ucontext_resp) != 80);
	BUILD_BUG_ON(sizeof(struct wren_ib_create_cq) != 24);
	BUILD_BUG_ON(sizeof(struct wren_ib_create_cq_resp) != 16);
	BUILD_BUG_ON(sizeof(struct wren_ib_resize_cq) != 24);
	BUILD_BUG_ON(sizeof(struct wren_ib_create_qp) != 32);
	BUILD_BUG_ON(sizeof(struct wren_ib_create_qp_resp) != 16);
	BUILD_BUG_ON(sizeof(struct wren_ib_create_srq) != 24);
	BUILD_BUG_ON(sizeof(struct wren_ib_create_srq_resp) != 8);
	BUILD_BUG_ON(sizeof(struct wren_ib_resize_srq) != 24);
	BUILD_BUG_ON(sizeof(struct wren_ib_create_ah_resp) != 8);
}

static int wren_ib_ucontext_req(struct ib_udata *udata)
{
	struct wren_ib_alloc_ucontext req;
	int err;

	/* The request is optional: old providers send none. */
	if (!udata->inlen)
		return 0;
	err = wren_ib_udata_in(udata, &req, sizeof(req));
	if (err)
		return err;
	if (req.comp_mask)
		return -EOPNOTSUPP;
	if (req.reserved)
		return -EINVAL;
	return 0;
}

static struct rdma_user_mmap_entry *
wren_ib_mmap_entry_add(struct ib_ucontext *ibuctx, phys_addr_t address,
		       enum wren_ib_mmap_type type)
{
	struct wren_ib_mmap_entry *entry;
	int err;

	entry = kzalloc_obj(*entry, GFP_KERNEL);
	if (!entry)
		return ERR_PTR(-ENOMEM);
	entry->address = address;
	entry->type = type;
	err = rdma_user_mmap_entry_insert(ibuctx, &entry->rdma_entry,
					  WREN_DB_PAGE_SIZE);
	if (err) {
		kfree(entry);
		return ERR_PTR(err);
	}
	return &entry->rdma_entry;
}

/* The clock page, for a provider that can read where it is. */
static int wren_ib_clock_entry(struct wren_ib_dev *dev,
			       struct wren_ib_ucontext *uctx,
			       struct ib_udata *udata)
{
	struct rdma_user_mmap_entry *e;

	if (!(dev->caps & WREN_CAP_TIMESTAMP) ||
	    udata->outlen < offsetofend(struct wren_ib_alloc_ucontext_resp,
					clock_mmap_length))
		return 0;
	e = wren_ib_mmap_entry_add(&uctx->ibuctx,
				   dev->regs_bar + WREN_CLOCK_PAGE,
				   WREN_IB_MMAP_CLOCK);
	if (IS_ERR(e))
		return PTR_ERR(e);
	uctx->clock_entry = e;
	return 0;
}

/**
 * wren_ib_ucontext_resp() - describe a context to its provider
 * @uctx: the context, its doorbell page mapped (and its clock page, if any)
 * @resp: filled
 * @len: bytes of @resp the provider reads
 *
 * What alloc_ucontext answers, and what QUERY_CONTEXT answers again to a
 * process that imports the context (ibv_import_device): the same mmap
 * offsets, so both map the same pages.  The clock is reported only when
 * @len has room for its fields.
 */
void wren_ib_ucontext_resp(struct wren_ib_ucontext *uctx,
			   struct wren_ib_alloc_ucontext_resp *resp, size_t len)
{
	struct wren_ib_dev *dev = to_wdev(uctx->ibuctx.device);
	const struct wren_device_attr *a = dev->attr;

	memset(resp, 0, sizeof(*resp));
	if (uctx->clock_entry &&
	    len >= offsetofend(typeof(*resp), clock_mmap_length)) {
		resp->comp_mask |= WREN_IB_UCTX_RESP_CLOCK;
		resp->clock_mmap_offset =
			rdma_user_mmap_get_offset(uctx->clock_entry);
		resp->clock_mmap_length = WREN_DB_PAGE_SIZE;
	}
	resp->uar = uctx->uar;
	resp->db_mmap_offset = rdma_user_mmap_get_offset(uctx->db_entry);
	resp->db_mmap_length = WREN_DB_PAGE_SIZE;
	resp->contract_major = le16_to_cpu(a->contract_major);
	resp->contract_minor = le16_to_cpu(a->contract_minor);
	resp->caps = dev->caps;
	resp->max_qp_wr = le32_to_cpu(a->max_qp_wr);
	resp->max_srq_wr = le32_to_cpu(a->max_srq_wr);
	resp->max_cqe = le32_to_cpu(a->max_cqe);
	resp->max_sge = le16_to_cpu(a->max_sge);
	resp->max_sge_rd = le16_to_cpu(a->max_sge_rd);
	resp->max_inline = le16_to_cpu(a->max_inline);
	resp->cqe_size = WREN_CQE_SIZE;
	resp->min_wqe_shift = WREN_WQE_SHIFT_MIN;
	resp->max_sq_wqe_shift = a->max_sq_wqe_shift;
	resp->max_rq_wqe_shift = a->max_rq_wqe_shift;
	resp->max_wq_log_size = wren_wq_log_size_max(resp->max_qp_wr);
	resp->max_cq_log_size = min_t(u32, WREN_CQ_LOG_SIZE_MAX,
				      ilog2(max_t(u32, resp->max_cqe, 2)));
}

int wren_ib_alloc_ucontext(struct ib_ucontext *ibuctx, struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibuctx->device);
	struct wren_ib_ucontext *uctx = to_wuctx(ibuctx);
	struct wren_ib_alloc_ucontext_resp resp;
	struct rdma_user_mmap_entry *e;
	int err;

	wren_ib_abi_sizes();
	/* A larger page would map the neighbours' doorbells too (and more
	 * of BAR0 than the clock).
	 */
	if (PAGE_SIZE != WREN_DB_PAGE_SIZE)
		return -EOPNOTSUPP;
	err = wren_ib_ucontext_req(udata);
	if (err)
		return err;
	/* Providers from before the clock fields get the response up to
	 * reserved.
	 */
	if (udata->outlen < offsetofend(typeof(resp), reserved))
		return -EINVAL;

	err = wren_cmd_alloc_uar(dev->cdev, &uctx->uar);
	if (err)
		return err;
	if (!uctx->uar || uctx->uar >= dev->num_db_pages) {
		ibdev_warn_ratelimited(&dev->ibdev, "ALLOC_UAR returned page %u of %u\n",
				       uctx->uar, dev->num_db_pages);
		err = -EIO;
		goto err_uar;
	}

	e = wren_ib_mmap_entry_add(ibuctx, dev->db_bar +
				   ((phys_addr_t)uctx->uar << WREN_DB_PAGE_SHIFT),
				   WREN_IB_MMAP_DB);
	if (IS_ERR(e)) {
		err = PTR_ERR(e);
		goto err_uar;
	}
	uctx->db_entry = e;
	err = wren_ib_clock_entry(dev, uctx, udata);
	if (err)
		goto err_entry;

	wren_ib_ucontext_resp(uctx, &resp, udata->outlen);
	err = wren_ib_udata_out(udata, &resp,
				min_t(size_t, udata->outlen, sizeof(resp)));
	if (err)
		goto err_entry;
	return 0;

err_entry:
	if (uctx->clock_entry)
		rdma_user_mmap_entry_remove(uctx->clock_entry);
	uctx->clock_entry = NULL;
	rdma_user_mmap_entry_remove(uctx->db_entry);
	uctx->db_entry = NULL;
err_uar:
	wren_cmd_dealloc_uar(dev->cdev, uctx->uar);
	return err;
}

void wren_ib_dealloc_ucontext(struct ib_ucontext *ibuctx)
{
	struct wren_ib_dev *dev = to_wdev(ibuctx->device);
	struct wren_ib_ucontext *uctx = to_wuctx(ibuctx);

	/* Every queue bound to the page is gone by now (ib_core destroys a
	 * context's objects first), and every mapping of it too: ib_core
	 * calls this after the file is released or disassociated.
	 */
	if (uctx->clock_entry)
		rdma_user_mmap_entry_remove(uctx->clock_entry);
	rdma_user_mmap_entry_remove(uctx->db_entry);
	wren_cmd_dealloc_uar(dev->cdev, uctx->uar);
}

/* mprotect() can never make the mapping writable or executable. */
static void wren_ib_vma_no_write(struct vm_area_struct *vma)
{
#ifdef HAVE_VM_FLAGS_CLEAR
	vm_flags_clear(vma, VM_MAYWRITE | VM_MAYEXEC);
#else
	vma->vm_flags &= ~(VM_MAYWRITE | VM_MAYEXEC);
#endif
}

int wren_ib_mmap(struct ib_ucontext *ibuctx, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *rdma_entry;
	struct wren_ib_mmap_entry *entry;
	pgprot_t prot;
	int err;

	if (vma->vm_end - vma->vm_start != WREN_DB_PAGE_SIZE)
		return -EINVAL;
	rdma_entry = rdma_user_mmap_entry_get(ibuctx, vma);
	if (!rdma_entry)
		return -EINVAL;
	entry = container_of(rdma_entry, struct wren_ib_mmap_entry, rdma_entry);
	switch (entry->type) {
	case WREN_IB_MMAP_DB:
		/* Doorbells are written, never read or executed.  Uncached
		 * device memory: each doorbell is one 64-bit write carrying
		 * the whole index, so there is nothing to combine and
		 * nothing to flush.
		 */
		err = vma->vm_flags & (VM_READ | VM_EXEC) ? -EPERM : 0;
		prot = pgprot_device(vma->vm_page_prot);
		break;
	case WREN_IB_MMAP_CLOCK:
		/* Read, never written, and not made writable later. */
		err = vma->vm_flags & (VM_WRITE | VM_EXEC) ? -EPERM : 0;
		if (!err)
			wren_ib_vma_no_write(vma);
		prot = pgprot_noncached(vma->vm_page_prot);
		break;
	default:
		err = -EINVAL;
		prot = vma->vm_page_prot;
	}
	if (!err)
		err = rdma_user_mmap_io(ibuctx, vma, PFN_DOWN(entry->address),
					WREN_DB_PAGE_SIZE, prot, rdma_entry);
	rdma_user_mmap_entry_put(rdma_entry);
	return err;
}

void wren_ib_mmap_free(struct rdma_user_mmap_entry *rdma_entry)
{
	kfree(container_of(rdma_entry, struct wren_ib_mmap_entry, rdma_entry));
}

/*
 * The device is going away under a process that still holds the context:
 * ib_core zaps the doorbell mapping itself (rdma_user_mmap_io() recorded
 * it) and destroys the objects; there is no other mapping or pinned memory
 * to drop here.  Having the op lets ib_core unregister without waiting for
 * the process to exit.
 */
void wren_ib_disassociate_ucontext(struct ib_ucontext *ibuctx)
{
}

int wren_ib_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibpd->device);
	int err;

	/* A kernel PD's local_dma_lkey is the reserved lkey: ib_core sets it
	 * from ibdev->local_dma_lkey (IBK_LOCAL_DMA_LKEY).
	 */
	err = wren_ib_udata_none(udata);
	if (err)
		return err;
	err = wren_cmd_alloc_pd(dev->cdev, &to_wpd(ibpd)->pdn);
	if (err || udata)
		return err;
	to_wpd(ibpd)->ulp = true;
	wren_ib_ulp_get(dev);
	return 0;
}

int wren_ib_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibpd->device);
	int err;

	err = wren_cmd_dealloc_pd(dev->cdev, to_wpd(ibpd)->pdn);
	if (!err && to_wpd(ibpd)->ulp)
		wren_ib_ulp_put(dev);
	return err;
}
