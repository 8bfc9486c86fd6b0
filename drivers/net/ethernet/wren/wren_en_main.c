// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Wren netdev: created once the device is up (after the admin queue
 * and the event queue work), with as many queue pairs as there are CPUs,
 * completion vectors and device queues.  Port settings (MTU, MAC, filter,
 * RSS; wren_en_port.c) go through admin commands, which sleep:
 * ndo_set_rx_mode, called under a spinlock, defers its command to a work
 * item.
 */
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/rtnetlink.h>

#include "wren_en.h"

void wren_eth_port_event(struct wren_dev *wdev, u8 state, u32 speed)
{
	struct wren_eth_priv *priv = READ_ONCE(wdev->eth);

	if (!priv)
		return;
	WRITE_ONCE(priv->speed_mbps, speed);
	if (!netif_running(priv->netdev))
		return;
	if (state == WREN_PORT_ACTIVE)
		netif_carrier_on(priv->netdev);
	else
		netif_carrier_off(priv->netdev);
}

static void wren_eth_update_carrier(struct wren_eth_priv *priv)
{
	struct wren_port_attr port;

	if (wren_eth_query_port(priv, &port)) {
		netif_carrier_off(priv->netdev);
		return;
	}
	WRITE_ONCE(priv->speed_mbps, le32_to_cpu(port.speed_mbps));
	if (port.state == WREN_PORT_ACTIVE)
		netif_carrier_on(priv->netdev);
	else
		netif_carrier_off(priv->netdev);
}

static int wren_eth_open(struct net_device *netdev)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	int err;

	if (wren_is_dead(priv->wdev))
		return -EIO;
	priv->num_chans = priv->req_chans;
	err = netif_set_real_num_tx_queues(netdev, priv->num_chans);
	if (!err)
		err = netif_set_real_num_rx_queues(netdev, priv->num_chans);
	if (err)
		return err;
	err = wren_eth_open_channels(priv);
	if (err)
		return err;
	if (priv->num_chans > 1) {
		err = wren_eth_set_rss(priv, true);
		if (err) {
			wren_eth_close_channels(priv);
			return err;
		}
	}
	wren_eth_update_carrier(priv);
	netif_tx_start_all_queues(netdev);
	return 0;
}

static int wren_eth_stop(struct net_device *netdev)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);

	netif_carrier_off(netdev);
	netif_tx_disable(netdev);
	wren_eth_close_channels(priv);
	return 0;
}

/* Ring or channel changes: a close and an open with the new sizes; if the
 * open fails, try again with the old ones so the interface stays usable.
 */
int wren_eth_reconfigure(struct wren_eth_priv *priv, unsigned int chans,
			 unsigned int tx_size, unsigned int rx_size)
{
	struct net_device *netdev = priv->netdev;
	unsigned int old_chans = priv->req_chans;
	unsigned int old_tx = priv->tx_ring_size, old_rx = priv->rx_ring_size;
	bool running = netif_running(netdev);
	int err;

	if (running)
		wren_eth_stop(netdev);
	priv->req_chans = chans;
	priv->tx_ring_size = tx_size;
	priv->rx_ring_size = rx_size;
	if (!running)
		return 0;
	err = wren_eth_open(netdev);
	if (err) {
		netdev_err(netdev, "reopen with %u channels, rings %u/%u failed: %d; restoring\n",
			   chans, tx_size, rx_size, err);
		priv->req_chans = old_chans;
		priv->tx_ring_size = old_tx;
		priv->rx_ring_size = old_rx;
		if (wren_eth_open(netdev))
			dev_close(netdev);
	}
	return err;
}

