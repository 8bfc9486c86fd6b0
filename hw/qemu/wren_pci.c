// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * QEMU glue for the Wren RoCEv2 NIC: `-device wren,netdev=<id>[,mac=...]`.
 *
 * Everything the NIC does lives in libwrenhw (hw/src, no QEMU types); this
 * file only plugs it into QEMU: PCI config space and capabilities, the three
 * BARs, MSI-X, bus-master DMA (through pci_dma_*, hence through intel-iommu
 * when the machine has one), a netdev backend, a timer and a bottom half.
 * It forwards guest accesses and never interprets guest values itself.
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/host-utils.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/pci/msix.h"
#include "hw/pci/pci.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "migration/vmstate.h"
#include "net/net.h"
#include "qom/object.h"

#include "wrenhw.h"
#include "wren_wire.h"
#include <linux/wren/wren_regs.h>

#define TYPE_WREN "wren"
OBJECT_DECLARE_SIMPLE_TYPE(WrenState, WREN)

#define WREN_PCIE_CAP_OFFSET	0x80
#define WREN_DSN_OFFSET		0x100

#define WREN_MSIX_MIN_VECTORS	2
#define WREN_MSIX_MAX_VECTORS	(PCI_MSIX_FLAGS_QSIZE + 1)
#define WREN_MAX_DB_PAGES	65535	/* wren_device_attr.num_db_pages is 16-bit */

struct WrenState {
	PCIDevice parent_obj;

	/* Properties. */
	NICConf conf;
	uint32_t num_msix;
	uint32_t num_db_pages;
	uint32_t link_speed_mbps;
	bool dcb;
	char *wire_path;

	struct wrenhw *hw;
	/* The port is cabled either to a QEMU netdev or, with wire=, itself. */
	NICState *nic;
	WrenWire wire;
	MemoryRegion regs;
	MemoryRegion doorbells;
	/* Bytes the model decodes in BAR0 and BAR2 (the BARs are pow2-sized). */
	uint64_t regs_used;
	uint64_t db_used;
	MemoryRegion msix;
	QEMUTimer *timer;
	QEMUBH *bh;

	/*
	 * Depth of calls into the model.  A frame can come back synchronously
	 * while the model is sending one (two NICs on a hub in one QEMU); the
	 * model must not be re-entered, so such frames wait in QEMU's queue
	 * until the bottom half flushes them.
	 */
	unsigned int model_depth;
	/*
	 * A doorbell write or a received frame is in the model: the work it
	 * starts runs in the same thread once the write returns or the batch
	 * of frames is handed over, not in the main loop.
	 */
	bool caller_runs_pass;
	bool process_pending;
	bool rx_flush_pending;
};

static void wren_model_enter(WrenState *s)
{
	s->model_depth++;
}

/*
 * Leaving the model writes what it sent, all frames in one go, without the
 * BQL (wren_wire.c).  The model has returned, so the other thread may enter
 * the device meanwhile; the re-entrancy guard, engaged by this MMIO access
 * or bottom half, would turn its doorbell write away instead.
 */
static void wren_model_leave(WrenState *s)
{
	MemReentrancyGuard *guard = &DEVICE(s)->mem_reentrancy_guard;
	bool engaged;

	if (--s->model_depth || !s->wire_path)
		return;
	engaged = guard->engaged_in_io;
	guard->engaged_in_io = false;
	wren_wire_flush(&s->wire);
	guard->engaged_in_io = engaged;
}

/* ---- host ops handed to libwrenhw ---- */

static int wren_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
	WrenState *s = opaque;

	return pci_dma_read(PCI_DEVICE(s), addr, buf, len);
}

static int wren_dma_write(void *opaque, uint64_t addr, const void *buf,
			  size_t len)
{
	WrenState *s = opaque;

	return pci_dma_write(PCI_DEVICE(s), addr, buf, len);
}

static void wren_irq_notify(void *opaque, unsigned int vector)
{
	WrenState *s = opaque;
	PCIDevice *pdev = PCI_DEVICE(s);

	/* msix_notify() asserts on a bad vector; a model bug must not abort. */
	if (vector >= s->num_msix) {
		qemu_log_mask(LOG_GUEST_ERROR, "wren: model raised vector %u of %u\n",
			      vector, s->num_msix);
		return;
	}
	if (msix_enabled(pdev))
		msix_notify(pdev, vector);
}

