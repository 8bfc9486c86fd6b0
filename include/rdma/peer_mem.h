/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The peer-memory client interface of MLNX_OFED's ib_core, as
 * wren_peer_mem.ko provides it: a driver that owns memory which
 * pin_user_pages() cannot pin (a GPU's BAR mapped into a process, for
 * instance) registers a client, and RDMA drivers ask the registered clients
 * to pin and DMA map such ranges for them.
 *
 * The layout below is a binary interface shared with modules built
 * elsewhere (nvidia-peermem): field order, types and sizes must not change.
 *
 * Call order for one range, all from process context:
 *   acquire() returns 1: the client owns the whole range;
 *   get_pages(): pin it (core_context identifies it in invalidations);
 *   dma_map(): fill the sg_table with DMA addresses for dma_device;
 *   ... the device uses the range ...
 *   dma_unmap(), put_pages(), release().
 * A client that can take its memory back calls the invalidate function it
 * was given at registration with the core_context of get_pages(); the core
 * stops the device's DMA to the range before that call returns.
 */
#ifndef RDMA_PEER_MEM_H
#define RDMA_PEER_MEM_H

#include <linux/scatterlist.h>
#include <linux/types.h>

#define IB_PEER_MEMORY_NAME_MAX	64
#define IB_PEER_MEMORY_VER_MAX	16

/* core_context is a u64 (older versions had a pointer); its value fits a u32. */
#define PEER_MEM_U64_CORE_CONTEXT

struct device;

/**
 * struct peer_memory_client - what a peer-memory client registers
 * @name: the client's name, NUL-terminated; the sysfs directory
 *	/sys/kernel/mm/memory_peers/<name> carries it.
 * @version: the client's version string, NUL-terminated.  When
 *	version[IB_PEER_MEMORY_VER_MAX - 1] is 1 the structure is the first
 *	member of a struct peer_memory_client_ex.
 * @acquire: does the client own all of [addr, addr + size)?  Returns 1
 *	(and an opaque *client_context for the other calls) when it does,
 *	0 or a negative errno when not.  peer_mem_private_data and
 *	peer_mem_name are always NULL.  After 1, release() follows.
 * @get_pages: pin the range.  @write is always 1, @force is 1 when the
 *	device will write.  @sg_head is always NULL.  @core_context is the
 *	value for the invalidate function; 0 for a client that cannot
 *	invalidate.  addr and size are the raw range the user asked for.
 *	Returns 0 or a negative errno; after 0, put_pages() follows.
 * @dma_map: allocate and fill @sg_head with the range's DMA addresses for
 *	@dma_device, each entry starting and ending on a PAGE_SIZE boundary
 *	(the range rounded out to the client's own page size), and return the
 *	number of mapped entries in *@nmap.  @dmasync is always 0.  Returns 0
 *	or a negative errno; after 0, dma_unmap() follows.
 * @dma_unmap: undo dma_map(); returns 0.
 * @put_pages: undo get_pages().
 * @get_page_size: unused.
 * @release: undo acquire().
 */
struct peer_memory_client {
	char name[IB_PEER_MEMORY_NAME_MAX];
	char version[IB_PEER_MEMORY_VER_MAX];
	int (*acquire)(unsigned long addr, size_t size,
		       void *peer_mem_private_data, char *peer_mem_name,
		       void **client_context);
	int (*get_pages)(unsigned long addr, size_t size, int write, int force,
			 struct sg_table *sg_head, void *client_context,
			 u64 core_context);
	int (*dma_map)(struct sg_table *sg_head, void *client_context,
		       struct device *dma_device, int dmasync, int *nmap);
	int (*dma_unmap)(struct sg_table *sg_head, void *client_context,
			 struct device *dma_device);
	void (*put_pages)(struct sg_table *sg_head, void *client_context);
	unsigned long (*get_page_size)(void *client_context);
	void (*release)(void *client_context);
};

/*
 * Flags of struct peer_memory_client_ex.
 * PEER_MEM_INVALIDATE_UNMAPS: after an invalidation the core calls neither
 *	dma_unmap() nor put_pages() for that range (the client tears its
 *	mapping down itself), only release().
 */
enum {
	PEER_MEM_INVALIDATE_UNMAPS = 1 << 0,
};

/**
 * struct peer_memory_client_ex - a client with flags
 * @client: the client; its version[IB_PEER_MEMORY_VER_MAX - 1] is 1
 * @ex_size: sizeof() this structure as the client knows it; @flags is
 *	valid when it covers @flags
 * @flags: PEER_MEM_*
 */
struct peer_memory_client_ex {
	struct peer_memory_client client;
	size_t ex_size;
	u32 flags;
};

/*
 * The function a client calls to take a range back: @reg_handle is what
 * ib_register_peer_memory_client() returned, @core_context the value
 * get_pages() was given.  When it returns, the device does no more DMA to
 * the range, and (without PEER_MEM_INVALIDATE_UNMAPS) dma_unmap() and
 * put_pages() have been called from within it.  It sleeps; the client must
 * not hold locks that its get_pages() or dma_map() take.  Returns 0.
 */
typedef int (*invalidate_peer_memory)(void *reg_handle, u64 core_context);

/*
 * Register @peer_client (which must stay valid until unregistered).  When
 * @invalidate_callback is not NULL the client can invalidate, and the
 * function to call for it is stored there.  Returns the handle for
 * ib_unregister_peer_memory_client(), or NULL.
 */
void *
ib_register_peer_memory_client(const struct peer_memory_client *peer_client,
			       invalidate_peer_memory *invalidate_callback);

/* Unregister; waits until every range the client pinned is released. */
void ib_unregister_peer_memory_client(void *reg_handle);

#endif /* RDMA_PEER_MEM_H */
