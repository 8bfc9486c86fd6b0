/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Wren NIC hardware contract: PCI identity, BARs, registers, doorbells.
 *
 * Shared verbatim by the kernel driver, the device model and the rdma-core
 * provider, so it uses only fixed-width types from <linux/types.h> and plain
 * macros.  Documentation/networking/device_drivers/wren/contract.rst is the
 * description for people; keep both in step.
 */
#ifndef _LINUX_WREN_REGS_H
#define _LINUX_WREN_REGS_H

#include <linux/const.h>
#include <linux/types.h>

/* ---------------------------------------------------------------- PCI */

#define WREN_PCI_VENDOR_ID		0x1f57
#define WREN_PCI_DEVICE_ID		0x0001
#define WREN_PCI_SUBSYS_VENDOR_ID	0x1f57
#define WREN_PCI_SUBSYS_ID		0x0001
#define WREN_PCI_CLASS			0x020000	/* Ethernet controller */
#define WREN_PCI_REVISION		0x01

/* BAR numbers.  All three are 64-bit memory BARs. */
#define WREN_BAR_REGS			0	/* registers, WREN_REGS_SIZE */
#define WREN_BAR_DB			2	/* doorbell pages, prefetchable */
#define WREN_BAR_MSIX			4	/* MSI-X table and PBA */

#define WREN_REGS_SIZE			0x10000

/*
 * BAR2 is an array of 4 KiB doorbell pages.  Every queue is bound at
 * creation to one page (its "UAR"), and the device ignores doorbells for a
 * queue rung through any other page, so one process that has a page mapped
 * can never ring another's queues.  Page 0 belongs to the kernel driver.
 */
#define WREN_DB_PAGE_SHIFT		12
#define WREN_DB_PAGE_SIZE		4096u	/* 1 << WREN_DB_PAGE_SHIFT */
#define WREN_KERNEL_UAR			0

/* Contract version: major changes are incompatible, minor ones additive. */
#define WREN_CONTRACT_MAJOR		1
#define WREN_CONTRACT_MINOR		0

#define WREN_MAGIC			0x4e455257	/* "WREN" */

/* ---------------------------------------------------------- registers */
/* All registers are 32 bits, little-endian, naturally aligned. */

#define WREN_REG_MAGIC			0x0000	/* RO WREN_MAGIC */
#define WREN_REG_CONTRACT		0x0004	/* RO major << 16 | minor */
#define WREN_REG_FW_VERSION		0x0008	/* RO see WREN_FW_VER_* */
#define WREN_REG_FW_BUILD		0x000c	/* RO firmware build number */
#define WREN_REG_CAPS_LO		0x0010	/* RO WREN_CAP_* bits 31:0 */
#define WREN_REG_CAPS_HI		0x0014	/* RO WREN_CAP_* bits 63:32 */
#define WREN_REG_STATUS			0x0018	/* RO WREN_STATUS_* */
#define WREN_REG_CONTROL		0x001c	/* RW WREN_CONTROL_* */
#define WREN_REG_FATAL_SYNDROME		0x0020	/* RO WREN_FATAL_*, 0 = none */
#define WREN_REG_FATAL_INFO		0x0024	/* RO syndrome-specific detail */
#define WREN_REG_HEARTBEAT		0x0028	/* RO +1 per ms while healthy */
#define WREN_REG_NUM_MSIX		0x002c	/* RO MSI-X vectors */
#define WREN_REG_NUM_DB_PAGES		0x0030	/* RO pages in BAR2 */
#define WREN_REG_RESET_TIMEOUT_MS	0x0034	/* RO longest reset */
#define WREN_REG_AQ_TIMEOUT_MS		0x0038	/* RO longest admin command */
#define WREN_REG_SERIAL_LO		0x0040	/* RO board serial, low */
#define WREN_REG_SERIAL_HI		0x0044	/* RO board serial, high */

/* Admin submission queue (AQ) */
#define WREN_REG_AQ_BASE_LO		0x0100	/* RW bus address, 4 KiB aligned */
#define WREN_REG_AQ_BASE_HI		0x0104
#define WREN_REG_AQ_LOG_SIZE		0x0108	/* RW log2(entries) */
#define WREN_REG_AQ_PI			0x010c	/* WO doorbell: producer index */
/* Admin completion queue (ACQ) */
#define WREN_REG_ACQ_BASE_LO		0x0110
#define WREN_REG_ACQ_BASE_HI		0x0114
#define WREN_REG_ACQ_LOG_SIZE		0x0118
#define WREN_REG_ACQ_CI			0x011c	/* WO consumer index | WREN_ARM */
#define WREN_REG_MGMT_VECTOR		0x0120	/* RW MSI-X vector of ACQ + AEQ */
#define WREN_REG_AQ_ERROR		0x0124	/* RO why AQ/AEQ enable failed */
/* Asynchronous event queue (AEQ) */
#define WREN_REG_AEQ_BASE_LO		0x0130
#define WREN_REG_AEQ_BASE_HI		0x0134
#define WREN_REG_AEQ_LOG_SIZE		0x0138
#define WREN_REG_AEQ_CI			0x013c	/* WO consumer index | WREN_ARM */

