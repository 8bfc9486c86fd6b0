// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Wren NIC PCI core driver: probe, reset, identity checks and teardown.
 *
 * Probe order: devlink instance (holds our state), PCI resources, BARs,
 * identity and contract version, device reset, MSI-X vectors, admin queue
 * (polled), QUERY_DEVICE, management interrupt, event queue, admin queue
 * switched to interrupts, netdev, auxiliary devices, devlink registration.  Remove
 * runs the same steps backwards and never waits for a device that stopped
 * answering.
 */
#include <linux/dma-mapping.h>
#include <linux/iopoll.h>
#include <linux/module.h>

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

/* Stop all device DMA and interrupts before the rings are freed: a reset
 * when the device still answers, and bus mastering off in any case, so a
 * wedged device cannot write into memory we give back.
 */
static void wren_quiesce(struct wren_dev *wdev)
{
	if (!wren_check_gone(wdev))
		wren_reset(wdev);
	pci_clear_master(wdev->pdev);
}

static int wren_map_bars(struct wren_dev *wdev)
{
	struct pci_dev *pdev = wdev->pdev;
	resource_size_t db;

	if (!(pci_resource_flags(pdev, WREN_BAR_REGS) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, WREN_BAR_REGS) < WREN_REGS_SIZE ||
	    !(pci_resource_flags(pdev, WREN_BAR_DB) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, WREN_BAR_DB) <
	    (WREN_KERNEL_UAR + 1) * WREN_DB_PAGE_SIZE) {
		dev_err(&pdev->dev, "unexpected BAR layout (BAR%d %pR, BAR%d %pR)\n",
			WREN_BAR_REGS, &pdev->resource[WREN_BAR_REGS],
			WREN_BAR_DB, &pdev->resource[WREN_BAR_DB]);
		return -ENODEV;
	}

	wdev->regs = pci_iomap(pdev, WREN_BAR_REGS, WREN_REGS_SIZE);
	if (!wdev->regs)
		return -ENOMEM;

	/* Only the kernel's own doorbell page; user pages are mmap()ed later. */
	db = pci_resource_start(pdev, WREN_BAR_DB) +
	     WREN_KERNEL_UAR * WREN_DB_PAGE_SIZE;
	wdev->db = ioremap(db, WREN_DB_PAGE_SIZE);
	if (!wdev->db) {
		pci_iounmap(pdev, wdev->regs);
		wdev->regs = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void wren_unmap_bars(struct wren_dev *wdev)
{
	iounmap(wdev->db);
	pci_iounmap(wdev->pdev, wdev->regs);
	wdev->db = NULL;
	wdev->regs = NULL;
}

static int wren_check_identity(struct wren_dev *wdev)
{
	struct device *dev = &wdev->pdev->dev;
	u32 magic = wren_rd(wdev, WREN_REG_MAGIC);

	if (magic != WREN_MAGIC) {
		dev_err(dev, "not a Wren register block (magic 0x%08x, expected 0x%08x)\n",
			magic, WREN_MAGIC);
		return -ENODEV;
	}
	wdev->contract = wren_rd(wdev, WREN_REG_CONTRACT);
	if (wdev->contract >> 16 != WREN_CONTRACT_MAJOR) {
		dev_err(dev, "device speaks hardware contract %u.%u; this driver needs major version %u\n",
			wdev->contract >> 16, wdev->contract & 0xffff,
			WREN_CONTRACT_MAJOR);
		return -EOPNOTSUPP;
	}
	return 0;
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
			 port.state == WREN_PORT_ACTIVE ? "up" : "down",
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

static int wren_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct wren_dev *wdev;
	u32 fw;
	int err;

	wdev = wren_devlink_alloc(pdev);
	if (!wdev)
		return -ENOMEM;
	INIT_WORK(&wdev->fatal_work, wren_fatal_work);
	wren_pfc_storm_init(wdev);
	pci_set_drvdata(pdev, wdev);

	err = pci_enable_device_mem(pdev);
	if (err)
		goto err_free_devlink;
	err = pci_request_mem_regions(pdev, WREN_DRV_NAME);
	if (err)
		goto err_disable;
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (err) {
		dev_err(&pdev->dev, "no usable 64-bit DMA: %d\n", err);
		goto err_release;
	}
	err = wren_map_bars(wdev);
	if (err)
		goto err_release;

	err = wren_check_identity(wdev);
	if (err)
		goto err_unmap;
	wren_devlink_health_create(wdev);
	err = wren_reset(wdev);
	if (err)
		goto err_health;
	err = wren_cmd_init(wdev);
	if (err)
		goto err_cmd;
	pci_set_master(pdev);

	err = wren_irq_alloc_vectors(wdev);
	if (err)
		goto err_quiesce;

	err = wren_aq_init(wdev);
	if (err)
		goto err_aq;
	err = wren_query_device(wdev);
	if (err)
		goto err_aq;
	wren_query_port(wdev);

	err = wren_irq_request_mgmt(wdev);
	if (err)
		goto err_aq;
	err = wren_aeq_init(wdev);
	if (err)
		goto err_aeq;
	wren_aq_enable_irq(wdev);
	err = wren_check_mgmt_irq(wdev);
	if (err)
		goto err_aeq;

	err = wren_eth_probe(wdev);
	if (err)
		goto err_aeq;
	err = wren_aux_add(wdev);
	if (err)
		goto err_eth;

	wren_health_start(wdev);
	wren_debugfs_add(wdev);
	wren_pfc_storm_create(wdev);
	wren_cc_params_register(wdev);
	wren_devlink_register(wdev);

	fw = wdev->core.fw_version;
	dev_info(&pdev->dev, "Wren NIC: firmware %u.%u.%u (build %u), contract %u.%u, caps 0x%llx, %d MSI-X vectors\n",
		 WREN_FW_VER_MAJOR(fw), WREN_FW_VER_MINOR(fw),
		 WREN_FW_VER_PATCH(fw), wdev->core.fw_build,
		 wdev->contract >> 16, wdev->contract & 0xffff,
		 wdev->core.caps, wdev->num_vectors);
	return 0;

err_eth:
	wren_eth_remove(wdev);
err_aeq:
	wren_quiesce(wdev);
	wren_irq_free_mgmt(wdev);
	wren_aeq_free(wdev);
	goto err_free_aq;
err_aq:
	wren_quiesce(wdev);
err_free_aq:
	/* A command that timed out may have scheduled the report. */
	cancel_work_sync(&wdev->fatal_work);
	wren_aq_free(wdev);
	wren_irq_free_vectors(wdev);
	goto err_cmd;
err_quiesce:
	wren_quiesce(wdev);
err_cmd:
	/* Quiesced: timed-out commands' buffers may go now. */
	wren_cmd_fini(wdev);
err_health:
	wren_devlink_health_destroy(wdev);
err_unmap:
	wren_unmap_bars(wdev);
err_release:
	pci_release_mem_regions(pdev);
err_disable:
	pci_disable_device(pdev);
err_free_devlink:
	wren_devlink_free(wdev);
	return err;
}

static void wren_remove(struct pci_dev *pdev)
{
	struct wren_dev *wdev = pci_get_drvdata(pdev);

	wren_debugfs_del(wdev);
	/* No health report may race with the unregistration. */
	wren_health_stop(wdev);
	clear_bit(WREN_FLAG_DEVLINK_LIVE, &wdev->flags);
	cancel_work_sync(&wdev->fatal_work);
	wren_pfc_storm_destroy(wdev);
	wren_devlink_unregister(wdev);
	wren_cc_params_unregister(wdev);
	wren_aux_del(wdev);
	wren_eth_remove(wdev);

	wren_quiesce(wdev);
	wren_irq_free_mgmt(wdev);
	cancel_work_sync(&wdev->fatal_work);
	cancel_work_sync(&wdev->pfc_storm.work);
	/* Nobody is left to wait, but fail anything that still might. */
	wren_aq_abort(wdev);
	wren_aeq_free(wdev);
	wren_aq_free(wdev);
	wren_cmd_fini(wdev);
	wren_irq_free_vectors(wdev);

	wren_devlink_health_destroy(wdev);
	wren_unmap_bars(wdev);
	pci_release_mem_regions(pdev);
	pci_disable_device(pdev);
	wren_devlink_free(wdev);
}

/* Reboot or kexec: the next kernel must not find the device doing DMA. */
static void wren_shutdown(struct pci_dev *pdev)
{
	struct wren_dev *wdev = pci_get_drvdata(pdev);

	wren_health_stop(wdev);
	wren_quiesce(wdev);
}

static const struct pci_device_id wren_pci_ids[] = {
	{ PCI_DEVICE(WREN_PCI_VENDOR_ID, WREN_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, wren_pci_ids);

static struct pci_driver wren_pci_driver = {
	.name		= WREN_DRV_NAME,
	.id_table	= wren_pci_ids,
	.probe		= wren_probe,
	.remove		= wren_remove,
	.shutdown	= wren_shutdown,
};

static int __init wren_init(void)
{
	int err;

	wren_debugfs_init();
	err = pci_register_driver(&wren_pci_driver);
	if (err)
		wren_debugfs_exit();
	return err;
}
module_init(wren_init);

static void __exit wren_exit(void)
{
	pci_unregister_driver(&wren_pci_driver);
	wren_debugfs_exit();
}
module_exit(wren_exit);

MODULE_DESCRIPTION("Wren RoCEv2 NIC PCI core driver");
MODULE_LICENSE("Dual BSD/GPL");
