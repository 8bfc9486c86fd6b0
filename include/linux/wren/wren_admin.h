/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Wren NIC hardware contract: the admin (firmware) queue and its commands.
 *
 * The driver writes 64-byte commands into the AQ ring and rings
 * WREN_REG_AQ_PI; the device answers each with a 32-byte entry in the ACQ
 * ring, in order.  Small parameters travel inline in the command; larger
 * structures travel in DMA buffers named by in_addr/in_len and
 * out_addr/out_len.
 *
 * Growth rule: an input structure may only grow at its end.  The device
 * accepts in_len >= the size it was first defined with; bytes it does not
 * know must be zero (else WREN_AQ_STATUS_NOT_SUPPORTED), and missing bytes
 * read as zero.  The device writes min(out_len, its size) output bytes and
 * reports how many in the completion.
 */
#ifndef _LINUX_WREN_ADMIN_H
#define _LINUX_WREN_ADMIN_H

#include <linux/types.h>

#define WREN_AQ_CMD_SIZE		64
#define WREN_ACQ_ENTRY_SIZE		32
#define WREN_AQ_MAX_BUF_LEN		65536	/* per in/out buffer */

enum wren_aq_opcode {
	WREN_AQ_OP_NOP			= 0x00,
	WREN_AQ_OP_QUERY_DEVICE		= 0x01, /* out: wren_device_attr */
	WREN_AQ_OP_QUERY_PORT		= 0x02, /* out: wren_port_attr */
	WREN_AQ_OP_SET_PORT		= 0x03, /* in: wren_set_port_in */
	WREN_AQ_OP_SET_CLOCK		= 0x04, /* inline: set_clock */

	WREN_AQ_OP_CREATE_EQ		= 0x10, /* inline: create_eq */
	WREN_AQ_OP_DESTROY_EQ		= 0x11, /* inline: handle */

	WREN_AQ_OP_ALLOC_UAR		= 0x18, /* result: doorbell page */
	WREN_AQ_OP_DEALLOC_UAR		= 0x19, /* inline: handle */
	WREN_AQ_OP_ALLOC_PD		= 0x1a, /* result: pdn */
	WREN_AQ_OP_DEALLOC_PD		= 0x1b, /* inline: handle */
	WREN_AQ_OP_ALLOC_XRCD		= 0x1c, /* result: xrcdn */
	WREN_AQ_OP_DEALLOC_XRCD		= 0x1d, /* inline: handle */

	WREN_AQ_OP_CREATE_CQ		= 0x20, /* in: wren_create_cq_in */
	WREN_AQ_OP_DESTROY_CQ		= 0x21, /* inline: handle */
	WREN_AQ_OP_MODIFY_CQ		= 0x22, /* inline: modify_cq */
	WREN_AQ_OP_RESIZE_CQ		= 0x23, /* in: wren_resize_cq_in */

	WREN_AQ_OP_CREATE_QP		= 0x28, /* in: wren_create_qp_in */
	WREN_AQ_OP_MODIFY_QP		= 0x29, /* in: wren_modify_qp_in */
	WREN_AQ_OP_QUERY_QP		= 0x2a, /* inline: handle; out: query */
	WREN_AQ_OP_DESTROY_QP		= 0x2b, /* inline: handle */
	WREN_AQ_OP_RESIZE_SRQ		= 0x2f, /* in: wren_resize_srq_in */

	WREN_AQ_OP_CREATE_SRQ		= 0x30, /* in: wren_create_srq_in */
	WREN_AQ_OP_MODIFY_SRQ		= 0x31, /* inline: modify_srq */
	WREN_AQ_OP_QUERY_SRQ		= 0x32, /* inline: handle; out: query */
	WREN_AQ_OP_DESTROY_SRQ		= 0x33, /* inline: handle */
	WREN_AQ_OP_CREATE_MW		= 0x34, /* inline: create_mw */
	WREN_AQ_OP_DESTROY_MW		= 0x35, /* inline: handle = index */
	WREN_AQ_OP_ATTACH_MCAST		= 0x36, /* inline: mcast */
	WREN_AQ_OP_DETACH_MCAST		= 0x37, /* inline: mcast */

	WREN_AQ_OP_CREATE_MR		= 0x38, /* in: wren_create_mr_in */
	WREN_AQ_OP_WRITE_MTT		= 0x39, /* inline: write_mtt; in: __le64[] */
	WREN_AQ_OP_ACTIVATE_MR		= 0x3a, /* inline: handle */
	WREN_AQ_OP_DEACTIVATE_MR	= 0x3b, /* inline: handle */
	WREN_AQ_OP_MODIFY_MR		= 0x3c, /* in: wren_modify_mr_in */
	WREN_AQ_OP_DESTROY_MR		= 0x3d, /* inline: handle */
	WREN_AQ_OP_QUERY_MR		= 0x3e, /* inline: handle; out: query */

	WREN_AQ_OP_CREATE_AH		= 0x40, /* in: wren_create_ah_in */
	WREN_AQ_OP_DESTROY_AH		= 0x41, /* inline: handle */
	WREN_AQ_OP_SET_GID		= 0x42, /* in: wren_set_gid_in */

	WREN_AQ_OP_CREATE_ETH_TXQ	= 0x48, /* in: wren_create_eth_q_in */
	WREN_AQ_OP_DESTROY_ETH_TXQ	= 0x49, /* inline: handle */
	WREN_AQ_OP_CREATE_ETH_RXQ	= 0x4a, /* in: wren_create_eth_q_in */
	WREN_AQ_OP_DESTROY_ETH_RXQ	= 0x4b, /* inline: handle */
	WREN_AQ_OP_SET_RSS		= 0x4c, /* in: wren_set_rss_in */
	WREN_AQ_OP_SET_RX_MODE		= 0x4d, /* in: wren_set_rx_mode_in */

	WREN_AQ_OP_SET_ETS		= 0x50, /* in: wren_ets */
	WREN_AQ_OP_SET_PFC		= 0x51, /* in: wren_pfc */
	WREN_AQ_OP_SET_TRUST		= 0x52, /* in: wren_trust */
	WREN_AQ_OP_SET_BUFFER		= 0x53, /* in: wren_buffer */
	WREN_AQ_OP_SET_MAXRATE		= 0x54, /* in: wren_maxrate */
	WREN_AQ_OP_SET_PFC_WD		= 0x55, /* in: wren_pfc_wd */
	WREN_AQ_OP_QUERY_DCB		= 0x56, /* out: wren_dcb_state */
	WREN_AQ_OP_SET_CC		= 0x58, /* in: wren_cc_params */
	WREN_AQ_OP_QUERY_CC		= 0x59, /* inline: handle = prio; out: cc */

	WREN_AQ_OP_QUERY_COUNTERS	= 0x60, /* inline: counters; out: __le64[] */
	WREN_AQ_OP_CLEAR_COUNTERS	= 0x61, /* inline: counters */

	WREN_AQ_OP_DIAG_FAULT		= 0x70, /* inline: diag_fault */

	WREN_AQ_OP_MAX			= 0x7f,
};

