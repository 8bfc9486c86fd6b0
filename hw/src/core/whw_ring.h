/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Queue buffers in bus address space (ring.c): contiguous or paged, and
 * the overlap checks between device-written rings.
 */
#ifndef WHW_RING_H
#define WHW_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/wren/wren_hw.h>

#include "../whw_err.h"
#include "wrenhw.h"

struct whw_extent {
	uint64_t start;
	uint64_t end;		/* exclusive */
};

/*
 * A queue buffer in bus address space: either one contiguous block or a
 * copied page list (wren_buf_desc).  Entries never straddle a page since
 * every entry size divides every page size.
 */
struct whw_ring {
	uint64_t base;		/* contiguous buffer, or 0 when paged */
	uint64_t *pages;	/* npages bus addresses when paged */
	uint32_t npages;
	uint8_t page_shift;
	uint64_t bytes;
	struct whw_extent *ext;	/* sorted, merged: for overlap checks */
	uint32_t next;
	/* Device-written rings are linked for overlap checks. */
	bool live;
	struct whw_ring *live_next;
};

/* Outcome of a command or a validation step. */

/* Loads @desc describing @bytes of queue; synd_base locates @desc. */
struct whw_err whw_ring_load(struct wrenhw *hw, struct whw_ring *r,
			     const struct wren_buf_desc *desc, uint64_t bytes,
			     uint32_t synd_base);
struct whw_err whw_ring_contig(struct whw_ring *r, uint64_t base,
			       uint64_t bytes);
void whw_ring_free(struct wrenhw *hw, struct whw_ring *r);
uint64_t whw_ring_addr(const struct whw_ring *r, uint64_t off);
bool whw_ring_overlaps_live(const struct wrenhw *hw,
			    const struct whw_ring *r,
			    const struct whw_ring *except);
void whw_ring_link(struct wrenhw *hw, struct whw_ring *r);
void whw_ring_unlink(struct wrenhw *hw, struct whw_ring *r);
int whw_ring_write_entry(struct wrenhw *hw, const struct whw_ring *r,
			 uint64_t off, const void *entry, size_t len);

#endif
