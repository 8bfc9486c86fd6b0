// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Ethernet transmit: one descriptor per DMA-mapped piece of the skb (the
 * linear head, then each fragment), offloads in the first, EOP on the
 * last.  The device completes each packet once, at its EOP descriptor;
 * NAPI unmaps up to there and frees the skb.
 */
#include <linux/dma-mapping.h>
#include <linux/if_vlan.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/ip6_checksum.h>

#include "wren_en.h"

static void wren_tx_unmap(struct wren_channel *ch, struct wren_tx_buf *buf)
{
	if (!buf->len)
		return;
	if (buf->is_frag)
		dma_unmap_page(ch->dmadev, buf->dma, buf->len, DMA_TO_DEVICE);
	else
		dma_unmap_single(ch->dmadev, buf->dma, buf->len, DMA_TO_DEVICE);
	buf->len = 0;
}

/* Offload fields of the first descriptor; false: the packet cannot be
 * offloaded as it is and the caller falls back to software.
 */
static bool wren_tx_offload(struct sk_buff *skb, struct wren_eth_tx_desc *d)
{
	unsigned int l3 = skb_network_offset(skb);
	unsigned int l4 = skb_checksum_start_offset(skb);
	__be16 proto = vlan_get_protocol(skb);
	u16 flags = 0;
	u8 ipproto;

	if (skb->ip_summed != CHECKSUM_PARTIAL)
		return true;
	if (proto == htons(ETH_P_IP)) {
		ipproto = ip_hdr(skb)->protocol;
	} else if (proto == htons(ETH_P_IPV6)) {
		ipproto = ipv6_hdr(skb)->nexthdr;
		flags |= WREN_ETH_TX_F_IPV6;
	} else {
		return false;
	}
	/* The device parses the L4 header right after the IP header. */
	if (l3 > U8_MAX || l4 > U8_MAX)
		return false;
	if (ipproto == IPPROTO_UDP && !skb_is_gso(skb))
		flags |= WREN_ETH_TX_F_UDP;
	else if (ipproto != IPPROTO_TCP)
		return false;
	flags |= WREN_ETH_TX_F_CSUM;
	if (skb_is_gso(skb)) {
		unsigned int hdr_len = l4 + tcp_hdrlen(skb);

		if (hdr_len > U8_MAX)
			return false;
		flags |= WREN_ETH_TX_F_TSO;
		d->mss = cpu_to_le16(skb_shinfo(skb)->gso_size);
		d->hdr_len = hdr_len;
	}
	d->l3_offset = l3;
	d->l4_offset = l4;
	d->flags |= cpu_to_le16(flags);
	return true;
}

static void wren_tx_ring_doorbell(struct wren_channel *ch)
{
	/* writeq orders the descriptor writes before the doorbell. */
	writeq(WREN_DB_VAL(ch->txqn, 0, ch->tx_pi),
	       ch->priv->wdev->db + WREN_DB_ETH_TX);
}

static void wren_tx_maybe_stop(struct wren_channel *ch)
{
	if (likely(wren_tx_free(ch) >= WREN_TX_WAKE_THRESH))
		return;
	netif_tx_stop_queue(ch->nq);
	/* Pairs with the barrier in wren_tx_poll_done: either we see the
	 * space it freed, or it sees the queue stopped and wakes it.
	 */
	smp_mb();
	if (wren_tx_free(ch) >= WREN_TX_WAKE_THRESH)
		netif_tx_start_queue(ch->nq);
}

