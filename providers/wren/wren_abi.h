/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The provider's view of the kernel ABI (include/uapi/rdma/wren-abi.h of
 * the Wren repository, copied to rdma-core's kernel-headers/ by
 * scripts/rdma-core/build.sh): each verb's command and response with the
 * driver-specific part appended, as rdma-core declares them.
 */
#ifndef WREN_ABI_H
#define WREN_ABI_H

#include <infiniband/kern-abi.h>
#include <rdma/wren-abi.h>
#include <kernel-abi/wren-abi.h>

DECLARE_DRV_CMD(wren_alloc_ucontext, IB_USER_VERBS_CMD_GET_CONTEXT,
		empty, wren_ib_alloc_ucontext_resp);
DECLARE_DRV_CMD(wren_create_cq, IB_USER_VERBS_EX_CMD_CREATE_CQ,
		wren_ib_create_cq, wren_ib_create_cq_resp);
DECLARE_DRV_CMD(wren_resize_cq, IB_USER_VERBS_CMD_RESIZE_CQ,
		wren_ib_resize_cq, empty);
DECLARE_DRV_CMD(wren_create_qp, IB_USER_VERBS_CMD_CREATE_QP,
		wren_ib_create_qp, wren_ib_create_qp_resp);
DECLARE_DRV_CMD(wren_create_srq, IB_USER_VERBS_CMD_CREATE_SRQ,
		wren_ib_create_srq, wren_ib_create_srq_resp);
/* An XRC SRQ: the same ring and doorbell record as a basic one. */
DECLARE_DRV_CMD(wren_create_xsrq, IB_USER_VERBS_CMD_CREATE_XSRQ,
		wren_ib_create_srq, wren_ib_create_srq_resp);
DECLARE_DRV_CMD(wren_modify_srq, IB_USER_VERBS_CMD_MODIFY_SRQ,
		wren_ib_resize_srq, empty);
DECLARE_DRV_CMD(wren_create_ah, IB_USER_VERBS_CMD_CREATE_AH,
		empty, wren_ib_create_ah_resp);

#endif /* WREN_ABI_H */
