// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Typed admin commands of the RDMA objects (UAR, PD, XRC domain, CQ, QP,
 * SRQ, MR, AH, GID), for wren_ib.ko and for the Ethernet half's CQs.  Each
 * runs through wren_cmd_exec() (AHs possibly through
 * wren_cmd_exec_atomic()); return values are described in
 * include/linux/wren/wren_cmd.h.
 */
#include "wren.h"

/* A command with an input structure whose result is a handle. */
static int wren_cmd_create(struct wren_core_dev *cdev, u8 opcode,
			   const void *in, size_t len, u32 *handle)
{
	struct wren_aq_cmd cmd = { .opcode = opcode };
	struct wren_acq_entry comp = {};
	int err;

	err = wren_cmd_exec(wren_from_core(cdev), &cmd, in, len, NULL, 0,
			    &comp);
	if (!err)
		*handle = le64_to_cpu(comp.result);
	return err;
}

/* An inline-handle command that is not a destroy. */
static int wren_cmd_handle(struct wren_core_dev *cdev, u8 opcode, u32 handle,
			   void *out, size_t out_len)
{
	struct wren_aq_cmd cmd = { .opcode = opcode };

	cmd.u.handle.handle = cpu_to_le32(handle);
	return wren_cmd_exec(wren_from_core(cdev), &cmd, NULL, 0, out, out_len,
			     NULL);
}

static int wren_cmd_in(struct wren_core_dev *cdev, u8 opcode, const void *in,
		       size_t len)
{
	struct wren_aq_cmd cmd = { .opcode = opcode };

	return wren_cmd_exec(wren_from_core(cdev), &cmd, in, len, NULL, 0, NULL);
}

/**
 * wren_cmd_alloc_uar() - ALLOC_UAR
 * @cdev: the device
 * @uar: the doorbell page allocated
 *
 * Return: 0 or an errno.
 */
int wren_cmd_alloc_uar(struct wren_core_dev *cdev, u32 *uar)
{
	return wren_cmd_create(cdev, WREN_AQ_OP_ALLOC_UAR, NULL, 0, uar);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_alloc_uar, WREN_CORE_NS);

/**
 * wren_cmd_dealloc_uar() - DEALLOC_UAR
 * @cdev: the device
 * @uar: the UAR
 *
 * Return: 0 when the UAR is gone (also on a dead device), else an errno:
 * the device may still use it and what it points to.
 */
int wren_cmd_dealloc_uar(struct wren_core_dev *cdev, u32 uar)
{
	return wren_cmd_destroy(wren_from_core(cdev), WREN_AQ_OP_DEALLOC_UAR, uar,
				false);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_dealloc_uar, WREN_CORE_NS);

/**
 * wren_cmd_alloc_pd() - ALLOC_PD
 * @cdev: the device
 * @pdn: the protection domain allocated
 *
 * Return: 0 or an errno.
 */
int wren_cmd_alloc_pd(struct wren_core_dev *cdev, u32 *pdn)
{
	return wren_cmd_create(cdev, WREN_AQ_OP_ALLOC_PD, NULL, 0, pdn);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_alloc_pd, WREN_CORE_NS);

/**
 * wren_cmd_dealloc_pd() - DEALLOC_PD
 * @cdev: the device
 * @pdn: the PD
 *
 * Return: 0 when the PD is gone (also on a dead device), else an errno:
 * the device may still use it and what it points to.
 */
int wren_cmd_dealloc_pd(struct wren_core_dev *cdev, u32 pdn)
{
	return wren_cmd_destroy(wren_from_core(cdev), WREN_AQ_OP_DEALLOC_PD, pdn,
				false);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_dealloc_pd, WREN_CORE_NS);

/**
 * wren_cmd_alloc_xrcd() - ALLOC_XRCD
 * @cdev: the device
 * @xrcdn: the XRC domain allocated
 *
 * Return: 0 or an errno (-EOPNOTSUPP without WREN_CAP_RDMA_XRC).
 */
int wren_cmd_alloc_xrcd(struct wren_core_dev *cdev, u32 *xrcdn)
{
	return wren_cmd_create(cdev, WREN_AQ_OP_ALLOC_XRCD, NULL, 0, xrcdn);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_alloc_xrcd, WREN_CORE_NS);

/**
 * wren_cmd_dealloc_xrcd() - DEALLOC_XRCD
 * @cdev: the device
 * @xrcdn: the XRC domain
 *
 * Return: 0 when the domain is gone (also on a dead device), else an
 * errno: -EBUSY while an SRQ or QP names it.
 */
