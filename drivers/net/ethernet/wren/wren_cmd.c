// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The command layer's core: run one admin command together with its input
 * and output buffers.  Every typed wrapper (wren_cmd_dev.c,
 * wren_cmd_rdma.c) comes through here, so the rules below hold for all of
 * them:
 *
 * - The buffers are coherent DMA memory owned by this layer; callers pass
 *   plain kernel memory and never see a bus address.
 * - A command the device never answered - it timed out, or the device
 *   broke while it waited - may still be run by the device, which then
 *   reads its input and writes its output buffer, until the device is
 *   reset.  Its buffers are therefore not freed but parked on the
 *   device's orphan list, which wren_cmd_fini() releases only after the
 *   device was reset or bus mastering turned off.
 * - Commands from atomic context (address handles, which ib_core's CM
 *   creates under a spinlock) use one preallocated input buffer.
 * - Other inputs go through one kept buffer of the largest size when no
 *   other command holds it, else through one allocated for the command:
 *   registering 1 GiB of 4 KiB pages is 32 WRITE_MTTs of 64 KiB, and
 *   allocating and zeroing each buffer cost about a quarter of it.
 */
#include <linux/dma-mapping.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "wren.h"

/* Largest input an atomic command may carry (CREATE_AH's is 64 bytes). */
#define WREN_CMD_ATOMIC_BUF_LEN		128

struct wren_cmd_orphan {
	struct list_head node;
	u8 opcode;
	void *in;
	dma_addr_t in_dma;
	size_t in_len;
	void *out;
	dma_addr_t out_dma;
	size_t out_len;
};

/**
 * wren_cmd_init() - prepare the command layer of a device
 * @wdev: the device, before its admin queue is enabled
 *
 * Return: 0 or -ENOMEM.
 */
int wren_cmd_init(struct wren_dev *wdev)
{
	struct wren_cmd_state *cs = &wdev->cmd;

	spin_lock_init(&cs->orphan_lock);
	INIT_LIST_HEAD(&cs->orphans);
	cs->num_orphans = 0;
	spin_lock_init(&cs->atomic_lock);
	cs->atomic_orphaned = false;
	mutex_init(&cs->in_cache_lock);
	cs->in_cache = NULL;
	cs->atomic_buf = dma_alloc_coherent(&wdev->pdev->dev,
					    WREN_CMD_ATOMIC_BUF_LEN,
					    &cs->atomic_dma, GFP_KERNEL);
	return cs->atomic_buf ? 0 : -ENOMEM;
}

static void wren_cmd_free_bufs(struct device *dev, void *in, dma_addr_t in_dma,
			       size_t in_len, void *out, dma_addr_t out_dma,
			       size_t out_len)
{
	if (out)
		dma_free_coherent(dev, out_len, out, out_dma);
	if (in)
		dma_free_coherent(dev, in_len, in, in_dma);
}

/**
 * wren_cmd_release_orphans() - free the buffers of unanswered commands
 * @wdev: the device, reset or with bus mastering off: it no longer DMAs
 *
 * The device might have written them until it was reset; the atomic
 * input buffer is the command layer's again too.
 */
void wren_cmd_release_orphans(struct wren_dev *wdev)
{
	struct wren_cmd_state *cs = &wdev->cmd;
	struct device *dev = &wdev->pdev->dev;
	struct wren_cmd_orphan *o, *tmp;
	unsigned long flags;
	unsigned int n;
	LIST_HEAD(list);

	spin_lock_irqsave(&cs->atomic_lock, flags);
	cs->atomic_orphaned = false;
	spin_unlock_irqrestore(&cs->atomic_lock, flags);
	spin_lock(&cs->orphan_lock);
	list_splice_init(&cs->orphans, &list);
	n = cs->num_orphans;
	cs->num_orphans = 0;
	spin_unlock(&cs->orphan_lock);
	if (n)
		dev_info(dev, "releasing the buffers of %u unanswered admin command(s) after the reset\n",
			 n);
	list_for_each_entry_safe(o, tmp, &list, node) {
		wren_cmd_free_bufs(dev, o->in, o->in_dma, o->in_len, o->out,
				   o->out_dma, o->out_len);
		kfree(o);
	}
}

