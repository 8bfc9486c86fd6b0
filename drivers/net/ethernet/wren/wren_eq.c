// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Asynchronous event queue (AEQ) and device health.
 *
 * The device reports device-wide events (link changes, object errors,
 * fatal errors) in the AEQ, which shares the management MSI-X vector with
 * the admin completions.  Only the management interrupt handler consumes
 * AEQ entries, and a handler never runs concurrently with itself, so the
 * consumer index needs no lock.  Work that may sleep (the fatal-error
 * report) is deferred to a work item.
 */
#include <linux/dma-mapping.h>

#include "wren.h"

static const char *wren_event_name(u8 type)
{
	static const char * const names[] = {
		[WREN_EVENT_COMP]		= "COMP",
		[WREN_EVENT_PORT_STATE]		= "PORT_STATE",
		[WREN_EVENT_QP_FATAL]		= "QP_FATAL",
		[WREN_EVENT_QP_REQ_ERR]		= "QP_REQ_ERR",
		[WREN_EVENT_QP_ACCESS_ERR]	= "QP_ACCESS_ERR",
		[WREN_EVENT_QP_COMM_EST]	= "QP_COMM_EST",
		[WREN_EVENT_QP_SQ_DRAINED]	= "QP_SQ_DRAINED",
		[WREN_EVENT_QP_LAST_WQE]	= "QP_LAST_WQE",
		[WREN_EVENT_SRQ_LIMIT]		= "SRQ_LIMIT",
		[WREN_EVENT_SRQ_ERR]		= "SRQ_ERR",
		[WREN_EVENT_CQ_ERR]		= "CQ_ERR",
		[WREN_EVENT_EQ_OVERRUN]		= "EQ_OVERRUN",
		[WREN_EVENT_DEVICE_FATAL]	= "DEVICE_FATAL",
		[WREN_EVENT_AQ_ERR]		= "AQ_ERR",
		[WREN_EVENT_PFC_STORM]		= "PFC_STORM",
		[WREN_EVENT_ETH_QUEUE_ERR]	= "ETH_QUEUE_ERR",
		[WREN_EVENT_DB_ERR]		= "DB_ERR",
	};

	if (type < ARRAY_SIZE(names) && names[type])
		return names[type];
	return "UNKNOWN";
}

static const char *wren_fatal_name(u32 syndrome)
{
	switch (syndrome) {
	case WREN_FATAL_NONE:
		return "none";
	case WREN_FATAL_INTERNAL:
		return "firmware internal error";
	case WREN_FATAL_AQ_DMA:
		return "admin queue DMA failed";
	case WREN_FATAL_AEQ_DMA:
		return "event queue DMA failed";
	case WREN_FATAL_INJECTED:
		return "injected by DIAG_FAULT";
	default:
		return "unknown";
	}
}

/* Report why the device broke, and fail the commands still waiting. */
void wren_fatal_work(struct work_struct *work)
{
	struct wren_dev *wdev = container_of(work, struct wren_dev, fatal_work);
	struct device *dev = &wdev->pdev->dev;
	u32 syndrome, info, status;

	if (wren_check_gone(wdev)) {
		dev_err(dev, "device stopped answering (surprise removal?)\n");
	} else {
		status = wren_rd(wdev, WREN_REG_STATUS);
		syndrome = wren_rd(wdev, WREN_REG_FATAL_SYNDROME);
		info = wren_rd(wdev, WREN_REG_FATAL_INFO);
		if (status & WREN_STATUS_FATAL)
			dev_err(dev, "device fatal error: syndrome %u (%s), info 0x%08x, status 0x%08x; admin commands fail until the device is reset\n",
				syndrome, wren_fatal_name(syndrome), info, status);
		else
			dev_err(dev, "%s (status 0x%08x); admin commands fail until the device is reset\n",
				wdev->fatal_reason, status);
	}
	wren_aq_abort(wdev);
	wren_devlink_health_report(wdev, wdev->fatal_reason);
	wren_aux_fatal(wdev);
}

/* Report a broken device once, whoever noticed first. */
void wren_report_broken(struct wren_dev *wdev, const char *reason)
{
	if (test_and_set_bit(WREN_FLAG_REPORTED, &wdev->flags))
		return;
	wdev->fatal_reason = reason;
	schedule_work(&wdev->fatal_work);
}

void wren_declare_fatal(struct wren_dev *wdev, const char *reason)
{
	set_bit(WREN_FLAG_FATAL, &wdev->flags);
	wren_report_broken(wdev, reason);
}

/* A device can also die without saying so: STATUS.FATAL set without an
 * event (the AEQ itself failed), reads of all-ones (surprise removal), or
 * a HEARTBEAT that stopped counting.  Poll for those.
 */
static void wren_health_poll(struct work_struct *work)
{
	struct wren_dev *wdev = container_of(to_delayed_work(work),
					     struct wren_dev, health_work);
	struct device *dev = &wdev->pdev->dev;
	u32 status, heartbeat;

	if (wren_is_dead(wdev))
		return;	/* already reported; recovery is a reset */

	status = wren_rd(wdev, WREN_REG_STATUS);
	heartbeat = wren_rd(wdev, WREN_REG_HEARTBEAT);
	if (status == U32_MAX && wren_check_gone(wdev)) {
		wren_declare_fatal(wdev, "device stopped answering");
		return;
	}
	if (status & WREN_STATUS_FATAL) {
		wren_declare_fatal(wdev, "device fatal error");
		return;
	}
	if (heartbeat == wdev->last_heartbeat) {
		dev_err(dev, "health poll: heartbeat stuck at %u for %u ms\n",
			heartbeat, WREN_HEALTH_INTERVAL_MS);
		wren_declare_fatal(wdev, "heartbeat stopped");
		return;
	}
	wdev->last_heartbeat = heartbeat;
	schedule_delayed_work(&wdev->health_work,
			      msecs_to_jiffies(WREN_HEALTH_INTERVAL_MS));
}