int wren_cmd_dealloc_xrcd(struct wren_core_dev *cdev, u32 xrcdn)
{
	return wren_cmd_destroy(wren_from_core(cdev), WREN_AQ_OP_DEALLOC_XRCD,
				xrcdn, false);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_dealloc_xrcd, WREN_CORE_NS);

/**
 * wren_cmd_create_cq() - CREATE_CQ
 * @cdev: the device
 * @in: ring, doorbell record, EQ, UAR and size
 * @cqn: the new object's handle
 *
 * Return: 0 or an errno.
 */
int wren_cmd_create_cq(struct wren_core_dev *cdev,
		       const struct wren_create_cq_in *in, u32 *cqn)
{
	return wren_cmd_create(cdev, WREN_AQ_OP_CREATE_CQ, in, sizeof(*in), cqn);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_create_cq, WREN_CORE_NS);

/**
 * wren_cmd_destroy_cq() - DESTROY_CQ
 * @cdev: the device
 * @cqn: the CQ
 *
 * Return: 0 when the CQ is gone (also on a dead device), else an errno:
 * the device may still use it and what it points to.
 */
int wren_cmd_destroy_cq(struct wren_core_dev *cdev, u32 cqn)
{
	return wren_cmd_destroy(wren_from_core(cdev), WREN_AQ_OP_DESTROY_CQ, cqn,
				false);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_destroy_cq, WREN_CORE_NS);

/**
 * wren_cmd_resize_cq() - RESIZE_CQ
 * @cdev: the device
 * @in: the CQ, its new ring, doorbell record and size
 *
 * Return: 0 once the CQ uses the new ring (the old one is free), or an
 * errno: -ETIMEDOUT leaves it unknown which ring the device uses, any
 * other the old one.
 */
int wren_cmd_resize_cq(struct wren_core_dev *cdev,
		       const struct wren_resize_cq_in *in)
{
	return wren_cmd_in(cdev, WREN_AQ_OP_RESIZE_CQ, in, sizeof(*in));
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_resize_cq, WREN_CORE_NS);

/**
 * wren_cmd_create_qp() - CREATE_QP
 * @cdev: the device
 * @in: type, queues, CQs, SRQ, PD, UAR and buffer
 * @qpn: the new object's handle
 *
 * Return: 0 or an errno.
 */
int wren_cmd_create_qp(struct wren_core_dev *cdev,
		       const struct wren_create_qp_in *in, u32 *qpn)
{
	return wren_cmd_create(cdev, WREN_AQ_OP_CREATE_QP, in, sizeof(*in), qpn);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_create_qp, WREN_CORE_NS);

/**
 * wren_cmd_modify_qp() - MODIFY_QP
 * @cdev: the device
 * @in: the QP, its transition and the attributes named in attr_mask
 *
 * Return: 0 or an errno.
 */
int wren_cmd_modify_qp(struct wren_core_dev *cdev,
		       const struct wren_modify_qp_in *in)
{
	return wren_cmd_in(cdev, WREN_AQ_OP_MODIFY_QP, in, sizeof(*in));
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_modify_qp, WREN_CORE_NS);

/**
 * wren_cmd_query_qp() - QUERY_QP
 * @cdev: the device
 * @qpn: the QP
 * @out: its state and attributes
 *
 * Return: 0 or an errno.
 */
int wren_cmd_query_qp(struct wren_core_dev *cdev, u32 qpn,
		      struct wren_query_qp_out *out)
{
	return wren_cmd_handle(cdev, WREN_AQ_OP_QUERY_QP, qpn, out,
			       sizeof(*out));
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_query_qp, WREN_CORE_NS);

/**
 * wren_cmd_destroy_qp() - DESTROY_QP
 * @cdev: the device
 * @qpn: the QP
 *
 * Return: 0 when the QP is gone (also on a dead device), else an errno:
 * the device may still use it and what it points to.
 */
int wren_cmd_destroy_qp(struct wren_core_dev *cdev, u32 qpn)
{
	return wren_cmd_destroy(wren_from_core(cdev), WREN_AQ_OP_DESTROY_QP, qpn,
				false);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_destroy_qp, WREN_CORE_NS);

/**
 * wren_cmd_create_srq() - CREATE_SRQ
 * @cdev: the device
 * @in: PD, UAR, ring, doorbell record, size and limit
 * @srqn: the new object's handle
 *
 * Return: 0 or an errno.
 */
