/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The user interface of wren_test_gpu.ko, the stand-in driver for the
 * emulated GPU (hw/qemu/wren_gpu.c, 1f57:0002).  A test module, not part
 * of the product: it lets a process treat the GPU's BAR2 as "GPU memory"
 * the way CUDA lets it treat device memory, so that the GPUDirect paths
 * (dma-buf export, NVIDIA's nvidia_p2p_* interface behind nvidia-peermem)
 * can be driven without a GPU.
 *
 * /dev/wren_gpu<N>, one per bound GPU:
 *   WTGPU_ALLOC   carve @size bytes (rounded up to WTGPU_PAGE_SIZE) out of
 *                 the BAR; returns its BAR offset, which is also the mmap
 *                 offset of the allocation and its handle.
 *   mmap          offset = an allocation's offset, length <= its size: the
 *                 BAR pages, write-combined, VM_IO | VM_PFNMAP (so
 *                 pin_user_pages() refuses them, as it does GPU mappings).
 *                 Map at a WTGPU_PAGE_SIZE-aligned address (MAP_FIXED into a
 *                 reserved range): nvidia_p2p_get_pages() works in whole
 *                 64 KiB GPU pages, as the real one does.
 *   WTGPU_FREE    free an allocation: every nvidia_p2p page table still
 *                 holding its pages gets its free callback first (as
 *                 cudaFree does under a live registration); EBUSY if a
 *                 persistent page table holds it.  The BAR range is reused
 *                 only after its mmaps and dma-bufs are gone.
 *   WTGPU_EXPORT  a dma-buf of [offset, offset + length) of an allocation
 *                 (GPU-page aligned): returns its fd.  Importers must allow
 *                 peer-to-peer; each attachment maps the BAR pages with
 *                 dma_map_resource(), one sg entry per 64 KiB page.
 *   WTGPU_INFO    the BAR and the driver's counters (also in sysfs, under
 *                 the PCI device's wren_gpu/ directory).
 * Closing the file frees what it allocated, as process exit frees CUDA
 * memory.
 */
#ifndef WREN_TEST_GPU_H
#define WREN_TEST_GPU_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define WTGPU_PAGE_SHIFT	16	/* GPU pages are 64 KiB */
#define WTGPU_PAGE_SIZE		(1UL << WTGPU_PAGE_SHIFT)

struct wtgpu_alloc {
	__u64 size;		/* in: bytes */
	__u64 offset;		/* out: BAR offset = mmap offset = handle */
};

struct wtgpu_free {
	__u64 offset;		/* in: an allocation's offset */
};

struct wtgpu_export {
	__u64 offset;		/* in: BAR offset, GPU-page aligned */
	__u64 length;		/* in: bytes, GPU-page multiple */
	__u32 flags;		/* in: O_CLOEXEC or 0 */
	__s32 fd;		/* out: the dma-buf */
};

struct wtgpu_info {
	__u64 bar_size;		/* BAR2 bytes */
	__u64 bar_free;		/* bytes no allocation holds */
	__u64 allocs;		/* live allocations (freed ones still mapped count) */
	__u64 p2p_tables;	/* nvidia_p2p page tables handed out, not returned */
	__u64 p2p_pages;	/* GPU pages in those tables */
	__u64 p2p_dma_maps;	/* nvidia_p2p dma mappings live */
	__u64 dmabufs;		/* exported dma-bufs not yet released */
	__u64 dmabuf_maps;	/* dma-buf attachments mapped */
	__u64 free_callbacks;	/* free callbacks called, since load */
	__u64 rsvd[7];
};

#define WTGPU_IOC_MAGIC	0xb7
#define WTGPU_ALLOC	_IOWR(WTGPU_IOC_MAGIC, 0, struct wtgpu_alloc)
#define WTGPU_FREE	_IOW(WTGPU_IOC_MAGIC, 1, struct wtgpu_free)
#define WTGPU_EXPORT	_IOWR(WTGPU_IOC_MAGIC, 2, struct wtgpu_export)
#define WTGPU_INFO	_IOR(WTGPU_IOC_MAGIC, 3, struct wtgpu_info)

#endif
