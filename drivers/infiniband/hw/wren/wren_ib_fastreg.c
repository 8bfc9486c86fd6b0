// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Fast registration for kernel ULPs (WREN_CAP_RDMA_FAST_REG): ib_alloc_mr()
 * creates a FREE fast-registration MR with room for max_num_sg pages and a
 * page list in coherent memory; ib_map_mr_sg() fills that list; the ULP's
 * IB_WR_REG_MR work request makes the MR valid with the list (the device
 * copies it when the WQE executes), and IB_WR_LOCAL_INV or a received
 * SEND_WITH_INV makes it FREE again (wren_ib_post.c).
 */
#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include "wren_ib.h"

/* Pages per fast-registration MR: ULPs ask for far fewer (NVMe-oF: 256). */
#define WREN_IB_FR_MAX_PAGES	4096u

u32 wren_ib_max_fast_reg_pages(struct wren_ib_dev *dev)
{
	if (!(dev->caps & WREN_CAP_RDMA_FAST_REG))
		return 0;
	return min_t(u32, WREN_IB_FR_MAX_PAGES,
		     le32_to_cpu(dev->attr->max_mtt));
}

struct ib_mr *wren_ib_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type mr_type,
			       u32 max_num_sg)
{
	struct wren_ib_dev *dev = to_wdev(ibpd->device);
	struct wren_create_mr_in in = {};
	struct wren_cmd_mr_result res;
	struct wren_ib_mr *mr;
	int err;

	if (mr_type != IB_MR_TYPE_MEM_REG || !wren_ib_max_fast_reg_pages(dev))
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_sg || max_num_sg > wren_ib_max_fast_reg_pages(dev))
		return ERR_PTR(-EINVAL);

	mr = kzalloc_obj(*mr, GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->kind = WREN_IB_MR_FAST_REG;
	mr->num_mtt = max_num_sg;
	mr->page_shift = PAGE_SHIFT;
	mr->pbl = dma_alloc_coherent(dev->dmadev, max_num_sg * sizeof(*mr->pbl),
				     &mr->pbl_dma, GFP_KERNEL);
	if (!mr->pbl) {
		err = -ENOMEM;
		goto err_free;
	}

	/* Range and rights come with each REG_MR. */
	in.pdn = cpu_to_le32(to_wpd(ibpd)->pdn);
	in.num_mtt = cpu_to_le32(max_num_sg);
	in.page_shift = PAGE_SHIFT;
	in.key_tag = (u8)atomic_inc_return(&dev->key_tag);
	in.flags = WREN_MR_F_FAST_REG;
	err = wren_cmd_create_mr(dev->cdev, &in, &res);
	if (err)
		goto err_pbl;
	mr->index = res.index;
	mr->ibmr.lkey = res.key;
	mr->ibmr.rkey = mr->ibmr.lkey;
	return &mr->ibmr;

err_pbl:
	if (err != -ETIMEDOUT)
		dma_free_coherent(dev->dmadev, max_num_sg * sizeof(*mr->pbl),
				  mr->pbl, mr->pbl_dma);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

void wren_ib_free_fast_reg(struct wren_ib_dev *dev, struct wren_ib_mr *mr)
{
	dma_free_coherent(dev->dmadev, mr->num_mtt * sizeof(*mr->pbl), mr->pbl,
			  mr->pbl_dma);
}

static int wren_ib_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct wren_ib_mr *mr = to_wmr(ibmr);

	if (mr->npages == mr->num_mtt)
		return -ENOMEM;
	mr->pbl[mr->npages++] = cpu_to_le64(addr);
	return 0;
}

/*
 * ib_sg_to_pages() cuts the list into ibmr->page_size pages (which the
 * ULP chose through ib_map_mr_sg()) and sets iova and length; REG_MR
 * carries all of them.
 */
int wren_ib_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		      unsigned int *sg_offset)
{
	struct wren_ib_dev *dev = to_wdev(ibmr->device);

	if (!(dev->pgsz_bitmap & ibmr->page_size))
		return -EINVAL;
	to_wmr(ibmr)->npages = 0;
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, wren_ib_set_page);
}
