// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Events from the device to ib_core and the consumers.
 *
 * Completion events arrive in hard interrupt context (a completion EQ) and
 * go straight to the CQ's comp_handler, looked up under the xarray lock so
 * that destroy_cq, which erases the CQ under the same lock, never races
 * with a handler call.
 *
 * Asynchronous events (the AEQ) also arrive in hard interrupt context, but
 * ib_dispatch_event() and consumers' event handlers may sleep, so they are
 * copied into a work item and dispatched from an ordered workqueue.  The
 * work takes a reference on the QP, SRQ or CQ it names; destroy waits for
 * that reference, so the object stays valid while its handler runs.
 */
#include <linux/slab.h>

#include "wren_ib.h"

struct wren_ib_event_work {
	struct work_struct work;
	struct wren_ib_dev *dev;
	struct wren_eqe eqe;
};

void wren_ib_obj_ref_init(struct wren_ib_obj_ref *ref)
{
	refcount_set(&ref->refs, 1);
	init_completion(&ref->free);
}

/**
 * wren_ib_qp_publish() - make a QP the device created findable by number
 * @dev: its device
 * @qp: the QP, with its qpn
 *
 * Sets up its lock and its reference and puts it into the QP table, where
 * the event path (and the kernel data path) look QPs up.
 *
 * Return: 0, or the errno of the table, with the lock undone.
 */
int wren_ib_qp_publish(struct wren_ib_dev *dev, struct wren_ib_qp *qp)
{
	int err;

	mutex_init(&qp->lock);
	wren_ib_obj_ref_init(&qp->ref);
	err = xa_insert_irq(&dev->qps, qp->qpn, qp, GFP_KERNEL);
	if (err)
		mutex_destroy(&qp->lock);
	return err;
}

void wren_ib_obj_put(struct wren_ib_obj_ref *ref)
{
	if (refcount_dec_and_test(&ref->refs))
		complete(&ref->free);
}

/* Drop the creation reference and wait for the event path to let go. */
void wren_ib_obj_wait(struct wren_ib_obj_ref *ref)
{
	wren_ib_obj_put(ref);
	wait_for_completion(&ref->free);
}

