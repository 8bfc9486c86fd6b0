// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wtgpu_alloc.c: the bottom of wren_test_gpu.ko.  The GPUs' lifetime, the
 * BAR allocator and the allocations' references (owner, VMAs, dma-bufs,
 * P2P page tables), the counters, and the revocation of P2P page tables
 * (retiring a table, running the free callbacks) when their memory goes.
 * Everything else in the module builds on these; this file calls no other
 * file of it.  Lifetimes and locking: wtgpu.h.
 */
#include "wtgpu.h"

/* Allocators, file lists and page tables (see wtgpu.h); inside mmap_lock. */
DEFINE_MUTEX(wtgpu_lock);
/* Every live P2P page table, of every GPU: nvidia_p2p_* look pointers up. */
LIST_HEAD(wtgpu_tables);
/* The <N> of /dev/wren_gpu<N>. */
DEFINE_IDA(wtgpu_ida);

/* ---- devices and allocations ---------------------------------------- */

static void wtgpu_dev_release(struct kref *kref)
{
	struct wtgpu_dev *gpu = container_of(kref, struct wtgpu_dev, kref);

	ida_free(&wtgpu_ida, gpu->id);
	bitmap_free(gpu->bitmap);
	pci_dev_put(gpu->pdev);
	kfree(gpu);
}

/**
 * wtgpu_dev_put() - drop a reference to a GPU
 * @gpu: the GPU
 *
 * The last reference (probe's is dropped by remove; files and allocations
 * hold the others) frees its id, its BAR bitmap and the structure.
 */
void wtgpu_dev_put(struct wtgpu_dev *gpu)
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

/**
 * wtgpu_alloc_put() - drop a reference to an allocation
 * @a: the allocation
 *
 * Takes wtgpu_lock for the last reference, which returns the BAR pages to
 * the GPU's allocator.  Context: process; wtgpu_lock not held.
 */
void wtgpu_alloc_put(struct wtgpu_mem *a)
{
	kref_put_mutex(&a->kref, wtgpu_alloc_release, &wtgpu_lock);
}

static void wtgpu_alloc_put_locked(struct wtgpu_mem *a)
{
	kref_put(&a->kref, wtgpu_alloc_release_locked);
}

/**
 * wtgpu_alloc_new() - carve an allocation out of a GPU's BAR
 * @f: the owning file; the allocation goes on its list
 * @size: bytes, rounded up to whole GPU pages
 *
 * Return: the allocation, with the owner's reference, or ERR_PTR(-EINVAL)
 * for a size of 0 or over the BAR, -ENOMEM, -ENODEV once the GPU is
 * removed, -ENOSPC when no range is free.
 */
struct wtgpu_mem *wtgpu_alloc_new(struct wtgpu_file *f, u64 size)
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

/**
 * wtgpu_alloc_find() - the owned allocation holding a BAR range
 * @f: the owning file
 * @offset: BAR offset of the range
 * @len: its length in bytes
 *
 * Context: wtgpu_lock held.  No reference is taken.
 * Return: the allocation of @f holding [@offset, @offset + @len), or NULL.
 */
struct wtgpu_mem *wtgpu_alloc_find(struct wtgpu_file *f, u64 offset,
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

static void wtgpu_vm_open(struct vm_area_struct *vma)
{
	struct wtgpu_mem *a = vma->vm_private_data;

	kref_get(&a->kref);
}

static void wtgpu_vm_close(struct vm_area_struct *vma)
{
	wtgpu_alloc_put(vma->vm_private_data);
}

/*
 * The VMAs of /dev/wren_gpu<N> (wtgpu_cdev.c's mmap), each holding a
 * reference to its allocation in vm_private_data; nvidia_p2p_get_pages()
 * (wtgpu_p2p.c) tells our mappings from others' by these ops.
 */
const struct vm_operations_struct wtgpu_vm_ops = {
	.open = wtgpu_vm_open,
	.close = wtgpu_vm_close,
};

/**
 * wtgpu_info_fill() - a snapshot of a GPU's counters
 * @gpu: the GPU
 * @info: filled in, padding zeroed (WTGPU_INFO, sysfs)
 */
void wtgpu_info_fill(struct wtgpu_dev *gpu, struct wtgpu_info *info)
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

/**
 * wtgpu_p2p_map_free() - undo and free one DMA mapping of a page table
 * @map: the mapping, on its table's maps list
 *
 * Unmaps its pages for the peer and drops the peer; the caller adjusts
 * the p2p_dma_maps counter.  Context: wtgpu_lock held.
 */
void wtgpu_p2p_map_free(struct wtgpu_p2p_map *map)
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

/**
 * wtgpu_p2p_retire_locked() - take a P2P page table off wtgpu_tables
 * @t: a live table
 *
 * Its DMA mappings are undone, its pages no longer hold the allocation,
 * and the consumer's pointer stops being found.  The memory goes with the
 * last kref.  Context: wtgpu_lock held.
 */
void wtgpu_p2p_retire_locked(struct wtgpu_p2p *t)
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

/**
 * wtgpu_revoke_collect() - queue an allocation's tables for revocation
 * @a: the allocation going away
 * @list: where the tables go, for wtgpu_revoke_run()
 *
 * Marks @a's non-persistent tables not yet revoked as revoked, each with
 * a reference, on @list.  Context: wtgpu_lock held.
 */
void wtgpu_revoke_collect(struct wtgpu_mem *a, struct list_head *list)
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

/**
 * wtgpu_revoke_run() - call the free callbacks of queued tables
 * @gpu: the GPU whose memory is going away
 * @list: tables queued by wtgpu_revoke_collect() (or wtgpu_remove())
 *
 * Calls them without wtgpu_lock, as the memory is going away.
 * nvidia-peermem's callback invalidates the MR and then frees the DMA
 * mapping and the page table itself; whatever a consumer leaves is taken
 * back here once its callback has returned.  Empties @list and drops its
 * references.  Context: process; wtgpu_lock not held.
 */
void wtgpu_revoke_run(struct wtgpu_dev *gpu, struct list_head *list)
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
