// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Umems of peer memory: a client pins and DMA maps the range, the driver
 * programs its device from the umem, and the client may take the range
 * back at any time (its memory was freed) through the invalidate function:
 * the driver stops the device's DMA, then the client's mapping is undone.
 *
 * core_context, the value that names a umem in an invalidation, is an id
 * in the client's xarray (a u32, as the interface promises), not a
 * pointer: the invalidation can race with the release, and the lookup
 * under the xarray's lock with a reference is what makes that safe.
 *
 * The exported functions' kernel-doc is in <rdma/wren_peer_mem.h>.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "peer_mem_priv.h"

static void wren_peer_mem_free(struct kref *ref)
{
	kfree(container_of(ref, struct wren_peer_mem, ref));
}

/*
 * Leave the MAPPED state for @to (INVALIDATED or UNMAPPED): the table goes
 * back to the client and, unless an invalidation of a client that unmaps
 * on its own, is unmapped and unpinned.
 */
static void wren_peer_unmap(struct wren_peer_mem *pm, enum wren_peer_state to)
{
	const struct peer_memory_client *ops = pm->client->ops;
	struct wren_peer_stats *st = &pm->client->stats;
	struct ib_umem *umem = &pm->pub.umem;

	lockdep_assert_held(&pm->lock);
	if (pm->state != WREN_PEER_MAPPED)
		return;
	wren_peer_sgl_restore(pm);
	if (to == WREN_PEER_UNMAPPED || !pm->client->unmaps_on_invalidate) {
		ops->dma_unmap(&umem->sgt_append.sgt, pm->client_context,
			       pm->dma_device);
		ops->put_pages(&umem->sgt_append.sgt, pm->client_context);
	}
	/* The table is the client's again (put_pages() or release() frees it). */
	memset(&umem->sgt_append, 0, sizeof(umem->sgt_append));
	atomic64_add(pm->npages, &st->num_dereg_pages);
	atomic64_add(umem->length, &st->num_dereg_bytes);
	WRITE_ONCE(pm->state, to);
}

/**
 * wren_peer_invalidate() - the invalidate function clients are given
 * @reg_handle: the client's registration
 * @core_context: the umem, as get_pages() was told
 *
 * Waits for the umem's owner to leave the get..arm or disarm..release
 * section, has the driver stop its DMA, then undoes the mapping.  A umem
 * already released or invalidated is left alone.
 *
 * Context: process context, sleeps.
 * Return: 0.
 */
int wren_peer_invalidate(void *reg_handle, u64 core_context)
{
	struct wren_peer_client *client = reg_handle;
	struct wren_peer_mem *pm;

	atomic64_inc(&client->stats.num_free_callbacks);
	if (!core_context || core_context > U32_MAX)
		return 0;
	xa_lock(&client->umems);
	pm = xa_load(&client->umems, core_context);
	/* In the xarray, the owner's reference is still there. */
	if (pm)
		kref_get(&pm->ref);
	xa_unlock(&client->umems);
	if (!pm)
		return 0;

	mutex_lock(&pm->lock);
	if (pm->state == WREN_PEER_MAPPED) {
		pm->invalidate(pm->priv);
		wren_peer_unmap(pm, WREN_PEER_INVALIDATED);
	}
	mutex_unlock(&pm->lock);
	kref_put(&pm->ref, wren_peer_mem_free);
	return 0;
}

/*
 * The end of a umem, with @pm->lock held by the caller: undo what is still
 * mapped, let a waiting invalidation see that, drop the id, give the
 * range back to the client.
 */
static void wren_peer_mem_end(struct wren_peer_mem *pm)
{
	struct wren_peer_client *client = pm->client;

	/* A umem that never got mapped was never counted as allocated. */
	if (pm->state != WREN_PEER_NEW)
		atomic64_inc(&client->stats.num_dealloc_mrs);
	wren_peer_unmap(pm, WREN_PEER_UNMAPPED);
	WRITE_ONCE(pm->state, WREN_PEER_UNMAPPED);
	mutex_unlock(&pm->lock);
	if (pm->id)
		xa_erase(&client->umems, pm->id);
	client->ops->release(pm->client_context);
	wren_peer_client_put(client);
	kref_put(&pm->ref, wren_peer_mem_free);
}