static void wren_ib_comp(void *priv, u32 cqn)
{
	struct wren_ib_dev *dev = priv;
	struct wren_ib_cq *cq;
	unsigned long flags;

	xa_lock_irqsave(&dev->cqs, flags);
	cq = xa_load(&dev->cqs, cqn);
	if (cq && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	xa_unlock_irqrestore(&dev->cqs, flags);
}

/* Events were lost on completion EQ @eqn: every CQ on it may have one. */
static void wren_ib_eq_overrun(struct wren_ib_dev *dev, u32 eqn)
{
	struct wren_ib_cq *cq;
	unsigned long index, flags;

	xa_lock_irqsave(&dev->cqs, flags);
	xa_for_each(&dev->cqs, index, cq)
		if (wren_core_comp_eqn(dev->wadev, cq->eq_index) == eqn &&
		    cq->ibcq.comp_handler)
			cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	xa_unlock_irqrestore(&dev->cqs, flags);
}

static void *wren_ib_obj_get(struct xarray *xa, u32 id, size_t ref_off)
{
	unsigned long flags;
	void *obj;

	xa_lock_irqsave(xa, flags);
	obj = xa_load(xa, id);
	if (obj)
		refcount_inc(&((struct wren_ib_obj_ref *)(obj + ref_off))->refs);
	xa_unlock_irqrestore(xa, flags);
	return obj;
}

static void wren_ib_qp_event(struct wren_ib_dev *dev, u32 qpn,
			     enum ib_event_type type)
{
	struct wren_ib_qp *qp;
	struct ib_event ev;

	qp = wren_ib_obj_get(&dev->qps, qpn, offsetof(struct wren_ib_qp, ref));
	if (!qp)
		return;
	if (type == IB_EVENT_QP_FATAL || type == IB_EVENT_QP_REQ_ERR ||
	    type == IB_EVENT_QP_ACCESS_ERR)
		WRITE_ONCE(qp->state, IB_QPS_ERR);
	if (qp->ibqp.event_handler) {
		ev.device = &dev->ibdev;
		ev.element.qp = &qp->ibqp;
		ev.event = type;
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
	}
	wren_ib_obj_put(&qp->ref);
}

static void wren_ib_srq_event(struct wren_ib_dev *dev, u32 srqn,
			      enum ib_event_type type)
{
	struct wren_ib_srq *srq;
	struct ib_event ev;

	srq = wren_ib_obj_get(&dev->srqs, srqn,
			      offsetof(struct wren_ib_srq, ref));
	if (!srq)
		return;
	if (srq->ibsrq.event_handler) {
		ev.device = &dev->ibdev;
		ev.element.srq = &srq->ibsrq;
		ev.event = type;
		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
	}
	wren_ib_obj_put(&srq->ref);
}

static void wren_ib_cq_event(struct wren_ib_dev *dev, u32 cqn)
{
	struct wren_ib_cq *cq;
	struct ib_event ev;

	cq = wren_ib_obj_get(&dev->cqs, cqn, offsetof(struct wren_ib_cq, ref));
	if (!cq)
		return;
	if (cq->ibcq.event_handler) {
		ev.device = &dev->ibdev;
		ev.element.cq = &cq->ibcq;
		ev.event = IB_EVENT_CQ_ERR;
		cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
	}
	wren_ib_obj_put(&cq->ref);
}

void wren_ib_dispatch_port(struct wren_ib_dev *dev, bool active)
{
	struct ib_event ev = {
		.device = &dev->ibdev,
		.element.port_num = WREN_IB_PORT,
		.event = active ? IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR,
	};

	ib_dispatch_event(&ev);
}

static void wren_ib_event_work(struct work_struct *work)
{
	struct wren_ib_event_work *ew =
		container_of(work, struct wren_ib_event_work, work);
	struct wren_ib_dev *dev = ew->dev;
	const struct wren_eqe *eqe = &ew->eqe;
	u32 id = le32_to_cpu(eqe->data) & WREN_DB_QUEUE_MASK;
	struct ib_event ev = { .device = &dev->ibdev };

	switch (eqe->type) {
	case WREN_EVENT_PORT_STATE:
		wren_ib_dispatch_port(dev, eqe->sub == WREN_PORT_ACTIVE);
		break;
	case WREN_EVENT_QP_FATAL:
		wren_ib_qp_event(dev, id, IB_EVENT_QP_FATAL);
		break;
	case WREN_EVENT_QP_REQ_ERR:
		wren_ib_qp_event(dev, id, IB_EVENT_QP_REQ_ERR);
		break;
	case WREN_EVENT_QP_ACCESS_ERR:
		wren_ib_qp_event(dev, id, IB_EVENT_QP_ACCESS_ERR);
		break;
	case WREN_EVENT_QP_COMM_EST:
		wren_ib_qp_event(dev, id, IB_EVENT_COMM_EST);
		break;
	case WREN_EVENT_QP_SQ_DRAINED:
		wren_ib_qp_event(dev, id, IB_EVENT_SQ_DRAINED);
		break;
	case WREN_EVENT_QP_LAST_WQE:
		wren_ib_qp_event(dev, id, IB_EVENT_QP_LAST_WQE_REACHED);
		break;
	case WREN_EVENT_SRQ_LIMIT:
		wren_ib_srq_event(dev, id, IB_EVENT_SRQ_LIMIT_REACHED);
		break;
	case WREN_EVENT_SRQ_ERR:
		wren_ib_srq_event(dev, id, IB_EVENT_SRQ_ERR);
		break;
	case WREN_EVENT_CQ_ERR:
		wren_ib_cq_event(dev, id);
		break;
	case WREN_EVENT_DEVICE_FATAL:
		/* The AEQ and the core's health poll may both report it. */
		if (atomic_xchg(&dev->fatal_reported, 1))
			break;
		ibdev_err(&dev->ibdev, "device fatal error: RDMA resources are lost\n");
		wren_ib_dev_dead(dev);
		ev.event = IB_EVENT_DEVICE_FATAL;
		ev.element.port_num = WREN_IB_PORT;
		ib_dispatch_event(&ev);
		break;
	}
	kfree(ew);
}

static bool wren_ib_event_wanted(u8 type)
{
	switch (type) {
	case WREN_EVENT_PORT_STATE:
	case WREN_EVENT_QP_FATAL:
	case WREN_EVENT_QP_REQ_ERR:
	case WREN_EVENT_QP_ACCESS_ERR:
	case WREN_EVENT_QP_COMM_EST:
	case WREN_EVENT_QP_SQ_DRAINED:
	case WREN_EVENT_QP_LAST_WQE:
	case WREN_EVENT_SRQ_LIMIT:
	case WREN_EVENT_SRQ_ERR:
	case WREN_EVENT_CQ_ERR:
	case WREN_EVENT_DEVICE_FATAL:
		return true;
	default:
		return false;
	}
}

static void wren_ib_event(void *priv, const struct wren_eqe *eqe)
{
	struct wren_ib_dev *dev = priv;
	struct wren_ib_event_work *ew;

	if (eqe->type == WREN_EVENT_EQ_OVERRUN) {
		wren_ib_eq_overrun(dev, le32_to_cpu(eqe->data));
		return;
	}
	if (!wren_ib_event_wanted(eqe->type))
		return;
	ew = kzalloc_obj(*ew, GFP_ATOMIC);
	if (!ew) {
		ibdev_warn_ratelimited(&dev->ibdev, "event %u for 0x%x lost: no memory\n",
				       eqe->type, le32_to_cpu(eqe->data));
		return;
	}
	INIT_WORK(&ew->work, wren_ib_event_work);
	ew->dev = dev;
	ew->eqe = *eqe;
	queue_work(dev->event_wq, &ew->work);
}

const struct wren_core_event_ops wren_ib_event_ops = {
	.comp = wren_ib_comp,
	.event = wren_ib_event,
};
