// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Ethernet receive and the NAPI poll of a channel.  Each RX descriptor is
 * one page_pool page; the device writes the frame after WREN_RX_HEADROOM
 * and a frame larger than one buffer continues in the next ones, each
 * with its own completion, the last one flagged EOP.  The first buffer
 * becomes the skb head (napi_build_skb), the others its fragments.
 *
 * The driver maps each buffer itself and unmaps it as it leaves the ring,
 * rather than letting page_pool keep pages mapped (PP_FLAG_DMA_MAP): a
 * page inside an skb that a socket has not read yet comes back to the
 * pool only later, and page_pool before Linux 6.15 then unmaps it after
 * the driver may have let go of the device, which leaves live mappings
 * on a removed device (the DMA-API checker reports them at unbind).
 */
#include <linux/dma-mapping.h>
#include <linux/if_vlan.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#ifdef HAVE_PAGE_POOL_HELPERS_H
#include <net/page_pool/helpers.h>
#else
#include <net/page_pool.h>
#endif

#include "wren_en.h"

int wren_rx_pool_create(struct wren_channel *ch)
{
	struct page_pool_params pp = {
		.order = 0,
		.pool_size = ch->rx_size,
		.nid = dev_to_node(ch->dmadev),
		.dev = ch->dmadev,
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

/* Post one mapped buffer at the producer index. */
static int wren_rx_post(struct wren_channel *ch, gfp_t gfp)
{
	u32 slot = ch->rx_pi & (ch->rx_size - 1);
	struct wren_eth_rx_desc *d = &ch->rx_ring[slot];
	struct wren_rx_buf *buf = &ch->rx_bufs[slot];
	struct page *page;
	dma_addr_t dma;

	page = page_pool_alloc_pages(ch->pool, gfp | __GFP_NOWARN);
	if (!page)
		return -ENOMEM;
	dma = dma_map_page(ch->dmadev, page, WREN_RX_HEADROOM, WREN_RX_BUF_LEN,
			   DMA_FROM_DEVICE);
	if (unlikely(dma_mapping_error(ch->dmadev, dma))) {
		page_pool_put_full_page(ch->pool, page, false);
		return -ENOMEM;
	}
	buf->page = page;
	buf->dma = dma;
	d->addr = cpu_to_le64(dma);
	d->len = cpu_to_le16(WREN_RX_BUF_LEN);
	d->rsvd0 = 0;
	d->rsvd1 = 0;
	ch->rx_pi++;
	return 0;
}

/* Post buffers into every free slot; false if the ring is left empty. */
bool wren_rx_refill(struct wren_channel *ch, gfp_t gfp)
{
	u32 start = ch->rx_pi;

	while (ch->rx_pi - ch->rx_ci < ch->rx_size) {
		if (wren_rx_post(ch, gfp)) {
			u64_stats_update_begin(&ch->rx_stats.syncp);
			ch->rx_stats.alloc_fail++;
			u64_stats_update_end(&ch->rx_stats.syncp);
			break;
		}
	}
	if (ch->rx_pi != start)
		wren_rx_ring_doorbell(ch);
	return ch->rx_pi != ch->rx_ci;
}

/* Take the buffer at the consumer index off the ring, unmapped; NULL
 * when nothing is posted, which a confused device can claim.
 */
static struct page *wren_rx_take(struct wren_channel *ch)
{
	struct wren_rx_buf *buf = &ch->rx_bufs[ch->rx_ci & (ch->rx_size - 1)];
	struct page *page = buf->page;

	if (ch->rx_ci == ch->rx_pi || !page)
		return NULL;
	dma_unmap_page(ch->dmadev, buf->dma, WREN_RX_BUF_LEN, DMA_FROM_DEVICE);
	buf->page = NULL;
	ch->rx_ci++;
	return page;
}

void wren_rx_free_all(struct wren_channel *ch)
{
	if (!IS_ERR_OR_NULL(ch->rx_skb))
		dev_kfree_skb_any(ch->rx_skb);
	ch->rx_skb = NULL;
	for (;;) {
		struct page *page = wren_rx_take(ch);

		if (!page)
			break;
		page_pool_put_full_page(ch->pool, page, false);
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
	u16 flags = le16_to_cpu(cqe->flags);
	unsigned int len = le16_to_cpu(cqe->len);
	struct sk_buff *skb = ch->rx_skb;
	struct page *page;

	page = wren_rx_take(ch);
	if (unlikely(!page)) {
		netdev_warn_once(ch->priv->netdev, "RX completion without a posted buffer\n");
		return 0;
	}

	if (unlikely(cqe->status || len > WREN_RX_BUF_LEN)) {
		page_pool_recycle_direct(ch->pool, page);
		goto drop_frame;
	}
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
				struct page *page = wren_rx_take(ch);

				if (page)
					page_pool_recycle_direct(ch->pool, page);
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