/* Pin and map a range a client owns, invalidations held off */
struct wren_peer_umem *wren_peer_umem_get(struct ib_device *ibdev,
					  struct device *dma_device,
					  unsigned long addr, size_t size,
					  int access,
					  wren_peer_invalidate_t invalidate,
					  void *priv)
{
	const struct peer_memory_client *ops;
	struct wren_peer_client *client;
	struct wren_peer_mem *pm;
	struct ib_umem *umem;
	int err, nmap = 0;

	if (!size || addr + size < addr)
		return ERR_PTR(-EINVAL);
	pm = kzalloc_obj(*pm, GFP_KERNEL);
	if (!pm)
		return ERR_PTR(-ENOMEM);
	client = wren_peer_client_claim(addr, size, !!invalidate,
					&pm->client_context);
	if (!client) {
		kfree(pm);
		return NULL;
	}
	ops = client->ops;
	pm->client = client;
	pm->dma_device = dma_device;
	pm->invalidate = invalidate;
	pm->priv = priv;
	pm->npages = (PAGE_ALIGN(addr + size) - (addr & PAGE_MASK)) >> PAGE_SHIFT;
	kref_init(&pm->ref);
	mutex_init(&pm->lock);
	umem = &pm->pub.umem;
	umem->ibdev = ibdev;
	umem->address = addr;
	umem->length = size;
	umem->iova = addr;
	umem->writable = ib_access_writable(access);

	/* Held until the owner arms the umem, or releases it. */
	mutex_lock(&pm->lock);
	if (client->invalidates) {
		/* Cyclic: a client's late call with the id of a released
		 * umem should not hit the next one.
		 */
		err = xa_alloc_cyclic(&client->umems, &pm->id, pm, xa_limit_32b,
				      &client->next_id, GFP_KERNEL);
		if (err < 0)
			goto err_end;
	}
	err = ops->get_pages(addr, size, 1, umem->writable, NULL,
			     pm->client_context, pm->id);
	if (err)
		goto err_end;
	err = ops->dma_map(&umem->sgt_append.sgt, pm->client_context,
			   dma_device, 0, &nmap);
	if (err)
		goto err_put_pages;
	err = wren_peer_sgl_trim(pm, nmap);
	if (err)
		goto err_unmap;

	WRITE_ONCE(pm->state, WREN_PEER_MAPPED);
	atomic64_inc(&client->stats.num_alloc_mrs);
	atomic64_add(pm->npages, &client->stats.num_reg_pages);
	atomic64_add(size, &client->stats.num_reg_bytes);
	return &pm->pub;

err_unmap:
	ops->dma_unmap(&umem->sgt_append.sgt, pm->client_context, dma_device);
err_put_pages:
	ops->put_pages(&umem->sgt_append.sgt, pm->client_context);
	memset(&umem->sgt_append, 0, sizeof(umem->sgt_append));
err_end:
	wren_peer_mem_end(pm);
	return ERR_PTR(err < 0 ? err : -EINVAL);
}
EXPORT_SYMBOL_NS_GPL(wren_peer_umem_get, WREN_PEER_NS);

/* Let invalidations reach the driver */
void wren_peer_umem_arm(struct wren_peer_umem *pumem)
{
	mutex_unlock(&to_peer_mem(pumem)->lock);
}
EXPORT_SYMBOL_NS_GPL(wren_peer_umem_arm, WREN_PEER_NS);

/* Hold invalidations off again */
void wren_peer_umem_disarm(struct wren_peer_umem *pumem)
{
	mutex_lock(&to_peer_mem(pumem)->lock);
}
EXPORT_SYMBOL_NS_GPL(wren_peer_umem_disarm, WREN_PEER_NS);

/* Unmap unless invalidated, give the range back, free */
void wren_peer_umem_release(struct wren_peer_umem *pumem)
{
	wren_peer_mem_end(to_peer_mem(pumem));
}
EXPORT_SYMBOL_NS_GPL(wren_peer_umem_release, WREN_PEER_NS);

/* Did the client take the range back? */
bool wren_peer_umem_invalidated(struct wren_peer_umem *pumem)
{
	return READ_ONCE(to_peer_mem(pumem)->state) == WREN_PEER_INVALIDATED;
}
EXPORT_SYMBOL_NS_GPL(wren_peer_umem_invalidated, WREN_PEER_NS);

/* The owning client's name */
const char *wren_peer_umem_client(struct wren_peer_umem *pumem)
{
	return to_peer_mem(pumem)->client->ops->name;
}
EXPORT_SYMBOL_NS_GPL(wren_peer_umem_client, WREN_PEER_NS);
