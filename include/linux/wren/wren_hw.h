/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Wren NIC hardware contract, all of it: include this one header.
 *
 * The size checks below make any accidental layout change fail to build in
 * the driver, the device model and the provider alike.
 */
#ifndef _LINUX_WREN_HW_H
#define _LINUX_WREN_HW_H

#ifdef __KERNEL__
#include <linux/build_bug.h>
#else
#include <assert.h>
#endif
#include <linux/wren/wren_regs.h>
#include <linux/wren/wren_admin.h>
#include <linux/wren/wren_queues.h>

#define WREN_ASSERT_SIZE(type, size) \
	static_assert(sizeof(struct type) == (size), #type " layout changed")

WREN_ASSERT_SIZE(wren_buf_desc, 16);
WREN_ASSERT_SIZE(wren_aq_cmd, WREN_AQ_CMD_SIZE);
WREN_ASSERT_SIZE(wren_acq_entry, WREN_ACQ_ENTRY_SIZE);
WREN_ASSERT_SIZE(wren_device_attr, 256);
WREN_ASSERT_SIZE(wren_port_attr, 64);
WREN_ASSERT_SIZE(wren_set_port_in, 32);
WREN_ASSERT_SIZE(wren_create_cq_in, 64);
WREN_ASSERT_SIZE(wren_resize_cq_in, 40);
WREN_ASSERT_SIZE(wren_create_qp_in, 128);
WREN_ASSERT_SIZE(wren_av, 48);
WREN_ASSERT_SIZE(wren_modify_qp_in, 128);
WREN_ASSERT_SIZE(wren_query_qp_out, 128);
WREN_ASSERT_SIZE(wren_create_srq_in, 64);
WREN_ASSERT_SIZE(wren_resize_srq_in, 40);
WREN_ASSERT_SIZE(wren_query_srq_out, 32);
WREN_ASSERT_SIZE(wren_create_mr_in, 64);
WREN_ASSERT_SIZE(wren_modify_mr_in, 64);
WREN_ASSERT_SIZE(wren_query_mr_out, 48);
WREN_ASSERT_SIZE(wren_create_ah_in, 72);
WREN_ASSERT_SIZE(wren_set_gid_in, 48);
WREN_ASSERT_SIZE(wren_create_eth_q_in, 48);
WREN_ASSERT_SIZE(wren_set_rss_in, 1088);
WREN_ASSERT_SIZE(wren_set_rx_mode_in, 520);
WREN_ASSERT_SIZE(wren_ets, 32);
WREN_ASSERT_SIZE(wren_pfc, 16);
WREN_ASSERT_SIZE(wren_trust, 72);
WREN_ASSERT_SIZE(wren_buffer, 112);
WREN_ASSERT_SIZE(wren_maxrate, 64);
WREN_ASSERT_SIZE(wren_pfc_wd, 16);
WREN_ASSERT_SIZE(wren_dcb_state, 320);
WREN_ASSERT_SIZE(wren_cc_params, 80);
WREN_ASSERT_SIZE(wren_eqe, WREN_EQE_SIZE);
WREN_ASSERT_SIZE(wren_cqe, WREN_CQE_SIZE);
WREN_ASSERT_SIZE(wren_eth_cqe, WREN_CQE_SIZE);
WREN_ASSERT_SIZE(wren_cqe_ts, WREN_CQE64_SIZE - WREN_CQE_SIZE);
WREN_ASSERT_SIZE(wren_cqe64, WREN_CQE64_SIZE);
WREN_ASSERT_SIZE(wren_wqe_ctrl, 16);
WREN_ASSERT_SIZE(wren_wqe_raddr, 16);
WREN_ASSERT_SIZE(wren_wqe_atomic, 16);
WREN_ASSERT_SIZE(wren_wqe_flush, 16);
WREN_ASSERT_SIZE(wren_wqe_atomic_write, 16);
WREN_ASSERT_SIZE(wren_wqe_ud, 16);
WREN_ASSERT_SIZE(wren_wqe_reg_mr, 48);
WREN_ASSERT_SIZE(wren_wqe_bind_mw, 32);
WREN_ASSERT_SIZE(wren_wqe_sge, 16);
WREN_ASSERT_SIZE(wren_wqe_inline, 16);
WREN_ASSERT_SIZE(wren_rqe, 16);
WREN_ASSERT_SIZE(wren_eth_tx_desc, 32);
WREN_ASSERT_SIZE(wren_eth_rx_desc, 16);

#endif /* _LINUX_WREN_HW_H */
