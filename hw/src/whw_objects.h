/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The objects the admin commands make (cmd_*.c), and what other files may
 * do with them: find a UAR, check an address vector, free one, free all.
 */
#ifndef WHW_OBJECTS_H
#define WHW_OBJECTS_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/wren/wren_hw.h>

#include "core/whw_ring.h"
#include "core/whw_table.h"
#include "core/whw_timer.h"
#include "whw_board.h"
#include "whw_err.h"
#include "wrenhw.h"

struct whw_eq {
	struct whw_obj hdr;
	struct whw_ring ring;
	uint32_t log_size;
	uint32_t vector;
	uint16_t moderation_usec;
	uint16_t moderation_count;
	uint32_t pi;		/* device producer, free-running */
	uint32_t ci;		/* last consumer index rung */
	bool armed;
	bool broken;		/* ring DMA failed: drops everything */
	bool overrun_pending;
	bool db_err_reported;
	uint64_t dropped;
	/* Moderation: EQEs written since arming, and the time limit. */
	uint32_t mod_pending;
	struct whw_timer mod_timer;
};

struct whw_uar {
	struct whw_obj hdr;
};

struct whw_pd {
	struct whw_obj hdr;
};

/* An XRC domain: its XRC SRQs and target QPs name it (refs). */
struct whw_xrcd {
	struct whw_obj hdr;
};

struct whw_cq {
	struct whw_obj hdr;
	struct whw_ring ring;
	uint32_t log_size;
	uint32_t stride;	/* wren_cqe_stride() of its CREATE_CQ flags */
	uint64_t dbrec_addr;
	struct whw_eq *eq;
	struct whw_uar *uar;
	uint16_t moderation_usec;
	uint16_t moderation_count;
	uint32_t pi;
	uint32_t ci;		/* from the last CQ doorbell */
	uint32_t arm;		/* WREN_DB_CQ_ARM_* pending, one-shot */
	bool error;		/* overrun or ring DMA failure: dead */
	bool db_err_reported;
	/* Moderation: CQEs held back while armed, and the time limit. */
	uint32_t mod_pending;
	struct whw_timer mod_timer;
};

struct whw_srq {
	struct whw_obj hdr;
	struct whw_ring buf;
	struct whw_pd *pd;
	struct whw_uar *uar;
	uint32_t log_size;
	uint32_t wqe_shift;
	uint32_t limit;
	uint64_t dbrec_addr;
	uint32_t ci;		/* WQEs the device consumed */
	bool db_err_reported;
	/* XRC SRQs (WREN_SRQ_F_XRC): their domain and their receives' CQ. */
	struct whw_xrcd *xrcd;
	struct whw_cq *cq;
};

struct whw_qp_attrs {
	uint8_t path_mtu;
	uint8_t timeout;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	uint8_t min_rnr_timer;
	uint8_t max_rd_atomic;
	uint8_t max_dest_rd_atomic;
	uint16_t access_flags;
	uint32_t qkey;
	uint32_t sq_psn;
	uint32_t rq_psn;
	uint32_t dest_qpn;
	struct wren_av av;	/* as the driver gave it (little-endian) */
};

struct whw_qp {
	struct whw_obj hdr;
	struct whw_ring buf;
	uint8_t type;
	uint8_t flags;
	uint8_t state;
	uint8_t sq_wqe_shift;
	uint8_t rq_wqe_shift;
	uint8_t sq_log_size;
	uint8_t rq_log_size;
	uint16_t max_inline;
	uint32_t rq_offset;
	uint64_t dbrec_addr;
	struct whw_pd *pd;
	struct whw_cq *send_cq;
	struct whw_cq *recv_cq;
	struct whw_srq *srq;
	struct whw_uar *uar;
	struct whw_qp_attrs attr;
	uint32_t sq_pi;		/* last SQ doorbell */
	uint32_t sq_ci;		/* WQEs the device completed */
	bool db_err_reported;
	struct whw_xrcd *xrcd;		/* XRC target QPs: their domain */
	struct whw_roce_qp *roce;	/* RoCE engine state (whw_roce.h) */
};

