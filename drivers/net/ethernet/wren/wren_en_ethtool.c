// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ethtool for the Wren netdev.  Ring and channel changes reopen the
 * interface (wren_eth_reconfigure); counters are the driver's per-queue
 * ones followed by the device's port counter set and, with PFC, the
 * per-priority pause counters under mlx5's names.
 */
#include <linux/dma-mapping.h>
#include <linux/ethtool.h>
#include <linux/slab.h>

#include "wren_en.h"

#ifndef HAVE_ETHTOOL_PUTS
/* ethtool_puts() of newer kernels' <linux/ethtool.h>, for older ones. */
static void ethtool_puts(u8 **data, const char *str)
{
	ethtool_sprintf(data, "%s", str);
}
#endif

static const char * const wren_port_counter_names[] = {
	[WREN_CNT_RX_PACKETS]		= "port_rx_packets",
	[WREN_CNT_RX_BYTES]		= "port_rx_bytes",
	[WREN_CNT_TX_PACKETS]		= "port_tx_packets",
	[WREN_CNT_TX_BYTES]		= "port_tx_bytes",
	[WREN_CNT_RX_MULTICAST]		= "port_rx_multicast",
	[WREN_CNT_RX_BROADCAST]		= "port_rx_broadcast",
	[WREN_CNT_RX_DROPPED_NO_BUFFER]	= "port_rx_dropped_no_buffer",
	[WREN_CNT_RX_DROPPED_FILTER]	= "port_rx_dropped_filter",
	[WREN_CNT_RX_ERRORS_LENGTH]	= "port_rx_errors_length",
	[WREN_CNT_RX_CSUM_BAD]		= "port_rx_csum_bad",
	[WREN_CNT_TX_ERRORS]		= "port_tx_errors",
	[WREN_CNT_TX_DROPPED_LINK_DOWN]	= "port_tx_dropped_link_down",
	[WREN_CNT_RX_PAUSE]		= "port_rx_pause",
	[WREN_CNT_TX_PAUSE]		= "port_tx_pause",
	[WREN_CNT_LINK_DOWN_EVENTS]	= "port_link_down_events",
	[WREN_CNT_DB_ERRORS]		= "port_db_errors",
	[WREN_CNT_TX_PAUSE_STORM_WARNING_EVENTS] = "tx_pause_storm_warning_events",
	[WREN_CNT_TX_PAUSE_STORM_ERROR_EVENTS] = "tx_pause_storm_error_events",
};

/* Per priority, after the port set: name, counter set, counter. */
static const struct {
	const char *fmt;
	u8 set;				/* WREN_COUNTERS_PRIO or _PFC */
	u8 cnt;
} wren_prio_stats[] = {
	{ "rx_prio%u_bytes", WREN_COUNTERS_PRIO, WREN_PRIO_CNT_RX_PRIO_BYTES },
	{ "rx_prio%u_packets", WREN_COUNTERS_PRIO,
	  WREN_PRIO_CNT_RX_PRIO_PACKETS },
	{ "tx_prio%u_bytes", WREN_COUNTERS_PRIO, WREN_PRIO_CNT_TX_PRIO_BYTES },
	{ "tx_prio%u_packets", WREN_COUNTERS_PRIO,
	  WREN_PRIO_CNT_TX_PRIO_PACKETS },
	{ "rx_prio%u_pause", WREN_COUNTERS_PRIO, WREN_PRIO_CNT_RX_PFC_FRAMES },
	{ "rx_prio%u_pause_duration", WREN_COUNTERS_PRIO,
	  WREN_PRIO_CNT_RX_PFC_PAUSE_US },
	{ "tx_prio%u_pause", WREN_COUNTERS_PRIO, WREN_PRIO_CNT_TX_PFC_FRAMES },
	{ "tx_prio%u_pause_duration", WREN_COUNTERS_PFC,
	  WREN_PFC_CNT_TX_PAUSE_US },
	{ "rx_prio%u_pause_transition", WREN_COUNTERS_PFC,
	  WREN_PFC_CNT_RX_TRANSITIONS },
	{ "rx_prio%u_buf_discard", WREN_COUNTERS_PFC,
	  WREN_PFC_CNT_RX_BUFFER_DISCARDS },
};

