/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The interface between wren.ko (PCI core) and its auxiliary drivers.
 *
 * wren.ko owns the PCI function, the admin queue and the interrupts, and
 * publishes one auxiliary device "wren.rdma" per NIC whose capabilities
 * include RDMA.  wren_ib.ko binds to it and reaches the hardware only
 * through what is declared here.  This is a kernel-internal interface, not
 * part of the hardware contract: it may change together with both modules.
 */
#ifndef _LINUX_WREN_CORE_H
#define _LINUX_WREN_CORE_H

#include <linux/auxiliary_bus.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/wren/wren_hw.h>

/* Name of the auxiliary device as the bus matches it: "<modname>.<name>". */
#define WREN_AUX_RDMA_NAME	"rdma"
#define WREN_AUX_RDMA_MATCH	"wren.rdma"

/* Symbol namespace of the core's exports. */
#ifdef HAVE_MODULE_IMPORT_NS_STRING
#define WREN_CORE_NS	"WREN_CORE"
#else
/*
 * Before Linux 6.13, EXPORT_SYMBOL_NS and MODULE_IMPORT_NS took a bare
 * identifier and stringified it; wren_config.h says which one this
 * kernel wants.
 */
#define WREN_CORE_NS	WREN_CORE
#endif

struct net_device;
struct wren_comp_eq;

/* What the core knows about the NIC, filled once at probe. */
struct wren_core_dev {
	struct pci_dev *pdev;
	u64 caps;			/* WREN_CAP_*, from QUERY_DEVICE */
	u32 fw_version;			/* WREN_FW_VER_* encoding */
	u32 fw_build;
	/* QUERY_DEVICE output as the device wrote it (little-endian). */
	struct wren_device_attr attr;
};

/*
 * What an auxiliary driver hears from the device.  Both callbacks run in
 * hard interrupt context and must not sleep.
 *
 * comp: a WREN_EVENT_COMP for @cqn arrived on one of the completion EQs
 *	 the core created for this driver (wren_core_events_register()).
 * event: an entry of the asynchronous event queue (QP, SRQ and CQ errors,
 *	  port state, device fatal, EQ overruns, ...), as the device wrote
 *	  it; the driver ignores types it does not own.  A fatal error the
 *	  core detects without an event (stuck heartbeat, surprise removal)
 *	  is reported as a WREN_EVENT_DEVICE_FATAL entry made up by the core,
 *	  from process context.
 */
struct wren_core_event_ops {
	void (*comp)(void *priv, u32 cqn);
	void (*event)(void *priv, const struct wren_eqe *eqe);
};

/* The device published on the auxiliary bus. */
struct wren_aux_dev {
	struct auxiliary_device adev;
	struct wren_core_dev *cdev;
	/* The port's netdev (ib_device_set_netdev, RoCE GIDs), or NULL on a
	 * device without WREN_CAP_ETH.  It outlives the auxiliary device.
	 */
	struct net_device *netdev;
	/* The kernel's doorbell page (WREN_KERNEL_UAR), mapped. */
	void __iomem *kernel_db;

	/* Private to wren.ko: the bound driver's event registration. */
	spinlock_t ev_lock;		/* ev_ops, ev_priv for the AEQ path */
	const struct wren_core_event_ops *ev_ops;
	void *ev_priv;
	struct wren_comp_eq *comp_eqs;
	unsigned int num_comp_eqs;
};

static inline struct wren_aux_dev *
wren_aux_dev_from(struct auxiliary_device *adev)
{
	return container_of(adev, struct wren_aux_dev, adev);
}

/* Admin commands: one function per command, in wren_cmd.h. */

/* Human-readable name of an admin opcode, for log messages. */
const char *wren_core_opcode_name(u8 opcode);

/*
 * Create the completion EQs of the driver bound to @wadev (one per MSI-X
 * vector the Ethernet half leaves free, at most one per CPU, and at least
 * one, on the management vector if no other is free) and start calling
 * @ops.  Sleeps.  wren_core_events_unregister() stops the calls (when it
 * returns, no callback is running or will run) and destroys the EQs; the
 * driver must have destroyed every CQ attached to them first.
 */
int wren_core_events_register(struct wren_aux_dev *wadev,
			      const struct wren_core_event_ops *ops, void *priv);
void wren_core_events_unregister(struct wren_aux_dev *wadev);

/* Completion EQ @index (0 .. num_comp_eqs - 1): its number, for CREATE_CQ. */
u32 wren_core_comp_eqn(struct wren_aux_dev *wadev, unsigned int index);

#endif /* _LINUX_WREN_CORE_H */
