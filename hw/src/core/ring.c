// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue buffers in bus address space: validation of wren_buf_desc, the
 * copied page list, slot addressing, and the overlap checks that keep two
 * device-written rings (or a new queue and a live ring) from sharing memory.
 */
#include <stdlib.h>
#include <string.h>

#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_err.h"
#include "whw_ring.h"

#define SYND_DESC(base, field) \
	((base) + (uint32_t)offsetof(struct wren_buf_desc, field))

/* Page lists are fetched in bounded chunks, never one guest-sized DMA. */
#define LIST_CHUNK	512u

static int cmp_extent(const void *a, const void *b)
{
	const struct whw_extent *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Sorts and merges the extents; false if two of them overlap (a page
 * listed twice would make the device write one place for two slots).
 */
static bool extents_finish(struct whw_ring *r)
{
	uint32_t out = 0;

	qsort(r->ext, r->next, sizeof(*r->ext), cmp_extent);
	for (uint32_t i = 0; i < r->next; i++) {
		if (out && r->ext[i].start < r->ext[out - 1].end)
			return false;
		if (out && r->ext[i].start == r->ext[out - 1].end)
			r->ext[out - 1].end = r->ext[i].end;
		else
			r->ext[out++] = r->ext[i];
	}
	r->next = out;
	return true;
}

struct whw_err whw_ring_contig(struct whw_ring *r, uint64_t base,
			       uint64_t bytes)
{
	memset(r, 0, sizeof(*r));
	if (!base || base + bytes < base)
		return WHW_ERR(WREN_AQ_STATUS_BAD_ADDR, 0);
	r->ext = malloc(sizeof(*r->ext));
	if (!r->ext)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	r->base = base;
	r->bytes = bytes;
	r->ext[0].start = base;
	r->ext[0].end = base + bytes;
	r->next = 1;
	return WHW_OK;
}

static struct whw_err load_pages(struct wrenhw *hw, struct whw_ring *r,
				 uint64_t list, uint32_t synd_base)
{
	uint64_t psz = 1ull << r->page_shift;
	uint64_t chunk[LIST_CHUNK];

	r->pages = calloc(r->npages, sizeof(*r->pages));
	r->ext = calloc(r->npages, sizeof(*r->ext));
	if (!r->pages || !r->ext)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	for (uint32_t i = 0; i < r->npages; i += LIST_CHUNK) {
		uint32_t n = r->npages - i < LIST_CHUNK ? r->npages - i
							: LIST_CHUNK;

		if (hw->ops->dma_read(hw->opaque, list + (uint64_t)i * 8,
				      chunk, (size_t)n * 8))
			return WHW_ERR(WREN_AQ_STATUS_DMA_ERROR,
				       SYND_DESC(synd_base, addr));
		for (uint32_t j = 0; j < n; j++) {
			uint64_t a = whw_le64(chunk[j]);
			uint64_t off = (uint64_t)(i + j) << r->page_shift;
			uint64_t len = r->bytes - off < psz ? r->bytes - off
							    : psz;

			if (!a || (a & (psz - 1)) || a + psz < a)
				return WHW_ERR(WREN_AQ_STATUS_BAD_ADDR,
					       SYND_DESC(synd_base, addr));
			r->pages[i + j] = a;
			r->ext[i + j].start = a;
			r->ext[i + j].end = a + len;
		}
	}
	r->next = r->npages;
	if (!extents_finish(r))
		return WHW_ERR(WREN_AQ_STATUS_BAD_ADDR,
			       SYND_DESC(synd_base, addr));
	return WHW_OK;
}

struct whw_err whw_ring_load(struct wrenhw *hw, struct whw_ring *r,
			     const struct wren_buf_desc *desc, uint64_t bytes,
			     uint32_t synd_base)
{
	uint64_t addr = whw_le64(desc->addr);
	uint32_t npages = whw_le32(desc->npages);
	uint8_t shift = desc->page_shift;
	uint64_t psz, need;
	struct whw_err err;

	memset(r, 0, sizeof(*r));
	if (shift < WREN_PAGE_SHIFT_MIN || shift > WREN_PAGE_SHIFT_MAX)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_DESC(synd_base, page_shift));
	if (desc->rsvd[0] || desc->rsvd[1] || desc->rsvd[2])
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       SYND_DESC(synd_base, rsvd));
	psz = 1ull << shift;
	if (npages == 0) {
		if (!addr || (addr & (psz - 1)))
			return WHW_ERR(WREN_AQ_STATUS_BAD_ADDR,
				       SYND_DESC(synd_base, addr));
		err = whw_ring_contig(r, addr, bytes);
		if (err.status)
			err.synd = SYND_DESC(synd_base, addr);
		r->page_shift = shift;
		return err;
	}
	/* The list must name exactly the pages the ring needs. */
	need = (bytes + psz - 1) >> shift;
	if (npages != need)
		return WHW_ERR(WREN_AQ_STATUS_BAD_SIZE,
			       SYND_DESC(synd_base, npages));
	if (!addr || (addr & 7) || addr + (uint64_t)npages * 8 < addr)
		return WHW_ERR(WREN_AQ_STATUS_BAD_ADDR,
			       SYND_DESC(synd_base, addr));
	if (npages > WHW_MAX_RING_PAGES - hw->ring_pages_used)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES,
			       SYND_DESC(synd_base, npages));
	r->npages = npages;
	r->page_shift = shift;
	r->bytes = bytes;
	err = load_pages(hw, r, addr, synd_base);
	if (err.status) {
		/* Not yet counted in ring_pages_used: just drop the arrays. */
		free(r->pages);
		free(r->ext);
		memset(r, 0, sizeof(*r));
		return err;
	}
	hw->ring_pages_used += npages;
	return WHW_OK;
}

