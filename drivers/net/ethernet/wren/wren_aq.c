// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Admin queue: the firmware channel through which every object is created.
 *
 * Commands go into a ring of 64-byte entries; the device answers each in
 * the completion ring (ACQ), in order, echoing the command's cmd_id.  The
 * cmd_id is the low 16 bits of the free-running producer index: its low
 * bits name the ring slot and its high bits act as a generation, so a
 * completion that arrives after its waiter gave up cannot be taken for the
 * answer to the next command that reuses the slot.
 *
 * During probe the queue is polled (no interrupt exists yet); once the
 * management vector is requested, completions arrive by interrupt.
 */
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/slab.h>

#include "wren.h"

static const char * const wren_aq_op_names[WREN_AQ_OP_MAX + 1] = {
	[WREN_AQ_OP_NOP]		= "NOP",
	[WREN_AQ_OP_QUERY_DEVICE]	= "QUERY_DEVICE",
	[WREN_AQ_OP_QUERY_PORT]		= "QUERY_PORT",
	[WREN_AQ_OP_SET_PORT]		= "SET_PORT",
	[WREN_AQ_OP_CREATE_EQ]		= "CREATE_EQ",
	[WREN_AQ_OP_DESTROY_EQ]		= "DESTROY_EQ",
	[WREN_AQ_OP_ALLOC_UAR]		= "ALLOC_UAR",
	[WREN_AQ_OP_DEALLOC_UAR]	= "DEALLOC_UAR",
	[WREN_AQ_OP_ALLOC_PD]		= "ALLOC_PD",
	[WREN_AQ_OP_DEALLOC_PD]		= "DEALLOC_PD",
	[WREN_AQ_OP_ALLOC_XRCD]		= "ALLOC_XRCD",
	[WREN_AQ_OP_DEALLOC_XRCD]	= "DEALLOC_XRCD",
	[WREN_AQ_OP_CREATE_CQ]		= "CREATE_CQ",
	[WREN_AQ_OP_DESTROY_CQ]		= "DESTROY_CQ",
	[WREN_AQ_OP_MODIFY_CQ]		= "MODIFY_CQ",
	[WREN_AQ_OP_RESIZE_CQ]		= "RESIZE_CQ",
	[WREN_AQ_OP_CREATE_QP]		= "CREATE_QP",
	[WREN_AQ_OP_MODIFY_QP]		= "MODIFY_QP",
	[WREN_AQ_OP_QUERY_QP]		= "QUERY_QP",
	[WREN_AQ_OP_DESTROY_QP]		= "DESTROY_QP",
	[WREN_AQ_OP_CREATE_SRQ]		= "CREATE_SRQ",
	[WREN_AQ_OP_MODIFY_SRQ]		= "MODIFY_SRQ",
	[WREN_AQ_OP_QUERY_SRQ]		= "QUERY_SRQ",
	[WREN_AQ_OP_DESTROY_SRQ]	= "DESTROY_SRQ",
	[WREN_AQ_OP_RESIZE_SRQ]		= "RESIZE_SRQ",
	[WREN_AQ_OP_CREATE_MW]		= "CREATE_MW",
	[WREN_AQ_OP_DESTROY_MW]		= "DESTROY_MW",
	[WREN_AQ_OP_ATTACH_MCAST]	= "ATTACH_MCAST",
	[WREN_AQ_OP_DETACH_MCAST]	= "DETACH_MCAST",
	[WREN_AQ_OP_SET_CLOCK]		= "SET_CLOCK",
	[WREN_AQ_OP_CREATE_MR]		= "CREATE_MR",
	[WREN_AQ_OP_WRITE_MTT]		= "WRITE_MTT",
	[WREN_AQ_OP_ACTIVATE_MR]	= "ACTIVATE_MR",
	[WREN_AQ_OP_DEACTIVATE_MR]	= "DEACTIVATE_MR",
	[WREN_AQ_OP_MODIFY_MR]		= "MODIFY_MR",
	[WREN_AQ_OP_DESTROY_MR]		= "DESTROY_MR",
	[WREN_AQ_OP_QUERY_MR]		= "QUERY_MR",
	[WREN_AQ_OP_CREATE_AH]		= "CREATE_AH",
	[WREN_AQ_OP_DESTROY_AH]		= "DESTROY_AH",
	[WREN_AQ_OP_SET_GID]		= "SET_GID",
	[WREN_AQ_OP_CREATE_ETH_TXQ]	= "CREATE_ETH_TXQ",
	[WREN_AQ_OP_DESTROY_ETH_TXQ]	= "DESTROY_ETH_TXQ",
	[WREN_AQ_OP_CREATE_ETH_RXQ]	= "CREATE_ETH_RXQ",
	[WREN_AQ_OP_DESTROY_ETH_RXQ]	= "DESTROY_ETH_RXQ",
	[WREN_AQ_OP_SET_RSS]		= "SET_RSS",
	[WREN_AQ_OP_SET_RX_MODE]	= "SET_RX_MODE",
	[WREN_AQ_OP_SET_ETS]		= "SET_ETS",
	[WREN_AQ_OP_SET_PFC]		= "SET_PFC",
	[WREN_AQ_OP_SET_TRUST]		= "SET_TRUST",
	[WREN_AQ_OP_SET_BUFFER]		= "SET_BUFFER",
	[WREN_AQ_OP_SET_MAXRATE]	= "SET_MAXRATE",
	[WREN_AQ_OP_SET_PFC_WD]		= "SET_PFC_WD",
	[WREN_AQ_OP_QUERY_DCB]		= "QUERY_DCB",
	[WREN_AQ_OP_SET_CC]		= "SET_CC",
	[WREN_AQ_OP_QUERY_CC]		= "QUERY_CC",
	[WREN_AQ_OP_QUERY_COUNTERS]	= "QUERY_COUNTERS",
	[WREN_AQ_OP_CLEAR_COUNTERS]	= "CLEAR_COUNTERS",
	[WREN_AQ_OP_DIAG_FAULT]		= "DIAG_FAULT",
};