#define WREN_PRIO_STATS	(WREN_NUM_PRIO * ARRAY_SIZE(wren_prio_stats))

/* pfc-prevention-tout: ethtool's "auto".  The range, what auto stands
 * for and the recovery time are the contract's WREN_PFC_TOUT_*_MS and
 * WREN_PFC_RECOVERY_MS, which the tools read too.
 */
#define WREN_PFC_TOUT_AUTO		PFC_STORM_PREVENTION_AUTO

static const char * const wren_txq_stat_names[] = {
	"packets", "bytes", "errors", "dropped", "busy", "csum", "tso", "wake",
	"timeouts",
};

static const char * const wren_rxq_stat_names[] = {
	"packets", "bytes", "errors", "dropped", "csum", "alloc_fail",
};

#define WREN_QUEUE_STATS \
	(ARRAY_SIZE(wren_txq_stat_names) + ARRAY_SIZE(wren_rxq_stat_names))

/* Driver-wide counters, after the per-queue ones. */
static const char * const wren_drv_stat_names[] = {
	"tx_timeout_resets",
};

static bool wren_has_counters(struct wren_eth_priv *priv)
{
	return priv->wdev->core.caps & WREN_CAP_COUNTERS;
}

static bool wren_has_prio_counters(struct wren_eth_priv *priv)
{
	return wren_has_counters(priv) &&
	       (priv->wdev->core.caps & WREN_CAP_DCB_PFC);
}

static void wren_get_drvinfo(struct net_device *netdev,
			     struct ethtool_drvinfo *info)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	u32 fw = priv->wdev->core.fw_version;

	strscpy(info->driver, WREN_DRV_NAME, sizeof(info->driver));
	snprintf(info->fw_version, sizeof(info->fw_version), "%u.%u.%u",
		 WREN_FW_VER_MAJOR(fw), WREN_FW_VER_MINOR(fw),
		 WREN_FW_VER_PATCH(fw));
	strscpy(info->bus_info, pci_name(priv->wdev->pdev), sizeof(info->bus_info));
}

static int wren_get_sset_count(struct net_device *netdev, int sset)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);

	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	return priv->max_chans * WREN_QUEUE_STATS + ARRAY_SIZE(wren_drv_stat_names) +
	       (wren_has_counters(priv) ? ARRAY_SIZE(wren_port_counter_names) : 0) +
	       (wren_has_prio_counters(priv) ? WREN_PRIO_STATS : 0);
}

static void wren_get_strings(struct net_device *netdev, u32 sset, u8 *data)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	unsigned int i, j;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i < priv->max_chans; i++) {
		for (j = 0; j < ARRAY_SIZE(wren_txq_stat_names); j++)
			ethtool_sprintf(&data, "tx%u_%s", i, wren_txq_stat_names[j]);
		for (j = 0; j < ARRAY_SIZE(wren_rxq_stat_names); j++)
			ethtool_sprintf(&data, "rx%u_%s", i, wren_rxq_stat_names[j]);
	}
	for (j = 0; j < ARRAY_SIZE(wren_drv_stat_names); j++)
		ethtool_puts(&data, wren_drv_stat_names[j]);
	if (wren_has_counters(priv))
		for (j = 0; j < ARRAY_SIZE(wren_port_counter_names); j++)
			ethtool_puts(&data, wren_port_counter_names[j]);
	if (wren_has_prio_counters(priv))
		for (i = 0; i < WREN_NUM_PRIO; i++)
			for (j = 0; j < ARRAY_SIZE(wren_prio_stats); j++)
				ethtool_sprintf(&data, wren_prio_stats[j].fmt, i);
}

/* The port counter set; counters the device does not have stay 0. */
static void wren_query_port_counters(struct wren_eth_priv *priv, u64 *out)
{
	if (wren_cmd_query_counters(&priv->wdev->core, WREN_COUNTERS_PORT, 0,
				    out, ARRAY_SIZE(wren_port_counter_names)))
		memset(out, 0, ARRAY_SIZE(wren_port_counter_names) * sizeof(*out));
}

