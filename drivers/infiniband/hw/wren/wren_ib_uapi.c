// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The driver's own uverbs ioctl attributes and methods (<rdma/wren-abi.h>):
 * what a process needs to import a context and a PD that another context
 * of the same command file created (ibv_import_device, ibv_import_pd).
 * MRs need nothing of ours: ib_core's QUERY_MR answers their keys.
 */
#include <rdma/uverbs_ioctl.h>

#define UVERBS_MODULE_NAME wren_ib
#include <rdma/uverbs_named_ioctl.h>
#include <rdma/uverbs_std_types.h>
#include <rdma/wren-abi.h>

#include "wren_ib.h"

/**
 * wren_ib_query_ucontext() - answer QUERY_CONTEXT for an importing process
 * @ibuctx: the context the command file belongs to
 * @attrs: the method's attributes, WREN_IB_ATTR_QUERY_CONTEXT_RESP_UCTX
 *         among them
 *
 * Return: 0, or the error of copying the answer out.
 */
int wren_ib_query_ucontext(struct ib_ucontext *ibuctx,
			   struct uverbs_attr_bundle *attrs)
{
	struct wren_ib_alloc_ucontext_resp resp;
	int len;

	len = uverbs_attr_get_len(attrs, WREN_IB_ATTR_QUERY_CONTEXT_RESP_UCTX);
	if (len < 0)
		return len;
	wren_ib_ucontext_resp(to_wuctx(ibuctx), &resp, len);
	return uverbs_copy_to(attrs, WREN_IB_ATTR_QUERY_CONTEXT_RESP_UCTX,
			      &resp, sizeof(resp));
}

ADD_UVERBS_ATTRIBUTES_SIMPLE(wren_ib_query_context, UVERBS_OBJECT_DEVICE,
			     UVERBS_METHOD_QUERY_CONTEXT,
	UVERBS_ATTR_PTR_OUT(WREN_IB_ATTR_QUERY_CONTEXT_RESP_UCTX,
			    UVERBS_ATTR_STRUCT(struct wren_ib_alloc_ucontext_resp,
					       reserved),
			    UA_MANDATORY));

static int UVERBS_HANDLER(WREN_IB_METHOD_PD_QUERY)(struct uverbs_attr_bundle *attrs)
{
	struct ib_pd *pd = uverbs_attr_get_obj(attrs,
					       WREN_IB_ATTR_QUERY_PD_HANDLE);

	return uverbs_copy_to(attrs, WREN_IB_ATTR_QUERY_PD_RESP_PDN,
			      &to_wpd(pd)->pdn, sizeof(to_wpd(pd)->pdn));
}

DECLARE_UVERBS_NAMED_METHOD(WREN_IB_METHOD_PD_QUERY,
			    UVERBS_ATTR_IDR(WREN_IB_ATTR_QUERY_PD_HANDLE,
					    UVERBS_OBJECT_PD, UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(WREN_IB_ATTR_QUERY_PD_RESP_PDN,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY));

ADD_UVERBS_METHODS(wren_ib_pd, UVERBS_OBJECT_PD,
		   &UVERBS_METHOD(WREN_IB_METHOD_PD_QUERY));

const struct uapi_definition wren_ib_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &wren_ib_query_context),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_PD, &wren_ib_pd),
	{},
};