const char *wren_core_opcode_name(u8 opcode)
{
	if (opcode < ARRAY_SIZE(wren_aq_op_names) && wren_aq_op_names[opcode])
		return wren_aq_op_names[opcode];
	return "UNKNOWN";
}
EXPORT_SYMBOL_NS_GPL(wren_core_opcode_name, WREN_CORE_NS);

static int wren_aq_status_to_errno(u8 status)
{
	switch (status) {
	case WREN_AQ_STATUS_OK:
		return 0;
	case WREN_AQ_STATUS_BAD_OPCODE:
	case WREN_AQ_STATUS_NOT_SUPPORTED:
		return -EOPNOTSUPP;
	case WREN_AQ_STATUS_BAD_HANDLE:
		return -ENOENT;
	case WREN_AQ_STATUS_NO_RESOURCES:
		return -ENOMEM;
	case WREN_AQ_STATUS_BUSY:
		return -EBUSY;
	case WREN_AQ_STATUS_PERM:
		return -EACCES;
	case WREN_AQ_STATUS_EXISTS:
		return -EEXIST;
	case WREN_AQ_STATUS_BAD_PARAM:
	case WREN_AQ_STATUS_BAD_STATE:
	case WREN_AQ_STATUS_BAD_ADDR:
	case WREN_AQ_STATUS_BAD_SIZE:
	case WREN_AQ_STATUS_BAD_LENGTH:
		return -EINVAL;
	case WREN_AQ_STATUS_DMA_ERROR:
	case WREN_AQ_STATUS_INTERNAL:
	default:
		return -EIO;
	}
}

static u32 wren_aq_mask(const struct wren_aq *aq)
{
	return aq->depth - 1;
}

