// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Writing completions: the one path every engine (RDMA, Ethernet) uses to
 * put a 32-byte CQE into a CQ ring, in a 64-byte entry that starts with
 * the device clock when the CQ was created with WREN_CQ_F_CQE64.  It
 * never overruns the ring: when the
 * ring looks full the device re-reads the consumer index from the CQ's
 * doorbell record, and if it is really full the CQ goes into error with
 * WREN_EVENT_CQ_ERR / WREN_CQ_SYND_OVERRUN, as hardware does.
 */
#include <string.h>

#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_events.h"
#include "whw_ring.h"
#include "whw_services.h"

static void cq_error(struct wrenhw *hw, struct whw_cq *cq, uint8_t synd)
{
	cq->error = true;
	if (synd == WREN_CQ_SYND_OVERRUN)
		hw->cnt_rdma[WREN_RDMA_CNT_CQ_OVERFLOW]++;
	whw_aeq_post(hw, WREN_EVENT_CQ_ERR, synd, cq->hdr.id, 0);
}

bool whw_cq_refresh_ci(struct wrenhw *hw, struct whw_cq *cq)
{
	struct wren_cq_dbrec rec;
	uint32_t ci;

	if (hw->ops->dma_read(hw->opaque, cq->dbrec_addr, &rec, sizeof(rec)))
		return false;
	ci = whw_le32(rec.ci);
	/* A record claiming more than was produced is ignored. */
	if (cq->pi - ci <= (1u << cq->log_size))
		cq->ci = ci;
	return true;
}

int whw_cq_write_slot(struct wrenhw *hw, const struct whw_ring *ring,
		      uint32_t index, uint32_t log_size, uint32_t stride,
		      const void *entry)
{
	uint8_t e[WREN_CQE64_SIZE];

	memcpy(e, entry, stride);
	/* owner is the last byte of every entry layout (wren_cqe_offset). */
	e[stride - 1] = wren_ring_phase(index, log_size);
	return whw_ring_write_entry(hw, ring,
				    wren_cqe_offset(index, log_size, stride) +
				    WREN_CQE_SIZE - stride, e, stride);
}

int whw_cq_post(struct wrenhw *hw, struct whw_cq *cq, const void *cqe,
		bool solicited)
{
	uint32_t size = 1u << cq->log_size;
	struct wren_cqe64 e;

	if (cq->error || (hw->status & WREN_STATUS_FATAL))
		return -1;
	if (cq->pi - cq->ci >= size) {
		if (!whw_cq_refresh_ci(hw, cq)) {
			cq_error(hw, cq, WREN_CQ_SYND_DMA);
			return -1;
		}
		if (cq->pi - cq->ci >= size) {
			cq_error(hw, cq, WREN_CQ_SYND_OVERRUN);
			return -1;
		}
	}
	/* A 32-byte CQ's entry is the tail of @e: the CQE alone. */
	if (cq->stride == WREN_CQE64_SIZE) {
		memset(&e.ts, 0, sizeof(e.ts));
		e.ts.timestamp = whw_le64(whw_clock(hw));
	}
	memcpy(&e.cqe, cqe, sizeof(e.cqe));
	if (whw_cq_write_slot(hw, &cq->ring, cq->pi, cq->log_size, cq->stride,
			      (const uint8_t *)&e + sizeof(e) - cq->stride)) {
		cq_error(hw, cq, WREN_CQ_SYND_DMA);
		return -1;
	}
	cq->pi++;
	whw_cq_notify(hw, cq, solicited);
	return 0;
}
