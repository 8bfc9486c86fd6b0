// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Ethernet receive and the NAPI poll of a channel.  Each RX descriptor is
 * one page_pool page; the device writes the frame after WREN_RX_HEADROOM
 * and a frame larger than one buffer continues in the next ones, each
 * with its own completion, the last one flagged EOP.  The first buffer
 * becomes the skb head (napi_build_skb), the others its fragments.
 */
#include <linux/dma-mapping.h>
#include <linux/if_vlan.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#ifdef HAVE_PAGE_POOL_HELPERS_H
#include <net/page_pool/helpers.h>
#else
#include <net/page_pool.h>
#endif

#include "wren_eth.h"

int wren_rx_pool_create(struct wren_channel *ch)
{
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
		.order = 0,
		.pool_size = ch->rx_size,
		.nid = dev_to_node(ch->dmadev),
		.dev = ch->dmadev,
		.dma_dir = DMA_FROM_DEVICE,
		.offset = WREN_RX_HEADROOM,
		.max_len = WREN_RX_BUF_LEN,
	};
	struct page_pool *pool;

	pool = page_pool_create(&pp);
	if (IS_ERR(pool))
		return PTR_ERR(pool);
	ch->pool = pool;
	return 0;
}

void wren_rx_pool_destroy(struct wren_channel *ch)
{
	if (ch->pool)
		page_pool_destroy(ch->pool);
	ch->pool = NULL;
}

static void wren_rx_ring_doorbell(struct wren_channel *ch)
{
	writeq(WREN_DB_VAL(ch->rxqn, 0, ch->rx_pi),
	       ch->priv->wdev->db + WREN_DB_ETH_RX);
}

/* Post buffers into every free slot; false if the ring is left empty. */
bool wren_rx_refill(struct wren_channel *ch, gfp_t gfp)
{
	u32 mask = ch->rx_size - 1;
	u32 start = ch->rx_pi;

	while (ch->rx_pi - ch->rx_ci < ch->rx_size) {
		struct wren_eth_rx_desc *d = &ch->rx_ring[ch->rx_pi & mask];
		struct page *page;

		page = page_pool_alloc_pages(ch->pool, gfp | __GFP_NOWARN);
		if (!page) {
			u64_stats_update_begin(&ch->rx_stats.syncp);
			ch->rx_stats.alloc_fail++;
			u64_stats_update_end(&ch->rx_stats.syncp);
			break;
		}
		ch->rx_bufs[ch->rx_pi & mask].page = page;
		d->addr = cpu_to_le64(page_pool_get_dma_addr(page) + WREN_RX_HEADROOM);
		d->len = cpu_to_le16(WREN_RX_BUF_LEN);
		d->rsvd0 = 0;
		d->rsvd1 = 0;
		ch->rx_pi++;
	}
	if (ch->rx_pi != start)
		wren_rx_ring_doorbell(ch);
	return ch->rx_pi != ch->rx_ci;
}

void wren_rx_free_all(struct wren_channel *ch)
{
	u32 mask = ch->rx_size - 1;

	if (!IS_ERR_OR_NULL(ch->rx_skb))
		dev_kfree_skb_any(ch->rx_skb);
	ch->rx_skb = NULL;
	while (ch->rx_ci != ch->rx_pi) {
		struct wren_rx_buf *buf = &ch->rx_bufs[ch->rx_ci & mask];

		if (buf->page)
			page_pool_put_full_page(ch->pool, buf->page, false);
		buf->page = NULL;
		ch->rx_ci++;
	}
}

static void wren_rx_count(struct wren_channel *ch, u64 *field)
{
	u64_stats_update_begin(&ch->rx_stats.syncp);
	(*field)++;
	u64_stats_update_end(&ch->rx_stats.syncp);
}

/* Offload results of the last completion of a frame into the skb. */
static struct sk_buff *wren_rx_finish(struct wren_channel *ch, struct sk_buff *skb,
				      const struct wren_eth_cqe *cqe)
{
	struct net_device *netdev = ch->priv->netdev;
	u16 flags = le16_to_cpu(cqe->flags);

	if ((netdev->features & NETIF_F_RXCSUM) &&
	    (flags & WREN_ETH_RX_F_L4_CSUM_OK) && !(flags & WREN_ETH_RX_F_CSUM_BAD)) {
		skb->ip_summed = CHECKSUM_UNNECESSARY;
		ch->rx_stats.csum++;
	}
	if ((netdev->features & NETIF_F_RXHASH) && (flags & WREN_ETH_RX_F_RSS))
		skb_set_hash(skb, le32_to_cpu(cqe->rss_hash),
			     flags & (WREN_ETH_RX_F_TCP | WREN_ETH_RX_F_UDP) ?
			     PKT_HASH_TYPE_L4 : PKT_HASH_TYPE_L3);
	if (flags & WREN_ETH_RX_F_VLAN) {
		u16 tci = le16_to_cpu(cqe->vlan_tci);

		/* The device always strips the tag; put it back in the frame
		 * when the user turned the offload off.
		 */
		if (netdev->features & NETIF_F_HW_VLAN_CTAG_RX)
			__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), tci);
		else
			skb = vlan_insert_tag(skb, htons(ETH_P_8021Q), tci);
	}
	return skb;
}

