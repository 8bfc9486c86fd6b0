// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Ethernet TX engine: walks each TX queue from the device's consumer
 * index to the producer index of the last WREN_DB_ETH_TX doorbell, one
 * packet (descriptors up to EOP) at a time, gathers it into the device's
 * scratch buffer, hands it to the offload stage (eth_offload.c) and
 * writes one completion per packet at its EOP descriptor.
 *
 * Errors that leave the packet's end known (bad flags or lengths,
 * reserved bits, bad offsets, a buffer DMA fault) complete that packet
 * with the syndrome as status and the queue goes on.  Errors that lose
 * the packet boundary (no EOP within WHW_TX_MAX_DESCS descriptors) or the
 * ring itself (descriptor DMA fault) stop the queue with
 * WREN_EVENT_ETH_QUEUE_ERR until it is destroyed.
 *
 * A packet starts only while the port has room on its priority
 * (whw_port_tx_room()); otherwise the queue waits, and the port asks for
 * wrenhw_process() again when the priority has drained.
 */
#include <string.h>

#include "../core/whw_table.h"
#include "../port/whw_sched.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_eth.h"

#define TX_FLAGS	(WREN_ETH_TX_F_EOP | WREN_ETH_TX_F_CSUM | \
			 WREN_ETH_TX_F_IP_CSUM | WREN_ETH_TX_F_TSO | \
			 WREN_ETH_TX_F_VLAN | WREN_ETH_TX_F_IPV6 | \
			 WREN_ETH_TX_F_UDP)

enum tx_step {
	TX_DONE,		/* one packet consumed */
	TX_WAIT,		/* its EOP is not posted yet */
	TX_STOP,		/* the queue went to error */
};

static void tx_complete(struct wrenhw *hw, struct whw_eth_q *q,
			uint32_t eop_idx, uint8_t status)
{
	struct wren_eth_cqe cqe;

	memset(&cqe, 0, sizeof(cqe));
	cqe.desc_idx = whw_le16((uint16_t)eop_idx);
	cqe.status = status;
	if (status) {
		hw->cnt_port[WREN_CNT_TX_ERRORS]++;
		q->counters[WREN_ETHQ_CNT_DROPPED]++;
	}
	whw_ethq_complete(hw, q, &cqe);
}

static bool desc_ok(const struct wrenhw *hw, const struct wren_eth_tx_desc *d)
{
	uint16_t flags = whw_le16(d->flags);
	uint16_t known = TX_FLAGS;

	/* A per-packet priority only where the scheduler exists to use it. */
	if (hw->caps & WREN_CAP_DCB_ETS)
		known |= WREN_ETH_TX_F_PRIO;
	if ((flags & WREN_ETH_TX_F_PRIO) ? d->prio >= WREN_NUM_PRIO : d->prio)
		return false;
	return d->len && !(flags & ~known) && !d->rsvd1 && !d->rsvd2;
}

/*
 * The priority a packet is scheduled on, from its first descriptor alone:
 * the tag's PCP, else WREN_ETH_TX_F_PRIO's prio, else the queue's.  Under
 * DSCP trust whw_eth_emit() may still pick the IP packet's DSCP's.
 */
static uint8_t desc_prio(const struct whw_eth_q *q,
			 const struct wren_eth_tx_desc *d)
{
	uint16_t flags = whw_le16(d->flags);

	if (flags & WREN_ETH_TX_F_VLAN)
		return (uint8_t)(whw_le16(d->vlan_tci) >> 13);
	if (flags & WREN_ETH_TX_F_PRIO)
		return d->prio & (WREN_NUM_PRIO - 1);
	return q->prio;
}