static void wren_tx_frame(void *opaque, const void *frame, size_t len)
{
	WrenState *s = opaque;

	if (s->wire_path)
		wren_wire_queue(&s->wire, frame, len);
	else
		qemu_send_packet(qemu_get_queue(s->nic), frame, len);
}

static uint64_t wren_now_ns(void *opaque)
{
	return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void wren_timer_mod(void *opaque, uint64_t deadline_ns)
{
	WrenState *s = opaque;

	if (deadline_ns == UINT64_MAX) {
		timer_del(s->timer);
		return;
	}
	timer_mod(s->timer, (int64_t)MIN(deadline_ns, (uint64_t)INT64_MAX));
}

static void wren_schedule(void *opaque)
{
	WrenState *s = opaque;

	s->process_pending = true;
	if (!s->caller_runs_pass)
		qemu_bh_schedule(s->bh);
}

static void wren_log(void *opaque, const char *msg)
{
	PCIDevice *pdev = PCI_DEVICE(opaque);

	/*
	 * Model messages are about what the driver asked for: -d guest_errors.
	 * The PCI address tells the NICs of one machine apart.
	 */
	qemu_log_mask(LOG_GUEST_ERROR, "%02x:%02x.%x %s\n",
		      pci_dev_bus_num(pdev), PCI_SLOT(pdev->devfn),
		      PCI_FUNC(pdev->devfn), msg);
}

static const struct wrenhw_host_ops wren_host_ops = {
	.dma_read = wren_dma_read,
	.dma_write = wren_dma_write,
	.irq_notify = wren_irq_notify,
	.tx_frame = wren_tx_frame,
	.now_ns = wren_now_ns,
	.timer_mod = wren_timer_mod,
	.schedule = wren_schedule,
	.log = wren_log,
};

/* ---- deferred work ---- */

static void wren_process(WrenState *s)
{
	if (s->process_pending) {
		s->process_pending = false;
		wren_model_enter(s);
		wrenhw_process(s->hw);
		wren_model_leave(s);
	}
}

static void wren_bh(void *opaque)
{
	WrenState *s = opaque;

	wren_process(s);
	if (s->rx_flush_pending) {
		s->rx_flush_pending = false;
		if (s->wire_path)
			wren_wire_rx_resume(&s->wire);
		else
			qemu_flush_queued_packets(qemu_get_queue(s->nic));
	}
}

static void wren_timer_cb(void *opaque)
{
	WrenState *s = opaque;

	wren_model_enter(s);
	wrenhw_timer_expired(s->hw);
	wren_model_leave(s);
}

/* ---- MMIO: BAR0 registers and BAR2 doorbells ---- */

/*
 * The NIC decodes 32- and 64-bit naturally aligned accesses only.  Anything
 * else completes the way a PCIe completer answers an unsupported request:
 * reads return all-ones, writes are dropped.  The model never sees them.
 */
static bool wren_access_ok(WrenState *s, unsigned int bar, hwaddr off,
			   unsigned int size)
{
	uint64_t used = bar == WREN_BAR_REGS ? s->regs_used : s->db_used;

	return (size == 4 || size == 8) && !(off & (size - 1)) &&
	       off + size <= used;
}

static uint64_t wren_mmio_read(WrenState *s, unsigned int bar, hwaddr off,
			       unsigned int size)
{
	uint64_t val;

	if (!wren_access_ok(s, bar, off, size))
		return size == 8 ? UINT64_MAX : MAKE_64BIT_MASK(0, size * 8);
	wren_model_enter(s);
	val = wrenhw_mmio_read(s->hw, bar, off, size);
	wren_model_leave(s);
	return val;
}

static void wren_mmio_write(WrenState *s, unsigned int bar, hwaddr off,
			    uint64_t val, unsigned int size)
{
	if (!wren_access_ok(s, bar, off, size)) {
		qemu_log_mask(LOG_GUEST_ERROR,
			      "wren: dropped %u-byte write to BAR%u+0x%" HWADDR_PRIx "\n",
			      size, bar, off);
		return;
	}
	wren_model_enter(s);
	wrenhw_mmio_write(s->hw, bar, off, val, size);
	wren_model_leave(s);
}

static uint64_t wren_regs_read(void *opaque, hwaddr off, unsigned int size)
{
	return wren_mmio_read(opaque, WREN_BAR_REGS, off, size);
}

static void wren_regs_write(void *opaque, hwaddr off, uint64_t val,
			    unsigned int size)
{
	wren_mmio_write(opaque, WREN_BAR_REGS, off, val, size);
}

static uint64_t wren_db_read(void *opaque, hwaddr off, unsigned int size)
{
	return wren_mmio_read(opaque, WREN_BAR_DB, off, size);
}

/*
 * The work a doorbell starts (a pass over the rung queues, bounded by the
 * model's budget; the rest goes to the bottom half) runs in the vCPU that
 * rang it, once the model has returned from the write.  Handing it to the
 * main loop cost a thread wake-up on the host for every message, which on
 * a two-core host with busy-polling guests was the larger part of a small
 * message's latency.  The guest sees a doorbell write that takes longer,
 * as with a device whose write is not posted; nothing else changes.
 */
static void wren_db_write(void *opaque, hwaddr off, uint64_t val,
			  unsigned int size)
{
	WrenState *s = opaque;

	s->caller_runs_pass = true;
	wren_mmio_write(s, WREN_BAR_DB, off, val, size);
	s->caller_runs_pass = false;
	if (!s->process_pending)
		return;
	if (s->model_depth)
		qemu_bh_schedule(s->bh);
	else
		wren_process(s);
}

/* Accept every size and alignment on the bus so that wren_access_ok() decides. */
#define WREN_MMIO_ACCESS					\
	.endianness = DEVICE_LITTLE_ENDIAN,			\
	.valid = { .min_access_size = 1, .max_access_size = 8,	\
		   .unaligned = true },				\
	.impl = { .min_access_size = 1, .max_access_size = 8,	\
		  .unaligned = true }

static const MemoryRegionOps wren_regs_ops = {
	.read = wren_regs_read,
	.write = wren_regs_write,
	WREN_MMIO_ACCESS,
};

static const MemoryRegionOps wren_db_ops = {
	.read = wren_db_read,
	.write = wren_db_write,
	WREN_MMIO_ACCESS,
};

/* ---- the wire ---- */

static bool wren_can_receive(NetClientState *nc)
{
	WrenState *s = qemu_get_nic_opaque(nc);

	if (s->model_depth) {
		s->rx_flush_pending = true;
		qemu_bh_schedule(s->bh);
		return false;
	}
	return true;
}

static ssize_t wren_receive(NetClientState *nc, const uint8_t *buf,
			    size_t size)
{
	WrenState *s = qemu_get_nic_opaque(nc);

	if (!wren_can_receive(nc))
		return 0;	/* queued by QEMU, flushed from the bottom half */
	/* A frame the model drops is gone, as on a real MAC: no backpressure. */
	wren_model_enter(s);
	wrenhw_rx_frame(s->hw, buf, size);
	wren_model_leave(s);
	return size;
}

static bool wren_wire_rx(void *opaque, const uint8_t *frame, size_t len)
{
	WrenState *s = opaque;

	if (s->model_depth) {
		s->rx_flush_pending = true;
		qemu_bh_schedule(s->bh);
		return false;
	}
	wren_model_enter(s);
	s->caller_runs_pass = true;
	wrenhw_rx_frame(s->hw, frame, len);
	s->caller_runs_pass = false;
	wren_model_leave(s);
	return true;
}

/*
 * Passes of the model a batch of received frames may run in the wire's
 * reading thread: four of WHW_ROCE_BUDGET packets a QP cover an RC window
 * of 1 KiB packets (WHW_RC_WINDOW_BYTES), so a stream's next packets do
 * not wait for the main loop, while a burst of work on many QPs still
 * leaves the thread to read again within a few passes.
 */
#define WREN_WIRE_RX_PASSES	4

/*
 * The work a batch of received frames started (ACKs, the responder's READ
 * data, the requester's next packets) runs in the wire's reading thread,
 * as a doorbell's does in the vCPU: from that thread, the bottom half
 * woke the main loop for every batch, and ib_send_lat's median rose
 * (bench.rst).  Unlike the vCPU, whose guest waits for its doorbell
 * write, the thread goes on past the model's budget: a pass that left
 * work handed it to the bottom half, and the main loop, woken for it,
 * then fought this thread and the vCPU for the BQL (bench.rst, what each
 * thread does a frame).
 * What is left after WREN_WIRE_RX_PASSES goes to the bottom half.
 */
static void wren_wire_rx_batch(void *opaque)
{
	WrenState *s = opaque;
	unsigned int passes = WREN_WIRE_RX_PASSES;

	s->caller_runs_pass = true;
	while (s->process_pending && passes--)
		wren_process(s);
	s->caller_runs_pass = false;
	if (s->process_pending)
		qemu_bh_schedule(s->bh);
}

static void wren_update_link(WrenState *s)
{
	NetClientState *nc;
	bool up;

	if (s->wire_path) {
		up = wren_wire_connected(&s->wire);
	} else {
		nc = qemu_get_queue(s->nic);
		up = !nc->link_down && nc->peer && !nc->peer->link_down;
	}
	wren_model_enter(s);
	wrenhw_set_link(s->hw, up, s->link_speed_mbps);
	wren_model_leave(s);
}

static void wren_link_status_changed(NetClientState *nc)
{
	wren_update_link(qemu_get_nic_opaque(nc));
}

static void wren_wire_down(void *opaque)
{
	wren_update_link(opaque);
}

static NetClientInfo wren_net_info = {
	.type = NET_CLIENT_DRIVER_NIC,
	.size = sizeof(NICState),
	.can_receive = wren_can_receive,
	.receive = wren_receive,
	.link_status_changed = wren_link_status_changed,
};

/* ---- PCI device ---- */

static void wren_reset(DeviceState *dev)
{
	WrenState *s = WREN(dev);

	timer_del(s->timer);
	qemu_bh_cancel(s->bh);
	s->process_pending = false;
	wren_model_enter(s);
	wrenhw_reset(s->hw);
	wren_model_leave(s);
	/* The cable stays plugged across a function reset. */
	wren_update_link(s);
	if (s->rx_flush_pending)
		qemu_bh_schedule(s->bh);
}

static void wren_write_config(PCIDevice *pdev, uint32_t addr, uint32_t val,
			      int len)
{
	pci_default_write_config(pdev, addr, val, len);
	/* Initiate-FLR ends in pci_device_reset(), hence in wren_reset(). */
	pcie_cap_flr_write_config(pdev, addr, val, len);
}

/*
 * The model says how many bytes of a BAR it decodes; the BAR itself is that
 * rounded up to a power of two, and the tail reads as all-ones.
 */
static bool wren_bar_size(WrenState *s, unsigned int bar, uint64_t min,
			  uint64_t *used, Error **errp)
{
	*used = wrenhw_bar_size(s->hw, bar);
	if (*used < min || *used > 1 * TiB) {
		error_setg(errp, "model reports BAR%u size 0x%" PRIx64
			   ", outside [0x%" PRIx64 ", 1 TiB]", bar, *used, min);
		return false;
	}
	return true;
}

static uint64_t wren_serial_number(const uint8_t *mac)
{
	uint64_t dsn = 0;

	/* EUI-64 from the MAC, as e1000e does: stable and unique per NIC. */
	for (int i = 0; i < 3; i++)
		dsn = dsn << 8 | mac[i];
	dsn = dsn << 16 | 0xfffe;
	for (int i = 3; i < 6; i++)
		dsn = dsn << 8 | mac[i];
	return dsn;
}

static bool wren_init_msix(WrenState *s, Error **errp)
{
	PCIDevice *pdev = PCI_DEVICE(s);
	uint64_t table = (uint64_t)s->num_msix * PCI_MSIX_ENTRY_SIZE;
	uint64_t pba_off = ROUND_UP(table, 4 * KiB);
	uint64_t pba = DIV_ROUND_UP(s->num_msix, 64) * 8;
	uint64_t size = pow2ceil(pba_off + pba);

	memory_region_init(&s->msix, OBJECT(s), "wren-msix", size);
	pci_register_bar(pdev, WREN_BAR_MSIX, PCI_BASE_ADDRESS_SPACE_MEMORY |
			 PCI_BASE_ADDRESS_MEM_TYPE_64, &s->msix);
	if (msix_init(pdev, s->num_msix, &s->msix, WREN_BAR_MSIX, 0,
		      &s->msix, WREN_BAR_MSIX, pba_off, 0, errp) < 0)
		return false;
	for (unsigned int v = 0; v < s->num_msix; v++)
		msix_vector_use(pdev, v);
	return true;
}

static void wren_realize(PCIDevice *pdev, Error **errp)
{
	WrenState *s = WREN(pdev);
	DeviceState *dev = DEVICE(pdev);
	struct wrenhw_config cfg = { 0 };

	if (s->num_msix < WREN_MSIX_MIN_VECTORS ||
	    s->num_msix > WREN_MSIX_MAX_VECTORS) {
		error_setg(errp, "vectors=%u, must be in [%u, %u]",
			   s->num_msix, WREN_MSIX_MIN_VECTORS,
			   WREN_MSIX_MAX_VECTORS);
		return;
	}
	if (!s->num_db_pages || s->num_db_pages > WREN_MAX_DB_PAGES) {
		error_setg(errp, "db-pages=%u, must be in [1, %u]",
			   s->num_db_pages, WREN_MAX_DB_PAGES);
		return;
	}

	if (s->wire_path && s->conf.peers.ncs[0]) {
		error_setg(errp, "wire and netdev are two cables for one port:"
			   " give one of them");
		return;
	}
	qemu_macaddr_default_if_unset(&s->conf.macaddr);
	memcpy(cfg.mac, s->conf.macaddr.a, sizeof(cfg.mac));
	cfg.num_msix = s->num_msix;
	cfg.num_db_pages = s->num_db_pages;
	cfg.link_speed_mbps = s->link_speed_mbps;
	cfg.no_dcb = !s->dcb;

	s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, wren_timer_cb, s);
	s->bh = qemu_bh_new_guarded(wren_bh, s, &dev->mem_reentrancy_guard);

	s->hw = wrenhw_create(&cfg, &wren_host_ops, s);
	if (!s->hw) {
		error_setg(errp, "the device model rejected its configuration"
			   " (vectors=%u db-pages=%u speed=%u)",
			   s->num_msix, s->num_db_pages, s->link_speed_mbps);
		goto err_timers;
	}
	if (!wren_bar_size(s, WREN_BAR_REGS, WREN_REGS_SIZE, &s->regs_used,
			   errp) ||
	    !wren_bar_size(s, WREN_BAR_DB, WREN_DB_PAGE_SIZE, &s->db_used,
			   errp))
		goto err_model;

	pdev->config_write = wren_write_config;
	pci_config_set_prog_interface(pdev->config, WREN_PCI_CLASS & 0xff);
	/* MSI-X only: no INTx pin, so no driver falls back to legacy IRQs. */
	pdev->config[PCI_INTERRUPT_PIN] = 0;

	memory_region_init_io(&s->regs, OBJECT(s), &wren_regs_ops, s,
			      "wren-regs", pow2ceil(s->regs_used));
	pci_register_bar(pdev, WREN_BAR_REGS, PCI_BASE_ADDRESS_SPACE_MEMORY |
			 PCI_BASE_ADDRESS_MEM_TYPE_64, &s->regs);
	memory_region_init_io(&s->doorbells, OBJECT(s), &wren_db_ops, s,
			      "wren-doorbells", pow2ceil(s->db_used));
	pci_register_bar(pdev, WREN_BAR_DB, PCI_BASE_ADDRESS_SPACE_MEMORY |
			 PCI_BASE_ADDRESS_MEM_TYPE_64 |
			 PCI_BASE_ADDRESS_MEM_PREFETCH, &s->doorbells);

	if (pcie_endpoint_cap_init(pdev, WREN_PCIE_CAP_OFFSET) < 0) {
		error_setg(errp, "cannot add the PCIe capability");
		goto err_model;
	}
	pcie_cap_flr_init(pdev);
	pcie_dev_ser_num_init(pdev, WREN_DSN_OFFSET,
			      wren_serial_number(s->conf.macaddr.a));
	if (!wren_init_msix(s, errp))
		goto err_pcie;

	if (s->wire_path) {
		if (!wren_wire_connect(&s->wire, s->wire_path, wren_wire_rx,
				       wren_wire_rx_batch, wren_wire_down, s,
				       errp))
			goto err_msix;
	} else {
		s->nic = qemu_new_nic(&wren_net_info, &s->conf,
				      object_get_typename(OBJECT(s)), dev->id,
				      &dev->mem_reentrancy_guard, s);
		qemu_format_nic_info_str(qemu_get_queue(s->nic),
					 s->conf.macaddr.a);
	}
	wren_update_link(s);
	return;

err_msix:
	msix_unuse_all_vectors(pdev);
	msix_uninit(pdev, &s->msix, &s->msix);
err_pcie:
	pcie_cap_exit(pdev);
err_model:
	wrenhw_destroy(s->hw);
	s->hw = NULL;
err_timers:
	qemu_bh_delete(s->bh);
	timer_free(s->timer);
}

