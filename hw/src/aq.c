// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The admin queue engine: fetch 64-byte commands from the AQ ring, apply
 * the checks every command shares (opcode, flags, reserved bytes, buffer
 * lengths and addresses, the growth rule), run the opcode's handler and
 * answer with exactly one ACQ entry, in order.  The ACQ is never overrun:
 * fetching pauses while it is full.
 */
#include <stdlib.h>
#include <string.h>

#include "wrenhw_int.h"

#define OUT_MAX		1024u	/* largest output structure, with margin */

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
	OP(WREN_AQ_OP_CREATE_EQ, whw_cmd_create_eq, 0, true),
	OP(WREN_AQ_OP_DESTROY_EQ, whw_cmd_destroy_eq, 0, true),
	OP(WREN_AQ_OP_ALLOC_UAR, whw_cmd_alloc_uar, 0, false),
	OP(WREN_AQ_OP_DEALLOC_UAR, whw_cmd_dealloc_uar, 0, true),
	OP(WREN_AQ_OP_ALLOC_PD, whw_cmd_alloc_pd, 0, false),
	OP(WREN_AQ_OP_DEALLOC_PD, whw_cmd_dealloc_pd, 0, true),
	OP(WREN_AQ_OP_CREATE_CQ, whw_cmd_create_cq,
	   sizeof(struct wren_create_cq_in), false),
	OP(WREN_AQ_OP_DESTROY_CQ, whw_cmd_destroy_cq, 0, true),
	OP(WREN_AQ_OP_MODIFY_CQ, whw_cmd_modify_cq, 0, true),
	/* Reserved in contract 1.0: no handler, always NOT_SUPPORTED. */
	OPT(WREN_AQ_OP_RESIZE_CQ, NULL, 0, false, WREN_CAP_CQ_RESIZE),
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

bool whw_all_zero(const void *p, size_t len, size_t *first_nonzero)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < len; i++) {
		if (b[i]) {
			if (first_nonzero)
				*first_nonzero = i;
			return false;
		}
	}
	return true;
}

struct whw_err whw_check_rsvd_cmd(const struct whw_cmd *c, size_t off,
				  size_t len)
{
	size_t bad;

	if (whw_all_zero((const uint8_t *)c->cmd + off, len, &bad))
		return WHW_OK;
	return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
		       WREN_SYND_CMD | (uint32_t)(off + bad));
}

struct whw_err whw_check_rsvd_in(const struct whw_cmd *c, size_t off,
				 size_t len)
{
	size_t bad;

	if (whw_all_zero(c->in + off, len, &bad))
		return WHW_OK;
	return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
		       WREN_SYND_IN | (uint32_t)(off + bad));
}

void *whw_cmd_handle_obj(const struct whw_cmd *c, const struct whw_table *t,
			 struct whw_err *err)
{
	const struct wren_aq_handle *h = &c->cmd->u.handle;
	void *obj;

	*err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd, u.handle.rsvd),
				  sizeof(h->rsvd));
	if (err->status)
		return NULL;
	obj = whw_table_get(t, whw_le32(h->handle));
	if (!obj)
		*err = WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE,
			       WHW_SYND_CMD(u.handle.handle));
	return obj;
}

static bool buf_addr_ok(uint64_t addr)
{
	return addr && !(addr & 7);
}

