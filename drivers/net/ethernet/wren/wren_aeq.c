// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Asynchronous event queue (AEQ).
 *
 * The device reports device-wide events (link changes, object errors,
 * fatal errors, PFC storms, DCQCN rate changes) in the AEQ, which shares
 * the management MSI-X vector with the admin completions.  Only the
 * management interrupt handler consumes AEQ entries, and a handler never
 * runs concurrently with itself, so the consumer index needs no lock.  A
 * fatal event is handed to wren_declare_fatal(), which reports it from a
 * work item.  The ring, its consumer index and arming are the EQ object's
 * (wren_eq.c); here are the registers that set the AEQ up and what each
 * event means.
 */
#include "wren.h"
#include "wren_trace.h"

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
		[WREN_EVENT_CC_RATE]		= "CC_RATE",
	};

	if (type < ARRAY_SIZE(names) && names[type])
		return names[type];
	return "UNKNOWN";
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
				     str_up_down(eqe->sub == WREN_PORT_ACTIVE),
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
	case WREN_EVENT_PFC_STORM:
		wren_pfc_storm_event(wdev, eqe->sub, data);
		break;
	case WREN_EVENT_CC_RATE:
		/* One per DCQCN cut or recovery: a tracepoint, not a log. */
		trace_wren_cc_rate(pci_name(wdev->pdev), data & WREN_QPN_MASK,
				   eqe->sub, data2, le32_to_cpu(eqe->data3));
		break;
	case WREN_EVENT_EQ_OVERRUN:
	case WREN_EVENT_DB_ERR:
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
	struct wren_eqe *eqe;

	if (!wdev->aeq_armed)
		return;

	while ((eqe = wren_eq_next(&wdev->aeq)))
		wren_aeq_handle(wdev, eqe);
	wren_eq_arm(&wdev->aeq);
}

void wren_aeq_free(struct wren_dev *wdev)
{
	wdev->aeq_armed = false;
	wren_eq_free(&wdev->aeq);
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

	wdev->aeq_armed = false;
	err = wren_eq_alloc(wdev, eq, WREN_AEQ_LOG_DEPTH);
	if (err)
		return err;
	/* The AEQ has no number: the contract names it so in its events,
	 * and wren_eq_arm() rings its register for it.
	 */
	eq->eqn = WREN_EQN_AEQ;

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
	wdev->aeq_armed = true;
	wren_eq_arm(eq);
	enable_irq(irq);
	return 0;
}
