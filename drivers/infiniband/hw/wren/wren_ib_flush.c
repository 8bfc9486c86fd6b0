// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Kernel queues on a dead device.
 *
 * Once the device reports a fatal error it writes no more completions,
 * yet in-kernel consumers (nvme-rdma, nvmet-rdma, the CM's MAD layer) wait
 * for theirs: a receive that never completes is a controller that never
 * notices, an ib_drain_qp() that never returns is a teardown that hangs.
 * As a QP in the error state would, every work request still outstanding
 * on a kernel SQ or RQ, and every one posted from now on, completes with
 * IB_WC_WR_FLUSH_ERR, made up here by poll_cq once the ring holds no real
 * completion any more (the device was quiesced before it was declared
 * dead, so the ring is final).  SRQ receives are not flushed: they belong
 * to no QP, and verbs leaves them to the SRQ's destroyer.
 *
 * Consumers that see those errors tear their queues down, as on a lost
 * link; wren_ib_remove() gives them a few seconds to do so before the
 * ib_device goes.  nvme-rdma whose controller holds no queue on the
 * device when it is removed keeps the controller and reconnects over the
 * device that the recovery adds next.
 */
#include <linux/wait_bit.h>

#include "wren_ib.h"

/* How long a removal waits for kernel consumers to drop their QPs and PDs. */
#define WREN_IB_ULP_GRACE_MS	10000

/* Flush one kernel work queue into @wc; returns the entries made. */
static int wren_ib_kwq_flush(struct wren_ib_qp *qp, struct wren_ib_kwq *wq,
			     enum ib_wc_opcode opcode, struct ib_wc *wc,
			     int num_entries)
{
	int n = 0;

	spin_lock(&wq->lock);
	while (n < num_entries && wq->tail != wq->pi) {
		memset(&wc[n], 0, sizeof(wc[n]));
		wc[n].wr_id = wq->wrid[wq->tail & wq->mask];
		wc[n].status = IB_WC_WR_FLUSH_ERR;
		wc[n].opcode = opcode;
		wc[n].qp = &qp->ibqp;
		wc[n].port_num = WREN_IB_PORT;
		/* Posters read tail to find free slots: after the wr_id. */
		smp_store_release(&wq->tail, wq->tail + 1);
		n++;
	}
	spin_unlock(&wq->lock);
	return n;
}

/**
 * wren_ib_kcq_flush() - flush completions of a dead device's kernel CQ
 * @dev: the device, dead
 * @cq: a kernel CQ whose ring is empty, its lock held
 * @wc: where to put them
 * @num_entries: room in @wc
 *
 * One IB_WC_WR_FLUSH_ERR completion for each work request outstanding on
 * the SQs and RQs of the kernel QPs that complete to @cq.  The QPs are
 * found and used under the xarray's lock, which destroy_qp takes to erase
 * them before it frees their work request tables.
 *
 * Return: the number of entries written.
 */
int wren_ib_kcq_flush(struct wren_ib_dev *dev, struct wren_ib_cq *cq,
		      struct ib_wc *wc, int num_entries)
{
	struct wren_ib_qp *qp;
	unsigned long index;
	int n = 0;

	lockdep_assert_held(&cq->lock);
	xa_lock(&dev->qps);
	xa_for_each(&dev->qps, index, qp) {
		if (n == num_entries)
			break;
		if (!qp->kernel)
			continue;
		if (qp->ibqp.send_cq == &cq->ibcq)
			n += wren_ib_kwq_flush(qp, &qp->sq, IB_WC_SEND, wc + n,
					       num_entries - n);
		if (qp->ibqp.recv_cq == &cq->ibcq && !qp->ibqp.srq)
			n += wren_ib_kwq_flush(qp, &qp->rq, IB_WC_RECV, wc + n,
					       num_entries - n);
	}
	xa_unlock(&dev->qps);
	return n;
}

/**
 * wren_ib_kcq_flushable() - whether a dead device's kernel CQ has flushes due
 * @dev: the device, dead
 * @cq: a kernel CQ, its lock held
 *
 * Return: true when a kernel QP completing to @cq has a work request
 * outstanding, which wren_ib_kcq_flush() would complete.
 */
bool wren_ib_kcq_flushable(struct wren_ib_dev *dev, struct wren_ib_cq *cq)
{
	struct wren_ib_qp *qp;
	unsigned long index;
	bool due = false;

	lockdep_assert_held(&cq->lock);
	xa_lock(&dev->qps);
	xa_for_each(&dev->qps, index, qp) {
		if (!qp->kernel)
			continue;
		if ((qp->ibqp.send_cq == &cq->ibcq &&
		     READ_ONCE(qp->sq.pi) != READ_ONCE(qp->sq.tail)) ||
		    (qp->ibqp.recv_cq == &cq->ibcq && !qp->ibqp.srq &&
		     READ_ONCE(qp->rq.pi) != READ_ONCE(qp->rq.tail))) {
			due = true;
			break;
		}
	}
	xa_unlock(&dev->qps);
	return due;
}

/**
 * wren_ib_kick_work() - run a kernel CQ's completion handler
 * @work: the CQ's kick_work
 *
 * As the completion interrupt would: with interrupts off and under the
 * lock destroy_cq erases the CQ with (destroy_kcq cancels the work before
 * the CQ is freed).
 */
void wren_ib_kick_work(struct work_struct *work)
{
	struct wren_ib_cq *cq = container_of(work, struct wren_ib_cq, kick_work);
	struct wren_ib_dev *dev = to_wdev(cq->ibcq.device);
	unsigned long flags;

	xa_lock_irqsave(&dev->cqs, flags);
	if (xa_load(&dev->cqs, cq->cqn) == cq && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	xa_unlock_irqrestore(&dev->cqs, flags);
}

/**
 * wren_ib_kick_cq() - have a kernel CQ's completion handler run
 * @dev: the device
 * @cq: the CQ, which has completions the device will not signal
 *
 * Any context.  From a work item, not from here: a poster may be inside
 * the handler already (posting from its completions), and the handler
 * would run again within itself.
 */
void wren_ib_kick_cq(struct wren_ib_dev *dev, struct wren_ib_cq *cq)
{
	queue_work(dev->event_wq, &cq->kick_work);
}

/**
 * wren_ib_dev_dead() - the device died: flush the kernel's queues
 * @dev: the device
 *
 * Process context, once per device.  From now on kernel work requests
 * complete flushed (see the comment at the top of this file); every kernel
 * CQ's handler runs so that its consumer polls them.
 */
void wren_ib_dev_dead(struct wren_ib_dev *dev)
{
	struct wren_ib_cq *cq;
	unsigned long index, flags;

	/* Pairs with the READ_ONCE()s of posters and pollers. */
	WRITE_ONCE(dev->dead, true);
	xa_lock_irqsave(&dev->cqs, flags);
	xa_for_each(&dev->cqs, index, cq)
		if (cq->kernel && cq->ibcq.comp_handler)
			cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	xa_unlock_irqrestore(&dev->cqs, flags);
}

/**
 * wren_ib_ulp_get() - a kernel consumer created a QP or PD
 * @dev: the device
 */
void wren_ib_ulp_get(struct wren_ib_dev *dev)
{
	atomic_inc(&dev->ulp_objs);
}

/**
 * wren_ib_ulp_put() - a kernel consumer's QP or PD is gone
 * @dev: the device
 */
void wren_ib_ulp_put(struct wren_ib_dev *dev)
{
	if (atomic_dec_and_test(&dev->ulp_objs))
		wake_up_var(&dev->ulp_objs);
}

/**
 * wren_ib_wait_ulps() - let kernel consumers let go before removal
 * @dev: the device, about to be unregistered
 *
 * On a dead device only: waits up to WREN_IB_ULP_GRACE_MS for the kernel
 * consumers, which learnt of the death from their flushed work requests,
 * to destroy their QPs and deallocate their PDs (a consumer such as
 * nvme-rdma forgets the device only with its PD).  ib_core's GSI QP and
 * its PD do not count: unregistering destroys them.  A consumer that
 * keeps a PD for the device's lifetime is told by the unregistration,
 * as on any removal.
 */
void wren_ib_wait_ulps(struct wren_ib_dev *dev)
{
	long left;

	if (!READ_ONCE(dev->dead) || !atomic_read(&dev->ulp_objs))
		return;
	left = wait_var_event_timeout(&dev->ulp_objs, !atomic_read(&dev->ulp_objs),
				      msecs_to_jiffies(WREN_IB_ULP_GRACE_MS));
	if (!left)
		ibdev_warn(&dev->ibdev, "kernel consumers still hold %d QP(s) and PD(s) %u ms after the fatal error; removing the device under them\n",
			   atomic_read(&dev->ulp_objs), WREN_IB_ULP_GRACE_MS);
}
