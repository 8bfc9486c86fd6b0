// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The device half of probe and remove: reset, bus mastering, the admin
 * queue, QUERY_DEVICE, the management interrupt and the AEQ.  Probe runs
 * it once the BARs are mapped and the vectors allocated, remove after the
 * netdev and the auxiliary devices went; a recovery (wren_recover.c) runs
 * both in turn on a broken device while everything around them - the PCI
 * function, the devlink instance, the vectors, the netdev - stays.
 */
#include <linux/iopoll.h>
#include <linux/timekeeping.h>

#include "wren.h"

static int wren_reset(struct wren_dev *wdev)
{
	struct device *dev = &wdev->pdev->dev;
	unsigned int timeout_ms;
	u32 val;
	int err;

	timeout_ms = clamp_t(u32, wren_rd(wdev, WREN_REG_RESET_TIMEOUT_MS),
			     WREN_RESET_TIMEOUT_MIN_MS, WREN_TIMEOUT_MAX_MS);
	wren_wr(wdev, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	err = readl_poll_timeout(wdev->regs + WREN_REG_CONTROL, val,
				 !(val & WREN_CONTROL_RESET) || val == U32_MAX,
				 1000, timeout_ms * USEC_PER_MSEC);
	if (!err)
		err = wren_wait_status(wdev, WREN_STATUS_READY | WREN_STATUS_RESETTING,
				       WREN_STATUS_READY, timeout_ms);
	if (err)
		dev_err(dev, "device reset did not complete in %u ms: error %d, status 0x%08x\n",
			timeout_ms, err, wren_rd(wdev, WREN_REG_STATUS));
	return err;
}

/**
 * wren_quiesce() - stop all device DMA and interrupts
 * @wdev: the device
 *
 * Before rings are freed: a reset when the device still answers, and bus
 * mastering off in any case, so a wedged device cannot write into memory
 * we give back.
 */
void wren_quiesce(struct wren_dev *wdev)
{
	if (!wren_check_gone(wdev))
		wren_reset(wdev);
	pci_clear_master(wdev->pdev);
}

static int wren_query_device(struct wren_dev *wdev)
{
	struct wren_core_dev *cdev = &wdev->core;
	struct device *dev = &wdev->pdev->dev;
	u64 reg_caps;
	int err;

	/* Fields the device did not write (an older contract) stay zero. */
	err = wren_cmd_query_device(wdev, &cdev->attr);
	if (err) {
		dev_err(dev, "QUERY_DEVICE failed: %d\n", err);
		return err;
	}

	cdev->caps = le64_to_cpu(cdev->attr.caps);
	cdev->fw_version = le32_to_cpu(cdev->attr.fw_version);
	cdev->fw_build = le32_to_cpu(cdev->attr.fw_build);
	wdev->serial = le64_to_cpu(cdev->attr.serial);
	memcpy(wdev->board_id, cdev->attr.board_id, sizeof(cdev->attr.board_id));
	wdev->board_id[sizeof(cdev->attr.board_id)] = '\0';

	reg_caps = (u64)wren_rd(wdev, WREN_REG_CAPS_HI) << 32 |
		   wren_rd(wdev, WREN_REG_CAPS_LO);
	if (reg_caps != cdev->caps)
		dev_warn(dev, "capability registers (0x%llx) disagree with QUERY_DEVICE (0x%llx); using the latter\n",
			 reg_caps, cdev->caps);
	if (le16_to_cpu(cdev->attr.contract_major) != WREN_CONTRACT_MAJOR) {
		dev_err(dev, "QUERY_DEVICE reports contract major %u, expected %u\n",
			le16_to_cpu(cdev->attr.contract_major), WREN_CONTRACT_MAJOR);
		err = -EOPNOTSUPP;
	}
	return err;
}

/* The device clock counts from 0 after each reset; set it to real time,
 * so that a completion timestamp is also a wall-clock time (libwren's
 * IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK).  Nothing disciplines it
 * afterwards: there is no PTP clock yet.
 */
static int wren_set_clock(struct wren_dev *wdev)
{
	int err;

	if (!(wdev->core.caps & WREN_CAP_TIMESTAMP))
		return 0;
	err = wren_cmd_set_clock(wdev, ktime_get_real_ns());
	if (err)
		dev_err(&wdev->pdev->dev, "SET_CLOCK failed: %d\n", err);
	return err;
}

/* Log the port as the device reports it; the netdev will own it later. */
static void wren_query_port(struct wren_dev *wdev)
{
	struct device *dev = &wdev->pdev->dev;
	struct wren_port_attr port;
	int err;

	err = wren_cmd_query_port(&wdev->core, &port);
	if (err)
		dev_warn(dev, "QUERY_PORT failed: %d\n", err);
	else
		dev_info(dev, "port %pM: link %s, %u Mb/s, MTU %u\n", port.mac,
			 str_up_down(port.state == WREN_PORT_ACTIVE),
			 le32_to_cpu(port.speed_mbps), le16_to_cpu(port.mtu));
}

/* One command through the interrupt path, so that a vector that does not
 * fire fails the probe here rather than every command later.
 */
static int wren_check_mgmt_irq(struct wren_dev *wdev)
{
	int err;

	err = wren_cmd_nop(wdev);
	if (err)
		dev_err(&wdev->pdev->dev, "NOP through the management interrupt failed: %d\n",
			err);
	else if (wdev->aq.warned_no_irq)
		err = -EIO;	/* answered, but the interrupt never came */
	return err;
}

/**
 * wren_dev_start() - reset the device and bring its management path up
 * @wdev: the device: BARs mapped, vectors allocated, admin queue set up
 *	  (wren_aq_setup()) and stopped
 *
 * Reset, bus mastering, admin queue (polled), QUERY_DEVICE, SET_CLOCK
 * (WREN_CAP_TIMESTAMP), management
 * interrupt, AEQ, admin queue switched to interrupts and proven with one
 * command.  On failure the device is left as wren_dev_stop() leaves it.
 *
 * Return: 0, or the errno of the step that failed.
 */
int wren_dev_start(struct wren_dev *wdev)
{
	int err;

	err = wren_reset(wdev);
	if (err)
		goto err_stop;
	pci_set_master(wdev->pdev);
	err = wren_aq_init(wdev);
	if (err)
		goto err_stop;
	err = wren_query_device(wdev);
	if (err)
		goto err_stop;
	err = wren_set_clock(wdev);
	if (err)
		goto err_stop;
	wren_query_port(wdev);

	err = wren_irq_request_mgmt(wdev);
	if (err)
		goto err_stop;
	err = wren_aeq_init(wdev);
	if (err)
		goto err_stop;
	wren_aq_enable_irq(wdev);
	err = wren_check_mgmt_irq(wdev);
	if (err)
		goto err_stop;
	return 0;

err_stop:
	wren_dev_stop(wdev);
	return err;
}

/**
 * wren_dev_stop() - quiesce the device and free its management path
 * @wdev: the device, with nothing left that creates queues on it (netdev
 *	  channels closed, auxiliary devices removed)
 *
 * Undoes wren_dev_start(), whatever part of it ran: the device stops all
 * DMA first, then the management interrupt, the commands still waiting
 * (failed) and the rings go.  Buffers of commands the device never
 * answered stay with the command layer (wren_cmd_release_orphans()).
 */
void wren_dev_stop(struct wren_dev *wdev)
{
	wren_quiesce(wdev);
	wren_irq_free_mgmt(wdev);
	wren_aq_abort(wdev);
	wren_aeq_free(wdev);
	wren_aq_free(wdev);
}
