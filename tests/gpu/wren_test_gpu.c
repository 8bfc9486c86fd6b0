// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wren_test_gpu.ko: the stand-in driver for the emulated GPU of the test
 * bench (hw/qemu/wren_gpu.c, PCI 1f57:0002).  A test module, not part of
 * the product.  BAR2 is "GPU memory": processes allocate it in 64 KiB GPU
 * pages through /dev/wren_gpu<N> and map it, and the module hands it to
 * RDMA the two ways a GPU driver does:
 *
 *  - as dma-buf (WTGPU_EXPORT), for peer-to-peer importers, one sg entry
 *    per GPU page, mapped with dma_map_resource() and without struct pages;
 *  - through NVIDIA's third-party P2P interface (nv-p2p.h, the header of
 *    Debian's nvidia-kernel-dkms, never copied here), which is what
 *    nvidia-peermem.ko consumes: nvidia_p2p_get_pages() on a process
 *    virtual address of one of our mappings, nvidia_p2p_dma_map_pages()
 *    for the NIC, and the free callback when the memory goes away under a
 *    live registration.
 *
 * The uapi and its semantics are in wren_test_gpu.h.
 *
 * Lifetimes.  An allocation is referenced by its owner (the file, until
 * WTGPU_FREE or close), by every VMA mapping it, by every dma-buf of it and
 * by every P2P page table on it; its BAR pages return to the allocator with
 * the last reference.  Page tables live on wtgpu_tables; every nvidia_p2p_*
 * entry point looks the caller's pointer up there before using it, so that
 * a call on a table the free callback already took fails with -EINVAL
 * instead of touching freed memory, as nvidia-peermem expects ("inflight
 * put_pages with valid pointer will fail gracefully").
 *
 * Locking.  One mutex, wtgpu_lock, for allocators, file lists and page
 * tables; it nests inside mmap_lock (mmap, VMA close and get_pages all run
 * under mmap_lock) and is never held across a free callback.
 */
#include <linux/bitmap.h>
#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/types.h>
#include <linux/uaccess.h>

#include "nv-p2p.h"
#include "wren_test_gpu.h"

#define WTGPU_NAME	"wren_test_gpu"
#define WTGPU_BAR	2
#define WTGPU_GPU_MASK	(WTGPU_PAGE_SIZE - 1)

struct wtgpu_counters {
	atomic64_t allocs;
	atomic64_t bar_free;
	atomic64_t p2p_tables;
	atomic64_t p2p_pages;
	atomic64_t p2p_dma_maps;
	atomic64_t dmabufs;
	atomic64_t dmabuf_maps;
	atomic64_t free_callbacks;
};

struct wtgpu_dev {
	struct kref kref;
	struct pci_dev *pdev;
	struct miscdevice misc;
	char name[24];
	int id;
	bool dead;			/* removed; under wtgpu_lock */
	phys_addr_t bar_phys;
	u64 bar_size;
	unsigned long npages;		/* GPU pages in the BAR */
	unsigned long *bitmap;		/* under wtgpu_lock */
	struct wtgpu_counters c;
};

struct wtgpu_file {
	struct wtgpu_dev *gpu;
	struct list_head allocs;	/* owned allocations, under wtgpu_lock */
};

struct wtgpu_mem {
	struct kref kref;
	struct wtgpu_dev *gpu;		/* holds a reference */
	struct list_head node;		/* owner's list while not freed */
	struct list_head tables;	/* P2P page tables on it */
	u64 offset;			/* in the BAR */
	u64 size;
	bool freed;			/* WTGPU_FREE or close: no new users */
};

struct wtgpu_p2p {
	struct nvidia_p2p_page_table pt;	/* what the consumer sees */
	struct kref kref;
	struct list_head node;		/* wtgpu_tables; empty once returned */
	struct list_head alloc_node;	/* alloc->tables */
	struct list_head revoke_node;	/* a revoker's local list */
	struct list_head maps;		/* its wtgpu_p2p_map */
	struct wtgpu_mem *alloc;	/* holds a reference */
	u64 va;
	u64 offset;			/* BAR offset of the first page */
	bool persistent;
	bool revoked;			/* free callback called or due */
	void (*free_callback)(void *data);
	void *data;
	struct nvidia_p2p_page *page_array;
};

struct wtgpu_p2p_map {
	struct nvidia_p2p_dma_mapping m;	/* what the consumer sees */
	struct list_head node;		/* table->maps */
};

struct wtgpu_dmabuf {
	struct wtgpu_mem *alloc;	/* holds a reference */
	u64 offset;			/* BAR offset */
	u64 length;
};

static DEFINE_MUTEX(wtgpu_lock);
static LIST_HEAD(wtgpu_tables);
static DEFINE_IDA(wtgpu_ida);

static void wtgpu_vm_set_flags(struct vm_area_struct *vma, unsigned long flags)
{
#ifdef HAVE_VM_FLAGS_SET
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

/* ---- devices and allocations ---------------------------------------- */

static void wtgpu_dev_release(struct kref *kref)
{
	struct wtgpu_dev *gpu = container_of(kref, struct wtgpu_dev, kref);

	ida_free(&wtgpu_ida, gpu->id);
	bitmap_free(gpu->bitmap);
	pci_dev_put(gpu->pdev);
	kfree(gpu);
}

static void wtgpu_dev_put(struct wtgpu_dev *gpu)
{
	kref_put(&gpu->kref, wtgpu_dev_release);
}

/* Called with wtgpu_lock held; the last reference returns the BAR pages. */
static void wtgpu_alloc_release_locked(struct kref *kref)
{
	struct wtgpu_mem *a = container_of(kref, struct wtgpu_mem, kref);
	struct wtgpu_dev *gpu = a->gpu;

	lockdep_assert_held(&wtgpu_lock);
	WARN_ON(!list_empty(&a->tables));
	bitmap_clear(gpu->bitmap, a->offset >> WTGPU_PAGE_SHIFT,
		     a->size >> WTGPU_PAGE_SHIFT);
	atomic64_add(a->size, &gpu->c.bar_free);
	atomic64_dec(&gpu->c.allocs);
	kfree(a);
	wtgpu_dev_put(gpu);
}

/* kref_put_mutex()'s release: called with wtgpu_lock held, drops it. */
static void wtgpu_alloc_release(struct kref *kref)
{
	wtgpu_alloc_release_locked(kref);
	mutex_unlock(&wtgpu_lock);
}

static void wtgpu_alloc_put(struct wtgpu_mem *a)
{
	kref_put_mutex(&a->kref, wtgpu_alloc_release, &wtgpu_lock);
}

static void wtgpu_alloc_put_locked(struct wtgpu_mem *a)
{
	kref_put(&a->kref, wtgpu_alloc_release_locked);
}

static struct wtgpu_mem *wtgpu_alloc_new(struct wtgpu_file *f, u64 size)
{
	struct wtgpu_dev *gpu = f->gpu;
	unsigned long n, first;
	struct wtgpu_mem *a;

	if (!size || size > gpu->bar_size)
		return ERR_PTR(-EINVAL);
	size = ALIGN(size, WTGPU_PAGE_SIZE);
	n = size >> WTGPU_PAGE_SHIFT;

	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return ERR_PTR(-ENOMEM);
	kref_init(&a->kref);
	INIT_LIST_HEAD(&a->tables);

	mutex_lock(&wtgpu_lock);
	if (gpu->dead) {
		mutex_unlock(&wtgpu_lock);
		kfree(a);
		return ERR_PTR(-ENODEV);
	}
	first = bitmap_find_next_zero_area(gpu->bitmap, gpu->npages, 0, n, 0);
	if (first >= gpu->npages) {
		mutex_unlock(&wtgpu_lock);
		kfree(a);
		return ERR_PTR(-ENOSPC);
	}
	bitmap_set(gpu->bitmap, first, n);
	a->gpu = gpu;
	kref_get(&gpu->kref);
	a->offset = (u64)first << WTGPU_PAGE_SHIFT;
	a->size = size;
	list_add_tail(&a->node, &f->allocs);
	atomic64_sub(size, &gpu->c.bar_free);
	atomic64_inc(&gpu->c.allocs);
	mutex_unlock(&wtgpu_lock);
	return a;
}

/* The owned allocation holding [offset, offset + len), or NULL. */
static struct wtgpu_mem *wtgpu_alloc_find(struct wtgpu_file *f, u64 offset,
					  u64 len)
{
	struct wtgpu_mem *a;

	lockdep_assert_held(&wtgpu_lock);
	list_for_each_entry(a, &f->allocs, node) {
		if (offset >= a->offset && len <= a->size &&
		    offset - a->offset <= a->size - len)
			return a;
	}
	return NULL;
}

/* ---- P2P page tables: revocation ------------------------------------ */

static void wtgpu_p2p_release(struct kref *kref)
{
	struct wtgpu_p2p *t = container_of(kref, struct wtgpu_p2p, kref);

	kfree(t->pt.pages);
	kfree(t->page_array);
	kfree(t);
}

static void wtgpu_p2p_put(struct wtgpu_p2p *t)
{
	kref_put(&t->kref, wtgpu_p2p_release);
}

static void wtgpu_p2p_map_free(struct wtgpu_p2p_map *map)
{
	struct nvidia_p2p_dma_mapping *m = &map->m;
	u32 i;

	for (i = 0; i < m->entries; i++)
		dma_unmap_resource(&m->pci_dev->dev, m->dma_addresses[i],
				   WTGPU_PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	list_del(&map->node);
	pci_dev_put(m->pci_dev);
	kfree(m->dma_addresses);
	kfree(map);
}

/*
 * Take a table off wtgpu_tables: its DMA mappings are undone, its pages
 * no longer hold the allocation, and the consumer's pointer stops being
 * found.  The memory goes with the last kref.
 */
static void wtgpu_p2p_retire_locked(struct wtgpu_p2p *t)
{
	struct wtgpu_dev *gpu = t->alloc->gpu;
	struct wtgpu_p2p_map *map, *tmp;

	lockdep_assert_held(&wtgpu_lock);
	list_for_each_entry_safe(map, tmp, &t->maps, node) {
		wtgpu_p2p_map_free(map);
		atomic64_dec(&gpu->c.p2p_dma_maps);
	}
	list_del_init(&t->node);
	list_del_init(&t->alloc_node);
	atomic64_dec(&gpu->c.p2p_tables);
	atomic64_sub(t->pt.entries, &gpu->c.p2p_pages);
	wtgpu_alloc_put_locked(t->alloc);
	t->alloc = NULL;
	wtgpu_p2p_put(t);
}

/* Mark @a's non-persistent tables revoked and queue them on @list. */
static void wtgpu_revoke_collect(struct wtgpu_mem *a, struct list_head *list)
{
	struct wtgpu_p2p *t;

	lockdep_assert_held(&wtgpu_lock);
	list_for_each_entry(t, &a->tables, alloc_node) {
		if (t->persistent || t->revoked)
			continue;
		t->revoked = true;
		kref_get(&t->kref);
		list_add_tail(&t->revoke_node, list);
	}
}

/*
 * Call the free callbacks of the queued tables, without wtgpu_lock, as
 * the memory is going away.  nvidia-peermem's callback invalidates the
 * MR and then frees the DMA mapping and the page table itself; whatever
 * a consumer leaves is taken back here once its callback has returned.
 */
static void wtgpu_revoke_run(struct wtgpu_dev *gpu, struct list_head *list)
{
	struct wtgpu_p2p *t, *tmp;

	list_for_each_entry(t, list, revoke_node) {
		t->free_callback(t->data);
		atomic64_inc(&gpu->c.free_callbacks);
	}
	mutex_lock(&wtgpu_lock);
	list_for_each_entry_safe(t, tmp, list, revoke_node) {
		list_del(&t->revoke_node);
		if (!list_empty(&t->node)) {
			dev_dbg(&gpu->pdev->dev,
				"page table of va %#llx not freed by its callback\n",
				t->va);
			wtgpu_p2p_retire_locked(t);
		}
		wtgpu_p2p_put(t);
	}
	mutex_unlock(&wtgpu_lock);
}

/* ---- the misc device ------------------------------------------------- */

static int wtgpu_open(struct inode *inode, struct file *file)
{
	struct miscdevice *misc = file->private_data;
	struct wtgpu_dev *gpu = container_of(misc, struct wtgpu_dev, misc);
	struct wtgpu_file *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	INIT_LIST_HEAD(&f->allocs);
	mutex_lock(&wtgpu_lock);
	if (gpu->dead) {
		mutex_unlock(&wtgpu_lock);
		kfree(f);
		return -ENODEV;
	}
	kref_get(&gpu->kref);
	mutex_unlock(&wtgpu_lock);
	f->gpu = gpu;
	file->private_data = f;
	return 0;
}

/* Free an owned allocation: @a leaves the owner's list under the lock. */
static void wtgpu_alloc_free(struct wtgpu_dev *gpu, struct wtgpu_mem *a,
			     struct list_head *revoke)
{
	lockdep_assert_held(&wtgpu_lock);
	list_del_init(&a->node);
	a->freed = true;
	wtgpu_revoke_collect(a, revoke);
}

static int wtgpu_release(struct inode *inode, struct file *file)
{
	struct wtgpu_file *f = file->private_data;
	struct wtgpu_dev *gpu = f->gpu;
	struct wtgpu_mem *a, *tmp;
	LIST_HEAD(revoke);
	LIST_HEAD(freed);

	mutex_lock(&wtgpu_lock);
	list_for_each_entry_safe(a, tmp, &f->allocs, node) {
		wtgpu_alloc_free(gpu, a, &revoke);
		list_add_tail(&a->node, &freed);
	}
	mutex_unlock(&wtgpu_lock);
	wtgpu_revoke_run(gpu, &revoke);
	list_for_each_entry_safe(a, tmp, &freed, node) {
		list_del_init(&a->node);
		wtgpu_alloc_put(a);
	}
	wtgpu_dev_put(gpu);
	kfree(f);
	return 0;
}

static void wtgpu_vm_open(struct vm_area_struct *vma)
{
	struct wtgpu_mem *a = vma->vm_private_data;

	kref_get(&a->kref);
}

static void wtgpu_vm_close(struct vm_area_struct *vma)
{
	wtgpu_alloc_put(vma->vm_private_data);
}

static const struct vm_operations_struct wtgpu_vm_ops = {
	.open = wtgpu_vm_open,
	.close = wtgpu_vm_close,
};

static int wtgpu_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct wtgpu_file *f = file->private_data;
	struct wtgpu_dev *gpu = f->gpu;
	u64 len = vma->vm_end - vma->vm_start;
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	struct wtgpu_mem *a;
	int ret;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	mutex_lock(&wtgpu_lock);
	a = wtgpu_alloc_find(f, off, len);
	if (!a) {
		mutex_unlock(&wtgpu_lock);
		return -EINVAL;
	}
	kref_get(&a->kref);
	mutex_unlock(&wtgpu_lock);

	wtgpu_vm_set_flags(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_page_prot = pgprot_writecombine(vma->vm_page_prot);
	vma->vm_private_data = a;
	vma->vm_ops = &wtgpu_vm_ops;
	ret = io_remap_pfn_range(vma, vma->vm_start,
				 (gpu->bar_phys + off) >> PAGE_SHIFT, len,
				 vma->vm_page_prot);
	if (ret) {
		/* The VMA is not set up: no close() will drop the reference. */
		vma->vm_private_data = NULL;
		vma->vm_ops = NULL;
		wtgpu_alloc_put(a);
	}
	return ret;
}

static int wtgpu_ioc_alloc(struct wtgpu_file *f, void __user *arg)
{
	struct wtgpu_alloc req;
	struct wtgpu_mem *a;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	a = wtgpu_alloc_new(f, req.size);
	if (IS_ERR(a))
		return PTR_ERR(a);
	req.offset = a->offset;
	req.size = a->size;
	if (copy_to_user(arg, &req, sizeof(req))) {
		LIST_HEAD(revoke);

		mutex_lock(&wtgpu_lock);
		wtgpu_alloc_free(f->gpu, a, &revoke);
		mutex_unlock(&wtgpu_lock);
		wtgpu_alloc_put(a);
		return -EFAULT;
	}
	return 0;
}

static int wtgpu_ioc_free(struct wtgpu_file *f, void __user *arg)
{
	struct wtgpu_free req;
	struct wtgpu_mem *a;
	struct wtgpu_p2p *t;
	LIST_HEAD(revoke);

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	mutex_lock(&wtgpu_lock);
	list_for_each_entry(a, &f->allocs, node)
		if (a->offset == req.offset)
			goto found;
	mutex_unlock(&wtgpu_lock);
	return -EINVAL;
found:
	list_for_each_entry(t, &a->tables, alloc_node) {
		if (t->persistent) {
			mutex_unlock(&wtgpu_lock);
			return -EBUSY;
		}
	}
	wtgpu_alloc_free(f->gpu, a, &revoke);
	mutex_unlock(&wtgpu_lock);
	wtgpu_revoke_run(f->gpu, &revoke);
	wtgpu_alloc_put(a);
	return 0;
}

/* ---- dma-buf export -------------------------------------------------- */

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

static int wtgpu_ioc_export(struct wtgpu_file *f, void __user *arg)
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

static void wtgpu_info_fill(struct wtgpu_dev *gpu, struct wtgpu_info *info)
{
	memset(info, 0, sizeof(*info));
	info->bar_size = gpu->bar_size;
	info->bar_free = atomic64_read(&gpu->c.bar_free);
	info->allocs = atomic64_read(&gpu->c.allocs);
	info->p2p_tables = atomic64_read(&gpu->c.p2p_tables);
	info->p2p_pages = atomic64_read(&gpu->c.p2p_pages);
	info->p2p_dma_maps = atomic64_read(&gpu->c.p2p_dma_maps);
	info->dmabufs = atomic64_read(&gpu->c.dmabufs);
	info->dmabuf_maps = atomic64_read(&gpu->c.dmabuf_maps);
	info->free_callbacks = atomic64_read(&gpu->c.free_callbacks);
}

static long wtgpu_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct wtgpu_file *f = file->private_data;
	void __user *uarg = (void __user *)arg;
	struct wtgpu_info info;

	switch (cmd) {
	case WTGPU_ALLOC:
		return wtgpu_ioc_alloc(f, uarg);
	case WTGPU_FREE:
		return wtgpu_ioc_free(f, uarg);
	case WTGPU_EXPORT:
		return wtgpu_ioc_export(f, uarg);
	case WTGPU_INFO:
		wtgpu_info_fill(f->gpu, &info);
		return copy_to_user(uarg, &info, sizeof(info)) ? -EFAULT : 0;
	}
	return -ENOTTY;
}

static const struct file_operations wtgpu_fops = {
	.owner = THIS_MODULE,
	.open = wtgpu_open,
	.release = wtgpu_release,
	.mmap = wtgpu_mmap,
	.unlocked_ioctl = wtgpu_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

/* ---- NVIDIA's third-party P2P interface (nv-p2p.h) ------------------- */

/* The live table behind a consumer's pointer, or NULL. */
static struct wtgpu_p2p *wtgpu_p2p_find(struct nvidia_p2p_page_table *pt)
{
	struct wtgpu_p2p *t;

	lockdep_assert_held(&wtgpu_lock);
	list_for_each_entry(t, &wtgpu_tables, node)
		if (&t->pt == pt)
			return t;
	return NULL;
}

static int wtgpu_p2p_get(u64 va, u64 len, struct nvidia_p2p_page_table **out,
			 void (*free_callback)(void *data), void *data)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct wtgpu_mem *a;
	struct wtgpu_dev *gpu;
	struct wtgpu_p2p *t;
	u64 off, i, n;
	int ret = -EINVAL;

	if (!out || !len || (va | len) & WTGPU_GPU_MASK || va + len < va || !mm)
		return -EINVAL;
	n = len >> WTGPU_PAGE_SHIFT;
	if (n > U32_MAX)
		return -EINVAL;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->page_array = kcalloc(n, sizeof(*t->page_array), GFP_KERNEL);
	t->pt.pages = kcalloc(n, sizeof(*t->pt.pages), GFP_KERNEL);
	if (!t->page_array || !t->pt.pages) {
		ret = -ENOMEM;
		goto err_free;
	}
	kref_init(&t->kref);
	INIT_LIST_HEAD(&t->maps);
	INIT_LIST_HEAD(&t->revoke_node);

	mmap_read_lock(mm);
	vma = vma_lookup(mm, va);
	/* Someone else's memory (host memory, another driver's): not ours. */
	if (!vma || vma->vm_ops != &wtgpu_vm_ops || va + len > vma->vm_end)
		goto err_unlock_mm;
	a = vma->vm_private_data;
	gpu = a->gpu;
	off = ((u64)vma->vm_pgoff << PAGE_SHIFT) + (va - vma->vm_start);
	if (off & WTGPU_GPU_MASK)
		goto err_unlock_mm;

	mutex_lock(&wtgpu_lock);
	if (a->freed || gpu->dead)
		goto err_unlock;
	t->alloc = a;
	kref_get(&a->kref);
	t->va = va;
	t->offset = off;
	t->persistent = !free_callback;
	t->free_callback = free_callback;
	t->data = data;
	t->pt.version = NVIDIA_P2P_PAGE_TABLE_VERSION;
	t->pt.page_size = NVIDIA_P2P_PAGE_SIZE_64KB;
	t->pt.entries = n;
	t->pt.gpu_uuid = NULL;
	for (i = 0; i < n; i++) {
		t->page_array[i].physical_address = gpu->bar_phys + off +
						    (i << WTGPU_PAGE_SHIFT);
		t->pt.pages[i] = &t->page_array[i];
	}
	list_add_tail(&t->node, &wtgpu_tables);
	list_add_tail(&t->alloc_node, &a->tables);
	atomic64_inc(&gpu->c.p2p_tables);
	atomic64_add(n, &gpu->c.p2p_pages);
	mutex_unlock(&wtgpu_lock);
	mmap_read_unlock(mm);
	*out = &t->pt;
	return 0;

err_unlock:
	mutex_unlock(&wtgpu_lock);
err_unlock_mm:
	mmap_read_unlock(mm);
err_free:
	kfree(t->pt.pages);
	kfree(t->page_array);
	kfree(t);
	return ret;
}

static int wtgpu_p2p_put_common(u64 va, struct nvidia_p2p_page_table *pt,
				bool persistent)
{
	struct wtgpu_p2p *t;
	int ret = -EINVAL;

	mutex_lock(&wtgpu_lock);
	t = wtgpu_p2p_find(pt);
	/* Gone through its free callback, or not a table of ours. */
	if (t && !t->revoked && t->persistent == persistent && t->va == va) {
		wtgpu_p2p_retire_locked(t);
		ret = 0;
	}
	mutex_unlock(&wtgpu_lock);
	return ret;
}

int nvidia_p2p_init_mapping(u64 p2p_token, struct nvidia_p2p_params *params,
			    void (*destroy_callback)(void *data), void *data)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL(nvidia_p2p_init_mapping);

int nvidia_p2p_destroy_mapping(u64 p2p_token)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL(nvidia_p2p_destroy_mapping);

int nvidia_p2p_get_pages(u64 p2p_token, u32 va_space,
			 u64 virtual_address, u64 length,
			 struct nvidia_p2p_page_table **page_table,
			 void (*free_callback)(void *data), void *data)
{
	/* Tokens belong to the long-gone init_mapping API. */
	if (p2p_token || va_space || !free_callback)
		return -EINVAL;
	return wtgpu_p2p_get(virtual_address, length, page_table,
			     free_callback, data);
}
EXPORT_SYMBOL(nvidia_p2p_get_pages);

int nvidia_p2p_get_pages_persistent(u64 virtual_address, u64 length,
				    struct nvidia_p2p_page_table **page_table,
				    u32 flags)
{
	if (flags)
		return -EINVAL;
	return wtgpu_p2p_get(virtual_address, length, page_table, NULL, NULL);
}
EXPORT_SYMBOL(nvidia_p2p_get_pages_persistent);

int nvidia_p2p_put_pages(u64 p2p_token, u32 va_space,
			 u64 virtual_address,
			 struct nvidia_p2p_page_table *page_table)
{
	if (p2p_token || va_space)
		return -EINVAL;
	return wtgpu_p2p_put_common(virtual_address, page_table, false);
}
EXPORT_SYMBOL(nvidia_p2p_put_pages);

int nvidia_p2p_put_pages_persistent(u64 virtual_address,
				    struct nvidia_p2p_page_table *page_table,
				    u32 flags)
{
	if (flags)
		return -EINVAL;
	return wtgpu_p2p_put_common(virtual_address, page_table, true);
}
EXPORT_SYMBOL(nvidia_p2p_put_pages_persistent);

/* Only from a free callback, as in NVIDIA's driver. */
int nvidia_p2p_free_page_table(struct nvidia_p2p_page_table *page_table)
{
	struct wtgpu_p2p *t;
	int ret = -EINVAL;

	mutex_lock(&wtgpu_lock);
	t = wtgpu_p2p_find(page_table);
	if (t && t->revoked) {
		wtgpu_p2p_retire_locked(t);
		ret = 0;
	}
	mutex_unlock(&wtgpu_lock);
	return ret;
}
EXPORT_SYMBOL(nvidia_p2p_free_page_table);

int nvidia_p2p_dma_map_pages(struct pci_dev *peer,
			     struct nvidia_p2p_page_table *page_table,
			     struct nvidia_p2p_dma_mapping **dma_mapping)
{
	struct wtgpu_p2p_map *map;
	struct wtgpu_p2p *t;
	u32 i, n;
	int ret;

	if (!peer || !page_table || !dma_mapping)
		return -EINVAL;
	map = kzalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		return -ENOMEM;

	mutex_lock(&wtgpu_lock);
	t = wtgpu_p2p_find(page_table);
	if (!t || t->revoked) {
		ret = -EINVAL;
		goto err;
	}
	n = t->pt.entries;
	map->m.dma_addresses = kcalloc(n, sizeof(*map->m.dma_addresses),
				       GFP_KERNEL);
	if (!map->m.dma_addresses) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0; i < n; i++) {
		dma_addr_t addr;

		addr = dma_map_resource(&peer->dev, t->pt.pages[i]->physical_address,
					WTGPU_PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
		if (dma_mapping_error(&peer->dev, addr)) {
			while (i--)
				dma_unmap_resource(&peer->dev,
						   map->m.dma_addresses[i],
						   WTGPU_PAGE_SIZE,
						   DMA_BIDIRECTIONAL, 0);
			ret = -EIO;
			goto err;
		}
		map->m.dma_addresses[i] = addr;
	}
	map->m.version = NVIDIA_P2P_DMA_MAPPING_VERSION;
	map->m.page_size_type = NVIDIA_P2P_PAGE_SIZE_64KB;
	map->m.entries = n;
	map->m.pci_dev = pci_dev_get(peer);
	list_add_tail(&map->node, &t->maps);
	atomic64_inc(&t->alloc->gpu->c.p2p_dma_maps);
	mutex_unlock(&wtgpu_lock);
	*dma_mapping = &map->m;
	return 0;

err:
	mutex_unlock(&wtgpu_lock);
	kfree(map->m.dma_addresses);
	kfree(map);
	return ret;
}
EXPORT_SYMBOL(nvidia_p2p_dma_map_pages);

/* The table and mapping behind the consumer's pointers, or NULL. */
static struct wtgpu_p2p_map *wtgpu_p2p_map_find(struct wtgpu_p2p *t,
						struct nvidia_p2p_dma_mapping *m)
{
	struct wtgpu_p2p_map *map;

	list_for_each_entry(map, &t->maps, node)
		if (&map->m == m)
			return map;
	return NULL;
}

int nvidia_p2p_dma_unmap_pages(struct pci_dev *peer,
			       struct nvidia_p2p_page_table *page_table,
			       struct nvidia_p2p_dma_mapping *dma_mapping)
{
	struct wtgpu_p2p_map *map = NULL;
	struct wtgpu_p2p *t;
	int ret = -EINVAL;

	mutex_lock(&wtgpu_lock);
	t = wtgpu_p2p_find(page_table);
	if (t)
		map = wtgpu_p2p_map_find(t, dma_mapping);
	if (map && map->m.pci_dev == peer) {
		wtgpu_p2p_map_free(map);
		atomic64_dec(&t->alloc->gpu->c.p2p_dma_maps);
		ret = 0;
	}
	mutex_unlock(&wtgpu_lock);
	return ret;
}
EXPORT_SYMBOL(nvidia_p2p_dma_unmap_pages);

/* Only from a free callback, as in NVIDIA's driver. */
int nvidia_p2p_free_dma_mapping(struct nvidia_p2p_dma_mapping *dma_mapping)
{
	struct wtgpu_p2p_map *map = NULL;
	struct wtgpu_p2p *t;
	int ret = -EINVAL;

	mutex_lock(&wtgpu_lock);
	list_for_each_entry(t, &wtgpu_tables, node) {
		map = wtgpu_p2p_map_find(t, dma_mapping);
		if (map)
			break;
	}
	if (map && t->revoked) {
		wtgpu_p2p_map_free(map);
		atomic64_dec(&t->alloc->gpu->c.p2p_dma_maps);
		ret = 0;
	}
	mutex_unlock(&wtgpu_lock);
	return ret;
}
EXPORT_SYMBOL(nvidia_p2p_free_dma_mapping);

/* ---- sysfs: the counters, under the PCI device's wren_gpu/ ------------ */

static struct attribute *wtgpu_attrs[];

/* The attributes are in the order of struct wtgpu_info's first u64s. */
static ssize_t wtgpu_counter_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct wtgpu_dev *gpu = pci_get_drvdata(to_pci_dev(dev));
	struct wtgpu_info info;
	const u64 *v = (const u64 *)&info;
	unsigned int i;

	BUILD_BUG_ON(offsetof(struct wtgpu_info, free_callbacks) != 8 * sizeof(u64));
	wtgpu_info_fill(gpu, &info);
	for (i = 0; wtgpu_attrs[i]; i++)
		if (wtgpu_attrs[i] == &attr->attr)
			return sysfs_emit(buf, "%llu\n", v[i]);
	return -EINVAL;
}

#define WTGPU_ATTR(name)						\
	struct device_attribute wtgpu_attr_##name =			\
		__ATTR(name, 0444, wtgpu_counter_show, NULL)

static WTGPU_ATTR(bar_size);
static WTGPU_ATTR(bar_free);
static WTGPU_ATTR(allocs);
static WTGPU_ATTR(p2p_tables);
static WTGPU_ATTR(p2p_pages);
static WTGPU_ATTR(p2p_dma_maps);
static WTGPU_ATTR(dmabufs);
static WTGPU_ATTR(dmabuf_maps);
static WTGPU_ATTR(free_callbacks);

static struct attribute *wtgpu_attrs[] = {
	&wtgpu_attr_bar_size.attr,
	&wtgpu_attr_bar_free.attr,
	&wtgpu_attr_allocs.attr,
	&wtgpu_attr_p2p_tables.attr,
	&wtgpu_attr_p2p_pages.attr,
	&wtgpu_attr_p2p_dma_maps.attr,
	&wtgpu_attr_dmabufs.attr,
	&wtgpu_attr_dmabuf_maps.attr,
	&wtgpu_attr_free_callbacks.attr,
	NULL
};

static const struct attribute_group wtgpu_group = {
	.name = "wren_gpu",
	.attrs = wtgpu_attrs,
};

static const struct attribute_group *wtgpu_groups[] = {
	&wtgpu_group,
	NULL
};

/* ---- PCI ---------------------------------------------------------------- */

static int wtgpu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct wtgpu_dev *gpu;
	int ret;

	if (!(pci_resource_flags(pdev, WTGPU_BAR) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, WTGPU_BAR) < WTGPU_PAGE_SIZE) {
		dev_err(&pdev->dev, "BAR%d is not a memory BAR of 64 KiB or more\n",
			WTGPU_BAR);
		return -ENODEV;
	}
	gpu = kzalloc(sizeof(*gpu), GFP_KERNEL);
	if (!gpu)
		return -ENOMEM;
	gpu->id = ida_alloc(&wtgpu_ida, GFP_KERNEL);
	if (gpu->id < 0) {
		ret = gpu->id;
		kfree(gpu);
		return ret;
	}
	kref_init(&gpu->kref);
	gpu->pdev = pci_dev_get(pdev);
	gpu->bar_phys = pci_resource_start(pdev, WTGPU_BAR);
	gpu->bar_size = pci_resource_len(pdev, WTGPU_BAR) & ~(u64)WTGPU_GPU_MASK;
	gpu->npages = gpu->bar_size >> WTGPU_PAGE_SHIFT;
	atomic64_set(&gpu->c.bar_free, gpu->bar_size);
	gpu->bitmap = bitmap_zalloc(gpu->npages, GFP_KERNEL);
	if (!gpu->bitmap) {
		ret = -ENOMEM;
		goto err_put;
	}

	ret = pci_enable_device_mem(pdev);
	if (ret)
		goto err_put;
	ret = pci_request_region(pdev, WTGPU_BAR, WTGPU_NAME);
	if (ret)
		goto err_disable;
	pci_set_drvdata(pdev, gpu);

	snprintf(gpu->name, sizeof(gpu->name), "wren_gpu%d", gpu->id);
	gpu->misc.minor = MISC_DYNAMIC_MINOR;
	gpu->misc.name = gpu->name;
	gpu->misc.fops = &wtgpu_fops;
	gpu->misc.parent = &pdev->dev;
	gpu->misc.mode = 0600;
	ret = misc_register(&gpu->misc);
	if (ret)
		goto err_release;
	dev_info(&pdev->dev, "/dev/%s: BAR%d %pa, %llu MiB in 64 KiB pages\n",
		 gpu->name, WTGPU_BAR, &gpu->bar_phys, gpu->bar_size >> 20);
	return 0;

err_release:
	pci_release_region(pdev, WTGPU_BAR);
err_disable:
	pci_disable_device(pdev);
err_put:
	wtgpu_dev_put(gpu);
	return ret;
}

