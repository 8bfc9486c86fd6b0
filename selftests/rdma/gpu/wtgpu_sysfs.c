// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wtgpu_sysfs.c: the driver's counters (those of WTGPU_INFO), read-only,
 * in the wren_gpu/ directory of the PCI device.  wtgpu_main.c hands
 * wtgpu_groups to the driver core; calls wtgpu_alloc.c.
 */
#include "wtgpu.h"

static struct attribute *wtgpu_attrs[];

/* The attributes are in the order of struct wtgpu_info's first u64s. */
static ssize_t wtgpu_counter_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct wtgpu_dev *gpu = pci_get_drvdata(to_pci_dev(dev));
	struct wtgpu_info info;
	const u64 *v = (const u64 *)&info;
	unsigned int i;

	BUILD_BUG_ON(offsetof(struct wtgpu_info, free_callbacks) != 8 * sizeof(u64));
	wtgpu_info_fill(gpu, &info);
	for (i = 0; wtgpu_attrs[i]; i++)
		if (wtgpu_attrs[i] == &attr->attr)
			return sysfs_emit(buf, "%llu\n", v[i]);
	return -EINVAL;
}

#define WTGPU_ATTR(name)						\
	struct device_attribute wtgpu_attr_##name =			\
		__ATTR(name, 0444, wtgpu_counter_show, NULL)

static WTGPU_ATTR(bar_size);
static WTGPU_ATTR(bar_free);
static WTGPU_ATTR(allocs);
static WTGPU_ATTR(p2p_tables);
static WTGPU_ATTR(p2p_pages);
static WTGPU_ATTR(p2p_dma_maps);
static WTGPU_ATTR(dmabufs);
static WTGPU_ATTR(dmabuf_maps);
static WTGPU_ATTR(free_callbacks);

static struct attribute *wtgpu_attrs[] = {
	&wtgpu_attr_bar_size.attr,
	&wtgpu_attr_bar_free.attr,
	&wtgpu_attr_allocs.attr,
	&wtgpu_attr_p2p_tables.attr,
	&wtgpu_attr_p2p_pages.attr,
	&wtgpu_attr_p2p_dma_maps.attr,
	&wtgpu_attr_dmabufs.attr,
	&wtgpu_attr_dmabuf_maps.attr,
	&wtgpu_attr_free_callbacks.attr,
	NULL
};

static const struct attribute_group wtgpu_group = {
	.name = "wren_gpu",
	.attrs = wtgpu_attrs,
};

const struct attribute_group *wtgpu_groups[] = {
	&wtgpu_group,
	NULL
};