/* Priority blocks of the PRIO set, then the PFC set of each priority. */
static void wren_query_prio_counters(struct wren_eth_priv *priv, u64 *out)
{
	struct wren_core_dev *cdev = &priv->wdev->core;
	u64 pfc[WREN_NUM_PRIO][WREN_NUM_PFC_COUNTERS] = {};
	u64 *prio;
	unsigned int i, j;

	prio = kcalloc(WREN_NUM_PRIO * WREN_NUM_PRIO_COUNTERS, sizeof(*prio),
		       GFP_KERNEL);
	if (!prio ||
	    wren_cmd_query_counters(cdev, WREN_COUNTERS_PRIO, 0, prio,
				    WREN_NUM_PRIO * WREN_NUM_PRIO_COUNTERS)) {
		memset(out, 0, WREN_PRIO_STATS * sizeof(*out));
		kfree(prio);
		return;
	}
	for (i = 0; i < WREN_NUM_PRIO; i++)
		if (wren_cmd_query_counters(cdev, WREN_COUNTERS_PFC, i, pfc[i],
					    WREN_NUM_PFC_COUNTERS))
			memset(pfc[i], 0, sizeof(pfc[i]));
	for (i = 0; i < WREN_NUM_PRIO; i++)
		for (j = 0; j < ARRAY_SIZE(wren_prio_stats); j++)
			*out++ = wren_prio_stats[j].set == WREN_COUNTERS_PRIO ?
				 prio[i * WREN_NUM_PRIO_COUNTERS +
				      wren_prio_stats[j].cnt] :
				 pfc[i][wren_prio_stats[j].cnt];
	kfree(prio);
}

static void wren_get_ethtool_stats(struct net_device *netdev,
				   struct ethtool_stats *stats, u64 *data)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	unsigned int i, start;

	for (i = 0; i < priv->max_chans; i++) {
		struct wren_queue_stats *t = &priv->chans[i].tx_stats;
		struct wren_xmit_stats *x = &priv->chans[i].xmit_stats;
		struct wren_queue_stats *r = &priv->chans[i].rx_stats;

		do {
			start = u64_stats_fetch_begin(&t->syncp);
			data[0] = t->packets;
			data[1] = t->bytes;
			data[2] = t->errors;
			data[7] = t->wake;
		} while (u64_stats_fetch_retry(&t->syncp, start));
		do {
			start = u64_stats_fetch_begin(&x->syncp);
			data[3] = x->dropped;
			data[4] = x->busy;
			data[5] = x->csum;
			data[6] = x->tso;
			data[8] = x->timeouts;
		} while (u64_stats_fetch_retry(&x->syncp, start));
		data += ARRAY_SIZE(wren_txq_stat_names);
		do {
			start = u64_stats_fetch_begin(&r->syncp);
			data[0] = r->packets;
			data[1] = r->bytes;
			data[2] = r->errors;
			data[3] = r->dropped;
			data[4] = r->csum;
			data[5] = r->alloc_fail;
		} while (u64_stats_fetch_retry(&r->syncp, start));
		data += ARRAY_SIZE(wren_rxq_stat_names);
	}
	/* Written under the RTNL lock by the reset work; a torn read of
	 * this rare counter on a 32-bit machine is harmless.
	 */
	*data++ = READ_ONCE(priv->tx_timeout_resets);
	if (wren_has_counters(priv)) {
		wren_query_port_counters(priv, data);
		data += ARRAY_SIZE(wren_port_counter_names);
	}
	if (wren_has_prio_counters(priv))
		wren_query_prio_counters(priv, data);
}

static void wren_get_ringparam(struct net_device *netdev,
			       struct ethtool_ringparam *ring,
			       struct kernel_ethtool_ringparam *kring,
			       struct netlink_ext_ack *extack)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);

	ring->rx_max_pending = WREN_ETH_MAX_RING;
	ring->tx_max_pending = WREN_ETH_MAX_RING;
	ring->rx_pending = priv->rx_ring_size;
	ring->tx_pending = priv->tx_ring_size;
}

