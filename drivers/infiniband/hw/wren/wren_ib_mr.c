// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory regions of user memory: pin with ib_umem, pick the largest page
 * size the device and the buffer allow (ib_umem_find_best_pgsz()), then
 * CREATE_MR (state FREE), WRITE_MTT in chunks of at most one admin buffer,
 * and ACTIVATE_MR.  The key is index << 8 | a tag that changes on every
 * registration, so a stale key of an earlier MR in the same entry fails.
 * A range that cannot be pinned may be peer memory (wren_ib_peer.c).
 * Memory windows, which are bound to these MRs, are at the end.
 */
#include <linux/dma-mapping.h>
#include <linux/slab.h>
#include <rdma/uverbs_ioctl.h>

#include "wren_ib.h"

/* Entries per WRITE_MTT: one admin input buffer of __le64. */
#define WREN_IB_MTT_CHUNK	(WREN_AQ_MAX_BUF_LEN / sizeof(__le64))

/* IB access flags this driver can grant; the rest is refused. */
#define WREN_IB_MR_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
				 IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC | \
				 IB_ACCESS_RELAXED_ORDERING | IB_ACCESS_MW_BIND | \
				 WREN_IB_ACCESS_FLUSH_GLOBAL)

/**
 * wren_ib_access() - the device's rights for verbs access flags
 * @ib_access: IB_ACCESS_* (FLUSH's as WREN_IB_ACCESS_FLUSH_*)
 *
 * Return: the WREN_ACCESS_* bits the flags name; others are dropped.
 */
u32 wren_ib_access(int ib_access)
{
	u32 a = 0;

	if (ib_access & IB_ACCESS_LOCAL_WRITE)
		a |= WREN_ACCESS_LOCAL_WRITE;
	if (ib_access & IB_ACCESS_REMOTE_WRITE)
		a |= WREN_ACCESS_REMOTE_WRITE;
	if (ib_access & IB_ACCESS_REMOTE_READ)
		a |= WREN_ACCESS_REMOTE_READ;
	if (ib_access & IB_ACCESS_REMOTE_ATOMIC)
		a |= WREN_ACCESS_REMOTE_ATOMIC;
	if (ib_access & IB_ACCESS_MW_BIND)
		a |= WREN_ACCESS_MW_BIND;
	if (ib_access & WREN_IB_ACCESS_FLUSH_GLOBAL)
		a |= WREN_ACCESS_FLUSH_GLOBAL;
	if (ib_access & WREN_IB_ACCESS_FLUSH_PERSISTENT)
		a |= WREN_ACCESS_FLUSH_PERSISTENT;
	return a;
}

/**
 * wren_ib_check_access() - may an MR of @dev have @access
 * @dev: the device
 * @access: IB_ACCESS_* of the registration
 *
 * Return: 0, or -EOPNOTSUPP for a right the driver or the device lacks
 * (the persistent FLUSH right always).
 */
int wren_ib_check_access(struct wren_ib_dev *dev, int access)
{
	if (access & ~WREN_IB_MR_ACCESS)
		return -EOPNOTSUPP;
	if ((access & IB_ACCESS_REMOTE_ATOMIC) &&
	    !(dev->caps & WREN_CAP_RDMA_ATOMIC))
		return -EOPNOTSUPP;
	if ((access & IB_ACCESS_MW_BIND) && !(dev->caps & WREN_CAP_RDMA_MW))
		return -EOPNOTSUPP;
	/*
	 * The global FLUSH right where the device has FLUSH; the persistent
	 * one is never granted (wren_admin.h's FLUSH rights).
	 */
	if ((access & WREN_IB_ACCESS_FLUSH_GLOBAL) &&
	    !(dev->caps & WREN_CAP_RDMA_FLUSH))
		return -EOPNOTSUPP;
	return 0;
}

/* Unpin what the MR's umem holds, however it was pinned. */
static void wren_ib_mr_put_umem(struct wren_ib_mr *mr)
{
	if (mr->kind == WREN_IB_MR_PEER)
		wren_ib_peer_release(mr);
	else
		ib_umem_release(mr->umem);
	mr->umem = NULL;
}

/*
 * The translation entries go straight into the command layer's input
 * buffer, WREN_IB_MTT_CHUNK a command: no copy, and one buffer for all
 * the commands of the MR.
 */
