// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Events for the auxiliary (RDMA) driver: the completion EQs the core runs
 * on its behalf, and the hand-over of asynchronous events from the AEQ.
 *
 * The Ethernet channels own MSI-X vectors 1 .. max_chans.  The RDMA EQs
 * take the vectors after those, one EQ per vector and at most one per CPU;
 * when none is left they share the management vector (vector 0), whose
 * handler then polls them too.  An EQ carries only WREN_EVENT_COMP entries
 * (cqn), each handed to the driver's comp callback; the ring, its consumer
 * index and arming are the EQ object's (wren_eq.c).
 */
#include <linux/interrupt.h>
#include <linux/slab.h>

#include "wren_en.h"

struct wren_comp_eq {
	struct wren_aux_dev *wadev;
	struct wren_eq eq;
	unsigned int vector;		/* MSI-X index; 0: the mgmt vector */
	bool irq_requested;
	bool polled;			/* vector 0: the mgmt handler polls it */
	char irq_name[48];
};

static void wren_comp_eq_process(struct wren_comp_eq *ceq)
{
	const struct wren_core_event_ops *ops = ceq->wadev->ev_ops;
	void *priv = ceq->wadev->ev_priv;
	struct wren_eqe *eqe;

	while ((eqe = wren_eq_next(&ceq->eq)))
		if (eqe->type == WREN_EVENT_COMP)
			ops->comp(priv, le32_to_cpu(eqe->data) & WREN_DB_QUEUE_MASK);
	/* Entries left over make the device interrupt again at once. */
	wren_eq_arm(&ceq->eq);
}

static irqreturn_t wren_comp_eq_irq(int irq, void *data)
{
	wren_comp_eq_process(data);
	return IRQ_HANDLED;
}

/* Called by the management handler for the EQs that share its vector. */
void wren_aux_poll_mgmt_eqs(struct wren_dev *wdev)
{
	struct wren_aux_dev *wadev = READ_ONCE(wdev->rdma_adev);
	unsigned int i;

	if (!wadev || !READ_ONCE(wadev->num_comp_eqs))
		return;
	for (i = 0; i < wadev->num_comp_eqs; i++)
		if (READ_ONCE(wadev->comp_eqs[i].polled))
			wren_comp_eq_process(&wadev->comp_eqs[i]);
}

static int wren_comp_eq_create(struct wren_comp_eq *ceq, struct wren_dev *wdev,
			       unsigned int log_size)
{
	struct device *dev = &wdev->pdev->dev;
	int err;

	err = wren_eq_alloc(wdev, &ceq->eq, log_size);
	if (err)
		return err;
	err = wren_eq_create(&ceq->eq, ceq->vector);
	if (err) {
		dev_err(dev, "CREATE_EQ for RDMA completions failed: %d\n", err);
		return err;
	}

	if (!ceq->vector)
		return 0;
	snprintf(ceq->irq_name, sizeof(ceq->irq_name), "wren-rdma%u@pci:%s",
		 ceq->vector, pci_name(wdev->pdev));
	err = request_irq(pci_irq_vector(wdev->pdev, ceq->vector),
			  wren_comp_eq_irq, 0, ceq->irq_name, ceq);
	if (err) {
		dev_err(dev, "cannot request RDMA completion interrupt %u: %d\n",
			ceq->vector, err);
		return err;
	}
	ceq->irq_requested = true;
	return 0;
}

static void wren_comp_eq_destroy(struct wren_comp_eq *ceq)
{
	struct wren_dev *wdev = ceq->eq.wdev;

	if (ceq->irq_requested)
		free_irq(pci_irq_vector(wdev->pdev, ceq->vector), ceq);
	ceq->irq_requested = false;
	/* A failed destroy leaves the EQ to the device reset that remove
	 * does anyway; its ring must outlive that reset.
	 */
	if (wren_eq_destroy(&ceq->eq))
		return;
	wren_eq_free(&ceq->eq);
}

/* One EQ entry per CQ the device can have, so that an EQ never overruns
 * (each armed CQ writes at most one event), within the contract's bound.
 */
static unsigned int wren_comp_eq_log_size(struct wren_dev *wdev)
{
	u32 max_cq = le32_to_cpu(wdev->core.attr.max_cq);
	u32 max_eqe = le32_to_cpu(wdev->core.attr.max_eqe);
	unsigned int log = order_base_2(max_t(u32, max_cq, 64) + 1);

	if (max_eqe)
		log = min_t(unsigned int, log, ilog2(max_eqe));
	return clamp_t(unsigned int, log, WREN_EQ_LOG_SIZE_MIN,
		       WREN_EQ_LOG_SIZE_MAX);
}

