// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Admin commands and udata, the two channels every verb goes through.
 *
 * Admin failures on paths user space triggers are reported with
 * ibdev_dbg() only: a user who asks for something the device refuses gets
 * an errno, not a line in the kernel log per attempt.
 */
#include <linux/dma-mapping.h>
#include <rdma/uverbs_ioctl.h>

#include "wren_ib.h"

/*
 * Run @cmd with optional input and output buffers copied through coherent
 * DMA memory.  A command that timed out may still be executed by the
 * device until it is reset, so its buffers are then left allocated rather
 * than handed back to the allocator under a device that may write them.
 */
int wren_ib_cmd(struct wren_ib_dev *dev, struct wren_aq_cmd *cmd,
		const void *in, size_t in_len, void *out, size_t out_len,
		struct wren_acq_entry *comp)
{
	struct wren_acq_entry local = {};
	dma_addr_t in_dma = 0, out_dma = 0;
	void *in_buf = NULL, *out_buf = NULL;
	int err;

	if (!comp)
		comp = &local;
	if (in_len) {
		in_buf = dma_alloc_coherent(dev->dmadev, in_len, &in_dma,
					    GFP_KERNEL);
		if (!in_buf)
			return -ENOMEM;
		memcpy(in_buf, in, in_len);
		cmd->in_addr = cpu_to_le64(in_dma);
		cmd->in_len = cpu_to_le32(in_len);
	}
	if (out_len) {
		out_buf = dma_alloc_coherent(dev->dmadev, out_len, &out_dma,
					     GFP_KERNEL);
		if (!out_buf) {
			err = -ENOMEM;
			goto out;
		}
		cmd->out_addr = cpu_to_le64(out_dma);
		cmd->out_len = cpu_to_le32(out_len);
	}
	err = wren_core_exec_cmd(dev->cdev, cmd, comp);
	if (err == -ETIMEDOUT)
		return err;
	if (!err && out_len) {
		/* Bytes the device did not write read as zero. */
		size_t got = min_t(size_t, le32_to_cpu(comp->out_len), out_len);

		memset(out, 0, out_len);
		memcpy(out, out_buf, got);
	}
	if (err)
		ibdev_dbg(&dev->ibdev, "%s failed: %d (status %u, syndrome 0x%08x)\n",
			  wren_core_opcode_name(cmd->opcode), err, comp->status,
			  le32_to_cpu(comp->syndrome));
out:
	if (out_buf)
		dma_free_coherent(dev->dmadev, out_len, out_buf, out_dma);
	if (in_buf)
		dma_free_coherent(dev->dmadev, in_len, in_buf, in_dma);
	return err;
}

/*
 * The same without sleeping, for the AHs ib_core's CM creates and destroys
 * under a spinlock: the input goes through the device's preallocated
 * buffer (one user at a time) and the core spins for the completion.
 */
int wren_ib_cmd_atomic(struct wren_ib_dev *dev, struct wren_aq_cmd *cmd,
		       const void *in, size_t in_len, struct wren_acq_entry *comp)
{
	struct wren_acq_entry local = {};
	unsigned long flags;
	int err;

	if (in_len > WREN_IB_ACMD_BUF_LEN)
		return -EINVAL;
	if (!comp)
		comp = &local;
	spin_lock_irqsave(&dev->acmd_lock, flags);
	if (in_len) {
		memcpy(dev->acmd_buf, in, in_len);
		cmd->in_addr = cpu_to_le64(dev->acmd_dma);
		cmd->in_len = cpu_to_le32(in_len);
	}
	err = wren_core_exec_cmd_atomic(dev->cdev, cmd, comp);
	spin_unlock_irqrestore(&dev->acmd_lock, flags);
	if (err)
		ibdev_dbg(&dev->ibdev, "%s (atomic) failed: %d (status %u)\n",
			  wren_core_opcode_name(cmd->opcode), err, comp->status);
	return err;
}

int wren_ib_cmd_handle(struct wren_ib_dev *dev, u8 opcode, u32 handle)
{
	struct wren_aq_cmd cmd = { .opcode = opcode };

	cmd.u.handle.handle = cpu_to_le32(handle);
	return wren_ib_cmd(dev, &cmd, NULL, 0, NULL, 0, NULL);
}

/*
 * Destroy a device object.  When the device is dead (fatal, gone, or an
 * admin command timed out) every later command fails with -EIO without a
 * completion; the object died with the device, and the caller may free
 * its side.  A command the device refused is a real failure.
 */
int wren_ib_destroy_obj(struct wren_ib_dev *dev, u8 opcode, u32 handle)
{
	struct wren_aq_cmd cmd = { .opcode = opcode };
	struct wren_acq_entry comp = {};
	int err;

	cmd.u.handle.handle = cpu_to_le32(handle);
	err = wren_ib_cmd(dev, &cmd, NULL, 0, NULL, 0, &comp);
	if (err == -EIO && comp.status == WREN_AQ_STATUS_OK)
		return 0;
	if (err)
		ibdev_warn_ratelimited(&dev->ibdev, "%s %u failed: %d (status %u)\n",
				       wren_core_opcode_name(opcode), handle,
				       err, comp.status);
	return err;
}

/*
 * Copy a request of @len bytes (the ABI version 1 size, which is also the
 * minimum).  Shorter requests are refused; longer ones only if every byte
 * this driver does not know is zero.
 */
int wren_ib_udata_in(struct ib_udata *udata, void *req, size_t len)
{
	if (udata->inlen < len)
		return -EINVAL;
	if (udata->inlen > len &&
	    !ib_is_udata_cleared(udata, len, udata->inlen - len))
		return -EOPNOTSUPP;
	return ib_copy_from_udata(req, udata, len);
}

/* The response, cut to what the caller has room for, which must hold at
 * least the version 1 fields (@len).
 */
int wren_ib_udata_out(struct ib_udata *udata, void *resp, size_t len)
{
	if (udata->outlen < len)
		return -EINVAL;
	return ib_copy_to_udata(udata, resp, len);
}

/* A verb with no driver-private request: anything sent must be zero. */
int wren_ib_udata_none(struct ib_udata *udata)
{
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EOPNOTSUPP;
	return 0;
}