static int wren_ib_write_mtt(struct wren_ib_dev *dev, struct wren_ib_mr *mr,
			     unsigned long pgsz)
{
	size_t chunk = min_t(size_t, mr->num_mtt, WREN_IB_MTT_CHUNK);
	struct wren_cmd_inbuf buf;
	struct ib_block_iter biter;
	u32 first = 0, n = 0;
	__le64 *mtt;
	int err;

	if (!chunk)
		return 0;
	err = wren_cmd_inbuf_get(dev->cdev, chunk * sizeof(*mtt), &buf);
	if (err)
		return err;
	mtt = buf.data;
	rdma_umem_for_each_dma_block(mr->umem, &biter, pgsz) {
		mtt[n++] = cpu_to_le64(rdma_block_iter_dma_address(&biter));
		if (n < chunk && first + n < mr->num_mtt)
			continue;
		err = wren_cmd_write_mtt(dev->cdev, mr->index, first, &buf, n);
		if (err)
			break;
		first += n;
		n = 0;
		cond_resched();
	}
	wren_cmd_inbuf_put(dev->cdev, &buf);
	if (!err && first != mr->num_mtt)
		err = -EINVAL;
	return err;
}

/*
 * The device half of a registration, common to user, dma-buf and peer
 * MRs: the largest page size the buffer's DMA addresses and @virt allow,
 * CREATE_MR, WRITE_MTT and ACTIVATE_MR.  @mr->umem is pinned and DMA
 * mapped.  On failure the umem is released and @mr freed, unless the
 * device kept the MR (DESTROY_MR failed): then the pages stay pinned under
 * it.  A peer MR is armed for invalidation once the device may use it.
 */
static struct ib_mr *wren_ib_mr_commit(struct ib_pd *ibpd, struct wren_ib_mr *mr,
				       u64 length, u64 virt, int access)
{
	struct wren_ib_dev *dev = to_wdev(ibpd->device);
	struct wren_create_mr_in in = {};
	struct wren_cmd_mr_result res;
	unsigned long pgsz;
	size_t npages;
	int err;

	pgsz = ib_umem_find_best_pgsz(mr->umem, dev->pgsz_bitmap, virt);
	if (!pgsz) {
		err = -EINVAL;
		goto err_umem;
	}
	npages = ib_umem_num_dma_blocks(mr->umem, pgsz);
	if (npages > le32_to_cpu(dev->attr->max_mtt)) {
		err = -EINVAL;
		goto err_umem;
	}
	mr->num_mtt = npages;
	mr->page_shift = order_base_2(pgsz);

	in.pdn = cpu_to_le32(to_wpd(ibpd)->pdn);
	in.access = cpu_to_le32(wren_ib_access(access));
	in.iova = cpu_to_le64(virt);
	in.length = cpu_to_le64(length);
	in.num_mtt = cpu_to_le32(mr->num_mtt);
	in.page_shift = mr->page_shift;
	in.key_tag = (u8)atomic_inc_return(&dev->key_tag);
	err = wren_cmd_create_mr(dev->cdev, &in, &res);
	if (err)
		goto err_umem;
	mr->index = res.index;

	err = wren_ib_write_mtt(dev, mr, pgsz);
	if (err)
		goto err_destroy;
	err = wren_cmd_activate_mr(dev->cdev, mr->index);
	if (err)
		goto err_destroy;

	mr->ibmr.lkey = res.key;
	mr->ibmr.rkey = mr->ibmr.lkey;
	mr->ibmr.page_size = pgsz;
	mr->access = access;
	/* ib_core fills these for reg_user_mr, not for dma-buf MRs. */
	mr->ibmr.iova = virt;
	mr->ibmr.length = length;
	if (mr->kind == WREN_IB_MR_PEER)
		wren_ib_peer_arm(mr);
	return &mr->ibmr;

err_destroy:
	if (wren_cmd_destroy_mr(dev->cdev, mr->index)) {
		/* Keep the pages pinned under it; the client may still ask. */
		if (mr->kind == WREN_IB_MR_PEER)
			wren_ib_peer_arm(mr);
		return ERR_PTR(err);
	}
err_umem:
	wren_ib_mr_put_umem(mr);
	kfree(mr);
	return ERR_PTR(err);
}

/* What every registration of user-reachable memory checks first. */
static struct wren_ib_mr *wren_ib_mr_alloc(struct wren_ib_dev *dev, int access,
					   struct ib_udata *udata)
{
	struct wren_ib_mr *mr;
	int err;

	err = wren_ib_udata_none(udata);
	if (err)
		return ERR_PTR(err);
	err = wren_ib_check_access(dev, access);
	if (err)
		return ERR_PTR(err);
	mr = kzalloc_obj(*mr, GFP_KERNEL);
	return mr ? mr : ERR_PTR(-ENOMEM);
}