/*
 * Writing a consumer index with WREN_ARM set asks for one interrupt when
 * the next entry is written (or at once if entries are already pending).
 */
#define WREN_ARM			0x80000000u
#define WREN_INDEX_MASK			0x7fffffffu

#define WREN_FW_VER_MAJOR(v)		(((v) >> 24) & 0xff)
#define WREN_FW_VER_MINOR(v)		(((v) >> 16) & 0xff)
#define WREN_FW_VER_PATCH(v)		((v) & 0xffff)

#define WREN_STATUS_READY		0x00000001u /* registers usable */
#define WREN_STATUS_FATAL		0x00000002u /* see FATAL_SYNDROME */
#define WREN_STATUS_RESETTING		0x00000004u
#define WREN_STATUS_AQ_READY		0x00000008u
#define WREN_STATUS_AEQ_READY		0x00000010u
#define WREN_STATUS_LINK_UP		0x00000020u

#define WREN_CONTROL_RESET		0x00000001u /* self-clearing */
#define WREN_CONTROL_AQ_ENABLE		0x00000002u /* AQ + ACQ */
#define WREN_CONTROL_AEQ_ENABLE		0x00000004u

/* Queue sizes programmed through registers, in log2(entries). ACQ: AQ's. */
#define WREN_AQ_LOG_SIZE_MIN		1
#define WREN_AQ_LOG_SIZE_MAX		12
#define WREN_AEQ_LOG_SIZE_MIN		1
#define WREN_AEQ_LOG_SIZE_MAX		16

/* Why the device went fatal (WREN_REG_FATAL_SYNDROME). */
enum wren_fatal_syndrome {
	WREN_FATAL_NONE			= 0,
	WREN_FATAL_INTERNAL		= 1, /* firmware assertion */
	WREN_FATAL_AQ_DMA		= 2, /* AQ/ACQ ring DMA failed */
	WREN_FATAL_AEQ_DMA		= 3, /* AEQ ring DMA failed */
	WREN_FATAL_INJECTED		= 4, /* WREN_AQ_OP_DIAG_FAULT */
};

/* ------------------------------------------------------- capabilities */
/*
 * Capability bits name optional features.  A driver uses a feature only
 * when its bit is set.  The object commands of the base contract (EQ, UAR,
 * PD, CQ, QP, SRQ, MR, AH, GID, Ethernet queues) are always accepted; the
 * data path behind them runs only for features whose bit is set.  Commands
 * that exist only for an optional feature (DCB, CC, PFC watchdog, DIAG,
 * RESIZE_CQ) fail with NOT_SUPPORTED without their bit.  So any driver
 * works on any device of the same major contract version.
 */
#define WREN_CAP_RDMA_RC		_BITULL(0)
#define WREN_CAP_RDMA_UD		_BITULL(1)
#define WREN_CAP_RDMA_SRQ		_BITULL(2)
#define WREN_CAP_RDMA_ATOMIC		_BITULL(3)
#define WREN_CAP_RDMA_FAST_REG		_BITULL(4)
#define WREN_CAP_RDMA_GSI		_BITULL(5)
#define WREN_CAP_RDMA_SEND_INV		_BITULL(6)
#define WREN_CAP_RDMA_MR_INVALIDATE	_BITULL(7)  /* DEACTIVATE_MR */
#define WREN_CAP_ETH			_BITULL(8)
#define WREN_CAP_ETH_CSUM		_BITULL(9)
#define WREN_CAP_ETH_TSO		_BITULL(10)
#define WREN_CAP_ETH_RSS		_BITULL(11)
#define WREN_CAP_ETH_VLAN		_BITULL(12)
#define WREN_CAP_DCB_ETS		_BITULL(16)
#define WREN_CAP_DCB_PFC		_BITULL(17)
#define WREN_CAP_DCB_DSCP_TRUST		_BITULL(18)
#define WREN_CAP_DCB_BUFFER		_BITULL(19)
#define WREN_CAP_DCB_MAXRATE		_BITULL(20)
#define WREN_CAP_ECN			_BITULL(21)
#define WREN_CAP_DCQCN			_BITULL(22)
#define WREN_CAP_PFC_STORM_WD		_BITULL(23)
#define WREN_CAP_COUNTERS		_BITULL(24)
#define WREN_CAP_FLR			_BITULL(25)
#define WREN_CAP_WQE_PUSH		_BITULL(26)
#define WREN_CAP_CQ_MODERATION		_BITULL(27)
#define WREN_CAP_CQ_RESIZE		_BITULL(28)
#define WREN_CAP_DIAG_FAULT		_BITULL(29)
#define WREN_CAP_RDMA_RESERVED_LKEY	_BITULL(30) /* bus addresses 1:1 */
#define WREN_CAP_RDMA_UC		_BITULL(31)
#define WREN_CAP_RDMA_MW		_BITULL(32) /* memory windows, wren_admin.h */
#define WREN_CAP_RDMA_MCAST		_BITULL(33) /* UD multicast, wren_admin.h */
#define WREN_CAP_RDMA_FLUSH		_BITULL(34) /* IBA 1.5 FLUSH, wren_queues.h */
#define WREN_CAP_RDMA_ATOMIC_WRITE	_BITULL(35) /* IBA 1.5 ATOMIC WRITE */
#define WREN_CAP_TIMESTAMP		_BITULL(36) /* device clock, CQE64 */
#define WREN_CAP_SRQ_RESIZE		_BITULL(37) /* RESIZE_SRQ, wren_admin.h */
#define WREN_CAP_RDMA_XRC		_BITULL(38) /* XRC, wren_admin.h */

