/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Wren NIC hardware contract: event queue entries, completion queue
 * entries, RDMA work queue entries and Ethernet descriptors.
 *
 * Ring rules shared by every device-written ring (ACQ, AEQ, EQ, CQ): the
 * device writes an entry with the last byte ("owner") written last; bit 0
 * of owner is the phase, 1 on the first pass over the ring and flipped on
 * every wrap.  Software owns an entry when its phase matches the pass it
 * expects, and must read the rest of the entry only after that check
 * (dma_rmb() / udma_from_device_barrier()).
 *
 * Producer and consumer indexes are free-running counters; the slot is
 * index & (entries - 1).
 */
#ifndef _LINUX_WREN_QUEUES_H
#define _LINUX_WREN_QUEUES_H

#include <linux/types.h>

/* ------------------------------------------------------------ rings */

/* Bit 0 of the owner byte of ACQ entries, EQEs and CQEs. */
#define WREN_OWNER_PHASE		0x01

/**
 * wren_ring_phase() - owner bits of an entry of a device-written ring
 * @index: free-running producer index of the entry
 * @log_size: log2 of the ring's entries
 *
 * The phase is set on the first pass over the ring and flips on every
 * wrap; software zeroes a ring before handing it over, so no slot looks
 * written on the first pass.  The device writes this into the owner byte.
 *
 * Return: WREN_OWNER_PHASE or 0.
 */
static inline __u8 wren_ring_phase(__u32 index, unsigned int log_size)
{
	return ((index >> log_size) & 1) ? 0 : WREN_OWNER_PHASE;
}

/**
 * wren_ring_owned() - whether the device has written the entry at @ci
 * @owner: the entry's owner byte, read before the rest of the entry
 * @ci: software's free-running consumer index
 * @log_size: log2 of the ring's entries
 *
 * Return: non-zero when the entry belongs to software on the pass it is
 * on; read the rest only after a dma_rmb() / udma_from_device_barrier().
 */
static inline int wren_ring_owned(__u8 owner, __u32 ci, unsigned int log_size)
{
	return (owner & WREN_OWNER_PHASE) == wren_ring_phase(ci, log_size);
}

/*
 * QPNs and PSNs are 24 bits, as in the BTH: PSN arithmetic is modulo
 * 2^24, and a QPN, PSN or destination QPN given to the device above that
 * is an error.
 */
#define WREN_QPN_MASK			0x00ffffffu
#define WREN_PSN_MASK			0x00ffffffu

/* ------------------------------------------------------------ events */

#define WREN_EQE_SIZE			16
#define WREN_EQ_LOG_SIZE_MIN		1
#define WREN_EQ_LOG_SIZE_MAX		16

enum wren_event_type {
	WREN_EVENT_COMP			= 0x00, /* data: cqn */
	WREN_EVENT_PORT_STATE		= 0x01, /* sub: wren_port_state, data: speed */
	WREN_EVENT_QP_FATAL		= 0x02, /* data: qpn, sub: wren_wq_syndrome */
	WREN_EVENT_QP_REQ_ERR		= 0x03, /* data: qpn */
	WREN_EVENT_QP_ACCESS_ERR	= 0x04, /* data: qpn */
	WREN_EVENT_QP_COMM_EST		= 0x05, /* data: qpn */
	WREN_EVENT_QP_SQ_DRAINED	= 0x06, /* data: qpn */
	WREN_EVENT_QP_LAST_WQE		= 0x07, /* data: qpn */
	WREN_EVENT_SRQ_LIMIT		= 0x08, /* data: srqn */
	WREN_EVENT_SRQ_ERR		= 0x09, /* data: srqn */
	WREN_EVENT_CQ_ERR		= 0x0a, /* data: cqn, sub: wren_cq_syndrome */
	WREN_EVENT_EQ_OVERRUN		= 0x0b, /* data: eqn or WREN_EQN_AEQ */
	WREN_EVENT_DEVICE_FATAL		= 0x0c, /* data: wren_fatal_syndrome */
	WREN_EVENT_AQ_ERR		= 0x0d, /* data: AQ_PI written, beyond the ring */
	WREN_EVENT_PFC_STORM		= 0x0e, /* data: priorities in storm */
	WREN_EVENT_ETH_QUEUE_ERR	= 0x0f, /* data: queue, sub: wren_wq_syndrome */
	WREN_EVENT_DB_ERR		= 0x10, /* data: queue, data2: page */
	WREN_EVENT_CC_RATE		= 0x11, /* data: qpn, data2: kbps, data3: alpha */
};

