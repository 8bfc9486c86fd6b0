// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Ethernet queues and receive filtering: CREATE/DESTROY_ETH_TXQ/RXQ,
 * SET_RSS and SET_RX_MODE.  The engines that move frames through them are
 * eth_tx.c and eth_rx.c.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/whw_ring.h"
#include "../core/whw_table.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_err.h"
#include "../whw_objects.h"
#include "whw_cmd.h"
#include "whw_handlers.h"

#define SYND_EQ(f)	WHW_SYND_IN(struct wren_create_eth_q_in, f)
#define SYND_RSS(f)	WHW_SYND_IN(struct wren_set_rss_in, f)
#define SYND_RXM(f)	WHW_SYND_IN(struct wren_set_rx_mode_in, f)
#define RSS_HASHES	(WREN_RSS_HASH_IPV4 | WREN_RSS_HASH_TCP_IPV4 | \
			 WREN_RSS_HASH_UDP_IPV4 | WREN_RSS_HASH_IPV6 | \
			 WREN_RSS_HASH_TCP_IPV6 | WREN_RSS_HASH_UDP_IPV6)
#define RX_MODES	(WREN_RX_MODE_PROMISC | WREN_RX_MODE_ALLMULTI)

struct whw_err whw_cmd_create_eth_q(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_create_eth_q_in *in = (const void *)c->in;
	bool rx = c->cmd->opcode == WREN_AQ_OP_CREATE_ETH_RXQ;
	uint32_t entry = rx ? sizeof(struct wren_eth_rx_desc)
			    : sizeof(struct wren_eth_tx_desc);
	struct whw_table *t = rx ? &hw->rxqs : &hw->txqs;
	struct whw_eth_q *q;
	struct whw_err err;
	struct whw_cq *cq;

	err = whw_check_rsvd_in(c, offsetof(struct wren_create_eth_q_in,
					    rsvd0),
				sizeof(in->rsvd0) + sizeof(in->rsvd));
	if (err.status)
		return err;
	cq = whw_table_get(&hw->cqs, whw_le32(in->cqn));
	if (!cq)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_EQ(cqn));
	if (in->log_size < WHW_ETH_LOG_SIZE_MIN ||
	    in->log_size > WHW_ETH_LOG_SIZE_MAX)
		return WHW_ERR(WREN_AQ_STATUS_BAD_SIZE, SYND_EQ(log_size));
	/* RX queues take the priority from the frame, not the queue. */
	if (rx ? in->prio != 0 : in->prio >= WREN_NUM_PRIO)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_EQ(prio));
	q = calloc(1, sizeof(*q));
	if (!q)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	err = whw_ring_load(hw, &q->ring, &in->ring,
			    (uint64_t)entry << in->log_size, SYND_EQ(ring));
	if (!err.status && whw_ring_overlaps_live(hw, &q->ring, NULL))
		err = WHW_ERR(WREN_AQ_STATUS_BAD_ADDR, SYND_EQ(ring.addr));
	if (!err.status && whw_table_alloc(t, &q->hdr) < 0)
		err = WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	if (err.status) {
		whw_ring_free(hw, &q->ring);
		free(q);
		return err;
	}
	q->rx = rx;
	q->prio = in->prio;
	q->log_size = in->log_size;
	q->cq = cq;
	whw_ref(&cq->hdr);
	c->result = q->hdr.id;
	return WHW_OK;
}

void whw_eth_q_free(struct wrenhw *hw, struct whw_eth_q *q)
{
	whw_unref(&q->cq->hdr);
	whw_table_remove(q->rx ? &hw->rxqs : &hw->txqs, q->hdr.id);
	whw_ring_free(hw, &q->ring);
	free(q);
}

bool whw_rxq_in_rss(const struct wrenhw *hw, uint32_t rxq)
{
	for (uint32_t i = 0; i < hw->rss_table_size; i++)
		if (hw->rss_table[i] == rxq)
			return true;
	return false;
}

struct whw_err whw_cmd_destroy_eth_q(struct wrenhw *hw, struct whw_cmd *c)
{
	bool rx = c->cmd->opcode == WREN_AQ_OP_DESTROY_ETH_RXQ;
	struct whw_err err;
	struct whw_eth_q *q = whw_cmd_handle_obj(c, rx ? &hw->rxqs : &hw->txqs,
						 &err);

	if (!q)
		return err;
	if (rx && whw_rxq_in_rss(hw, q->hdr.id))
		return WHW_ERR(WREN_AQ_STATUS_BUSY,
			       WHW_SYND_CMD(u.handle.handle));
	whw_eth_q_free(hw, q);
	return WHW_OK;
}

static bool is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

struct whw_err whw_cmd_set_rss(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_set_rss_in *in = (const void *)c->in;
	uint16_t size = whw_le16(in->table_size);
	struct whw_err err;

	if (in->rsvd0)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_RSS(rsvd0));
	err = whw_check_rsvd_in(c, offsetof(struct wren_set_rss_in, rsvd),
				sizeof(in->rsvd));
	if (err.status)
		return err;
	/*
	 * table_size 0 turns RSS off (every frame to the lowest-numbered RX
	 * queue again): without it the RX queues of the last table could
	 * never be destroyed (BUSY) short of a reset.  See hw/README.md.
	 */
	if ((size && !is_pow2(size)) || size > WREN_RSS_TABLE_MAX)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_RSS(table_size));
	if (in->hash_types & ~RSS_HASHES)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_RSS(hash_types));
	for (uint32_t i = 0; i < size; i++)
		if (!whw_table_get(&hw->rxqs, whw_le32(in->table[i])))
			return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE,
				       SYND_RSS(table) + i * 4);
	/* Entries past table_size are unused and must stay zero. */
	err = whw_check_rsvd_in(c, offsetof(struct wren_set_rss_in, table) +
				(size_t)size * 4,
				(size_t)(WREN_RSS_TABLE_MAX - size) * 4);
	if (err.status)
		return err;
	memcpy(hw->rss_key, in->key, sizeof(hw->rss_key));
	hw->rss_table_size = size;
	hw->rss_hash_types = in->hash_types;
	for (uint32_t i = 0; i < size; i++)
		hw->rss_table[i] = whw_le32(in->table[i]);
	return WHW_OK;
}

struct whw_err whw_cmd_set_rx_mode(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_set_rx_mode_in *in = (const void *)c->in;
	uint32_t flags = whw_le32(in->flags);
	uint32_t n = whw_le32(in->num_macs);

	if (flags & ~RX_MODES)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_RXM(flags));
	if (n > WREN_RX_MODE_MAX_MACS)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_RXM(num_macs));
	for (uint32_t i = 0; i < WREN_RX_MODE_MAX_MACS; i++) {
		const uint8_t *m = in->macs[i];
		uint32_t off = (uint32_t)offsetof(struct wren_set_rx_mode_in,
						  macs) + i * 8;

		/* Bytes 6-7 of every slot, and unused slots, are reserved. */
		if (m[6] || m[7])
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       WREN_SYND_IN | (off + 6));
		if (i >= n && !whw_all_zero(m, 6, NULL))
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       WREN_SYND_IN | off);
	}
	hw->rx_mode_flags = flags;
	hw->rx_num_macs = n;
	for (uint32_t i = 0; i < n; i++)
		memcpy(hw->rx_macs[i], in->macs[i], 6);
	return WHW_OK;
}
