// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Typed admin commands of the device, its port, the event queues, the
 * Ethernet queues and filters, DCB, counters and fault injection.  Each runs
 * through wren_cmd_exec(); return values are described in
 * include/linux/wren/wren_cmd.h.
 */
#include <linux/slab.h>

#include "wren.h"

/* A command with an input structure whose result is a handle. */
static int wren_cmd_create(struct wren_dev *wdev, u8 opcode, const void *in,
			   size_t len, u32 *handle)
{
	struct wren_aq_cmd cmd = { .opcode = opcode };
	struct wren_acq_entry comp = {};
	int err;

	err = wren_cmd_exec(wdev, &cmd, in, len, NULL, 0, &comp);
	if (!err)
		*handle = le64_to_cpu(comp.result);
	return err;
}

static int wren_cmd_in(struct wren_dev *wdev, u8 opcode, const void *in,
		       size_t len)
{
	struct wren_aq_cmd cmd = { .opcode = opcode };

	return wren_cmd_exec(wdev, &cmd, in, len, NULL, 0, NULL);
}

/* A setting the NIC refuses because another one excludes it (PFC and
 * 802.3x pause own the same link flow control) is a conflict with the
 * current state, not a bad value: BAD_STATE becomes -EBUSY here, where
 * the generic map says -EINVAL.
 */
static int wren_cmd_in_excl(struct wren_dev *wdev, u8 opcode, const void *in,
			    size_t len)
{
	struct wren_aq_cmd cmd = { .opcode = opcode };
	struct wren_acq_entry comp = {};
	int err;

	err = wren_cmd_exec(wdev, &cmd, in, len, NULL, 0, &comp);
	if (err && comp.status == WREN_AQ_STATUS_BAD_STATE)
		return -EBUSY;
	return err;
}

/**
 * wren_cmd_nop() - NOP: a round trip through the admin queue
 * @wdev: the device
 *
 * Return: 0 or an errno.
 */
int wren_cmd_nop(struct wren_dev *wdev)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_NOP };

	return wren_cmd_exec(wdev, &cmd, NULL, 0, NULL, 0, NULL);
}

/**
 * wren_cmd_set_clock() - SET_CLOCK: set the device clock
 * @wdev: the device (WREN_CAP_TIMESTAMP)
 * @ns: what the clock reads when the device runs the command
 *
 * Return: 0 or an errno.
 */
int wren_cmd_set_clock(struct wren_dev *wdev, u64 ns)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_SET_CLOCK };

	cmd.u.set_clock.ns = cpu_to_le64(ns);
	return wren_cmd_exec(wdev, &cmd, NULL, 0, NULL, 0, NULL);
}

/**
 * wren_cmd_query_device() - QUERY_DEVICE
 * @wdev: the device
 * @out: the attributes; fields an older device does not know read 0
 *
 * Return: 0 or an errno.
 */
int wren_cmd_query_device(struct wren_dev *wdev, struct wren_device_attr *out)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_QUERY_DEVICE };

	return wren_cmd_exec(wdev, &cmd, NULL, 0, out, sizeof(*out), NULL);
}

/**
 * wren_cmd_query_port() - QUERY_PORT
 * @cdev: the device
 * @out: the port's state and settings
 *
 * Return: 0 or an errno.
 */
int wren_cmd_query_port(struct wren_core_dev *cdev, struct wren_port_attr *out)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_QUERY_PORT };

	return wren_cmd_exec(wren_from_core(cdev), &cmd, NULL, 0, out,
			     sizeof(*out), NULL);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_query_port, WREN_CORE_NS);

/**
 * wren_cmd_set_port() - SET_PORT
 * @wdev: the device
 * @in: the settings named in its mask
 *
 * Return: 0 or an errno; -EBUSY when the NIC refuses 802.3x pause because
 * PFC is on (BAD_STATE).
 */
int wren_cmd_set_port(struct wren_dev *wdev, const struct wren_set_port_in *in)
{
	return wren_cmd_in_excl(wdev, WREN_AQ_OP_SET_PORT, in, sizeof(*in));
}