/* WREN_EVENT_PFC_STORM: sub says which watchdog, data its storm priorities. */
enum wren_pfc_storm_dir {
	WREN_PFC_STORM_RX		= 1, /* paused too long: pauses ignored */
	WREN_PFC_STORM_TX		= 2, /* host stuck: no more pauses sent */
};

/* WREN_EVENT_CC_RATE: a DCQCN cut, or the QP back at its full rate. */
enum wren_cc_rate_reason {
	WREN_CC_RATE_CUT		= 1,
	WREN_CC_RATE_RECOVERED		= 2,
};

/* A QP's CUT events after its first: at most one per this many us. */
#define WREN_CC_RATE_CUT_GAP_US		1000

enum wren_wq_syndrome {
	WREN_WQ_SYND_NONE		= 0,
	WREN_WQ_SYND_BAD_INDEX		= 1, /* doorbell index beyond ring */
	WREN_WQ_SYND_BAD_WQE		= 2, /* malformed descriptor */
	WREN_WQ_SYND_DMA		= 3, /* ring or buffer DMA failed */
};

enum wren_cq_syndrome {
	WREN_CQ_SYND_OVERRUN		= 1,
	WREN_CQ_SYND_DMA		= 2,
};

/* EQ_OVERRUN names the AEQ itself (events were dropped) with this. */
#define WREN_EQN_AEQ			0x00ffffff

/* Ring sizes in log2(entries) for queues created by admin commands. */
#define WREN_WQ_LOG_SIZE_MIN		1	/* SQ, RQ, SRQ */
#define WREN_WQ_LOG_SIZE_MAX		15
#define WREN_ETHQ_LOG_SIZE_MIN		1
#define WREN_ETHQ_LOG_SIZE_MAX		15

struct wren_eqe {
	__le32 data;
	__le32 data2;
	__le32 data3;			/* only for events that name it */
	__u8 type;			/* enum wren_event_type */
	__u8 sub;
	__u8 rsvd1;
	__u8 owner;
};

/* ------------------------------------------------------- RDMA CQE */

#define WREN_CQE_SIZE			32
#define WREN_CQE64_SIZE			64
#define WREN_CQ_LOG_SIZE_MIN		1
#define WREN_CQ_LOG_SIZE_MAX		22

/* CREATE_CQ flags. */
#define WREN_CQ_F_CQE64			0x01	/* WREN_CAP_TIMESTAMP: wren_cqe64 */
#define WREN_CQ_F_ALL			WREN_CQ_F_CQE64

/**
 * wren_cqe_stride() - bytes per entry of a CQ
 * @cq_flags: the WREN_CQ_F_* it was created with
 *
 * Return: WREN_CQE64_SIZE or WREN_CQE_SIZE.
 */
static inline unsigned int wren_cqe_stride(__u8 cq_flags)
{
	return cq_flags & WREN_CQ_F_CQE64 ? WREN_CQE64_SIZE : WREN_CQE_SIZE;
}

/**
 * wren_cqe_offset() - where the 32-byte CQE of an entry is in a CQ ring
 * @index: the entry's free-running index
 * @log_size: log2 of the CQ's entries
 * @stride: wren_cqe_stride() of the CQ
 *
 * Every entry ends with its wren_cqe (or wren_eth_cqe), so that the owner
 * byte is the last byte of every entry layout; a 64-byte entry starts
 * with its wren_cqe_ts.
 *
 * Return: the byte offset of the CQE in the ring.
 */
static inline __u64 wren_cqe_offset(__u32 index, unsigned int log_size,
				    unsigned int stride)
{
	return (__u64)(index & ((1u << log_size) - 1)) * stride +
	       stride - WREN_CQE_SIZE;
}

/* Completion status; the values are those of enum ib_wc_status. */
enum wren_cqe_status {
	WREN_CQE_SUCCESS		= 0,
	WREN_CQE_LOC_LEN_ERR		= 1,
	WREN_CQE_LOC_QP_OP_ERR		= 2,
	WREN_CQE_LOC_PROT_ERR		= 4,
	WREN_CQE_WR_FLUSH_ERR		= 5,
	WREN_CQE_MW_BIND_ERR		= 6,
	WREN_CQE_BAD_RESP_ERR		= 7,
	WREN_CQE_LOC_ACCESS_ERR		= 8,
	WREN_CQE_REM_INV_REQ_ERR	= 9,
	WREN_CQE_REM_ACCESS_ERR		= 10,
	WREN_CQE_REM_OP_ERR		= 11,
	WREN_CQE_RETRY_EXC_ERR		= 12,
	WREN_CQE_RNR_RETRY_EXC_ERR	= 13,
	WREN_CQE_REM_ABORT_ERR		= 16,
	WREN_CQE_FATAL_ERR		= 19,
	WREN_CQE_GENERAL_ERR		= 21,
};

