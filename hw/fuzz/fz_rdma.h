/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * An RDMA setup for the ring and wire harnesses, made through valid admin
 * commands as wren_ib.ko makes it: GIDs, a PD, an EQ, two CQs, an SRQ, a
 * data MR and a fast-registration MR, a type 1 and a type 2 memory window
 * (unbound), an AH, RC QPs A and B (B on the
 * SRQ), a UD QP in a multicast group and the GSI QP, all in RTS, with
 * receives posted.  RC and
 * the AH either loop back to this NIC (A <-> B: the ring harness's WQEs
 * meet the responder too) or lead to a peer on the wire that only the
 * wire harness's frames play.  Every number here is fixed, so the seed
 * generator can write WQEs and frames that hit live objects.
 */
#ifndef WRENHW_FUZZ_RDMA_H
#define WRENHW_FUZZ_RDMA_H

#include "fz.h"

/* This NIC (fz_board()) and its GIDs: 0 is IPv4-mapped, 1 IPv6. */
#define FZ_MAC		{ 0x02, 0x00, 0x00, 0x57, 0x52, 0x01 }
#define FZ_IP4		{ 10, 0, 0, 1 }
#define FZ_GID6		{ 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 }
/* The peer on the wire (fz_rdma_init(..., false)). */
#define FZ_PEER_MAC	{ 0x02, 0x00, 0x00, 0x57, 0x52, 0x99 }
#define FZ_PEER_IP4	{ 10, 0, 0, 99 }
#define FZ_PEER_GID6	{ 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x99 }
#define FZ_PEER_QPN	0x000abcu	/* both RC QPs talk to it */
#define FZ_PEER_UD_QPN	0x000abdu

/* QPs in creation order (QPNs from 2; the GSI QP is 1). */
enum { FZ_QP_A, FZ_QP_B, FZ_QP_UD, FZ_QP_GSI, FZ_NQP };
#define FZ_QPN_A	2u
#define FZ_QPN_B	3u
#define FZ_QPN_UD	4u
#define FZ_QPN_GSI	1u

/* PSNs: A sends from FZ_A_SQ_PSN and expects FZ_A_RQ_PSN; B likewise. */
#define FZ_A_SQ_PSN	0x000100u
#define FZ_A_RQ_PSN	0x000200u
#define FZ_B_SQ_PSN	0x000300u
#define FZ_B_RQ_PSN	0x000400u
#define FZ_QKEY		0x11111111u
#define FZ_PATH_MTU	3		/* 1024 bytes */

/* The data MR: 64 KiB of scattered 4 KiB pages, every right. */
#define FZ_MR_IOVA	0x10000000ull
#define FZ_MR_PAGES	16u
#define FZ_MR_LEN	(FZ_MR_PAGES * 4096ull)
#define FZ_MR_TAG	0xa5u
#define FZ_MR_KEY	(1u << 8 | FZ_MR_TAG)	/* MR index 1 */
#define FZ_FR_KEY	(2u << 8 | FZ_MR_TAG)	/* fast-reg MR, index 2 */
/* Windows in the PD (the data MR has MW_BIND): indexes from max_mr (16). */
#define FZ_MW1_KEY	(16u << 8 | 0x11u)	/* type 1 */
#define FZ_MW2_KEY	(17u << 8 | 0x22u)	/* type 2 */
#define FZ_AH		1u
/* The UD QP is in this IPv4 group (ATTACH_MCAST), for the wire's frames. */
#define FZ_MCAST_IP4	{ 239, 1, 2, 3 }
/* A page list of the data MR's pages, for REG_MR WQEs, at a fixed address. */
#define FZ_PBL		0x180000000ull

/* Ring geometry: 256-byte send and receive WQEs, 32 of each. */
#define FZ_WQE_SHIFT	8u
#define FZ_WQ_LOG	5u
#define FZ_CQ_LOG	7u

struct fz_cq {
	uint32_t cqn;
	uint64_t ring, dbrec;
	uint32_t ci;
};

struct fz_wq {
	uint32_t qpn;		/* or srqn */
	uint32_t uar;
	uint64_t buf, dbrec;
	uint64_t rq;		/* receive ring (QP buffer + rq_offset) */
	uint32_t sq_pi, rq_pi;
	bool has_rq;
};

struct fz_rdma {
	struct td *d;
	uint32_t pd, eq;
	struct fz_cq cq[2];	/* 0: sends, 1: receives */
	struct fz_wq qp[FZ_NQP];
	struct fz_wq srq;
	uint64_t mr_pages[FZ_MR_PAGES];
};

/*
 * @loop: RC and the AH lead back to this NIC; else to the wire's peer.
 * Aborts if the setup fails: the model refused valid commands.
 */
void fz_rdma_init(struct fz_rdma *r, bool loop);

/* A WQE of up to 1 << FZ_WQE_SHIFT bytes at the SQ's next slot. */
void fz_rdma_write_sq(struct fz_rdma *r, unsigned int q, const void *wqe,
		      size_t len);
void fz_rdma_ring_sq(struct fz_rdma *r, unsigned int q);
/* A receive WQE (raw) at the next RQ or SRQ slot, doorbell record updated. */
void fz_rdma_post_rq(struct fz_rdma *r, struct fz_wq *wq, const void *rqe,
		     size_t len);
/* A receive of @len bytes at @off of the data MR. */
void fz_rdma_recv(struct fz_rdma *r, struct fz_wq *wq, uint32_t off,
		  uint32_t len);
/* Consumes the CQ's completions (doorbell record updated); returns them. */
unsigned int fz_cq_poll(struct td *d, struct fz_cq *c);
/* MODIFY_QP to @state, with nothing else: ERR, SQD, RESET. */
void fz_rdma_qp_state(struct fz_rdma *r, unsigned int q, uint8_t state);
/* RESET and back to RTS as fz_rdma_init() left it. */
void fz_rdma_reconnect(struct fz_rdma *r, unsigned int q, bool loop);

#endif
