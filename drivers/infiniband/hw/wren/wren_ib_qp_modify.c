// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The QP state machine: modify_qp checks the transition and its required
 * and optional attributes with ib_modify_qp_is_ok() (the same table the
 * device enforces), checks every value against the device's limits, and
 * translates the attributes to MODIFY_QP.  query_qp asks the device.
 * XRC initiator and target QPs are RC's halves: they take RC's attributes,
 * as ib_modify_qp_is_ok() lists them for their types.
 */
#include <linux/etherdevice.h>
#include <linux/lockdep.h>
#include <rdma/ib_cache.h>

#include "wren_ib.h"

/* Attributes this driver understands; the rest (alternate paths, path
 * migration, resizing, rate limits) the device does not do.
 */
#define WREN_IB_QP_ATTRS	(IB_QP_STATE | IB_QP_CUR_STATE | \
				 IB_QP_EN_SQD_ASYNC_NOTIFY | \
				 IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX | \
				 IB_QP_PORT | IB_QP_QKEY | IB_QP_AV | \
				 IB_QP_PATH_MTU | IB_QP_TIMEOUT | \
				 IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | \
				 IB_QP_RQ_PSN | IB_QP_MAX_QP_RD_ATOMIC | \
				 IB_QP_MIN_RNR_TIMER | IB_QP_SQ_PSN | \
				 IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_DEST_QPN)

/*
 * A QP may grant both FLUSH rights whether or not the device has FLUSH:
 * refusing them would fail every QP of an application that grants all
 * the rights there are (rdma-core's tests do), as mlx5 and rxe do not.
 * Without WREN_CAP_RDMA_FLUSH they are not passed on (wren_ib_qp_access())
 * and mean nothing: ib_core refuses an MR with them, since the device
 * does not report IB_DEVICE_FLUSH_*.
 */
#define WREN_IB_ACCESS_FLUSH	(WREN_IB_ACCESS_FLUSH_GLOBAL | \
				 WREN_IB_ACCESS_FLUSH_PERSISTENT)

static int wren_ib_check_qp_attr(struct wren_ib_dev *dev,
				 const struct ib_qp_attr *attr, int mask)
{
	const struct wren_device_attr *a = dev->attr;
	int rights = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
		     IB_ACCESS_LOCAL_WRITE | WREN_IB_ACCESS_FLUSH;

	if (dev->caps & WREN_CAP_RDMA_ATOMIC)
		rights |= IB_ACCESS_REMOTE_ATOMIC;
	if ((mask & IB_QP_ACCESS_FLAGS) && (attr->qp_access_flags & ~rights))
		return -EOPNOTSUPP;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index)
		return -EINVAL;
	if ((mask & IB_QP_PORT) && attr->port_num != WREN_IB_PORT)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if ((mask & IB_QP_TIMEOUT) && attr->timeout > 31)
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT) && attr->retry_cnt > 7)
		return -EINVAL;
	if ((mask & IB_QP_RNR_RETRY) && attr->rnr_retry > 7)
		return -EINVAL;
	if ((mask & IB_QP_MIN_RNR_TIMER) && attr->min_rnr_timer > 31)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > a->max_qp_init_rd_atom)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > a->max_qp_rd_atom)
		return -EINVAL;
	if ((mask & IB_QP_SQ_PSN) && attr->sq_psn > WREN_PSN_MASK)
		return -EINVAL;
	if ((mask & IB_QP_RQ_PSN) && attr->rq_psn > WREN_PSN_MASK)
		return -EINVAL;
	if ((mask & IB_QP_DEST_QPN) && attr->dest_qp_num > WREN_QPN_MASK)
		return -EINVAL;
	return 0;
}

static u16 wren_ib_qp_access(struct wren_ib_dev *dev, int ib_access)
{
	u32 a = wren_ib_access(ib_access) &
		~(WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_MW_BIND);

	if (!(dev->caps & WREN_CAP_RDMA_FLUSH))
		a &= ~(WREN_ACCESS_FLUSH_GLOBAL | WREN_ACCESS_FLUSH_PERSISTENT);
	return a;
}

static int wren_ib_fill_modify(struct wren_ib_dev *dev, struct wren_ib_qp *qp,
			       const struct ib_qp_attr *attr, int mask,
			       enum ib_qp_state cur, enum ib_qp_state new,
			       struct wren_modify_qp_in *in)
{
	u32 m = WREN_QP_ATTR_STATE;
	int err;