/**
 * wren_cmd_fini() - release the command layer's memory
 * @wdev: the device, reset or with bus mastering off: it no longer DMAs
 *
 * The buffers of commands the device never answered, and the atomic input
 * buffer.
 */
void wren_cmd_fini(struct wren_dev *wdev)
{
	struct wren_cmd_state *cs = &wdev->cmd;

	wren_cmd_release_orphans(wdev);
	if (cs->atomic_buf)
		dma_free_coherent(&wdev->pdev->dev, WREN_CMD_ATOMIC_BUF_LEN,
				  cs->atomic_buf, cs->atomic_dma);
	cs->atomic_buf = NULL;
	if (cs->in_cache)
		dma_free_coherent(&wdev->pdev->dev, WREN_AQ_MAX_BUF_LEN,
				  cs->in_cache, cs->in_cache_dma);
	cs->in_cache = NULL;
	mutex_destroy(&cs->in_cache_lock);
}

/* The device may still use the buffers: keep them.  Should even the
 * record fail to allocate, they are leaked, which is still safe.
 */
static void wren_cmd_orphan(struct wren_dev *wdev, u8 opcode, void *in,
			    dma_addr_t in_dma, size_t in_len, void *out,
			    dma_addr_t out_dma, size_t out_len)
{
	struct wren_cmd_state *cs = &wdev->cmd;
	struct wren_cmd_orphan *o;

	if (!in && !out)
		return;
	o = kzalloc_obj(*o, GFP_KERNEL);
	if (!o)
		return;
	o->opcode = opcode;
	o->in = in;
	o->in_dma = in_dma;
	o->in_len = in_len;
	o->out = out;
	o->out_dma = out_dma;
	o->out_len = out_len;
	spin_lock(&cs->orphan_lock);
	list_add_tail(&o->node, &cs->orphans);
	cs->num_orphans++;
	spin_unlock(&cs->orphan_lock);
}

/**
 * wren_cmd_inbuf_get() - an input buffer to fill in place
 * @cdev: the device
 * @size: bytes needed, at most WREN_AQ_MAX_BUF_LEN
 * @buf: receives the buffer; its @size may be larger than asked
 *
 * Sleeps.  The device's kept buffer when no other command holds it
 * (waiting for it would only add), else one allocated for the caller.
 * It serves any number of commands in turn (wren_cmd_write_mtt()) until
 * wren_cmd_inbuf_put().
 *
 * Return: 0, -EINVAL for a size of 0 or above the limit, or -ENOMEM.
 */
int wren_cmd_inbuf_get(struct wren_core_dev *cdev, size_t size,
		       struct wren_cmd_inbuf *buf)
{
	struct wren_dev *wdev = wren_from_core(cdev);
	struct wren_cmd_state *cs = &wdev->cmd;
	struct device *dev = &wdev->pdev->dev;

	might_sleep();
	if (!size || size > WREN_AQ_MAX_BUF_LEN)
		return -EINVAL;
	if (mutex_trylock(&cs->in_cache_lock)) {
		if (!cs->in_cache)
			cs->in_cache = dma_alloc_coherent(dev, WREN_AQ_MAX_BUF_LEN,
							  &cs->in_cache_dma,
							  GFP_KERNEL);
		if (cs->in_cache) {
			buf->data = cs->in_cache;
			buf->dma = cs->in_cache_dma;
			buf->size = WREN_AQ_MAX_BUF_LEN;
			buf->cached = true;
			return 0;
		}
		mutex_unlock(&cs->in_cache_lock);
	}
	buf->data = dma_alloc_coherent(dev, size, &buf->dma, GFP_KERNEL);
	buf->size = size;
	buf->cached = false;
	return buf->data ? 0 : -ENOMEM;
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_inbuf_get, WREN_CORE_NS);