int wren_cmd_create_srq(struct wren_core_dev *cdev,
			const struct wren_create_srq_in *in, u32 *srqn)
{
	return wren_cmd_create(cdev, WREN_AQ_OP_CREATE_SRQ, in, sizeof(*in), srqn);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_create_srq, WREN_CORE_NS);

/**
 * wren_cmd_modify_srq_limit() - MODIFY_SRQ of the limit
 * @cdev: the device
 * @srqn: the SRQ
 * @limit: arm WREN_EVENT_SRQ_LIMIT for fewer posted WQEs than this
 *
 * Return: 0 or an errno.
 */
int wren_cmd_modify_srq_limit(struct wren_core_dev *cdev, u32 srqn, u32 limit)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_MODIFY_SRQ };

	cmd.u.modify_srq.srqn = cpu_to_le32(srqn);
	cmd.u.modify_srq.mask = cpu_to_le32(WREN_MODIFY_SRQ_LIMIT);
	cmd.u.modify_srq.limit = cpu_to_le32(limit);
	return wren_cmd_exec(wren_from_core(cdev), &cmd, NULL, 0, NULL, 0, NULL);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_modify_srq_limit, WREN_CORE_NS);

/**
 * wren_cmd_resize_srq() - RESIZE_SRQ
 * @cdev: the device
 * @in: the SRQ, its new ring (holding what software posted and has not
 *      seen completed), doorbell record and size
 *
 * Return: 0 once the SRQ takes its WQEs from the new ring (the old one is
 * free), or an errno: -ETIMEDOUT leaves it unknown which ring the device
 * reads, any other the old one.
 */
int wren_cmd_resize_srq(struct wren_core_dev *cdev,
			const struct wren_resize_srq_in *in)
{
	return wren_cmd_in(cdev, WREN_AQ_OP_RESIZE_SRQ, in, sizeof(*in));
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_resize_srq, WREN_CORE_NS);

/**
 * wren_cmd_query_srq() - QUERY_SRQ
 * @cdev: the device
 * @srqn: the SRQ
 * @out: its limit and the WQEs the device sees posted
 *
 * Return: 0 or an errno.
 */
int wren_cmd_query_srq(struct wren_core_dev *cdev, u32 srqn,
		       struct wren_query_srq_out *out)
{
	return wren_cmd_handle(cdev, WREN_AQ_OP_QUERY_SRQ, srqn, out,
			       sizeof(*out));
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_query_srq, WREN_CORE_NS);

/**
 * wren_cmd_destroy_srq() - DESTROY_SRQ
 * @cdev: the device
 * @srqn: the SRQ
 *
 * Return: 0 when the SRQ is gone (also on a dead device), else an errno:
 * the device may still use it and what it points to.
 */
int wren_cmd_destroy_srq(struct wren_core_dev *cdev, u32 srqn)
{
	return wren_cmd_destroy(wren_from_core(cdev), WREN_AQ_OP_DESTROY_SRQ, srqn,
				false);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_destroy_srq, WREN_CORE_NS);

/**
 * wren_cmd_create_mr() - CREATE_MR
 * @cdev: the device
 * @in: PD, rights, range, MTT entries to reserve, page size and key tag
 * @res: the MR's index and key
 *
 * Return: 0 or an errno.
 */
int wren_cmd_create_mr(struct wren_core_dev *cdev,
		       const struct wren_create_mr_in *in,
		       struct wren_cmd_mr_result *res)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_CREATE_MR };
	struct wren_acq_entry comp = {};
	int err;

	err = wren_cmd_exec(wren_from_core(cdev), &cmd, in, sizeof(*in), NULL,
			    0, &comp);
	if (!err) {
		res->index = le64_to_cpu(comp.result);
		res->key = le32_to_cpu(comp.result2);
	}
	return err;
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_create_mr, WREN_CORE_NS);

/**
 * wren_cmd_write_mtt() - WRITE_MTT
 * @cdev: the device
 * @mr_index: the MR
 * @first: the first of its translation entries to write
 * @mtt: @count bus addresses (__le64), written in place
 * @count: how many
 *
 * Return: 0 or an errno; -EIO also when an earlier command through @mtt
 * went unanswered.
 */
