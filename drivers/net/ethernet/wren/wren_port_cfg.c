// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port configuration the device keeps and the netdev does not:
 * 802.3x pause, DCB (ETS, PFC, DSCP trust and map, receive buffers, max
 * rates, the PFC storm watchdog) and the DCQCN parameters of each
 * priority.  A reset returns all of it to the device's defaults, and a
 * recovery must not quietly turn a lossless port lossy: the setters send
 * these commands through here, which keeps what the device accepted, and
 * wren_port_cfg_restore() sends it again after the reset.  The device
 * still answers every GET; nothing here is read back from this copy.
 */
#include "wren.h"

struct wren_port_cfg_item {
	const char *name;
	size_t offset;			/* in struct wren_port_cfg */
	size_t len;
};

/* In restore order: pause before PFC (the device refuses PFC while pause
 * is on), buffers before the PFC that uses their thresholds.
 */
static const struct wren_port_cfg_item wren_cfg_items[WREN_CFG_NUM] = {
	[WREN_CFG_PAUSE] = { "pause", offsetof(struct wren_port_cfg, pause),
			     sizeof_field(struct wren_port_cfg, pause) },
	[WREN_CFG_ETS] = { "ETS", offsetof(struct wren_port_cfg, ets),
			   sizeof_field(struct wren_port_cfg, ets) },
	[WREN_CFG_TRUST] = { "trust", offsetof(struct wren_port_cfg, trust),
			     sizeof_field(struct wren_port_cfg, trust) },
	[WREN_CFG_BUFFER] = { "buffers", offsetof(struct wren_port_cfg, buffer),
			      sizeof_field(struct wren_port_cfg, buffer) },
	[WREN_CFG_MAXRATE] = { "max rates", offsetof(struct wren_port_cfg, maxrate),
			       sizeof_field(struct wren_port_cfg, maxrate) },
	[WREN_CFG_PFC] = { "PFC", offsetof(struct wren_port_cfg, pfc),
			   sizeof_field(struct wren_port_cfg, pfc) },
	[WREN_CFG_PFC_WD] = { "PFC watchdog", offsetof(struct wren_port_cfg, pfc_wd),
			      sizeof_field(struct wren_port_cfg, pfc_wd) },
};

static int wren_port_cfg_send(struct wren_dev *wdev, enum wren_cfg_id id,
			      const void *in)
{
	struct wren_set_port_in port = {};

	switch (id) {
	case WREN_CFG_PAUSE:
		port.mask = cpu_to_le32(WREN_SET_PORT_PAUSE);
		port.pause = *(const u8 *)in;
		return wren_cmd_set_port(wdev, &port);
	case WREN_CFG_ETS:
		return wren_cmd_set_ets(wdev, in);
	case WREN_CFG_TRUST:
		return wren_cmd_set_trust(wdev, in);
	case WREN_CFG_BUFFER:
		return wren_cmd_set_buffer(wdev, in);
	case WREN_CFG_MAXRATE:
		return wren_cmd_set_maxrate(wdev, in);
	case WREN_CFG_PFC:
		return wren_cmd_set_pfc(wdev, in);
	case WREN_CFG_PFC_WD:
		return wren_cmd_set_pfc_wd(wdev, in);
	default:
		return -EINVAL;
	}
}

/**
 * wren_port_cfg_set() - send one port setting and keep it for a reset
 * @wdev: the device
 * @id: which setting
 * @in: its command input: a u8 of WREN_PAUSE_* bits for WREN_CFG_PAUSE,
 *	else the contract's structure (struct wren_ets, ...)
 *
 * Return: 0, or the errno of the command (nothing is kept then).
 */
int wren_port_cfg_set(struct wren_dev *wdev, enum wren_cfg_id id, const void *in)
{
	const struct wren_port_cfg_item *item = &wren_cfg_items[id];
	int err;

	mutex_lock(&wdev->port_cfg_lock);
	err = wren_port_cfg_send(wdev, id, in);
	if (!err) {
		memcpy((u8 *)&wdev->port_cfg + item->offset, in, item->len);
		wdev->port_cfg.valid |= BIT(id);
	}
	mutex_unlock(&wdev->port_cfg_lock);
	return err;
}

/**
 * wren_port_cfg_set_cc() - send DCQCN parameters and keep them for a reset
 * @wdev: the device
 * @in: the parameters, for every priority in @in->prio_mask
 *
 * Return: 0, or the errno of SET_CC (nothing is kept then).
 */
int wren_port_cfg_set_cc(struct wren_dev *wdev, const struct wren_cc_params *in)
{
	unsigned long prios = in->prio_mask;
	int err, prio;

	mutex_lock(&wdev->port_cfg_lock);
	err = wren_cmd_set_cc(wdev, in);
	if (!err) {
		for_each_set_bit(prio, &prios, WREN_NUM_PRIO) {
			wdev->port_cfg.cc[prio] = *in;
			wdev->port_cfg.cc[prio].prio_mask = BIT(prio);
		}
		wdev->port_cfg.cc_valid |= prios;
	}
	mutex_unlock(&wdev->port_cfg_lock);
	return err;
}

/**
 * wren_port_cfg_restore() - send the kept settings again after a reset
 * @wdev: the device, its admin queue working again
 *
 * A setting the device now refuses is logged and left at its default;
 * the others still go.
 *
 * Return: the number of settings that could not be restored.
 */
int wren_port_cfg_restore(struct wren_dev *wdev)
{
	struct wren_port_cfg *cfg = &wdev->port_cfg;
	struct device *dev = &wdev->pdev->dev;
	unsigned long prios;
	int id, prio, err, failed = 0;

	mutex_lock(&wdev->port_cfg_lock);
	for (id = 0; id < WREN_CFG_NUM; id++) {
		const struct wren_port_cfg_item *item = &wren_cfg_items[id];

		if (!(cfg->valid & BIT(id)))
			continue;
		err = wren_port_cfg_send(wdev, id, (u8 *)cfg + item->offset);
		if (err) {
			dev_warn(dev, "cannot restore the port's %s after the reset: %d\n",
				 item->name, err);
			cfg->valid &= ~BIT(id);
			failed++;
		}
	}
	prios = cfg->cc_valid;
	for_each_set_bit(prio, &prios, WREN_NUM_PRIO) {
		err = wren_cmd_set_cc(wdev, &cfg->cc[prio]);
		if (err) {
			dev_warn(dev, "cannot restore the DCQCN parameters of priority %d after the reset: %d\n",
				 prio, err);
			cfg->cc_valid &= ~BIT(prio);
			failed++;
		}
	}
	mutex_unlock(&wdev->port_cfg_lock);
	return failed;
}
