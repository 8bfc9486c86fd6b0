// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The auxiliary device "wren.rdma" through which wren_ib.ko finds the NIC.
 * It exists only on devices with RDMA capabilities; its lifetime is
 * reference counted by the driver core, so it is freed in its release
 * callback and not in wren_aux_del().
 */
#include <linux/idr.h>
#include <linux/slab.h>

#include "wren.h"

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

	wadev = kzalloc(sizeof(*wadev), GFP_KERNEL);
	if (!wadev)
		return -ENOMEM;
	id = ida_alloc(&wren_aux_ida, GFP_KERNEL);
	if (id < 0) {
		kfree(wadev);
		return id;
	}

	wadev->cdev = &wdev->core;
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
	err = auxiliary_device_add(adev);
	if (err) {
		/* Drops the last reference: wren_aux_release() frees it. */
		auxiliary_device_uninit(adev);
		return err;
	}
	wdev->rdma_adev = wadev;
	return 0;
}

void wren_aux_del(struct wren_dev *wdev)
{
	struct wren_aux_dev *wadev = wdev->rdma_adev;

	if (!wadev)
		return;
	wdev->rdma_adev = NULL;
	auxiliary_device_delete(&wadev->adev);
	auxiliary_device_uninit(&wadev->adev);
}
