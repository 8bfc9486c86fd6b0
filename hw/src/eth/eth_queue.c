// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the TX and RX engines share about an Ethernet queue: reading
 * posted descriptors (a few at a time, in one DMA, kept in a small
 * per-queue cache so a busy queue costs one ring read per several
 * packets), stopping the queue on an error, and writing completions.
 *
 * Caching is safe because software never rewrites a descriptor it has
 * published with the doorbell until the device completed it, and the
 * cache only ever holds descriptors below the producer index.
 */
#include <string.h>

#include "../core/whw_events.h"
#include "../core/whw_ring.h"
#include "../core/whw_services.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_eth.h"

static uint32_t desc_size(const struct whw_eth_q *q)
{
	return q->rx ? sizeof(struct wren_eth_rx_desc)
		     : sizeof(struct wren_eth_tx_desc);
}

/* Fills the cache from @idx: as many posted descriptors as one DMA reaches. */
static bool dcache_fill(struct wrenhw *hw, struct whw_eth_q *q, uint32_t idx)
{
	uint32_t esz = desc_size(q);
	uint32_t size = 1u << q->log_size;
	uint32_t slot = idx & (size - 1);
	uint64_t off = (uint64_t)slot * esz;
	uint64_t psz = 1ull << q->ring.page_shift;
	uint32_t n = q->pi - idx;
	uint32_t to_page = (uint32_t)((psz - (off & (psz - 1))) / esz);

	if (n > WHW_ETH_DCACHE)
		n = WHW_ETH_DCACHE;
	if (n > size - slot)
		n = size - slot;	/* the ring wraps */
	if (q->ring.pages && n > to_page)
		n = to_page;		/* the next page is elsewhere */
	q->dc_n = 0;
	if (hw->ops->dma_read(hw->opaque, whw_ring_addr(&q->ring, off),
			      q->dcache, (size_t)n * esz))
		return false;
	q->dc_first = idx;
	q->dc_n = n;
	return true;
}

const void *whw_ethq_desc(struct wrenhw *hw, struct whw_eth_q *q,
			  uint32_t idx)
{
	if (idx - q->ci >= q->pi - q->ci)
		return NULL;	/* not posted */
	if (idx - q->dc_first >= q->dc_n && !dcache_fill(hw, q, idx)) {
		whw_ethq_error(hw, q, WREN_WQ_SYND_DMA);
		return NULL;
	}
	return q->dcache + (size_t)(idx - q->dc_first) * desc_size(q);
}

void whw_ethq_error(struct wrenhw *hw, struct whw_eth_q *q, uint8_t synd)
{
	if (q->error)
		return;
	q->error = true;
	q->dc_n = 0;
	whw_log(hw, "wren: %s queue %u stopped, syndrome %u",
		q->rx ? "rx" : "tx", q->hdr.id, synd);
	whw_aeq_post(hw, WREN_EVENT_ETH_QUEUE_ERR, synd,
		     q->hdr.id | (q->rx ? WREN_COUNTERS_RXQ : 0), q->ci);
}

void whw_ethq_complete(struct wrenhw *hw, struct whw_eth_q *q,
		       struct wren_eth_cqe *cqe)
{
	cqe->queue = whw_le32(q->hdr.id);
	cqe->type = q->rx ? WREN_ETH_CQE_RX : WREN_ETH_CQE_TX;
	whw_cq_post(hw, q->cq, cqe, false);
}

bool whw_link_active(const struct wrenhw *hw)
{
	return hw->port.phys_up && hw->port.admin_up && !hw->port.flapping &&
	       !(hw->status & WREN_STATUS_FATAL);
}