/* The checks every command shares, then the handler. */
static struct whw_err run_cmd(struct wrenhw *hw, const struct wren_aq_cmd *cmd,
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

static uint32_t idx_diff(uint32_t a, uint32_t b)
{
	return (a - b) & WREN_INDEX_MASK;
}

static bool acq_full(const struct wrenhw *hw)
{
	return idx_diff(hw->acq.pi, hw->acq.ci) >= (1u << hw->acq.log_size);
}

static bool post_completion(struct wrenhw *hw, struct wren_acq_entry *e)
{
	uint32_t slot = hw->acq.pi & ((1u << hw->acq.log_size) - 1);
	uint64_t off = (uint64_t)slot * WREN_ACQ_ENTRY_SIZE;

	e->owner = wren_ring_phase(hw->acq.pi, hw->acq.log_size);
	if (whw_ring_write_entry(hw, &hw->acq.ring, off, e, sizeof(*e))) {
		whw_go_fatal(hw, WREN_FATAL_AQ_DMA,
			     (uint32_t)whw_ring_addr(&hw->acq.ring, off));
		return false;
	}
	hw->acq.pi = (hw->acq.pi + 1) & WREN_INDEX_MASK;
	if (hw->acq.armed) {
		hw->acq.armed = false;
		whw_irq(hw, hw->mgmt_vector);
	}
	return true;
}

static bool aq_can_run(const struct wrenhw *hw)
{
	return hw->aq.enabled && !(hw->status & WREN_STATUS_FATAL) &&
	       !hw->aq_stalled;
}

/* Commands per wrenhw_process() call, so the host's loop is never starved. */
#define AQ_BUDGET	64

void whw_aq_process(struct wrenhw *hw)
{
	unsigned int budget = AQ_BUDGET;

	while (aq_can_run(hw) && hw->aq.ci != hw->aq.pi && !acq_full(hw)) {
		if (!budget--) {
			if (hw->ops->schedule)
				hw->ops->schedule(hw->opaque);
			return;
		}
		uint32_t slot = hw->aq.ci & ((1u << hw->aq.log_size) - 1);
		uint64_t addr = hw->aq.base + (uint64_t)slot * WREN_AQ_CMD_SIZE;
		/* Handlers build their output structure in place. */
		_Alignas(8) uint8_t out[OUT_MAX];
		struct wren_aq_cmd cmd;
		struct wren_acq_entry e;
		struct whw_cmd c;
		struct whw_err err;

		if (hw->ops->dma_read(hw->opaque, addr, &cmd, sizeof(cmd))) {
			whw_go_fatal(hw, WREN_FATAL_AQ_DMA, (uint32_t)addr);
			return;
		}
		hw->aq.ci = (hw->aq.ci + 1) & WREN_INDEX_MASK;
		if (hw->aq_stall_armed) {
			/* DIAG AQ_STALL: this command never completes. */
			hw->aq_stall_armed = false;
			hw->aq_stalled = true;
			whw_log(hw, "wren: AQ stalled on cmd_id %u (injected)",
				whw_le16(cmd.cmd_id));
			return;
		}
		memset(&c, 0, sizeof(c));
		memset(out, 0, sizeof(out));
		c.cmd = &cmd;
		c.out = out;
		c.out_cap = sizeof(out);
		err = run_cmd(hw, &cmd, &c);
		memset(&e, 0, sizeof(e));
		e.cmd_id = cmd.cmd_id;
		e.status = err.status;
		e.syndrome = whw_le32(err.synd);
		if (!err.status) {
			e.out_len = whw_le32(c.out_size);
			e.result = whw_le64(c.result);
			e.result2 = whw_le32(c.result2);
		} else {
			whw_log(hw, "wren: cmd op 0x%02x id %u: status %u synd 0x%x",
				cmd.opcode, whw_le16(cmd.cmd_id), err.status,
				err.synd);
		}
		if (!post_completion(hw, &e))
			return;
		if (hw->diag_fatal_pending) {
			hw->diag_fatal_pending = false;
			whw_go_fatal(hw, WREN_FATAL_INJECTED, 0);
		}
	}
}

void whw_aq_doorbell(struct wrenhw *hw, uint32_t val)
{
	uint32_t pi = val & WREN_INDEX_MASK;

	if (!hw->aq.enabled || (hw->status & WREN_STATUS_FATAL))
		return;
	if (idx_diff(pi, hw->aq.ci) > (1u << hw->aq.log_size)) {
		/*
		 * More outstanding than the ring holds: ignore, report the
		 * value as written (bit 31 included); data2 = our CI.
		 */
		whw_aeq_post(hw, WREN_EVENT_AQ_ERR, WREN_AQ_STATUS_BAD_PARAM,
			     val, hw->aq.ci);
		return;
	}
	hw->aq.pi = pi;
	if (hw->ops->schedule)
		hw->ops->schedule(hw->opaque);
}

void whw_acq_doorbell(struct wrenhw *hw, uint32_t val)
{
	uint32_t ci = val & WREN_INDEX_MASK;

	if (!hw->aq.enabled)
		return;
	if (idx_diff(hw->acq.pi, ci) > (1u << hw->acq.log_size)) {
		hw->cnt_port[WREN_CNT_DB_ERRORS]++;
		return;		/* consumer beyond producer: ignored */
	}
	hw->acq.ci = ci;
	if (val & WREN_ARM) {
		if (hw->acq.pi != ci)
			whw_irq(hw, hw->mgmt_vector);
		else
			hw->acq.armed = true;
	}
	if (hw->aq.ci != hw->aq.pi && aq_can_run(hw) && hw->ops->schedule)
		hw->ops->schedule(hw->opaque);
}
