// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wren_peer_test.ko: a peer-memory client for testing wren_peer_mem.ko
 * without a GPU.  Host memory in 64 KiB chunks stands in for GPU pages;
 * a process maps it with mmap() of one of the device nodes below, which
 * remap_pfn_range() makes VM_IO | VM_PFNMAP, so ib_umem_get() refuses it
 * and wren_ib.ko asks the registry, as for a GPU BAR mapping:
 *
 *   /dev/wren_peer_test         client "wren_test": invalidates, with
 *                               PEER_MEM_INVALIDATE_UNMAPS (as nv_mem)
 *   /dev/wren_peer_test_legacy  client "wren_test_legacy": invalidates,
 *                               the core unmaps (older MLNX_OFED flow)
 *   /dev/wren_peer_test_nc      client "wren_test_nc": never invalidates
 *                               (as nv_mem_nc)
 *   /dev/wren_peer_test_none    memory no client claims
 *
 * write() of anything to the file invalidates every mapped registration
 * of its memory, as freeing GPU memory does; read() gives the file's
 * counters as "name value" lines.  Test code only.
 */
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched/mm.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <rdma/peer_mem.h>

#define WPT_CHUNK	SZ_64K
#define WPT_MAX_LEN	SZ_64M

enum wpt_kind { WPT_UNMAPS, WPT_LEGACY, WPT_NC, WPT_NONE, WPT_KINDS };

struct wpt_counters {
	atomic_t acquires, get_pages, dma_maps, dma_unmaps, put_pages,
		 releases, invalidations, self_unmaps, bad_tables;
};

/* One open file: its memory (mapped once) and its registrations. */
struct wpt_buf {
	struct kref ref;		/* the file, and each acquire */
	enum wpt_kind kind;
	struct mm_struct *mm;		/* not counted: compared only */
	unsigned long va, len;		/* the mapping; 0 before mmap */
	struct page **chunks;
	unsigned int nchunks;
	spinlock_t lock;		/* ctxs, va/len */
	struct list_head ctxs;
	struct wpt_counters c;
};

/* One acquire(): a registration of part of a buffer. */
struct wpt_ctx {
	struct kref ref;		/* acquire..release, and an invalidation */
	struct list_head node;		/* on buf->ctxs until release() */
	struct wpt_buf *buf;
	unsigned long start, end;	/* rounded out to WPT_CHUNK */
	u64 core_context;
	struct device *dma_device;
	struct mutex lock;		/* sgt and mapped, against the invalidator */
	struct sg_table sgt;		/* what dma_map() handed out */
	bool mapped;
};

struct wpt_client {
	struct peer_memory_client_ex ex;
	invalidate_peer_memory invalidate;
	void *handle;
	struct miscdevice misc;
};

static struct wpt_client wpt_clients[WPT_KINDS];
static const struct file_operations wpt_fops;

static void wpt_buf_free(struct kref *ref)
{
	struct wpt_buf *buf = container_of(ref, struct wpt_buf, ref);
	unsigned int i;

	for (i = 0; i < buf->nchunks; i++)
		if (buf->chunks[i])
			__free_pages(buf->chunks[i], get_order(WPT_CHUNK));
	kvfree(buf->chunks);
	kfree(buf);
}

static void wpt_ctx_free(struct kref *ref)
{
	struct wpt_ctx *ctx = container_of(ref, struct wpt_ctx, ref);

	kref_put(&ctx->buf->ref, wpt_buf_free);
	kfree(ctx);
}

/*
 * GPU memory is never in a CPU cache, so its mappings need no CPU sync,
 * and two registrations of the same pages map them at once, as
 * nvidia-peermem maps BAR pages for each MR.  Without the attribute
 * DMA-API debugging takes the second for an overlapping streaming
 * mapping of cached memory ("cacheline tracking EEXIST").
 */
#define WPT_DMA_ATTRS	DMA_ATTR_SKIP_CPU_SYNC

static void wpt_unmap(struct wpt_ctx *ctx)
{
	struct scatterlist *sg;
	int i;

	for_each_sgtable_dma_sg(&ctx->sgt, sg, i)
		dma_unmap_page_attrs(ctx->dma_device, sg_dma_address(sg),
				     WPT_CHUNK, DMA_BIDIRECTIONAL, WPT_DMA_ATTRS);
	ctx->mapped = false;
}