static void wren_exit(PCIDevice *pdev)
{
	WrenState *s = WREN(pdev);

	/* No frame may reach the model once it is gone. */
	if (s->wire_path)
		wren_wire_close(&s->wire);
	else
		qemu_del_nic(s->nic);
	timer_free(s->timer);
	qemu_bh_delete(s->bh);
	wrenhw_destroy(s->hw);
	s->hw = NULL;
	msix_unuse_all_vectors(pdev);
	msix_uninit(pdev, &s->msix, &s->msix);
	pcie_cap_exit(pdev);
}

static Property wren_properties[] = {
	DEFINE_NIC_PROPERTIES(WrenState, conf),
	DEFINE_PROP_UINT32("vectors", WrenState, num_msix, 32),
	DEFINE_PROP_UINT32("db-pages", WrenState, num_db_pages, 256),
	DEFINE_PROP_UINT32("speed", WrenState, link_speed_mbps, 100000),
	/* off: a board without DCB and ECN/DCQCN (wrenhw_config.no_dcb). */
	DEFINE_PROP_BOOL("dcb", WrenState, dcb, true),
	/* A fabric port's unix socket, cabled without a netdev (wren_wire.c). */
	DEFINE_PROP_STRING("wire", WrenState, wire_path),
	DEFINE_PROP_END_OF_LIST(),
};