/* One RX completion; returns 1 when it ended a frame handed to the stack. */
int wren_rx_complete(struct wren_channel *ch, const struct wren_eth_cqe *cqe)
{
	u32 mask = ch->rx_size - 1;
	struct wren_rx_buf *buf = &ch->rx_bufs[ch->rx_ci & mask];
	u16 flags = le16_to_cpu(cqe->flags);
	unsigned int len = le16_to_cpu(cqe->len);
	struct page *page = buf->page;
	struct sk_buff *skb = ch->rx_skb;

	if (unlikely(ch->rx_ci == ch->rx_pi || !page)) {
		netdev_warn_once(ch->priv->netdev, "RX completion without a posted buffer\n");
		return 0;
	}
	buf->page = NULL;
	ch->rx_ci++;

	if (unlikely(cqe->status || len > WREN_RX_BUF_LEN)) {
		page_pool_recycle_direct(ch->pool, page);
		goto drop_frame;
	}
	dma_sync_single_for_cpu(ch->dmadev,
				page_pool_get_dma_addr(page) + WREN_RX_HEADROOM,
				len, DMA_FROM_DEVICE);
	if (!skb) {
		void *va = page_address(page);

		net_prefetch(va + WREN_RX_HEADROOM);
		skb = napi_build_skb(va, PAGE_SIZE);
		if (unlikely(!skb)) {
			page_pool_recycle_direct(ch->pool, page);
			wren_rx_count(ch, &ch->rx_stats.dropped);
			goto drop_frame;
		}
		skb_mark_for_recycle(skb);
		skb_reserve(skb, WREN_RX_HEADROOM);
		__skb_put(skb, len);
	} else if (skb_shinfo(skb)->nr_frags < MAX_SKB_FRAGS) {
		skb_add_rx_frag(skb, skb_shinfo(skb)->nr_frags, page,
				WREN_RX_HEADROOM, len, PAGE_SIZE);
	} else {
		page_pool_recycle_direct(ch->pool, page);
		goto drop_frame;
	}

	if (!(flags & WREN_ETH_RX_F_EOP)) {
		ch->rx_skb = skb;
		return 0;
	}
	ch->rx_skb = NULL;

	u64_stats_update_begin(&ch->rx_stats.syncp);
	ch->rx_stats.packets++;
	ch->rx_stats.bytes += skb->len;
	skb = wren_rx_finish(ch, skb, cqe);
	u64_stats_update_end(&ch->rx_stats.syncp);
	if (unlikely(!skb))
		return 0;
	skb->protocol = eth_type_trans(skb, ch->priv->netdev);
	skb_record_rx_queue(skb, ch->index);
	napi_gro_receive(&ch->napi, skb);
	return 1;

drop_frame:
	/* The rest of a broken frame still arrives; drop it up to its EOP. */
	if (skb) {
		dev_kfree_skb_any(skb);
		ch->rx_skb = NULL;
	}
	if (!(flags & WREN_ETH_RX_F_EOP))
		ch->rx_skb = ERR_PTR(-EIO);
	wren_rx_count(ch, &ch->rx_stats.errors);
	return 0;
}

/* Poll the channel's CQ: TX completions without limit, RX up to @budget. */
int wren_napi_poll(struct napi_struct *napi, int budget)
{
	struct wren_channel *ch = container_of(napi, struct wren_channel, napi);
	u32 mask = BIT(ch->cq_log_size) - 1;
	unsigned int tx_pkts = 0, tx_bytes = 0;
	int rx_done = 0;
	bool refilled;

	while (rx_done < budget) {
		struct wren_eth_cqe *cqe = &ch->cq[ch->cq_ci & mask];

		if (!wren_ring_owned(READ_ONCE(cqe->owner), ch->cq_ci,
				     ch->cq_log_size))
			break;
		dma_rmb();
		if (cqe->type == WREN_ETH_CQE_TX) {
			wren_tx_complete(ch, cqe, budget, &tx_pkts, &tx_bytes);
		} else if (cqe->type == WREN_ETH_CQE_RX) {
			if (IS_ERR(ch->rx_skb)) {
				/* Tail of a dropped frame. */
				struct wren_rx_buf *buf =
					&ch->rx_bufs[ch->rx_ci & (ch->rx_size - 1)];

				if (buf->page)
					page_pool_recycle_direct(ch->pool, buf->page);
				buf->page = NULL;
				ch->rx_ci++;
				if (le16_to_cpu(cqe->flags) & WREN_ETH_RX_F_EOP)
					ch->rx_skb = NULL;
			} else {
				rx_done += wren_rx_complete(ch, cqe);
			}
		}
		ch->cq_ci++;
	}
	/* Give the slots back early so that a busy CQ never overruns. */
	WRITE_ONCE(ch->dbrec->ci, cpu_to_le32(ch->cq_ci));

	if (tx_pkts) {
		u64_stats_update_begin(&ch->tx_stats.syncp);
		ch->tx_stats.packets += tx_pkts;
		ch->tx_stats.bytes += tx_bytes;
		u64_stats_update_end(&ch->tx_stats.syncp);
		netdev_tx_completed_queue(ch->nq, tx_pkts, tx_bytes);
		/* Pairs with wren_tx_maybe_stop. */
		smp_mb();
		if (netif_tx_queue_stopped(ch->nq) &&
		    wren_tx_free(ch) >= WREN_TX_WAKE_THRESH) {
			netif_tx_wake_queue(ch->nq);
			u64_stats_update_begin(&ch->tx_stats.syncp);
			ch->tx_stats.wake++;
			u64_stats_update_end(&ch->tx_stats.syncp);
		}
	}

	refilled = wren_rx_refill(ch, GFP_ATOMIC);
	/* An empty RX ring gets no completions: keep polling until the
	 * pool gives pages again.
	 */
	if (!refilled)
		return budget;
	if (rx_done < budget && napi_complete_done(napi, rx_done))
		wren_cq_arm(ch);
	return rx_done;
}