/* ------------------------------------------------------- device clock */
/*
 * WREN_CAP_TIMESTAMP: a 64-bit clock counting nanoseconds, which the
 * 64-byte CQEs (WREN_CQ_F_CQE64, wren_queues.h) carry.  It counts from 0
 * at reset; SET_CLOCK sets it (a driver sets it to real time, so that a
 * timestamp is also a wall-clock time).  Its two registers are alone in
 * their own 4 KiB page of BAR0, so that a driver can map that page, and
 * nothing else of BAR0, read-only into a process.  A read takes HI, LO
 * and HI again (wren_clock_join); other offsets of the page read 0.
 */
#define WREN_CLOCK_PAGE			0x1000
#define WREN_REG_CLOCK_LO		0x1000	/* RO bits 31:0 */
#define WREN_REG_CLOCK_HI		0x1004	/* RO bits 63:32 */
#define WREN_CLOCK_KHZ			1000000	/* 1 GHz: ticks are ns */

/**
 * wren_clock_join() - the clock's value from one HI, LO, HI read
 * @hi: the first read of WREN_REG_CLOCK_HI
 * @lo: the read of WREN_REG_CLOCK_LO after it
 * @hi2: the read of WREN_REG_CLOCK_HI after that
 * @ns: the value, when the return is non-zero
 *
 * LO wrapped between the reads when the two HI reads differ; read again.
 *
 * Return: non-zero when @ns holds a consistent value.
 */
static inline int wren_clock_join(__u32 hi, __u32 lo, __u32 hi2, __u64 *ns)
{
	if (hi != hi2)
		return 0;
	*ns = (__u64)hi << 32 | lo;
	return 1;
}

/* ------------------------------------------------------ doorbell page */
/*
 * Doorbells are 64-bit writes, naturally aligned, in the queue's own page.
 * Bits 23:0 name the queue, bits 63:32 carry a free-running index.  Other
 * access sizes, unknown offsets and queues not bound to the page are
 * ignored and counted (WREN_EVENT_DB_ERR reports them once per queue).
 */
#define WREN_DB_SQ			0x000	/* qpn, SQ producer index */
#define WREN_DB_CQ			0x008	/* cqn | WREN_DB_CQ_ARM_*, CI */
#define WREN_DB_EQ			0x010	/* eqn | WREN_DB_EQ_ARM, CI */
#define WREN_DB_ETH_TX			0x018	/* txq, producer index */
#define WREN_DB_ETH_RX			0x020	/* rxq, producer index */
/* Reserved for WQE push; contract 1.0 does not define it. */
#define WREN_DB_PUSH_OFFSET		0x800
#define WREN_DB_PUSH_SIZE		0x800

#define WREN_DB_QUEUE_MASK		0x00ffffffu
#define WREN_DB_CQ_ARM_NEXT		0x01000000u
#define WREN_DB_CQ_ARM_SOLICITED	0x02000000u
#define WREN_DB_CQ_ARM_MASK		0x03000000u
#define WREN_DB_EQ_ARM			0x01000000u
#define WREN_DB_INDEX_SHIFT		32

#define WREN_DB_VAL(queue, flags, index) \
	((((__u64)(index)) << WREN_DB_INDEX_SHIFT) | \
	 ((__u64)((flags) | ((queue) & WREN_DB_QUEUE_MASK))))

#endif /* _LINUX_WREN_REGS_H */
