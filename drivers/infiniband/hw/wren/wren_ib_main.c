// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wren_ib.ko: the RDMA half of the Wren NIC, an auxiliary driver for the
 * "wren.rdma" device that wren.ko creates on NICs with RDMA capabilities.
 *
 * This version binds, checks that the device can do what any RDMA device
 * here must (RC and GSI QPs), and proves the admin channel the verbs will
 * use answers.  It deliberately registers no ib_device yet: one without
 * working verbs would be visible to ib_core's ULPs and to userspace and
 * fail them in confusing ways.  Registration comes with the verbs.
 */
#include <linux/auxiliary_bus.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wren/wren_core.h>

#define WREN_IB_REQUIRED_CAPS	(WREN_CAP_RDMA_RC | WREN_CAP_RDMA_GSI)

struct wren_ib_dev {
	struct wren_core_dev *cdev;
};

static int wren_ib_probe(struct auxiliary_device *adev,
			 const struct auxiliary_device_id *id)
{
	struct wren_core_dev *cdev = wren_aux_dev_from(adev)->cdev;
	u64 missing = WREN_IB_REQUIRED_CAPS & ~cdev->caps;
	struct wren_aq_cmd cmd = {};
	struct wren_ib_dev *ibdev;
	int err;

	if (missing) {
		dev_info(&adev->dev, "device lacks RDMA capabilities 0x%llx; not binding\n",
			 missing);
		return -ENODEV;
	}

	cmd.opcode = WREN_AQ_OP_NOP;
	err = wren_core_exec_cmd(cdev, &cmd, NULL);
	if (err) {
		dev_err(&adev->dev, "admin channel does not answer: %d\n", err);
		return err;
	}

	ibdev = kzalloc(sizeof(*ibdev), GFP_KERNEL);
	if (!ibdev)
		return -ENOMEM;
	ibdev->cdev = cdev;
	auxiliary_set_drvdata(adev, ibdev);

	dev_info(&adev->dev, "RDMA capable (RC, GSI%s%s%s%s); no ib_device is registered by this version\n",
		 cdev->caps & WREN_CAP_RDMA_UD ? ", UD" : "",
		 cdev->caps & WREN_CAP_RDMA_SRQ ? ", SRQ" : "",
		 cdev->caps & WREN_CAP_RDMA_ATOMIC ? ", atomics" : "",
		 cdev->caps & WREN_CAP_RDMA_FAST_REG ? ", fast registration" : "");
	return 0;
}

static void wren_ib_remove(struct auxiliary_device *adev)
{
	kfree(auxiliary_get_drvdata(adev));
}

static const struct auxiliary_device_id wren_ib_id_table[] = {
	{ .name = WREN_AUX_RDMA_MATCH },
	{ }
};
MODULE_DEVICE_TABLE(auxiliary, wren_ib_id_table);

static struct auxiliary_driver wren_ib_driver = {
	.name		= "rdma",
	.probe		= wren_ib_probe,
	.remove		= wren_ib_remove,
	.id_table	= wren_ib_id_table,
};
module_auxiliary_driver(wren_ib_driver);

MODULE_IMPORT_NS(WREN_CORE_NS);
MODULE_DESCRIPTION("Wren RoCEv2 NIC RDMA driver");
MODULE_LICENSE("Dual BSD/GPL");
