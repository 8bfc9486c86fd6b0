// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * debugfs: fault injection for tests, on devices that advertise
 * WREN_CAP_DIAG_FAULT.  /sys/kernel/debug/wren/<pci address>/inject_fault
 * accepts "aq_stall": the device swallows the next admin command, and a NOP
 * sent right after it then times out, exercising the hung-command path
 * (the write fails with ETIMEDOUT); and "aq_late": a QUERY_DEVICE times
 * out and the device writes its output buffer half a second later, after
 * the driver gave up.  "cmd_orphans" lists the buffers of timed-out
 * commands that the driver keeps until the device is reset, and whether
 * the device wrote them.  "rx_drain" sets how fast the device's host side
 * takes received frames out of its receive buffers (WREN_DIAG_RX_DRAIN):
 * a rate in Mb/s slows it, "stuck" stops it, "normal" (or 0) restores it,
 * so that tests can make the NIC send PFC and trip its TX storm watchdog.
 * Going fatal is injected through `devlink health test <dev> reporter
 * fw_fatal` instead.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "wren.h"

static struct dentry *wren_debugfs_root;

static int wren_inject_aq_stall(struct wren_dev *wdev)
{
	int err;

	err = wren_cmd_diag_fault(wdev, WREN_DIAG_AQ_STALL, 0);
	if (err)
		return err;
	return wren_cmd_nop(wdev);
}

/* Late by more than the driver waits, so the device writes after it. */
#define WREN_AQ_LATE_EXTRA_MS	500

static int wren_inject_aq_late(struct wren_dev *wdev)
{
	struct wren_device_attr attr;
	int err;

	err = wren_cmd_diag_fault(wdev, WREN_DIAG_AQ_LATE,
				  wdev->aq.timeout_ms + WREN_AQ_LATE_EXTRA_MS);
	if (err)
		return err;
	return wren_cmd_query_device(wdev, &attr);
}

/* The word written to a DIAG file, NUL-terminated in @buf. */
static ssize_t wren_diag_word(struct wren_dev *wdev, const char __user *ubuf,
			      size_t count, loff_t *ppos, char *buf,
			      size_t size)
{
	ssize_t len;

	if (!(wdev->core.caps & WREN_CAP_DIAG_FAULT))
		return -EOPNOTSUPP;
	len = simple_write_to_buffer(buf, size - 1, ppos, ubuf, count);
	if (len >= 0)
		buf[len] = '\0';
	return len;
}

static ssize_t wren_inject_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct wren_dev *wdev = file->private_data;
	char buf[16];
	ssize_t len;
	int err;

	len = wren_diag_word(wdev, ubuf, count, ppos, buf, sizeof(buf));
	if (len < 0)
		return len;
	if (sysfs_streq(buf, "aq_stall"))
		err = wren_inject_aq_stall(wdev);
	else if (sysfs_streq(buf, "aq_late"))
		err = wren_inject_aq_late(wdev);
	else
		return -EINVAL;
	return err ? err : count;
}

static const struct file_operations wren_inject_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= wren_inject_write,
	.llseek	= noop_llseek,
};

/* The device validates the rate (it knows its range); the driver only
 * turns the words into the DIAG_FAULT argument.
 */
static ssize_t wren_rx_drain_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct wren_dev *wdev = file->private_data;
	char buf[16];
	ssize_t len;
	u32 mbps;
	int err;

	len = wren_diag_word(wdev, ubuf, count, ppos, buf, sizeof(buf));
	if (len < 0)
		return len;
	if (sysfs_streq(buf, "stuck"))
		mbps = WREN_DIAG_RX_DRAIN_STUCK;
	else if (sysfs_streq(buf, "normal"))
		mbps = 0;
	else if (kstrtou32(buf, 0, &mbps) || mbps == WREN_DIAG_RX_DRAIN_STUCK)
		return -EINVAL;
	err = wren_cmd_diag_fault(wdev, WREN_DIAG_RX_DRAIN, mbps);
	return err ? err : count;
}

static const struct file_operations wren_rx_drain_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= wren_rx_drain_write,
	.llseek	= noop_llseek,
};

static int wren_orphans_show(struct seq_file *m, void *data)
{
	wren_cmd_orphans_show(m->private, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(wren_orphans);

void wren_debugfs_add(struct wren_dev *wdev)
{
	wdev->debugfs = debugfs_create_dir(pci_name(wdev->pdev), wren_debugfs_root);
	debugfs_create_file("inject_fault", 0200, wdev->debugfs, wdev,
			    &wren_inject_fops);
	debugfs_create_file("rx_drain", 0200, wdev->debugfs, wdev,
			    &wren_rx_drain_fops);
	debugfs_create_file("cmd_orphans", 0400, wdev->debugfs, wdev,
			    &wren_orphans_fops);
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