static void wren_aq_process_locked(struct wren_dev *wdev)
{
	struct wren_aq *aq = &wdev->aq;
	struct wren_acq_entry *e;
	struct wren_aq_slot *slot;
	bool consumed = false;
	u16 id;

	lockdep_assert_held(&aq->lock);

	if (!aq->cq)
		return;	/* freed for a reset (wren_aq_drain()) */
	for (;;) {
		e = &aq->cq[aq->cq_ci & wren_aq_mask(aq)];
		if (!wren_ring_owned(READ_ONCE(e->owner), aq->cq_ci,
				     aq->log_depth))
			break;
		/* The owner byte is written last: read the rest after it. */
		dma_rmb();

		id = le16_to_cpu(e->cmd_id);
		slot = &aq->slots[id & wren_aq_mask(aq)];
		if (!slot->busy || slot->cmd_id != id) {
			dev_warn_ratelimited(&wdev->pdev->dev,
					     "admin completion for unknown cmd_id 0x%04x dropped\n",
					     id);
		} else if (!slot->waiter) {
			/* Its waiter timed out; the slot may be reused now. */
			dev_warn_ratelimited(&wdev->pdev->dev,
					     "late admin completion for cmd_id 0x%04x (status %u)\n",
					     id, e->status);
			slot->busy = false;
		} else {
			slot->waiter->comp = *e;
			slot->waiter->completed = true;
			complete(&slot->waiter->done);
			slot->waiter = NULL;
			slot->busy = false;
		}
		aq->cq_ci = (aq->cq_ci + 1) & WREN_INDEX_MASK;
		consumed = true;
	}

	if (aq->irq_mode)
		wren_wr(wdev, WREN_REG_ACQ_CI, aq->cq_ci | WREN_ARM);
	else if (consumed)
		wren_wr(wdev, WREN_REG_ACQ_CI, aq->cq_ci);
}

/* Reap admin completions; from the management interrupt or a poller. */
void wren_aq_process(struct wren_dev *wdev)
{
	struct wren_aq *aq = &wdev->aq;
	unsigned long flags;

	if (!aq->cq)
		return;
	spin_lock_irqsave(&aq->lock, flags);
	wren_aq_process_locked(wdev);
	spin_unlock_irqrestore(&aq->lock, flags);
}

/* Fail every command still waiting: the device will not answer them. */
void wren_aq_abort(struct wren_dev *wdev)
{
	struct wren_aq *aq = &wdev->aq;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&aq->lock, flags);
	for (i = 0; aq->slots && i < aq->depth; i++) {
		struct wren_aq_slot *slot = &aq->slots[i];

		if (slot->busy && slot->waiter) {
			slot->waiter->aborted = true;
			complete(&slot->waiter->done);
			slot->waiter = NULL;
			slot->busy = false;
		}
	}
	spin_unlock_irqrestore(&aq->lock, flags);
}

static bool wren_aq_waiter_done(struct wren_aq *aq, struct wren_aq_waiter *w)
{
	unsigned long flags;
	bool done;

	spin_lock_irqsave(&aq->lock, flags);
	done = w->completed || w->aborted;
	spin_unlock_irqrestore(&aq->lock, flags);
	return done;
}

static void wren_aq_wait(struct wren_dev *wdev, struct wren_aq_waiter *w)
{
	struct wren_aq *aq = &wdev->aq;
	unsigned long timeout = msecs_to_jiffies(aq->timeout_ms);
	unsigned long deadline = jiffies + timeout;

	if (aq->irq_mode) {
		if (wait_for_completion_timeout(&w->done, timeout))
			return;
		/* A lost interrupt should not cost the device a reset. */
		wren_aq_process(wdev);
		if (wren_aq_waiter_done(aq, w) && !aq->warned_no_irq) {
			aq->warned_no_irq = true;
			dev_warn(&wdev->pdev->dev,
				 "admin completion found without an interrupt\n");
		}
		return;
	}

	for (;;) {
		wren_aq_process(wdev);
		if (wren_aq_waiter_done(aq, w) || time_after(jiffies, deadline))
			return;
		usleep_range(50, 200);
	}
}

static void wren_aq_timed_out(struct wren_dev *wdev, u8 opcode, u16 cmd_id)
{
	struct device *dev = &wdev->pdev->dev;
	u32 status;

	if (wren_check_gone(wdev)) {
		dev_err(dev, "admin command %s (cmd_id 0x%04x): the device stopped answering\n",
			wren_core_opcode_name(opcode), cmd_id);
		wren_report_broken(wdev, "device stopped answering");
		return;
	}
	set_bit(WREN_FLAG_NEEDS_RESET, &wdev->flags);
	status = wren_rd(wdev, WREN_REG_STATUS);
	dev_err(dev, "admin command %s (opcode 0x%02x, cmd_id 0x%04x) timed out after %u ms (status 0x%08x); the device needs a reset\n",
		wren_core_opcode_name(opcode), opcode, cmd_id,
		wdev->aq.timeout_ms, status);
	if (status & WREN_STATUS_FATAL)
		wren_declare_fatal(wdev, "device fatal error");
	else
		wren_report_broken(wdev, "admin command timed out");
}

