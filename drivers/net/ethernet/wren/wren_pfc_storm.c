// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The "pfc_storm" devlink health reporter.
 *
 * The NIC runs two PFC watchdogs with the timeout of the ethtool tunable
 * pfc-prevention-tout (SET_PFC_WD): RX, a priority paused by the link
 * partner for longer than that stops honouring pauses; TX, a priority
 * whose receive buffer the host has not drained for that long stops
 * sending them.  Each change is a WREN_EVENT_PFC_STORM with the
 * watchdog's storm priorities.  The event arrives in hard interrupt
 * context and a health report sleeps, so the event only records what it
 * says and a work item reports it: an error while any priority is in a
 * storm, healthy again once both bitmaps are clear (the NIC leaves a storm
 * by itself after recovery_ms of quiet; nothing here needs recovering).
 */
#include <linux/workqueue.h>

#include "wren.h"

static void wren_pfc_storm_get(struct wren_dev *wdev, u8 *rx, u8 *tx,
			       u8 *last_dir, u8 *last_prios, u32 *events)
{
	struct wren_pfc_storm *ps = &wdev->pfc_storm;
	unsigned long flags;

	spin_lock_irqsave(&ps->lock, flags);
	*rx = ps->rx_prios;
	*tx = ps->tx_prios;
	*last_dir = ps->last_dir;
	*last_prios = ps->last_prios;
	*events = ps->events;
	spin_unlock_irqrestore(&ps->lock, flags);
}

static const char *wren_pfc_storm_dir_name(u8 dir)
{
	switch (dir) {
	case WREN_PFC_STORM_RX:
		return "rx";
	case WREN_PFC_STORM_TX:
		return "tx";
	default:
		return "none";
	}
}

static void wren_pfc_storm_work(struct work_struct *work)
{
	struct wren_dev *wdev = container_of(work, struct wren_dev,
					     pfc_storm.work);
	struct devlink_health_reporter *r = wdev->pfc_storm.reporter;
	u8 rx, tx, dir, prios;
	char msg[80];
	u32 events;

	if (!r || !test_bit(WREN_FLAG_DEVLINK_LIVE, &wdev->flags))
		return;
	wren_pfc_storm_get(wdev, &rx, &tx, &dir, &prios, &events);
	if (!rx && !tx) {
		devlink_health_reporter_state_update(r,
						     DEVLINK_HEALTH_REPORTER_STATE_HEALTHY);
		return;
	}
	snprintf(msg, sizeof(msg),
		 "PFC storm: %s watchdog on priorities 0x%02x (rx 0x%02x, tx 0x%02x)",
		 wren_pfc_storm_dir_name(dir), prios, rx, tx);
	devlink_health_report(r, msg, NULL);
}

/**
 * wren_pfc_storm_event() - a WREN_EVENT_PFC_STORM arrived
 * @wdev: the device
 * @dir: the event's sub: WREN_PFC_STORM_RX or WREN_PFC_STORM_TX
 * @prios: its data: the priorities that watchdog now holds in a storm
 *
 * Hard interrupt context (the AEQ).  An unknown direction is ignored.
 */
void wren_pfc_storm_event(struct wren_dev *wdev, u8 dir, u32 prios)
{
	struct wren_pfc_storm *ps = &wdev->pfc_storm;
	unsigned long flags;

	if (dir != WREN_PFC_STORM_RX && dir != WREN_PFC_STORM_TX) {
		dev_dbg_ratelimited(&wdev->pdev->dev,
				    "PFC storm event with unknown direction %u\n",
				    dir);
		return;
	}
	prios &= GENMASK(WREN_NUM_PRIO - 1, 0);
	spin_lock_irqsave(&ps->lock, flags);
	if (dir == WREN_PFC_STORM_RX)
		ps->rx_prios = prios;
	else
		ps->tx_prios = prios;
	ps->last_dir = dir;
	ps->last_prios = prios;
	ps->events++;
	spin_unlock_irqrestore(&ps->lock, flags);
	if (prios)
		dev_warn_ratelimited(&wdev->pdev->dev,
				     "PFC storm: %s watchdog on priorities 0x%02x\n",
				     wren_pfc_storm_dir_name(dir), prios);
	if (READ_ONCE(ps->reporter))
		schedule_work(&ps->work);
}

static int wren_pfc_storm_counters(struct wren_dev *wdev,
				   struct devlink_fmsg *fmsg)
{
	u64 prio[WREN_NUM_PRIO * WREN_NUM_PRIO_COUNTERS];
	u64 port[WREN_NUM_PORT_COUNTERS];
	char name[32];
	int err, i;