/*
 * Whether a status is one of the above: anything else from a confused
 * device is reported as a general error.
 */
static inline int wren_cqe_status_known(__u8 status)
{
	switch (status) {
	case WREN_CQE_SUCCESS:
	case WREN_CQE_LOC_LEN_ERR:
	case WREN_CQE_LOC_QP_OP_ERR:
	case WREN_CQE_LOC_PROT_ERR:
	case WREN_CQE_WR_FLUSH_ERR:
	case WREN_CQE_MW_BIND_ERR:
	case WREN_CQE_BAD_RESP_ERR:
	case WREN_CQE_LOC_ACCESS_ERR:
	case WREN_CQE_REM_INV_REQ_ERR:
	case WREN_CQE_REM_ACCESS_ERR:
	case WREN_CQE_REM_OP_ERR:
	case WREN_CQE_RETRY_EXC_ERR:
	case WREN_CQE_RNR_RETRY_EXC_ERR:
	case WREN_CQE_REM_ABORT_ERR:
	case WREN_CQE_FATAL_ERR:
	case WREN_CQE_GENERAL_ERR:
		return 1;
	default:
		return 0;
	}
}

/*
 * wren_cqe.vendor_err: which of its own checks the device failed a WQE on.
 * 0 with success, flushes and errors the remote side reported (NAKs,
 * retries exhausted).  A diagnostic for people (ib_wc.vendor_err): no
 * software may act on it, and new codes may appear in any minor version.
 */
enum wren_cqe_vendor_err {
	WREN_VERR_NONE			= 0x00,
	/* Send WQEs: the opcode is unknown, not for the QP type, or off. */
	WREN_VERR_SQ_OPCODE		= 0x01,
	/* A reserved field is non-zero, or a UD dest_qpn has 25+ bits. */
	WREN_VERR_SQ_RSVD		= 0x02,
	/* ctrl.wqe_idx is not the low 16 bits of the WQE's index. */
	WREN_VERR_SQ_IDX		= 0x03,
	/*
	 * Segments overrun the stride, or an opcode that takes none
	 * (NOP, REG_MR, LOCAL_INV, BIND_MW, FLUSH, ATOMIC_WRITE) has any.
	 */
	WREN_VERR_SQ_STRIDE		= 0x04,
	/* More SGEs than the device's max_sge. */
	WREN_VERR_SQ_SGES		= 0x05,
	/* Bad inline header or length, or inline on a READ or atomic. */
	WREN_VERR_SQ_INLINE		= 0x06,
	/* An atomic without exactly one 8-byte SGE. */
	WREN_VERR_SQ_ATOMIC		= 0x07,
	/* A READ or atomic on a QP whose max_rd_atomic is 0. */
	WREN_VERR_SQ_RD_ATOMIC		= 0x08,
	/* An unknown ctrl.flags bit. */
	WREN_VERR_SQ_FLAGS		= 0x09,
	/* The AH is unknown or of another PD, or its source GID is gone. */
	WREN_VERR_SQ_AH			= 0x0a,
	/* Longer than the largest message, or a UD send above the path MTU. */
	WREN_VERR_SQ_LENGTH		= 0x0b,
	/* An SGE's lkey check failed, or REG_MR / LOCAL_INV was refused. */
	WREN_VERR_SQ_KEY		= 0x0c,
	/* Reading the payload from local memory failed. */
	WREN_VERR_SQ_DMA		= 0x0d,
	/* BIND_MW refused: window, MR, type, range, rights or QP state. */
	WREN_VERR_SQ_BIND		= 0x0e,
	/* FLUSH: no or an unknown placement type, or an unknown level. */
	WREN_VERR_SQ_FLUSH		= 0x0f,
	/* Requester: a response it cannot take (bad NAK code, opcode, size). */
	WREN_VERR_BAD_RESP		= 0x10,
	/* Requester: writing a READ response or atomic result failed. */
	WREN_VERR_RESP_DMA		= 0x11,
	/* Receive WQEs: reading the WQE or the doorbell record failed. */
	WREN_VERR_RQ_DMA		= 0x21,
	/* ds_count is above max_sge or overruns the stride. */
	WREN_VERR_RQ_SGES		= 0x22,
	/* A reserved field of the wren_rqe is non-zero. */
	WREN_VERR_RQ_RSVD		= 0x23,
	/* wren_rqe.wqe_idx is not the low 16 bits of the WQE's index. */
	WREN_VERR_RQ_IDX		= 0x24,
	/* The RQ's doorbell record is more than the ring ahead. */
	WREN_VERR_RQ_INDEX		= 0x25,
	/* Responder: writing the receive buffer or SEND_INV's invalidation. */
	WREN_VERR_RECV_PROT		= 0x31,
};

