// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD multicast (WREN_CAP_RDMA_MCAST): a QP joins a group in the device's
 * table.  ib_core has checked that the QP is UD and the GID multicast;
 * ib_uverbs keeps userspace from attaching a QP to a group twice and
 * detaches what a closing process left.  Joining the IP group (IGMP or
 * MLD, the netdev's multicast list) is rdma_cm's, not the QP's: the
 * device receives the group's frames from the attach on.
 */
#include "wren_ib.h"

int wren_ib_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	return wren_cmd_attach_mcast(to_wdev(ibqp->device)->cdev,
				     to_wqp(ibqp)->qpn, gid->raw);
}

int wren_ib_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	return wren_cmd_detach_mcast(to_wdev(ibqp->device)->cdev,
				     to_wqp(ibqp)->qpn, gid->raw);
}