struct whw_mr {
	struct whw_obj hdr;
	struct whw_pd *pd;
	uint8_t state;		/* enum wren_mr_state */
	uint8_t page_shift;
	uint8_t key_tag;
	uint8_t flags;
	uint32_t access;
	uint64_t iova;
	uint64_t length;
	uint32_t num_mtt;
	uint32_t written;	/* entries with their bit set in `valid` */
	uint32_t mw_bound;	/* windows bound to it: no destroy, modify, inv */
	uint64_t *mtt;
	uint64_t *valid;	/* bitmap of written entries */
};

/*
 * A memory window (cmd_mw.c; bound by roce_mw_bind.c): its key's index is
 * max_mr + its slot.  While VALID it is bound to [addr, addr + length)
 * of `mr`, an address in the MR's iova space, with `access`
 * (WREN_ACCESS_REMOTE_* only), and `mr->mw_bound` counts it.  A type 2
 * window also belongs to the QP that bound it: its QPN, never a pointer,
 * as the QP may be destroyed and its slot's next QP has another number.
 */
struct whw_mw {
	struct whw_obj hdr;	/* id: the slot in hw->mws */
	struct whw_pd *pd;
	uint8_t type;		/* enum wren_mw_type */
	uint8_t state;		/* WREN_MR_FREE (unbound) or WREN_MR_VALID */
	uint8_t key_tag;
	uint32_t access;
	uint32_t qpn;		/* type 2, bound: the QP it was bound by */
	struct whw_mr *mr;	/* bound: the MR, else NULL */
	uint64_t addr;
	uint64_t length;
};

struct whw_ah {
	struct whw_obj hdr;
	struct whw_pd *pd;
	struct wren_av av;
};

struct whw_eth_q {
	struct whw_obj hdr;
	struct whw_ring ring;
	struct whw_cq *cq;
	bool rx;
	uint8_t prio;
	uint32_t log_size;
	uint32_t pi;
	uint32_t ci;
	bool error;
	bool db_err_reported;
	uint64_t counters[WREN_NUM_ETH_QUEUE_COUNTERS];
	/* Posted descriptors read ahead: absolute indexes dc_first.. */
	uint32_t dc_first;
	uint32_t dc_n;
	uint8_t dcache[WHW_ETH_DCACHE * sizeof(struct wren_eth_tx_desc)];
};

/* Defined by the cmd_*.c of each object, used across them. */
struct whw_err whw_check_av(struct wrenhw *hw, const struct wren_av *av,
			    uint32_t synd_base);
struct whw_uar *whw_lookup_uar(struct wrenhw *hw, uint32_t page);
void whw_cq_free(struct wrenhw *hw, struct whw_cq *cq);
void whw_eq_free(struct wrenhw *hw, struct whw_eq *eq);
void whw_qp_free(struct wrenhw *hw, struct whw_qp *qp);
void whw_srq_free(struct wrenhw *hw, struct whw_srq *srq);
void whw_mr_free(struct wrenhw *hw, struct whw_mr *mr);
/* An MR's WREN_ACCESS_* as CREATE_MR, MODIFY_MR and REG_MR take them. */
bool whw_mr_access_ok(const struct wrenhw *hw, uint32_t access);
/* The window of key index @index (max_mr + slot), or NULL. */
struct whw_mw *whw_mw_get(const struct wrenhw *hw, uint32_t index);
/* Unbinds @mw (FREE, its MR's count dropped); bound or not. */
void whw_mw_unbind(struct whw_mw *mw);
void whw_mw_unbind_qp(struct wrenhw *hw, uint32_t qpn);
void whw_mw_free(struct wrenhw *hw, struct whw_mw *mw);
void whw_eth_q_free(struct wrenhw *hw, struct whw_eth_q *q);
void whw_dcb_defaults(struct wrenhw *hw);
bool whw_rxq_in_rss(const struct wrenhw *hw, uint32_t rxq);

#endif
