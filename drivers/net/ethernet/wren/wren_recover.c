// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Recovery from a broken device, by a reset: the fw_fatal health
 * reporter's recover operation (devlink runs it by itself after a report,
 * auto-recover, or when asked: `devlink health recover`), and the PCI
 * core's reset and error callbacks (a function reset through sysfs, AER).
 *
 * The device is stopped and started again (wren_dev.c) while the PCI
 * function, the devlink instance, the MSI-X vectors and the netdev stay:
 * the netdev keeps its name, addresses and routes and comes back up as it
 * was.  The RDMA auxiliary device is removed and added again, since every
 * object of it lived in the device that was reset: verbs users see it go
 * (IBV_EVENT_DEVICE_FATAL, RDMA_CM_EVENT_DEVICE_REMOVAL) and a new one
 * come, as with mlx5.  In-kernel users first see their work requests
 * flush, and those that drop their queues before the removal (wren_ib
 * waits a while for them) reconnect through the new device: nvme-rdma.
 *
 * What the device kept beyond the netdev (pause, DCB, DCQCN parameters)
 * is sent again from the driver's copy (wren_port_cfg.c) before traffic
 * resumes, so a lossless port comes back lossless.
 *
 * Callers hold the devlink instance lock, which also keeps devlink's own
 * commands (parameters) out; the RTNL lock keeps the netdev's callers out
 * while the admin queue is rebuilt.
 */
#include <linux/rtnetlink.h>

#include "wren.h"

/**
 * wren_recover_prepare() - stop everything that uses the device
 * @wdev: the device, broken or about to be reset by the PCI core
 *
 * Caller holds the devlink instance lock.  Leaves the device quiesced,
 * its management path freed and every admin command failing fast.
 */
void wren_recover_prepare(struct wren_dev *wdev)
{
	devl_assert_locked(wdev->devlink);
	set_bit(WREN_FLAG_NEEDS_RESET, &wdev->flags);
	wren_health_stop(wdev);
	/* A hung device may still move data: stop all DMA before the RDMA
	 * driver and the netdev free the memory of their queues.
	 */
	wren_quiesce(wdev);
	/* Verbs users learn it from IB_EVENT_DEVICE_FATAL before the device
	 * goes (the RDMA driver tells them once, however often it hears).
	 */
	wren_aux_fatal(wdev);
	wren_aux_del(wdev);

	rtnl_lock();
	wren_eth_detach(wdev);
	/* Nobody may be between posting a command and reaping its answer
	 * while the rings go; callers that come later find none.
	 */
	wren_aq_drain(wdev);
	wren_dev_stop(wdev);
	wren_aq_undrain(wdev);
	rtnl_unlock();
	wren_cmd_release_orphans(wdev);
}

/**
 * wren_recover_done() - reset the device and bring everything back
 * @wdev: the device, as wren_recover_prepare() left it
 * @extack: where devlink wants the reason of a failure, or NULL
 *
 * Caller holds the devlink instance lock.  On failure the device stays
 * stopped and declared fatal; a later recovery may try again.
 *
 * Return: 0, or the errno of the step that failed.
 */
int wren_recover_done(struct wren_dev *wdev, struct netlink_ext_ack *extack)
{
	struct device *dev = &wdev->pdev->dev;
	int err, aux_err;

	devl_assert_locked(wdev->devlink);
	rtnl_lock();
	clear_bit(WREN_FLAG_FATAL, &wdev->flags);
	clear_bit(WREN_FLAG_NEEDS_RESET, &wdev->flags);
	err = wren_dev_start(wdev);
	if (err) {
		set_bit(WREN_FLAG_FATAL, &wdev->flags);
		rtnl_unlock();
		NL_SET_ERR_MSG_MOD(extack, "the device did not come back after a reset");
		dev_err(dev, "recovery failed: the device did not come back after a reset: %d\n",
			err);
		return err;
	}
	/* Before the channels reopen: no frame leaves a lossless port
	 * without its PFC.
	 */
	if (wren_port_cfg_restore(wdev))
		dev_warn(dev, "recovery: some port settings are back at their defaults\n");
	err = wren_eth_attach(wdev);
	rtnl_unlock();

	/* From here a new breakage is reported again. */
	clear_bit(WREN_FLAG_REPORTED, &wdev->flags);
	wren_health_start(wdev);
	aux_err = wren_aux_add(wdev);
	if (!err)
		err = aux_err;
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "the device was reset; not every function came back");
		dev_err(dev, "recovery: the device was reset, but not every function came back: %d\n",
			err);
		return err;
	}
	dev_info(dev, "recovered: the device was reset and every function is back\n");
	return 0;
}

/**
 * wren_recover() - reset a broken device and bring everything back
 * @wdev: the device
 * @extack: where devlink wants the reason of a failure, or NULL
 *
 * Caller holds the devlink instance lock.
 *
 * Return: 0; -ENODEV when the device is gone or being removed; or the
 * errno of the step that failed (wren_recover_done()).
 */
int wren_recover(struct wren_dev *wdev, struct netlink_ext_ack *extack)
{
	devl_assert_locked(wdev->devlink);
	if (test_bit(WREN_FLAG_REMOVING, &wdev->flags))
		return -ENODEV;
	if (wren_check_gone(wdev)) {
		NL_SET_ERR_MSG_MOD(extack, "the device is gone");
		return -ENODEV;
	}
	dev_warn(&wdev->pdev->dev, "recovering: resetting the device\n");
	wren_recover_prepare(wdev);
	return wren_recover_done(wdev, extack);
}