/**
 * wren_cmd_inbuf_put() - give back wren_cmd_inbuf_get()'s buffer
 * @cdev: the device
 * @buf: the buffer; nothing happens when a command through it went
 *	 unanswered (wren.ko keeps it until the reset) or it is NULL'ed
 */
void wren_cmd_inbuf_put(struct wren_core_dev *cdev, struct wren_cmd_inbuf *buf)
{
	struct wren_dev *wdev = wren_from_core(cdev);

	if (!buf->data)
		return;
	if (buf->cached)
		mutex_unlock(&wdev->cmd.in_cache_lock);
	else
		dma_free_coherent(&wdev->pdev->dev, buf->size, buf->data,
				  buf->dma);
	buf->data = NULL;
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_inbuf_put, WREN_CORE_NS);

/* A command the device never answered may still read @buf: park it with
 * the output buffer, and let the next user of the kept one allocate anew.
 */
static void wren_cmd_orphan_inbuf(struct wren_dev *wdev, u8 opcode,
				  struct wren_cmd_inbuf *buf, void *out,
				  dma_addr_t out_dma, size_t out_len)
{
	struct wren_cmd_state *cs = &wdev->cmd;

	wren_cmd_orphan(wdev, opcode, buf->data, buf->dma, buf->size, out,
			out_dma, out_len);
	if (buf->data && buf->cached) {
		cs->in_cache = NULL;
		mutex_unlock(&cs->in_cache_lock);
	}
	buf->data = NULL;
}

/**
 * wren_cmd_exec() - run an admin command with its buffers
 * @wdev: the device
 * @cmd: the command, opcode and inline parameters filled; the buffer
 *	 fields and cmd_id are set here
 * @in: input for the device, @in_len bytes (0: none)
 * @in_len: its length
 * @out: where the output goes, @out_len bytes (0: none); bytes the device
 *	 did not write read as zero.  Written only when the command succeeds.
 * @out_len: its length
 * @comp: when not NULL, receives the completion entry
 *
 * Sleeps.  When the device never answered (-ETIMEDOUT, or -EIO because it
 * broke meanwhile) the buffers stay allocated until wren_cmd_fini().
 *
 * Return: 0, the errno of the completion status, -ETIMEDOUT, or -EIO when
 * the device is dead (@comp then holds no completion: status 0).
 */
int wren_cmd_exec(struct wren_dev *wdev, struct wren_aq_cmd *cmd,
		  const void *in, size_t in_len, void *out, size_t out_len,
		  struct wren_acq_entry *comp)
{
	struct device *dev = &wdev->pdev->dev;
	struct wren_cmd_inbuf inb = {};
	struct wren_acq_entry local = {};
	dma_addr_t out_dma = 0;
	void *out_buf = NULL;
	bool unanswered;
	int err;

	might_sleep();
	if (!comp)
		comp = &local;
	if (in_len) {
		err = wren_cmd_inbuf_get(&wdev->core, in_len, &inb);
		if (err)
			return err;
		memcpy(inb.data, in, in_len);
		cmd->in_addr = cpu_to_le64(inb.dma);
		cmd->in_len = cpu_to_le32(in_len);
	}
	if (out_len) {
		/* Zeroed: the orphans' debugfs counts the device's late bytes. */
		out_buf = dma_alloc_coherent(dev, out_len, &out_dma, GFP_KERNEL);
		if (!out_buf) {
			err = -ENOMEM;
			goto out;
		}
		cmd->out_addr = cpu_to_le64(out_dma);
		cmd->out_len = cpu_to_le32(out_len);
	}
	err = wren_aq_exec(wdev, cmd, comp, &unanswered);
	if (unanswered) {
		wren_cmd_orphan_inbuf(wdev, cmd->opcode, &inb, out_buf, out_dma,
				      out_len);
		return err;
	}
	if (!err && out_len) {
		size_t got = min_t(size_t, le32_to_cpu(comp->out_len), out_len);

		memcpy(out, out_buf, got);
		memset(out + got, 0, out_len - got);
	}
	if (out_buf)
		dma_free_coherent(dev, out_len, out_buf, out_dma);
out:
	wren_cmd_inbuf_put(&wdev->core, &inb);
	return err;
}