/* Completion status (wren_acq_entry.status). */
enum wren_aq_status {
	WREN_AQ_STATUS_OK		= 0,
	WREN_AQ_STATUS_BAD_OPCODE	= 1,  /* unknown opcode */
	WREN_AQ_STATUS_BAD_PARAM	= 2,  /* a field out of its range */
	WREN_AQ_STATUS_BAD_HANDLE	= 3,  /* no such object */
	WREN_AQ_STATUS_BAD_STATE	= 4,  /* not allowed in object's state */
	WREN_AQ_STATUS_NO_RESOURCES	= 5,  /* table or memory full */
	WREN_AQ_STATUS_BAD_ADDR		= 6,  /* misaligned, zero or overlapping */
	WREN_AQ_STATUS_BAD_SIZE		= 7,  /* queue/buffer size out of range */
	WREN_AQ_STATUS_BUSY		= 8,  /* object still referenced */
	WREN_AQ_STATUS_DMA_ERROR	= 9,  /* the bus refused a DMA */
	WREN_AQ_STATUS_NOT_SUPPORTED	= 10, /* capability absent */
	WREN_AQ_STATUS_BAD_LENGTH	= 11, /* in_len/out_len wrong */
	WREN_AQ_STATUS_PERM		= 12, /* refers to another UAR's object */
	WREN_AQ_STATUS_INTERNAL		= 13,
	WREN_AQ_STATUS_EXISTS		= 14,
};

/*
 * wren_acq_entry.syndrome locates the rejected field so that a failure can
 * be diagnosed from the completion alone: the byte offset of the field in
 * the command (WREN_SYND_CMD) or in the input buffer (WREN_SYND_IN).
 */
#define WREN_SYND_NONE			0
#define WREN_SYND_CMD			0x00010000u
#define WREN_SYND_IN			0x00020000u
#define WREN_SYND_OFFSET(s)		((s) & 0xffff)
#define WREN_SYND_WHERE(s)		((s) & 0xffff0000u)

/*
 * A physically discontiguous buffer (ring or page list).  npages == 0:
 * addr is the bus address of one contiguous buffer aligned to
 * 1 << page_shift.  Otherwise addr is the bus address (8-byte aligned) of
 * a list of npages __le64 bus addresses, each aligned to 1 << page_shift;
 * the device copies the list when the command runs.
 */
struct wren_buf_desc {
	__le64 addr;
	__le32 npages;
	__u8 page_shift;		/* 12 .. 30 */
	__u8 rsvd[3];
};

#define WREN_PAGE_SHIFT_MIN		12
#define WREN_PAGE_SHIFT_MAX		30

/* -------------------------------------------------- command and entry */

struct wren_aq_create_eq {
	struct wren_buf_desc ring;	/* 16-byte wren_eqe entries */
	__u8 log_size;
	__u8 rsvd0;
	__le16 msix_vector;
	__le16 moderation_usec;		/* WREN_CAP_CQ_MODERATION */
	__le16 moderation_count;
	__le32 rsvd1[2];
};

struct wren_aq_handle {
	__le32 handle;			/* eqn, cqn, qpn, srqn, mr index ... */
	__le32 rsvd[7];
};

struct wren_aq_modify_cq {
	__le32 cqn;
	__le32 mask;			/* WREN_MODIFY_CQ_* */
	__le16 moderation_usec;
	__le16 moderation_count;
	__le32 rsvd[5];
};

#define WREN_MODIFY_CQ_MODERATION	0x1

struct wren_aq_modify_srq {
	__le32 srqn;
	__le32 mask;			/* WREN_MODIFY_SRQ_* */
	__le32 limit;			/* arm: WREN_EVENT_SRQ_LIMIT below it */
	__le32 rsvd[5];
};

#define WREN_MODIFY_SRQ_LIMIT		0x1

/* CREATE_MW (WREN_CAP_RDMA_MW): an unbound window; see "MW" below. */
struct wren_aq_create_mw {
	__le32 pdn;
	__u8 type;			/* enum wren_mw_type */
	__u8 key_tag;			/* the key's low 8 bits until a bind */
	__u8 rsvd0[2];
	__le32 rsvd[6];
};

/*
 * ATTACH_MCAST / DETACH_MCAST (WREN_CAP_RDMA_MCAST): a UD QP joins or
 * leaves the multicast group of a GID; see "Multicast" below.
 */
struct wren_aq_mcast {
	__le32 qpn;
	__le32 rsvd0;
	__u8 gid[16];			/* wren_gid_is_mcast() */
	__le32 rsvd[2];
};

struct wren_aq_write_mtt {
	__le32 mr_index;
	__le32 first;			/* first MTT entry of the MR */
	__le32 count;			/* entries in the input buffer */
	__le32 rsvd[5];
};

enum wren_counter_set {
	WREN_COUNTERS_PORT		= 0,	/* WREN_PORT_COUNTERS */
	WREN_COUNTERS_RDMA		= 1,	/* WREN_RDMA_COUNTERS */
	WREN_COUNTERS_PRIO		= 2,	/* WREN_PRIO_COUNTERS x 8 */
	WREN_COUNTERS_CC		= 3,	/* WREN_CC_COUNTERS */
	WREN_COUNTERS_ETH_QUEUE		= 4,	/* WREN_ETH_QUEUE_COUNTERS */
	WREN_COUNTERS_PFC		= 5,	/* WREN_PFC_COUNTERS, index prio */
};

/* Per-queue sets: TX queue n is index n, RX queue n is n | this bit. */
#define WREN_COUNTERS_RXQ		0x80000000u

struct wren_aq_counters {
	__u8 set;			/* enum wren_counter_set */
	__u8 rsvd0[3];
	__le32 index;			/* queue | WREN_COUNTERS_RXQ */
	__le32 rsvd[6];
};

enum wren_diag_fault {
	WREN_DIAG_FATAL			= 1, /* go fatal, WREN_FATAL_INJECTED */
	WREN_DIAG_AQ_STALL		= 2, /* never complete the next command */
	WREN_DIAG_DROP_EQE		= 3, /* drop the next arg EQEs */
	WREN_DIAG_LINK_FLAP		= 4, /* link down for arg ms */
	WREN_DIAG_AQ_LATE		= 5, /* run the next command arg ms late */
	WREN_DIAG_RX_DRAIN		= 6, /* host drains RX at arg Mb/s */
};

/*
 * WREN_DIAG_RX_DRAIN: the rate at which the host side takes received frames
 * out of the port's receive buffers, for tests of PFC generation.  0 gives
 * the normal (unlimited) drain back; WREN_DIAG_RX_DRAIN_STUCK drains nothing.
 */
#define WREN_DIAG_RX_DRAIN_STUCK	0xffffffffu

/*
 * SET_CLOCK (WREN_CAP_TIMESTAMP; NOT_SUPPORTED without it): the device
 * clock reads @ns when the command executes and counts on from there.
 */
struct wren_aq_set_clock {
	__le64 ns;
	__le32 rsvd[6];
};

struct wren_aq_diag_fault {
	__le32 fault;			/* enum wren_diag_fault */
	__le32 arg;
	__le32 rsvd[6];
};