/* Requester completions carry the WQE opcode; responder ones these. */
#define WREN_CQE_OP_RECV		0x80
#define WREN_CQE_OP_RECV_RDMA_IMM	0x81

/**
 * wren_cqe_owned() - wren_ring_owned() for a CQE
 * @owner: the CQE's owner byte
 * @ci: the CQ's consumer index
 * @log_size: log2 of the CQ's entries
 *
 * Return: non-zero when the CQE at @ci belongs to software.
 */
static inline int wren_cqe_owned(__u8 owner, __u32 ci, unsigned int log_size)
{
	return wren_ring_owned(owner, ci, log_size);
}

/* A receive completion (of an RQ or SRQ WQE), not a send queue one. */
static inline int wren_cqe_is_recv(__u8 opcode)
{
	return opcode == WREN_CQE_OP_RECV || opcode == WREN_CQE_OP_RECV_RDMA_IMM;
}

#define WREN_CQE_F_IMM			0x0001
#define WREN_CQE_F_INV			0x0002
#define WREN_CQE_F_GRH			0x0004	/* UD: 40-byte GRH prepended */
#define WREN_CQE_F_IPV4			0x0008	/* UD: sender used IPv4 */
#define WREN_CQE_F_VLAN			0x0010
#define WREN_CQE_F_XRC			0x0020	/* receive of an XRC SRQ: src_qp */

struct wren_cqe {
	__le32 byte_len;
	union {
		__be32 imm_data;	/* WREN_CQE_F_IMM: as on the wire */
		__le32 inv_rkey;	/* WREN_CQE_F_INV */
	};
	__le32 qpn;
	__le32 src_qp;			/* UD: sender's QPN; WREN_CQE_F_XRC: srqn */
	__le16 wqe_idx;			/* index of the completed WQE */
	__le16 flags;			/* WREN_CQE_F_* */
	__u8 smac[6];			/* UD: sender's MAC */
	__le16 vlan_tci;
	__u8 opcode;			/* wren_wqe_opcode or WREN_CQE_OP_* */
	__u8 status;			/* enum wren_cqe_status */
	__u8 vendor_err;		/* enum wren_cqe_vendor_err */
	__u8 owner;
};

/*
 * The first half of a 64-byte entry (WREN_CQ_F_CQE64): the device clock
 * (WREN_REG_CLOCK_LO) when the device wrote the completion.  The device
 * writes it before the CQE that follows, whose owner byte it writes last.
 */
struct wren_cqe_ts {
	__le64 timestamp;		/* ns, WREN_CLOCK_KHZ */
	__le32 rsvd[6];
};

/* An Ethernet CQ's 64-byte entry holds a wren_eth_cqe in place of cqe. */
struct wren_cqe64 {
	struct wren_cqe_ts ts;
	struct wren_cqe cqe;
};

/* ------------------------------------------------------------- WQEs */
/*
 * SQ WQEs have a fixed stride per QP (1 << sq_wqe_shift, at least 64
 * bytes): a control segment, the opcode's fixed segments, then ds_count
 * 16-byte data segments (scatter/gather entries, or inline data).
 */
enum wren_wqe_opcode {
	WREN_WQE_NOP			= 0x00,
	WREN_WQE_SEND			= 0x01,
	WREN_WQE_SEND_IMM		= 0x02,
	WREN_WQE_SEND_INV		= 0x03,
	WREN_WQE_RDMA_WRITE		= 0x04,
	WREN_WQE_RDMA_WRITE_IMM		= 0x05,
	WREN_WQE_RDMA_READ		= 0x06,
	WREN_WQE_ATOMIC_CMP_SWP		= 0x07,
	WREN_WQE_ATOMIC_FETCH_ADD	= 0x08,
	WREN_WQE_LOCAL_INV		= 0x09,
	WREN_WQE_REG_MR			= 0x0a,
	WREN_WQE_BIND_MW		= 0x0b,	/* WREN_CAP_RDMA_MW */
	WREN_WQE_FLUSH			= 0x0c,	/* WREN_CAP_RDMA_FLUSH */
	WREN_WQE_ATOMIC_WRITE		= 0x0d,	/* WREN_CAP_RDMA_ATOMIC_WRITE */
};

