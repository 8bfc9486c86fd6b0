// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Rings in the provider's memory: pin them (ib_umem), describe them to the
 * device as a page list (struct wren_buf_desc), and pin their 8-byte
 * doorbell records.
 */
#include <linux/dma-mapping.h>
#include <linux/overflow.h>

#include "wren_ib.h"

static void wren_ib_umem_release(struct ib_umem **umem)
{
	if (!IS_ERR_OR_NULL(*umem))
		ib_umem_release(*umem);
	*umem = NULL;
}

/*
 * Pin a ring of @bytes at @addr and its doorbell record at @dbrec_addr.
 * The ring must start on a page boundary so that the device's page list
 * starts with the ring; the record must be 8-byte aligned (so that it never
 * straddles pages).  Pages are pinned writable: the device writes CQ rings,
 * and a writable pin also breaks copy-on-write sharing up front, so that
 * the device and the process see the same pages.
 *
 * libwren puts the record right after the ring, often in the ring's last
 * page: that page is then mapped once, with the ring, since the DMA API
 * does not allow two mappings of one cacheline for the device to write
 * (DMA_API_DEBUG: "overlapping mappings aren't supported").
 */
int wren_ib_uring_get(struct wren_ib_dev *dev, struct wren_ib_uring *r,
		      u64 addr, u64 bytes, u64 dbrec_addr)
{
	struct ib_block_iter biter;
	u64 pinned, dbrec_page;
	bool inside;
	int err;

	if (!addr || !PAGE_ALIGNED(addr) || !bytes || bytes > U64_MAX - PAGE_SIZE ||
	    !dbrec_addr || !IS_ALIGNED(dbrec_addr, sizeof(struct wren_cq_dbrec)))
		return -EINVAL;

	pinned = PAGE_ALIGN(bytes);
	inside = dbrec_addr >= addr && dbrec_addr - addr < pinned;
	r->umem = wren_ib_umem_get(&dev->ibdev, addr, pinned, IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(r->umem)) {
		err = PTR_ERR(r->umem);
		r->umem = NULL;
		return err;
	}
	if (inside) {
		dbrec_page = (dbrec_addr - addr) >> PAGE_SHIFT;
		rdma_umem_for_each_dma_block(r->umem, &biter, PAGE_SIZE) {
			if (dbrec_page--)
				continue;
			r->dbrec_dma = rdma_block_iter_dma_address(&biter) +
				       offset_in_page(dbrec_addr);
			break;
		}
		return 0;
	}
	r->dbrec_umem = wren_ib_umem_get(&dev->ibdev, dbrec_addr,
					 sizeof(struct wren_cq_dbrec),
					 IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(r->dbrec_umem)) {
		err = PTR_ERR(r->dbrec_umem);
		r->dbrec_umem = NULL;
		wren_ib_umem_release(&r->umem);
		return err;
	}
	/* One page, so its one block holds the record. */
	rdma_umem_for_each_dma_block(r->dbrec_umem, &biter, PAGE_SIZE) {
		r->dbrec_dma = rdma_block_iter_dma_address(&biter) +
			       offset_in_page(dbrec_addr);
		break;
	}
	return 0;
}

void wren_ib_uring_put(struct wren_ib_uring *r)
{
	wren_ib_umem_release(&r->dbrec_umem);
	wren_ib_umem_release(&r->umem);
}

/*
 * Describe @umem (pinned at @addr, @bytes long) to the device.  The page
 * size is the largest the device accepts that @addr is aligned to and the
 * pinned memory is contiguous in, so a ring in huge pages takes few
 * entries; one block needs no list.  The list, when there is one, is
 * returned in @list (coherent memory) for the caller to free after the
 * command, which copies it.
 */
int wren_ib_buf_desc(struct wren_ib_dev *dev, struct ib_umem *umem, u64 addr,
		     u64 bytes, struct wren_buf_desc *desc, void **list,
		     dma_addr_t *list_dma, size_t *list_size)
{
	struct ib_block_iter biter;
	unsigned long pgsz;
	size_t npages, i = 0;
	__le64 *pages;

	*list = NULL;
	*list_size = 0;
	/* The first block must start at the ring itself. */
	pgsz = ib_umem_find_best_pgsz(umem, dev->pgsz_bitmap &
				      GENMASK_ULL(__ffs64(addr), 0), addr);
	if (!pgsz)
		return -EINVAL;
	npages = ib_umem_num_dma_blocks(umem, pgsz);
	if (npages != DIV_ROUND_UP_ULL(bytes, pgsz))
		return -EINVAL;

	desc->page_shift = order_base_2(pgsz);
	if (npages == 1) {
		rdma_umem_for_each_dma_block(umem, &biter, pgsz) {
			desc->addr = cpu_to_le64(rdma_block_iter_dma_address(&biter));
			break;
		}
		desc->npages = 0;
		return 0;
	}

	if (npages > U32_MAX || check_mul_overflow(npages, sizeof(*pages), list_size))
		return -EINVAL;
	pages = dma_alloc_coherent(dev->dmadev, *list_size, list_dma,
				   GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	rdma_umem_for_each_dma_block(umem, &biter, pgsz) {
		if (i == npages)
			break;
		pages[i++] = cpu_to_le64(rdma_block_iter_dma_address(&biter));
	}
	desc->addr = cpu_to_le64(*list_dma);
	desc->npages = cpu_to_le32(npages);
	*list = pages;
	return 0;
}

void wren_ib_buf_desc_free(struct wren_ib_dev *dev, void *list,
			   dma_addr_t list_dma, size_t list_size)
{
	if (list)
		dma_free_coherent(dev->dmadev, list_size, list, list_dma);
}