static void wtgpu_remove(struct pci_dev *pdev)
{
	struct wtgpu_dev *gpu = pci_get_drvdata(pdev);
	struct wtgpu_p2p *t;
	LIST_HEAD(revoke);
	bool persistent = false;

	misc_deregister(&gpu->misc);
	mutex_lock(&wtgpu_lock);
	gpu->dead = true;
	list_for_each_entry(t, &wtgpu_tables, node) {
		if (t->alloc->gpu != gpu || t->revoked)
			continue;
		if (t->persistent) {
			persistent = true;
			continue;
		}
		t->revoked = true;
		kref_get(&t->kref);
		list_add_tail(&t->revoke_node, &revoke);
	}
	mutex_unlock(&wtgpu_lock);
	wtgpu_revoke_run(gpu, &revoke);
	if (persistent)
		dev_warn(&pdev->dev, "removed under persistent P2P page tables\n");
	pci_release_region(pdev, WTGPU_BAR);
	pci_disable_device(pdev);
	wtgpu_dev_put(gpu);
}

static const struct pci_device_id wtgpu_ids[] = {
	{ PCI_DEVICE(0x1f57, 0x0002) },
	{ }
};
MODULE_DEVICE_TABLE(pci, wtgpu_ids);

static struct pci_driver wtgpu_driver = {
	.name = WTGPU_NAME,
	.id_table = wtgpu_ids,
	.probe = wtgpu_probe,
	.remove = wtgpu_remove,
	.dev_groups = wtgpu_groups,
};
module_pci_driver(wtgpu_driver);

MODULE_DESCRIPTION("Wren test GPU: BAR2 as GPU memory, dma-buf and nvidia_p2p");
MODULE_LICENSE("Dual BSD/GPL");
#ifdef HAVE_MODULE_IMPORT_NS_STRING
MODULE_IMPORT_NS("DMA_BUF");
#else
MODULE_IMPORT_NS(DMA_BUF);
#endif
