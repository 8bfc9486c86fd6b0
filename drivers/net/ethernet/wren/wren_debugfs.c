// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * debugfs: fault injection for tests, on devices that advertise
 * WREN_CAP_DIAG_FAULT.  /sys/kernel/debug/wren/<pci address>/inject_fault
 * accepts "aq_stall": the device swallows the next admin command, and a NOP
 * sent right after it then times out, exercising the hung-command path
 * (the write fails with ETIMEDOUT).  Going fatal is injected through
 * `devlink health test <dev> reporter fw_fatal` instead.
 */
#include <linux/debugfs.h>
#include <linux/string.h>

#include "wren.h"

static struct dentry *wren_debugfs_root;

static int wren_inject_aq_stall(struct wren_dev *wdev)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_DIAG_FAULT };
	int err;

	cmd.u.diag_fault.fault = cpu_to_le32(WREN_DIAG_AQ_STALL);
	err = wren_aq_exec(wdev, &cmd, NULL);
	if (err)
		return err;
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = WREN_AQ_OP_NOP;
	return wren_aq_exec(wdev, &cmd, NULL);
}

static ssize_t wren_inject_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct wren_dev *wdev = file->private_data;
	char buf[16];
	ssize_t len;
	int err;

	if (!(wdev->core.caps & WREN_CAP_DIAG_FAULT))
		return -EOPNOTSUPP;
	len = simple_write_to_buffer(buf, sizeof(buf) - 1, ppos, ubuf, count);
	if (len < 0)
		return len;
	buf[len] = '\0';
	if (!sysfs_streq(buf, "aq_stall"))
		return -EINVAL;
	err = wren_inject_aq_stall(wdev);
	return err ? err : count;
}

static const struct file_operations wren_inject_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= wren_inject_write,
	.llseek	= noop_llseek,
};

void wren_debugfs_add(struct wren_dev *wdev)
{
	wdev->debugfs = debugfs_create_dir(pci_name(wdev->pdev), wren_debugfs_root);
	debugfs_create_file("inject_fault", 0200, wdev->debugfs, wdev,
			    &wren_inject_fops);
}

void wren_debugfs_del(struct wren_dev *wdev)
{
	debugfs_remove_recursive(wdev->debugfs);
	wdev->debugfs = NULL;
}

void wren_debugfs_init(void)
{
	wren_debugfs_root = debugfs_create_dir(WREN_DRV_NAME, NULL);
}

void wren_debugfs_exit(void)
{
	debugfs_remove_recursive(wren_debugfs_root);
	wren_debugfs_root = NULL;
}
