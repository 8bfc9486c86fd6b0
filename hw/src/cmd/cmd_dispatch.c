// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Admin command dispatch: the opcode table, the checks every command
 * shares (opcode, feature, flags, reserved bytes, buffer lengths and
 * addresses, the growth rule) and the call of the opcode's handler.  It
 * stands above the cmd_*.c handlers and below the AQ engine (aq.c).
 */
#include <stdlib.h>

#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_err.h"
#include "whw_cmd.h"
#include "whw_handlers.h"

struct whw_op {
	whw_cmd_fn fn;
	uint32_t in_size;	/* defined input structure, 0: none */
	bool uses_inline;	/* parameters in wren_aq_cmd.u */
	uint64_t caps;		/* any one of these needed, 0: base command */
};

#define OP(code, handler, in_type, inl) \
	[code] = { handler, in_type, inl, 0 }
/* A command of an optional feature: NOT_SUPPORTED without its bit. */
#define OPT(code, handler, in_type, inl, cap) \
	[code] = { handler, in_type, inl, cap }

static const struct whw_op op_table[WREN_AQ_OP_MAX + 1] = {
	OP(WREN_AQ_OP_NOP, whw_cmd_nop, 0, false),
	OP(WREN_AQ_OP_QUERY_DEVICE, whw_cmd_query_device, 0, false),
	OP(WREN_AQ_OP_QUERY_PORT, whw_cmd_query_port, 0, false),
	OP(WREN_AQ_OP_SET_PORT, whw_cmd_set_port,
	   sizeof(struct wren_set_port_in), false),
	OPT(WREN_AQ_OP_SET_CLOCK, whw_cmd_set_clock, 0, true,
	    WREN_CAP_TIMESTAMP),
	OP(WREN_AQ_OP_CREATE_EQ, whw_cmd_create_eq, 0, true),
	OP(WREN_AQ_OP_DESTROY_EQ, whw_cmd_destroy_eq, 0, true),
	OP(WREN_AQ_OP_ALLOC_UAR, whw_cmd_alloc_uar, 0, false),
	OP(WREN_AQ_OP_DEALLOC_UAR, whw_cmd_dealloc_uar, 0, true),
	OP(WREN_AQ_OP_ALLOC_PD, whw_cmd_alloc_pd, 0, false),
	OP(WREN_AQ_OP_DEALLOC_PD, whw_cmd_dealloc_pd, 0, true),
	OPT(WREN_AQ_OP_ALLOC_XRCD, whw_cmd_alloc_xrcd, 0, false,
	    WREN_CAP_RDMA_XRC),
	OPT(WREN_AQ_OP_DEALLOC_XRCD, whw_cmd_dealloc_xrcd, 0, true,
	    WREN_CAP_RDMA_XRC),
	OP(WREN_AQ_OP_CREATE_CQ, whw_cmd_create_cq,
	   sizeof(struct wren_create_cq_in), false),
	OP(WREN_AQ_OP_DESTROY_CQ, whw_cmd_destroy_cq, 0, true),
	OP(WREN_AQ_OP_MODIFY_CQ, whw_cmd_modify_cq, 0, true),
	OPT(WREN_AQ_OP_RESIZE_CQ, whw_cmd_resize_cq,
	    sizeof(struct wren_resize_cq_in), false, WREN_CAP_CQ_RESIZE),
	OP(WREN_AQ_OP_CREATE_QP, whw_cmd_create_qp,
	   sizeof(struct wren_create_qp_in), false),
	OP(WREN_AQ_OP_MODIFY_QP, whw_cmd_modify_qp,
	   sizeof(struct wren_modify_qp_in), false),
	OP(WREN_AQ_OP_QUERY_QP, whw_cmd_query_qp, 0, true),
	OP(WREN_AQ_OP_DESTROY_QP, whw_cmd_destroy_qp, 0, true),
	OP(WREN_AQ_OP_CREATE_SRQ, whw_cmd_create_srq,
	   sizeof(struct wren_create_srq_in), false),
	OP(WREN_AQ_OP_MODIFY_SRQ, whw_cmd_modify_srq, 0, true),
	OP(WREN_AQ_OP_QUERY_SRQ, whw_cmd_query_srq, 0, true),
	OP(WREN_AQ_OP_DESTROY_SRQ, whw_cmd_destroy_srq, 0, true),
	OPT(WREN_AQ_OP_RESIZE_SRQ, whw_cmd_resize_srq,
	    sizeof(struct wren_resize_srq_in), false, WREN_CAP_SRQ_RESIZE),
	OPT(WREN_AQ_OP_CREATE_MW, whw_cmd_create_mw, 0, true,
	    WREN_CAP_RDMA_MW),
	OPT(WREN_AQ_OP_DESTROY_MW, whw_cmd_destroy_mw, 0, true,
	    WREN_CAP_RDMA_MW),
	OPT(WREN_AQ_OP_ATTACH_MCAST, whw_cmd_attach_mcast, 0, true,
	    WREN_CAP_RDMA_MCAST),
	OPT(WREN_AQ_OP_DETACH_MCAST, whw_cmd_detach_mcast, 0, true,
	    WREN_CAP_RDMA_MCAST),
	OP(WREN_AQ_OP_CREATE_MR, whw_cmd_create_mr,
	   sizeof(struct wren_create_mr_in), false),
	/* Input size depends on the command: see whw_write_mtt_in_size(). */
	OP(WREN_AQ_OP_WRITE_MTT, whw_cmd_write_mtt, 0, true),
	OP(WREN_AQ_OP_ACTIVATE_MR, whw_cmd_activate_mr, 0, true),
	OP(WREN_AQ_OP_DEACTIVATE_MR, whw_cmd_deactivate_mr, 0, true),
	OP(WREN_AQ_OP_MODIFY_MR, whw_cmd_modify_mr,
	   sizeof(struct wren_modify_mr_in), false),
	OP(WREN_AQ_OP_DESTROY_MR, whw_cmd_destroy_mr, 0, true),
	OP(WREN_AQ_OP_QUERY_MR, whw_cmd_query_mr, 0, true),
	OP(WREN_AQ_OP_CREATE_AH, whw_cmd_create_ah,
	   sizeof(struct wren_create_ah_in), false),
	OP(WREN_AQ_OP_DESTROY_AH, whw_cmd_destroy_ah, 0, true),
	OP(WREN_AQ_OP_SET_GID, whw_cmd_set_gid,
	   sizeof(struct wren_set_gid_in), false),
	OP(WREN_AQ_OP_CREATE_ETH_TXQ, whw_cmd_create_eth_q,
	   sizeof(struct wren_create_eth_q_in), false),
	OP(WREN_AQ_OP_DESTROY_ETH_TXQ, whw_cmd_destroy_eth_q, 0, true),
	OP(WREN_AQ_OP_CREATE_ETH_RXQ, whw_cmd_create_eth_q,
	   sizeof(struct wren_create_eth_q_in), false),
	OP(WREN_AQ_OP_DESTROY_ETH_RXQ, whw_cmd_destroy_eth_q, 0, true),
	OP(WREN_AQ_OP_SET_RSS, whw_cmd_set_rss,
	   sizeof(struct wren_set_rss_in), false),
	OP(WREN_AQ_OP_SET_RX_MODE, whw_cmd_set_rx_mode,
	   sizeof(struct wren_set_rx_mode_in), false),
	OPT(WREN_AQ_OP_SET_ETS, whw_cmd_set_ets, sizeof(struct wren_ets),
	    false, WREN_CAP_DCB_ETS),
	OPT(WREN_AQ_OP_SET_PFC, whw_cmd_set_pfc, sizeof(struct wren_pfc),
	    false, WREN_CAP_DCB_PFC),
	OPT(WREN_AQ_OP_SET_TRUST, whw_cmd_set_trust, sizeof(struct wren_trust),
	    false, WREN_CAP_DCB_DSCP_TRUST),
	OPT(WREN_AQ_OP_SET_BUFFER, whw_cmd_set_buffer,
	    sizeof(struct wren_buffer), false, WREN_CAP_DCB_BUFFER),
	OPT(WREN_AQ_OP_SET_MAXRATE, whw_cmd_set_maxrate,
	    sizeof(struct wren_maxrate), false, WREN_CAP_DCB_MAXRATE),
	OPT(WREN_AQ_OP_SET_PFC_WD, whw_cmd_set_pfc_wd,
	    sizeof(struct wren_pfc_wd), false, WREN_CAP_PFC_STORM_WD),
	OPT(WREN_AQ_OP_QUERY_DCB, whw_cmd_query_dcb, 0, false, WHW_CAPS_DCB),
	OPT(WREN_AQ_OP_SET_CC, whw_cmd_set_cc, sizeof(struct wren_cc_params),
	    false, WHW_CAPS_CC),
	OPT(WREN_AQ_OP_QUERY_CC, whw_cmd_query_cc, 0, true, WHW_CAPS_CC),
	OP(WREN_AQ_OP_QUERY_COUNTERS, whw_cmd_query_counters, 0, true),
	OP(WREN_AQ_OP_CLEAR_COUNTERS, whw_cmd_clear_counters, 0, true),
	OPT(WREN_AQ_OP_DIAG_FAULT, whw_cmd_diag_fault, 0, true,
	    WREN_CAP_DIAG_FAULT),
};

