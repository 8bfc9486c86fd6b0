/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What this board is and what it allows: identity, capabilities, resource
 * defaults and the hard bounds every validation checks against.
 */
#ifndef WHW_BOARD_H
#define WHW_BOARD_H

#include <linux/wren/wren_hw.h>

#define WHW_FW_VERSION		0x01020003u	/* 1.2.3 */
#define WHW_FW_BUILD		20261130u
#define WHW_BOARD_ID		"WREN-MODEL"
#define WHW_RESET_TIMEOUT_MS	100u
#define WHW_AQ_TIMEOUT_MS	2000u

/* What this model really implements; see hw/README.md. */
#define WHW_CAPS		(WREN_CAP_FLR | WREN_CAP_DIAG_FAULT | \
				 WREN_CAP_COUNTERS | WREN_CAP_ETH | \
				 WREN_CAP_ETH_CSUM | WREN_CAP_ETH_TSO | \
				 WREN_CAP_ETH_RSS | WREN_CAP_ETH_VLAN | \
				 WREN_CAP_CQ_MODERATION | WREN_CAP_CQ_RESIZE | \
				 WREN_CAP_TIMESTAMP | WREN_CAP_SRQ_RESIZE | \
				 WHW_CAPS_RDMA | WHW_CAPS_DCB | WHW_CAPS_CC)

/* What the RoCEv2 engine (roce_*.c, rc_*.c, ud_*.c) implements. */
#define WHW_CAPS_RDMA		(WREN_CAP_RDMA_RC | WREN_CAP_RDMA_UD | \
				 WREN_CAP_RDMA_SRQ | WREN_CAP_RDMA_GSI | \
				 WREN_CAP_RDMA_ATOMIC | WREN_CAP_RDMA_SEND_INV | \
				 WREN_CAP_RDMA_FAST_REG | \
				 WREN_CAP_RDMA_MR_INVALIDATE | \
				 WREN_CAP_RDMA_RESERVED_LKEY | \
				 WREN_CAP_RDMA_UC | WREN_CAP_RDMA_MW | \
				 WREN_CAP_RDMA_MCAST | WREN_CAP_RDMA_FLUSH | \
				 WREN_CAP_RDMA_ATOMIC_WRITE | WREN_CAP_RDMA_XRC)

/* Any one of these bits admits the DCB and CC settings commands. */
#define WHW_CAPS_DCB		(WREN_CAP_DCB_ETS | WREN_CAP_DCB_PFC | \
				 WREN_CAP_DCB_DSCP_TRUST | \
				 WREN_CAP_DCB_BUFFER | WREN_CAP_DCB_MAXRATE | \
				 WREN_CAP_PFC_STORM_WD)
#define WHW_CAPS_CC		(WREN_CAP_ECN | WREN_CAP_DCQCN)

/* Resource defaults (wrenhw_config fields left at 0). */
#define WHW_DEF_NUM_MSIX	16u
#define WHW_DEF_DB_PAGES	256u
#define WHW_MAX_DB_PAGES	65535u	/* wren_device_attr.num_db_pages: 16 bits */
#define WHW_DEF_LINK_MBPS	25000u
#define WHW_DEF_MAX_QP		4096u
#define WHW_DEF_MAX_CQ		4096u
#define WHW_DEF_MAX_EQ		32u
#define WHW_DEF_MAX_SRQ		256u
#define WHW_DEF_MAX_PD		1024u
#define WHW_DEF_MAX_MR		4096u
#define WHW_DEF_MAX_AH		4096u
/* As many windows as MRs; their keys' indexes follow the MRs' (cmd_mw.c). */
#define WHW_DEF_MAX_MW		4096u
#define WHW_DEF_MAX_MTT		(1u << 20)
/* XRC domains (WREN_CAP_RDMA_XRC): a board constant, not configured. */
#define WHW_MAX_XRCD		256u

/* Hard ceilings, whatever the host configures (guest memory is bounded). */
#define WHW_CEIL_OBJECTS	(1u << 16)
#define WHW_CEIL_MTT		(1u << 24)
#define WHW_MAX_RING_PAGES	(1u << 21)	/* all paged rings together */

/*
 * A QPN is its table slot (16 bits: WHW_CEIL_OBJECTS) with a tag above it
 * that advances each time the slot is reused, also across resets: a peer's
 * CM still holds a connection to the QPN a QP had before the host's NIC
 * was reset, and would reject ("stale connection") a new one from the same
 * number.  255 tags keep every QPN below 0xffffff, the multicast QPN.
 */
#define WHW_QPN_SLOT_BITS	16u
#define WHW_QPN_TAGS		255u

#define WHW_MAX_GID		128u
/* The multicast table (cmd_mcast.c): groups, and UD QPs in each. */
#define WHW_MAX_MCAST_GRP	256u
#define WHW_MAX_MCAST_QP_ATTACH	16u
#define WHW_MAX_ETH_QUEUES	16u
#define WHW_MAX_MTU		9000u
#define WHW_MIN_MTU		68u
#define WHW_MAX_QP_LOG_SIZE	15u		/* 32768 WQEs */
#define WHW_MAX_SQ_WQE_SHIFT	10u
#define WHW_MAX_RQ_WQE_SHIFT	9u
#define WHW_MAX_SGE		30u
#define WHW_MAX_INLINE		256u
#define WHW_MAX_RD_ATOM		16u
#define WHW_LOCAL_ACK_DELAY	15u
#define WHW_MAX_MSG_SIZE	(1u << 31)
#define WHW_MAX_MR_SIZE		(1ull << 40)
#define WHW_MAX_MTT_PER_MR	(1u << 22)
#define WHW_ETH_LOG_SIZE_MIN	1u
#define WHW_ETH_LOG_SIZE_MAX	15u
#define WHW_PORT_BUFFER_BYTES	(512u * 1024u)
#define WHW_MAX_FLAP_MS		60000u
#define WHW_MAX_LATE_MS		120000u	/* DIAG AQ_LATE delay */
/* Ethernet engine bounds (hw/README.md). */
#define WHW_ETH_HLEN		14u
#define WHW_VLAN_HLEN		4u
#define WHW_ETH_MAX_FRAME	(WHW_ETH_HLEN + WHW_VLAN_HLEN + WHW_MAX_MTU)
#define WHW_TSO_MAX_PACKET	(65536u + 256u)	/* payload + headers */
#define WHW_TX_MAX_DESCS	64u	/* descriptors of one packet */
#define WHW_TX_BUDGET		64u	/* packets per queue per process() */
#define WHW_RX_MAX_BUFS		64u	/* buffers of one frame */
#define WHW_ETH_DCACHE		16u	/* descriptors read ahead per queue */
/* WREN_CAP_RDMA_RESERVED_LKEY's key: MR index 0 never exists. */
#define WHW_RESERVED_LKEY	0x00000001u
/* The largest RoCE frame: tag, IPv6, UDP, BTH, AtomicETH, 4096, ICRC. */
#define WHW_ROCE_MAX_FRAME	(14u + 4u + 40u + 8u + 12u + 28u + 4096u + 8u)
#define WHW_PAGE_SIZE_CAP	(((1ull << (WREN_PAGE_SHIFT_MAX + 1)) - 1) & \
				 ~((1ull << WREN_PAGE_SHIFT_MIN) - 1))

#endif
