// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wtgpu_main.c: the PCI driver of wren_test_gpu.ko and the module itself.
 * probe claims BAR2 and registers /dev/wren_gpu<N> (wtgpu_cdev.c's
 * wtgpu_fops) with the counters in sysfs (wtgpu_sysfs.c's wtgpu_groups);
 * remove revokes the GPU's P2P page tables (wtgpu_alloc.c).  The top of
 * the module: no other file calls into this one.  The design, lifetimes
 * and locking: wtgpu.h.
 */
#include "wtgpu.h"

static int wtgpu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct wtgpu_dev *gpu;
	int ret;

	if (!(pci_resource_flags(pdev, WTGPU_BAR) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, WTGPU_BAR) < WTGPU_PAGE_SIZE) {
		dev_err(&pdev->dev, "BAR%d is not a memory BAR of 64 KiB or more\n",
			WTGPU_BAR);
		return -ENODEV;
	}
	gpu = kzalloc(sizeof(*gpu), GFP_KERNEL);
	if (!gpu)
		return -ENOMEM;
	gpu->id = ida_alloc(&wtgpu_ida, GFP_KERNEL);
	if (gpu->id < 0) {
		ret = gpu->id;
		kfree(gpu);
		return ret;
	}
	kref_init(&gpu->kref);
	gpu->pdev = pci_dev_get(pdev);
	gpu->bar_phys = pci_resource_start(pdev, WTGPU_BAR);
	gpu->bar_size = pci_resource_len(pdev, WTGPU_BAR) & ~(u64)WTGPU_GPU_MASK;
	gpu->npages = gpu->bar_size >> WTGPU_PAGE_SHIFT;
	atomic64_set(&gpu->c.bar_free, gpu->bar_size);
	gpu->bitmap = bitmap_zalloc(gpu->npages, GFP_KERNEL);
	if (!gpu->bitmap) {
		ret = -ENOMEM;
		goto err_put;
	}

	ret = pci_enable_device_mem(pdev);
	if (ret)
		goto err_put;
	ret = pci_request_region(pdev, WTGPU_BAR, WTGPU_NAME);
	if (ret)
		goto err_disable;
	pci_set_drvdata(pdev, gpu);

	snprintf(gpu->name, sizeof(gpu->name), "wren_gpu%d", gpu->id);
	gpu->misc.minor = MISC_DYNAMIC_MINOR;
	gpu->misc.name = gpu->name;
	gpu->misc.fops = &wtgpu_fops;
	gpu->misc.parent = &pdev->dev;
	gpu->misc.mode = 0600;
	ret = misc_register(&gpu->misc);
	if (ret)
		goto err_release;
	dev_info(&pdev->dev, "/dev/%s: BAR%d %pa, %llu MiB in 64 KiB pages\n",
		 gpu->name, WTGPU_BAR, &gpu->bar_phys, gpu->bar_size >> 20);
	return 0;

err_release:
	pci_release_region(pdev, WTGPU_BAR);
err_disable:
	pci_disable_device(pdev);
err_put:
	wtgpu_dev_put(gpu);
	return ret;
}

static void wtgpu_remove(struct pci_dev *pdev)
{
	struct wtgpu_dev *gpu = pci_get_drvdata(pdev);
	struct wtgpu_p2p *t;
	LIST_HEAD(revoke);
	bool persistent = false;

	misc_deregister(&gpu->misc);
	mutex_lock(&wtgpu_lock);
	gpu->dead = true;
	list_for_each_entry(t, &wtgpu_tables, node) {
		if (t->alloc->gpu != gpu || t->revoked)
			continue;
		if (t->persistent) {
			persistent = true;
			continue;
		}
		t->revoked = true;
		kref_get(&t->kref);
		list_add_tail(&t->revoke_node, &revoke);
	}
	mutex_unlock(&wtgpu_lock);
	wtgpu_revoke_run(gpu, &revoke);
	if (persistent)
		dev_warn(&pdev->dev, "removed under persistent P2P page tables\n");
	pci_release_region(pdev, WTGPU_BAR);
	pci_disable_device(pdev);
	wtgpu_dev_put(gpu);
}

static const struct pci_device_id wtgpu_ids[] = {
	{ PCI_DEVICE(0x1f57, 0x0002) },
	{ }
};
MODULE_DEVICE_TABLE(pci, wtgpu_ids);

static struct pci_driver wtgpu_driver = {
	.name = WTGPU_NAME,
	.id_table = wtgpu_ids,
	.probe = wtgpu_probe,
	.remove = wtgpu_remove,
	.dev_groups = wtgpu_groups,
};
module_pci_driver(wtgpu_driver);

MODULE_DESCRIPTION("Wren test GPU: BAR2 as GPU memory, dma-buf and nvidia_p2p");
MODULE_LICENSE("Dual BSD/GPL");
#ifdef HAVE_MODULE_IMPORT_NS_STRING
MODULE_IMPORT_NS("DMA_BUF");
#else
MODULE_IMPORT_NS(DMA_BUF);
#endif
