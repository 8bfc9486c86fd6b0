// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The registry of peer-memory clients: ib_register_peer_memory_client()
 * and ib_unregister_peer_memory_client() as MLNX_OFED's ib_core exports
 * them (plain exports: nvidia-peermem is not GPL), and the search for the
 * client that owns a range.
 */
#include <linux/export.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "peer_mem_priv.h"

/* Clients in registration order; held across acquire() calls. */
static DEFINE_MUTEX(wren_peer_lock);
static LIST_HEAD(wren_peer_clients);

/* Flags of struct peer_memory_client_ex this registry implements. */
#define WREN_PEER_KNOWN_FLAGS	PEER_MEM_INVALIDATE_UNMAPS

static bool wren_peer_client_valid(const struct peer_memory_client *c, bool ex)
{
	size_t vmax = ex ? IB_PEER_MEMORY_VER_MAX - 1 : IB_PEER_MEMORY_VER_MAX;

	if (!c->acquire || !c->get_pages || !c->dma_map || !c->dma_unmap ||
	    !c->put_pages || !c->release)
		return false;
	/* The name is a sysfs directory: a non-empty string, no slash. */
	if (!c->name[0] || strnlen(c->name, IB_PEER_MEMORY_NAME_MAX) ==
	    IB_PEER_MEMORY_NAME_MAX || strchr(c->name, '/'))
		return false;
	return strnlen(c->version, vmax) < vmax;
}

/*
 * The flags of a client: version[IB_PEER_MEMORY_VER_MAX - 1] == 1 says the
 * client is the first member of a struct peer_memory_client_ex, whose
 * flags count when its ex_size covers them.
 */
static int wren_peer_client_flags(const struct peer_memory_client *c, u32 *flags)
{
	const struct peer_memory_client_ex *ex;

	*flags = 0;
	if (c->version[IB_PEER_MEMORY_VER_MAX - 1] != 1)
		return 0;
	ex = container_of(c, const struct peer_memory_client_ex, client);
	if (ex->ex_size < offsetofend(struct peer_memory_client_ex, flags))
		return 0;
	if (ex->flags & ~WREN_PEER_KNOWN_FLAGS)
		return -EOPNOTSUPP;
	*flags = ex->flags;
	return 0;
}

void wren_peer_client_put(struct wren_peer_client *client)
{
	if (refcount_dec_and_test(&client->users))
		complete(&client->unused);
}

/**
 * ib_register_peer_memory_client() - register a peer-memory client
 * @peer_client: the client; it must stay valid until unregistered
 * @invalidate_callback: NULL for a client that cannot take memory back;
 *	otherwise where to store the function it calls to do so
 *
 * Context: process context, sleeps.
 * Return: the handle for ib_unregister_peer_memory_client(), or NULL
 * (an incomplete client, unknown flags, a name already registered, or
 * no memory).
 */
void *
ib_register_peer_memory_client(const struct peer_memory_client *peer_client,
			       invalidate_peer_memory *invalidate_callback)
{
	struct wren_peer_client *client, *c;
	bool ex;
	u32 flags;

	if (!peer_client)
		return NULL;
	ex = peer_client->version[IB_PEER_MEMORY_VER_MAX - 1] == 1;
	if (!wren_peer_client_valid(peer_client, ex) ||
	    wren_peer_client_flags(peer_client, &flags))
		return NULL;

	client = kzalloc_obj(*client, GFP_KERNEL);
	if (!client)
		return NULL;
	client->ops = peer_client;
	client->invalidates = !!invalidate_callback;
	client->unmaps_on_invalidate = flags & PEER_MEM_INVALIDATE_UNMAPS;
	strscpy(client->version, peer_client->version, sizeof(client->version));
	xa_init_flags(&client->umems, XA_FLAGS_ALLOC1);
	refcount_set(&client->users, 1);
	init_completion(&client->unused);

	mutex_lock(&wren_peer_lock);
	list_for_each_entry(c, &wren_peer_clients, node) {
		if (!strcmp(c->ops->name, peer_client->name))
			goto err_unlock;
	}
	/* From here on the kobject's release frees the client. */
	if (wren_peer_sysfs_add(client, peer_client->name)) {
		mutex_unlock(&wren_peer_lock);
		return NULL;
	}
	if (invalidate_callback)
		*invalidate_callback = wren_peer_invalidate;
	list_add_tail(&client->node, &wren_peer_clients);
	mutex_unlock(&wren_peer_lock);
	return client;

err_unlock:
	mutex_unlock(&wren_peer_lock);
	kfree(client);
	return NULL;
}
EXPORT_SYMBOL(ib_register_peer_memory_client);

/**
 * ib_unregister_peer_memory_client() - unregister a peer-memory client
 * @reg_handle: what ib_register_peer_memory_client() returned
 *
 * No new range goes to the client once this starts; it returns when every
 * umem of the client has been released, so that none of the client's
 * functions is called after it.
 *
 * Context: process context, sleeps (possibly long: until the RDMA users
 * deregister their memory).
 */
void ib_unregister_peer_memory_client(void *reg_handle)
{
	struct wren_peer_client *client = reg_handle;

	if (!client)
		return;
	mutex_lock(&wren_peer_lock);
	list_del(&client->node);
	mutex_unlock(&wren_peer_lock);

	wren_peer_client_put(client);
	wait_for_completion(&client->unused);
	kobject_put(&client->kobj);
}
EXPORT_SYMBOL(ib_unregister_peer_memory_client);

/**
 * wren_peer_client_claim() - find the client that owns a range
 * @addr: start of the user range
 * @size: its length in bytes
 * @can_invalidate: the caller serves invalidations; when false, clients
 *	that may invalidate are skipped
 * @client_context: acquire()'s context, for the client's other functions
 *
 * Clients that can invalidate are asked first (the caller then keeps the
 * memory only as long as the client lets it), in registration order, then
 * the others.  The first whose acquire() returns 1 wins.
 *
 * Return: the client, with a reference for the caller to drop with
 * wren_peer_client_put() after calling its release(); NULL when no client
 * owns the range.
 */
struct wren_peer_client *wren_peer_client_claim(unsigned long addr, size_t size,
						bool can_invalidate,
						void **client_context)
{
	struct wren_peer_client *c, *found = NULL;
	int pass;

	mutex_lock(&wren_peer_lock);
	for (pass = 0; pass < 2 && !found; pass++) {
		bool want_inval = pass == 0;

		if (want_inval && !can_invalidate)
			continue;
		list_for_each_entry(c, &wren_peer_clients, node) {
			if (c->invalidates != want_inval)
				continue;
			*client_context = NULL;
			if (c->ops->acquire(addr, size, NULL, NULL,
					    client_context) == 1) {
				refcount_inc(&c->users);
				found = c;
				break;
			}
		}
	}
	mutex_unlock(&wren_peer_lock);
	return found;
}