static int wpt_acquire(enum wpt_kind kind, unsigned long addr, size_t size,
		       void **client_context)
{
	struct wpt_buf *buf = NULL;
	struct wpt_ctx *ctx;
	struct vm_area_struct *vma;

	mmap_read_lock(current->mm);
	vma = vma_lookup(current->mm, addr);
	if (vma && vma->vm_file && vma->vm_file->f_op == &wpt_fops &&
	    addr + size <= vma->vm_end) {
		buf = vma->vm_file->private_data;
		if (buf->kind != kind || buf->mm != current->mm || !buf->len)
			buf = NULL;
		else
			kref_get(&buf->ref);
	}
	mmap_read_unlock(current->mm);
	if (!buf)
		return 0;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx) {
		kref_put(&buf->ref, wpt_buf_free);
		return 0;
	}
	kref_init(&ctx->ref);
	mutex_init(&ctx->lock);
	ctx->buf = buf;
	ctx->start = ALIGN_DOWN(addr, WPT_CHUNK);
	ctx->end = ALIGN(addr + size, WPT_CHUNK);
	spin_lock(&buf->lock);
	list_add_tail(&ctx->node, &buf->ctxs);
	spin_unlock(&buf->lock);
	atomic_inc(&buf->c.acquires);
	*client_context = ctx;
	return 1;
}

static int wpt_get_pages(unsigned long addr, size_t size, int write, int force,
			 struct sg_table *sg_head, void *client_context,
			 u64 core_context)
{
	struct wpt_ctx *ctx = client_context;

	ctx->core_context = core_context;
	atomic_inc(&ctx->buf->c.get_pages);
	return 0;
}

static int wpt_dma_map(struct sg_table *sg_head, void *client_context,
		       struct device *dma_device, int dmasync, int *nmap)
{
	struct wpt_ctx *ctx = client_context;
	struct wpt_buf *buf = ctx->buf;
	unsigned int n = (ctx->end - ctx->start) / WPT_CHUNK;
	unsigned int first = (ctx->start - buf->va) / WPT_CHUNK;
	struct scatterlist *sg;
	unsigned int i;
	int err;

	err = sg_alloc_table(sg_head, n, GFP_KERNEL);
	if (err)
		return err;
	ctx->dma_device = dma_device;
	for_each_sg(sg_head->sgl, sg, n, i) {
		dma_addr_t dma = dma_map_page_attrs(dma_device,
						    buf->chunks[first + i], 0,
						    WPT_CHUNK, DMA_BIDIRECTIONAL,
						    WPT_DMA_ATTRS);

		if (dma_mapping_error(dma_device, dma)) {
			sg_head->nents = i;
			ctx->sgt = *sg_head;
			wpt_unmap(ctx);
			sg_free_table(sg_head);
			return -ENOMEM;
		}
		sg->length = WPT_CHUNK;
		sg_dma_address(sg) = dma;
		sg_dma_len(sg) = WPT_CHUNK;
	}
	ctx->sgt = *sg_head;
	ctx->mapped = true;
	*nmap = n;
	atomic_inc(&buf->c.dma_maps);
	return 0;
}

/* The core must hand back the table (and its entries) as it got them. */
static bool wpt_same_table(struct wpt_ctx *ctx, struct sg_table *sg_head)
{
	struct scatterlist *sg;
	unsigned int i;

	if (memcmp(sg_head, &ctx->sgt, sizeof(*sg_head)))
		return false;
	for_each_sg(sg_head->sgl, sg, sg_head->nents, i)
		if (sg_dma_len(sg) != WPT_CHUNK ||
		    !IS_ALIGNED(sg_dma_address(sg), WPT_CHUNK))
			return false;
	return true;
}

static int wpt_dma_unmap(struct sg_table *sg_head, void *client_context,
			 struct device *dma_device)
{
	struct wpt_ctx *ctx = client_context;

	atomic_inc(&ctx->buf->c.dma_unmaps);
	mutex_lock(&ctx->lock);
	if (!wpt_same_table(ctx, sg_head))
		atomic_inc(&ctx->buf->c.bad_tables);
	else if (ctx->mapped)
		wpt_unmap(ctx);
	mutex_unlock(&ctx->lock);
	return 0;
}

static void wpt_put_pages(struct sg_table *sg_head, void *client_context)
{
	struct wpt_ctx *ctx = client_context;

	atomic_inc(&ctx->buf->c.put_pages);
	mutex_lock(&ctx->lock);
	if (!wpt_same_table(ctx, sg_head)) {
		atomic_inc(&ctx->buf->c.bad_tables);
	} else {
		sg_free_table(sg_head);
		memset(&ctx->sgt, 0, sizeof(ctx->sgt));
	}
	mutex_unlock(&ctx->lock);
}

static unsigned long wpt_get_page_size(void *client_context)
{
	return WPT_CHUNK;
}