static int wren_set_ringparam(struct net_device *netdev,
			      struct ethtool_ringparam *ring,
			      struct kernel_ethtool_ringparam *kring,
			      struct netlink_ext_ack *extack)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	unsigned int tx, rx;

	if (ring->rx_mini_pending || ring->rx_jumbo_pending)
		return -EINVAL;
	if (ring->tx_pending < WREN_ETH_MIN_RING || ring->rx_pending < WREN_ETH_MIN_RING) {
		NL_SET_ERR_MSG_MOD(extack, "rings need at least 64 entries");
		return -EINVAL;
	}
	/* The device takes power-of-two rings. */
	tx = roundup_pow_of_two(ring->tx_pending);
	rx = roundup_pow_of_two(ring->rx_pending);
	if (tx == priv->tx_ring_size && rx == priv->rx_ring_size)
		return 0;
	return wren_eth_reconfigure(priv, priv->req_chans, tx, rx);
}

static void wren_get_channels(struct net_device *netdev,
			      struct ethtool_channels *ch)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);

	ch->max_combined = priv->max_chans;
	ch->combined_count = priv->req_chans;
}

static int wren_set_channels(struct net_device *netdev,
			     struct ethtool_channels *ch)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	unsigned int i;

	if (!ch->combined_count || ch->rx_count || ch->tx_count || ch->other_count)
		return -EINVAL;
	if (ch->combined_count == priv->req_chans)
		return 0;
	if (!netif_is_rxfh_configured(netdev))
		for (i = 0; i < WREN_RSS_TABLE_MAX; i++)
			priv->rss_table[i] = ethtool_rxfh_indir_default(i, ch->combined_count);
	return wren_eth_reconfigure(priv, ch->combined_count, priv->tx_ring_size,
				    priv->rx_ring_size);
}

static int wren_get_coalesce(struct net_device *netdev,
			     struct ethtool_coalesce *ec,
			     struct kernel_ethtool_coalesce *kec,
			     struct netlink_ext_ack *extack)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);

	ec->rx_coalesce_usecs = priv->cq_mod_usec;
	ec->tx_coalesce_usecs = priv->cq_mod_usec;
	ec->rx_max_coalesced_frames = priv->cq_mod_count;
	ec->tx_max_coalesced_frames = priv->cq_mod_count;
	return 0;
}

/* One CQ carries both directions, so RX and TX settings are one. */
static int wren_set_coalesce(struct net_device *netdev,
			     struct ethtool_coalesce *ec,
			     struct kernel_ethtool_coalesce *kec,
			     struct netlink_ext_ack *extack)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	u32 usec, count;

	if (!(priv->wdev->core.caps & WREN_CAP_CQ_MODERATION))
		return -EOPNOTSUPP;
	/* Whichever direction the user changed wins. */
	usec = ec->rx_coalesce_usecs != priv->cq_mod_usec ?
	       ec->rx_coalesce_usecs : ec->tx_coalesce_usecs;
	count = ec->rx_max_coalesced_frames != priv->cq_mod_count ?
		ec->rx_max_coalesced_frames : ec->tx_max_coalesced_frames;
	if (usec > U16_MAX || count > U16_MAX)
		return -EINVAL;
	priv->cq_mod_usec = usec;
	priv->cq_mod_count = count;
	if (!netif_running(netdev))
		return 0;
	return wren_eth_modify_cq(priv);
}

static int wren_get_link_ksettings(struct net_device *netdev,
				   struct ethtool_link_ksettings *ks)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);

	ethtool_link_ksettings_zero_link_mode(ks, supported);
	ethtool_link_ksettings_zero_link_mode(ks, advertising);
	ks->base.autoneg = AUTONEG_DISABLE;
	ks->base.port = PORT_OTHER;
	if (netif_carrier_ok(netdev)) {
		ks->base.speed = READ_ONCE(priv->speed_mbps);
		ks->base.duplex = DUPLEX_FULL;
	} else {
		ks->base.speed = SPEED_UNKNOWN;
		ks->base.duplex = DUPLEX_UNKNOWN;
	}
	return 0;
}

static void wren_get_pauseparam(struct net_device *netdev,
				struct ethtool_pauseparam *pp)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	struct wren_port_attr port;

	pp->autoneg = AUTONEG_DISABLE;
	if (wren_eth_query_port(priv, &port))
		return;
	pp->rx_pause = !!(port.pause & WREN_PAUSE_RX);
	pp->tx_pause = !!(port.pause & WREN_PAUSE_TX);
}