static struct ib_mr *__wren_ib_reg_user_mr(struct ib_pd *ibpd, u64 start,
					   u64 length, u64 virt, int access,
					   struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibpd->device);
	struct wren_ib_mr *mr;
	int err;

	mr = wren_ib_mr_alloc(dev, access, udata);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	if (!length || length > le64_to_cpu(dev->attr->max_mr_size)) {
		kfree(mr);
		return ERR_PTR(-EINVAL);
	}
	mr->umem = wren_ib_umem_get(ibpd->device, start, length, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		mr->umem = NULL;
		/* What pin_user_pages() says of VM_IO | VM_PFNMAP mappings
		 * (a GPU BAR): a peer-memory client may own the range.
		 */
		if (err == -EFAULT)
			err = wren_ib_peer_get(dev, mr, start, length, access, err);
		if (err) {
			kfree(mr);
			return ERR_PTR(err);
		}
	}
	return wren_ib_mr_commit(ibpd, mr, length, virt, access);
}

/*
 * Memory another device exports as dma-buf (GPU memory, udmabuf), pinned:
 * the exporter may not move it while the MR lives, so there is no
 * move_notify to serve.  The MTT holds the dma-buf's DMA addresses, at the
 * largest page size they allow (64 KiB for GPU pages).  The fd is looked
 * up before the length is checked, so that NCCL's probe
 * ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0) fails with EBADF ("supported")
 * rather than EINVAL.
 */
static struct ib_mr *__wren_ib_reg_user_mr_dmabuf(struct ib_pd *ibpd, u64 offset,
						  u64 length, u64 virt, int fd,
						  int access, struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibpd->device);
	struct ib_umem_dmabuf *umem_dmabuf;
	struct wren_ib_mr *mr;
	int err;

	mr = wren_ib_mr_alloc(dev, access, udata);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	umem_dmabuf = ib_umem_dmabuf_get_pinned(ibpd->device, offset, length,
						fd, access);
	if (IS_ERR(umem_dmabuf)) {
		err = PTR_ERR(umem_dmabuf);
		ibdev_dbg(&dev->ibdev, "dma-buf fd %d: %d\n", fd, err);
		kfree(mr);
		return ERR_PTR(err);
	}
	mr->kind = WREN_IB_MR_DMABUF;
	mr->umem = &umem_dmabuf->umem;
	if (!length || length > le64_to_cpu(dev->attr->max_mr_size)) {
		ib_umem_release(mr->umem);
		kfree(mr);
		return ERR_PTR(-EINVAL);
	}
	return wren_ib_mr_commit(ibpd, mr, length, virt, access);
}

/* A DMA handle (TPH steering) is not something the NIC has. */
#ifdef HAVE_IB_REG_USER_MR_DMAH
struct ib_mr *wren_ib_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
				  u64 virt, int access, struct ib_dmah *dmah,
				  struct ib_udata *udata)
{
	if (dmah)
		return ERR_PTR(-EOPNOTSUPP);
	return __wren_ib_reg_user_mr(ibpd, start, length, virt, access, udata);
}
#else
struct ib_mr *wren_ib_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
				  u64 virt, int access, struct ib_udata *udata)
{
	return __wren_ib_reg_user_mr(ibpd, start, length, virt, access, udata);
}
#endif

#if defined(HAVE_IB_REG_USER_MR_DMABUF_DMAH)
struct ib_mr *wren_ib_reg_user_mr_dmabuf(struct ib_pd *ibpd, u64 offset,
					 u64 length, u64 virt, int fd, int access,
					 struct ib_dmah *dmah,
					 struct uverbs_attr_bundle *attrs)
{
	if (dmah)
		return ERR_PTR(-EOPNOTSUPP);
	return __wren_ib_reg_user_mr_dmabuf(ibpd, offset, length, virt, fd, access,
					    attrs ? &attrs->driver_udata : NULL);
}
#elif defined(HAVE_IB_REG_USER_MR_DMABUF_ATTRS)
struct ib_mr *wren_ib_reg_user_mr_dmabuf(struct ib_pd *ibpd, u64 offset,
					 u64 length, u64 virt, int fd, int access,
					 struct uverbs_attr_bundle *attrs)
{
	return __wren_ib_reg_user_mr_dmabuf(ibpd, offset, length, virt, fd, access,
					    attrs ? &attrs->driver_udata : NULL);
}
#else
struct ib_mr *wren_ib_reg_user_mr_dmabuf(struct ib_pd *ibpd, u64 offset,
					 u64 length, u64 virt, int fd, int access,
					 struct ib_udata *udata)
{
	return __wren_ib_reg_user_mr_dmabuf(ibpd, offset, length, virt, fd, access,
					    udata);
}
#endif