static void wren_eth_get_stats64(struct net_device *netdev,
				 struct rtnl_link_stats64 *s)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	unsigned int i, start;

	for (i = 0; i < priv->max_chans; i++) {
		struct wren_channel *ch = &priv->chans[i];
		u64 pk, by, er, dr;

		do {
			start = u64_stats_fetch_begin(&ch->tx_stats.syncp);
			pk = ch->tx_stats.packets;
			by = ch->tx_stats.bytes;
			er = ch->tx_stats.errors;
		} while (u64_stats_fetch_retry(&ch->tx_stats.syncp, start));
		s->tx_packets += pk;
		s->tx_bytes += by;
		s->tx_errors += er;
		do {
			start = u64_stats_fetch_begin(&ch->xmit_stats.syncp);
			dr = ch->xmit_stats.dropped;
		} while (u64_stats_fetch_retry(&ch->xmit_stats.syncp, start));
		s->tx_dropped += dr;
		do {
			start = u64_stats_fetch_begin(&ch->rx_stats.syncp);
			pk = ch->rx_stats.packets;
			by = ch->rx_stats.bytes;
			er = ch->rx_stats.errors;
			dr = ch->rx_stats.dropped;
		} while (u64_stats_fetch_retry(&ch->rx_stats.syncp, start));
		s->rx_packets += pk;
		s->rx_bytes += by;
		s->rx_errors += er;
		s->rx_dropped += dr;
	}
}

static int wren_eth_change_mtu(struct net_device *netdev, int mtu)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	struct wren_set_port_in in = {};
	int err;

	/* RX buffers are pages and frames may span several: no realloc. */
	in.mask = cpu_to_le32(WREN_SET_PORT_MTU);
	in.mtu = cpu_to_le16(mtu);
	err = wren_eth_set_port(priv, &in);
	if (!err)
		WRITE_ONCE(netdev->mtu, mtu);
	return err;
}

static int wren_eth_set_mac(struct net_device *netdev, void *p)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	struct wren_set_port_in in = {};
	struct sockaddr *sa = p;
	int err;

	if (!is_valid_ether_addr(sa->sa_data))
		return -EADDRNOTAVAIL;
	in.mask = cpu_to_le32(WREN_SET_PORT_MAC);
	ether_addr_copy(in.mac, sa->sa_data);
	err = wren_eth_set_port(priv, &in);
	if (!err)
		eth_hw_addr_set(netdev, sa->sa_data);
	return err;
}

static void wren_eth_rx_mode_work(struct work_struct *work)
{
	struct wren_eth_priv *priv = container_of(work, struct wren_eth_priv,
						  rx_mode_work);
	struct net_device *netdev = priv->netdev;
	struct wren_set_rx_mode_in *in;
	struct netdev_hw_addr *ha;
	u32 flags = 0, n = 0;

	in = kzalloc_obj(*in, GFP_KERNEL);
	if (!in)
		return;
	netif_addr_lock_bh(netdev);
	if (netdev->flags & IFF_PROMISC)
		flags |= WREN_RX_MODE_PROMISC;
	if (netdev->flags & IFF_ALLMULTI)
		flags |= WREN_RX_MODE_ALLMULTI;
	netdev_for_each_uc_addr(ha, netdev) {
		if (n == WREN_RX_MODE_MAX_MACS) {
			flags |= WREN_RX_MODE_PROMISC;
			break;
		}
		ether_addr_copy(in->macs[n++], ha->addr);
	}
	netdev_for_each_mc_addr(ha, netdev) {
		if (n == WREN_RX_MODE_MAX_MACS) {
			flags |= WREN_RX_MODE_ALLMULTI;
			break;
		}
		ether_addr_copy(in->macs[n++], ha->addr);
	}
	netif_addr_unlock_bh(netdev);
	in->flags = cpu_to_le32(flags);
	in->num_macs = cpu_to_le32(n);
	wren_eth_set_rx_filter(priv, in);
	kfree(in);
}

static void wren_eth_set_rx_mode(struct net_device *netdev)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);

	schedule_work(&priv->rx_mode_work);
}

/* Recovery from a TX timeout (wren_tx_timeout): destroy and recreate
 * every channel, which drops what the stalled rings held.
 */
static void wren_eth_tx_timeout_work(struct work_struct *work)
{
	struct wren_eth_priv *priv = container_of(work, struct wren_eth_priv,
						  tx_timeout_work);
	struct net_device *netdev = priv->netdev;
	int err;

	rtnl_lock();
	if (!netif_running(netdev) || wren_is_dead(priv->wdev))
		goto out;
	err = wren_eth_reconfigure(priv, priv->req_chans, priv->tx_ring_size,
				   priv->rx_ring_size);
	priv->tx_timeout_resets++;
	if (err)
		netdev_err(netdev, "channel reset after a TX timeout failed: %d\n", err);
	else
		netdev_info(netdev, "channels reset after a TX timeout\n");
out:
	rtnl_unlock();
}