/**
 * wren_cmd_create_eq() - CREATE_EQ
 * @wdev: the device
 * @params: ring, size, vector and moderation
 * @eqn: the new EQ's number
 *
 * Return: 0 or an errno.
 */
int wren_cmd_create_eq(struct wren_dev *wdev,
		       const struct wren_aq_create_eq *params, u32 *eqn)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_CREATE_EQ };
	struct wren_acq_entry comp = {};
	int err;

	cmd.u.create_eq = *params;
	err = wren_cmd_exec(wdev, &cmd, NULL, 0, NULL, 0, &comp);
	if (!err)
		*eqn = le64_to_cpu(comp.result);
	return err;
}

/**
 * wren_cmd_destroy_eq() - DESTROY_EQ
 * @wdev: the device
 * @eqn: the EQ
 *
 * Return: 0 when the EQ is gone (also on a dead device), else an errno:
 * the device may still write the ring.
 */
int wren_cmd_destroy_eq(struct wren_dev *wdev, u32 eqn)
{
	return wren_cmd_destroy(wdev, WREN_AQ_OP_DESTROY_EQ, eqn, false);
}

/**
 * wren_cmd_modify_cq_moderation() - MODIFY_CQ of the interrupt moderation
 * @wdev: the device
 * @cqn: the CQ
 * @usec: at most this long between a CQE and its event
 * @count: or this many CQEs
 *
 * Return: 0 or an errno.
 */
int wren_cmd_modify_cq_moderation(struct wren_dev *wdev, u32 cqn, u16 usec,
				  u16 count)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_MODIFY_CQ };

	cmd.u.modify_cq.cqn = cpu_to_le32(cqn);
	cmd.u.modify_cq.mask = cpu_to_le32(WREN_MODIFY_CQ_MODERATION);
	cmd.u.modify_cq.moderation_usec = cpu_to_le16(usec);
	cmd.u.modify_cq.moderation_count = cpu_to_le16(count);
	return wren_cmd_exec(wdev, &cmd, NULL, 0, NULL, 0, NULL);
}

/**
 * wren_cmd_create_eth_txq() - CREATE_ETH_TXQ
 * @wdev: the device
 * @in: ring, CQ, size and priority
 * @txqn: the new queue's number
 *
 * Return: 0 or an errno.
 */
int wren_cmd_create_eth_txq(struct wren_dev *wdev,
			    const struct wren_create_eth_q_in *in, u32 *txqn)
{
	return wren_cmd_create(wdev, WREN_AQ_OP_CREATE_ETH_TXQ, in, sizeof(*in),
			       txqn);
}

/**
 * wren_cmd_create_eth_rxq() - CREATE_ETH_RXQ
 * @wdev: the device
 * @in: ring, CQ and size
 * @rxqn: the new queue's number
 *
 * Return: 0 or an errno.
 */
int wren_cmd_create_eth_rxq(struct wren_dev *wdev,
			    const struct wren_create_eth_q_in *in, u32 *rxqn)
{
	return wren_cmd_create(wdev, WREN_AQ_OP_CREATE_ETH_RXQ, in, sizeof(*in),
			       rxqn);
}

/**
 * wren_cmd_destroy_eth_txq() - DESTROY_ETH_TXQ
 * @wdev: the device
 * @txqn: the queue
 *
 * Return: 0 when the queue is gone (also on a dead device), else an errno.
 */
int wren_cmd_destroy_eth_txq(struct wren_dev *wdev, u32 txqn)
{
	return wren_cmd_destroy(wdev, WREN_AQ_OP_DESTROY_ETH_TXQ, txqn, false);
}

/**
 * wren_cmd_destroy_eth_rxq() - DESTROY_ETH_RXQ
 * @wdev: the device
 * @rxqn: the queue
 *
 * Return: 0 when the queue is gone (also on a dead device), else an errno.
 */
int wren_cmd_destroy_eth_rxq(struct wren_dev *wdev, u32 rxqn)
{
	return wren_cmd_destroy(wdev, WREN_AQ_OP_DESTROY_ETH_RXQ, rxqn, false);
}

