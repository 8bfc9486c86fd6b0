// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * devlink: the driver's private data lives in the devlink instance, which
 * is allocated first in probe and registered last, once the device works,
 * so that userspace never sees a half-initialised instance.
 *
 * The "fw_fatal" health reporter carries the device's breakdowns (fatal
 * error, stopped heartbeat, hung admin queue, surprise removal); its test
 * operation asks the device to go fatal (DIAG_FAULT), so the whole path
 * can be exercised on a healthy device.  Its recover operation resets the
 * device and brings the driver's functions back (wren_recover.c); devlink
 * runs it by itself after a report unless the last recovery was less than
 * the grace period ago, or a recovery failed.
 */
#include "wren.h"

/* As mlx5's fw_fatal: a device that breaks again within a minute of its
 * last recovery is not reset again by itself (an operator may, with
 * `devlink health recover`, or shorten this with `devlink health set`).
 */
#define WREN_FW_FATAL_GRACE_MS	60000

static int wren_devlink_info_get(struct devlink *devlink,
				 struct devlink_info_req *req,
				 struct netlink_ext_ack *extack)
{
	struct wren_dev *wdev = devlink_priv(devlink);
	u32 fw = wdev->core.fw_version;
	char buf[32];
	int err;

#ifdef HAVE_DEVLINK_INFO_DRIVER_NAME_PUT
	/* Newer kernels fill the driver name in themselves. */
	err = devlink_info_driver_name_put(req, WREN_DRV_NAME);
	if (err)
		return err;
#endif
	if (wdev->serial) {
		snprintf(buf, sizeof(buf), "%016llx", wdev->serial);
		err = devlink_info_board_serial_number_put(req, buf);
		if (err)
			return err;
	}
	if (wdev->board_id[0]) {
		err = devlink_info_version_fixed_put(req,
						     DEVLINK_INFO_VERSION_GENERIC_BOARD_ID,
						     wdev->board_id);
		if (err)
			return err;
	}
	snprintf(buf, sizeof(buf), "%u.%u.%u", WREN_FW_VER_MAJOR(fw),
		 WREN_FW_VER_MINOR(fw), WREN_FW_VER_PATCH(fw));
	return devlink_info_version_running_put(req, DEVLINK_INFO_VERSION_GENERIC_FW,
						buf);
}

static int wren_fw_fatal_diagnose(struct devlink_health_reporter *reporter,
				  struct devlink_fmsg *fmsg,
				  struct netlink_ext_ack *extack)
{
	struct wren_dev *wdev = devlink_health_reporter_priv(reporter);
	const char *state;
	int err;

	if (wren_check_gone(wdev))
		state = "gone";
	else if (test_bit(WREN_FLAG_FATAL, &wdev->flags))
		state = "fatal";
	else if (test_bit(WREN_FLAG_NEEDS_RESET, &wdev->flags))
		state = "needs reset";
	else
		state = "healthy";
	err = wren_fmsg_str(fmsg, "state", state);
	if (err || test_bit(WREN_FLAG_GONE, &wdev->flags))
		return err;
	err = wren_fmsg_u32(fmsg, "status", wren_rd(wdev, WREN_REG_STATUS));
	if (!err)
		err = wren_fmsg_u32(fmsg, "fatal_syndrome",
				    wren_rd(wdev, WREN_REG_FATAL_SYNDROME));
	if (!err)
		err = wren_fmsg_u32(fmsg, "fatal_info",
				    wren_rd(wdev, WREN_REG_FATAL_INFO));
	if (!err)
		err = wren_fmsg_u32(fmsg, "heartbeat",
				    wren_rd(wdev, WREN_REG_HEARTBEAT));
	return err;
}

static int wren_fw_fatal_test(struct devlink_health_reporter *reporter,
			      struct netlink_ext_ack *extack)
{
	struct wren_dev *wdev = devlink_health_reporter_priv(reporter);

	if (!(wdev->core.caps & WREN_CAP_DIAG_FAULT)) {
		NL_SET_ERR_MSG_MOD(extack, "the device cannot inject faults");
		return -EOPNOTSUPP;
	}
	return wren_cmd_diag_fault(wdev, WREN_DIAG_FATAL, 0);
}

/* Under the devlink instance lock, from devlink_health_report() or the
 * recover command.
 */
static int wren_fw_fatal_recover(struct devlink_health_reporter *reporter,
				 void *priv_ctx, struct netlink_ext_ack *extack)
{
	return wren_recover(devlink_health_reporter_priv(reporter), extack);
}

static const struct devlink_health_reporter_ops wren_fw_fatal_ops = {
	.name		= "fw_fatal",
	.recover	= wren_fw_fatal_recover,
	.diagnose	= wren_fw_fatal_diagnose,
	.test		= wren_fw_fatal_test,
#ifdef HAVE_DEVLINK_HEALTH_OPS_GRACE
	.default_graceful_period = WREN_FW_FATAL_GRACE_MS,
#endif
};

/* Without the reporter the driver still works; it only reports less. */
void wren_devlink_health_create(struct wren_dev *wdev)
{
	struct devlink_health_reporter *r;

	r = wren_health_reporter_create(wdev->devlink, &wren_fw_fatal_ops,
					WREN_FW_FATAL_GRACE_MS, wdev);
	if (IS_ERR(r)) {
		dev_warn(&wdev->pdev->dev, "cannot create the fw_fatal health reporter: %pe\n",
			 r);
		r = NULL;
	}
	wdev->fw_fatal = r;
}

void wren_devlink_health_destroy(struct wren_dev *wdev)
{
	if (wdev->fw_fatal)
		devlink_health_reporter_destroy(wdev->fw_fatal);
	wdev->fw_fatal = NULL;
}

/* Reports notify userspace, which only knows registered instances. */
void wren_devlink_health_report(struct wren_dev *wdev, const char *msg)
{
	if (wdev->fw_fatal && test_bit(WREN_FLAG_DEVLINK_LIVE, &wdev->flags))
		devlink_health_report(wdev->fw_fatal, msg, NULL);
}

static const struct devlink_ops wren_devlink_ops = {
	.info_get = wren_devlink_info_get,
};

struct wren_dev *wren_devlink_alloc(struct pci_dev *pdev)
{
	struct devlink *devlink;
	struct wren_dev *wdev;

	devlink = devlink_alloc(&wren_devlink_ops, sizeof(*wdev), &pdev->dev);
	if (!devlink)
		return NULL;
	wdev = devlink_priv(devlink);
	wdev->devlink = devlink;
	wdev->pdev = pdev;
	wdev->core.pdev = pdev;
	mutex_init(&wdev->port_cfg_lock);
	return wdev;
}

void wren_devlink_register(struct wren_dev *wdev)
{
	devlink_register(wdev->devlink);
	set_bit(WREN_FLAG_DEVLINK_LIVE, &wdev->flags);
}

/* The caller makes sure no health report is in flight (fatal_work). */
void wren_devlink_unregister(struct wren_dev *wdev)
{
	devlink_unregister(wdev->devlink);
}

void wren_devlink_free(struct wren_dev *wdev)
{
	mutex_destroy(&wdev->port_cfg_lock);
	devlink_free(wdev->devlink);
}
