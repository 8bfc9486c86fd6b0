// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MRs of peer memory: a range pin_user_pages() refuses (a GPU BAR mapped
 * into the process is VM_IO | VM_PFNMAP) that a peer-memory client such
 * as nvidia-peermem owns (wren_peer_mem.ko, <rdma/wren_peer_mem.h>).  The
 * client hands over its DMA-mapped table; the MTT is built from it as for
 * any umem, at the largest page size it allows (64 KiB for GPU pages).
 *
 * The client may take the memory back at any time (cudaFree() in another
 * process): the invalidation deactivates the MR, after which the device
 * starts no DMA through it, and the client unmaps.  The MR keeps its
 * index and keys until deregistration destroys it; accesses fail
 * meanwhile.  Invalidations wait while the MR is being created and while
 * it is destroyed (the umem is not armed then), so they always find an
 * MR the device knows.
 */
#include <rdma/wren_peer_mem.h>

#include "wren_ib.h"

static struct wren_peer_umem *wren_ib_peer_umem(struct wren_ib_mr *mr)
{
	return to_wren_peer_umem(mr->umem);
}

/* The client takes the range back: no DMA through the MR after this. */
static void wren_ib_peer_invalidate(void *priv)
{
	struct wren_ib_mr *mr = priv;
	struct wren_ib_dev *dev = to_wdev(mr->umem->ibdev);
	int err;

	err = wren_cmd_deactivate_mr(dev->cdev, mr->index);
	/*
	 * -EIO is a dead device, which does no DMA.  Anything else leaves the
	 * device's state unknown; after -ETIMEDOUT it is reset, which stops
	 * its DMA too.
	 */
	if (err && err != -EIO)
		ibdev_warn_ratelimited(&dev->ibdev,
				       "peer MR %u: DEACTIVATE_MR failed (%d)\n",
				       mr->index, err);
}

/**
 * wren_ib_peer_get() - have a peer-memory client map a user range
 * @dev: the device
 * @mr: the MR being registered; on success its umem is the peer umem,
 *	with invalidations held off until wren_ib_peer_arm()
 * @start: the user address
 * @length: bytes
 * @access: IB_ACCESS_* of the registration
 * @pin_err: why ib_umem_get() failed, returned when no client owns the range
 *
 * Return: 0, @pin_err, or the client's errno.
 */
int wren_ib_peer_get(struct wren_ib_dev *dev, struct wren_ib_mr *mr, u64 start,
		     u64 length, int access, int pin_err)
{
	struct wren_peer_umem *pumem;

	if (start > ULONG_MAX || length > SIZE_MAX)
		return pin_err;
	pumem = wren_peer_umem_get(&dev->ibdev, dev->dmadev, start, length,
				   access, wren_ib_peer_invalidate, mr);
	if (!pumem)
		return pin_err;
	if (IS_ERR(pumem)) {
		ibdev_dbg(&dev->ibdev, "peer memory at %#llx+%llu: %pe\n",
			  start, length, pumem);
		return PTR_ERR(pumem);
	}
	mr->kind = WREN_IB_MR_PEER;
	mr->umem = &pumem->umem;
	return 0;
}

/**
 * wren_ib_peer_arm() - the MR is active (or kept): let invalidations in
 * @mr: a peer MR
 */
void wren_ib_peer_arm(struct wren_ib_mr *mr)
{
	wren_peer_umem_arm(wren_ib_peer_umem(mr));
}

/**
 * wren_ib_peer_disarm() - hold invalidations off while destroying the MR
 * @mr: an armed peer MR
 */
void wren_ib_peer_disarm(struct wren_ib_mr *mr)
{
	wren_peer_umem_disarm(wren_ib_peer_umem(mr));
}

/**
 * wren_ib_peer_release() - give the range back
 * @mr: a peer MR the device no longer knows, not armed
 */
void wren_ib_peer_release(struct wren_ib_mr *mr)
{
	wren_peer_umem_release(wren_ib_peer_umem(mr));
	mr->umem = NULL;
}

/**
 * wren_ib_peer_fill_res() - restrack attributes of a peer MR
 * @msg: the netlink message
 * @mr: a peer MR
 *
 * Return: 0, or non-zero when @msg is full.
 */
int wren_ib_peer_fill_res(struct sk_buff *msg, struct wren_ib_mr *mr)
{
	struct wren_peer_umem *pumem = wren_ib_peer_umem(mr);

	return rdma_nl_put_driver_string(msg, "peer_client",
					 wren_peer_umem_client(pumem)) ||
	       rdma_nl_put_driver_u32(msg, "invalidated",
				      wren_peer_umem_invalidated(pumem));
}
