// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Protection domains, and the two provider-side objects that hang off
 * them: thread domains and parent domains.
 *
 * A parent domain is a PD to the kernel - it carries its protection
 * domain's handle (ibv_initialize_parent_domain()), so every command
 * made through it (MRs, AHs, QPs, SRQs) lands in that PD - and to the
 * provider it carries what the application asked for: allocators for
 * the rings of the QPs, SRQs and CQs made through it, and a thread
 * domain, which promises that each of its QPs is posted to by one thread
 * at a time, so their rings need no lock (nor do CQs made through it).
 */
#include <errno.h>
#include <stdlib.h>

#include "wren.h"
#include "wren_abi.h"

struct ibv_pd *wren_alloc_pd(struct ibv_context *context)
{
	struct ib_uverbs_alloc_pd_resp resp;
	struct ibv_alloc_pd cmd;
	struct wren_pd *pd;
	int ret;

	pd = calloc(1, sizeof(*pd));
	if (!pd) {
		errno = ENOMEM;
		return NULL;
	}
	ret = ibv_cmd_alloc_pd(context, &pd->ibv_pd, &cmd, sizeof(cmd), &resp,
			       sizeof(resp));
	if (ret) {
		free(pd);
		errno = ret;
		return NULL;
	}
	atomic_init(&pd->refcount, 1);
	return &pd->ibv_pd;
}

struct ibv_pd *wren_alloc_parent_domain(struct ibv_context *context,
					struct ibv_parent_domain_init_attr *attr)
{
	struct wren_pd *parent, *protection;

	if (ibv_check_alloc_parent_domain(attr))
		return NULL;
	if (!check_comp_mask(attr->comp_mask,
			     IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS |
			     IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	protection = to_wren_pd(attr->pd);
	/* A parent domain stands for a PD, not for another parent domain. */
	if (attr->pd->context != context || protection->protection ||
	    (attr->td && attr->td->context != context) ||
	    ((attr->comp_mask & IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS) &&
	     (!attr->alloc || !attr->free))) {
		errno = EINVAL;
		return NULL;
	}

	parent = calloc(1, sizeof(*parent));
	if (!parent) {
		errno = ENOMEM;
		return NULL;
	}
	parent->protection = protection;
	atomic_fetch_add(&protection->refcount, 1);
	if (attr->td) {
		parent->td = to_wren_td(attr->td);
		atomic_fetch_add(&parent->td->refcount, 1);
	}
	if (attr->comp_mask & IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS) {
		parent->alloc = attr->alloc;
		parent->free = attr->free;
	}
	if (attr->comp_mask & IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT)
		parent->pd_context = attr->pd_context;
	atomic_init(&parent->refcount, 1);
	ibv_initialize_parent_domain(&parent->ibv_pd, attr->pd);
	return &parent->ibv_pd;
}

/*
 * A PD with parent domains on it, or a parent domain with queues made
 * through it, is busy: the kernel would let the PD go (the parent
 * domains are not its objects), and the queues free their rings through
 * the parent domain's allocator.
 */
int wren_dealloc_pd(struct ibv_pd *ibpd)
{
	struct wren_pd *pd = to_wren_pd(ibpd);
	int ret;

	if (atomic_load(&pd->refcount) > 1)
		return EBUSY;
	if (pd->protection) {
		atomic_fetch_sub(&pd->protection->refcount, 1);
		if (pd->td)
			atomic_fetch_sub(&pd->td->refcount, 1);
		free(pd);
		return 0;
	}
	ret = ibv_cmd_dealloc_pd(ibpd);
	if (ret)
		return ret;
	free(pd);
	return 0;
}

/*
 * ibv_import_pd(): a PD of the kernel context this (imported) context
 * shares.  The kernel checks the handle and answers the PD's number; the
 * provider needs nothing else of it.
 */
struct ibv_pd *wren_import_pd(struct ibv_context *context, uint32_t pd_handle)
{
	DECLARE_COMMAND_BUFFER(cmd, UVERBS_OBJECT_PD, WREN_IB_METHOD_PD_QUERY, 2);
	struct wren_pd *pd;
	uint32_t pdn;
	int ret;

	pd = calloc(1, sizeof(*pd));
	if (!pd) {
		errno = ENOMEM;
		return NULL;
	}
	fill_attr_in_obj(cmd, WREN_IB_ATTR_QUERY_PD_HANDLE, pd_handle);
	fill_attr_out_ptr(cmd, WREN_IB_ATTR_QUERY_PD_RESP_PDN, &pdn);
	ret = execute_ioctl(context, cmd);
	if (ret) {
		free(pd);
		errno = ret;
		return NULL;
	}
	pd->ibv_pd.context = context;
	pd->ibv_pd.handle = pd_handle;
	atomic_init(&pd->refcount, 1);
	return &pd->ibv_pd;
}

/*
 * ibv_unimport_pd(): forget the PD here, leave it to its owner.  One that
 * still has parent domains or queues of this context stays, as
 * ibv_dealloc_pd() would refuse it (the call has no way to say so).
 */
void wren_unimport_pd(struct ibv_pd *ibpd)
{
	struct wren_pd *pd = to_wren_pd(ibpd);

	if (atomic_load(&pd->refcount) > 1) {
		verbs_warn(verbs_get_ctx(ibpd->context),
			   "wren: PD %u unimported while in use, kept\n",
			   ibpd->handle);
		return;
	}
	free(pd);
}

struct ibv_td *wren_alloc_td(struct ibv_context *context,
			     struct ibv_td_init_attr *attr)
{
	struct wren_td *td;

	if (attr->comp_mask) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	td = calloc(1, sizeof(*td));
	if (!td) {
		errno = ENOMEM;
		return NULL;
	}
	td->ibv_td.context = context;
	atomic_init(&td->refcount, 1);
	return &td->ibv_td;
}

int wren_dealloc_td(struct ibv_td *ibtd)
{
	struct wren_td *td = to_wren_td(ibtd);

	if (atomic_load(&td->refcount) > 1)
		return EBUSY;
	free(td);
	return 0;
}

struct wren_pd *wren_pd_hold(struct ibv_pd *ibpd)
{
	struct wren_pd *pd = to_wren_pd(ibpd);

	if (!pd->protection)
		return NULL;
	atomic_fetch_add(&pd->refcount, 1);
	return pd;
}

void wren_pd_release(struct wren_pd *pd)
{
	if (pd)
		atomic_fetch_sub(&pd->refcount, 1);
}
