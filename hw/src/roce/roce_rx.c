// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RoCEv2 steering and dispatch.  The Ethernet RX engine hands over every
 * frame it accepted (MAC filter, MTU, VLAN tag stripped); one that is
 * UDP to port 4791 for a GID in our table belongs to the RDMA engine and
 * never reaches an Ethernet RX queue (while an RDMA capability is
 * advertised).  A bad ICRC drops it (WREN_RDMA_CNT_RX_ICRC_ERRORS);
 * malformed packets and packets for no QP, a QP in the wrong state or of
 * the wrong type or opcode class (an XRC initiator takes only responses,
 * a target only requests), or from another peer than a connected (RC,
 * UC or XRC) QP's, are dropped
 * (WREN_RDMA_CNT_RX_ROCE_DISCARDS).  A CNP goes to its QP's reaction
 * point (roce_rp.c), every other packet past the QP checks to the
 * notification point (roce_cnp.c) first.  Packets for a multicast group
 * go to each of its QPs (cmd_mcast.c's table).  Frames that roce_tx.c looped
 * back to our own MAC or to our own groups come in here as well, from
 * the process loop.
 */
#include <string.h>

#include "../cmd/whw_mcast.h"
#include "../core/whw_events.h"
#include "../core/whw_table.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"
#include "whw_roce_api.h"

#define RDMA_CAPS	(WREN_CAP_RDMA_RC | WREN_CAP_RDMA_UD | WREN_CAP_RDMA_GSI | \
			 WREN_CAP_RDMA_UC)

/* Does a connected QP take a packet of @info's class and direction? */
static bool class_ok(const struct wrenhw *hw, const struct whw_qp *qp,
		     uint32_t info)
{
	bool uc = info & WHW_K_UC, xrc = info & WHW_K_XRC;
	bool req = info & WHW_K_REQ;

	if (info & WHW_K_UD)
		return false;
	switch (qp->type) {
	case WREN_QPT_RC:
		return !uc && !xrc && whw_roce_cap(hw, WREN_CAP_RDMA_RC);
	case WREN_QPT_UC:
		return uc && whw_roce_cap(hw, WREN_CAP_RDMA_UC);
	case WREN_QPT_XRC_INI:
	case WREN_QPT_XRC_TGT:
		return xrc && req == (qp->type == WREN_QPT_XRC_TGT) &&
		       whw_roce_cap(hw, WREN_CAP_RDMA_RC) &&
		       whw_roce_cap(hw, WREN_CAP_RDMA_XRC);
	default:
		return false;
	}
}

static void discard(struct wrenhw *hw)
{
	hw->cnt_rdma[WREN_RDMA_CNT_RX_ROCE_DISCARDS]++;
}

static bool receives(const struct whw_qp *qp)
{
	return qp && qp->roce && qp->state != WREN_QPS_RESET &&
	       qp->state != WREN_QPS_INIT && qp->state != WREN_QPS_ERR;
}

/*
 * A packet for a multicast group: to the multicast QPN, a UD send, and
 * received by each QP of the group as a UD QP receives.  Multicast has no
 * congestion notification: no single sender to notify.
 */
static void mcast_rx(struct wrenhw *hw, const struct whw_pkt *p)
{
	const struct whw_mcast_group *g = whw_mcast_find(hw, p->dgid);

	if (!g || p->dqpn != WREN_MCAST_QPN || !(p->info & WHW_K_UD) ||
	    !whw_roce_cap(hw, WREN_CAP_RDMA_UD)) {
		discard(hw);
		return;
	}
	hw->cnt_rdma[WREN_RDMA_CNT_RX_MCAST_PACKETS]++;
	/* Only commands change a group, never a receive. */
	for (uint32_t i = 0; i < g->nqp; i++) {
		struct whw_qp *qp = whw_table_get(&hw->qps, g->qpn[i]);

		if (receives(qp))
			whw_ud_rx(hw, qp, p);
	}
}