/*
 * ib_core's DMA MR (ib_alloc_pd() without IBK_LOCAL_DMA_LKEY, or a ULP's
 * ib_get_dma_mr()): the reserved lkey, which maps bus addresses 1:1 for
 * local access on kernel QPs.  It is never an rkey, so remote rights are
 * refused; without the capability there is no DMA MR at all.
 */
struct ib_mr *wren_ib_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct wren_ib_dev *dev = to_wdev(ibpd->device);
	struct wren_ib_mr *mr;

	if (!dev->reserved_lkey || (access & ~IB_ACCESS_LOCAL_WRITE))
		return ERR_PTR(-EOPNOTSUPP);
	mr = kzalloc_obj(*mr, GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->kind = WREN_IB_MR_DMA;
	mr->ibmr.lkey = dev->reserved_lkey;
	mr->ibmr.rkey = 0;
	return &mr->ibmr;
}

int wren_ib_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct wren_ib_mr *mr = to_wmr(ibmr);
	int err;

	if (mr->kind == WREN_IB_MR_DMA || mr->replaced) {
		kfree(mr);	/* nothing on the device */
		return 0;
	}

	/* After DESTROY_MR completes no DMA through the MR runs or starts,
	 * so the pages may be unpinned.  A peer MR's invalidation must not
	 * run meanwhile: it would deactivate whatever has the index next.
	 */
	if (mr->kind == WREN_IB_MR_PEER)
		wren_ib_peer_disarm(mr);
	err = wren_cmd_destroy_mr(to_wdev(ibmr->device)->cdev, mr->index);
	if (err) {
		if (mr->kind == WREN_IB_MR_PEER)
			wren_ib_peer_arm(mr);
		return err;
	}
	if (mr->kind == WREN_IB_MR_FAST_REG)
		wren_ib_free_fast_reg(to_wdev(ibmr->device), mr);
	wren_ib_mr_put_umem(mr);
	kfree(mr);
	return 0;
}

/*
 * IB_MR_REREG_TRANS: new pages need a new MTT reservation, so the new
 * range is a new registration, with new keys (verbs lets a rereg change
 * them), which ib_core puts in the old MR's place before it deregisters
 * the old one.  The old one leaves the device here first, so that a
 * refusal (windows bound to it: -EBUSY) leaves the caller's MR as it was.
 */
static struct ib_mr *wren_ib_rereg_trans(struct wren_ib_mr *mr, int flags,
					 u64 start, u64 length, u64 virt,
					 int access, struct ib_pd *pd,
					 struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(mr->ibmr.device);
	struct ib_mr *new;
	int err;

	if (!(flags & IB_MR_REREG_ACCESS))
		access = mr->access;
	new = __wren_ib_reg_user_mr(pd, start, length, virt, access, udata);
	if (IS_ERR(new))
		return new;
	err = wren_cmd_destroy_mr(dev->cdev, mr->index);
	if (err) {
		new->device = &dev->ibdev;	/* ib_core sets it on success */
		if (wren_ib_dereg_mr(new, NULL))
			ibdev_warn(&dev->ibdev, "MR %u of a refused rereg stays on the device\n",
				   to_wmr(new)->index);
		return ERR_PTR(err);
	}
	wren_ib_mr_put_umem(mr);
	mr->replaced = true;
	return new;
}

/*
 * A new PD or new access rights for a live MR: DEACTIVATE_MR (no DMA
 * through it after that), MODIFY_MR, WRITE_MTT again (the same pages),
 * ACTIVATE_MR; the keys stay.  A new address range is a new registration
 * (wren_ib_rereg_trans()).
 */