static const struct net_device_ops wren_netdev_ops = {
	.ndo_open		= wren_eth_open,
	.ndo_stop		= wren_eth_stop,
	.ndo_start_xmit		= wren_start_xmit,
	.ndo_tx_timeout		= wren_tx_timeout,
	.ndo_get_stats64	= wren_eth_get_stats64,
	.ndo_change_mtu		= wren_eth_change_mtu,
	.ndo_set_mac_address	= wren_eth_set_mac,
	.ndo_set_rx_mode	= wren_eth_set_rx_mode,
	.ndo_validate_addr	= eth_validate_addr,
	.ndo_features_check	= passthru_features_check,
};

static void wren_eth_set_features(struct net_device *netdev, u64 caps)
{
	netdev_features_t f = NETIF_F_SG | NETIF_F_HIGHDMA;

	if (caps & WREN_CAP_ETH_CSUM)
		f |= NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM | NETIF_F_RXCSUM;
	if ((caps & WREN_CAP_ETH_TSO) && (caps & WREN_CAP_ETH_CSUM))
		f |= NETIF_F_TSO | NETIF_F_TSO6;
	if (caps & WREN_CAP_ETH_RSS)
		f |= NETIF_F_RXHASH;
	netdev->vlan_features = f;
	if (caps & WREN_CAP_ETH_VLAN)
		f |= NETIF_F_HW_VLAN_CTAG_TX | NETIF_F_HW_VLAN_CTAG_RX;
	netdev->hw_features = f;
	netdev->features = f;
	/* The device strips tags whatever the feature says (rx path). */
}

int wren_eth_probe(struct wren_dev *wdev)
{
	struct wren_device_attr *attr = &wdev->core.attr;
	struct wren_eth_priv *priv;
	struct net_device *netdev;
	unsigned int max, i;
	int err;

	if (!(wdev->core.caps & WREN_CAP_ETH))
		return 0;
	max = min3(num_online_cpus(), (unsigned int)wdev->num_vectors - 1,
		   (unsigned int)le16_to_cpu(attr->max_eth_queues));
	max = min_t(unsigned int, max, WREN_ETH_MAX_CHANNELS);
	if (!max) {
		dev_warn(&wdev->pdev->dev, "no completion vector or Ethernet queue for a netdev\n");
		return 0;
	}
	netdev = alloc_etherdev_mqs(sizeof(*priv), max, max);
	if (!netdev)
		return -ENOMEM;
	SET_NETDEV_DEV(netdev, &wdev->pdev->dev);
	priv = netdev_priv(netdev);
	priv->wdev = wdev;
	priv->netdev = netdev;
	priv->max_chans = max;
	priv->req_chans = max;
	priv->tx_ring_size = WREN_ETH_DEF_TX_RING;
	priv->rx_ring_size = WREN_ETH_DEF_RX_RING;
	INIT_WORK(&priv->rx_mode_work, wren_eth_rx_mode_work);
	INIT_WORK(&priv->tx_timeout_work, wren_eth_tx_timeout_work);
	priv->rss_hash_types = WREN_RSS_HASH_DEFAULT;
	netdev_rss_key_fill(priv->rss_key, sizeof(priv->rss_key));
	for (i = 0; i < WREN_RSS_TABLE_MAX; i++)
		priv->rss_table[i] = ethtool_rxfh_indir_default(i, max);
	priv->chans = kcalloc(max, sizeof(*priv->chans), GFP_KERNEL);
	if (!priv->chans) {
		err = -ENOMEM;
		goto err_free;
	}
	for (i = 0; i < max; i++) {
		priv->chans[i].priv = priv;
		priv->chans[i].index = i;
		priv->chans[i].dmadev = &wdev->pdev->dev;
		u64_stats_init(&priv->chans[i].tx_stats.syncp);
		u64_stats_init(&priv->chans[i].rx_stats.syncp);
		u64_stats_init(&priv->chans[i].xmit_stats.syncp);
	}

	netdev->netdev_ops = &wren_netdev_ops;
	netdev->ethtool_ops = &wren_ethtool_ops;
	wren_dcbnl_setup(priv);
	wren_eth_set_features(netdev, wdev->core.caps);
	netdev->min_mtu = ETH_MIN_MTU;
	netdev->max_mtu = le16_to_cpu(attr->max_mtu) ?: ETH_DATA_LEN;
	netdev->mtu = ETH_DATA_LEN;
	netif_set_tso_max_size(netdev, GSO_LEGACY_MAX_SIZE);
	netdev->priv_flags |= IFF_UNICAST_FLT;
	if (is_valid_ether_addr(attr->mac)) {
		eth_hw_addr_set(netdev, attr->mac);
	} else {
		dev_warn(&wdev->pdev->dev, "device MAC %pM is not valid; using a random one\n",
			 attr->mac);
		eth_hw_addr_random(netdev);
	}
	netif_carrier_off(netdev);
	netdev->watchdog_timeo = WREN_ETH_TX_TIMEOUT;

	/* The port starts at the device's default MTU; make it ours before
	 * anyone can open the interface.
	 */
	err = wren_eth_change_mtu(netdev, netdev->mtu);
	if (err)
		dev_warn(&wdev->pdev->dev, "cannot set the port MTU: %d\n", err);

	wdev->eth = priv;
	err = register_netdev(netdev);
	if (err) {
		wdev->eth = NULL;
		goto err_free;
	}
	netdev_info(netdev, "Wren Ethernet %pM, %u queue pairs, max MTU %u\n",
		    netdev->dev_addr, max, netdev->max_mtu);
	return 0;

err_free:
	kfree(priv->chans);
	free_netdev(netdev);
	return err;
}

