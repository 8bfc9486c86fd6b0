/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR Linux-OpenIB) */
/*
 * Wren RoCEv2 NIC: the ABI between wren_ib.ko and the rdma-core provider
 * (libwren).  These structures travel as the driver-private part of the
 * uverbs commands (udata).  Documentation/networking/device_drivers/wren/
 * uapi.rst describes them; the hardware formats they refer to (CQEs, WQEs,
 * doorbells, doorbell records) are those of the hardware contract,
 * <linux/wren/wren_hw.h>, which the provider includes as well.
 *
 * Rules, so that both sides can grow independently:
 * - every structure is 8-byte aligned and a multiple of 8 bytes;
 * - requests start with the fields every version needs; the kernel rejects
 *   a request shorter than that (-EINVAL), and bytes beyond the structure
 *   it knows that are not zero (-EOPNOTSUPP);
 * - comp_mask in a request says which optional fields are valid; the kernel
 *   rejects bits it does not know (-EOPNOTSUPP); reserved fields must be 0
 *   (-EINVAL);
 * - comp_mask in a response says which optional fields the kernel filled;
 *   the kernel writes min(outlen, its size) bytes, so a provider compiled
 *   against an older header gets the prefix it knows.
 *
 * The provider is matched to the device by its PCI parent (vendor 0x1f57,
 * device 0x0001, VERBS_PCI_MATCH), not by a driver id: the ib_device
 * reports RDMA_DRIVER_UNKNOWN, since a number of our own in
 * enum rdma_driver_id would collide with upstream's next one.
 */
#ifndef WREN_ABI_USER_H
#define WREN_ABI_USER_H

#include <linux/types.h>
#include <rdma/ib_user_ioctl_cmds.h>

/* Bump on an incompatible change; the provider checks it (uverbs_abi_ver). */
#define WREN_IB_UVERBS_ABI_VERSION	1

/* ------------------------------------------------------ alloc_ucontext */

/* Optional request: a provider may send none (inlen 0). */
struct wren_ib_alloc_ucontext {
	__u32 comp_mask;		/* none defined: 0 */
	__u32 reserved;
};

/* Response comp_mask bits. */
#define WREN_IB_UCTX_RESP_CLOCK		0x1	/* clock_mmap_* are valid */

struct wren_ib_alloc_ucontext_resp {
	__u32 comp_mask;		/* WREN_IB_UCTX_RESP_* */
	/*
	 * The context's own doorbell page (a UAR, ALLOC_UAR): every CQ, QP
	 * and SRQ of the context is bound to it, and the device ignores
	 * doorbells for them rung through any other page.
	 */
	__u32 uar;
	/* mmap(cmd_fd, db_mmap_offset, db_mmap_length, PROT_WRITE, MAP_SHARED) */
	__aligned_u64 db_mmap_offset;
	__u32 db_mmap_length;		/* WREN_DB_PAGE_SIZE */
	__u16 contract_major;		/* of the device's hardware contract */
	__u16 contract_minor;
	__aligned_u64 caps;		/* WREN_CAP_* of the device */
	__u32 max_qp_wr;		/* entries of one SQ or RQ */
	__u32 max_srq_wr;
	__u32 max_cqe;			/* entries of one CQ */
	__u16 max_sge;			/* SGEs of a send or receive WQE */
	__u16 max_sge_rd;		/* SGEs of an RDMA READ */
	__u16 max_inline;		/* inline bytes of a send WQE */
	__u8 cqe_size;			/* bytes per CQE: WREN_CQE_SIZE */
	__u8 min_wqe_shift;		/* WREN_WQE_SHIFT_MIN */
	__u8 max_sq_wqe_shift;		/* SQ stride at most 1 << this */
	__u8 max_rq_wqe_shift;		/* RQ/SRQ stride at most 1 << this */
	__u8 max_wq_log_size;		/* log2 entries of SQ, RQ, SRQ */
	__u8 max_cq_log_size;		/* log2 entries of a CQ */
	__u32 reserved[2];
	/*
	 * WREN_IB_UCTX_RESP_CLOCK (WREN_CAP_TIMESTAMP, 4 KiB CPU pages):
	 * the device clock's page of BAR0 (WREN_CLOCK_PAGE; CLOCK_LO at its
	 * offset 0), mmap(cmd_fd, clock_mmap_offset, clock_mmap_length,
	 * PROT_READ, MAP_SHARED).  A provider that asks for fewer bytes than
	 * these gets the response up to reserved, and no clock.
	 */
	__aligned_u64 clock_mmap_offset;
	__u32 clock_mmap_length;	/* WREN_DB_PAGE_SIZE */
	__u32 reserved2;
};