static bool buf_addr_ok(uint64_t addr)
{
	return addr && !(addr & 7);
}

/* The checks every command shares, then the handler. */
struct whw_err whw_cmd_run(struct wrenhw *hw, const struct wren_aq_cmd *cmd,
			    struct whw_cmd *c)
{
	const struct whw_op *op = NULL;
	uint32_t in_len = whw_le32(cmd->in_len);
	uint32_t out_len = whw_le32(cmd->out_len);
	uint64_t in_addr = whw_le64(cmd->in_addr);
	uint64_t out_addr = whw_le64(cmd->out_addr);
	uint32_t in_size;
	struct whw_err err;
	uint8_t *in;
	size_t bad;

	if (cmd->opcode <= WREN_AQ_OP_MAX)
		op = &op_table[cmd->opcode];
	if (!op || (!op->fn && !op->caps))
		return WHW_ERR(WREN_AQ_STATUS_BAD_OPCODE, WHW_SYND_CMD(opcode));
	/* Known, but its feature is absent (or reserved: no handler). */
	if ((op->caps && !(hw->caps & op->caps)) || !op->fn)
		return WHW_ERR(WREN_AQ_STATUS_NOT_SUPPORTED,
			       WHW_SYND_CMD(opcode));
	if (cmd->flags)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, WHW_SYND_CMD(flags));
	if (cmd->rsvd0)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, WHW_SYND_CMD(rsvd0));
	if (in_len > WREN_AQ_MAX_BUF_LEN)
		return WHW_ERR(WREN_AQ_STATUS_BAD_LENGTH, WHW_SYND_CMD(in_len));
	if (out_len > WREN_AQ_MAX_BUF_LEN)
		return WHW_ERR(WREN_AQ_STATUS_BAD_LENGTH,
			       WHW_SYND_CMD(out_len));
	in_size = op->in_size;
	if (cmd->opcode == WREN_AQ_OP_WRITE_MTT)
		in_size = whw_write_mtt_in_size(cmd);
	if (in_len < in_size)
		return WHW_ERR(WREN_AQ_STATUS_BAD_LENGTH, WHW_SYND_CMD(in_len));
	if (in_len && !buf_addr_ok(in_addr))
		return WHW_ERR(WREN_AQ_STATUS_BAD_ADDR, WHW_SYND_CMD(in_addr));
	if (out_len && !buf_addr_ok(out_addr))
		return WHW_ERR(WREN_AQ_STATUS_BAD_ADDR,
			       WHW_SYND_CMD(out_addr));
	if (!op->uses_inline &&
	    !whw_all_zero(cmd->u.raw, sizeof(cmd->u.raw), &bad))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       WREN_SYND_CMD | (uint32_t)
			       (offsetof(struct wren_aq_cmd, u) + bad));

	/* Zero-padded: missing bytes of a shorter input read as zero. */
	in = calloc(1, in_len > in_size ? in_len : (in_size ? in_size : 1));
	if (!in)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	if (in_len && hw->ops->dma_read(hw->opaque, in_addr, in, in_len)) {
		free(in);
		return WHW_ERR(WREN_AQ_STATUS_DMA_ERROR, WHW_SYND_CMD(in_addr));
	}
	/* Growth rule: bytes this device does not know must be zero. */
	if (in_len > in_size &&
	    !whw_all_zero(in + in_size, in_len - in_size, &bad)) {
		free(in);
		return WHW_ERR(WREN_AQ_STATUS_NOT_SUPPORTED,
			       WREN_SYND_IN | (uint32_t)(in_size + bad));
	}
	c->in = in;
	c->in_len = in_len;
	err = op->fn(hw, c);
	free(in);
	c->in = NULL;
	if (err.status)
		return err;
	if (out_len && c->out_size) {
		uint32_t n = out_len < c->out_size ? out_len : c->out_size;

		if (hw->ops->dma_write(hw->opaque, out_addr, c->out, n))
			return WHW_ERR(WREN_AQ_STATUS_DMA_ERROR,
				       WHW_SYND_CMD(out_addr));
		c->out_size = n;
	} else {
		c->out_size = 0;
	}
	return WHW_OK;
}