netdev_tx_t wren_start_xmit(struct sk_buff *skb, struct net_device *netdev)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	struct wren_channel *ch = &priv->chans[skb_get_queue_mapping(skb)];
	unsigned int nfrags = skb_shinfo(skb)->nr_frags;
	u32 mask = ch->tx_size - 1;
	struct wren_eth_tx_desc *d, *first = NULL;
	struct wren_tx_buf *buf;
	unsigned int i, bytes;
	struct wren_eth_tx_desc tmpl = {};
	u32 pi = ch->tx_pi;
	u16 offload_flags;
	dma_addr_t dma;

	if (unlikely(wren_tx_free(ch) < nfrags + 1)) {
		/* wren_tx_maybe_stop keeps room for the largest packet, so
		 * a full ring at this point is a driver bug.
		 */
		netif_tx_stop_queue(ch->nq);
		netdev_err_once(netdev, "TX queue %u awake with a full ring\n",
				ch->index);
		u64_stats_update_begin(&ch->xmit_stats.syncp);
		ch->xmit_stats.busy++;
		u64_stats_update_end(&ch->xmit_stats.syncp);
		return NETDEV_TX_BUSY;
	}
	if (skb_put_padto(skb, ETH_ZLEN))
		goto dropped_freed;
	/* Decided before mapping: the software fallback may move the head. */
	if (!wren_tx_offload(skb, &tmpl) &&
	    (skb_is_gso(skb) || skb_checksum_help(skb)))
		goto dropped;
	offload_flags = le16_to_cpu(tmpl.flags);

	for (i = 0; i <= nfrags; i++) {
		unsigned int len;
		bool is_frag = i > 0;

		if (!is_frag) {
			len = skb_headlen(skb);
			if (!len)
				continue;
			dma = dma_map_single(ch->dmadev, skb->data, len, DMA_TO_DEVICE);
		} else {
			const skb_frag_t *frag = &skb_shinfo(skb)->frags[i - 1];

			len = skb_frag_size(frag);
			dma = skb_frag_dma_map(ch->dmadev, frag, 0, len, DMA_TO_DEVICE);
		}
		if (unlikely(dma_mapping_error(ch->dmadev, dma) || len > U16_MAX)) {
			if (!dma_mapping_error(ch->dmadev, dma)) {
				if (is_frag)
					dma_unmap_page(ch->dmadev, dma, len, DMA_TO_DEVICE);
				else
					dma_unmap_single(ch->dmadev, dma, len,
							 DMA_TO_DEVICE);
			}
			goto unwind;
		}
		buf = &ch->tx_bufs[pi & mask];
		buf->skb = NULL;
		buf->dma = dma;
		buf->len = len;
		buf->is_frag = is_frag;
		d = &ch->tx_ring[pi & mask];
		memset(d, 0, sizeof(*d));
		d->addr = cpu_to_le64(dma);
		d->len = cpu_to_le16(len);
		if (!first)
			first = d;
		pi++;
	}
	if (unlikely(!first))
		goto dropped;

	first->flags = tmpl.flags;
	first->mss = tmpl.mss;
	first->l3_offset = tmpl.l3_offset;
	first->l4_offset = tmpl.l4_offset;
	first->hdr_len = tmpl.hdr_len;
	if (skb_vlan_tag_present(skb)) {
		first->flags |= cpu_to_le16(WREN_ETH_TX_F_VLAN);
		first->vlan_tci = cpu_to_le16(skb_vlan_tag_get(skb));
	} else if (skb->priority && skb->priority < WREN_NUM_PRIO &&
		   (priv->wdev->core.caps & WREN_CAP_DCB_ETS)) {
		/* SO_PRIORITY of an untagged packet: the NIC schedules and
		 * pauses it on that priority, unless it trusts the packet's
		 * DSCP (queues.rst, TX flags).
		 */
		first->flags |= cpu_to_le16(WREN_ETH_TX_F_PRIO);
		first->prio = skb->priority;
	}
	d = &ch->tx_ring[(pi - 1) & mask];
	d->flags |= cpu_to_le16(WREN_ETH_TX_F_EOP);
	ch->tx_bufs[(pi - 1) & mask].skb = skb;

	/* BQL counts skb->len both ways. */
	bytes = skb->len;
	skb_tx_timestamp(skb);
	WRITE_ONCE(ch->tx_pi, pi);

	u64_stats_update_begin(&ch->xmit_stats.syncp);
	if (offload_flags & WREN_ETH_TX_F_TSO)
		ch->xmit_stats.tso++;
	else if (offload_flags)
		ch->xmit_stats.csum++;
	u64_stats_update_end(&ch->xmit_stats.syncp);

	wren_tx_maybe_stop(ch);
	if (__netdev_tx_sent_queue(ch->nq, bytes, netdev_xmit_more()))
		wren_tx_ring_doorbell(ch);
	return NETDEV_TX_OK;