	lockdep_assert_held(&qp->lock);
	in->qpn = cpu_to_le32(qp->qpn);
	in->new_state = new;
	if (mask & IB_QP_CUR_STATE) {
		m |= WREN_QP_ATTR_CUR_STATE;
		in->cur_state = cur;
	}
	if (mask & IB_QP_EN_SQD_ASYNC_NOTIFY && attr->en_sqd_async_notify)
		m |= WREN_QP_ATTR_SQ_DRAIN_NOTIFY;
	if (mask & IB_QP_ACCESS_FLAGS) {
		m |= WREN_QP_ATTR_ACCESS_FLAGS;
		in->access_flags =
			cpu_to_le16(wren_ib_qp_access(dev, attr->qp_access_flags));
	}
	if (mask & IB_QP_QKEY) {
		m |= WREN_QP_ATTR_QKEY;
		in->qkey = cpu_to_le32(attr->qkey);
	}
	if (mask & IB_QP_AV) {
		err = wren_ib_av_from_ah_attr(dev, &attr->ah_attr, &in->av);
		if (err)
			return err;
		m |= WREN_QP_ATTR_AV;
	}
	if (mask & IB_QP_PATH_MTU) {
		m |= WREN_QP_ATTR_PATH_MTU;
		in->path_mtu = attr->path_mtu;
	}
	if (mask & IB_QP_TIMEOUT) {
		m |= WREN_QP_ATTR_TIMEOUT;
		in->timeout = attr->timeout;
	}
	if (mask & IB_QP_RETRY_CNT) {
		m |= WREN_QP_ATTR_RETRY_CNT;
		in->retry_cnt = attr->retry_cnt;
	}
	if (mask & IB_QP_RNR_RETRY) {
		m |= WREN_QP_ATTR_RNR_RETRY;
		in->rnr_retry = attr->rnr_retry;
	}
	if (mask & IB_QP_RQ_PSN) {
		m |= WREN_QP_ATTR_RQ_PSN;
		in->rq_psn = cpu_to_le32(attr->rq_psn);
	}
	if (mask & IB_QP_MAX_QP_RD_ATOMIC) {
		m |= WREN_QP_ATTR_MAX_QP_RD_ATOMIC;
		in->max_rd_atomic = attr->max_rd_atomic;
	}
	if (mask & IB_QP_MIN_RNR_TIMER) {
		m |= WREN_QP_ATTR_MIN_RNR_TIMER;
		in->min_rnr_timer = attr->min_rnr_timer;
	}
	if (mask & IB_QP_SQ_PSN) {
		m |= WREN_QP_ATTR_SQ_PSN;
		in->sq_psn = cpu_to_le32(attr->sq_psn);
	}
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC) {
		m |= WREN_QP_ATTR_MAX_DEST_RD_ATOMIC;
		in->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	}
	if (mask & IB_QP_DEST_QPN) {
		m |= WREN_QP_ATTR_DEST_QPN;
		in->dest_qpn = cpu_to_le32(attr->dest_qp_num);
	}
	in->attr_mask = cpu_to_le32(m);
	return 0;
}

int wren_ib_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		      int attr_mask, struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibqp->device);
	struct wren_ib_qp *qp = to_wqp(ibqp);
	struct wren_modify_qp_in in = {};
	enum ib_qp_state cur, new;
	u8 dmac[ETH_ALEN];
	bool resolved = false;
	int err;

	err = wren_ib_udata_none(udata);
	if (err)
		return err;
	if (attr_mask & ~WREN_IB_QP_ATTRS)
		return -EOPNOTSUPP;
	err = wren_ib_check_qp_attr(dev, attr, attr_mask);
	if (err)
		return err;
	/* A kernel consumer's unresolved path (wren_ib_resolve_dmac()),
	 * resolved before the QP's lock: it may wait for ARP.
	 */
	if (qp->kernel && (attr_mask & IB_QP_AV) &&
	    attr->ah_attr.type == RDMA_AH_ATTR_TYPE_ROCE &&
	    !memchr_inv(attr->ah_attr.roce.dmac, 0, ETH_ALEN)) {
		err = wren_ib_resolve_dmac(&attr->ah_attr, dmac);
		if (err) {
			ibdev_dbg(&dev->ibdev, "QP %u: no MAC for its path: %d\n",
				  qp->qpn, err);
			return err;
		}
		resolved = true;
	}

	mutex_lock(&qp->lock);
	cur = attr_mask & IB_QP_CUR_STATE ? attr->cur_qp_state :
					    READ_ONCE(qp->state);
	new = attr_mask & IB_QP_STATE ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, new, ibqp->qp_type, attr_mask)) {
		ibdev_dbg(&dev->ibdev, "QP %u: %d -> %d with mask 0x%x refused\n",
			  qp->qpn, cur, new, attr_mask);
		err = -EINVAL;
		goto out;
	}
	if (READ_ONCE(dev->dead)) {
		/*
		 * The device knows no QP any more.  Moving to ERR (before a
		 * drain, a teardown) or RESET is the driver's alone: work
		 * requests flush (wren_ib_flush.c).  Anything else needs a
		 * device that answers.
		 */
		if (new != IB_QPS_ERR && new != IB_QPS_RESET) {
			err = -EIO;
			goto out;
		}
		if (new == IB_QPS_RESET && qp->kernel)
			wren_ib_kqp_reset(qp);
		WRITE_ONCE(qp->state, new);
		goto out;
	}
	err = wren_ib_fill_modify(dev, qp, attr, attr_mask, cur, new, &in);
	if (err)
		goto out;
	if (resolved)
		memcpy(in.av.dmac, dmac, ETH_ALEN);
	err = wren_cmd_modify_qp(dev->cdev, &in);
	if (!err && new == IB_QPS_RESET && qp->kernel)
		wren_ib_kqp_reset(qp);
	if (!err)
		WRITE_ONCE(qp->state, new);