void wren_health_start(struct wren_dev *wdev)
{
	INIT_DELAYED_WORK(&wdev->health_work, wren_health_poll);
	wdev->last_heartbeat = wren_rd(wdev, WREN_REG_HEARTBEAT);
	schedule_delayed_work(&wdev->health_work,
			      msecs_to_jiffies(WREN_HEALTH_INTERVAL_MS));
}

/* Before a reset: a resetting device legitimately stops its heartbeat. */
void wren_health_stop(struct wren_dev *wdev)
{
	cancel_delayed_work_sync(&wdev->health_work);
}

static void wren_aeq_handle(struct wren_dev *wdev, const struct wren_eqe *eqe)
{
	struct device *dev = &wdev->pdev->dev;
	u32 data = le32_to_cpu(eqe->data);
	u32 data2 = le32_to_cpu(eqe->data2);

	/* The RDMA driver owns the QP, SRQ and CQ events, and wants the
	 * port and fatal ones too; it ignores what it does not own.
	 */
	wren_aux_event(wdev, eqe);

	switch (eqe->type) {
	case WREN_EVENT_PORT_STATE:
		dev_info_ratelimited(dev, "link %s, %u Mb/s\n",
				     eqe->sub == WREN_PORT_ACTIVE ? "up" : "down",
				     data);
		wren_eth_port_event(wdev, eqe->sub, data);
		break;
	case WREN_EVENT_DEVICE_FATAL:
		wren_declare_fatal(wdev, "device fatal error");
		break;
	case WREN_EVENT_AQ_ERR:
		dev_err_ratelimited(dev, "admin queue error at index %u: status %u\n",
				    data, eqe->sub);
		break;
	case WREN_EVENT_EQ_OVERRUN:
	case WREN_EVENT_DB_ERR:
	case WREN_EVENT_PFC_STORM:
		dev_warn_ratelimited(dev, "event %s: data 0x%x data2 0x%x sub %u\n",
				     wren_event_name(eqe->type), data, data2,
				     eqe->sub);
		break;
	default:
		/* Object events (QP, CQ, SRQ, Ethernet queues) belong to the
		 * drivers owning those objects, which do not exist yet; a
		 * user can trigger them, so they are not worth a warning.
		 */
		dev_dbg_ratelimited(dev, "event %s (%u): data 0x%x data2 0x%x sub %u\n",
				    wren_event_name(eqe->type), eqe->type, data,
				    data2, eqe->sub);
		break;
	}
}

/* Consume pending events and re-arm; called by the management handler. */
void wren_aeq_process(struct wren_dev *wdev)
{
	struct wren_eq *eq = &wdev->aeq;
	u32 mask = (1U << eq->log_size) - 1;
	unsigned int budget = mask + 1;
	struct wren_eqe *eqe;

	if (!eq->armed)
		return;

	while (budget--) {
		eqe = &eq->ring[eq->ci & mask];
		if (!wren_ring_owned(READ_ONCE(eqe->owner), eq->ci,
				     eq->log_size))
			break;
		/* The owner byte is written last: read the rest after it. */
		dma_rmb();
		wren_aeq_handle(wdev, eqe);
		eq->ci = (eq->ci + 1) & WREN_INDEX_MASK;
	}
	/* With entries left over, arming raises the interrupt again at once. */
	wren_wr(wdev, WREN_REG_AEQ_CI, eq->ci | WREN_ARM);
}

void wren_aeq_free(struct wren_dev *wdev)
{
	struct wren_eq *eq = &wdev->aeq;

	eq->armed = false;
	if (!eq->ring)
		return;
	dma_free_coherent(&wdev->pdev->dev,
			  (1U << eq->log_size) * sizeof(*eq->ring), eq->ring,
			  eq->dma);
	eq->ring = NULL;
}

/* Set up the AEQ; the management interrupt must already be requested.  On
 * failure the caller quiesces the device before wren_aeq_free().
 */
int wren_aeq_init(struct wren_dev *wdev)
{
	struct wren_eq *eq = &wdev->aeq;
	struct device *dev = &wdev->pdev->dev;
	int irq = pci_irq_vector(wdev->pdev, 0);
	int err;

	eq->log_size = WREN_AEQ_LOG_DEPTH;
	eq->ci = 0;
	eq->armed = false;
	eq->ring = dma_alloc_coherent(dev, (1U << eq->log_size) * sizeof(*eq->ring),
				      &eq->dma, GFP_KERNEL);
	if (!eq->ring)
		return -ENOMEM;

	wren_wr_addr(wdev, WREN_REG_AEQ_BASE_LO, eq->dma);
	wren_wr(wdev, WREN_REG_AEQ_LOG_SIZE, eq->log_size);
	wren_wr(wdev, WREN_REG_CONTROL,
		wren_rd(wdev, WREN_REG_CONTROL) | WREN_CONTROL_AEQ_ENABLE);
	err = wren_wait_status(wdev, WREN_STATUS_AEQ_READY,
			       WREN_STATUS_AEQ_READY, wdev->aq.timeout_ms);
	if (err) {
		dev_err(dev, "event queue did not come up: error %d, status 0x%08x\n",
			err, wren_rd(wdev, WREN_REG_STATUS));
		return err;
	}

	/* The handler may be running for an admin completion; keep it out
	 * while the queue becomes visible to it, so that only one context
	 * ever writes the consumer index.
	 */
	disable_irq(irq);
	eq->armed = true;
	wren_wr(wdev, WREN_REG_AEQ_CI, eq->ci | WREN_ARM);
	enable_irq(irq);
	return 0;
}
