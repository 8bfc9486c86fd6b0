// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A client maps its range rounded out to its own page size (64 KiB for
 * GPU memory); ib_umem's helpers expect the table to start at the
 * PAGE_SIZE page holding umem->address and to end with the PAGE_SIZE page
 * holding its last byte.  Trim the table to that, remembering what was
 * changed, and put it back before the table goes back to the client: its
 * dma_unmap() may compare the table with the one it returned.
 */
#include <linux/mm.h>
#include <linux/scatterlist.h>

#include "peer_mem_priv.h"

/* The head to cut when the client rounded the range out to @psz. */
static unsigned long wren_peer_head_for(struct ib_umem *umem, unsigned long psz,
					u64 mapped)
{
	unsigned long start = umem->address & PAGE_MASK;
	unsigned long end = PAGE_ALIGN(umem->address + umem->length);
	unsigned long head = start - ALIGN_DOWN(umem->address, psz);

	if (head + (end - start) + (ALIGN(end, psz) - end) != mapped)
		return ULONG_MAX;
	return head;
}

/*
 * Bytes the client mapped before the range's first PAGE_SIZE page: none
 * when it mapped just the range, else the range rounded down to the
 * client's page size: the one get_page_size() gives (nvidia-peermem
 * answers it), or the first power of two the mapped length fits.
 */
static unsigned long wren_peer_head(struct wren_peer_mem *pm, u64 mapped)
{
	const struct peer_memory_client *ops = pm->client->ops;
	struct ib_umem *umem = &pm->pub.umem;
	unsigned long psz = 0, head = ULONG_MAX;
	unsigned int shift;

	if (mapped == PAGE_ALIGN(umem->address + umem->length) -
		      (umem->address & PAGE_MASK))
		return 0;
	if (ops->get_page_size)
		psz = ops->get_page_size(pm->client_context);
	if (psz > PAGE_SIZE && is_power_of_2(psz))
		return wren_peer_head_for(umem, psz, mapped);
	for (shift = PAGE_SHIFT + 1; shift <= 30 && head == ULONG_MAX; shift++)
		head = wren_peer_head_for(umem, 1UL << shift, mapped);
	return head;
}

/**
 * wren_peer_sgl_trim() - fit the client's table to the umem's range
 * @pm: the umem, its sgt_append.sgt as dma_map() filled it
 * @nmap: the number of mapped entries dma_map() reported
 *
 * Every entry must start and end on a PAGE_SIZE boundary and the entries
 * must cover the range.
 *
 * Return: 0, or -EINVAL with the table as the client left it.
 */
int wren_peer_sgl_trim(struct wren_peer_mem *pm, int nmap)
{
	struct ib_umem *umem = &pm->pub.umem;
	struct sg_table *sgt = &umem->sgt_append.sgt;
	unsigned long start = umem->address & PAGE_MASK;
	u64 keep = PAGE_ALIGN(umem->address + umem->length) - start;
	struct scatterlist *sg, *first = NULL;
	unsigned long head;
	unsigned int n = 0;
	u64 mapped = 0;
	int i;

	if (nmap <= 0 || (unsigned int)nmap > sgt->orig_nents)
		return -EINVAL;
	pm->saved = *sgt;
	sgt->nents = nmap;
	for_each_sgtable_dma_sg(sgt, sg, i) {
		if (!PAGE_ALIGNED(sg_dma_address(sg)) || !sg_dma_len(sg) ||
		    !PAGE_ALIGNED(sg_dma_len(sg)))
			goto err;
		mapped += sg_dma_len(sg);
	}
	head = wren_peer_head(pm, mapped);
	if (head == ULONG_MAX)
		goto err;

	for_each_sgtable_dma_sg(sgt, sg, i) {
		unsigned int len = sg_dma_len(sg);

		if (!first) {
			if (head >= len) {
				head -= len;
				continue;
			}
			first = sg;
			pm->first_sg = sg;
			pm->first_dma = sg_dma_address(sg);
			pm->first_dma_len = len;
			sg_dma_address(sg) += head;
			len -= head;
			sg_dma_len(sg) = len;
		}
		n++;
		if (keep <= len) {
			pm->last_sg = sg;
			pm->last_dma_len = sg_dma_len(sg);
			sg_dma_len(sg) = keep;
			break;
		}
		keep -= len;
	}
	if (!pm->last_sg) {
		wren_peer_sgl_restore(pm);
		return -EINVAL;
	}
	sgt->sgl = first;
	sgt->nents = n;
	return 0;

err:
	*sgt = pm->saved;
	return -EINVAL;
}

/**
 * wren_peer_sgl_restore() - give the table back as dma_map() filled it
 * @pm: the umem, trimmed by wren_peer_sgl_trim()
 */
void wren_peer_sgl_restore(struct wren_peer_mem *pm)
{
	if (pm->last_sg)
		sg_dma_len(pm->last_sg) = pm->last_dma_len;
	if (pm->first_sg) {
		sg_dma_address(pm->first_sg) = pm->first_dma;
		sg_dma_len(pm->first_sg) = pm->first_dma_len;
	}
	pm->first_sg = NULL;
	pm->last_sg = NULL;
	pm->pub.umem.sgt_append.sgt = pm->saved;
}