static void wpt_release(void *client_context)
{
	struct wpt_ctx *ctx = client_context;
	struct wpt_buf *buf = ctx->buf;

	/* After an invalidation with PEER_MEM_INVALIDATE_UNMAPS: ours. */
	mutex_lock(&ctx->lock);
	if (ctx->mapped)
		wpt_unmap(ctx);
	if (ctx->sgt.sgl)
		sg_free_table(&ctx->sgt);
	memset(&ctx->sgt, 0, sizeof(ctx->sgt));
	mutex_unlock(&ctx->lock);
	spin_lock(&buf->lock);
	list_del(&ctx->node);
	spin_unlock(&buf->lock);
	atomic_inc(&buf->c.releases);
	kref_put(&ctx->ref, wpt_ctx_free);
}

static int wpt_acquire_unmaps(unsigned long addr, size_t size, void *priv,
			      char *name, void **client_context)
{
	return wpt_acquire(WPT_UNMAPS, addr, size, client_context);
}

static int wpt_acquire_legacy(unsigned long addr, size_t size, void *priv,
			      char *name, void **client_context)
{
	return wpt_acquire(WPT_LEGACY, addr, size, client_context);
}

static int wpt_acquire_nc(unsigned long addr, size_t size, void *priv,
			  char *name, void **client_context)
{
	return wpt_acquire(WPT_NC, addr, size, client_context);
}

/* Invalidate the buffer's mapped registrations, one at a time. */
static void wpt_invalidate_buf(struct wpt_buf *buf)
{
	struct wpt_client *cl = &wpt_clients[buf->kind];
	struct wpt_ctx *ctx, *found;

	if (!cl->invalidate)
		return;
	for (;;) {
		found = NULL;
		spin_lock(&buf->lock);
		list_for_each_entry(ctx, &buf->ctxs, node) {
			if (ctx->mapped && ctx->core_context) {
				kref_get(&ctx->ref);
				found = ctx;
				break;
			}
		}
		spin_unlock(&buf->lock);
		if (!found)
			return;
		atomic_inc(&buf->c.invalidations);
		cl->invalidate(cl->handle, found->core_context);
		/* Without PEER_MEM_INVALIDATE_UNMAPS the core unmapped. */
		mutex_lock(&found->lock);
		if (found->mapped) {
			atomic_inc(&buf->c.self_unmaps);
			wpt_unmap(found);
		}
		mutex_unlock(&found->lock);
		kref_put(&found->ref, wpt_ctx_free);
	}
}

static int wpt_open(struct inode *inode, struct file *file)
{
	struct miscdevice *misc = file->private_data;
	struct wpt_client *cl = container_of(misc, struct wpt_client, misc);
	struct wpt_buf *buf;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	kref_init(&buf->ref);
	buf->kind = cl - wpt_clients;
	spin_lock_init(&buf->lock);
	INIT_LIST_HEAD(&buf->ctxs);
	file->private_data = buf;
	return 0;
}

static int wpt_release_file(struct inode *inode, struct file *file)
{
	struct wpt_buf *buf = file->private_data;

	kref_put(&buf->ref, wpt_buf_free);
	return 0;
}

static int wpt_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct wpt_buf *buf = file->private_data;
	unsigned long len = vma->vm_end - vma->vm_start, i;
	struct page **guards;
	int err = 0;

	/* Chunks are "GPU pages": aligned in the address space too. */
	if (buf->len || vma->vm_pgoff || !len || len > WPT_MAX_LEN ||
	    !IS_ALIGNED(len, WPT_CHUNK) || !IS_ALIGNED(vma->vm_start, WPT_CHUNK))
		return -EINVAL;
	buf->nchunks = len / WPT_CHUNK;
	buf->chunks = kvcalloc(buf->nchunks, sizeof(*buf->chunks), GFP_KERNEL);
	if (!buf->chunks)
		return -ENOMEM;
	/*
	 * Chunks one after another are often contiguous, and the MR would
	 * get larger pages than GPU memory does: a guard chunk allocated
	 * after each one, freed once all are there, keeps them apart.
	 */
	guards = kvcalloc(buf->nchunks, sizeof(*guards), GFP_KERNEL);
	if (!guards)
		return -ENOMEM;
	for (i = 0; i < buf->nchunks; i++) {
		buf->chunks[i] = alloc_pages(GFP_KERNEL | __GFP_ZERO,
					     get_order(WPT_CHUNK));
		guards[i] = alloc_pages(GFP_KERNEL, get_order(WPT_CHUNK));
		if (!buf->chunks[i] || !guards[i]) {
			err = -ENOMEM;	/* the chunks go with the buffer */
			break;
		}
	}
	for (i = 0; i < buf->nchunks; i++)
		if (guards[i])
			__free_pages(guards[i], get_order(WPT_CHUNK));
	kvfree(guards);
	if (err)
		return err;
	for (i = 0; i < buf->nchunks; i++) {
		err = remap_pfn_range(vma, vma->vm_start + i * WPT_CHUNK,
				      page_to_pfn(buf->chunks[i]), WPT_CHUNK,
				      vma->vm_page_prot);
		if (err)
			return err;
	}
	buf->mm = current->mm;
	buf->va = vma->vm_start;
	buf->len = len;
	return 0;
}