/**
 * wren_cmd_set_rss() - SET_RSS
 * @wdev: the device
 * @in: key, hash types and indirection table (table_size 0: RSS off)
 *
 * Return: 0 or an errno.
 */
int wren_cmd_set_rss(struct wren_dev *wdev, const struct wren_set_rss_in *in)
{
	return wren_cmd_in(wdev, WREN_AQ_OP_SET_RSS, in, sizeof(*in));
}

/**
 * wren_cmd_set_rx_mode() - SET_RX_MODE
 * @wdev: the device
 * @in: promiscuous/all-multicast flags and the MAC filter list
 *
 * Return: 0 or an errno.
 */
int wren_cmd_set_rx_mode(struct wren_dev *wdev,
			 const struct wren_set_rx_mode_in *in)
{
	return wren_cmd_in(wdev, WREN_AQ_OP_SET_RX_MODE, in, sizeof(*in));
}

/**
 * wren_cmd_set_ets() - SET_ETS, on devices with WREN_CAP_DCB_ETS
 * @wdev: the device
 * @in: per-TC selection algorithm and bandwidth, per-priority TC
 *
 * Return: 0 or an errno (-EINVAL for a value out of range).
 */
int wren_cmd_set_ets(struct wren_dev *wdev, const struct wren_ets *in)
{
	return wren_cmd_in(wdev, WREN_AQ_OP_SET_ETS, in, sizeof(*in));
}

/**
 * wren_cmd_set_pfc() - SET_PFC, on devices with WREN_CAP_DCB_PFC
 * @wdev: the device
 * @in: the lossless priorities and the cable delay allowance
 *
 * Return: 0 or an errno; -EBUSY when the NIC refuses PFC because 802.3x
 * pause is on (BAD_STATE).
 */
int wren_cmd_set_pfc(struct wren_dev *wdev, const struct wren_pfc *in)
{
	return wren_cmd_in_excl(wdev, WREN_AQ_OP_SET_PFC, in, sizeof(*in));
}

/**
 * wren_cmd_set_trust() - SET_TRUST, on devices with WREN_CAP_DCB_DSCP_TRUST
 * @wdev: the device
 * @in: PCP or DSCP trust and the DSCP to priority map
 *
 * Return: 0 or an errno.
 */
int wren_cmd_set_trust(struct wren_dev *wdev, const struct wren_trust *in)
{
	return wren_cmd_in(wdev, WREN_AQ_OP_SET_TRUST, in, sizeof(*in));
}

/**
 * wren_cmd_set_buffer() - SET_BUFFER, on devices with WREN_CAP_DCB_BUFFER
 * @wdev: the device
 * @in: buffer sizes, XOFF/XON thresholds and the priority to buffer map
 *
 * Return: 0 or an errno.
 */
int wren_cmd_set_buffer(struct wren_dev *wdev, const struct wren_buffer *in)
{
	return wren_cmd_in(wdev, WREN_AQ_OP_SET_BUFFER, in, sizeof(*in));
}

/**
 * wren_cmd_set_maxrate() - SET_MAXRATE, on devices with WREN_CAP_DCB_MAXRATE
 * @wdev: the device
 * @in: per-TC rate limits in kb/s, 0 = unlimited
 *
 * Return: 0 or an errno (-EINVAL above the link speed).
 */
int wren_cmd_set_maxrate(struct wren_dev *wdev, const struct wren_maxrate *in)
{
	return wren_cmd_in(wdev, WREN_AQ_OP_SET_MAXRATE, in, sizeof(*in));
}

/**
 * wren_cmd_set_pfc_wd() - SET_PFC_WD, on devices with WREN_CAP_PFC_STORM_WD
 * @wdev: the device
 * @in: how long a priority may stay paused (RX) or its buffer stay full
 *	(TX) before the watchdog calls it a storm (0 = off), and how long it
 *	must then stay quiet to leave the storm
 *
 * Return: 0 or an errno (-EINVAL for a value the device refuses).
 */