/* Atomic callers (ib_core's CM creates address handles under a spinlock)
 * cannot sleep on the semaphore or the completion: they take a free slot
 * and reap completions themselves, spinning for at most the command
 * timeout.  jiffies may not advance with interrupts off, so the clock is
 * ktime.
 */
static bool wren_aq_spin_until(struct wren_dev *wdev, struct wren_aq_waiter *w,
			       ktime_t deadline)
{
	for (;;) {
		wren_aq_process(wdev);
		if (!w) {
			if (!down_trylock(&wdev->aq.avail))
				return true;
		} else if (wren_aq_waiter_done(&wdev->aq, w)) {
			return true;
		}
		if (ktime_after(ktime_get(), deadline))
			return false;
		udelay(2);
	}
}

static int __wren_aq_exec(struct wren_dev *wdev, struct wren_aq_cmd *cmd,
			  struct wren_acq_entry *comp, bool *unanswered,
			  bool atomic)
{
	struct wren_aq *aq = &wdev->aq;
	struct wren_aq_waiter w = {};
	struct wren_aq_slot *slot;
	unsigned long flags;
	ktime_t deadline;
	u16 cmd_id;
	int err;

	*unanswered = false;
	init_completion(&w.done);
	if (wren_is_dead(wdev))
		return -EIO;

	deadline = ktime_add_ms(ktime_get(), aq->timeout_ms);
	if (!atomic)
		down(&aq->avail);
	else if (!wren_aq_spin_until(wdev, NULL, deadline))
		return -EBUSY;	/* every slot stayed in use */
	if (wren_is_dead(wdev)) {
		up(&aq->avail);
		return -EIO;
	}

	spin_lock_irqsave(&aq->lock, flags);
	if (!aq->slots) {
		/* Between wren_dev_stop() and wren_dev_start(): no rings. */
		spin_unlock_irqrestore(&aq->lock, flags);
		up(&aq->avail);
		return -EIO;
	}
	slot = &aq->slots[aq->sq_pi & wren_aq_mask(aq)];
	if (slot->busy) {
		/* Completions are in order and free their slots, so with
		 * fewer commands in flight than slots this one is free unless
		 * an earlier command in it never completed: the device is not
		 * behaving.
		 */
		cmd_id = slot->cmd_id;
		spin_unlock_irqrestore(&aq->lock, flags);
		up(&aq->avail);
		dev_warn_ratelimited(&wdev->pdev->dev,
				     "admin queue slot still owned by cmd_id 0x%04x\n",
				     cmd_id);
		return -EBUSY;
	}
	cmd_id = (u16)aq->sq_pi;
	cmd->cmd_id = cpu_to_le16(cmd_id);
	slot->cmd_id = cmd_id;
	slot->busy = true;
	slot->waiter = &w;
	memcpy(&aq->sq[aq->sq_pi & wren_aq_mask(aq)], cmd, sizeof(*cmd));
	aq->sq_pi = (aq->sq_pi + 1) & WREN_INDEX_MASK;
	/* writel() orders the ring write above before the doorbell. */
	wren_wr(wdev, WREN_REG_AQ_PI, aq->sq_pi);
	spin_unlock_irqrestore(&aq->lock, flags);

	if (atomic)
		wren_aq_spin_until(wdev, &w, ktime_add_ms(ktime_get(),
							  aq->timeout_ms));
	else
		wren_aq_wait(wdev, &w);

	spin_lock_irqsave(&aq->lock, flags);
	if (w.completed) {
		if (comp)
			*comp = w.comp;
		err = wren_aq_status_to_errno(w.comp.status);
		if (err)
			dev_dbg(&wdev->pdev->dev,
				"admin command %s (cmd_id 0x%04x) failed: status %u syndrome 0x%08x\n",
				wren_core_opcode_name(cmd->opcode), cmd_id,
				w.comp.status, le32_to_cpu(w.comp.syndrome));
	} else if (w.aborted) {
		/* The device broke with the command in its hands: whether it
		 * still reads or writes the buffers is not known.
		 */
		*unanswered = true;
		err = -EIO;
	} else {
		/* Keep the slot busy: the device may still complete the
		 * command, and the generation in cmd_id makes sure that late
		 * answer is recognised and dropped.  Until answered, the slot
		 * still names this waiter (only an answer or an abort,
		 * both under the lock, let go of it).
		 */
		slot->waiter = NULL;
		*unanswered = true;
		err = -ETIMEDOUT;
	}
	spin_unlock_irqrestore(&aq->lock, flags);
	up(&aq->avail);

	if (err == -ETIMEDOUT)
		wren_aq_timed_out(wdev, cmd->opcode, cmd_id);
	return err;
}

