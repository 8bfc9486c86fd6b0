/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The admin command handlers, one group per cmd_*.c, for the dispatch
 * table (cmd_dispatch.c).
 */
#ifndef WHW_HANDLERS_H
#define WHW_HANDLERS_H

#include <stdint.h>

#include <linux/wren/wren_hw.h>

#include "../whw_err.h"
#include "whw_cmd.h"

/* Handlers, one group per file. */
struct whw_err whw_cmd_nop(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_device(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_port(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_port(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_counters(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_clear_counters(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_diag_fault(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_clock(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_eq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_eq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_alloc_uar(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_dealloc_uar(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_alloc_pd(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_dealloc_pd(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_alloc_xrcd(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_dealloc_xrcd(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_ah(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_ah(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_gid(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_cq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_cq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_modify_cq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_resize_cq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_qp(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_modify_qp(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_qp(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_qp(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_srq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_modify_srq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_resize_srq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_srq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_srq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_mr(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_write_mtt(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_activate_mr(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_deactivate_mr(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_modify_mr(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_mr(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_mr(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_mw(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_mw(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_attach_mcast(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_detach_mcast(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_eth_q(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_eth_q(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_rss(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_rx_mode(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_ets(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_pfc(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_trust(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_buffer(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_maxrate(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_pfc_wd(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_dcb(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_cc(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_cc(struct wrenhw *hw, struct whw_cmd *c);

/* Variable-length input (WRITE_MTT): bytes the command defines. */
uint32_t whw_write_mtt_in_size(const struct wren_aq_cmd *cmd);

#endif