int wren_cmd_set_pfc_wd(struct wren_dev *wdev, const struct wren_pfc_wd *in)
{
	return wren_cmd_in(wdev, WREN_AQ_OP_SET_PFC_WD, in, sizeof(*in));
}

/**
 * wren_cmd_set_cc() - SET_CC, on devices with WREN_CAP_DCQCN
 * @wdev: the device
 * @in: DCQCN parameters, applied whole to every priority in prio_mask
 *
 * Return: 0 or an errno (-EINVAL for a value out of the device's range,
 * which then keeps every priority's old parameters).
 */
int wren_cmd_set_cc(struct wren_dev *wdev, const struct wren_cc_params *in)
{
	return wren_cmd_in(wdev, WREN_AQ_OP_SET_CC, in, sizeof(*in));
}

/**
 * wren_cmd_query_cc() - QUERY_CC, on devices with WREN_CAP_DCQCN
 * @wdev: the device
 * @prio: the priority, 0 .. WREN_NUM_PRIO - 1
 * @out: its DCQCN parameters (prio_mask: that priority's bit)
 *
 * Return: 0 or an errno.
 */
int wren_cmd_query_cc(struct wren_dev *wdev, u8 prio,
		      struct wren_cc_params *out)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_QUERY_CC };

	cmd.u.handle.handle = cpu_to_le32(prio);
	return wren_cmd_exec(wdev, &cmd, NULL, 0, out, sizeof(*out), NULL);
}

/**
 * wren_cmd_query_dcb() - QUERY_DCB, on devices with any DCB capability
 * @wdev: the device
 * @out: the whole DCB state; fields an older device does not know read 0
 *
 * Return: 0 or an errno.
 */
int wren_cmd_query_dcb(struct wren_dev *wdev, struct wren_dcb_state *out)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_QUERY_DCB };

	return wren_cmd_exec(wdev, &cmd, NULL, 0, out, sizeof(*out), NULL);
}

/**
 * wren_cmd_query_counters() - QUERY_COUNTERS
 * @cdev: the device
 * @set: enum wren_counter_set
 * @index: the queue, for WREN_COUNTERS_ETH_QUEUE; else 0
 * @val: @n counters in the set's order; those the device lacks read 0
 * @n: how many the caller wants
 *
 * Return: 0 or an errno.
 */
int wren_cmd_query_counters(struct wren_core_dev *cdev, u8 set, u32 index,
			    u64 *val, unsigned int n)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_QUERY_COUNTERS };
	struct wren_acq_entry comp = {};
	unsigned int i, have;
	__le64 *raw;
	int err;

	raw = kcalloc(n, sizeof(*raw), GFP_KERNEL);
	if (!raw)
		return -ENOMEM;
	cmd.u.counters.set = set;
	cmd.u.counters.index = cpu_to_le32(index);
	err = wren_cmd_exec(wren_from_core(cdev), &cmd, NULL, 0, raw,
			    n * sizeof(*raw), &comp);
	if (!err) {
		/* A device reports the counters it has, perhaps fewer. */
		have = min_t(u64, le64_to_cpu(comp.result), n);
		for (i = 0; i < n; i++)
			val[i] = i < have ? le64_to_cpu(raw[i]) : 0;
	}
	kfree(raw);
	return err;
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_query_counters, WREN_CORE_NS);

/**
 * wren_cmd_diag_fault() - DIAG_FAULT, on devices with WREN_CAP_DIAG_FAULT
 * @wdev: the device
 * @fault: enum wren_diag_fault
 * @arg: its argument
 *
 * Return: 0 or an errno.
 */
int wren_cmd_diag_fault(struct wren_dev *wdev, u32 fault, u32 arg)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_DIAG_FAULT };

	cmd.u.diag_fault.fault = cpu_to_le32(fault);
	cmd.u.diag_fault.arg = cpu_to_le32(arg);
	return wren_cmd_exec(wdev, &cmd, NULL, 0, NULL, 0, NULL);
}
