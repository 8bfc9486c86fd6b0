// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Control-path verbs that the kernel does all of: device and port queries,
 * memory regions and windows, and address handles.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/wren/wren_regs.h>

#include "wren.h"
#include "wren_abi.h"

int wren_query_device_ex(struct ibv_context *context,
			 const struct ibv_query_device_ex_input *input,
			 struct ibv_device_attr_ex *attr, size_t attr_size)
{
	struct ib_uverbs_ex_query_device_resp resp;
	size_t resp_size = sizeof(resp);

	return ibv_cmd_query_device_any(context, input, attr, attr_size,
					&resp, &resp_size);
}

int wren_query_port(struct ibv_context *context, uint8_t port,
		    struct ibv_port_attr *attr)
{
	struct ibv_query_port cmd;

	return ibv_cmd_query_port(context, port, attr, &cmd, sizeof(cmd));
}

struct ibv_mr *wren_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			   uint64_t hca_va, int access)
{
	struct ib_uverbs_reg_mr_resp resp;
	struct ibv_reg_mr cmd;
	struct verbs_mr *vmr;
	int ret;

	vmr = calloc(1, sizeof(*vmr));
	if (!vmr) {
		errno = ENOMEM;
		return NULL;
	}
	ret = ibv_cmd_reg_mr(pd, addr, length, hca_va, access, vmr, &cmd,
			     sizeof(cmd), &resp, sizeof(resp));
	if (ret) {
		free(vmr);
		errno = ret;
		return NULL;
	}
	return &vmr->ibv_mr;
}

/* GPU memory exported as dma-buf: the kernel decides whether it can. */
struct ibv_mr *wren_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				  size_t length, uint64_t iova, int fd,
				  int access)
{
	struct verbs_mr *vmr;
	int ret;

	vmr = calloc(1, sizeof(*vmr));
	if (!vmr) {
		errno = ENOMEM;
		return NULL;
	}
	ret = ibv_cmd_reg_dmabuf_mr(pd, offset, length, iova, fd, access, vmr,
				    NULL);
	if (ret) {
		free(vmr);
		errno = ret;
		return NULL;
	}
	return &vmr->ibv_mr;
}

/*
 * A new PD or new access rights; the kernel keeps the keys and the pages.
 * A new address range (IBV_REREG_MR_CHANGE_TRANSLATION) is a new
 * registration in the kernel, whose new keys ibv_cmd_rereg_mr() copies
 * into the ibv_mr.  errno is set as well as returned, so the caller sees
 * the kernel's reason whichever way the command travelled.
 */
int wren_rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
		  void *addr, size_t length, int access)
{
	struct ib_uverbs_rereg_mr_resp resp;
	struct ibv_rereg_mr cmd;
	int ret;

	ret = ibv_cmd_rereg_mr(vmr, flags, addr, length, (uintptr_t)addr,
			       access, pd, &cmd, sizeof(cmd), &resp,
			       sizeof(resp));
	if (ret)
		errno = ret;
	return ret;
}

/*
 * ibv_import_mr(): an MR of the shared kernel context; ib_core's QUERY_MR
 * answers its keys and length (not its address, which stays the owner's).
 */
struct ibv_mr *wren_import_mr(struct ibv_pd *pd, uint32_t mr_handle)
{
	struct verbs_mr *vmr;
	int ret;

	vmr = calloc(1, sizeof(*vmr));
	if (!vmr) {
		errno = ENOMEM;
		return NULL;
	}
	ret = ibv_cmd_query_mr(pd, vmr, mr_handle);
	if (ret) {
		free(vmr);
		errno = ret;
		return NULL;
	}
	return &vmr->ibv_mr;
}

void wren_unimport_mr(struct ibv_mr *mr)
{
	free(verbs_get_mr(mr));
}

int wren_dereg_mr(struct verbs_mr *vmr)
{
	int ret;

	ret = ibv_cmd_dereg_mr(vmr);
	if (ret)
		return ret;
	free(vmr);
	return 0;
}

/*
 * Memory windows (WREN_CAP_RDMA_MW): the kernel has the NIC create one,
 * unbound, and answers its key (window index << 8 | tag); no driver data
 * either way.  Binding is the data path's (post.c: ibv_bind_mw for type 1,
 * IBV_WR_BIND_MW and ibv_wr_bind_mw for either type).
 */
struct ibv_mw *wren_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type)
{
	struct ib_uverbs_alloc_mw_resp resp = {};
	struct ibv_alloc_mw cmd = {};
	struct ibv_mw *mw;
	int ret;

	if (!(to_wren_ctx(pd->context)->caps & WREN_CAP_RDMA_MW)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (type != IBV_MW_TYPE_1 && type != IBV_MW_TYPE_2) {
		errno = EINVAL;
		return NULL;
	}
	mw = calloc(1, sizeof(*mw));
	if (!mw) {
		errno = ENOMEM;
		return NULL;
	}
	ret = ibv_cmd_alloc_mw(pd, type, mw, &cmd, sizeof(cmd), &resp,
			       sizeof(resp));
	if (ret) {
		free(mw);
		errno = ret;
		return NULL;
	}
	return mw;
}

/* Bound or not; no access through the window starts once this returns. */
int wren_dealloc_mw(struct ibv_mw *mw)
{
	int ret;

	ret = ibv_cmd_dealloc_mw(mw);
	if (ret)
		return ret;
	free(mw);
	return 0;
}

/*
 * The kernel resolves the destination MAC from the GID (RoCE) and has the
 * NIC create the AH; UD WQEs name it by the handle it returns.
 */
struct ibv_ah *wren_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct wren_create_ah_resp resp = {};
	struct wren_ah *ah;
	int ret;

	ah = calloc(1, sizeof(*ah));
	if (!ah) {
		errno = ENOMEM;
		return NULL;
	}
	ret = ibv_cmd_create_ah(pd, &ah->ibv_ah, attr, &resp.ibv_resp,
				sizeof(resp));
	if (ret) {
		free(ah);
		errno = ret;
		return NULL;
	}
	ah->handle = resp.ah;
	return &ah->ibv_ah;
}

int wren_destroy_ah(struct ibv_ah *ibah)
{
	int ret;

	ret = ibv_cmd_destroy_ah(ibah);
	if (ret)
		return ret;
	free(to_wren_ah(ibah));
	return 0;
}