static int wren_set_pauseparam(struct net_device *netdev,
			       struct ethtool_pauseparam *pp)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	struct wren_dcb_state st;
	u8 pause;
	int err;

	if (pp->autoneg)
		return -EOPNOTSUPP;
	/* 802.3x pause and PFC own the same link flow control: one at a
	 * time, as on ice, i40e and mlx5.  -EBUSY: the request is valid
	 * and supported, the current PFC setting is in its way.
	 */
	if ((pp->rx_pause || pp->tx_pause) &&
	    (priv->wdev->core.caps & WREN_CAP_DCB_PFC)) {
		err = wren_cmd_query_dcb(priv->wdev, &st);
		if (err)
			return err;
		if (st.pfc.pfc_en) {
			netdev_err(netdev, "PFC is on (priorities 0x%02x): turn it off before 802.3x pause\n",
				   st.pfc.pfc_en);
			return -EBUSY;
		}
	}
	pause = (pp->rx_pause ? WREN_PAUSE_RX : 0) |
		(pp->tx_pause ? WREN_PAUSE_TX : 0);
	return wren_port_cfg_set(priv->wdev, WREN_CFG_PAUSE, &pause);
}

static int wren_get_tunable(struct net_device *netdev,
			    const struct ethtool_tunable *tuna, void *data)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	struct wren_dcb_state st;
	int err;

	if (tuna->id != ETHTOOL_PFC_PREVENTION_TOUT ||
	    !(priv->wdev->core.caps & WREN_CAP_PFC_STORM_WD))
		return -EOPNOTSUPP;
	err = wren_cmd_query_dcb(priv->wdev, &st);
	if (!err)
		*(u16 *)data = le16_to_cpu(st.pfc_wd.timeout_ms);
	return err;
}

/* ms: 0 turns both watchdogs off, else auto or the contract's range. */
static int wren_set_tunable(struct net_device *netdev,
			    const struct ethtool_tunable *tuna,
			    const void *data)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
	u16 tout = *(const u16 *)data;
	struct wren_pfc_wd wd = {};

	if (tuna->id != ETHTOOL_PFC_PREVENTION_TOUT ||
	    !(priv->wdev->core.caps & WREN_CAP_PFC_STORM_WD))
		return -EOPNOTSUPP;
	if (tout == WREN_PFC_TOUT_AUTO)
		tout = WREN_PFC_TOUT_AUTO_MS;
	else if (tout && (tout < WREN_PFC_TOUT_MIN_MS ||
			  tout > WREN_PFC_TOUT_MAX_MS))
		return -EINVAL;
	wd.timeout_ms = cpu_to_le16(tout);
	wd.recovery_ms = cpu_to_le16(tout ? WREN_PFC_RECOVERY_MS : 0);
	return wren_port_cfg_set(priv->wdev, WREN_CFG_PFC_WD, &wd);
}

static u32 wren_get_rxfh_key_size(struct net_device *netdev)
{
	return WREN_RSS_KEY_SIZE;
}

static u32 wren_get_rxfh_indir_size(struct net_device *netdev)
{
	return WREN_RSS_TABLE_MAX;
}

static void wren_rxfh_get(struct wren_eth_priv *priv, u32 *indir, u8 *key)
{
	if (indir)
		memcpy(indir, priv->rss_table, sizeof(priv->rss_table));
	if (key)
		memcpy(key, priv->rss_key, sizeof(priv->rss_key));
}

static int wren_rxfh_set(struct wren_eth_priv *priv, const u32 *indir,
			 const u8 *key, u8 hfunc)
{
	unsigned int i;

	if (hfunc != ETH_RSS_HASH_NO_CHANGE && hfunc != ETH_RSS_HASH_TOP)
		return -EOPNOTSUPP;
	if (indir) {
		for (i = 0; i < WREN_RSS_TABLE_MAX; i++)
			if (indir[i] >= priv->req_chans)
				return -EINVAL;
		memcpy(priv->rss_table, indir, sizeof(priv->rss_table));
	}
	if (key)
		memcpy(priv->rss_key, key, sizeof(priv->rss_key));
	if (!priv->chans_open || priv->num_chans < 2)
		return 0;
	return wren_eth_set_rss(priv, true);
}