int wren_cmd_write_mtt(struct wren_core_dev *cdev, u32 mr_index, u32 first,
		       struct wren_cmd_inbuf *mtt, u32 count)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_WRITE_MTT };

	cmd.u.write_mtt.mr_index = cpu_to_le32(mr_index);
	cmd.u.write_mtt.first = cpu_to_le32(first);
	cmd.u.write_mtt.count = cpu_to_le32(count);
	return wren_cmd_exec_inbuf(wren_from_core(cdev), &cmd, mtt,
				   (size_t)count * sizeof(__le64));
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_write_mtt, WREN_CORE_NS);

/**
 * wren_cmd_activate_mr() - ACTIVATE_MR
 * @cdev: the device
 * @mr_index: the MR, every translation entry written
 *
 * Return: 0 or an errno.
 */
int wren_cmd_activate_mr(struct wren_core_dev *cdev, u32 mr_index)
{
	return wren_cmd_handle(cdev, WREN_AQ_OP_ACTIVATE_MR, mr_index, NULL, 0);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_activate_mr, WREN_CORE_NS);

/**
 * wren_cmd_deactivate_mr() - DEACTIVATE_MR
 * @cdev: the device
 * @mr_index: the MR; no DMA through it starts once this returns 0
 *
 * Return: 0 or an errno.
 */
int wren_cmd_deactivate_mr(struct wren_core_dev *cdev, u32 mr_index)
{
	return wren_cmd_handle(cdev, WREN_AQ_OP_DEACTIVATE_MR, mr_index, NULL,
			       0);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_deactivate_mr, WREN_CORE_NS);

/**
 * wren_cmd_modify_mr() - MODIFY_MR
 * @cdev: the device
 * @in: the MR and the attributes named in its mask
 *
 * Return: 0 or an errno.
 */
int wren_cmd_modify_mr(struct wren_core_dev *cdev,
		       const struct wren_modify_mr_in *in)
{
	return wren_cmd_in(cdev, WREN_AQ_OP_MODIFY_MR, in, sizeof(*in));
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_modify_mr, WREN_CORE_NS);

/**
 * wren_cmd_destroy_mr() - DESTROY_MR
 * @cdev: the device
 * @mr_index: the MR
 *
 * Return: 0 when the MR is gone (also on a dead device), else an errno:
 * the device may still use it and what it points to; -EBUSY (not
 * logged) while memory windows are bound to it.
 */
int wren_cmd_destroy_mr(struct wren_core_dev *cdev, u32 mr_index)
{
	struct wren_dev *wdev = wren_from_core(cdev);
	struct wren_acq_entry comp;
	int err;

	err = wren_cmd_destroy_quiet(wdev, WREN_AQ_OP_DESTROY_MR, mr_index,
				     false, &comp);
	/* BUSY: memory windows are bound to it, the user's doing. */
	if (err && comp.status != WREN_AQ_STATUS_BUSY)
		wren_cmd_destroy_warn(wdev, WREN_AQ_OP_DESTROY_MR, mr_index,
				      err, &comp);
	return err;
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_destroy_mr, WREN_CORE_NS);

/**
 * wren_cmd_create_mw() - CREATE_MW
 * @cdev: the device (WREN_CAP_RDMA_MW)
 * @pdn: the window's PD
 * @type: enum wren_mw_type
 * @key_tag: the low 8 bits of its key until a bind changes them
 * @res: the window's index and key
 *
 * Return: 0 or an errno.
 */
int wren_cmd_create_mw(struct wren_core_dev *cdev, u32 pdn, u8 type,
		       u8 key_tag, struct wren_cmd_mr_result *res)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_CREATE_MW };
	struct wren_acq_entry comp = {};
	int err;

	cmd.u.create_mw.pdn = cpu_to_le32(pdn);
	cmd.u.create_mw.type = type;
	cmd.u.create_mw.key_tag = key_tag;
	err = wren_cmd_exec(wren_from_core(cdev), &cmd, NULL, 0, NULL, 0,
			    &comp);
	if (!err) {
		res->index = le64_to_cpu(comp.result);
		res->key = le32_to_cpu(comp.result2);
	}
	return err;
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_create_mw, WREN_CORE_NS);

/**
 * wren_cmd_destroy_mw() - DESTROY_MW
 * @cdev: the device
 * @mw_index: the window, bound or not
 *
 * Return: 0 when the window is gone (also on a dead device): no access
 * through it starts after that; else an errno.
 */
int wren_cmd_destroy_mw(struct wren_core_dev *cdev, u32 mw_index)
{
	return wren_cmd_destroy(wren_from_core(cdev), WREN_AQ_OP_DESTROY_MW,
				mw_index, false);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_destroy_mw, WREN_CORE_NS);