/* An atomic's one data segment: where the original 8 bytes are written. */
#define WREN_ATOMIC_LEN			8

/**
 * wren_wqe_is_atomic() - is @opcode a compare-and-swap or fetch-and-add
 * @opcode: enum wren_wqe_opcode
 *
 * An atomic WQE carries exactly one data segment of WREN_ATOMIC_LEN bytes
 * and no inline data; the device refuses any other (WREN_VERR_SQ_ATOMIC).
 */
static inline int wren_wqe_is_atomic(__u8 opcode)
{
	return opcode == WREN_WQE_ATOMIC_CMP_SWP ||
	       opcode == WREN_WQE_ATOMIC_FETCH_ADD;
}

/**
 * wren_wqe_is_iba15() - is @opcode one of IBA 1.5's FLUSH or ATOMIC WRITE
 * @opcode: enum wren_wqe_opcode
 *
 * Both carry everything in their fixed segments (wren_wqe_raddr, then
 * wren_wqe_flush or wren_wqe_atomic_write): no data segment, no inline
 * data (WREN_VERR_SQ_STRIDE otherwise).  Each is one request packet,
 * answered by an RDMA READ response of no payload.
 */
static inline int wren_wqe_is_iba15(__u8 opcode)
{
	return opcode == WREN_WQE_FLUSH || opcode == WREN_WQE_ATOMIC_WRITE;
}

/**
 * wren_wqe_is_rd_atomic() - does @opcode need a responder resource
 * @opcode: enum wren_wqe_opcode
 *
 * RDMA READ, the atomics, FLUSH and ATOMIC WRITE wait for a response that
 * holds one of the remote QP's resources; at most max_rd_atomic of them
 * are outstanding, and none on a QP whose max_rd_atomic is 0
 * (WREN_VERR_SQ_RD_ATOMIC).
 */
static inline int wren_wqe_is_rd_atomic(__u8 opcode)
{
	return opcode == WREN_WQE_RDMA_READ || wren_wqe_is_atomic(opcode) ||
	       wren_wqe_is_iba15(opcode);
}

#define WREN_WQE_F_SIGNALED		0x01
#define WREN_WQE_F_FENCE		0x02
#define WREN_WQE_F_SOLICITED		0x04
#define WREN_WQE_F_INLINE		0x08

struct wren_wqe_ctrl {
	__u8 opcode;			/* enum wren_wqe_opcode */
	__u8 flags;			/* WREN_WQE_F_* */
	__u8 ds_count;			/* 16-byte data segments that follow */
	__u8 rsvd0;
	__le16 wqe_idx;			/* producer index, low 16 bits */
	__le16 rsvd1;
	union {
		__be32 imm_data;	/* SEND_IMM, RDMA_WRITE_IMM */
		__le32 inv_rkey;	/* SEND_INV, LOCAL_INV */
	};
	__le32 xrc_srqn;		/* XRC initiator QPs: remote XRC SRQ; else 0 */
};

/* RDMA_WRITE*, RDMA_READ and atomics. */
struct wren_wqe_raddr {
	__le64 raddr;
	__le32 rkey;
	__le32 rsvd;
};

/* Atomics, after wren_wqe_raddr. */
struct wren_wqe_atomic {
	__le64 swap_add;
	__le64 compare;
};

/*
 * FLUSH's placement types (a mask: at least one) and selectivity levels,
 * as IBA 1.5's FETH encodes them.  WREN_FLUSH_RANGE flushes
 * [raddr, raddr + length) of the MR of rkey; WREN_FLUSH_MR all of that MR
 * (raddr and length are not looked at).  Whether the responder honours a
 * type is its QP's and MR's WREN_ACCESS_FLUSH_* (wren_admin.h).
 */
#define WREN_FLUSH_GLOBAL		0x01	/* globally visible */
#define WREN_FLUSH_PERSISTENT		0x02	/* persistent */
#define WREN_FLUSH_TYPES		0x03
#define WREN_FLUSH_RANGE		0
#define WREN_FLUSH_MR			1

