/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* wren_peer_mem.ko: state shared by the registry's files. */
#ifndef _WREN_PEER_PRIV_H
#define _WREN_PEER_PRIV_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/kobject.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/xarray.h>
#include <rdma/peer_mem.h>
#include <rdma/wren_peer_mem.h>

#ifndef HAVE_KZALLOC_OBJ
/* The typed allocator of newer kernels' <linux/slab.h>, for older ones. */
#define kzalloc_obj(P, GFP)	kzalloc(sizeof(P), (GFP))
#endif

/* The counters of /sys/kernel/mm/memory_peers/<name>/, as MLNX_OFED has them. */
struct wren_peer_stats {
	atomic64_t num_alloc_mrs;	/* umems mapped */
	atomic64_t num_dealloc_mrs;	/* umems released */
	atomic64_t num_reg_pages;	/* PAGE_SIZE pages of the ranges mapped */
	atomic64_t num_dereg_pages;	/* ... unmapped (release or invalidation) */
	atomic64_t num_reg_bytes;	/* bytes of the ranges mapped */
	atomic64_t num_dereg_bytes;
	atomic64_t num_free_callbacks;	/* calls of the invalidate function */
};

/*
 * A registered client.  The registration holds one reference on @users and
 * every umem one more; ib_unregister_peer_memory_client() drops the first
 * and waits for @unused.  The kobject's release frees the structure.
 */
struct wren_peer_client {
	struct kobject kobj;		/* memory_peers/<name> */
	struct list_head node;		/* wren_peer_clients, under wren_peer_lock */
	const struct peer_memory_client *ops;
	bool invalidates;		/* registered with an invalidate_callback */
	bool unmaps_on_invalidate;	/* PEER_MEM_INVALIDATE_UNMAPS */
	char version[IB_PEER_MEMORY_VER_MAX];
	struct xarray umems;		/* core_context -> struct wren_peer_mem */
	u32 next_id;			/* xa_alloc_cyclic()'s cursor */
	refcount_t users;
	struct completion unused;
	struct wren_peer_stats stats;
};

enum wren_peer_state {
	WREN_PEER_NEW,			/* not (or no longer fully) mapped */
	WREN_PEER_MAPPED,		/* the client's table is in the umem */
	WREN_PEER_INVALIDATED,		/* the client took it back */
	WREN_PEER_UNMAPPED,		/* released by its owner */
};

/*
 * A umem of peer memory.  @lock is held by the owner from get to arm and
 * from disarm to release, and by an invalidation while it runs: the two
 * never overlap.  An invalidation finds the umem through the client's
 * xarray and holds @ref while it waits for @lock.
 */
struct wren_peer_mem {
	struct wren_peer_umem pub;
	struct wren_peer_client *client;
	void *client_context;
	struct device *dma_device;
	u32 id;				/* core_context; 0 when none */
	struct kref ref;
	struct mutex lock;		/* owner vs. invalidation, see above */
	enum wren_peer_state state;
	wren_peer_invalidate_t invalidate;
	void *priv;
	unsigned long npages;		/* PAGE_SIZE pages of the range */
	/* The client's table as dma_map() filled it (peer_mem_sgl.c). */
	struct sg_table saved;
	struct scatterlist *first_sg, *last_sg;
	dma_addr_t first_dma;
	unsigned int first_dma_len, last_dma_len;
};

static inline struct wren_peer_mem *to_peer_mem(struct wren_peer_umem *pumem)
{
	return container_of(pumem, struct wren_peer_mem, pub);
}

/* peer_mem_client.c */
struct wren_peer_client *wren_peer_client_claim(unsigned long addr, size_t size,
						bool can_invalidate,
						void **client_context);
void wren_peer_client_put(struct wren_peer_client *client);

/* peer_mem_umem.c */
int wren_peer_invalidate(void *reg_handle, u64 core_context);

/* peer_mem_sysfs.c */
int wren_peer_sysfs_init(void);
void wren_peer_sysfs_exit(void);
int wren_peer_sysfs_add(struct wren_peer_client *client, const char *name);

/* peer_mem_sgl.c */
int wren_peer_sgl_trim(struct wren_peer_mem *pm, int nmap);
void wren_peer_sgl_restore(struct wren_peer_mem *pm);

#endif /* _WREN_PEER_PRIV_H */