static int wren_cmd_mcast(struct wren_core_dev *cdev, u8 opcode, u32 qpn,
			  const u8 *gid, struct wren_acq_entry *comp)
{
	struct wren_aq_cmd cmd = { .opcode = opcode };

	cmd.u.mcast.qpn = cpu_to_le32(qpn);
	memcpy(cmd.u.mcast.gid, gid, sizeof(cmd.u.mcast.gid));
	return wren_cmd_exec(wren_from_core(cdev), &cmd, NULL, 0, NULL, 0,
			     comp);
}

/**
 * wren_cmd_attach_mcast() - ATTACH_MCAST
 * @cdev: the device (WREN_CAP_RDMA_MCAST)
 * @qpn: a UD QP
 * @gid: the group's multicast GID, 16 bytes
 *
 * Return: 0; -EEXIST if the QP is in the group already, -ENOMEM if the
 * group table or the group is full, or another errno.
 */
int wren_cmd_attach_mcast(struct wren_core_dev *cdev, u32 qpn, const u8 *gid)
{
	struct wren_acq_entry comp = {};

	return wren_cmd_mcast(cdev, WREN_AQ_OP_ATTACH_MCAST, qpn, gid, &comp);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_attach_mcast, WREN_CORE_NS);

/**
 * wren_cmd_detach_mcast() - DETACH_MCAST
 * @cdev: the device
 * @qpn: a QP of the group
 * @gid: the group's GID, 16 bytes
 *
 * Return: 0 when the QP is out of the group (also on a dead device, whose
 * table went with it), or an errno (-ENOENT: the QP is not in that group).
 */
int wren_cmd_detach_mcast(struct wren_core_dev *cdev, u32 qpn, const u8 *gid)
{
	struct wren_acq_entry comp = {};
	int err;

	err = wren_cmd_mcast(cdev, WREN_AQ_OP_DETACH_MCAST, qpn, gid, &comp);
	return wren_cmd_died_with_device(wren_from_core(cdev), err, &comp) ?
	       0 : err;
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_detach_mcast, WREN_CORE_NS);

/**
 * wren_cmd_create_ah() - CREATE_AH
 * @cdev: the device
 * @in: PD and address vector
 * @sleepable: false from atomic context (ib_core's CM holds a spinlock):
 *	       the command then spins instead of sleeping
 * @ah: the new AH's handle
 *
 * Return: 0 or an errno; -EBUSY from atomic context when no admin slot
 * came free in time.
 */
int wren_cmd_create_ah(struct wren_core_dev *cdev,
		       const struct wren_create_ah_in *in, bool sleepable,
		       u32 *ah)
{
	struct wren_aq_cmd cmd = { .opcode = WREN_AQ_OP_CREATE_AH };
	struct wren_dev *wdev = wren_from_core(cdev);
	struct wren_acq_entry comp = {};
	int err;

	if (sleepable)
		err = wren_cmd_exec(wdev, &cmd, in, sizeof(*in), NULL, 0,
				    &comp);
	else
		err = wren_cmd_exec_atomic(wdev, &cmd, in, sizeof(*in), &comp);
	if (!err)
		*ah = le64_to_cpu(comp.result);
	return err;
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_create_ah, WREN_CORE_NS);

/**
 * wren_cmd_destroy_ah() - DESTROY_AH
 * @cdev: the device
 * @ah: the AH
 * @sleepable: false from atomic context, as for wren_cmd_create_ah()
 *
 * Return: 0 when the AH is gone (also on a dead device), else an errno.
 */
int wren_cmd_destroy_ah(struct wren_core_dev *cdev, u32 ah, bool sleepable)
{
	return wren_cmd_destroy(wren_from_core(cdev), WREN_AQ_OP_DESTROY_AH, ah,
				!sleepable);
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_destroy_ah, WREN_CORE_NS);

/**
 * wren_cmd_set_gid() - SET_GID
 * @cdev: the device
 * @in: the entry, its type, GID and MAC (WREN_GID_INVALID clears it)
 *
 * Return: 0 or an errno.
 */
int wren_cmd_set_gid(struct wren_core_dev *cdev,
		     const struct wren_set_gid_in *in)
{
	return wren_cmd_in(cdev, WREN_AQ_OP_SET_GID, in, sizeof(*in));
}
EXPORT_SYMBOL_NS_GPL(wren_cmd_set_gid, WREN_CORE_NS);
