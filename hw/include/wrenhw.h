/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libwrenhw: the Wren NIC's logic as plain C11, with no QEMU types.
 *
 * The host (QEMU glue, or a unit test) owns the bus and the wire; the model
 * only ever sees what real hardware would: MMIO accesses, DMA at bus
 * addresses, interrupt vectors, Ethernet frames and time.  Every entry point
 * is called from one thread at a time (QEMU's BQL); the model never blocks
 * and never calls back into itself through the host ops.
 */
#ifndef WRENHW_H
#define WRENHW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wrenhw;

/* What the model needs from the machine it is plugged into. */
struct wrenhw_host_ops {
	/*
	 * DMA at a bus address (an IOVA when an IOMMU is present).  Returns 0
	 * on success, non-zero when the bus rejects the access (IOMMU fault,
	 * unmapped address); the model then reports a DMA error the way the
	 * contract says, never crashes.
	 */
	int (*dma_read)(void *opaque, uint64_t addr, void *buf, size_t len);
	int (*dma_write)(void *opaque, uint64_t addr, const void *buf,
			 size_t len);
	/* Signal MSI-X vector @vector (the host applies masking and PBA). */
	void (*irq_notify)(void *opaque, unsigned int vector);
	/* Put one Ethernet frame (no FCS) on the wire. */
	void (*tx_frame)(void *opaque, const void *frame, size_t len);
	/* Monotonic time in nanoseconds. */
	uint64_t (*now_ns)(void *opaque);
	/*
	 * Arm the model's single timer to call wrenhw_timer_expired() at
	 * @deadline_ns (absolute, same clock as now_ns).  UINT64_MAX cancels.
	 * The model counts on an armed timer firing; the host cancels it on
	 * its own only around wrenhw_reset().  It may be armed earlier than
	 * the model needs (it only moves it earlier): such an expiry does
	 * nothing but re-arm it.
	 */
	void (*timer_mod)(void *opaque, uint64_t deadline_ns);
	/*
	 * Ask the host to call wrenhw_process() soon, after the current call
	 * into the model has returned, never from within it (QEMU: in the
	 * vCPU right after a doorbell write returns, else a bottom half).
	 * Admin commands run within their doorbell write instead, up to a
	 * budget; past it, the rest waits for wrenhw_process() too.
	 */
	void (*schedule)(void *opaque);
	/* Optional: a line for the host's log (device-side tracing). */
	void (*log)(void *opaque, const char *msg);
};

/* Board configuration: what a given SKU of the NIC has. */
struct wrenhw_config {
	uint8_t mac[6];
	unsigned int num_msix;		/* MSI-X vectors (>= 2) */
	unsigned int num_db_pages;	/* 4 KiB doorbell pages in BAR2 */
	unsigned int link_speed_mbps;	/* nominal port speed */
	/* 0 selects the model's defaults for these resource limits. */
	unsigned int max_qp, max_cq, max_eq, max_srq, max_pd, max_mr, max_ah;
	unsigned int max_mtt;		/* total MTT entries */
	unsigned int max_mw;		/* memory windows (WREN_CAP_RDMA_MW) */
	/*
	 * A board without the DCB engines (ETS scheduler, PFC, DSCP trust,
	 * buffers, max rate, storm watchdogs) and without ECN/DCQCN: their
	 * capability bits are off and their commands NOT_SUPPORTED, so that
	 * drivers can be tested against a NIC that lacks them.
	 */
	unsigned int no_dcb;
	/*
	 * The host's clock is a discrete-event simulator's, whose timers
	 * fire exactly when due (ns-3), not an emulator's that wakes the
	 * model late (QEMU's TCG).  The port scheduler then hands each frame
	 * to tx_frame at its wire start time instead of up to
	 * WHW_SCHED_SLACK_NS early, so a pause received before that start
	 * stops it, as on a real MAC.  0 (QEMU): the slack, which lets a
	 * burst leave in one go instead of one host timer a frame.
	 */
	unsigned int discrete_clock;
};

struct wrenhw *wrenhw_create(const struct wrenhw_config *cfg,
			     const struct wrenhw_host_ops *ops, void *opaque);
void wrenhw_destroy(struct wrenhw *hw);

/* Bus-level reset (PCI reset or FLR): everything back to power-on state. */
void wrenhw_reset(struct wrenhw *hw);

/* Sizes the host must give the BARs (see include/linux/wren/wren_regs.h). */
uint64_t wrenhw_bar_size(const struct wrenhw *hw, unsigned int bar);

/* MMIO on BAR0 (registers) or BAR2 (doorbell pages); size is 4 or 8. */
uint64_t wrenhw_mmio_read(struct wrenhw *hw, unsigned int bar, uint64_t off,
			  unsigned int size);
void wrenhw_mmio_write(struct wrenhw *hw, unsigned int bar, uint64_t off,
		       uint64_t val, unsigned int size);

/* Deferred work requested through ops->schedule(). */
void wrenhw_process(struct wrenhw *hw);
void wrenhw_timer_expired(struct wrenhw *hw);

/* The wire: a frame arrived (no FCS).  Returns false if the model dropped it. */
bool wrenhw_rx_frame(struct wrenhw *hw, const void *frame, size_t len);
/* Physical link state as the wire (the fabric port) reports it. */
void wrenhw_set_link(struct wrenhw *hw, bool up, unsigned int speed_mbps);

#endif /* WRENHW_H */
