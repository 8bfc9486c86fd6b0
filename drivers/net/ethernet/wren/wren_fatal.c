// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The fatal-error report: what wren.ko does once wren_health.c has been
 * told that the device broke.  It logs why, fails the admin commands still
 * waiting, tells devlink health and the RDMA driver.  Runs from
 * fatal_work, which the probe points at wren_fatal_work().
 */
#include "wren.h"

static const char *wren_fatal_name(u32 syndrome)
{
	switch (syndrome) {
	case WREN_FATAL_NONE:
		return "none";
	case WREN_FATAL_INTERNAL:
		return "firmware internal error";
	case WREN_FATAL_AQ_DMA:
		return "admin queue DMA failed";
	case WREN_FATAL_AEQ_DMA:
		return "event queue DMA failed";
	case WREN_FATAL_INJECTED:
		return "injected by DIAG_FAULT";
	default:
		return "unknown";
	}
}

/**
 * wren_fatal_work() - report why the device broke
 * @work: wren_dev.fatal_work
 *
 * Fails the admin commands still waiting and tells the auxiliary driver and
 * devlink health, which may recover the device (wren_recover.c).
 */
void wren_fatal_work(struct work_struct *work)
{
	struct wren_dev *wdev = container_of(work, struct wren_dev, fatal_work);
	struct device *dev = &wdev->pdev->dev;
	u32 syndrome, info, status;

	if (wren_check_gone(wdev)) {
		dev_err(dev, "device stopped answering (surprise removal?)\n");
	} else {
		status = wren_rd(wdev, WREN_REG_STATUS);
		syndrome = wren_rd(wdev, WREN_REG_FATAL_SYNDROME);
		info = wren_rd(wdev, WREN_REG_FATAL_INFO);
		if (status & WREN_STATUS_FATAL)
			dev_err(dev, "device fatal error: syndrome %u (%s), info 0x%08x, status 0x%08x; admin commands fail until the device is reset\n",
				syndrome, wren_fatal_name(syndrome), info, status);
		else
			dev_err(dev, "%s (status 0x%08x); admin commands fail until the device is reset\n",
				wdev->fatal_reason, status);
	}
	wren_aq_abort(wdev);
	/* The RDMA side first: the report may recover the device, and the
	 * auxiliary device after that is a new one.
	 */
	wren_aux_fatal(wdev);
	wren_devlink_health_report(wdev, wdev->fatal_reason);
}