bool whw_roce_rx(struct wrenhw *hw, const uint8_t *f, uint32_t len,
		 bool vlan, uint16_t vlan_tci)
{
	struct whw_pkt p;
	struct whw_qp *qp;
	int rc;

	if (!(hw->caps & RDMA_CAPS) || !whw_roce_is_ours(hw, f, len))
		return false;
	hw->cnt_rdma[WREN_RDMA_CNT_RX_ROCE_PACKETS]++;
	hw->cnt_rdma[WREN_RDMA_CNT_RX_ROCE_BYTES] += len;
	rc = whw_roce_parse(f, len, &p);
	if (rc == WHW_PARSE_ICRC) {
		hw->cnt_rdma[WREN_RDMA_CNT_RX_ICRC_ERRORS]++;
		return true;
	}
	if (rc != WHW_PARSE_OK) {
		discard(hw);
		return true;
	}
	p.vlan = vlan;
	p.vlan_tci = vlan_tci;
	if (wren_gid_is_mcast(p.dgid)) {
		mcast_rx(hw, &p);
		return true;
	}
	qp = whw_table_get(&hw->qps, p.dqpn);
	if (!receives(qp)) {
		discard(hw);
		return true;
	}
	/* Congestion control: CNPs are the RP's, CE marks the NP's. */
	if (p.opcode == WHW_OP_CNP) {
		whw_rp_cnp(hw, qp, &p);
		return true;
	}
	whw_np_rx(hw, qp, &p);
	if (wren_qpt_datagram(qp->type)) {
		if (!whw_roce_cap(hw, qp->type == WREN_QPT_UD ?
				  WREN_CAP_RDMA_UD : WREN_CAP_RDMA_GSI)) {
			discard(hw);
			return true;
		}
		whw_ud_rx(hw, qp, &p);
		return true;
	}
	/*
	 * RC, UC and XRC: connected to one peer, which must be the sender,
	 * and only the QP's own class of opcodes.
	 */
	if (!class_ok(hw, qp, p.info) || memcmp(p.sgid, qp->attr.av.dgid, 16)) {
		discard(hw);
		return true;
	}
	if (qp->state == WREN_QPS_RTR && !qp->roce->comm_est) {
		qp->roce->comm_est = true;
		whw_aeq_post(hw, WREN_EVENT_QP_COMM_EST, 0, qp->hdr.id, 0);
	}
	if (qp->type == WREN_QPT_UC)
		whw_uc_rx(hw, qp, &p);
	else if (p.info & WHW_K_REQ)
		whw_resp_rx(hw, qp, &p);
	else
		whw_comp_rx(hw, qp, &p);
	return true;
}

void whw_roce_loopback_rx(struct wrenhw *hw)
{
	/* Only what is queued now: replies wait for the next call. */
	for (uint32_t n = hw->lb_count; n && hw->lb_count; n--) {
		const struct whw_lb_frame *lb = &hw->lb[hw->lb_head];
		uint32_t len = lb->len;
		bool tagged = len >= 18 && lb->data[12] == 0x81 &&
			      lb->data[13] == 0;
		uint16_t tci = tagged ? whw_rd16be(lb->data + 14) : 0;

		/* Copied out (untagged) first: replies may reuse the slot. */
		memcpy(hw->rx_buf, lb->data, 12);
		if (tagged) {
			memcpy(hw->rx_buf + 12, lb->data + 16, len - 16);
			len -= 4;
		} else {
			memcpy(hw->rx_buf + 12, lb->data + 12, len - 12);
		}
		hw->lb_head = (hw->lb_head + 1) % WHW_LB_FRAMES;
		hw->lb_count--;
		if (!whw_roce_rx(hw, hw->rx_buf, len, tagged, tci))
			hw->cnt_rdma[WREN_RDMA_CNT_RX_ROCE_DISCARDS]++;
	}
}
