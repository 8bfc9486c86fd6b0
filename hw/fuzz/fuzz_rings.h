/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The record format of fuzz_rings.c, shared with the seed generator. */
#ifndef WRENHW_FUZZ_RINGS_H
#define WRENHW_FUZZ_RINGS_H

enum fr_kind {
	FR_SQ_WQE,	/* u8 qp, u8 how, u8 n, n bytes of WQE */
	FR_SQ_DB,	/* u8 qp, u8 how, u32 index, u8 page */
	FR_RQ_WQE,	/* u8 queue, u8 how, u8 n, n bytes of receive WQE */
	FR_DBREC,	/* u8 which, u32 value */
	FR_CQ_DB,	/* u8 cq, u8 flags, u32 index */
	FR_POLL,	/* -: consume CQEs and events */
	FR_SETTLE,	/* u32 microseconds of simulated time */
	FR_QP_STATE,	/* u8 qp, u8 state (FR_RECONNECT: back to RTS) */
	FR_MR,		/* u8 what: deactivate, or write MTT and activate */
	FR_KINDS
};

/* FR_SQ_WQE / FR_RQ_WQE "how" bits. */
#define FR_FIX_IDX	0x01	/* wqe_idx = the slot's producer index */
#define FR_RING		0x02	/* ring the doorbell after writing */

/* FR_SQ_DB "how": which index and page the doorbell carries. */
#define FR_DB_RAW_INDEX	0x01	/* the record's index, not the driver's */
#define FR_DB_RAW_PAGE	0x02	/* the record's page, not the QP's */
#define FR_DB_SIZE4	0x04	/* a 32-bit write: a doorbell error */

/* FR_QP_STATE: this state value means RESET, then back to RTS. */
#define FR_RECONNECT	0xff

#endif