struct ib_mr *wren_ib_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				    u64 length, u64 virt, int access,
				    struct ib_pd *pd, struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibmr->device);
	struct wren_ib_mr *mr = to_wmr(ibmr);
	struct wren_modify_mr_in in = {};
	int err, err2;

	err = wren_ib_udata_none(udata);
	if (err)
		return ERR_PTR(err);
	if (!(dev->caps & WREN_CAP_RDMA_MR_INVALIDATE))
		return ERR_PTR(-EOPNOTSUPP);
	if (flags & ~(IB_MR_REREG_PD | IB_MR_REREG_ACCESS | IB_MR_REREG_TRANS))
		return ERR_PTR(-EOPNOTSUPP);
	/* A pinned dma-buf's attachment is the exporter's, not ours to redo;
	 * peer memory is the client's, which may be taking it back.
	 */
	if (mr->kind == WREN_IB_MR_DMABUF || mr->kind == WREN_IB_MR_PEER)
		return ERR_PTR(-EOPNOTSUPP);
	if (flags & IB_MR_REREG_TRANS)
		return wren_ib_rereg_trans(mr, flags, start, length, virt,
					   access, pd, udata);
	in.mr_index = cpu_to_le32(mr->index);
	if (flags & IB_MR_REREG_PD) {
		in.mask |= cpu_to_le32(WREN_MODIFY_MR_PD);
		in.pdn = cpu_to_le32(to_wpd(pd)->pdn);
	}
	if (flags & IB_MR_REREG_ACCESS) {
		err = wren_ib_check_access(dev, access);
		if (err)
			return ERR_PTR(err);
		/* The pages were pinned for the rights asked at registration. */
		if ((access & IB_ACCESS_LOCAL_WRITE) && !mr->umem->writable)
			return ERR_PTR(-EPERM);
		in.mask |= cpu_to_le32(WREN_MODIFY_MR_ACCESS);
		in.access = cpu_to_le32(wren_ib_access(access));
	}
	if (!in.mask)
		return NULL;

	err = wren_cmd_deactivate_mr(dev->cdev, mr->index);
	if (err)
		return ERR_PTR(err);
	err = wren_cmd_modify_mr(dev->cdev, &in);
	/* Valid again, with the new or (on failure) the old attributes:
	 * ACTIVATE_MR wants every entry written since the deactivation.
	 */
	err2 = wren_ib_write_mtt(dev, mr, BIT_ULL(mr->page_shift));
	if (!err2)
		err2 = wren_cmd_activate_mr(dev->cdev, mr->index);
	if (err || err2)
		return ERR_PTR(err ? err : err2);
	if (flags & IB_MR_REREG_ACCESS)
		mr->access = access;
	return NULL;
}

static const char *const wren_ib_mr_kind_names[] = {
	[WREN_IB_MR_USER] = "user",
	[WREN_IB_MR_DMA] = "dma",
	[WREN_IB_MR_FAST_REG] = "fast_reg",
	[WREN_IB_MR_DMABUF] = "dma-buf",
	[WREN_IB_MR_PEER] = "peer",
};

int wren_ib_fill_res_mr_entry(struct sk_buff *msg, struct ib_mr *ibmr)
{
	struct wren_ib_mr *mr = to_wmr(ibmr);
	struct nlattr *nest = wren_ib_res_nest(msg);
	bool overflow;

	if (!nest)
		return -EMSGSIZE;

	overflow = rdma_nl_put_driver_string(msg, "kind",
					     wren_ib_mr_kind_names[mr->kind]) ||
		   rdma_nl_put_driver_u32(msg, "index", mr->index) ||
		   rdma_nl_put_driver_u32(msg, "page_shift", mr->page_shift) ||
		   rdma_nl_put_driver_u32(msg, "num_mtt", mr->num_mtt);
	if (!overflow && mr->kind == WREN_IB_MR_PEER)
		overflow = wren_ib_peer_fill_res(msg, mr);
	return wren_ib_res_end(msg, nest, overflow);
}

/*
 * Memory windows (WREN_CAP_RDMA_MW): the device object only.  Binding,
 * local and remote invalidation are work requests that userspace posts
 * (BIND_MW, LOCAL_INV, SEND_INV), so the kernel never learns whether a
 * window is bound; the device keeps that, and refuses to destroy an MR
 * that windows are bound to (ibv_dereg_mr() then fails with EBUSY).
 * Kernel consumers have no window verbs in ib_core.
 */
int wren_ib_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibmw->device);
	struct wren_ib_mw *mw = to_wmw(ibmw);
	struct wren_cmd_mr_result res;
	u8 type;
	int err;

	err = wren_ib_udata_none(udata);
	if (err)
		return err;
	switch (ibmw->type) {
	case IB_MW_TYPE_1:
		type = WREN_MW_TYPE_1;
		break;
	case IB_MW_TYPE_2:
		type = WREN_MW_TYPE_2;
		break;
	default:
		return -EINVAL;
	}
	err = wren_cmd_create_mw(dev->cdev, to_wpd(ibmw->pd)->pdn, type,
				 (u8)atomic_inc_return(&dev->key_tag), &res);
	if (err)
		return err;
	mw->index = res.index;
	ibmw->rkey = res.key;
	return 0;
}

int wren_ib_dealloc_mw(struct ib_mw *ibmw)
{
	return wren_cmd_destroy_mw(to_wdev(ibmw->device)->cdev,
				   to_wmw(ibmw)->index);
}
