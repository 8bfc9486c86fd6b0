// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Port-wide Ethernet settings: SET_PORT, QUERY_PORT, the RX filter and
 * RSS, shared by the netdev ops, ethtool and the channel setup, so that
 * none of those has to call back into another.
 */
#include <linux/slab.h>

#include "wren_en.h"

/* Port-wide settings fail loudly unless the device is already dead. */
static int wren_eth_cmd_err(struct wren_eth_priv *priv, const char *what,
			    int err)
{
	if (err && !wren_is_dead(priv->wdev))
		netdev_err(priv->netdev, "%s failed: %d\n", what, err);
	return err;
}

/**
 * wren_eth_set_port() - apply port settings (MTU, MAC, ...) with SET_PORT
 * @priv: the netdev's private state
 * @in: the command's input, as the contract lays it out
 *
 * Return: 0 or a negative errno; failures are logged unless the device
 * is already dead.
 */
int wren_eth_set_port(struct wren_eth_priv *priv, struct wren_set_port_in *in)
{
	return wren_eth_cmd_err(priv, "SET_PORT",
				wren_cmd_set_port(priv->wdev, in));
}

/**
 * wren_eth_set_rx_filter() - program the unicast/multicast filter
 * @priv: the netdev's private state
 * @in: SET_RX_MODE's input: flags and the addresses to accept
 *
 * Return: 0 or a negative errno; failures are logged unless the device
 * is already dead.
 */
int wren_eth_set_rx_filter(struct wren_eth_priv *priv,
			   const struct wren_set_rx_mode_in *in)
{
	return wren_eth_cmd_err(priv, "SET_RX_MODE",
				wren_cmd_set_rx_mode(priv->wdev, in));
}

/**
 * wren_eth_query_port() - read the port's state and speed
 * @priv: the netdev's private state
 * @out: filled with the device's QUERY_PORT answer
 *
 * Return: 0 or a negative errno.
 */
int wren_eth_query_port(struct wren_eth_priv *priv, struct wren_port_attr *out)
{
	return wren_cmd_query_port(&priv->wdev->core, out);
}

/**
 * wren_eth_set_rss() - spread RX over the open RX queues, or stop
 * @priv: the netdev's private state, its channels open
 * @on: program the key, hash types and table; false turns RSS off, which
 *	must happen before the RX queues it names are destroyed
 *
 * Return: 0 (also on a device without RSS) or a negative errno.
 */
int wren_eth_set_rss(struct wren_eth_priv *priv, bool on)
{
	struct wren_set_rss_in *in;
	unsigned int i;
	int err;

	if (!(priv->wdev->core.caps & WREN_CAP_ETH_RSS))
		return 0;
	in = kzalloc_obj(*in, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	if (on) {
		memcpy(in->key, priv->rss_key, sizeof(in->key));
		in->table_size = cpu_to_le16(WREN_RSS_TABLE_MAX);
		in->hash_types = priv->rss_hash_types;
		for (i = 0; i < WREN_RSS_TABLE_MAX; i++)
			in->table[i] = cpu_to_le32(priv->chans[priv->rss_table[i] %
							       priv->num_chans].rxqn);
	}
	err = wren_eth_cmd_err(priv, "SET_RSS", wren_cmd_set_rss(priv->wdev, in));
	kfree(in);
	if (!err)
		priv->rss_on = on;
	return err;
}