struct wren_aq_cmd {
	__u8 opcode;			/* enum wren_aq_opcode */
	__u8 flags;			/* must be 0 */
	__le16 cmd_id;			/* echoed in the completion */
	__le32 rsvd0;
	__le64 in_addr;			/* 0 or bus address of input */
	__le32 in_len;
	__le32 out_len;
	__le64 out_addr;		/* 0 or bus address of output */
	union {
		__u8 raw[32];
		struct wren_aq_create_eq create_eq;
		struct wren_aq_handle handle;
		struct wren_aq_modify_cq modify_cq;
		struct wren_aq_modify_srq modify_srq;
		struct wren_aq_write_mtt write_mtt;
		struct wren_aq_create_mw create_mw;
		struct wren_aq_mcast mcast;
		struct wren_aq_counters counters;
		struct wren_aq_diag_fault diag_fault;
		struct wren_aq_set_clock set_clock;
	} u;
};

struct wren_acq_entry {
	__le16 cmd_id;
	__u8 status;			/* enum wren_aq_status */
	__u8 rsvd0;
	__le32 syndrome;		/* WREN_SYND_* */
	__le32 out_len;			/* output bytes written */
	__le32 rsvd1;
	__le64 result;			/* handle of a created object */
	__le32 result2;			/* CREATE_MR/MW, MODIFY_MR: the key */
	__u8 rsvd2[3];
	__u8 owner;			/* bit 0: phase, written last */
};

/* ---------------------------------------------------------- device */

struct wren_device_attr {
	__le64 caps;			/* WREN_CAP_* */
	__le32 fw_version;
	__le32 fw_build;
	__le16 contract_major;
	__le16 contract_minor;
	__le16 num_msix;
	__le16 num_db_pages;		/* at most 65535 */
	__le32 max_qp;
	__le32 max_qp_wr;		/* SQ/RQ entries */
	__le32 max_cq;
	__le32 max_cqe;
	__le32 max_eq;
	__le32 max_eqe;
	__le32 max_srq;
	__le32 max_srq_wr;
	__le32 max_pd;
	__le32 max_mr;
	__le32 max_mtt;			/* total MTT entries */
	__le32 max_ah;
	__le64 max_mr_size;
	__le64 page_size_cap;		/* bit n: 2^n byte pages */
	__le16 max_sge;
	__le16 max_sge_rd;
	__le16 max_inline;
	__le16 max_gid;
	__u8 max_qp_rd_atom;		/* responder resources */
	__u8 max_qp_init_rd_atom;	/* initiator depth */
	__u8 local_ack_delay;		/* 4.096 us * 2^n */
	__u8 num_ports;
	__le32 max_msg_size;
	__le16 max_eth_queues;		/* of each direction */
	__le16 max_mtu;			/* Ethernet MTU (L3) */
	__u8 max_sq_wqe_shift;		/* strides 1 << 6 .. 1 << this */
	__u8 max_rq_wqe_shift;
	__u8 mac[6];
	__le32 rsvd0;
	__le64 serial;
	char board_id[16];		/* NUL-padded ASCII */
	__le32 reserved_lkey;		/* WREN_CAP_RDMA_RESERVED_LKEY */
	__le32 max_mw;			/* WREN_CAP_RDMA_MW */
	__le32 max_mcast_grp;		/* WREN_CAP_RDMA_MCAST */
	__le32 max_mcast_qp_attach;	/* QPs in one group */
	__le32 max_xrcd;		/* WREN_CAP_RDMA_XRC */
	__le32 rsvd[23];
};

enum wren_port_state {
	WREN_PORT_DOWN			= 1,
	WREN_PORT_ACTIVE		= 4,
};

struct wren_port_attr {
	__u8 state;			/* enum wren_port_state */
	__u8 admin_up;
	__u8 pause;			/* WREN_PAUSE_* */
	__u8 rsvd0;
	__le32 speed_mbps;
	__le16 mtu;			/* configured Ethernet MTU */
	__le16 max_mtu;
	__u8 mac[6];
	__le16 rsvd1;
	__le32 link_down_count;
	__le32 rsvd[10];
};

#define WREN_PAUSE_RX			0x1
#define WREN_PAUSE_TX			0x2

struct wren_set_port_in {
	__le32 mask;			/* WREN_SET_PORT_* */
	__le16 mtu;
	__u8 admin_up;
	__u8 pause;
	__u8 mac[6];
	__le16 rsvd0;
	__le32 rsvd[4];
};

#define WREN_SET_PORT_MTU		0x1
#define WREN_SET_PORT_ADMIN		0x2
#define WREN_SET_PORT_MAC		0x4
#define WREN_SET_PORT_PAUSE		0x8

/* ------------------------------------------------------------- CQ */
/*
 * CQ rings hold 32-byte entries (wren_cqe or wren_eth_cqe).  The doorbell
 * record is 8 bytes of host memory the device reads: wren_cq_dbrec.
 */
struct wren_create_cq_in {
	struct wren_buf_desc ring;
	__le64 dbrec_addr;		/* 8-byte aligned */
	__le32 eqn;
	__le32 uar;			/* doorbell page for arming */
	__u8 log_size;
	__u8 flags;			/* WREN_CQ_F_*, wren_queues.h */
	__le16 moderation_usec;
	__le16 moderation_count;
	__le16 rsvd0;
	__le32 rsvd[6];
};

/*
 * RESIZE_CQ (WREN_CAP_CQ_RESIZE; NOT_SUPPORTED without it) moves a CQ to a
 * new ring (of the entry size it was created with) and doorbell record
 * and restarts its indexes: the entries not
 * yet consumed (the consumer index read from the old record) move in
 * order to slots 0 .. n-1 of the new ring, each with the phase of index
 * 0 .. n-1 in the new size; the producer index becomes n and the
 * consumer index 0, which software has written into the new record.
 * Software zeroes the new ring and neither polls nor arms the CQ until
 * the command completes.  More unconsumed entries, together with the send
 * WQEs handed to the device and not yet completed on QPs whose send CQ it
 * is, than the new ring holds: BAD_SIZE, and the CQ is as it was; so on
 * any failure.
 */
struct wren_resize_cq_in {
	__le32 cqn;
	__u8 log_size;			/* as in CREATE_CQ */
	__u8 rsvd0[3];
	struct wren_buf_desc ring;
	__le64 dbrec_addr;		/* 8-byte aligned */
	__le32 rsvd[2];
};

struct wren_cq_dbrec {
	__le32 ci;			/* consumer index, free-running */
	__le32 rsvd;
};

/* ------------------------------------------------------------- QP */

enum wren_qp_type {
	WREN_QPT_RC			= 1,
	WREN_QPT_UD			= 2,
	WREN_QPT_GSI			= 3,	/* QP1, always qpn 1 */
	WREN_QPT_UC			= 4,	/* data path: WREN_CAP_RDMA_UC */
	WREN_QPT_XRC_INI		= 5,	/* WREN_CAP_RDMA_XRC: "XRC" below */
	WREN_QPT_XRC_TGT		= 6,
};

/**
 * wren_qpt_datagram() - whether a QP type addresses each send on its own
 * @type: enum wren_qp_type
 *
 * Return: nonzero for UD and GSI, whose send WQEs carry wren_wqe_ud and
 * whose messages fit one packet; RC and UC QPs are connected to one peer
 * and split messages at the path MTU.
 */
static inline int wren_qpt_datagram(__u8 type)
{
	return type == WREN_QPT_UD || type == WREN_QPT_GSI;
}