/* rx-flow-hash: which fields of a flow type the device hashes. */
static int wren_flow_hash_bits(u32 flow_type, u8 *l3, u8 *l4)
{
	switch (flow_type) {
	case TCP_V4_FLOW:
		*l3 = WREN_RSS_HASH_IPV4;
		*l4 = WREN_RSS_HASH_TCP_IPV4;
		return 0;
	case UDP_V4_FLOW:
		*l3 = WREN_RSS_HASH_IPV4;
		*l4 = WREN_RSS_HASH_UDP_IPV4;
		return 0;
	case TCP_V6_FLOW:
		*l3 = WREN_RSS_HASH_IPV6;
		*l4 = WREN_RSS_HASH_TCP_IPV6;
		return 0;
	case UDP_V6_FLOW:
		*l3 = WREN_RSS_HASH_IPV6;
		*l4 = WREN_RSS_HASH_UDP_IPV6;
		return 0;
	case IPV4_FLOW:
		*l3 = WREN_RSS_HASH_IPV4;
		*l4 = 0;
		return 0;
	case IPV6_FLOW:
		*l3 = WREN_RSS_HASH_IPV6;
		*l4 = 0;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static int wren_rxfh_fields_get(struct wren_eth_priv *priv, u32 flow_type,
				u32 *data)
{
	u8 l3, l4, t = priv->rss_hash_types;
	int err;

	err = wren_flow_hash_bits(flow_type, &l3, &l4);
	if (err)
		return err;
	*data = 0;
	/* The device hashes the 4-tuple when it may, else the addresses. */
	if (t & (l4 | l3))
		*data |= RXH_IP_SRC | RXH_IP_DST;
	if (t & l4)
		*data |= RXH_L4_B_0_1 | RXH_L4_B_2_3;
	return 0;
}

/* The device hashes the address pair, or the addresses and the ports,
 * or nothing; other field sets cannot be expressed.
 */
static int wren_rxfh_fields_set(struct wren_eth_priv *priv, u32 flow_type,
				u64 data)
{
	const u64 ip = RXH_IP_SRC | RXH_IP_DST;
	const u64 ports = RXH_L4_B_0_1 | RXH_L4_B_2_3;
	u8 l3, l4, t = priv->rss_hash_types;
	int err;

	if (!(priv->wdev->core.caps & WREN_CAP_ETH_RSS))
		return -EOPNOTSUPP;
	err = wren_flow_hash_bits(flow_type, &l3, &l4);
	if (err)
		return err;
	if (data & ~(ip | ports))
		return -EINVAL;
	if (data == (ip | ports) && l4) {
		t |= l3 | l4;
	} else if (data == ip) {
		t = (t & ~l4) | l3;
	} else if (!data && !l4) {
		/* No hash for this IP version at all: its L4 types go too. */
		t &= ~(l3 | (l3 == WREN_RSS_HASH_IPV4 ?
			     WREN_RSS_HASH_TCP_IPV4 | WREN_RSS_HASH_UDP_IPV4 :
			     WREN_RSS_HASH_TCP_IPV6 | WREN_RSS_HASH_UDP_IPV6));
	} else {
		return -EINVAL;
	}
	if (t == priv->rss_hash_types)
		return 0;
	priv->rss_hash_types = t;
	if (!priv->chans_open || priv->num_chans < 2)
		return 0;
	return wren_eth_set_rss(priv, true);
}

/* The RSS hash's fields: ETHTOOL_GRXFH and ETHTOOL_SRXFH of get_rxnfc
 * and set_rxnfc, which the kernels with get_rxfh_fields no longer pass
 * there; the ring count: ETHTOOL_GRXRINGS, or get_rx_ring_count.
 */
#ifdef HAVE_ETHTOOL_RXFH_FIELDS
static int wren_get_rxfh_fields(struct net_device *netdev,
				struct ethtool_rxfh_fields *f)
{
	return wren_rxfh_fields_get(netdev_priv(netdev), f->flow_type, &f->data);
}

static int wren_set_rxfh_fields(struct net_device *netdev,
				const struct ethtool_rxfh_fields *f,
				struct netlink_ext_ack *extack)
{
	return wren_rxfh_fields_set(netdev_priv(netdev), f->flow_type, f->data);
}
#endif

#ifdef HAVE_ETHTOOL_GET_RX_RING_COUNT
static u32 wren_get_rx_ring_count(struct net_device *netdev)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);

	return priv->req_chans;
}
#endif

