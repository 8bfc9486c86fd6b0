/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * wtgpu.h: the private structures of wren_test_gpu.ko and what its files
 * share.  Not a uapi header (that is wren_test_gpu.h, which user space
 * includes too); only the module's own .c files include this one.
 *
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
 *
 * The files, and the one direction their calls go (no file calls back
 * into one that calls it):
 *
 *   wtgpu_main.c    PCI driver: probe, remove, module metadata
 *     -> wtgpu_cdev.c, wtgpu_sysfs.c, wtgpu_alloc.c
 *   wtgpu_cdev.c    /dev/wren_gpu<N>: open, release, mmap, ioctls
 *     -> wtgpu_dmabuf.c (WTGPU_EXPORT), wtgpu_alloc.c
 *   wtgpu_dmabuf.c  dma-buf export                    -> wtgpu_alloc.c
 *   wtgpu_p2p.c     nvidia_p2p_* (called by nvidia-peermem.ko only)
 *                                                     -> wtgpu_alloc.c
 *   wtgpu_sysfs.c   the counters in sysfs             -> wtgpu_alloc.c
 *   wtgpu_alloc.c   devices, allocations, their VMAs, and revocation of
 *                   P2P page tables; calls no other file
 */
#ifndef WTGPU_H
#define WTGPU_H

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

/* wtgpu_alloc.c */
extern struct mutex wtgpu_lock;
extern struct list_head wtgpu_tables;	/* live P2P page tables */
extern struct ida wtgpu_ida;		/* the <N> of /dev/wren_gpu<N> */
extern const struct vm_operations_struct wtgpu_vm_ops;

void wtgpu_dev_put(struct wtgpu_dev *gpu);
void wtgpu_alloc_put(struct wtgpu_mem *a);
struct wtgpu_mem *wtgpu_alloc_new(struct wtgpu_file *f, u64 size);
struct wtgpu_mem *wtgpu_alloc_find(struct wtgpu_file *f, u64 offset,
				   u64 len);
void wtgpu_info_fill(struct wtgpu_dev *gpu, struct wtgpu_info *info);
void wtgpu_p2p_map_free(struct wtgpu_p2p_map *map);
void wtgpu_p2p_retire_locked(struct wtgpu_p2p *t);
void wtgpu_revoke_collect(struct wtgpu_mem *a, struct list_head *list);
void wtgpu_revoke_run(struct wtgpu_dev *gpu, struct list_head *list);

/* wtgpu_dmabuf.c */
int wtgpu_ioc_export(struct wtgpu_file *f, void __user *arg);

/* wtgpu_cdev.c */
extern const struct file_operations wtgpu_fops;

/* wtgpu_sysfs.c */
extern const struct attribute_group *wtgpu_groups[];

#endif /* WTGPU_H */