/**
 * wren_qpt_reliable() - whether a QP type runs the reliable transport
 * @type: enum wren_qp_type
 *
 * Return: nonzero for RC and XRC's initiator and target QPs: PSNs are
 * acknowledged, lost packets retransmitted, READs and atomics answered.
 * XRC's QPs are RC's two halves: an initiator only sends requests, a
 * target only answers them.
 */
static inline int wren_qpt_reliable(__u8 type)
{
	return type == WREN_QPT_RC || type == WREN_QPT_XRC_INI ||
	       type == WREN_QPT_XRC_TGT;
}

enum wren_qp_state {
	WREN_QPS_RESET			= 0,
	WREN_QPS_INIT			= 1,
	WREN_QPS_RTR			= 2,
	WREN_QPS_RTS			= 3,
	WREN_QPS_SQD			= 4,
	WREN_QPS_SQE			= 5,
	WREN_QPS_ERR			= 6,
};

#define WREN_QP_F_SQ_SIG_ALL		0x01
#define WREN_QP_F_USE_SRQ		0x02

/*
 * One buffer holds the SQ at offset 0 and the RQ at rq_offset.  The QP's
 * CQs and SRQ must be bound to the QP's own UAR (WREN_KERNEL_UAR objects
 * excepted for kernel QPs), else PERM: no context can feed another's CQ.  The QP
 * doorbell record (wren_qp_dbrec) carries the RQ producer index.
 */
struct wren_create_qp_in {
	__u8 type;			/* enum wren_qp_type */
	__u8 flags;			/* WREN_QP_F_* */
	__u8 sq_wqe_shift;		/* log2(SQ WQE stride) */
	__u8 rq_wqe_shift;
	__u8 sq_log_size;		/* log2(SQ entries) */
	__u8 rq_log_size;		/* 0 with WREN_QP_F_USE_SRQ */
	__le16 max_inline;
	__le32 pdn;
	__le32 send_cqn;
	__le32 recv_cqn;
	__le32 srqn;
	__le32 uar;
	__le32 rq_offset;
	struct wren_buf_desc buf;
	__le64 dbrec_addr;
	__le32 xrcdn;			/* WREN_QPT_XRC_TGT only */
	__le32 rsvd[17];
};

struct wren_qp_dbrec {
	__le32 rq_pi;			/* RQ producer index, free-running */
	__le32 rsvd;
};

/* Address vector: where RoCEv2 packets of a QP or AH go. */
struct wren_av {
	__u8 gid_index;			/* source GID */
	__u8 hop_limit;
	__u8 traffic_class;		/* DSCP << 2 | ECN */
	__u8 flags;			/* WREN_AV_F_* */
	__le32 flow_label;
	__u8 dgid[16];
	__u8 dmac[6];
	__le16 vlan_id;			/* with WREN_AV_F_VLAN */
	__le16 udp_sport;		/* 0: device derives from QPN */
	__u8 sl;			/* 802.1p priority */
	__u8 rsvd0;
	__le32 rsvd[3];
};

#define WREN_AV_F_VLAN			0x01
#define WREN_AV_F_IPV4			0x02	/* dgid is v4-mapped */

/**
 * wren_gid_is_v4_mapped() - whether a GID is an IPv4 address
 * @gid: 16 bytes
 *
 * Return: nonzero for ::ffff:a.b.c.d, the form every IPv4 GID (and the
 * dgid of a WREN_AV_F_IPV4 address vector) takes.
 */
static inline int wren_gid_is_v4_mapped(const __u8 *gid)
{
	int i;

	for (i = 0; i < 10; i++)
		if (gid[i])
			return 0;
	return gid[10] == 0xff && gid[11] == 0xff;
}

/* Bits of wren_modify_qp_in.attr_mask. */
#define WREN_QP_ATTR_STATE		0x00000001u
#define WREN_QP_ATTR_CUR_STATE		0x00000002u
#define WREN_QP_ATTR_ACCESS_FLAGS	0x00000004u
#define WREN_QP_ATTR_QKEY		0x00000008u
#define WREN_QP_ATTR_AV			0x00000010u
#define WREN_QP_ATTR_PATH_MTU		0x00000020u
#define WREN_QP_ATTR_TIMEOUT		0x00000040u
#define WREN_QP_ATTR_RETRY_CNT		0x00000080u
#define WREN_QP_ATTR_RNR_RETRY		0x00000100u
#define WREN_QP_ATTR_RQ_PSN		0x00000200u
#define WREN_QP_ATTR_MAX_QP_RD_ATOMIC	0x00000400u
#define WREN_QP_ATTR_MIN_RNR_TIMER	0x00000800u
#define WREN_QP_ATTR_SQ_PSN		0x00001000u
#define WREN_QP_ATTR_MAX_DEST_RD_ATOMIC	0x00002000u
#define WREN_QP_ATTR_DEST_QPN		0x00004000u
#define WREN_QP_ATTR_SQ_DRAIN_NOTIFY	0x00008000u

/* Remote and local access rights, for QPs and MRs. */
#define WREN_ACCESS_LOCAL_WRITE		0x00000001u
#define WREN_ACCESS_REMOTE_WRITE	0x00000002u
#define WREN_ACCESS_REMOTE_READ		0x00000004u
#define WREN_ACCESS_REMOTE_ATOMIC	0x00000008u
/* MRs only (WREN_CAP_RDMA_MW): windows may be bound to the MR. */
#define WREN_ACCESS_MW_BIND		0x00000010u
/*
 * FLUSH (WREN_CAP_RDMA_FLUSH, wren_queues.h): a QP takes FLUSH requests of
 * a placement type only with that type's right, and an MR serves them
 * only with its own.  The device makes data globally visible; it cannot
 * make it persistent (nothing tells it the memory behind the bus is), so
 * no MR has WREN_ACCESS_FLUSH_PERSISTENT - CREATE_MR, MODIFY_MR and
 * REG_MR refuse it - while a QP may (verbs lets a QP allow both), and its
 * persistent FLUSHes then fail with a remote access error on every MR.
 */
#define WREN_ACCESS_FLUSH_GLOBAL	0x00000020u
#define WREN_ACCESS_FLUSH_PERSISTENT	0x00000040u

/* Path MTU codes, as IB_MTU_*: 256 << (code - 1). */
#define WREN_MTU_256			1
#define WREN_MTU_4096			5

struct wren_modify_qp_in {
	__le32 qpn;
	__le32 attr_mask;		/* WREN_QP_ATTR_* */
	__u8 cur_state;			/* enum wren_qp_state */
	__u8 new_state;
	__u8 path_mtu;			/* WREN_MTU_* */
	__u8 timeout;			/* 4.096 us * 2^n, 0 = infinite */
	__u8 retry_cnt;			/* 0 .. 7 */
	__u8 rnr_retry;			/* 0 .. 7, 7 = infinite */
	__u8 min_rnr_timer;		/* IB encoding 0 .. 31 */
	__u8 max_rd_atomic;
	__u8 max_dest_rd_atomic;
	__u8 rsvd0;
	__le16 access_flags;		/* WREN_ACCESS_* */
	__le32 qkey;
	__le32 sq_psn;			/* 24 bits */
	__le32 rq_psn;
	__le32 dest_qpn;
	struct wren_av av;
	__le32 rsvd[11];
};