/**
 * wren_aq_exec() - run one admin command and wait for its completion
 * @wdev: the device
 * @cmd: the command, filled except cmd_id; any buffer it names stays
 *	 mapped until the device was reset if this returns -ETIMEDOUT
 * @comp: when not NULL, receives the completion entry
 * @unanswered: set when the device was given the command and never
 *		answered it (it timed out, or the device broke meanwhile):
 *		its buffers must then stay allocated until the device was
 *		reset; cleared otherwise
 *
 * Only the command layer (wren_cmd.c) calls this: it owns the buffers.
 * Sleeps.
 *
 * Return: 0, the errno of a failed status, -ETIMEDOUT (the device then
 * needs a reset and later commands fail with -EIO), -EIO (the device is
 * dead or broke meanwhile), or -EBUSY (the ring's next slot still waits
 * for an answer the device never gave).
 */
int wren_aq_exec(struct wren_dev *wdev, struct wren_aq_cmd *cmd,
		 struct wren_acq_entry *comp, bool *unanswered)
{
	might_sleep();
	return __wren_aq_exec(wdev, cmd, comp, unanswered, false);
}

/**
 * wren_aq_exec_atomic() - wren_aq_exec() from atomic context
 * @wdev: the device
 * @cmd: as for wren_aq_exec()
 * @comp: as for wren_aq_exec()
 * @unanswered: as for wren_aq_exec()
 *
 * Spins instead of sleeping, for at most the command timeout.
 *
 * Return: as wren_aq_exec(), and -EBUSY when no slot came free in time.
 */
int wren_aq_exec_atomic(struct wren_dev *wdev, struct wren_aq_cmd *cmd,
			struct wren_acq_entry *comp, bool *unanswered)
{
	return __wren_aq_exec(wdev, cmd, comp, unanswered, true);
}

/* From here on, completions are signalled on the management vector. */
void wren_aq_enable_irq(struct wren_dev *wdev)
{
	struct wren_aq *aq = &wdev->aq;
	unsigned long flags;

	spin_lock_irqsave(&aq->lock, flags);
	aq->irq_mode = true;
	wren_aq_process_locked(wdev);	/* also arms the ACQ */
	spin_unlock_irqrestore(&aq->lock, flags);
}

/**
 * wren_aq_setup() - initialise what outlives the admin queue's rings
 * @wdev: the device
 *
 * Once per probe, before wren_aq_init(): the lock and the slot semaphore
 * stay across a reset, since callers may be waiting on them then.
 */
void wren_aq_setup(struct wren_dev *wdev)
{
	struct wren_aq *aq = &wdev->aq;

	aq->log_depth = WREN_AQ_LOG_DEPTH;
	aq->depth = 1U << aq->log_depth;
	spin_lock_init(&aq->lock);
	sema_init(&aq->avail, aq->depth);
}

void wren_aq_free(struct wren_dev *wdev)
{
	struct wren_aq *aq = &wdev->aq;
	struct device *dev = &wdev->pdev->dev;
	struct wren_acq_entry *cq;
	struct wren_aq_slot *slots;
	struct wren_aq_cmd *sq;
	unsigned long flags;

	/* Pollers spinning for a slot reap under the lock: see no rings. */
	spin_lock_irqsave(&aq->lock, flags);
	cq = aq->cq;
	sq = aq->sq;
	slots = aq->slots;
	aq->cq = NULL;
	aq->sq = NULL;
	aq->slots = NULL;
	spin_unlock_irqrestore(&aq->lock, flags);

	if (cq)
		dma_free_coherent(dev, aq->depth * sizeof(*cq), cq, aq->cq_dma);
	if (sq)
		dma_free_coherent(dev, aq->depth * sizeof(*sq), sq, aq->sq_dma);
	kfree(slots);
}