/* Copies the packet's descriptors into @pkt_d and their count into @n. */
static enum tx_step tx_collect(struct wrenhw *hw, struct whw_eth_q *q,
			       struct wren_eth_tx_desc *pkt_d, uint32_t *n)
{
	for (uint32_t i = 0; i < WHW_TX_MAX_DESCS; i++) {
		const struct wren_eth_tx_desc *d =
			whw_ethq_desc(hw, q, q->ci + i);

		if (!d && !q->error && i == 1u << q->log_size)
			break;	/* the whole ring is posted without an EOP */
		if (!d)
			return q->error ? TX_STOP : TX_WAIT;
		pkt_d[i] = *d;
		if (whw_le16(d->flags) & WREN_ETH_TX_F_EOP) {
			*n = i + 1;
			return TX_DONE;
		}
	}
	/* No EOP in sight: the packet boundary is lost. */
	*n = q->pi - q->ci < WHW_TX_MAX_DESCS ? q->pi - q->ci
					      : WHW_TX_MAX_DESCS;
	tx_complete(hw, q, q->ci + *n - 1, WREN_WQ_SYND_BAD_WQE);
	q->ci += *n;
	whw_ethq_error(hw, q, WREN_WQ_SYND_BAD_WQE);
	return TX_STOP;
}

static uint8_t tx_packet(struct wrenhw *hw, struct whw_eth_q *q,
			 const struct wren_eth_tx_desc *d, uint32_t n,
			 uint8_t prio)
{
	uint16_t flags = whw_le16(d[0].flags);
	uint32_t limit = (flags & WREN_ETH_TX_F_TSO) ? WHW_TSO_MAX_PACKET
						     : WHW_ETH_MAX_FRAME;
	uint8_t *pkt = hw->tx_buf + WHW_VLAN_HLEN;
	uint32_t total = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (!desc_ok(hw, &d[i]))
			return WREN_WQ_SYND_BAD_WQE;
		total += whw_le16(d[i].len);
	}
	if (total < WHW_ETH_HLEN || total > limit)
		return WREN_WQ_SYND_BAD_WQE;
	if (!whw_link_active(hw)) {
		/* Completed, not sent: the stack must not stall on a dead link. */
		hw->cnt_port[WREN_CNT_TX_DROPPED_LINK_DOWN]++;
		q->counters[WREN_ETHQ_CNT_DROPPED]++;
		return WREN_WQ_SYND_NONE;
	}
	total = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint16_t len = whw_le16(d[i].len);

		if (hw->ops->dma_read(hw->opaque, whw_le64(d[i].addr),
				      pkt + total, len))
			return WREN_WQ_SYND_DMA;
		total += len;
	}
	return whw_eth_tx_offload(hw, q, &d[0], prio, pkt, total);
}

static enum tx_step tx_one(struct wrenhw *hw, struct whw_eth_q *q)
{
	struct wren_eth_tx_desc d[WHW_TX_MAX_DESCS];
	enum tx_step step;
	uint32_t n = 0;
	uint8_t status, prio;

	step = tx_collect(hw, q, d, &n);
	if (step != TX_DONE)
		return step;
	/* Room on the priority it will most likely leave on. */
	prio = desc_prio(q, &d[0]);
	if (!whw_port_tx_room(hw, prio))
		return TX_WAIT;
	status = tx_packet(hw, q, d, n, prio);
	tx_complete(hw, q, q->ci + n - 1, status);
	q->ci += n;
	return TX_DONE;
}

/* Returns true when the queue still has posted work after its budget. */
static bool tx_queue_run(struct wrenhw *hw, struct whw_eth_q *q)
{
	for (uint32_t i = 0; i < WHW_TX_BUDGET; i++) {
		if (q->error || q->pi == q->ci)
			return false;
		if (tx_one(hw, q) != TX_DONE)
			return false;
	}
	return !q->error && q->pi != q->ci;
}

void whw_eth_tx_process(struct wrenhw *hw)
{
	bool more = false;

	if (hw->status & WREN_STATUS_FATAL)
		return;
	/* Each queue gets its budget in turn, so none starves the others. */
	for (uint32_t i = 0; i < hw->txqs.size; i++) {
		struct whw_eth_q *q = whw_table_get(&hw->txqs, i);

		if (q && tx_queue_run(hw, q))
			more = true;
	}
	if (more && hw->ops->schedule)
		hw->ops->schedule(hw->opaque);
}