struct wren_query_qp_out {
	__u8 state;
	__u8 path_mtu;
	__u8 timeout;
	__u8 retry_cnt;
	__u8 rnr_retry;
	__u8 min_rnr_timer;
	__u8 max_rd_atomic;
	__u8 max_dest_rd_atomic;
	__le16 access_flags;
	__u8 sq_draining;
	__u8 rsvd0;
	__le32 qkey;
	__le32 sq_psn;			/* next PSN to send */
	__le32 rq_psn;			/* next PSN expected */
	__le32 dest_qpn;
	struct wren_av av;
	__le32 cc_rate_kbps;		/* DCQCN current rate Rc, 0 = unlimited */
	__le32 cc_target_kbps;		/* DCQCN target rate Rt */
	__le16 cc_alpha;		/* 0 .. 1023 = 0 .. 1 */
	__u8 cc_flags;			/* WREN_QP_CC_* */
	__u8 rsvd1;
	__le32 cc_cnps_handled;		/* CNPs this QP reacted to */
	__le32 rsvd[9];
};

#define WREN_QP_CC_RP_ACTIVE		0x1	/* rate limited by DCQCN now */

/* ------------------------------------------------------------ SRQ */

struct wren_create_srq_in {
	__le32 pdn;
	__le32 uar;
	__u8 log_size;
	__u8 wqe_shift;
	__u8 flags;			/* WREN_SRQ_F_* */
	__u8 rsvd0;
	__le32 limit;
	struct wren_buf_desc buf;
	__le64 dbrec_addr;		/* wren_srq_dbrec */
	__le32 xrcdn;			/* WREN_SRQ_F_XRC: its XRC domain */
	__le32 cqn;			/* WREN_SRQ_F_XRC: its completions' CQ */
	__le32 rsvd[4];
};

/* An XRC SRQ (WREN_CAP_RDMA_XRC): "XRC" below. */
#define WREN_SRQ_F_XRC			0x01

struct wren_srq_dbrec {
	__le32 pi;
	__le32 rsvd;
};

/*
 * RESIZE_SRQ (WREN_CAP_SRQ_RESIZE; NOT_SUPPORTED without it) moves an SRQ
 * to a new ring of 1 << log_size entries, at least as many as before, of
 * the same stride, and to a new doorbell record.  Indexes stay
 * free-running: once the command completes the device takes WQE i from
 * slot i mod the new size, and its producer index from the new record.
 * Before the command software writes every WQE it has posted and not
 * seen completed into the new ring at its index's slot (wqe_idx
 * unchanged) and its producer index into the new record, and posts
 * nothing until the command completes.  The WQEs the device has taken
 * already are its own: their completions carry their index as before.
 * On any failure the SRQ is as it was.
 */
struct wren_resize_srq_in {
	__le32 srqn;
	__u8 log_size;
	__u8 rsvd0[3];
	struct wren_buf_desc buf;
	__le64 dbrec_addr;		/* wren_srq_dbrec */
	__le32 rsvd[2];
};

struct wren_query_srq_out {
	__le32 limit;
	__le32 wqes_posted;		/* pi - ci the device sees */
	__le32 rsvd[6];
};

/*
 * XRC (WREN_CAP_RDMA_XRC; without it ALLOC_XRCD, an XRC SRQ and the XRC QP
 * types are NOT_SUPPORTED).  An XRC domain (ALLOC_XRCD, which answers its
 * number; DEALLOC_XRCD, BUSY while an SRQ or QP names it; max_xrcd of
 * them) groups XRC SRQs and XRC target QPs:
 *
 * - An XRC SRQ is CREATE_SRQ with WREN_SRQ_F_XRC, a domain (xrcdn) and a
 *   CQ of its own (cqn, bound to the SRQ's UAR, else PERM).  Every
 *   receive it completes goes to that CQ, whichever QP took the WQE.
 *   It serves target QPs alone: CREATE_QP on it is BAD_PARAM.  Without
 *   the flag xrcdn and cqn are 0.
 * - An XRC initiator QP (WREN_QPT_XRC_INI) is an RC requester alone: an
 *   SQ, a send CQ and a PD, no receive side (no RQ, no SRQ, recv_cqn 0).
 *   Each send WQE names the remote XRC SRQ it is for in
 *   wren_wqe_ctrl.xrc_srqn, and each request packet carries that number
 *   in its XRCETH.  BIND_MW, FLUSH and ATOMIC_WRITE (IBA 1.5 gives those
 *   RC opcodes only) are not taken (WREN_VERR_SQ_OPCODE).
 * - An XRC target QP (WREN_QPT_XRC_TGT) is an RC responder alone, of
 *   domain xrcdn: no rings, doorbell record, PD, CQs, SRQ or UAR (all of
 *   create_qp_in but type and xrcdn is zero).  It goes through RC's
 *   states.  Each request it takes is for the SRQ its XRCETH names, which
 *   must be an XRC SRQ of the QP's domain, and every packet of a message
 *   must name the SRQ its first packet named; otherwise the request is
 *   NAKed as invalid (QP_REQ_ERR, and the QP goes to ERR).  That SRQ's PD
 *   is the PD of every check the request needs (receive WQE, rkey, SEND
 *   with invalidate), and a receive completes to the SRQ's CQ with
 *   WREN_CQE_F_XRC, qpn the target QP and src_qp the SRQ.  A receive the
 *   QP held when it went to ERR is flushed there too, if the SRQ still
 *   exists; an SRQ destroyed under a message loses that WQE.  The domain
 *   is the boundary: any target QP of it may complete to its SRQs' CQs,
 *   whichever context made them.
 *
 * On the wire (wire.rst) XRC has its own class of BTH opcodes, RC's plus
 * 0xa0.  Requests carry an XRCETH after the BTH: 8 reserved bits, then
 * the 24-bit XRC SRQ number.  Responses (ACK, atomic ACK, READ responses)
 * have none.
 */

/* ------------------------------------------------------------- MR */
/*
 * An MR's key is (index << 8) | key_tag.  CREATE_MR makes the entry in
 * state FREE with num_mtt translation entries reserved; WRITE_MTT fills
 * them (bus addresses aligned to 1 << page_shift, e.g. GPU BAR pages of
 * 64 KiB); ACTIVATE_MR checks every entry was written and makes the MR
 * VALID.  DEACTIVATE_MR returns it to FREE and guarantees that no DMA
 * through it starts after the command completes (dma-buf move_notify,
 * peer-memory invalidation).  Fast-registration MRs stay FREE until a
 * REG_MR work request fills them.
 */
enum wren_mr_state {
	WREN_MR_FREE			= 0,
	WREN_MR_VALID			= 1,
};

#define WREN_MR_F_FAST_REG		0x01
#define WREN_MR_F_ZERO_BASED		0x02

struct wren_create_mr_in {
	__le32 pdn;
	__le32 access;			/* WREN_ACCESS_* */
	__le64 iova;
	__le64 length;
	__le32 num_mtt;
	__u8 page_shift;
	__u8 key_tag;
	__u8 flags;			/* WREN_MR_F_* */
	__u8 rsvd0;
	__le32 rsvd[8];
};

struct wren_modify_mr_in {
	__le32 mr_index;
	__le32 mask;			/* WREN_MODIFY_MR_* */
	__le32 pdn;
	__le32 access;
	__le64 iova;
	__le64 length;
	__u8 key_tag;
	__u8 rsvd0[3];
	__le32 rsvd[7];
};