static void wren_events_set(struct wren_aux_dev *wadev,
			    const struct wren_core_event_ops *ops, void *priv)
{
	unsigned long flags;

	spin_lock_irqsave(&wadev->ev_lock, flags);
	wadev->ev_priv = priv;
	wadev->ev_ops = ops;
	spin_unlock_irqrestore(&wadev->ev_lock, flags);
}

/* Stop the mgmt handler polling the EQs, free their interrupts (which
 * waits for running handlers) and destroy them.
 */
static void wren_comp_eqs_destroy(struct wren_aux_dev *wadev, unsigned int n)
{
	struct wren_dev *wdev = wren_from_core(wadev->cdev);
	unsigned int i;

	for (i = 0; i < n; i++)
		WRITE_ONCE(wadev->comp_eqs[i].polled, false);
	synchronize_irq(pci_irq_vector(wdev->pdev, 0));
	for (i = 0; i < n; i++)
		wren_comp_eq_destroy(&wadev->comp_eqs[i]);
	WRITE_ONCE(wadev->num_comp_eqs, 0);
	kfree(wadev->comp_eqs);
	wadev->comp_eqs = NULL;
}

int wren_core_events_register(struct wren_aux_dev *wadev,
			      const struct wren_core_event_ops *ops, void *priv)
{
	struct wren_dev *wdev = wren_from_core(wadev->cdev);
	unsigned int first, n, i;
	int err;

	if (wadev->ev_ops || !ops->comp || !ops->event)
		return -EINVAL;
	first = 1 + (wdev->eth ? wdev->eth->max_chans : 0);
	n = wdev->num_vectors > first ? wdev->num_vectors - first : 0;
	n = min(n, num_online_cpus());
	n = max(n, 1U);

	wadev->comp_eqs = kcalloc(n, sizeof(*wadev->comp_eqs), GFP_KERNEL);
	if (!wadev->comp_eqs)
		return -ENOMEM;
	/* The callbacks must be in place before the first interrupt. */
	wren_events_set(wadev, ops, priv);
	for (i = 0; i < n; i++) {
		struct wren_comp_eq *ceq = &wadev->comp_eqs[i];

		ceq->wadev = wadev;
		ceq->vector = first < wdev->num_vectors ? first + i : 0;
		err = wren_comp_eq_create(ceq, wdev, wren_comp_eq_log_size(wdev));
		if (err) {
			wren_comp_eqs_destroy(wadev, i + 1);
			wren_events_set(wadev, NULL, NULL);
			return err;
		}
		WRITE_ONCE(wadev->num_comp_eqs, i + 1);
		WRITE_ONCE(ceq->polled, !ceq->vector);
		wren_eq_arm(&ceq->eq);
	}
	return 0;
}
EXPORT_SYMBOL_NS_GPL(wren_core_events_register, WREN_CORE_NS);

void wren_core_events_unregister(struct wren_aux_dev *wadev)
{
	if (!wadev->ev_ops)
		return;
	wren_comp_eqs_destroy(wadev, wadev->num_comp_eqs);
	wren_events_set(wadev, NULL, NULL);
}
EXPORT_SYMBOL_NS_GPL(wren_core_events_unregister, WREN_CORE_NS);

u32 wren_core_comp_eqn(struct wren_aux_dev *wadev, unsigned int index)
{
	return wadev->comp_eqs[index % wadev->num_comp_eqs].eq.eqn;
}
EXPORT_SYMBOL_NS_GPL(wren_core_comp_eqn, WREN_CORE_NS);

/* Hand an AEQ entry to the bound driver; from the management handler. */
void wren_aux_event(struct wren_dev *wdev, const struct wren_eqe *eqe)
{
	struct wren_aux_dev *wadev = READ_ONCE(wdev->rdma_adev);
	unsigned long flags;

	if (!wadev)
		return;
	spin_lock_irqsave(&wadev->ev_lock, flags);
	if (wadev->ev_ops)
		wadev->ev_ops->event(wadev->ev_priv, eqe);
	spin_unlock_irqrestore(&wadev->ev_lock, flags);
}

/* The core found the device dead without an event: tell the driver. */
void wren_aux_fatal(struct wren_dev *wdev)
{
	struct wren_eqe eqe = { .type = WREN_EVENT_DEVICE_FATAL };

	wren_aux_event(wdev, &eqe);
}