/* Queue, MR and connection state live in the model: not migratable. */
static const VMStateDescription wren_vmstate = {
	.name = TYPE_WREN,
	.unmigratable = 1,
};

static void wren_class_init(ObjectClass *klass, void *data)
{
	DeviceClass *dc = DEVICE_CLASS(klass);
	PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

	k->realize = wren_realize;
	k->exit = wren_exit;
	k->vendor_id = WREN_PCI_VENDOR_ID;
	k->device_id = WREN_PCI_DEVICE_ID;
	k->revision = WREN_PCI_REVISION;
	k->class_id = WREN_PCI_CLASS >> 8;
	k->subsystem_vendor_id = WREN_PCI_SUBSYS_VENDOR_ID;
	k->subsystem_id = WREN_PCI_SUBSYS_ID;

	dc->desc = "Wren RoCEv2 RDMA NIC";
	dc->reset = wren_reset;
	dc->vmsd = &wren_vmstate;
	device_class_set_props(dc, wren_properties);
	set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo wren_info = {
	.name = TYPE_WREN,
	.parent = TYPE_PCI_DEVICE,
	.instance_size = sizeof(WrenState),
	.class_init = wren_class_init,
	.interfaces = (InterfaceInfo[]) {
		{ INTERFACE_PCIE_DEVICE },
		{ }
	},
};

static void wren_register_types(void)
{
	type_register_static(&wren_info);
}

type_init(wren_register_types)
