// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Wren NIC PCI core driver: probe, reset, identity checks and teardown.
 *
 * Probe order: devlink instance (holds our state), PCI resources, BARs,
 * identity and contract version, command layer, MSI-X vectors, the device
 * half (wren_dev.c: reset, admin queue, QUERY_DEVICE, management interrupt,
 * event queue), netdev, auxiliary devices, devlink registration.  Remove
 * runs the same steps backwards and never waits for a device that stopped
 * answering.
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>

#include "wren.h"

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
	/* An SGE's length is 32 bits: the DMA API's default of 64 KiB per
	 * segment is not the device's, and ULPs map longer ones (nvme-rdma
	 * 500 KiB, which DMA-API debugging reported as an overrun).
	 */
	dma_set_max_seg_size(&pdev->dev, UINT_MAX);
	err = wren_map_bars(wdev);
	if (err)
		goto err_release;

	err = wren_check_identity(wdev);
	if (err)
		goto err_unmap;
	wren_devlink_health_create(wdev);
	wren_aq_setup(wdev);
	err = wren_cmd_init(wdev);
	if (err)
		goto err_cmd;
	err = wren_irq_alloc_vectors(wdev);
	if (err)
		goto err_cmd;
	err = wren_dev_start(wdev);
	if (err)
		goto err_vectors;

	err = wren_eth_probe(wdev);
	if (err)
		goto err_dev;
	err = wren_aux_add(wdev);
	if (err)
		goto err_eth;

	wren_health_start(wdev);
	wren_debugfs_add(wdev);
	wren_pfc_storm_create(wdev);
	wren_cc_params_register(wdev);
	wren_devlink_register(wdev);
	/* What an AER slot reset restores. */
	pci_save_state(pdev);

	fw = wdev->core.fw_version;
	dev_info(&pdev->dev, "Wren NIC: firmware %u.%u.%u (build %u), contract %u.%u, caps 0x%llx, %d MSI-X vectors\n",
		 WREN_FW_VER_MAJOR(fw), WREN_FW_VER_MINOR(fw),
		 WREN_FW_VER_PATCH(fw), wdev->core.fw_build,
		 wdev->contract >> 16, wdev->contract & 0xffff,
		 wdev->core.caps, wdev->num_vectors);
	return 0;

err_eth:
	wren_eth_remove(wdev);
err_dev:
	wren_dev_stop(wdev);
err_vectors:
	/* A command that timed out may have scheduled the report. */
	cancel_work_sync(&wdev->fatal_work);
	wren_irq_free_vectors(wdev);
err_cmd:
	/* Quiesced: timed-out commands' buffers may go now. */
	wren_cmd_fini(wdev);
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

	/* A recovery holds the instance lock: one in flight ends first, and
	 * none starts after this.
	 */
	devl_lock(wdev->devlink);
	set_bit(WREN_FLAG_REMOVING, &wdev->flags);
	devl_unlock(wdev->devlink);
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

	/* Nobody is left to wait, but the stop fails anything that might. */
	wren_dev_stop(wdev);
	cancel_work_sync(&wdev->fatal_work);
	cancel_work_sync(&wdev->pfc_storm.work);
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

/* A function reset by the PCI core (sysfs reset, another driver's): the
 * functions go down before it and come back after, as in a recovery.
 */
static void wren_reset_prepare(struct pci_dev *pdev)
{
	struct wren_dev *wdev = pci_get_drvdata(pdev);

	devl_lock(wdev->devlink);
	wren_recover_prepare(wdev);
	devl_unlock(wdev->devlink);
}

static void wren_reset_done(struct pci_dev *pdev)
{
	struct wren_dev *wdev = pci_get_drvdata(pdev);
	int err;

	devl_lock(wdev->devlink);
	err = wren_recover_done(wdev, NULL);
	devl_unlock(wdev->devlink);
	if (err)
		wren_report_broken(wdev, "device did not come back after a function reset");
}

/* AER: the link or the function broke; the PCI core resets it between
 * these two.
 */
static pci_ers_result_t wren_error_detected(struct pci_dev *pdev,
					    pci_channel_state_t state)
{
	struct wren_dev *wdev = pci_get_drvdata(pdev);

	dev_err(&pdev->dev, "PCI error reported (channel state %d)\n", state);
	if (state == pci_channel_io_perm_failure) {
		set_bit(WREN_FLAG_GONE, &wdev->flags);
		return PCI_ERS_RESULT_DISCONNECT;
	}
	wren_reset_prepare(pdev);
	pci_disable_device(pdev);
	return PCI_ERS_RESULT_NEED_RESET;
}

static pci_ers_result_t wren_slot_reset(struct pci_dev *pdev)
{
	struct wren_dev *wdev = pci_get_drvdata(pdev);
	int err;

	if (pci_enable_device_mem(pdev)) {
		dev_err(&pdev->dev, "cannot enable the device after the PCI reset\n");
		return PCI_ERS_RESULT_DISCONNECT;
	}
	pci_restore_state(pdev);
	pci_save_state(pdev);
	devl_lock(wdev->devlink);
	err = wren_recover_done(wdev, NULL);
	devl_unlock(wdev->devlink);
	return err ? PCI_ERS_RESULT_DISCONNECT : PCI_ERS_RESULT_RECOVERED;
}

static const struct pci_error_handlers wren_err_handlers = {
	.error_detected	= wren_error_detected,
	.slot_reset	= wren_slot_reset,
	.reset_prepare	= wren_reset_prepare,
	.reset_done	= wren_reset_done,
};

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
	.err_handler	= &wren_err_handlers,
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