/* FLUSH, after wren_wqe_raddr. */
struct wren_wqe_flush {
	__le32 length;			/* WREN_FLUSH_RANGE: bytes */
	__u8 type;			/* WREN_FLUSH_GLOBAL | _PERSISTENT */
	__u8 level;			/* WREN_FLUSH_RANGE or WREN_FLUSH_MR */
	__u8 rsvd0[2];
	__le32 rsvd[2];
};

/*
 * ATOMIC_WRITE, after wren_wqe_raddr: the 8 bytes to write at raddr
 * (8-byte aligned), as they are in memory - the device does not reorder
 * them - placed at once, after every earlier request of the QP.
 */
struct wren_wqe_atomic_write {
	__u8 data[8];
	__le64 rsvd;
};

/* UD and GSI sends. */
struct wren_wqe_ud {
	__le32 ah;
	__le32 dest_qpn;
	__le32 qkey;
	__le32 rsvd;
};

/* REG_MR: make a FREE fast-registration MR valid with a new key. */
struct wren_wqe_reg_mr {
	__le32 key;			/* index << 8 | new key tag */
	__le32 access;			/* WREN_ACCESS_* */
	__le64 iova;
	__le64 length;
	__le64 pbl_addr;		/* __le64 page addresses */
	__le32 npages;
	__u8 page_shift;
	__u8 rsvd0[3];
	__le32 rsvd[2];
};

/*
 * BIND_MW (RC and UC QPs, wren_admin.h "MW"): bind the window of mw_key's
 * index to [addr, addr + length) of the MR named by mr_key, with the new
 * key mw_key, so that its low 8 bits are the window's tag from now on.
 * Errors complete the WQE with WREN_CQE_MW_BIND_ERR (WREN_VERR_SQ_BIND)
 * and move the QP to the error state, as any failed send WQE does.
 */
struct wren_wqe_bind_mw {
	__le32 mw_key;			/* window index << 8 | new key tag */
	__le32 mr_key;			/* lkey of a VALID MR of the QP's PD */
	__le64 addr;			/* in the MR's address space (iova) */
	__le64 length;			/* 0: type 1 unbinds, mr_key unused */
	__le32 access;			/* WREN_ACCESS_REMOTE_* only */
	__u8 type;			/* enum wren_mw_type, the window's */
	__u8 rsvd0[3];
};

struct wren_wqe_sge {
	__le64 addr;
	__le32 length;
	__le32 lkey;
};

/* With WREN_WQE_F_INLINE the data segments hold this, then the bytes. */
struct wren_wqe_inline {
	__le32 length;
	__le32 rsvd[3];
};

/* RQ and SRQ WQEs: a header, then ds_count wren_wqe_sge. */
struct wren_rqe {
	__u8 ds_count;
	__u8 rsvd0;
	__le16 wqe_idx;
	__le32 rsvd[3];
};

/* ------------------------------------------------------ WQE geometry */
/*
 * What a WQE stride holds.  A send WQE's capacity is counted after the
 * largest fixed part every opcode of its QP may use: the control segment
 * and one 16-byte fixed segment (raddr, or the UD address); inline data
 * also needs its wren_wqe_inline header.  Atomics carry wren_wqe_atomic as
 * well, but only ever one SGE, and REG_MR, BIND_MW, FLUSH and
 * ATOMIC_WRITE none: all fit the smallest stride.  A receive WQE holds its
 * wren_rqe header and SGEs.
 */
#define WREN_WQE_SHIFT_MIN		6	/* 64-byte WQEs */
#define WREN_WQE_DS_SIZE		16	/* one data segment */
#define WREN_SQ_WQE_SGE_BASE		32	/* ctrl + raddr or UD address */
#define WREN_SQ_WQE_INLINE_BASE		48	/* ... + wren_wqe_inline */
#define WREN_RQ_WQE_SGE_BASE		16	/* wren_rqe */

/**
 * wren_sq_fixed_size() - offset of a send WQE's first data segment
 * @opcode: enum wren_wqe_opcode
 * @ud: the QP is UD or GSI (sends carry wren_wqe_ud)
 *
 * Return: the bytes of the control segment and of the fixed segments
 * @opcode needs, before its ds_count data segments.
 */
