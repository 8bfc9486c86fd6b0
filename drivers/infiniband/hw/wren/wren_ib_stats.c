// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Port hardware counters for `rdma statistic`: the contract's RDMA
 * counter set (packets, bytes, retransmits, sequence errors, RNR NAKs,
 * ICRC errors, ack timeouts, ...) followed by its congestion-control set,
 * under their contract names, which are mlx5's (np_cnp_sent, rp_cnp_handled,
 * ...) - the latter only on a NIC with WREN_CAP_DCQCN.  Registered only
 * with WREN_CAP_COUNTERS.
 */
#include "wren_ib.h"

static const struct rdma_stat_desc wren_ib_stat_descs[] = {
	/* enum wren_rdma_counter */
	{ .name = "tx_roce_packets" },
	{ .name = "tx_roce_bytes" },
	{ .name = "rx_roce_packets" },
	{ .name = "rx_roce_bytes" },
	{ .name = "rx_icrc_errors" },
	{ .name = "rx_roce_discards" },
	{ .name = "retransmits" },
	{ .name = "local_ack_timeout_err" },
	{ .name = "rnr_nak_received" },
	{ .name = "rnr_nak_sent" },
	{ .name = "rnr_retry_exceeded" },
	{ .name = "packet_seq_err" },
	{ .name = "out_of_sequence" },
	{ .name = "duplicate_request" },
	{ .name = "implied_nak_seq_err" },
	{ .name = "req_remote_access_errors" },
	{ .name = "resp_remote_access_errors" },
	{ .name = "req_remote_invalid_request" },
	{ .name = "resp_local_length_error" },
	{ .name = "rx_write_requests" },
	{ .name = "rx_read_requests" },
	{ .name = "rx_atomic_requests" },
	{ .name = "cq_overflow" },
	{ .name = "tx_mcast_packets" },
	{ .name = "rx_mcast_packets" },
	/* enum wren_cc_counter */
	{ .name = "np_ecn_marked_roce_packets" },
	{ .name = "np_cnp_sent" },
	{ .name = "rp_cnp_handled" },
	{ .name = "rp_cnp_ignored" },
	{ .name = "rp_rate_reductions" },
};

#define WREN_IB_NUM_STATS	ARRAY_SIZE(wren_ib_stat_descs)

/* The CC names come last, so a NIC without DCQCN shows the prefix. */
static unsigned int wren_ib_num_stats(struct wren_ib_dev *dev)
{
	if (dev->caps & WREN_CAP_DCQCN)
		return WREN_IB_NUM_STATS;
	return WREN_NUM_RDMA_COUNTERS;
}

static struct rdma_hw_stats *wren_ib_alloc_hw_port_stats(struct ib_device *ibdev,
							 u32 port)
{
	BUILD_BUG_ON(WREN_IB_NUM_STATS !=
		     (int)WREN_NUM_RDMA_COUNTERS + (int)WREN_NUM_CC_COUNTERS);
	return rdma_alloc_hw_stats_struct(wren_ib_stat_descs,
					  wren_ib_num_stats(to_wdev(ibdev)),
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int wren_ib_get_hw_stats(struct ib_device *ibdev,
				struct rdma_hw_stats *stats, u32 port, int index)
{
	struct wren_ib_dev *dev = to_wdev(ibdev);
	int err;

	/* Counters the device lacks read 0. */
	err = wren_cmd_query_counters(dev->cdev, WREN_COUNTERS_RDMA, 0,
				      stats->value, WREN_NUM_RDMA_COUNTERS);
	if (err)
		return err;
	if (!(dev->caps & WREN_CAP_DCQCN))
		return WREN_NUM_RDMA_COUNTERS;
	err = wren_cmd_query_counters(dev->cdev, WREN_COUNTERS_CC, 0,
				      stats->value + WREN_NUM_RDMA_COUNTERS,
				      WREN_NUM_CC_COUNTERS);
	return err ? err : WREN_IB_NUM_STATS;
}

const struct ib_device_ops wren_ib_stats_ops = {
	.alloc_hw_port_stats = wren_ib_alloc_hw_port_stats,
	.get_hw_stats = wren_ib_get_hw_stats,
};
