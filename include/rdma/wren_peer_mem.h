/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * wren_peer_mem.ko for RDMA drivers: pin and DMA map a user range that a
 * peer-memory client (<rdma/peer_mem.h>, e.g. nvidia-peermem) owns, as a
 * struct ib_umem that the usual umem helpers (ib_umem_find_best_pgsz(),
 * rdma_umem_for_each_dma_block()) walk.
 *
 * The life of one such umem, all in process context:
 *
 *   pumem = wren_peer_umem_get(...);	invalidations held off
 *   ... program the device from &pumem->umem ...
 *   wren_peer_umem_arm(pumem);		invalidate() may run from now on
 *   ...
 *   wren_peer_umem_disarm(pumem);	held off again
 *   ... stop the device's use of it ...
 *   wren_peer_umem_release(pumem);
 *
 * On a failure before arming, release directly.  Never pass the umem to
 * ib_umem_release().
 */
#ifndef _RDMA_WREN_PEER_MEM_H
#define _RDMA_WREN_PEER_MEM_H

#include <linux/types.h>
#include <rdma/ib_umem.h>

/* Symbol namespace of these exports (see WREN_CORE_NS). */
#ifdef HAVE_MODULE_IMPORT_NS_STRING
#define WREN_PEER_NS	"WREN_PEER"
#else
#define WREN_PEER_NS	WREN_PEER
#endif

struct device;
struct ib_device;

/**
 * typedef wren_peer_invalidate_t - the driver's half of an invalidation
 * @priv: what the driver passed to wren_peer_umem_get()
 *
 * Called, sleeping, when the client takes the range back (its memory is
 * being freed, possibly by another process).  The device must do no DMA
 * to the umem's pages once this returns; the pages are unmapped right
 * after.  Never called while invalidations are held off (before arm,
 * after disarm), nor after release.
 */
typedef void (*wren_peer_invalidate_t)(void *priv);

/**
 * struct wren_peer_umem - a umem of peer memory
 * @umem: what the driver programs its translation from: ibdev, address,
 *	length, iova and writable as ib_umem_get() sets them, and as
 *	sgt_append.sgt the client's DMA-mapped table, trimmed to the
 *	PAGE_SIZE pages of the range.  Empty after an invalidation.
 *
 * The rest of the structure is private to wren_peer_mem.ko.
 */
struct wren_peer_umem {
	struct ib_umem umem;
};

static inline struct wren_peer_umem *to_wren_peer_umem(struct ib_umem *umem)
{
	return container_of(umem, struct wren_peer_umem, umem);
}

/**
 * wren_peer_umem_get() - pin and DMA map a range a peer-memory client owns
 * @ibdev: the device the umem is for (umem->ibdev)
 * @dma_device: the device that will DMA; the client maps for it (it must
 *	be a PCI device for nvidia-peermem)
 * @addr: start of the user range
 * @size: its length in bytes
 * @access: IB_ACCESS_* of the registration; writable ranges are pinned
 *	for writing
 * @invalidate: called when the client takes the range back, or NULL when
 *	the caller cannot stop its DMA on demand (then only clients that
 *	never invalidate are asked)
 * @priv: for @invalidate
 *
 * The clients that can invalidate are asked first, in registration order,
 * then the others; the first whose acquire() returns 1 maps the range.
 * The umem comes back with invalidations held off.
 *
 * Context: process context, sleeps.
 * Return: the umem; NULL when no client owns the range; or an ERR_PTR()
 * with the client's or this function's errno.
 */
struct wren_peer_umem *wren_peer_umem_get(struct ib_device *ibdev,
					  struct device *dma_device,
					  unsigned long addr, size_t size,
					  int access,
					  wren_peer_invalidate_t invalidate,
					  void *priv);

/**
 * wren_peer_umem_arm() - let invalidations reach the driver
 * @pumem: the umem, from wren_peer_umem_get() or wren_peer_umem_disarm()
 *
 * Call it once the device may use the umem, and before returning to user
 * space: an invalidation that waits runs right away.
 */
void wren_peer_umem_arm(struct wren_peer_umem *pumem);

/**
 * wren_peer_umem_disarm() - hold invalidations off again
 * @pumem: an armed umem
 *
 * Waits for an invalidation that runs; later ones wait until the umem is
 * armed again or released.  For stopping the device's use of the umem
 * without an invalidation racing with it; then wren_peer_umem_release(),
 * or wren_peer_umem_arm() when that failed and the device still uses it.
 *
 * Context: process context, sleeps.
 */
void wren_peer_umem_disarm(struct wren_peer_umem *pumem);

/**
 * wren_peer_umem_release() - the end of a peer umem
 * @pumem: the umem, invalidations held off (never armed, or disarmed);
 *	the device no longer uses it
 *
 * Unmaps and unpins the range unless an invalidation did, and gives it
 * back to the client.  @pumem is freed.
 *
 * Context: process context, sleeps.
 */
void wren_peer_umem_release(struct wren_peer_umem *pumem);

/**
 * wren_peer_umem_invalidated() - did the client take the range back?
 * @pumem: the umem
 *
 * Return: true after an invalidation; a snapshot unless invalidations are
 * held off.
 */
bool wren_peer_umem_invalidated(struct wren_peer_umem *pumem);

/**
 * wren_peer_umem_client() - the name of the client that owns the range
 * @pumem: the umem
 *
 * Return: the client's name, valid as long as the umem.
 */
const char *wren_peer_umem_client(struct wren_peer_umem *pumem);

#endif /* _RDMA_WREN_PEER_MEM_H */
