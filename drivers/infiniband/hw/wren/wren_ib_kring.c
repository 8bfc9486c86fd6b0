// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Rings of kernel CQs and QPs: one coherent allocation for the ring (a
 * power of two in size, so nothing is wasted), and the 8-byte doorbell
 * record from the device's DMA pool.  Coherent memory is contiguous in bus
 * address space, so the device's page list is the allocation cut into
 * pages; a ring of one page needs no list.
 */
#include <linux/dma-mapping.h>
#include <linux/dmapool.h>

#include "wren_ib.h"

int wren_ib_kring_alloc(struct wren_ib_dev *dev, struct wren_ib_kring *r,
			size_t ring_bytes)
{
	r->ring_bytes = ring_bytes;
	/* Zeroed: no CQE slot looks written, both indexes start at 0. */
	r->buf = dma_alloc_coherent(dev->dmadev, ring_bytes, &r->dma, GFP_KERNEL);
	if (!r->buf)
		return -ENOMEM;
	r->dbrec = dma_pool_zalloc(dev->dbrec_pool, GFP_KERNEL, &r->dbrec_dma);
	if (!r->dbrec) {
		dma_free_coherent(dev->dmadev, ring_bytes, r->buf, r->dma);
		r->buf = NULL;
		return -ENOMEM;
	}
	return 0;
}

void wren_ib_kring_free(struct wren_ib_dev *dev, struct wren_ib_kring *r)
{
	if (!r->buf)
		return;
	dma_pool_free(dev->dbrec_pool, r->dbrec, r->dbrec_dma);
	dma_free_coherent(dev->dmadev, r->ring_bytes, r->buf, r->dma);
	r->buf = NULL;
}

int wren_ib_kring_desc(struct wren_ib_dev *dev, struct wren_ib_kring *r,
		       struct wren_buf_desc *desc, void **list,
		       dma_addr_t *list_dma, size_t *list_size)
{
	size_t npages = DIV_ROUND_UP(r->ring_bytes, PAGE_SIZE), i;
	__le64 *pages;

	*list = NULL;
	*list_size = 0;
	desc->page_shift = PAGE_SHIFT;
	if (npages == 1) {
		desc->addr = cpu_to_le64(r->dma);
		desc->npages = 0;
		return 0;
	}
	*list_size = npages * sizeof(*pages);
	pages = dma_alloc_coherent(dev->dmadev, *list_size, list_dma,
				   GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < npages; i++)
		pages[i] = cpu_to_le64(r->dma + i * PAGE_SIZE);
	desc->addr = cpu_to_le64(*list_dma);
	desc->npages = cpu_to_le32(npages);
	*list = pages;
	return 0;
}