void wren_eth_remove(struct wren_dev *wdev)
{
	struct wren_eth_priv *priv = wdev->eth;

	if (!priv)
		return;
	unregister_netdev(priv->netdev);
	cancel_work_sync(&priv->rx_mode_work);
	cancel_work_sync(&priv->tx_timeout_work);
	/* The management interrupt may be passing a port event on. */
	WRITE_ONCE(wdev->eth, NULL);
	synchronize_irq(pci_irq_vector(wdev->pdev, 0));
	kfree(priv->chans);
	free_netdev(priv->netdev);
}

/**
 * wren_eth_detach() - take the netdev off a device about to be reset
 * @wdev: the device
 *
 * The netdev stays registered, with its name, addresses and routes; its
 * channels go and the stack sees the device absent (no transmit, no
 * ethtool) until wren_eth_attach().  Caller holds the RTNL lock.
 */
void wren_eth_detach(struct wren_dev *wdev)
{
	struct wren_eth_priv *priv = wdev->eth;

	ASSERT_RTNL();
	if (!priv)
		return;
	netif_device_detach(priv->netdev);
	netif_carrier_off(priv->netdev);
	wren_eth_close_channels(priv);
}

/**
 * wren_eth_attach() - give the netdev back to a device that was reset
 * @wdev: the device, its admin queue working again
 *
 * Programs the port as the netdev had it (MTU, MAC, receive filters) and
 * reopens the channels if the interface is up.  Caller holds the RTNL lock.
 *
 * Return: 0, or the errno of the step that failed (the interface is then
 * left down).
 */
int wren_eth_attach(struct wren_dev *wdev)
{
	struct wren_eth_priv *priv = wdev->eth;
	struct net_device *netdev;
	struct sockaddr sa;
	int err;

	ASSERT_RTNL();
	if (!priv)
		return 0;
	netdev = priv->netdev;
	err = wren_eth_change_mtu(netdev, netdev->mtu);
	if (!err) {
		sa.sa_family = netdev->type;
		memcpy(sa.sa_data, netdev->dev_addr, ETH_ALEN);
		err = wren_eth_set_mac(netdev, &sa);
	}
	if (!err && netif_running(netdev))
		err = wren_eth_open(netdev);
	/* Present again either way: a failed port may be opened by hand. */
	netif_device_attach(netdev);
	if (err) {
		netdev_err(netdev, "cannot bring the port back after the reset: %d\n", err);
		dev_close(netdev);
		return err;
	}
	wren_eth_set_rx_mode(netdev);
	return 0;
}