static int wren_get_rxnfc(struct net_device *netdev, struct ethtool_rxnfc *nfc,
			  u32 *rule_locs)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);
#ifndef HAVE_ETHTOOL_RXFH_FIELDS
	u32 data;
	int err;
#endif

	switch (nfc->cmd) {
	case ETHTOOL_GRXRINGS:
		nfc->data = priv->req_chans;
		return 0;
#ifndef HAVE_ETHTOOL_RXFH_FIELDS
	case ETHTOOL_GRXFH:
		err = wren_rxfh_fields_get(priv, nfc->flow_type, &data);
		if (!err)
			nfc->data = data;
		return err;
#endif
	default:
		return -EOPNOTSUPP;
	}
}

#ifndef HAVE_ETHTOOL_RXFH_FIELDS
static int wren_set_rxnfc(struct net_device *netdev, struct ethtool_rxnfc *nfc)
{
	if (nfc->cmd == ETHTOOL_SRXFH)
		return wren_rxfh_fields_set(netdev_priv(netdev), nfc->flow_type,
					    nfc->data);
	return -EOPNOTSUPP;
}
#endif

#ifdef HAVE_ETHTOOL_RXFH_PARAM
static int wren_get_rxfh(struct net_device *netdev, struct ethtool_rxfh_param *p)
{
	p->hfunc = ETH_RSS_HASH_TOP;
	wren_rxfh_get(netdev_priv(netdev), p->indir, p->key);
	return 0;
}

static int wren_set_rxfh(struct net_device *netdev, struct ethtool_rxfh_param *p,
			 struct netlink_ext_ack *extack)
{
	return wren_rxfh_set(netdev_priv(netdev), p->indir, p->key, p->hfunc);
}
#else
static int wren_get_rxfh(struct net_device *netdev, u32 *indir, u8 *key, u8 *hfunc)
{
	if (hfunc)
		*hfunc = ETH_RSS_HASH_TOP;
	wren_rxfh_get(netdev_priv(netdev), indir, key);
	return 0;
}

static int wren_set_rxfh(struct net_device *netdev, const u32 *indir,
			 const u8 *key, const u8 hfunc)
{
	return wren_rxfh_set(netdev_priv(netdev), indir, key, hfunc);
}
#endif

const struct ethtool_ops wren_ethtool_ops = {
	.supported_coalesce_params = ETHTOOL_COALESCE_USECS |
				     ETHTOOL_COALESCE_MAX_FRAMES,
	.get_drvinfo		= wren_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_sset_count		= wren_get_sset_count,
	.get_strings		= wren_get_strings,
	.get_ethtool_stats	= wren_get_ethtool_stats,
	.get_ringparam		= wren_get_ringparam,
	.set_ringparam		= wren_set_ringparam,
	.get_channels		= wren_get_channels,
	.set_channels		= wren_set_channels,
	.get_coalesce		= wren_get_coalesce,
	.set_coalesce		= wren_set_coalesce,
	.get_link_ksettings	= wren_get_link_ksettings,
	.get_pauseparam		= wren_get_pauseparam,
	.set_pauseparam		= wren_set_pauseparam,
	.get_tunable		= wren_get_tunable,
	.set_tunable		= wren_set_tunable,
	.get_rxfh_key_size	= wren_get_rxfh_key_size,
	.get_rxfh_indir_size	= wren_get_rxfh_indir_size,
	.get_rxfh		= wren_get_rxfh,
	.set_rxfh		= wren_set_rxfh,
	.get_rxnfc		= wren_get_rxnfc,
#ifdef HAVE_ETHTOOL_RXFH_FIELDS
	.get_rxfh_fields	= wren_get_rxfh_fields,
	.set_rxfh_fields	= wren_set_rxfh_fields,
#else
	.set_rxnfc		= wren_set_rxnfc,
#endif
#ifdef HAVE_ETHTOOL_GET_RX_RING_COUNT
	.get_rx_ring_count	= wren_get_rx_ring_count,
#endif
};
