#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Probe a kernel's headers for the API differences the drivers care about and
# write wren_config.h with one HAVE_* macro per feature that is present.
#
# Each probe is a small C file compiled against the target headers with
# -Werror, the way amzn-drivers' efa configure does it: a distribution kernel
# that backports an API gets the new code path even though its version number
# says otherwise.  All probes build in one kbuild run (-k), so the cost is one
# kbuild start-up, and the result is cached per kernel build directory.
#
# usage: kernel-config.sh KDIR OUTFILE
set -eu

kdir=${1:?usage: kernel-config.sh KDIR OUTFILE}
out=${2:?usage: kernel-config.sh KDIR OUTFILE}
jobs=${JOBS:-2}
[ "$jobs" -le 2 ] 2>/dev/null || jobs=2

# name|code: code is compiled at file scope after the includes below; the
# probe succeeds when the file compiles without warnings.
probes() {
	cat <<'PROBES'
IB_CREATE_CQ_ATTRS|static int f(struct ib_cq *cq, const struct ib_cq_init_attr *a, struct uverbs_attr_bundle *attrs) { return 0; } static const struct ib_device_ops o __used = { .create_cq = f };
IB_REG_USER_MR_DMABUF_ATTRS|static struct ib_mr *f(struct ib_pd *pd, u64 off, u64 len, u64 va, int fd, int acc, struct uverbs_attr_bundle *attrs) { return NULL; } static const struct ib_device_ops o __used = { .reg_user_mr_dmabuf = f };
IB_REG_USER_MR_DMABUF_DMAH|static struct ib_mr *f(struct ib_pd *pd, u64 off, u64 len, u64 va, int fd, int acc, struct ib_dmah *dmah, struct uverbs_attr_bundle *attrs) { return NULL; } static const struct ib_device_ops o __used = { .reg_user_mr_dmabuf = f };
IB_FILL_RES_SRQ_ENTRY|static int f(struct sk_buff *msg, struct ib_srq *srq) { return 0; } static const struct ib_device_ops o __used = { .fill_res_srq_entry = f };
RDMA_ITER_H|#include <rdma/iter.h>
IB_DEVICE_FLUSH|static const u64 v __used = IB_DEVICE_FLUSH_GLOBAL | IB_DEVICE_ATOMIC_WRITE;
VM_FLAGS_CLEAR|static void f(struct vm_area_struct *v) { vm_flags_clear(v, VM_MAYWRITE); } static void (*p)(struct vm_area_struct *) __used = f;
IB_REG_USER_MR_DMAH|static struct ib_mr *f(struct ib_pd *pd, u64 start, u64 len, u64 va, int acc, struct ib_dmah *dmah, struct ib_udata *udata) { return NULL; } static const struct ib_device_ops o __used = { .reg_user_mr = f };
MODULE_IMPORT_NS_STRING|#undef __MODULE_INFO
MODULE_IMPORT_NS_STRING|#define __MODULE_INFO(tag, name, info) _Static_assert(sizeof(info) == sizeof("WREN"), "namespace is stringified")
MODULE_IMPORT_NS_STRING|MODULE_IMPORT_NS("WREN");
DEVLINK_INFO_DRIVER_NAME_PUT|static int f(struct devlink_info_req *req) { return devlink_info_driver_name_put(req, "x"); } static int (*p)(struct devlink_info_req *) __used = f;
DEVLINK_FMSG_PUT_VOID|static void (*p)(struct devlink_fmsg *, const char *, u32) __used = devlink_fmsg_u32_pair_put;
DEVLINK_PARAM_SET_EXTACK|static int f(struct devlink *dl, u32 id, struct devlink_param_gset_ctx *c, struct netlink_ext_ack *e) { return 0; } static const struct devlink_param p __used = DEVLINK_PARAM_DRIVER(DEVLINK_PARAM_GENERIC_ID_MAX + 1, "x", DEVLINK_PARAM_TYPE_U32, BIT(DEVLINK_PARAM_CMODE_RUNTIME), NULL, f, NULL);
DCBNL_APPTRUST|#include <net/dcbnl.h>
DCBNL_APPTRUST|static int f(struct net_device *nd, u8 *sel, int n) { return 0; } static const struct dcbnl_rtnl_ops o __used = { .dcbnl_setapptrust = f };
DEVL_LOCK|static void f(struct devlink *dl) { devl_lock(dl); devl_assert_locked(dl); devl_unlock(dl); } static void (*p)(struct devlink *) __used = f;
NETIF_NAPI_ADD_WEIGHT|static void f(struct net_device *nd, struct napi_struct *n, int (*poll)(struct napi_struct *, int)) { netif_napi_add_weight(nd, n, poll, 64); } static void *p __used = f;
PAGE_POOL_HELPERS_H|#include <net/page_pool/helpers.h>
PAGE_POOL_HELPERS_H|static struct page *(*p)(struct page_pool *, gfp_t) __used = page_pool_alloc_pages;
ETHTOOL_RXFH_PARAM|static int f(struct net_device *d, struct ethtool_rxfh_param *p) { return 0; } static const struct ethtool_ops o __used = { .get_rxfh = f };
PCI_ALLOC_IRQ_VECTORS_AFFINITY|static int f(struct pci_dev *pd, struct irq_affinity *a) { return pci_alloc_irq_vectors_affinity(pd, 1, 2, PCI_IRQ_MSIX | PCI_IRQ_AFFINITY, a); } static void *p __used = f;
VM_FLAGS_SET|static void f(struct vm_area_struct *v) { vm_flags_set(v, VM_IO); } static void (*p)(struct vm_area_struct *) __used = f;
IB_RESIZE_USER_CQ|static int f(struct ib_cq *cq, unsigned int cqe, struct ib_udata *u) { return 0; } static const struct ib_device_ops o __used = { .resize_user_cq = f };
IB_UMEM_GET_VA|#include <rdma/ib_umem.h>
IB_UMEM_GET_VA|static struct ib_umem *(*p)(struct ib_device *, unsigned long, size_t, int) __used = ib_umem_get_va;
DEVLINK_PARAM_GET_EXTACK|static int f(struct devlink *dl, u32 id, struct devlink_param_gset_ctx *c, struct netlink_ext_ack *e) { return 0; } static const struct devlink_param p __used = DEVLINK_PARAM_DRIVER(DEVLINK_PARAM_GENERIC_ID_MAX + 1, "x", DEVLINK_PARAM_TYPE_U32, BIT(DEVLINK_PARAM_CMODE_RUNTIME), f, NULL, NULL);
DEVLINK_PARAM_VALIDATE_PTR|static int f(struct devlink *dl, u32 id, union devlink_param_value *v, struct netlink_ext_ack *e) { return 0; } static const struct devlink_param p __used = DEVLINK_PARAM_DRIVER(DEVLINK_PARAM_GENERIC_ID_MAX + 1, "x", DEVLINK_PARAM_TYPE_U32, BIT(DEVLINK_PARAM_CMODE_RUNTIME), NULL, NULL, f);
ETHTOOL_RXFH_FIELDS|static int f(struct net_device *d, struct ethtool_rxfh_fields *x) { return 0; } static const struct ethtool_ops o __used = { .get_rxfh_fields = f };
ETHTOOL_GET_RX_RING_COUNT|static u32 f(struct net_device *d) { return 0; } static const struct ethtool_ops o __used = { .get_rx_ring_count = f };
DEVLINK_HEALTH_OPS_GRACE|static const struct devlink_health_reporter_ops o __used = { .name = "x", .default_graceful_period = 1 };
IB_DEVICE_GET_NETDEV|static struct net_device *(*p)(struct ib_device *, u32) __used = ib_device_get_netdev;
KZALLOC_OBJ|static void *f(void) { struct { int a; } *p = kzalloc_obj(*p, GFP_KERNEL); return p; } static void *(*q)(void) __used = f;
ETHTOOL_PUTS|static void (*p)(u8 **, const char *) __used = ethtool_puts;
STR_UP_DOWN|#include <linux/string_choices.h>
STR_UP_DOWN|static const char *(*p)(bool) __used = str_up_down;
PROBES
}