static ssize_t wpt_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	wpt_invalidate_buf(file->private_data);
	return count;
}

static ssize_t wpt_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	struct wpt_counters *c = &((struct wpt_buf *)file->private_data)->c;
	char text[320];
	int n;

	n = scnprintf(text, sizeof(text),
		      "acquires %d\nget_pages %d\ndma_maps %d\ndma_unmaps %d\n"
		      "put_pages %d\nreleases %d\ninvalidations %d\n"
		      "self_unmaps %d\nbad_tables %d\n",
		      atomic_read(&c->acquires), atomic_read(&c->get_pages),
		      atomic_read(&c->dma_maps), atomic_read(&c->dma_unmaps),
		      atomic_read(&c->put_pages), atomic_read(&c->releases),
		      atomic_read(&c->invalidations),
		      atomic_read(&c->self_unmaps), atomic_read(&c->bad_tables));
	return simple_read_from_buffer(ubuf, count, ppos, text, n);
}

static const struct file_operations wpt_fops = {
	.owner = THIS_MODULE,
	.open = wpt_open,
	.release = wpt_release_file,
	.mmap = wpt_mmap,
	.read = wpt_read,
	.write = wpt_write,
	.llseek = default_llseek,
};

static const char *const wpt_names[WPT_KINDS] = {
	[WPT_UNMAPS] = "wren_test",
	[WPT_LEGACY] = "wren_test_legacy",
	[WPT_NC] = "wren_test_nc",
	[WPT_NONE] = "wren_test_none",
};

static int (*const wpt_acquires[WPT_KINDS])(unsigned long, size_t, void *,
					    char *, void **) = {
	[WPT_UNMAPS] = wpt_acquire_unmaps,
	[WPT_LEGACY] = wpt_acquire_legacy,
	[WPT_NC] = wpt_acquire_nc,
};

static void wpt_exit_kinds(int n)
{
	while (n--) {
		struct wpt_client *cl = &wpt_clients[n];

		misc_deregister(&cl->misc);
		kfree(cl->misc.name);
		/* Waits until every registration is released. */
		if (cl->handle)
			ib_unregister_peer_memory_client(cl->handle);
	}
}

static int __init wpt_init(void)
{
	int k, err;

	for (k = 0; k < WPT_KINDS; k++) {
		struct wpt_client *cl = &wpt_clients[k];
		struct peer_memory_client *c = &cl->ex.client;

		if (k != WPT_NONE) {
			strscpy(c->name, wpt_names[k], sizeof(c->name));
			strscpy(c->version, "1.0-test", sizeof(c->version) - 1);
			c->acquire = wpt_acquires[k];
			c->get_pages = wpt_get_pages;
			c->dma_map = wpt_dma_map;
			c->dma_unmap = wpt_dma_unmap;
			c->put_pages = wpt_put_pages;
			c->get_page_size = wpt_get_page_size;
			c->release = wpt_release;
			if (k == WPT_UNMAPS) {
				c->version[IB_PEER_MEMORY_VER_MAX - 1] = 1;
				cl->ex.ex_size = sizeof(cl->ex);
				cl->ex.flags = PEER_MEM_INVALIDATE_UNMAPS;
			}
			cl->handle = ib_register_peer_memory_client(c, k == WPT_NC ?
								    NULL : &cl->invalidate);
			err = -EINVAL;
			if (!cl->handle)
				goto err;
		}
		cl->misc.minor = MISC_DYNAMIC_MINOR;
		cl->misc.name = kasprintf(GFP_KERNEL, "wren_peer_test%s",
					  k == WPT_UNMAPS ? "" :
					  wpt_names[k] + strlen("wren_test"));
		cl->misc.fops = &wpt_fops;
		err = -ENOMEM;
		if (!cl->misc.name)
			goto err_unreg;
		err = misc_register(&cl->misc);
		if (err)
			goto err_name;
	}
	return 0;

err_name:
	kfree(wpt_clients[k].misc.name);
err_unreg:
	if (wpt_clients[k].handle)
		ib_unregister_peer_memory_client(wpt_clients[k].handle);
err:
	wpt_exit_kinds(k);
	return err;
}

static void __exit wpt_exit(void)
{
	wpt_exit_kinds(WPT_KINDS);
}

module_init(wpt_init);
module_exit(wpt_exit);

MODULE_DESCRIPTION("Test peer-memory client for wren_peer_mem.ko");
MODULE_LICENSE("Dual BSD/GPL");
