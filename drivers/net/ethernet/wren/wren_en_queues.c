// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Ethernet channels: one per queue pair, each with its own completion EQ
 * on MSI-X vector index + 1, one CQ that both queues report to, a TX
 * queue, an RX queue with its page_pool, and a NAPI context.  Everything
 * is created at open and destroyed at close, so ring, channel and MTU
 * changes are a close and an open.
 */
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io-64-nonatomic-lo-hi.h>

#include "wren_en.h"

static void *wren_ring_alloc(struct wren_channel *ch, size_t size, dma_addr_t *dma)
{
	/* Rings are handed over as one contiguous buffer aligned to a page. */
	return dma_alloc_coherent(ch->dmadev, max_t(size_t, size, PAGE_SIZE),
				  dma, GFP_KERNEL);
}

static void wren_ring_free(struct wren_channel *ch, size_t size, void *ring,
			   dma_addr_t dma)
{
	if (ring)
		dma_free_coherent(ch->dmadev, max_t(size_t, size, PAGE_SIZE),
				  ring, dma);
}

static void wren_buf_desc_set(struct wren_buf_desc *d, dma_addr_t dma)
{
	d->addr = cpu_to_le64(dma);
	d->npages = 0;
	d->page_shift = PAGE_SHIFT;
}

/* Queue creation fails the open, loudly. */
static int wren_eth_created(struct wren_dev *wdev, const char *what, int err)
{
	if (err)
		dev_err(&wdev->pdev->dev, "%s failed: %d\n", what, err);
	return err;
}

/* One EQ per channel, one CQ per EQ: any event means "poll the channel",
 * so the entries are only consumed.
 */
static irqreturn_t wren_eth_irq(int irq, void *data)
{
	struct wren_channel *ch = data;

	while (wren_eq_next(&ch->eq))
		;
	wren_eq_arm(&ch->eq);
	napi_schedule_irqoff(&ch->napi);
	return IRQ_HANDLED;
}

static int wren_chan_open_eq(struct wren_channel *ch)
{
	struct wren_eth_priv *priv = ch->priv;
	struct wren_dev *wdev = priv->wdev;
	unsigned int cpu;
	int err;

	err = wren_eq_alloc(wdev, &ch->eq, WREN_ETH_EQ_LOG_SIZE);
	if (err)
		return err;
	err = wren_eq_create(&ch->eq, ch->index + 1);
	if (err) {
		netdev_err(priv->netdev, "CREATE_EQ for channel %u failed: %d\n",
			   ch->index, err);
		return err;
	}

	ch->irq = pci_irq_vector(wdev->pdev, ch->index + 1);
	snprintf(ch->irq_name, sizeof(ch->irq_name), "wren-eth%u@pci:%s",
		 ch->index, pci_name(wdev->pdev));
	err = request_irq(ch->irq, wren_eth_irq, 0, ch->irq_name, ch);
	if (err)
		return err;
	ch->irq_requested = true;
	/* Channel i's interrupt on the i-th CPU near the device. */
	cpu = cpumask_local_spread(ch->index, dev_to_node(ch->dmadev));
	irq_set_affinity_hint(ch->irq, cpumask_of(cpu));
	wren_eq_arm(&ch->eq);
	return 0;
}

static int wren_chan_open_cq(struct wren_channel *ch)
{
	struct wren_eth_priv *priv = ch->priv;
	struct wren_create_cq_in in = {};
	unsigned int entries;
	int err;

	entries = roundup_pow_of_two(ch->tx_size + ch->rx_size);
	ch->cq_log_size = ilog2(entries);
	ch->cq = wren_ring_alloc(ch, entries * sizeof(*ch->cq), &ch->cq_dma);
	if (!ch->cq)
		return -ENOMEM;
	ch->dbrec = dma_alloc_coherent(ch->dmadev, sizeof(*ch->dbrec),
				       &ch->dbrec_dma, GFP_KERNEL);
	if (!ch->dbrec)
		return -ENOMEM;
	ch->cq_ci = 0;
	wren_buf_desc_set(&in.ring, ch->cq_dma);
	in.dbrec_addr = cpu_to_le64(ch->dbrec_dma);
	in.eqn = cpu_to_le32(ch->eq.eqn);
	in.uar = cpu_to_le32(WREN_KERNEL_UAR);
	in.log_size = ch->cq_log_size;
	if (priv->wdev->core.caps & WREN_CAP_CQ_MODERATION) {
		in.moderation_usec = cpu_to_le16(priv->cq_mod_usec);
		in.moderation_count = cpu_to_le16(priv->cq_mod_count);
	}
	err = wren_eth_created(priv->wdev, "CREATE_CQ",
			       wren_cmd_create_cq(&priv->wdev->core, &in,
						  &ch->cqn));
	if (!err)
		ch->cq_live = true;
	return err;
}

