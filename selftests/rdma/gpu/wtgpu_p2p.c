// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wtgpu_p2p.c: NVIDIA's third-party P2P interface, the nvidia_p2p_*
 * functions nv-p2p.h declares (and documents), exported for
 * nvidia-peermem.ko: page tables of the GPU pages behind a process's
 * mapping of an allocation, and their DMA mappings for a peer device.
 * Every entry point looks the caller's pointers up on wtgpu_tables before
 * using them.  Called by no other file of the module; calls
 * wtgpu_alloc.c, which also takes the tables back when their memory goes
 * (the free callbacks).
 */
#include "wtgpu.h"

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

/**
 * nvidia_p2p_init_mapping() - the retired token API: not supported
 * @p2p_token: unused
 * @params: unused
 * @destroy_callback: unused
 * @data: unused
 *
 * Return: -EOPNOTSUPP.
 */
int nvidia_p2p_init_mapping(u64 p2p_token, struct nvidia_p2p_params *params,
			    void (*destroy_callback)(void *data), void *data)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL(nvidia_p2p_init_mapping);

/**
 * nvidia_p2p_destroy_mapping() - the retired token API: not supported
 * @p2p_token: unused
 *
 * Return: -EOPNOTSUPP.
 */
int nvidia_p2p_destroy_mapping(u64 p2p_token)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL(nvidia_p2p_destroy_mapping);

/**
 * nvidia_p2p_get_pages() - a page table of the GPU pages behind a VA range
 * @p2p_token: must be 0
 * @va_space: must be 0
 * @virtual_address: start, GPU-page aligned, in a mapping of /dev/wren_gpu<N>
 * @length: bytes, a GPU-page multiple, within that mapping
 * @page_table: where the table goes
 * @free_callback: called when the memory goes away
 * @data: its argument
 *
 * Context: process, in the mm of the mapping.
 * Return: 0, -EINVAL (not our memory, freed, bad arguments) or -ENOMEM.
 */
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

/**
 * nvidia_p2p_get_pages_persistent() - a page table with no free callback
 * @virtual_address: as for nvidia_p2p_get_pages()
 * @length: as for nvidia_p2p_get_pages()
 * @page_table: where the table goes
 * @flags: must be 0
 *
 * WTGPU_FREE of the allocation fails with -EBUSY while it lives.
 * Return: as nvidia_p2p_get_pages().
 */
int nvidia_p2p_get_pages_persistent(u64 virtual_address, u64 length,
				    struct nvidia_p2p_page_table **page_table,
				    u32 flags)
{
	if (flags)
		return -EINVAL;
	return wtgpu_p2p_get(virtual_address, length, page_table, NULL, NULL);
}
EXPORT_SYMBOL(nvidia_p2p_get_pages_persistent);

/**
 * nvidia_p2p_put_pages() - give back a table of nvidia_p2p_get_pages()
 * @p2p_token: must be 0
 * @va_space: must be 0
 * @virtual_address: the table's start
 * @page_table: the table
 *
 * Return: 0, or -EINVAL if it is not a live table of ours for that address
 * (the free callback may already have taken it).
 */
int nvidia_p2p_put_pages(u64 p2p_token, u32 va_space,
			 u64 virtual_address,
			 struct nvidia_p2p_page_table *page_table)
{
	if (p2p_token || va_space)
		return -EINVAL;
	return wtgpu_p2p_put_common(virtual_address, page_table, false);
}
EXPORT_SYMBOL(nvidia_p2p_put_pages);

/**
 * nvidia_p2p_put_pages_persistent() - give back a persistent table
 * @virtual_address: the table's start
 * @page_table: the table
 * @flags: must be 0
 *
 * Return: 0, or -EINVAL if it is not a live persistent table of ours.
 */
int nvidia_p2p_put_pages_persistent(u64 virtual_address,
				    struct nvidia_p2p_page_table *page_table,
				    u32 flags)
{
	if (flags)
		return -EINVAL;
	return wtgpu_p2p_put_common(virtual_address, page_table, true);
}
EXPORT_SYMBOL(nvidia_p2p_put_pages_persistent);

/**
 * nvidia_p2p_free_page_table() - free a revoked table
 * @page_table: the table
 *
 * Only from a free callback, as in NVIDIA's driver.
 * Return: 0, or -EINVAL if it is not a revoked live table of ours.
 */
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

/**
 * nvidia_p2p_dma_map_pages() - map a table's pages for a peer device
 * @peer: the device that will DMA (the NIC)
 * @page_table: a live table
 * @dma_mapping: where the mapping goes
 *
 * One dma_map_resource() per GPU page.
 * Return: 0, -EINVAL, -ENOMEM or -EIO.
 */
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

/**
 * nvidia_p2p_dma_unmap_pages() - undo nvidia_p2p_dma_map_pages()
 * @peer: the device it was mapped for
 * @page_table: the table
 * @dma_mapping: the mapping
 *
 * Return: 0, or -EINVAL if the mapping is not a live one of the table for @peer.
 */
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

/**
 * nvidia_p2p_free_dma_mapping() - free a mapping of a revoked table
 * @dma_mapping: the mapping
 *
 * Return: 0, or -EINVAL if it is not a mapping of a revoked live table.
 */
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
