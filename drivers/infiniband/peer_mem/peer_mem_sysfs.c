// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * /sys/kernel/mm/memory_peers/<client>/: the client's version string and
 * its counters, as MLNX_OFED's ib_core shows them (NCCL looks for
 * memory_peers/nv_mem/version to decide that GPU memory can be
 * registered).
 *
 * /sys/kernel/mm is mm_kobj.  Kernels that do not export it (6.12) get the
 * directory through kernfs instead: a kobject that is never added to sysfs
 * stands for /sys/kernel/mm, carrying its kernfs node, as the parent of
 * memory_peers.
 */
#include <linux/kernfs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "peer_mem_priv.h"

static struct kobject *wren_peer_root;		/* memory_peers */

static struct wren_peer_client *to_client(struct kobject *kobj)
{
	return container_of(kobj, struct wren_peer_client, kobj);
}

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", to_client(kobj)->version);
}

static struct kobj_attribute wren_peer_attr_version = __ATTR_RO(version);

/* The counters, in the order of struct wren_peer_stats. */
static const char * const wren_peer_counter_names[] = {
	"num_alloc_mrs", "num_dealloc_mrs", "num_reg_pages", "num_dereg_pages",
	"num_reg_bytes", "num_dereg_bytes", "num_free_callbacks",
};

static_assert(sizeof(struct wren_peer_stats) ==
	      ARRAY_SIZE(wren_peer_counter_names) * sizeof(atomic64_t));

static ssize_t wren_peer_counter_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	const atomic64_t *ctr = (const atomic64_t *)&to_client(kobj)->stats;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wren_peer_counter_names); i++)
		if (!strcmp(attr->attr.name, wren_peer_counter_names[i]))
			return sysfs_emit(buf, "%lld\n", atomic64_read(&ctr[i]));
	return -EINVAL;
}

#define WREN_PEER_COUNTER(_name) \
	static struct kobj_attribute wren_peer_attr_##_name = \
		__ATTR(_name, 0444, wren_peer_counter_show, NULL)

WREN_PEER_COUNTER(num_alloc_mrs);
WREN_PEER_COUNTER(num_dealloc_mrs);
WREN_PEER_COUNTER(num_reg_pages);
WREN_PEER_COUNTER(num_dereg_pages);
WREN_PEER_COUNTER(num_reg_bytes);
WREN_PEER_COUNTER(num_dereg_bytes);
WREN_PEER_COUNTER(num_free_callbacks);

static struct attribute *wren_peer_attrs[] = {
	&wren_peer_attr_version.attr,
	&wren_peer_attr_num_alloc_mrs.attr,
	&wren_peer_attr_num_dealloc_mrs.attr,
	&wren_peer_attr_num_reg_pages.attr,
	&wren_peer_attr_num_dereg_pages.attr,
	&wren_peer_attr_num_reg_bytes.attr,
	&wren_peer_attr_num_dereg_bytes.attr,
	&wren_peer_attr_num_free_callbacks.attr,
	NULL
};
ATTRIBUTE_GROUPS(wren_peer);

static void wren_peer_client_release(struct kobject *kobj)
{
	struct wren_peer_client *client = to_client(kobj);

	xa_destroy(&client->umems);
	kfree(client);
}

static const struct kobj_type wren_peer_client_ktype = {
	.release = wren_peer_client_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = wren_peer_groups,
};

/**
 * wren_peer_sysfs_add() - give a new client its directory
 * @client: the client, not yet registered
 * @name: its name
 *
 * Return: 0, or an errno after which @client has been freed.
 */
int wren_peer_sysfs_add(struct wren_peer_client *client, const char *name)
{
	int err;

	err = kobject_init_and_add(&client->kobj, &wren_peer_client_ktype,
				   wren_peer_root, "%s", name);
	if (err)
		kobject_put(&client->kobj);
	return err;
}

#ifdef HAVE_MM_KOBJ_EXPORT
static struct kobject *wren_peer_mm_get(void)
{
	return kobject_get(mm_kobj);
}
#else
static void wren_peer_mm_release(struct kobject *kobj)
{
	kernfs_put(kobj->sd);
	kfree(kobj);
}

static const struct kobj_type wren_peer_mm_ktype = {
	.release = wren_peer_mm_release,
};

/* A stand-in for mm_kobj: never in sysfs itself, only its node's parent. */
static struct kobject *wren_peer_mm_get(void)
{
	struct kernfs_node *kn;
	struct kobject *mm;

	kn = kernfs_find_and_get(kernel_kobj->sd, "mm");
	if (!kn)
		return NULL;
	mm = kzalloc_obj(*mm, GFP_KERNEL);
	if (!mm) {
		kernfs_put(kn);
		return NULL;
	}
	kobject_init(mm, &wren_peer_mm_ktype);
	mm->sd = kn;
	return mm;
}
#endif

/**
 * wren_peer_sysfs_init() - create /sys/kernel/mm/memory_peers
 *
 * Return: 0 or an errno.
 */
int wren_peer_sysfs_init(void)
{
	struct kobject *mm = wren_peer_mm_get();

	if (!mm)
		return -ENOENT;
	wren_peer_root = kobject_create_and_add("memory_peers", mm);
	/* The directory holds its own reference on its parent. */
	kobject_put(mm);
	return wren_peer_root ? 0 : -ENOMEM;
}

/** wren_peer_sysfs_exit() - remove /sys/kernel/mm/memory_peers */
void wren_peer_sysfs_exit(void)
{
	kobject_put(wren_peer_root);
}
