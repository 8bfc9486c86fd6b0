// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The event queue object, one for every EQ the driver has: the AEQ
 * (wren_aeq.c), the RDMA driver's completion EQs (wren_aux_eq.c) and the
 * Ethernet channels' (wren_en_queues.c).  It owns the ring, the consumer
 * index and its phase test, and the arm doorbell; its users own the
 * interrupt and say what an entry means.
 *
 * A drain is wren_eq_next() until it returns NULL, then wren_eq_arm().
 * Only one context at a time drains an EQ (its interrupt handler, or the
 * management handler for the EQs that share vector 0), so the consumer
 * index needs no lock.
 */
#include <linux/dma-mapping.h>
#include <linux/io-64-nonatomic-lo-hi.h>

#include "wren.h"

/* Rings are handed over as one contiguous buffer aligned to a page. */
static size_t wren_eq_ring_size(const struct wren_eq *eq)
{
	return max_t(size_t, BIT(eq->log_size) * sizeof(*eq->ring), PAGE_SIZE);
}

/**
 * wren_eq_alloc() - allocate an EQ's ring, zeroed, for the device to own
 * @wdev: the device
 * @eq: the EQ
 * @log_size: log2 of its entries
 *
 * Return: 0 or -ENOMEM.
 */
int wren_eq_alloc(struct wren_dev *wdev, struct wren_eq *eq,
		  unsigned int log_size)
{
	eq->wdev = wdev;
	eq->log_size = log_size;
	eq->ci = 0;
	eq->arm_ci = 0;
	eq->live = false;
	eq->ring = dma_alloc_coherent(&wdev->pdev->dev, wren_eq_ring_size(eq),
				      &eq->dma, GFP_KERNEL);
	return eq->ring ? 0 : -ENOMEM;
}

/* Free the ring, if any; the device must be done with it. */
void wren_eq_free(struct wren_eq *eq)
{
	if (!eq->ring)
		return;
	dma_free_coherent(&eq->wdev->pdev->dev, wren_eq_ring_size(eq), eq->ring,
			  eq->dma);
	eq->ring = NULL;
}

/**
 * wren_eq_create() - hand an allocated ring to the device (CREATE_EQ)
 * @eq: the EQ, its ring from wren_eq_alloc()
 * @vector: the MSI-X index its events signal
 *
 * Return: 0, the EQ number in @eq->eqn, or the command's error.
 */
int wren_eq_create(struct wren_eq *eq, unsigned int vector)
{
	struct wren_aq_create_eq ce = {};
	int err;

	ce.ring.addr = cpu_to_le64(eq->dma);
	ce.ring.npages = 0;
	ce.ring.page_shift = PAGE_SHIFT;
	ce.log_size = eq->log_size;
	ce.msix_vector = cpu_to_le16(vector);
	err = wren_cmd_create_eq(eq->wdev, &ce, &eq->eqn);
	if (!err)
		eq->live = true;
	return err;
}

/**
 * wren_eq_destroy() - take a created EQ back from the device (DESTROY_EQ)
 * @eq: the EQ; nothing to do unless wren_eq_create() succeeded
 *
 * The EQ counts as gone either way.  Its ring stays for wren_eq_free(),
 * after the user has freed the interrupt that reads it.
 *
 * Return: 0, or the command's error: the device may still write the ring.
 */
int wren_eq_destroy(struct wren_eq *eq)
{
	int err = 0;

	if (eq->live)
		err = wren_cmd_destroy_eq(eq->wdev, eq->eqn);
	eq->live = false;
	return err;
}

/**
 * wren_eq_next() - the next entry the device has written, consumed
 * @eq: the EQ
 *
 * A drain takes at most one ring's worth of entries: the rest raise the
 * interrupt again as soon as wren_eq_arm() has armed the EQ.
 *
 * Return: the entry, valid until the EQ is armed, or NULL.
 */
struct wren_eqe *wren_eq_next(struct wren_eq *eq)
{
	u32 mask = BIT(eq->log_size) - 1;
	struct wren_eqe *eqe;

	if (eq->ci - eq->arm_ci > mask)
		return NULL;
	eqe = &eq->ring[eq->ci & mask];
	if (!wren_ring_owned(READ_ONCE(eqe->owner), eq->ci, eq->log_size))
		return NULL;
	/* The owner byte is written last: read the rest after it. */
	dma_rmb();
	eq->ci++;
	return eqe;
}

/**
 * wren_eq_arm() - hand the consumed entries back and ask for an interrupt
 * @eq: the EQ
 *
 * The AEQ's consumer index is a register, a completion EQ's its doorbell.
 * With entries left over, arming raises the interrupt again at once.
 */
void wren_eq_arm(struct wren_eq *eq)
{
	eq->arm_ci = eq->ci;
	if (eq->eqn == WREN_EQN_AEQ)
		wren_wr(eq->wdev, WREN_REG_AEQ_CI,
			(eq->ci & WREN_INDEX_MASK) | WREN_ARM);
	else
		writeq(WREN_DB_VAL(eq->eqn, WREN_DB_EQ_ARM, eq->ci),
		       eq->wdev->db + WREN_DB_EQ);
}
