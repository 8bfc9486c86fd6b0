/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The device itself: struct wrenhw, the state behind the host's opaque
 * handle, with the register-programmed queues, port, DCB and scratch
 * buffers it holds by value.
 */
#ifndef WHW_DEVICE_H
#define WHW_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/wren/wren_hw.h>

#include "cmd/whw_mcast.h"
#include "core/whw_ring.h"
#include "core/whw_table.h"
#include "core/whw_timer.h"
#include "port/whw_rxbuf.h"
#include "port/whw_sched.h"
#include "whw_board.h"
#include "whw_objects.h"
#include "wrenhw.h"

struct whw_roce_qp;	/* whw_roce.h: the RoCE state of a QP */

/* The loopback ring: frames to our own MAC wait here for roce_rx.c. */
#define WHW_LB_FRAMES		64u

struct whw_lb_frame {
	uint32_t len;
	uint8_t data[WHW_ROCE_MAX_FRAME];
};

struct whw_gid {
	uint8_t type;
	uint8_t flags;
	uint16_t vlan_id;
	uint8_t gid[16];
	uint8_t mac[6];
};

/* A register-programmed ring: AQ, ACQ or AEQ. */
struct whw_regq {
	uint64_t base;
	uint32_t log_size;
	bool enabled;
	struct whw_ring ring;	/* filled while enabled */
	uint32_t pi;		/* producer (AQ: driver's; ACQ/AEQ: device's) */
	uint32_t ci;		/* consumer (AQ: device's; ACQ/AEQ: driver's) */
	bool armed;
};

struct whw_port {
	bool phys_up;		/* what the wire says */
	uint32_t phys_speed;
	bool admin_up;
	bool flapping;		/* DIAG_FAULT LINK_FLAP holds it down */
	uint64_t flap_until_ns;
	bool reported_active;	/* last state posted as an event */
	uint8_t pause;
	uint16_t mtu;
	uint8_t mac[6];
	uint32_t link_down_count;
};

struct whw_dcb {
	/*
	 * What SET_ETS .. SET_PFC_WD set, as QUERY_DCB returns it but for
	 * two fields it fills in: buffer.total_size (the board's) and
	 * pfc_storm (both watchdogs' storms, below); here they stay 0.
	 */
	struct wren_dcb_state state;
	struct wren_cc_params cc[WREN_NUM_PRIO];
	/* PFC watchdogs' storm priorities (QUERY_DCB reports both). */
	uint8_t rx_storm;	/* paused too long: pauses ignored */
	uint8_t tx_storm;	/* host stuck: pauses no longer sent */
};

struct wrenhw {
	const struct wrenhw_host_ops *ops;
	void *opaque;

	/* Board (survives reset). */
	uint8_t mac[6];
	uint32_t num_msix;
	uint32_t num_db_pages;
	uint32_t link_speed;
	uint32_t max_qp, max_cq, max_eq, max_srq, max_pd, max_mr, max_ah;
	uint32_t max_mtt;
	uint32_t max_mw;	/* window keys: indexes max_mr .. + max_mw - 1 */
	uint64_t serial;
	uint64_t caps;		/* WREN_CAP_*: WHW_CAPS unless a test changes it */

	/* Registers. */
	uint32_t status;
	uint32_t control;
	uint32_t fatal_syndrome;
	uint32_t fatal_info;
	uint32_t mgmt_vector;
	uint32_t aq_error;
	uint32_t heartbeat_frozen;
	uint64_t epoch_ns;
	uint64_t clock_base;	/* device clock at clock_set_ns (services.c) */
	uint64_t clock_set_ns;
	struct whw_regq aq, acq, aeq;
	uint64_t aeq_dropped;
	bool aeq_overrun_pending;
	bool aeq_broken;	/* AEQ ring DMA failed: no more events */