/**
 * wren_cmd_exec_inbuf() - run an admin command whose input is in place
 * @wdev: the device
 * @cmd: as for wren_cmd_exec()
 * @in: the input, from wren_cmd_inbuf_get()
 * @in_len: its length, at most @in->size
 *
 * Sleeps.  When the device never answered, @in is parked as
 * wren_cmd_exec() parks its buffers, and @in->data becomes NULL.
 *
 * Return: as wren_cmd_exec(); -EIO after such a command, -EINVAL for a
 * length of 0 or beyond the buffer.
 */
int wren_cmd_exec_inbuf(struct wren_dev *wdev, struct wren_aq_cmd *cmd,
			struct wren_cmd_inbuf *in, size_t in_len)
{
	struct wren_acq_entry comp = {};
	bool unanswered;
	int err;

	might_sleep();
	if (!in->data)
		return -EIO;
	if (!in_len || in_len > in->size)
		return -EINVAL;
	cmd->in_addr = cpu_to_le64(in->dma);
	cmd->in_len = cpu_to_le32(in_len);
	err = wren_aq_exec(wdev, cmd, &comp, &unanswered);
	if (unanswered)
		wren_cmd_orphan_inbuf(wdev, cmd->opcode, in, NULL, 0, 0);
	return err;
}

/**
 * wren_cmd_exec_atomic() - wren_cmd_exec() without sleeping, input only
 * @wdev: the device
 * @cmd: as for wren_cmd_exec()
 * @in: input, at most WREN_CMD_ATOMIC_BUF_LEN bytes, or NULL
 * @in_len: its length
 * @comp: as for wren_cmd_exec()
 *
 * The input goes through the device's one preallocated buffer, so callers
 * take turns; the queue spins for the completion.  Once a command through
 * it went unanswered, the device may still read it: it is not reused.
 *
 * Return: as wren_cmd_exec(), and -EBUSY when no admin slot came free.
 */
int wren_cmd_exec_atomic(struct wren_dev *wdev, struct wren_aq_cmd *cmd,
			 const void *in, size_t in_len,
			 struct wren_acq_entry *comp)
{
	struct wren_cmd_state *cs = &wdev->cmd;
	struct wren_acq_entry local = {};
	unsigned long flags;
	bool unanswered;
	int err;

	if (in_len > WREN_CMD_ATOMIC_BUF_LEN)
		return -EINVAL;
	if (!comp)
		comp = &local;
	spin_lock_irqsave(&cs->atomic_lock, flags);
	if (cs->atomic_orphaned) {
		spin_unlock_irqrestore(&cs->atomic_lock, flags);
		return -EIO;
	}
	if (in_len) {
		memcpy(cs->atomic_buf, in, in_len);
		cmd->in_addr = cpu_to_le64(cs->atomic_dma);
		cmd->in_len = cpu_to_le32(in_len);
	}
	err = wren_aq_exec_atomic(wdev, cmd, comp, &unanswered);
	if (unanswered)
		cs->atomic_orphaned = true;
	spin_unlock_irqrestore(&cs->atomic_lock, flags);
	return err;
}

/**
 * wren_cmd_died_with_device() - whether a failed command's object went
 * with the device
 * @wdev: the device
 * @err: the command's errno
 * @comp: its completion
 *
 * A command that undoes something (a destroy, a detach) and failed only
 * because the device is dead (fatal, gone, or a command timed out before)
 * has its effect: the device's state went with it.
 *
 * Return: true in that case.
 */
