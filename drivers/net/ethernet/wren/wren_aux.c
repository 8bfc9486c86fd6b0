// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The auxiliary device "wren.rdma" through which wren_ib.ko finds the NIC.
 * It exists only on devices with RDMA capabilities; its lifetime is
 * reference counted by the driver core, so it is freed in its release
 * callback and not in wren_aux_del().
 */
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/slab.h>

#include "wren_en.h"

#define WREN_CAP_RDMA_ANY	(WREN_CAP_RDMA_RC | WREN_CAP_RDMA_UD | \
				 WREN_CAP_RDMA_SRQ | WREN_CAP_RDMA_ATOMIC | \
				 WREN_CAP_RDMA_FAST_REG | WREN_CAP_RDMA_GSI | \
				 WREN_CAP_RDMA_SEND_INV | \
				 WREN_CAP_RDMA_MR_INVALIDATE)

static DEFINE_IDA(wren_aux_ida);

static void wren_aux_release(struct device *dev)
{
	struct wren_aux_dev *wadev =
		container_of(dev, struct wren_aux_dev, adev.dev);

	ida_free(&wren_aux_ida, wadev->adev.id);
	kfree(wadev);
}

int wren_aux_add(struct wren_dev *wdev)
{
	struct wren_aux_dev *wadev;
	struct auxiliary_device *adev;
	int id, err;

	if (!(wdev->core.caps & WREN_CAP_RDMA_ANY)) {
		dev_info(&wdev->pdev->dev, "no RDMA capability; not creating %s\n",
			 WREN_AUX_RDMA_MATCH);
		return 0;
	}

	wadev = kzalloc_obj(*wadev, GFP_KERNEL);
	if (!wadev)
		return -ENOMEM;
	id = ida_alloc(&wren_aux_ida, GFP_KERNEL);
	if (id < 0) {
		kfree(wadev);
		return id;
	}

	wadev->cdev = &wdev->core;
	wadev->netdev = wdev->eth ? wdev->eth->netdev : NULL;
	wadev->kernel_db = wdev->db;
	spin_lock_init(&wadev->ev_lock);
	adev = &wadev->adev;
	adev->name = WREN_AUX_RDMA_NAME;
	adev->id = id;
	adev->dev.parent = &wdev->pdev->dev;
	adev->dev.release = wren_aux_release;

	err = auxiliary_device_init(adev);
	if (err) {
		ida_free(&wren_aux_ida, id);
		kfree(wadev);
		return err;
	}
	/* Set before the add: the driver may bind, and ask for events,
	 * from inside auxiliary_device_add().
	 */
	WRITE_ONCE(wdev->rdma_adev, wadev);
	err = auxiliary_device_add(adev);
	if (err) {
		WRITE_ONCE(wdev->rdma_adev, NULL);
		synchronize_irq(pci_irq_vector(wdev->pdev, 0));
		/* Drops the last reference: wren_aux_release() frees it. */
		auxiliary_device_uninit(adev);
		return err;
	}
	return 0;
}

void wren_aux_del(struct wren_dev *wdev)
{
	struct wren_aux_dev *wadev = wdev->rdma_adev;

	if (!wadev)
		return;
	WRITE_ONCE(wdev->rdma_adev, NULL);
	/* The management handler may still be looking at it. */
	synchronize_irq(pci_irq_vector(wdev->pdev, 0));
	auxiliary_device_delete(&wadev->adev);
	auxiliary_device_uninit(&wadev->adev);
}