	/* Admin engine. */
	bool aq_stall_armed;	/* DIAG AQ_STALL: swallow the next command */
	bool aq_stalled;	/* a command was swallowed: AQ stops */
	uint32_t aq_late_ms;	/* DIAG AQ_LATE: delay the next command */
	bool aq_late_pending;	/* aq_late_cmd waits for aq_late_timer */
	struct wren_aq_cmd aq_late_cmd;
	struct whw_timer aq_late_timer;
	bool diag_fatal_pending;	/* DIAG FATAL: after its completion */
	uint32_t drop_eqes;	/* DIAG DROP_EQE budget */
	uint32_t last_db_err_queue;	/* rate limit for unknown queues */

	/* Objects. */
	struct whw_table eqs, cqs, qps, srqs, pds, mrs, ahs, uars;
	struct whw_table mws;	/* slot = window index - max_mr */
	struct whw_table xrcds;	/* XRC domains, from 1 */
	struct whw_table txqs, rxqs;
	struct whw_uar kernel_uar;
	uint32_t mtt_used;
	uint32_t ring_pages_used;
	struct whw_ring *live_rings;
	struct whw_gid gids[WHW_MAX_GID];
	struct whw_mcast_group mcast[WHW_MAX_MCAST_GRP];
	uint32_t mcast_groups;	/* entries of mcast[] in use */

	/* Ethernet filter state (eth_rx.c uses it). */
	uint16_t rss_table_size;
	uint8_t rss_hash_types;
	uint8_t rss_key[WREN_RSS_KEY_SIZE];
	uint32_t rss_table[WREN_RSS_TABLE_MAX];
	uint32_t rx_mode_flags;
	uint32_t rx_num_macs;
	uint8_t rx_macs[WREN_RX_MODE_MAX_MACS][6];

	struct whw_port port;
	struct whw_dcb dcb;
	struct whw_rxbuf rxbuf;	/* receive buffers, pause generation */
	struct whw_timer *timers;	/* sorted by deadline */
	/* What the host's one timer is armed for (timer.c), if it is. */
	bool host_timer_armed;
	uint64_t host_timer_ns;
	struct whw_sched sched;		/* port_sched.c */
	struct whw_pause pause;		/* pause.c */

	/*
	 * Ethernet scratch: no per-packet allocation.  Both TX buffers keep
	 * WHW_VLAN_HLEN bytes of headroom in front for tag insertion.
	 */
	uint8_t tx_buf[WHW_VLAN_HLEN + WHW_TSO_MAX_PACKET];
	uint8_t seg_buf[WHW_VLAN_HLEN + WHW_ETH_MAX_FRAME];
	uint8_t rx_buf[WHW_ETH_MAX_FRAME];
	/*
	 * RoCE engine: one frame being built, and QPs with work pending: a
	 * pass of the process loop serves the run list, not every QP slot
	 * (roce_util.c); QPs the port stopped for room wait on the other.
	 */
	uint8_t roce_tx[WHW_ROCE_MAX_FRAME];
	bool roce_work;
	struct whw_roce_list {
		struct whw_roce_qp *head, *tail;
		uint32_t count;
	} roce_run, roce_wait;
	/* Frames to our own MAC loop back inside the NIC (roce_tx.c). */
	struct whw_lb_frame *lb;
	uint32_t lb_head, lb_count;

	uint64_t cnt_port[WREN_NUM_PORT_COUNTERS];
	uint64_t cnt_rdma[WREN_NUM_RDMA_COUNTERS];
	uint64_t cnt_prio[WREN_NUM_PRIO][WREN_NUM_PRIO_COUNTERS];
	uint64_t cnt_cc[WREN_NUM_CC_COUNTERS];
	uint64_t cnt_pfc[WREN_NUM_PRIO][WREN_NUM_PFC_COUNTERS];
};

/* device.c: everything back to power-on but the board and the wire. */
void whw_state_reset(struct wrenhw *hw);

#ifdef WHW_TEST_HOOKS
/*
 * Host tests only (mk/hw.mk defines WHW_TEST_HOOKS for wrenhw-tests, never
 * for libwrenhw.a or QEMU): advertise @caps instead of WHW_CAPS, so the
 * validation behind capability-gated commands stays tested before the
 * engines that would justify advertising them exist.
 */
void whw_test_set_caps(struct wrenhw *hw, uint64_t caps);
#endif

#endif