bool wren_cmd_died_with_device(struct wren_dev *wdev, int err,
			       const struct wren_acq_entry *comp)
{
	return err == -EIO && comp->status == WREN_AQ_STATUS_OK &&
	       wren_is_dead(wdev);
}

/**
 * wren_cmd_destroy_quiet() - destroy a device object by handle, silently
 * @wdev: the device
 * @opcode: DESTROY_* or DEALLOC_*
 * @handle: the object
 * @atomic: from atomic context
 * @comp: the completion, for the caller to judge a failure by its status
 *
 * An object on a dead device (fatal, gone, or a command timed out before)
 * died with it: that counts as destroyed, so that the caller may free its
 * side.  A command the device refused, or that timed out now, is a
 * failure: the object may still be in use.
 *
 * Return: 0 when the object is gone, else an errno.
 */
int wren_cmd_destroy_quiet(struct wren_dev *wdev, u8 opcode, u32 handle,
			   bool atomic, struct wren_acq_entry *comp)
{
	struct wren_aq_cmd cmd = { .opcode = opcode };
	int err;

	memset(comp, 0, sizeof(*comp));
	cmd.u.handle.handle = cpu_to_le32(handle);
	if (atomic)
		err = wren_cmd_exec_atomic(wdev, &cmd, NULL, 0, comp);
	else
		err = wren_cmd_exec(wdev, &cmd, NULL, 0, NULL, 0, comp);
	return wren_cmd_died_with_device(wdev, err, comp) ? 0 : err;
}

/**
 * wren_cmd_destroy_warn() - the rate-limited warning of a failed destroy
 * @wdev: the device
 * @opcode: DESTROY_* or DEALLOC_*
 * @handle: the object
 * @err: wren_cmd_destroy_quiet()'s errno
 * @comp: its completion
 */
void wren_cmd_destroy_warn(struct wren_dev *wdev, u8 opcode, u32 handle,
			   int err, const struct wren_acq_entry *comp)
{
	dev_warn_ratelimited(&wdev->pdev->dev, "%s %u failed: %d (status %u)\n",
			     wren_core_opcode_name(opcode), handle, err,
			     comp->status);
}

/**
 * wren_cmd_destroy() - destroy a device object by handle
 * @wdev: the device
 * @opcode: DESTROY_* or DEALLOC_*
 * @handle: the object
 * @atomic: from atomic context
 *
 * As wren_cmd_destroy_quiet(), with a warning when it fails.
 *
 * Return: 0 when the object is gone, else an errno.
 */
int wren_cmd_destroy(struct wren_dev *wdev, u8 opcode, u32 handle, bool atomic)
{
	struct wren_acq_entry comp;
	int err;

	err = wren_cmd_destroy_quiet(wdev, opcode, handle, atomic, &comp);
	if (err)
		wren_cmd_destroy_warn(wdev, opcode, handle, err, &comp);
	return err;
}

/**
 * wren_cmd_orphans_show() - describe the parked buffers, for debugfs
 * @wdev: the device
 * @m: where to print
 *
 * One line per timed-out command: its opcode, buffer sizes, and how many
 * bytes of its output buffer are not zero (coherent memory starts zeroed,
 * so a count above 0 is the device's late write, into memory still held).
 */
void wren_cmd_orphans_show(struct wren_dev *wdev, struct seq_file *m)
{
	struct wren_cmd_state *cs = &wdev->cmd;
	struct wren_cmd_orphan *o;
	size_t i, written;

	spin_lock(&cs->orphan_lock);
	seq_printf(m, "orphans %u\n", cs->num_orphans);
	list_for_each_entry(o, &cs->orphans, node) {
		const u8 *p = o->out;

		for (i = 0, written = 0; i < o->out_len; i++)
			written += !!READ_ONCE(p[i]);
		seq_printf(m, "%s in %zu out %zu out_written %zu\n",
			   wren_core_opcode_name(o->opcode), o->in_len,
			   o->out_len, written);
	}
	spin_unlock(&cs->orphan_lock);
}