static int wren_chan_open_txq(struct wren_channel *ch)
{
	struct wren_create_eth_q_in in = {};
	int err;

	ch->tx_ring = wren_ring_alloc(ch, ch->tx_size * sizeof(*ch->tx_ring),
				      &ch->tx_dma);
	ch->tx_bufs = kcalloc(ch->tx_size, sizeof(*ch->tx_bufs), GFP_KERNEL);
	if (!ch->tx_ring || !ch->tx_bufs)
		return -ENOMEM;
	ch->tx_pi = 0;
	ch->tx_ci = 0;
	wren_buf_desc_set(&in.ring, ch->tx_dma);
	in.cqn = cpu_to_le32(ch->cqn);
	in.log_size = ilog2(ch->tx_size);
	err = wren_eth_created(ch->priv->wdev, "CREATE_ETH_TXQ",
			       wren_cmd_create_eth_txq(ch->priv->wdev, &in,
						       &ch->txqn));
	if (!err)
		ch->txq_live = true;
	return err;
}

static int wren_chan_open_rxq(struct wren_channel *ch)
{
	struct wren_create_eth_q_in in = {};
	int err;

	err = wren_rx_pool_create(ch);
	if (err)
		return err;
	ch->rx_ring = wren_ring_alloc(ch, ch->rx_size * sizeof(*ch->rx_ring),
				      &ch->rx_dma);
	ch->rx_bufs = kcalloc(ch->rx_size, sizeof(*ch->rx_bufs), GFP_KERNEL);
	if (!ch->rx_ring || !ch->rx_bufs)
		return -ENOMEM;
	ch->rx_pi = 0;
	ch->rx_ci = 0;
	ch->rx_skb = NULL;
	wren_buf_desc_set(&in.ring, ch->rx_dma);
	in.cqn = cpu_to_le32(ch->cqn);
	in.log_size = ilog2(ch->rx_size);
	err = wren_eth_created(ch->priv->wdev, "CREATE_ETH_RXQ",
			       wren_cmd_create_eth_rxq(ch->priv->wdev, &in,
						       &ch->rxqn));
	if (err)
		return err;
	ch->rxq_live = true;
	if (!wren_rx_refill(ch, GFP_KERNEL))
		return -ENOMEM;
	return 0;
}

/* Tears down whatever part of the channel exists; NAPI is already off. */
static void wren_chan_close(struct wren_channel *ch)
{
	struct wren_dev *wdev = ch->priv->wdev;

	if (ch->txq_live)
		wren_cmd_destroy_eth_txq(wdev, ch->txqn);
	if (ch->rxq_live)
		wren_cmd_destroy_eth_rxq(wdev, ch->rxqn);
	if (ch->cq_live)
		wren_cmd_destroy_cq(&wdev->core, ch->cqn);
	wren_eq_destroy(&ch->eq);
	ch->txq_live = false;
	ch->rxq_live = false;
	ch->cq_live = false;
	if (ch->irq_requested) {
		irq_set_affinity_hint(ch->irq, NULL);
		free_irq(ch->irq, ch);
		ch->irq_requested = false;
	}

	if (ch->tx_bufs)
		wren_tx_free_all(ch);
	if (ch->rx_bufs)
		wren_rx_free_all(ch);
	kfree(ch->tx_bufs);
	kfree(ch->rx_bufs);
	ch->tx_bufs = NULL;
	ch->rx_bufs = NULL;
	wren_rx_pool_destroy(ch);
	wren_ring_free(ch, ch->tx_size * sizeof(*ch->tx_ring), ch->tx_ring, ch->tx_dma);
	wren_ring_free(ch, ch->rx_size * sizeof(*ch->rx_ring), ch->rx_ring, ch->rx_dma);
	wren_ring_free(ch, BIT(ch->cq_log_size) * sizeof(*ch->cq), ch->cq, ch->cq_dma);
	wren_eq_free(&ch->eq);
	if (ch->dbrec)
		dma_free_coherent(ch->dmadev, sizeof(*ch->dbrec), ch->dbrec,
				  ch->dbrec_dma);
	ch->tx_ring = NULL;
	ch->rx_ring = NULL;
	ch->cq = NULL;
	ch->dbrec = NULL;
}