void whw_ring_free(struct wrenhw *hw, struct whw_ring *r)
{
	whw_ring_unlink(hw, r);
	if (r->pages && hw->ring_pages_used >= r->npages)
		hw->ring_pages_used -= r->npages;
	free(r->pages);
	free(r->ext);
	memset(r, 0, sizeof(*r));
}

uint64_t whw_ring_addr(const struct whw_ring *r, uint64_t off)
{
	if (!r->pages)
		return r->base + off;
	return r->pages[off >> r->page_shift] +
	       (off & ((1ull << r->page_shift) - 1));
}

int whw_ring_write_entry(struct wrenhw *hw, const struct whw_ring *r,
			 uint64_t off, const void *entry, size_t len)
{
	uint64_t a = whw_ring_addr(r, off);
	const uint8_t *b = entry;

	/* The owner byte goes last so software never sees a torn entry. */
	if (hw->ops->dma_write(hw->opaque, a, b, len - 1))
		return -1;
	return hw->ops->dma_write(hw->opaque, a + len - 1, b + len - 1, 1);
}

static bool extents_overlap(const struct whw_ring *a,
			    const struct whw_ring *b)
{
	uint32_t i = 0, j = 0;

	while (i < a->next && j < b->next) {
		if (a->ext[i].end <= b->ext[j].start)
			i++;
		else if (b->ext[j].end <= a->ext[i].start)
			j++;
		else
			return true;
	}
	return false;
}

bool whw_ring_overlaps_live(const struct wrenhw *hw,
			    const struct whw_ring *r,
			    const struct whw_ring *except)
{
	for (const struct whw_ring *l = hw->live_rings; l; l = l->live_next)
		if (l != except && l != r && extents_overlap(r, l))
			return true;
	return false;
}

void whw_ring_link(struct wrenhw *hw, struct whw_ring *r)
{
	if (r->live)
		return;
	r->live = true;
	r->live_next = hw->live_rings;
	hw->live_rings = r;
}

void whw_ring_unlink(struct wrenhw *hw, struct whw_ring *r)
{
	if (!r->live)
		return;
	for (struct whw_ring **p = &hw->live_rings; *p; p = &(*p)->live_next) {
		if (*p == r) {
			*p = r->live_next;
			break;
		}
	}
	r->live = false;
	r->live_next = NULL;
}