includes='#include <linux/module.h>
#include <linux/pci.h>
#include <linux/netdevice.h>
#include <net/devlink.h>
#include <rdma/ib_verbs.h>'

[ -f "$kdir/Makefile" ] || { echo "kernel-config: no kernel build tree at $kdir" >&2; exit 1; }

# The cache key covers the exact kernel (its release string and config)
# and this script, so editing a probe or installing a new ABI re-probes.
key=$( { cat "$0"; cat "$kdir/include/config/kernel.release" "$kdir/.config" 2>/dev/null; echo "$kdir"; } |
	sha256sum | cut -c1-16)
cache=${WREN_CACHE:-/var/cache/wren}/kernel-config
# Rewritten only when it changes: every object depends on it, and a new
# mtime alone would make kbuild rebuild them all.
install_config() {
	cmp -s "$1" "$out" || { cp "$1" "$out.$$" && mv "$out.$$" "$out"; }
}

if [ -f "$cache/$key.h" ]; then
	install_config "$cache/$key.h"
	exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wren-probe.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

names=$(probes | cut -d'|' -f1 | uniq)
objs=
for n in $names; do
	{
		echo "$includes"
		echo "MODULE_LICENSE(\"Dual BSD/GPL\");"
		probes | awk -F'|' -v n="$n" '$1 == n { sub(/^[^|]*\|/, ""); print }'
	} >"$tmp/$n.c"
	objs="$objs $n.o"