#define WREN_MODIFY_MR_PD		0x1
#define WREN_MODIFY_MR_ACCESS		0x2
#define WREN_MODIFY_MR_RANGE		0x4
#define WREN_MODIFY_MR_KEY		0x8

struct wren_query_mr_out {
	__u8 state;			/* enum wren_mr_state */
	__u8 page_shift;
	__u8 key_tag;
	__u8 rsvd0;
	__le32 pdn;
	__le32 access;
	__le32 num_mtt;
	__le64 iova;
	__le64 length;
	__le32 rsvd[4];
};

/* ------------------------------------------------------------- MW */
/*
 * Memory windows (WREN_CAP_RDMA_MW) give remote access to a range of a
 * VALID MR that has WREN_ACCESS_MW_BIND, through a key of their own.  A
 * window's key is (index << 8) | key_tag like an MR's, its index at or
 * above wren_device_attr.max_mr and below max_mr + max_mw: one key names
 * an MR or a window, never both.  CREATE_MW makes a window, unbound
 * (WREN_MR_FREE), in a PD; it answers the index in result and the key in
 * result2.  A BIND_MW work request (wren_wqe_bind_mw) binds it; DESTROY_MW
 * destroys it, bound or not, and no access through it starts after the
 * command completes.
 *
 * Type 1 windows are bound, and rebound, by BIND_MW on any QP of their PD;
 * a bind of length 0 unbinds one (its mr_key is then not looked at);
 * LOCAL_INV and SEND_INV do not apply to them.  Type 2 windows are bound
 * only while unbound, and to the QP whose send queue ran the BIND_MW: only
 * that QP's responder accepts the key.
 * LOCAL_INV on a QP of the window's PD, or a SEND_INV arriving on the QP
 * it is bound to, unbinds it.
 *
 * Window keys are remote keys only: as an lkey they are refused.  A window
 * grants only WREN_ACCESS_REMOTE_* rights, within its range; remote write
 * and atomic rights need the MR's WREN_ACCESS_LOCAL_WRITE.  Windows on
 * zero-based MRs are not supported (the bind fails).  While windows are
 * bound to an MR it cannot be destroyed (DESTROY_MR: WREN_AQ_STATUS_BUSY),
 * modified (MODIFY_MR: BUSY) or invalidated by LOCAL_INV; DEACTIVATE_MR
 * still works, as the device's own invalidation of dma-buf or peer
 * memory, and accesses through the windows then fail.
 */
enum wren_mw_type {
	WREN_MW_TYPE_1			= 1,
	WREN_MW_TYPE_2			= 2,
};

/* ------------------------------------------------------- AH and GID */

struct wren_create_ah_in {
	__le32 pdn;
	__le32 rsvd0;
	struct wren_av av;
	__le32 rsvd[4];
};

enum wren_gid_type {
	WREN_GID_INVALID		= 0,	/* clears the entry */
	WREN_GID_ROCE_V2		= 2,
};

struct wren_set_gid_in {
	__le32 index;
	__u8 type;			/* enum wren_gid_type */
	__u8 flags;			/* WREN_AV_F_VLAN, WREN_AV_F_IPV4 */
	__le16 vlan_id;
	__u8 gid[16];
	__u8 mac[6];
	__le16 rsvd0;
	__le32 rsvd[4];
};

/* ------------------------------------------------------- Multicast */
/*
 * UD multicast (WREN_CAP_RDMA_MCAST).  The device keeps a table of up to
 * max_mcast_grp groups, each a multicast GID with up to
 * max_mcast_qp_attach UD QPs.  ATTACH_MCAST adds a QP to a GID's group,
 * making the group if it is new (a QP that is not UD: BAD_PARAM; a QP
 * already in the group: EXISTS; a full table or group: NO_RESOURCES);
 * DETACH_MCAST removes it (not in the group: BAD_HANDLE), and the group
 * goes with its last QP.  Destroying a QP, or resetting the device,
 * detaches it from every group.
 *
 * A RoCEv2 packet whose destination IP address is a group's, sent to the
 * group's MAC (wren_mcast_mac()) and to destination QP WREN_MCAST_QPN,
 * is received by every QP of the group, each as a UD QP receives a
 * packet (Q_Key, receive WQE, GRH); the device's MAC filter passes the
 * MAC of every group in the table for this, whatever SET_RX_MODE says.
 * A packet of a group that is not in the table goes to Ethernet, as any
 * other UDP datagram.  A UD send to a multicast GID goes to the wire as
 * every send does, and to this device's own members of the group too.
 */
#define WREN_MCAST_QPN			0xffffff

/**
 * wren_gid_is_mcast() - whether a RoCEv2 GID is a multicast address
 * @gid: 16 bytes, an IPv6 address or an IPv4-mapped one (::ffff:a.b.c.d)
 *
 * Return: nonzero for IPv6 ff00::/8 and for IPv4-mapped 224.0.0.0/4.
 */
static inline int wren_gid_is_mcast(const __u8 *gid)
{
	if (gid[0] == 0xff)
		return 1;
	return wren_gid_is_v4_mapped(gid) && (gid[12] & 0xf0) == 0xe0;
}

/**
 * wren_mcast_mac() - the Ethernet address of a multicast GID's frames
 * @gid: a GID for which wren_gid_is_mcast() holds
 * @mac: the 6 bytes to fill
 *
 * As IP maps its multicast groups (RFC 1112, RFC 2464): 01:00:5e and the
 * low 23 bits of an IPv4 group, 33:33 and the low 32 bits of an IPv6 one.
 */
static inline void wren_mcast_mac(const __u8 *gid, __u8 *mac)
{
	if (gid[0] == 0xff) {
		mac[0] = 0x33;
		mac[1] = 0x33;
		mac[2] = gid[12];
	} else {
		mac[0] = 0x01;
		mac[1] = 0x00;
		mac[2] = 0x5e;
	}
	mac[3] = gid[0] == 0xff ? gid[13] : gid[13] & 0x7f;
	mac[4] = gid[14];
	mac[5] = gid[15];
}

/* -------------------------------------------------------- Ethernet */

struct wren_create_eth_q_in {
	struct wren_buf_desc ring;	/* wren_eth_tx_desc / wren_eth_rx_desc */
	__le32 cqn;			/* completions go here */
	__u8 log_size;
	__u8 prio;			/* TX: 802.1p priority of the queue */
	__le16 rsvd0;
	__le32 rsvd[6];
};

#define WREN_RSS_KEY_SIZE		40
#define WREN_RSS_TABLE_MAX		256

#define WREN_RSS_HASH_IPV4		0x01
#define WREN_RSS_HASH_TCP_IPV4		0x02
#define WREN_RSS_HASH_UDP_IPV4		0x04
#define WREN_RSS_HASH_IPV6		0x08
#define WREN_RSS_HASH_TCP_IPV6		0x10
#define WREN_RSS_HASH_UDP_IPV6		0x20

struct wren_set_rss_in {
	__u8 key[WREN_RSS_KEY_SIZE];	/* Toeplitz key */
	__le16 table_size;		/* 0 (RSS off) or 2^n <= TABLE_MAX */
	__u8 hash_types;		/* WREN_RSS_HASH_* */
	__u8 rsvd0;
	__le32 rsvd[5];
	__le32 table[WREN_RSS_TABLE_MAX]; /* rxq numbers */
};

