// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wtgpu_dmabuf.c: WTGPU_EXPORT, a dma-buf of part of an allocation, and
 * the dma-buf's ops: peer-to-peer importers only, one sg entry per 64 KiB
 * GPU page, mapped with dma_map_resource() (BAR memory has no struct
 * pages).  The dma-buf holds a reference to its allocation.  Called by
 * wtgpu_cdev.c's ioctl; calls wtgpu_alloc.c.
 */
#include "wtgpu.h"

static int wtgpu_dmabuf_attach(struct dma_buf *dmabuf,
			       struct dma_buf_attachment *attach)
{
	/* BAR memory has no struct pages: only peer-to-peer importers. */
	if (!attach->peer2peer)
		return -EOPNOTSUPP;
	return 0;
}

static void wtgpu_sg_unmap(struct dma_buf_attachment *attach,
			   struct sg_table *sgt, unsigned int n,
			   enum dma_data_direction dir)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sg(sgt->sgl, sg, n, i)
		dma_unmap_resource(attach->dev, sg_dma_address(sg),
				   sg_dma_len(sg), dir, 0);
}

static struct sg_table *wtgpu_map_dma_buf(struct dma_buf_attachment *attach,
					  enum dma_data_direction dir)
{
	struct wtgpu_dmabuf *db = attach->dmabuf->priv;
	struct wtgpu_dev *gpu = db->alloc->gpu;
	unsigned int n = db->length >> WTGPU_PAGE_SHIFT;
	struct scatterlist *sg;
	struct sg_table *sgt;
	unsigned int i;
	int ret;

	sgt = kzalloc(sizeof(*sgt), GFP_KERNEL);
	if (!sgt)
		return ERR_PTR(-ENOMEM);
	ret = sg_alloc_table(sgt, n, GFP_KERNEL);
	if (ret) {
		kfree(sgt);
		return ERR_PTR(ret);
	}
	for_each_sgtable_sg(sgt, sg, i) {
		phys_addr_t phys = gpu->bar_phys + db->offset +
				   ((u64)i << WTGPU_PAGE_SHIFT);
		dma_addr_t addr;

		/* No page behind it: only the DMA half of the entry is set. */
		addr = dma_map_resource(attach->dev, phys, WTGPU_PAGE_SIZE, dir, 0);
		if (dma_mapping_error(attach->dev, addr)) {
			wtgpu_sg_unmap(attach, sgt, i, dir);
			sg_free_table(sgt);
			kfree(sgt);
			return ERR_PTR(-EIO);
		}
		sg_dma_address(sg) = addr;
		sg_dma_len(sg) = WTGPU_PAGE_SIZE;
	}
	atomic64_inc(&gpu->c.dmabuf_maps);
	return sgt;
}

static void wtgpu_unmap_dma_buf(struct dma_buf_attachment *attach,
				struct sg_table *sgt,
				enum dma_data_direction dir)
{
	struct wtgpu_dmabuf *db = attach->dmabuf->priv;

	wtgpu_sg_unmap(attach, sgt, sgt->orig_nents, dir);
	sg_free_table(sgt);
	kfree(sgt);
	atomic64_dec(&db->alloc->gpu->c.dmabuf_maps);
}

static void wtgpu_dmabuf_release(struct dma_buf *dmabuf)
{
	struct wtgpu_dmabuf *db = dmabuf->priv;

	atomic64_dec(&db->alloc->gpu->c.dmabufs);
	wtgpu_alloc_put(db->alloc);
	kfree(db);
}

static const struct dma_buf_ops wtgpu_dmabuf_ops = {
	.attach = wtgpu_dmabuf_attach,
	.map_dma_buf = wtgpu_map_dma_buf,
	.unmap_dma_buf = wtgpu_unmap_dma_buf,
	.release = wtgpu_dmabuf_release,
};

/**
 * wtgpu_ioc_export() - WTGPU_EXPORT: a dma-buf of part of an allocation
 * @f: the file, owner of the allocation
 * @arg: the user's struct wtgpu_export
 *
 * Return: 0 with the new fd in @arg's fd, or -EFAULT, -EINVAL (flags other
 * than O_CLOEXEC, a range not GPU-page aligned or not within one of @f's
 * allocations), -ENOMEM, or the error of dma_buf_export()/dma_buf_fd().
 */
int wtgpu_ioc_export(struct wtgpu_file *f, void __user *arg)
{
	DEFINE_DMA_BUF_EXPORT_INFO(exp_info);
	struct wtgpu_export req;
	struct wtgpu_dmabuf *db;
	struct dma_buf *dmabuf;
	struct wtgpu_mem *a;
	int fd;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (req.flags & ~O_CLOEXEC)
		return -EINVAL;
	if (!req.length || (req.offset | req.length) & WTGPU_GPU_MASK)
		return -EINVAL;
	db = kzalloc(sizeof(*db), GFP_KERNEL);
	if (!db)
		return -ENOMEM;
	mutex_lock(&wtgpu_lock);
	a = wtgpu_alloc_find(f, req.offset, req.length);
	if (a)
		kref_get(&a->kref);
	mutex_unlock(&wtgpu_lock);
	if (!a) {
		kfree(db);
		return -EINVAL;
	}
	db->alloc = a;
	db->offset = req.offset;
	db->length = req.length;

	exp_info.ops = &wtgpu_dmabuf_ops;
	exp_info.size = req.length;
	exp_info.flags = O_RDWR;
	exp_info.priv = db;
	dmabuf = dma_buf_export(&exp_info);
	if (IS_ERR(dmabuf)) {
		wtgpu_alloc_put(a);
		kfree(db);
		return PTR_ERR(dmabuf);
	}
	atomic64_inc(&a->gpu->c.dmabufs);

	fd = dma_buf_fd(dmabuf, req.flags);
	if (fd < 0) {
		dma_buf_put(dmabuf);	/* release drops the allocation */
		return fd;
	}
	req.fd = fd;
	if (copy_to_user(arg, &req, sizeof(req)))
		return -EFAULT;		/* the fd stays the process's */
	return 0;
}