/**
 * wren_aq_drain() - wait until no caller is inside the admin queue
 * @wdev: the device, dead (wren_is_dead()), so that no command starts
 *
 * Fails the commands still waiting and takes every slot of the queue's
 * semaphore: once this returns, no caller is between posting a command
 * and reaping its answer, and the rings may be freed and rebuilt.
 * Callers blocked on the semaphore meanwhile go on (and see whether the
 * device is dead) after wren_aq_undrain().  Sleeps for at most about
 * one command timeout.
 */
void wren_aq_drain(struct wren_dev *wdev)
{
	unsigned int i;

	wren_aq_abort(wdev);
	for (i = 0; i < wdev->aq.depth; i++)
		down(&wdev->aq.avail);
}

/**
 * wren_aq_undrain() - give back the slots wren_aq_drain() took
 * @wdev: the device
 */
void wren_aq_undrain(struct wren_dev *wdev)
{
	unsigned int i;

	for (i = 0; i < wdev->aq.depth; i++)
		up(&wdev->aq.avail);
}

/* Allocate the rings, hand them to the device and enable the queue, after
 * wren_aq_setup().  On failure the caller quiesces the device (reset, bus
 * mastering off) before wren_aq_free(), since the device may already know
 * the rings' addresses.
 */
int wren_aq_init(struct wren_dev *wdev)
{
	struct wren_aq *aq = &wdev->aq;
	struct device *dev = &wdev->pdev->dev;
	struct wren_acq_entry *cq;
	struct wren_aq_slot *slots;
	struct wren_aq_cmd *sq;
	unsigned long flags;
	int err;

	aq->timeout_ms = clamp_t(u32, wren_rd(wdev, WREN_REG_AQ_TIMEOUT_MS),
				 WREN_AQ_TIMEOUT_MIN_MS, WREN_TIMEOUT_MAX_MS);
	aq->sq_pi = 0;
	aq->cq_ci = 0;
	aq->irq_mode = false;
	aq->warned_no_irq = false;

	slots = kcalloc(aq->depth, sizeof(*slots), GFP_KERNEL);
	/* Coherent allocations are page aligned, as the device requires. */
	sq = dma_alloc_coherent(dev, aq->depth * sizeof(*sq), &aq->sq_dma,
				GFP_KERNEL);
	cq = dma_alloc_coherent(dev, aq->depth * sizeof(*cq), &aq->cq_dma,
				GFP_KERNEL);
	/* Published together: a poller sees all the rings or none. */
	spin_lock_irqsave(&aq->lock, flags);
	aq->slots = slots;
	aq->sq = sq;
	aq->cq = cq;
	spin_unlock_irqrestore(&aq->lock, flags);
	if (!slots || !sq || !cq) {
		err = -ENOMEM;
		goto err_free;
	}

	wren_wr_addr(wdev, WREN_REG_AQ_BASE_LO, aq->sq_dma);
	wren_wr(wdev, WREN_REG_AQ_LOG_SIZE, aq->log_depth);
	wren_wr_addr(wdev, WREN_REG_ACQ_BASE_LO, aq->cq_dma);
	wren_wr(wdev, WREN_REG_ACQ_LOG_SIZE, aq->log_depth);
	wren_wr(wdev, WREN_REG_MGMT_VECTOR, 0);
	wren_wr(wdev, WREN_REG_CONTROL,
		wren_rd(wdev, WREN_REG_CONTROL) | WREN_CONTROL_AQ_ENABLE);

	err = wren_wait_status(wdev, WREN_STATUS_AQ_READY, WREN_STATUS_AQ_READY,
			       aq->timeout_ms);
	if (err) {
		dev_err(dev, "admin queue did not come up: error %d, AQ_ERROR %u, status 0x%08x\n",
			err, wren_rd(wdev, WREN_REG_AQ_ERROR),
			wren_rd(wdev, WREN_REG_STATUS));
		/* The device has seen the rings: the caller quiesces it first. */
		return err;
	}
	return 0;

err_free:
	wren_aq_free(wdev);
	return err;
}