done
# -Werror so that an incompatible function pointer is a failed probe even
# on compilers that only warn about it.
{
	echo "ccflags-y := -Werror -Wno-unused-function -Wno-unused-variable"
	echo "obj-m := $objs"
} >"$tmp/Kbuild"

# shellcheck disable=SC2086 # one word per probe object
make -k -j"$jobs" -C "$kdir" M="$tmp" $objs >"$tmp/log" 2>&1 || true

{
	echo "/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */"
	echo "/* Generated by scripts/kernel-config.sh for $kdir; do not edit. */"
	echo "#ifndef WREN_CONFIG_H"
	echo "#define WREN_CONFIG_H"
	for n in $names; do
		if [ -f "$tmp/$n.o" ]; then
			echo "#define HAVE_$n 1"
		else
			echo "/* #undef HAVE_$n */"
		fi
	done
	# Exports are not visible to a compile probe: the kernel's
	# Module.symvers says.  6.12 stopped exporting mm_kobj.
	# shellcheck disable=SC2043 # a list of one export so far
	for s in mm_kobj; do
		n=$(echo "$s" | tr '[:lower:]' '[:upper:]')_EXPORT
		if grep -q "	$s	vmlinux	EXPORT_SYMBOL" "$kdir/Module.symvers" 2>/dev/null; then
			echo "#define HAVE_$n 1"
		else
			echo "/* #undef HAVE_$n */"
		fi
	done
	echo "#endif"
} >"$tmp/wren_config.h"

# Sanity: a probe that every supported kernel passes must pass, otherwise
# the compile environment itself is broken and every answer is "absent".
if [ ! -f "$tmp/PCI_ALLOC_IRQ_VECTORS_AFFINITY.o" ]; then
	echo "kernel-config: the baseline probe failed to compile against $kdir:" >&2
	cat "$tmp/log" >&2
	exit 1
fi

if mkdir -p "$cache" 2>/dev/null && cp "$tmp/wren_config.h" "$cache/.$key.$$" 2>/dev/null; then
	mv "$cache/.$key.$$" "$cache/$key.h"
fi
install_config "$tmp/wren_config.h"