#define WREN_RX_MODE_PROMISC		0x1
#define WREN_RX_MODE_ALLMULTI		0x2
#define WREN_RX_MODE_MAX_MACS		64

struct wren_set_rx_mode_in {
	__le32 flags;			/* WREN_RX_MODE_* */
	__le32 num_macs;
	__u8 macs[WREN_RX_MODE_MAX_MACS][8]; /* 6 bytes used */
};

/* ------------------------------------------------------- DCB and CC */

#define WREN_NUM_PRIO			8
#define WREN_NUM_TC			8
#define WREN_NUM_DSCP			64	/* IP's 6-bit DSCP */

enum wren_tsa {
	WREN_TSA_STRICT			= 0,	/* as IEEE_8021QAZ_TSA_* */
	WREN_TSA_ETS			= 2,
};

struct wren_ets {
	__u8 tc_tsa[WREN_NUM_TC];
	__u8 tc_bw[WREN_NUM_TC];	/* percent, ETS TCs sum to 100 */
	__u8 prio_tc[WREN_NUM_PRIO];
	__le32 rsvd[2];
};

struct wren_pfc {
	__u8 pfc_en;			/* bit n: priority n lossless */
	__u8 rsvd0;
	__le16 delay;			/* cable delay allowance, bit times */
	__le32 rsvd[3];
};

enum wren_trust_mode {
	WREN_TRUST_PCP			= 0,
	WREN_TRUST_DSCP			= 1,
};

struct wren_trust {
	__u8 trust;			/* enum wren_trust_mode */
	__u8 rsvd0[7];
	__u8 dscp2prio[WREN_NUM_DSCP];
};

struct wren_buffer {
	__le32 size[WREN_NUM_PRIO];	/* bytes per buffer */
	__le32 xoff[WREN_NUM_PRIO];	/* send PFC pause above */
	__le32 xon[WREN_NUM_PRIO];	/* release below */
	__u8 prio2buffer[WREN_NUM_PRIO];
	__le32 total_size;		/* output of QUERY_DCB only */
	__le32 rsvd;
};

struct wren_maxrate {
	__le64 tc_maxrate_kbps[WREN_NUM_TC]; /* 0 = unlimited */
};

struct wren_pfc_wd {
	__le16 timeout_ms;		/* 0 = off */
	__le16 recovery_ms;		/* quiet time before leaving storm */
	__le32 rsvd[3];
};

/*
 * The device refuses a timeout_ms or recovery_ms above WREN_PFC_WD_MAX_MS.
 * Drivers offer less, as mlx5's ethtool pfc-prevention-tout does: a
 * timeout of 0 (off) or WREN_PFC_TOUT_MIN_MS .. WREN_PFC_TOUT_MAX_MS,
 * WREN_PFC_TOUT_AUTO_MS for "auto", and WREN_PFC_RECOVERY_MS (SONiC's
 * restoration time) as the recovery of any timeout.  They are here so
 * that the tools and tests judge a timeout as the driver does.
 */
#define WREN_PFC_WD_MAX_MS		60000
#define WREN_PFC_TOUT_MIN_MS		80
#define WREN_PFC_TOUT_MAX_MS		8000
#define WREN_PFC_TOUT_AUTO_MS		100
#define WREN_PFC_RECOVERY_MS		200

struct wren_dcb_state {
	struct wren_ets ets;
	struct wren_pfc pfc;
	struct wren_trust trust;
	struct wren_buffer buffer;
	struct wren_maxrate maxrate;
	struct wren_pfc_wd pfc_wd;
	__u8 pfc_storm;			/* bit n: priority n in storm */
	__u8 rsvd0[7];
};

/* DCQCN parameters of one priority, as in Zhu et al. and mlx5's knobs. */
struct wren_cc_params {
	__u8 prio_mask;			/* priorities this applies to */
	__u8 np_enable;			/* notification point: send CNPs */
	__u8 rp_enable;			/* reaction point: cut rate */
	__u8 ecn_enable;		/* send ECT(0) on RoCE packets */
	__le32 np_min_time_between_cnps_us;
	__u8 np_cnp_dscp;
	__u8 np_cnp_prio;
	__le16 rsvd0;
	__le32 rp_initial_alpha;	/* 0 .. 1023 */
	__le32 rp_g;			/* alpha gain, 1/1024 units */
	__le32 rp_alpha_update_us;
	__le32 rp_time_reset_us;	/* T */
	__le32 rp_byte_reset;		/* B */
	__le32 rp_threshold;		/* F */
	__le32 rp_ai_rate_mbps;
	__le32 rp_hai_rate_mbps;
	__le32 rp_min_rate_mbps;
	__le32 rp_rate_reduce_period_us;
	__le32 rp_max_rate_mbps;	/* 0 = the link's speed */
	__le32 rp_rate_on_first_cnp_mbps; /* 0 = cut from the current rate */
	__u8 rp_min_dec_fac;		/* percent: a cut keeps at least this */
	__u8 rp_gd;			/* cut = Rc * alpha / 2^gd (alpha/1024) */
	__u8 rp_clamp_tgt_rate;		/* 1: every CNP sets Rt = Rc */
	__u8 rsvd1;
	__le32 rsvd[4];
};

/*
 * What SET_CC accepts in struct wren_cc_params (else BAD_PARAM) and what
 * every priority holds at power-on: DCQCN as published (Zhu et al.) and
 * mlx5's defaults.  A name is its field's, the unit moved to the end.
 * Besides these: a field without a _MIN takes 0; every _us field takes up
 * to WREN_DCQCN_TIME_MAX_US, rp_initial_alpha up to WREN_DCQCN_ALPHA_MAX,
 * np_cnp_dscp and np_cnp_prio one of WREN_NUM_DSCP and WREN_NUM_PRIO; the
 * rates (_mbps) up to the link's speed, which only the device knows, and
 * rp_max_rate_mbps 0 or at least rp_min_rate_mbps; the enables and
 * rp_clamp_tgt_rate 0 or 1.  The enables are 0 at power-on.  The tools
 * that set these parameters read the numbers from here.
 */