static inline unsigned int wren_sq_fixed_size(__u8 opcode, int ud)
{
	switch (opcode) {
	case WREN_WQE_SEND:
	case WREN_WQE_SEND_IMM:
	case WREN_WQE_SEND_INV:
		return sizeof(struct wren_wqe_ctrl) +
		       (ud ? sizeof(struct wren_wqe_ud) : 0);
	case WREN_WQE_RDMA_WRITE:
	case WREN_WQE_RDMA_WRITE_IMM:
	case WREN_WQE_RDMA_READ:
		return sizeof(struct wren_wqe_ctrl) +
		       sizeof(struct wren_wqe_raddr);
	case WREN_WQE_ATOMIC_CMP_SWP:
	case WREN_WQE_ATOMIC_FETCH_ADD:
		return sizeof(struct wren_wqe_ctrl) +
		       sizeof(struct wren_wqe_raddr) +
		       sizeof(struct wren_wqe_atomic);
	case WREN_WQE_FLUSH:
		return sizeof(struct wren_wqe_ctrl) +
		       sizeof(struct wren_wqe_raddr) +
		       sizeof(struct wren_wqe_flush);
	case WREN_WQE_ATOMIC_WRITE:
		return sizeof(struct wren_wqe_ctrl) +
		       sizeof(struct wren_wqe_raddr) +
		       sizeof(struct wren_wqe_atomic_write);
	case WREN_WQE_REG_MR:
		return sizeof(struct wren_wqe_ctrl) +
		       sizeof(struct wren_wqe_reg_mr);
	case WREN_WQE_BIND_MW:
		return sizeof(struct wren_wqe_ctrl) +
		       sizeof(struct wren_wqe_bind_mw);
	default:
		return sizeof(struct wren_wqe_ctrl);
	}
}

/**
 * wren_inline_ds() - data segments of an inline payload
 * @len: payload bytes
 *
 * Return: the wren_wqe_inline header's segment plus @len bytes rounded up
 * to whole segments: the ds_count of an inline WQE.
 */
static inline unsigned int wren_inline_ds(__u32 len)
{
	return 1 + (len + WREN_WQE_DS_SIZE - 1) / WREN_WQE_DS_SIZE;
}

/**
 * wren_wqe_shift() - the stride that holds a WQE
 * @bytes: bytes the WQE needs
 *
 * Return: log2 of the smallest power of two, at least 2^WREN_WQE_SHIFT_MIN,
 * that holds @bytes.
 */
static inline unsigned int wren_wqe_shift(__u64 bytes)
{
	unsigned int shift = WREN_WQE_SHIFT_MIN;

	while ((1ULL << shift) < bytes)
		shift++;
	return shift;
}

/**
 * wren_sq_wqe_shift() - the SQ stride for a QP's send capacities
 * @max_sge: SGEs a send WQE must hold
 * @max_inline: inline bytes a send WQE must hold, 0 for none
 *
 * Return: log2 of the smallest stride with wren_sq_max_sge() >= @max_sge
 * and wren_sq_max_inline() >= @max_inline.
 */
static inline unsigned int wren_sq_wqe_shift(__u32 max_sge, __u32 max_inline)
{
	__u64 ds = max_sge;

	if (max_inline && wren_inline_ds(max_inline) > ds)
		ds = wren_inline_ds(max_inline);
	return wren_wqe_shift(WREN_SQ_WQE_SGE_BASE + ds * WREN_WQE_DS_SIZE);
}

/**
 * wren_sq_max_sge() - SGEs a send WQE of stride 2^@shift holds
 * @shift: the SQ's sq_wqe_shift, WREN_WQE_SHIFT_MIN or more
 *
 * Return: the data segments after the largest fixed part (see above).
 */
static inline __u32 wren_sq_max_sge(unsigned int shift)
{
	return ((1U << shift) - WREN_SQ_WQE_SGE_BASE) / WREN_WQE_DS_SIZE;
}

/**
 * wren_sq_max_inline() - inline bytes a send WQE of stride 2^@shift holds
 * @shift: the SQ's sq_wqe_shift, WREN_WQE_SHIFT_MIN or more
 *
 * Return: the bytes after the largest fixed part and the inline header;
 * the device rejects a QP whose max_inline exceeds it.
 */
static inline __u32 wren_sq_max_inline(unsigned int shift)
{
	return (1U << shift) - WREN_SQ_WQE_INLINE_BASE;
}

/**
 * wren_rq_wqe_shift() - the RQ or SRQ stride that holds @max_sge SGEs
 * @max_sge: SGEs a receive WQE must hold
 *
 * Return: log2 of the smallest stride with wren_rq_max_sge() >= @max_sge.
 */
