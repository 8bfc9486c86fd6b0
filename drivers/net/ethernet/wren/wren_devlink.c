// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * devlink: the driver's private data lives in the devlink instance, which
 * is allocated first in probe and registered last, once the device works,
 * so that userspace never sees a half-initialised instance.
 */
#include "wren.h"

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
	return wdev;
}

void wren_devlink_register(struct wren_dev *wdev)
{
	devlink_register(wdev->devlink);
}

void wren_devlink_unregister(struct wren_dev *wdev)
{
	devlink_unregister(wdev->devlink);
}

void wren_devlink_free(struct wren_dev *wdev)
{
	devlink_free(wdev->devlink);
}