unwind:
	while (pi != ch->tx_pi) {
		pi--;
		wren_tx_unmap(ch, &ch->tx_bufs[pi & mask]);
	}
dropped:
	dev_kfree_skb_any(skb);
dropped_freed:
	u64_stats_update_begin(&ch->xmit_stats.syncp);
	ch->xmit_stats.dropped++;
	u64_stats_update_end(&ch->xmit_stats.syncp);
	/* A batch may have ended on this packet: flush what is posted. */
	if (!netdev_xmit_more())
		wren_tx_ring_doorbell(ch);
	return NETDEV_TX_OK;
}

/* One TX completion: everything up to its EOP descriptor is done. */
void wren_tx_complete(struct wren_channel *ch, const struct wren_eth_cqe *cqe,
		      int budget, unsigned int *pkts, unsigned int *bytes)
{
	u16 eop = le16_to_cpu(cqe->desc_idx);
	u32 mask = ch->tx_size - 1;
	u32 ci = ch->tx_ci;
	bool done;

	do {
		struct wren_tx_buf *buf = &ch->tx_bufs[ci & mask];

		if (ci == READ_ONCE(ch->tx_pi)) {
			netdev_warn_once(ch->priv->netdev,
					 "TX completion for descriptor %u beyond the producer index\n",
					 eop);
			break;
		}
		wren_tx_unmap(ch, buf);
		done = (u16)ci == eop;
		if (buf->skb) {
			(*pkts)++;
			*bytes += buf->skb->len;
			napi_consume_skb(buf->skb, budget);
			buf->skb = NULL;
		}
		ci++;
	} while (!done);
	if (cqe->status) {
		u64_stats_update_begin(&ch->tx_stats.syncp);
		ch->tx_stats.errors++;
		u64_stats_update_end(&ch->tx_stats.syncp);
	}
	WRITE_ONCE(ch->tx_ci, ci);
}

/* Close: the queue is destroyed, nothing will complete any more. */
void wren_tx_free_all(struct wren_channel *ch)
{
	u32 mask = ch->tx_size - 1;

	while (ch->tx_ci != ch->tx_pi) {
		struct wren_tx_buf *buf = &ch->tx_bufs[ch->tx_ci & mask];

		wren_tx_unmap(ch, buf);
		if (buf->skb)
			dev_kfree_skb_any(buf->skb);
		buf->skb = NULL;
		ch->tx_ci++;
	}
	netdev_tx_reset_queue(ch->nq);
}

/* The stack's watchdog found queue @txqueue stopped for longer than
 * watchdog_timeo.  Called from a timer with the queues frozen: say what
 * the ring looked like, count it, and leave the recovery (a reopen of
 * the channels, which sleeps on admin commands) to a work item.
 */
void wren_tx_timeout(struct net_device *netdev, unsigned int txqueue)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	struct wren_channel *ch;

	if (txqueue >= priv->num_chans || !priv->chans_open) {
		netdev_err(netdev, "TX timeout on queue %u, which is not open\n",
			   txqueue);
		return;
	}
	ch = &priv->chans[txqueue];
	netdev_err(netdev,
		   "TX timeout on queue %u: txqn %u pi %u ci %u free %u/%u, cqn %u cq_ci %u, stopped %d; resetting the channels\n",
		   txqueue, ch->txqn, READ_ONCE(ch->tx_pi), READ_ONCE(ch->tx_ci),
		   wren_tx_free(ch), ch->tx_size, ch->cqn, READ_ONCE(ch->cq_ci),
		   netif_xmit_stopped(ch->nq));
	u64_stats_update_begin(&ch->xmit_stats.syncp);
	ch->xmit_stats.timeouts++;
	u64_stats_update_end(&ch->xmit_stats.syncp);
	schedule_work(&priv->tx_timeout_work);
}