static inline unsigned int wren_rq_wqe_shift(__u32 max_sge)
{
	return wren_wqe_shift(WREN_RQ_WQE_SGE_BASE +
			      (__u64)max_sge * WREN_WQE_DS_SIZE);
}

/**
 * wren_rq_max_sge() - SGEs a receive WQE of stride 2^@shift holds
 * @shift: the RQ's rq_wqe_shift or the SRQ's wqe_shift
 *
 * Return: the SGEs after the wren_rqe header.
 */
static inline __u32 wren_rq_max_sge(unsigned int shift)
{
	return ((1U << shift) - WREN_RQ_WQE_SGE_BASE) / WREN_WQE_DS_SIZE;
}

/**
 * wren_wq_log_size_max() - the largest SQ, RQ or SRQ a device allows
 * @max_wr: the device's max_qp_wr or max_srq_wr
 *
 * Return: log2 of the largest power-of-two ring of at most @max_wr
 * entries, within WREN_WQ_LOG_SIZE_MIN .. WREN_WQ_LOG_SIZE_MAX.
 */
static inline unsigned int wren_wq_log_size_max(__u32 max_wr)
{
	unsigned int log = WREN_WQ_LOG_SIZE_MIN;

	while (log < WREN_WQ_LOG_SIZE_MAX && (2ULL << log) <= max_wr)
		log++;
	return log;
}

/* ---------------------------------------------------------- Ethernet */
/*
 * A packet is one or more TX descriptors; the first carries the offload
 * request, the last has WREN_ETH_TX_F_EOP and produces one completion.
 */
#define WREN_ETH_TX_F_EOP		0x0001
#define WREN_ETH_TX_F_CSUM		0x0002	/* L4 checksum at l4_offset */
#define WREN_ETH_TX_F_IP_CSUM		0x0004	/* IPv4 header checksum */
#define WREN_ETH_TX_F_TSO		0x0008	/* segment by mss */
#define WREN_ETH_TX_F_VLAN		0x0010	/* insert vlan_tci */
#define WREN_ETH_TX_F_IPV6		0x0020
#define WREN_ETH_TX_F_UDP		0x0040	/* L4 is UDP, else TCP */
#define WREN_ETH_TX_F_PRIO		0x0080	/* schedule on prio (DCB_ETS) */

struct wren_eth_tx_desc {
	__le64 addr;
	__le16 len;
	__le16 flags;			/* WREN_ETH_TX_F_* */
	__le16 mss;
	__le16 vlan_tci;
	__u8 l3_offset;
	__u8 l4_offset;
	__u8 hdr_len;			/* TSO: all headers */
	__u8 prio;			/* WREN_ETH_TX_F_PRIO: 802.1p priority */
	__le32 rsvd1;
	__le64 rsvd2;
};

struct wren_eth_rx_desc {
	__le64 addr;
	__le16 len;			/* buffer size */
	__le16 rsvd0;
	__le32 rsvd1;
};

#define WREN_ETH_CQE_TX			0x40
#define WREN_ETH_CQE_RX			0x41

#define WREN_ETH_RX_F_EOP		0x0001	/* last buffer of the frame */
#define WREN_ETH_RX_F_L3_CSUM_OK	0x0002
#define WREN_ETH_RX_F_L4_CSUM_OK	0x0004
#define WREN_ETH_RX_F_CSUM_BAD		0x0008
#define WREN_ETH_RX_F_VLAN		0x0010	/* tag stripped to vlan_tci */
#define WREN_ETH_RX_F_RSS		0x0020	/* rss_hash valid */
#define WREN_ETH_RX_F_IPV4		0x0040
#define WREN_ETH_RX_F_IPV6		0x0080
#define WREN_ETH_RX_F_TCP		0x0100
#define WREN_ETH_RX_F_UDP		0x0200

/* Ethernet completions share CQs and the 32-byte slot with wren_cqe. */
struct wren_eth_cqe {
	__le32 rss_hash;
	__le16 desc_idx;		/* TX: EOP descriptor; RX: buffer */
	__le16 len;			/* RX: bytes in this buffer */
	__le16 vlan_tci;
	__le16 flags;			/* WREN_ETH_RX_F_* */
	__le32 queue;
	__le32 rsvd0[3];
	__u8 type;			/* WREN_ETH_CQE_* */
	__u8 status;			/* enum wren_wq_syndrome */
	__u8 rsvd1;
	__u8 owner;
};

#endif /* _LINUX_WREN_QUEUES_H */
