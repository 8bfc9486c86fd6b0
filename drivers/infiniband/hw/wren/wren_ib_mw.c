// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory windows (WREN_CAP_RDMA_MW): the device object only.  Binding,
 * local and remote invalidation are work requests that userspace posts
 * (BIND_MW, LOCAL_INV, SEND_INV), so the kernel never learns whether a
 * window is bound; the device keeps that, and refuses to destroy an MR
 * that windows are bound to (ibv_dereg_mr() then fails with EBUSY).
 * Kernel consumers have no window verbs in ib_core.
 */
#include "wren_ib.h"

int wren_ib_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibmw->device);
	struct wren_ib_mw *mw = to_wmw(ibmw);
	struct wren_cmd_mr_result res;
	u8 type;
	int err;

	err = wren_ib_udata_none(udata);
	if (err)
		return err;
	switch (ibmw->type) {
	case IB_MW_TYPE_1:
		type = WREN_MW_TYPE_1;
		break;
	case IB_MW_TYPE_2:
		type = WREN_MW_TYPE_2;
		break;
	default:
		return -EINVAL;
	}
	err = wren_cmd_create_mw(dev->cdev, to_wpd(ibmw->pd)->pdn, type,
				 (u8)atomic_inc_return(&dev->key_tag), &res);
	if (err)
		return err;
	mw->index = res.index;
	ibmw->rkey = res.key;
	return 0;
}

int wren_ib_dealloc_mw(struct ib_mw *ibmw)
{
	return wren_cmd_destroy_mw(to_wdev(ibmw->device)->cdev,
				   to_wmw(ibmw)->index);
}