/* --------------------------------------------- importing a context */
/*
 * ibv_import_device() opens a second verbs context on a command file
 * that another context already owns (a dup'd or passed cmd_fd).  The
 * provider learns what alloc_ucontext told the first one - the same
 * doorbell and clock pages, through the same mmap offsets - from
 * UVERBS_METHOD_QUERY_CONTEXT with this driver attribute: a struct
 * wren_ib_alloc_ucontext_resp, written up to the attribute's length (at
 * least up to reserved; the clock only with room for its fields).
 */
enum wren_ib_query_context_attrs {
	WREN_IB_ATTR_QUERY_CONTEXT_RESP_UCTX = (1U << UVERBS_ID_NS_SHIFT),
};

/*
 * ibv_import_pd() checks the handle it is given with this method of
 * UVERBS_OBJECT_PD, which answers the PD's number on the device.
 */
enum wren_ib_pd_methods {
	WREN_IB_METHOD_PD_QUERY = (1U << UVERBS_ID_NS_SHIFT),
};

enum wren_ib_query_pd_attrs {
	WREN_IB_ATTR_QUERY_PD_HANDLE = (1U << UVERBS_ID_NS_SHIFT),
	WREN_IB_ATTR_QUERY_PD_RESP_PDN,		/* __u32 */
};

/* ------------------------------------------------------------- CQ */
/*
 * The provider allocates the CQ ring (cqe_size << log_size bytes, starting
 * on a page boundary) and the 8-byte doorbell record (struct wren_cq_dbrec,
 * 8-byte aligned) in its own memory; the kernel pins both (ib_umem) and
 * hands their bus addresses to the device.  The provider zeroes the ring
 * first (phase rule).  Arming is the WREN_DB_CQ doorbell on the context's
 * page with WREN_DB_CQ_ARM_NEXT or _SOLICITED; completion events reach the
 * completion channel through the EQ of the CQ's comp_vector.
 */
struct wren_ib_create_cq {
	__aligned_u64 buf_addr;		/* page-aligned user VA of the ring */
	__aligned_u64 dbrec_addr;	/* 8-byte-aligned user VA */
	__u32 comp_mask;		/* none defined: 0 */
	__u8 log_size;			/* log2(CQEs): 1 << log_size >= cqe */
	__u8 reserved[3];
};

struct wren_ib_create_cq_resp {
	__u32 comp_mask;
	__u32 cqn;			/* queue field of the CQ doorbell */
	__u32 log_size;			/* as requested */
	__u32 reserved;
};

/*
 * A CQ created with IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION (what
 * libibverbs sends for IBV_WC_EX_WITH_COMPLETION_TIMESTAMP; only with
 * WREN_CAP_TIMESTAMP) has 64-byte entries (struct wren_cqe64: the device
 * clock, then the CQE), so its ring is 64 << log_size bytes, here and in
 * resize_cq.
 *
 * ibv_resize_cq: a new ring and doorbell record, as for create_cq, zeroed
 * and with a consumer index of 0 in the record.  The device moves the
 * entries not yet polled to the start of the new ring and restarts the
 * indexes (RESIZE_CQ); the provider polls from index 0 afterwards.  Only
 * on devices with WREN_CAP_CQ_RESIZE (EOPNOTSUPP otherwise).
 */