#define WREN_DCQCN_TIME_MAX_US		10000000
#define WREN_DCQCN_ALPHA_MAX		1023	/* alpha: 10 bits, 1023 = 1 */
#define WREN_DCQCN_NP_MIN_TIME_BETWEEN_CNPS_DEFAULT_US	4
#define WREN_DCQCN_NP_CNP_DSCP_DEFAULT	48	/* CS6 */
#define WREN_DCQCN_NP_CNP_PRIO_DEFAULT	6
#define WREN_DCQCN_RP_INITIAL_ALPHA_DEFAULT	1023
#define WREN_DCQCN_RP_G_MAX		1024	/* 1/1024 units: 1 */
#define WREN_DCQCN_RP_G_DEFAULT		4
#define WREN_DCQCN_RP_ALPHA_UPDATE_MIN_US	1
#define WREN_DCQCN_RP_ALPHA_UPDATE_DEFAULT_US	55
#define WREN_DCQCN_RP_TIME_RESET_MIN_US	1
#define WREN_DCQCN_RP_TIME_RESET_DEFAULT_US	300
#define WREN_DCQCN_RP_BYTE_RESET_MAX	0x40000000	/* 1 GiB */
#define WREN_DCQCN_RP_BYTE_RESET_DEFAULT	2097088	/* 32767 x 64 bytes */
#define WREN_DCQCN_RP_THRESHOLD_MIN	1
#define WREN_DCQCN_RP_THRESHOLD_MAX	31
#define WREN_DCQCN_RP_THRESHOLD_DEFAULT	5
#define WREN_DCQCN_RP_AI_RATE_DEFAULT_MBPS	5	/* or the link's speed */
#define WREN_DCQCN_RP_HAI_RATE_DEFAULT_MBPS	50	/* or the link's speed */
#define WREN_DCQCN_RP_MIN_RATE_MIN_MBPS	1
#define WREN_DCQCN_RP_MIN_RATE_DEFAULT_MBPS	1
#define WREN_DCQCN_RP_RATE_REDUCE_PERIOD_DEFAULT_US	4
#define WREN_DCQCN_RP_MAX_RATE_DEFAULT_MBPS	0	/* the link's speed */
#define WREN_DCQCN_RP_RATE_ON_FIRST_CNP_DEFAULT_MBPS	0	/* cut from Rc */
#define WREN_DCQCN_RP_MIN_DEC_FAC_MIN	1
#define WREN_DCQCN_RP_MIN_DEC_FAC_MAX	100
#define WREN_DCQCN_RP_MIN_DEC_FAC_DEFAULT	50
/* alpha has 10 bits: a divider below 2^10 could cut more than the rate. */
#define WREN_DCQCN_RP_GD_MIN		10
#define WREN_DCQCN_RP_GD_MAX		20
#define WREN_DCQCN_RP_GD_DEFAULT	11	/* alpha / 2 */
#define WREN_DCQCN_RP_CLAMP_TGT_RATE_DEFAULT	1

/* ------------------------------------------------------------ counters */
/*
 * Counter sets are arrays of __le64 in enum order (WREN_COUNTERS_PRIO: eight
 * consecutive blocks, priority 0 first).  The lower-case part of each name
 * is the name ethtool -S and rdma statistic print.  A device returns the
 * counters it knows (result = count) and a driver must not assume more;
 * counters are only ever appended.
 */
enum wren_port_counter {
	WREN_CNT_RX_PACKETS,
	WREN_CNT_RX_BYTES,
	WREN_CNT_TX_PACKETS,
	WREN_CNT_TX_BYTES,
	WREN_CNT_RX_MULTICAST,
	WREN_CNT_RX_BROADCAST,
	WREN_CNT_RX_DROPPED_NO_BUFFER,
	WREN_CNT_RX_DROPPED_FILTER,
	WREN_CNT_RX_ERRORS_LENGTH,
	WREN_CNT_RX_CSUM_BAD,
	WREN_CNT_TX_ERRORS,
	WREN_CNT_TX_DROPPED_LINK_DOWN,
	WREN_CNT_RX_PAUSE,
	WREN_CNT_TX_PAUSE,
	WREN_CNT_LINK_DOWN_EVENTS,
	WREN_CNT_DB_ERRORS,
	WREN_CNT_TX_PAUSE_STORM_WARNING_EVENTS,
	WREN_CNT_TX_PAUSE_STORM_ERROR_EVENTS,
	WREN_NUM_PORT_COUNTERS
};

enum wren_rdma_counter {
	WREN_RDMA_CNT_TX_ROCE_PACKETS,
	WREN_RDMA_CNT_TX_ROCE_BYTES,
	WREN_RDMA_CNT_RX_ROCE_PACKETS,
	WREN_RDMA_CNT_RX_ROCE_BYTES,
	WREN_RDMA_CNT_RX_ICRC_ERRORS,
	WREN_RDMA_CNT_RX_ROCE_DISCARDS,
	WREN_RDMA_CNT_RETRANSMITS,
	WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR,
	WREN_RDMA_CNT_RNR_NAK_RECEIVED,
	WREN_RDMA_CNT_RNR_NAK_SENT,
	WREN_RDMA_CNT_RNR_RETRY_EXCEEDED,
	WREN_RDMA_CNT_PACKET_SEQ_ERR,
	WREN_RDMA_CNT_OUT_OF_SEQUENCE,
	WREN_RDMA_CNT_DUPLICATE_REQUEST,
	WREN_RDMA_CNT_IMPLIED_NAK_SEQ_ERR,
	WREN_RDMA_CNT_REQ_REMOTE_ACCESS_ERRORS,
	WREN_RDMA_CNT_RESP_REMOTE_ACCESS_ERRORS,
	WREN_RDMA_CNT_REQ_REMOTE_INVALID_REQUEST,
	WREN_RDMA_CNT_RESP_LOCAL_LENGTH_ERROR,
	WREN_RDMA_CNT_RX_WRITE_REQUESTS,
	WREN_RDMA_CNT_RX_READ_REQUESTS,
	WREN_RDMA_CNT_RX_ATOMIC_REQUESTS,
	WREN_RDMA_CNT_CQ_OVERFLOW,
	WREN_RDMA_CNT_TX_MCAST_PACKETS,
	WREN_RDMA_CNT_RX_MCAST_PACKETS,
	WREN_NUM_RDMA_COUNTERS
};

enum wren_prio_counter {
	WREN_PRIO_CNT_RX_PRIO_PACKETS,
	WREN_PRIO_CNT_RX_PRIO_BYTES,
	WREN_PRIO_CNT_TX_PRIO_PACKETS,
	WREN_PRIO_CNT_TX_PRIO_BYTES,
	WREN_PRIO_CNT_RX_PFC_FRAMES,
	WREN_PRIO_CNT_TX_PFC_FRAMES,
	WREN_PRIO_CNT_RX_PFC_PAUSE_US,
	WREN_PRIO_CNT_PFC_STORM_EVENTS,
	WREN_NUM_PRIO_COUNTERS		/* fixed: the blocks' stride */
};

/* WREN_COUNTERS_PFC: one priority (index) per query, so it may grow. */
enum wren_pfc_counter {
	WREN_PFC_CNT_TX_PAUSE_US,	/* time this port held the prio XOFF */
	WREN_PFC_CNT_RX_TRANSITIONS,	/* received XON -> XOFF changes */
	WREN_PFC_CNT_RX_BUFFER_DISCARDS, /* frames lost at a full RX buffer */
	WREN_NUM_PFC_COUNTERS
};

enum wren_cc_counter {
	WREN_CC_CNT_NP_ECN_MARKED_ROCE_PACKETS,
	WREN_CC_CNT_NP_CNP_SENT,
	WREN_CC_CNT_RP_CNP_HANDLED,
	WREN_CC_CNT_RP_CNP_IGNORED,
	WREN_CC_CNT_RP_RATE_REDUCTIONS,
	WREN_NUM_CC_COUNTERS
};

enum wren_eth_queue_counter {
	WREN_ETHQ_CNT_PACKETS,
	WREN_ETHQ_CNT_BYTES,
	WREN_ETHQ_CNT_DROPPED,
	WREN_ETHQ_CNT_CSUM_OFFLOADED,
	WREN_ETHQ_CNT_TSO_SEGMENTS,
	WREN_NUM_ETH_QUEUE_COUNTERS
};

#endif /* _LINUX_WREN_ADMIN_H */