static int wren_chan_open(struct wren_channel *ch)
{
	int err;

	err = wren_chan_open_eq(ch);
	if (!err)
		err = wren_chan_open_cq(ch);
	if (!err)
		err = wren_chan_open_txq(ch);
	if (!err)
		err = wren_chan_open_rxq(ch);
	return err;
}

int wren_eth_open_channels(struct wren_eth_priv *priv)
{
	unsigned int i, cpu;
	int err = 0;

	for (i = 0; i < priv->num_chans; i++) {
		struct wren_channel *ch = &priv->chans[i];

		ch->tx_size = priv->tx_ring_size;
		ch->rx_size = priv->rx_ring_size;
		ch->nq = netdev_get_tx_queue(priv->netdev, i);
		/* Before the interrupt exists: its handler schedules NAPI. */
		netif_napi_add(priv->netdev, &ch->napi, wren_napi_poll);
		err = wren_chan_open(ch);
		if (err)
			break;
	}
	if (err) {
		unsigned int failed = i;

		wren_chan_close(&priv->chans[failed]);
		netif_napi_del(&priv->chans[failed].napi);
		for (i = 0; i < failed; i++) {
			wren_chan_close(&priv->chans[i]);
			netif_napi_del(&priv->chans[i].napi);
		}
		return err;
	}
	for (i = 0; i < priv->num_chans; i++) {
		/* Transmit from a CPU on the queue whose interrupt it takes. */
		cpu = cpumask_local_spread(i, dev_to_node(priv->chans[i].dmadev));
		netif_set_xps_queue(priv->netdev, cpumask_of(cpu), i);
		napi_enable(&priv->chans[i].napi);
		/* The RX buffers are posted; let the first event through. */
		wren_cq_arm(&priv->chans[i]);
	}
	priv->chans_open = true;
	return 0;
}

void wren_eth_close_channels(struct wren_eth_priv *priv)
{
	unsigned int i;

	if (!priv->chans_open)
		return;
	priv->chans_open = false;
	for (i = 0; i < priv->num_chans; i++)
		napi_disable(&priv->chans[i].napi);
	/* A NAPI poll that ran after the caller's netif_tx_disable() may
	 * have woken a queue; with NAPI off nothing can wake one again, so
	 * this is the stop that lets no xmit reach the rings freed below.
	 */
	netif_tx_disable(priv->netdev);
	/* The RSS table holds the RX queues: release it first. */
	if (priv->rss_on)
		wren_eth_set_rss(priv, false);
	/* The interrupt goes with the channel, before its NAPI context. */
	for (i = 0; i < priv->num_chans; i++) {
		wren_chan_close(&priv->chans[i]);
		netif_napi_del(&priv->chans[i].napi);
	}
}

int wren_eth_modify_cq(struct wren_eth_priv *priv)
{
	unsigned int i;
	int err = 0;

	if (!priv->chans_open)
		return 0;
	for (i = 0; i < priv->num_chans && !err; i++) {
		err = wren_cmd_modify_cq_moderation(priv->wdev,
						    priv->chans[i].cqn,
						    priv->cq_mod_usec,
						    priv->cq_mod_count);
	}
	return err;
}