struct wren_ib_resize_cq {
	__aligned_u64 buf_addr;		/* page-aligned user VA of the ring */
	__aligned_u64 dbrec_addr;	/* 8-byte-aligned user VA */
	__u32 comp_mask;		/* none defined: 0 */
	__u8 log_size;			/* log2(CQEs): 1 << log_size >= cqe */
	__u8 reserved[3];
};

/* ------------------------------------------------------------- QP */
/*
 * One page-aligned provider buffer holds the SQ at offset 0 and the RQ at
 * rq_offset (a multiple of the RQ stride, at or after the end of the SQ;
 * the SQ and RQ strides and sizes as chosen by the provider within the
 * limits of alloc_ucontext).  The QP doorbell record
 * (struct wren_qp_dbrec) carries the RQ producer index; SQ doorbells are
 * WREN_DB_SQ writes with the qpn on the context's page.
 *
 * The kernel checks that the layout holds what ibv_qp_init_attr.cap asked
 * for: sq entries >= max_send_wr, (1 << sq_wqe_shift) >= 32 + 16 *
 * max_send_sge and >= 48 + max_inline_data, and the same for the RQ with
 * a 16-byte header (no RQ fields with an SRQ: all zero).
 */
struct wren_ib_create_qp {
	__aligned_u64 buf_addr;		/* page-aligned user VA: SQ, then RQ */
	__aligned_u64 dbrec_addr;	/* 8-byte-aligned user VA */
	__u32 comp_mask;		/* none defined: 0 */
	__u32 rq_offset;		/* bytes from buf_addr; 0 without RQ */
	__u8 sq_wqe_shift;		/* log2(SQ WQE stride) */
	__u8 sq_log_size;		/* log2(SQ entries) */
	__u8 rq_wqe_shift;		/* 0 without an RQ of its own */
	__u8 rq_log_size;		/* 0 without an RQ of its own */
	__u32 reserved;
};

struct wren_ib_create_qp_resp {
	__u32 comp_mask;
	__u32 qpn;			/* queue field of the SQ doorbell */
	__u32 max_inline;		/* inline bytes the device accepts */
	__u32 reserved;
};

/* ------------------------------------------------------------ SRQ */

struct wren_ib_create_srq {
	__aligned_u64 buf_addr;		/* page-aligned user VA of the ring */
	__aligned_u64 dbrec_addr;	/* struct wren_srq_dbrec, 8-aligned */
	__u32 comp_mask;		/* none defined: 0 */
	__u8 wqe_shift;			/* log2(WQE stride) */
	__u8 log_size;			/* log2(entries) >= max_wr */
	__u8 reserved[2];
};

struct wren_ib_create_srq_resp {
	__u32 comp_mask;
	__u32 srqn;
};

/*
 * ibv_modify_srq with IBV_SRQ_MAX_WR (devices with WREN_CAP_SRQ_RESIZE;
 * EOPNOTSUPP otherwise): a new ring of more entries than the SRQ has, of
 * the same stride, and a new doorbell record, as for create_srq.  Before
 * the command the provider writes every WQE posted and not completed
 * into the new ring at its index's slot, and the producer index into the
 * new record; indexes run on (RESIZE_SRQ).  A max_wr the SRQ holds
 * already needs no request (nothing changes).
 */
struct wren_ib_resize_srq {
	__aligned_u64 buf_addr;		/* page-aligned user VA of the ring */
	__aligned_u64 dbrec_addr;	/* struct wren_srq_dbrec, 8-aligned */
	__u32 comp_mask;		/* none defined: 0 */
	__u8 log_size;			/* log2(entries) >= max_wr */
	__u8 reserved[3];
};

/* ------------------------------------------------------------- AH */

/* UD work requests name the AH by this handle (wren_wqe_ud.ah). */
struct wren_ib_create_ah_resp {
	__u32 comp_mask;
	__u32 ah;
};

#endif /* WREN_ABI_USER_H */