out:
	mutex_unlock(&qp->lock);
	return err;
}

static int wren_ib_access_to_ib(u16 access)
{
	int flags = 0;

	if (access & WREN_ACCESS_REMOTE_WRITE)
		flags |= IB_ACCESS_REMOTE_WRITE;
	if (access & WREN_ACCESS_REMOTE_READ)
		flags |= IB_ACCESS_REMOTE_READ;
	if (access & WREN_ACCESS_REMOTE_ATOMIC)
		flags |= IB_ACCESS_REMOTE_ATOMIC;
	if (access & WREN_ACCESS_FLUSH_GLOBAL)
		flags |= WREN_IB_ACCESS_FLUSH_GLOBAL;
	if (access & WREN_ACCESS_FLUSH_PERSISTENT)
		flags |= WREN_IB_ACCESS_FLUSH_PERSISTENT;
	return flags;
}

int wren_ib_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		     int attr_mask, struct ib_qp_init_attr *init_attr)
{
	struct wren_ib_dev *dev = to_wdev(ibqp->device);
	struct wren_ib_qp *qp = to_wqp(ibqp);
	struct wren_query_qp_out out;
	int err;

	mutex_lock(&qp->lock);
	err = wren_cmd_query_qp(dev->cdev, qp->qpn, &out);
	if (err)
		goto out;
	if (out.state > IB_QPS_ERR) {
		err = -EIO;
		goto out;
	}
	WRITE_ONCE(qp->state, out.state);

	memset(attr, 0, sizeof(*attr));
	attr->qp_state = out.state;
	attr->cur_qp_state = out.state;
	attr->path_mtu = out.path_mtu;
	attr->path_mig_state = IB_MIG_MIGRATED;
	attr->qkey = le32_to_cpu(out.qkey);
	attr->rq_psn = le32_to_cpu(out.rq_psn) & WREN_PSN_MASK;
	attr->sq_psn = le32_to_cpu(out.sq_psn) & WREN_PSN_MASK;
	attr->dest_qp_num = le32_to_cpu(out.dest_qpn) & WREN_QPN_MASK;
	attr->qp_access_flags = wren_ib_access_to_ib(le16_to_cpu(out.access_flags));
	attr->cap = qp->cap;
	if (!wren_ib_qp_datagram(qp))
		wren_ib_av_to_ah_attr(dev, &out.av, &attr->ah_attr);
	attr->pkey_index = 0;
	attr->port_num = WREN_IB_PORT;
	attr->sq_draining = out.sq_draining;
	attr->max_rd_atomic = out.max_rd_atomic;
	attr->max_dest_rd_atomic = out.max_dest_rd_atomic;
	attr->min_rnr_timer = out.min_rnr_timer;
	attr->timeout = out.timeout;
	attr->retry_cnt = out.retry_cnt;
	attr->rnr_retry = out.rnr_retry;

	memset(init_attr, 0, sizeof(*init_attr));
	init_attr->event_handler = ibqp->event_handler;
	init_attr->qp_context = ibqp->qp_context;
	init_attr->send_cq = ibqp->send_cq;
	init_attr->recv_cq = ibqp->recv_cq;
	init_attr->srq = ibqp->srq;
	init_attr->xrcd = ibqp->xrcd;		/* XRC targets */
	init_attr->cap = qp->cap;
	init_attr->sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR :
						  IB_SIGNAL_REQ_WR;
	init_attr->qp_type = ibqp->qp_type;
	init_attr->port_num = WREN_IB_PORT;
out:
	mutex_unlock(&qp->lock);
	return err;
}