	if (!(wdev->core.caps & WREN_CAP_COUNTERS))
		return 0;
	err = wren_cmd_query_counters(&wdev->core, WREN_COUNTERS_PORT, 0, port,
				      ARRAY_SIZE(port));
	if (!err)
		err = wren_cmd_query_counters(&wdev->core, WREN_COUNTERS_PRIO, 0,
					      prio, ARRAY_SIZE(prio));
	if (err)
		return err;
	err = wren_fmsg_u64(fmsg, "tx_pause_storm_warning_events",
			    port[WREN_CNT_TX_PAUSE_STORM_WARNING_EVENTS]);
	if (!err)
		err = wren_fmsg_u64(fmsg, "tx_pause_storm_error_events",
				    port[WREN_CNT_TX_PAUSE_STORM_ERROR_EVENTS]);
	for (i = 0; !err && i < WREN_NUM_PRIO; i++) {
		snprintf(name, sizeof(name), "prio%d_storm_events", i);
		err = wren_fmsg_u64(fmsg, name,
				    prio[i * WREN_NUM_PRIO_COUNTERS +
					 WREN_PRIO_CNT_PFC_STORM_EVENTS]);
	}
	return err;
}

/* The NIC's view (QUERY_DCB) next to what the last events said. */
static int wren_pfc_storm_diagnose(struct devlink_health_reporter *reporter,
				   struct devlink_fmsg *fmsg,
				   struct netlink_ext_ack *extack)
{
	struct wren_dev *wdev = devlink_health_reporter_priv(reporter);
	u8 rx, tx, dir, prios;
	struct wren_dcb_state st;
	u32 events;
	int err;

	err = wren_cmd_query_dcb(wdev, &st);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "QUERY_DCB failed");
		return err;
	}
	wren_pfc_storm_get(wdev, &rx, &tx, &dir, &prios, &events);
	err = wren_fmsg_u32(fmsg, "storm_prios", st.pfc_storm);
	if (!err)
		err = wren_fmsg_u32(fmsg, "rx_storm_prios", rx);
	if (!err)
		err = wren_fmsg_u32(fmsg, "tx_storm_prios", tx);
	if (!err)
		err = wren_fmsg_str(fmsg, "last_direction",
				    wren_pfc_storm_dir_name(dir));
	if (!err)
		err = wren_fmsg_u32(fmsg, "last_prios", prios);
	if (!err)
		err = wren_fmsg_u32(fmsg, "events", events);
	if (!err)
		err = wren_fmsg_u32(fmsg, "timeout_ms",
				    le16_to_cpu(st.pfc_wd.timeout_ms));
	if (!err)
		err = wren_fmsg_u32(fmsg, "recovery_ms",
				    le16_to_cpu(st.pfc_wd.recovery_ms));
	if (!err)
		err = wren_fmsg_u32(fmsg, "pfc_en", st.pfc.pfc_en);
	if (!err)
		err = wren_pfc_storm_counters(wdev, fmsg);
	return err;
}

static const struct devlink_health_reporter_ops wren_pfc_storm_ops = {
	.name		= "pfc_storm",
	.diagnose	= wren_pfc_storm_diagnose,
};

/**
 * wren_pfc_storm_init() - prepare the event's state
 * @wdev: the device, before its event queue is enabled
 */
void wren_pfc_storm_init(struct wren_dev *wdev)
{
	spin_lock_init(&wdev->pfc_storm.lock);
	INIT_WORK(&wdev->pfc_storm.work, wren_pfc_storm_work);
}

/**
 * wren_pfc_storm_create() - create the pfc_storm health reporter
 * @wdev: the device, its capabilities known, before devlink registration
 *
 * Only a NIC with WREN_CAP_PFC_STORM_WD gets one.  Without it the driver
 * still works; it only reports less.
 */
void wren_pfc_storm_create(struct wren_dev *wdev)
{
	struct wren_pfc_storm *ps = &wdev->pfc_storm;
	struct devlink_health_reporter *r;

	if (!(wdev->core.caps & WREN_CAP_PFC_STORM_WD))
		return;
	r = wren_health_reporter_create(wdev->devlink, &wren_pfc_storm_ops, 0,
					wdev);
	if (IS_ERR(r)) {
		dev_warn(&wdev->pdev->dev, "cannot create the pfc_storm health reporter: %pe\n",
			 r);
		return;
	}
	WRITE_ONCE(ps->reporter, r);
}

/**
 * wren_pfc_storm_destroy() - destroy the pfc_storm health reporter
 * @wdev: the device, WREN_FLAG_DEVLINK_LIVE already clear
 *
 * Waits for a report in flight; an event racing with this may still
 * schedule the work, which then finds no reporter (remove cancels it
 * again once the interrupt is gone).
 */
void wren_pfc_storm_destroy(struct wren_dev *wdev)
{
	struct wren_pfc_storm *ps = &wdev->pfc_storm;
	struct devlink_health_reporter *r = ps->reporter;

	WRITE_ONCE(ps->reporter, NULL);
	cancel_work_sync(&ps->work);
	if (r)
		devlink_health_reporter_destroy(r);
}
