// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device health: how wren.ko learns that the device broke.
 *
 * Whoever notices first - the AEQ's DEVICE_FATAL event, an admin command
 * that timed out, the health poll below - calls wren_report_broken() or
 * wren_declare_fatal(), which only set flags and schedule fatal_work
 * (wren_fatal.c), so that every file can call them from any context
 * without depending on what the report then does.
 */
#include <linux/iopoll.h>

#include "wren.h"

/**
 * wren_wait_status() - wait for a state the device reports in STATUS
 * @wdev: the device
 * @mask: the STATUS bits to look at
 * @want: their wanted value
 * @timeout_ms: how long to wait
 *
 * Return: 0 once (STATUS & @mask) == @want; -EIO early when the device
 * declares a fatal error, -ENODEV when it is gone, -ETIMEDOUT otherwise.
 */
int wren_wait_status(struct wren_dev *wdev, u32 mask, u32 want,
		     unsigned int timeout_ms)
{
	u32 val;
	int err;

	err = readl_poll_timeout(wdev->regs + WREN_REG_STATUS, val,
				 (val & mask) == want || val == U32_MAX ||
				 (val & WREN_STATUS_FATAL),
				 1000, timeout_ms * USEC_PER_MSEC);
	/* All-ones is no valid STATUS (FATAL and RESETTING at once). */
	if (val == U32_MAX) {
		wren_check_gone(wdev);
		return -ENODEV;
	}
	if ((val & mask) == want)
		return 0;
	if (val & WREN_STATUS_FATAL)
		return -EIO;
	return err;
}

/**
 * wren_report_broken() - report a device that stopped working, once
 * @wdev: the device
 * @reason: what was seen, for the log and devlink health
 *
 * Any context.  The first caller wins; the report itself runs from
 * fatal_work.
 */
void wren_report_broken(struct wren_dev *wdev, const char *reason)
{
	if (test_and_set_bit(WREN_FLAG_REPORTED, &wdev->flags))
		return;
	wdev->fatal_reason = reason;
	schedule_work(&wdev->fatal_work);
}

/**
 * wren_declare_fatal() - mark the device fatal and report it
 * @wdev: the device
 * @reason: what was seen
 *
 * Any context.  Every admin command fails with -EIO from now on.
 */
void wren_declare_fatal(struct wren_dev *wdev, const char *reason)
{
	set_bit(WREN_FLAG_FATAL, &wdev->flags);
	wren_report_broken(wdev, reason);
}

/* A device can also die without saying so: STATUS.FATAL set without an
 * event (the AEQ itself failed), reads of all-ones (surprise removal), or
 * a HEARTBEAT that stopped counting.  Poll for those.
 */
static void wren_health_poll(struct work_struct *work)
{
	struct wren_dev *wdev = container_of(to_delayed_work(work),
					     struct wren_dev, health_work);
	struct device *dev = &wdev->pdev->dev;
	u32 status, heartbeat;

	if (wren_is_dead(wdev))
		return;	/* already reported; recovery is a reset */

	status = wren_rd(wdev, WREN_REG_STATUS);
	heartbeat = wren_rd(wdev, WREN_REG_HEARTBEAT);
	if (status == U32_MAX && wren_check_gone(wdev)) {
		wren_declare_fatal(wdev, "device stopped answering");
		return;
	}
	if (status & WREN_STATUS_FATAL) {
		wren_declare_fatal(wdev, "device fatal error");
		return;
	}
	if (heartbeat == wdev->last_heartbeat) {
		dev_err(dev, "health poll: heartbeat stuck at %u for %u ms\n",
			heartbeat, WREN_HEALTH_INTERVAL_MS);
		wren_declare_fatal(wdev, "heartbeat stopped");
		return;
	}
	wdev->last_heartbeat = heartbeat;
	schedule_delayed_work(&wdev->health_work,
			      msecs_to_jiffies(WREN_HEALTH_INTERVAL_MS));
}

/**
 * wren_health_start() - start polling STATUS and HEARTBEAT
 * @wdev: the device, with its admin queue and AEQ up
 */
void wren_health_start(struct wren_dev *wdev)
{
	INIT_DELAYED_WORK(&wdev->health_work, wren_health_poll);
	wdev->last_heartbeat = wren_rd(wdev, WREN_REG_HEARTBEAT);
	schedule_delayed_work(&wdev->health_work,
			      msecs_to_jiffies(WREN_HEALTH_INTERVAL_MS));
}

/**
 * wren_health_stop() - stop the health poll, waiting for a running one
 * @wdev: the device
 *
 * Before a reset: a resetting device legitimately stops its heartbeat.
 */
void wren_health_stop(struct wren_dev *wdev)
{
	cancel_delayed_work_sync(&wdev->health_work);
}
