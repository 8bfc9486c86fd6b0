// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wren_ib.ko: the RDMA half of the Wren NIC, an auxiliary driver for the
 * "wren.rdma" device that wren.ko creates on NICs with RDMA capabilities.
 * It registers the ib_device "wren_%d" (parent: the PCI function), whose
 * verbs serve user space through ib_uverbs and the libwren provider:
 * contexts with a private doorbell page, PDs, CQs, RC and UD QPs, SRQs,
 * XRC domains, SRQs and QPs, AHs, MRs (of user memory, and pinned dma-buf
 * MRs of memory another device exports), RoCEv2 GIDs, async events and
 * counters.
 *
 * Kernel verbs serve in-kernel consumers (the RDMA CM, nvme-rdma and
 * nvmet-rdma, iSER, SRP, NFS/RDMA): kernel PDs (the reserved lkey as
 * local_dma_lkey), CQs, RC/UD QPs and SRQs with post_send, post_recv,
 * post_srq_recv, poll_cq and req_notify_cq, fast registration (alloc_mr,
 * map_mr_sg, IB_WR_REG_MR) with local and remote invalidation, and the
 * GSI QP with which ib_core's MAD layer and the RDMA CM run over RoCEv2.
 * What is not implemented fails with -EOPNOTSUPP; rdma.rst lists it.
 */
#include <linux/auxiliary_bus.h>
#include <linux/dma-mapping.h>
#include <linux/dmapool.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <rdma/wren-abi.h>
#include <rdma/wren_peer_mem.h>

#include "wren_ib.h"

#define WREN_IB_REQUIRED_CAPS	WREN_CAP_RDMA_RC

static const struct ib_device_ops wren_ib_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.uverbs_abi_ver = WREN_IB_UVERBS_ABI_VERSION,

	.add_gid = wren_ib_add_gid,
	.alloc_mr = wren_ib_alloc_mr,
	.alloc_pd = wren_ib_alloc_pd,
	.alloc_ucontext = wren_ib_alloc_ucontext,
	.create_ah = wren_ib_create_ah,
	.create_cq = wren_ib_create_cq,
	.create_qp = wren_ib_create_qp,
	.create_user_ah = wren_ib_create_ah,
	.dealloc_pd = wren_ib_dealloc_pd,
	.dealloc_ucontext = wren_ib_dealloc_ucontext,
	.del_gid = wren_ib_del_gid,
	.dereg_mr = wren_ib_dereg_mr,
	.destroy_ah = wren_ib_destroy_ah,
	.destroy_cq = wren_ib_destroy_cq,
#ifdef HAVE_IB_RESIZE_USER_CQ
	.resize_user_cq = wren_ib_resize_cq,
#else
	.resize_cq = wren_ib_resize_cq,
#endif
	.destroy_qp = wren_ib_destroy_qp,
	.disassociate_ucontext = wren_ib_disassociate_ucontext,
	.fill_res_cq_entry = wren_ib_fill_res_cq_entry,
	.fill_res_mr_entry = wren_ib_fill_res_mr_entry,
	.fill_res_qp_entry = wren_ib_fill_res_qp_entry,
	.get_dev_fw_str = wren_ib_get_dev_fw_str,
	.get_dma_mr = wren_ib_get_dma_mr,
	.get_link_layer = wren_ib_get_link_layer,
#ifndef HAVE_IB_DEVICE_GET_NETDEV
	.get_netdev = wren_ib_get_netdev,
#endif
	.get_port_immutable = wren_ib_get_port_immutable,
	.map_mr_sg = wren_ib_map_mr_sg,
	.mmap = wren_ib_mmap,
	.mmap_free = wren_ib_mmap_free,
	.modify_qp = wren_ib_modify_qp,
	.poll_cq = wren_ib_poll_cq,
	.post_recv = wren_ib_post_recv,
	.post_send = wren_ib_post_send,
	.query_ah = wren_ib_query_ah,
	.query_device = wren_ib_query_device,
	.query_pkey = wren_ib_query_pkey,
	.query_port = wren_ib_query_port,
	.query_qp = wren_ib_query_qp,
	.query_ucontext = wren_ib_query_ucontext,
	.reg_user_mr = wren_ib_reg_user_mr,
	.reg_user_mr_dmabuf = wren_ib_reg_user_mr_dmabuf,
	.req_notify_cq = wren_ib_req_notify_cq,
	.rereg_user_mr = wren_ib_rereg_user_mr,

	INIT_RDMA_OBJ_SIZE(ib_ah, wren_ib_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, wren_ib_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, wren_ib_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, wren_ib_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, wren_ib_ucontext, ibuctx),
};

static const struct ib_device_ops wren_ib_srq_ops = {
	.create_srq = wren_ib_create_srq,
	.destroy_srq = wren_ib_destroy_srq,
#ifdef HAVE_IB_FILL_RES_SRQ_ENTRY
	.fill_res_srq_entry = wren_ib_fill_res_srq_entry,
#endif
	.modify_srq = wren_ib_modify_srq,
	.post_srq_recv = wren_ib_post_srq_recv,
	.query_srq = wren_ib_query_srq,

	INIT_RDMA_OBJ_SIZE(ib_srq, wren_ib_srq, ibsrq),
};

static const struct ib_device_ops wren_ib_mw_ops = {
	.alloc_mw = wren_ib_alloc_mw,
	.dealloc_mw = wren_ib_dealloc_mw,

	INIT_RDMA_OBJ_SIZE(ib_mw, wren_ib_mw, ibmw),
};

static const struct ib_device_ops wren_ib_xrc_ops = {
	.alloc_xrcd = wren_ib_alloc_xrcd,
	.dealloc_xrcd = wren_ib_dealloc_xrcd,

	INIT_RDMA_OBJ_SIZE(ib_xrcd, wren_ib_xrcd, ibxrcd),
};

static const struct ib_device_ops wren_ib_mcast_ops = {
	.attach_mcast = wren_ib_attach_mcast,
	.detach_mcast = wren_ib_detach_mcast,
};

static void wren_ib_dev_init(struct wren_ib_dev *dev, struct wren_aux_dev *wadev)
{
	struct pci_dev *pdev = wadev->cdev->pdev;
	u32 bar_pages;

	dev->wadev = wadev;
	dev->cdev = wadev->cdev;
	dev->dmadev = &pdev->dev;
	dev->netdev = wadev->netdev;
	dev->attr = &dev->cdev->attr;
	dev->caps = dev->cdev->caps;
	dev->pgsz_bitmap = le64_to_cpu(dev->attr->page_size_cap) &
			   WREN_IB_PGSZ_RANGE;
	dev->db_bar = pci_resource_start(pdev, WREN_BAR_DB);
	dev->regs_bar = pci_resource_start(pdev, WREN_BAR_REGS);
	/* Never map a page the BAR does not have, whatever the device says. */
	bar_pages = pci_resource_len(pdev, WREN_BAR_DB) >> WREN_DB_PAGE_SHIFT;
	dev->num_db_pages = min_t(u32, le16_to_cpu(dev->attr->num_db_pages),
				  bar_pages);
	dev->kdb = wadev->kernel_db;
	if (dev->caps & WREN_CAP_RDMA_RESERVED_LKEY)
		dev->reserved_lkey = le32_to_cpu(dev->attr->reserved_lkey);
	dev->ibdev.local_dma_lkey = dev->reserved_lkey;
	xa_init_flags(&dev->cqs, XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&dev->qps, XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&dev->srqs, XA_FLAGS_LOCK_IRQ);
	init_rwsem(&dev->num_reuse);
}

static int wren_ib_probe(struct auxiliary_device *adev,
			 const struct auxiliary_device_id *id)
{
	struct wren_aux_dev *wadev = wren_aux_dev_from(adev);
	struct wren_core_dev *cdev = wadev->cdev;
	u64 missing = WREN_IB_REQUIRED_CAPS & ~cdev->caps;
	struct wren_ib_dev *dev;
	struct ib_device *ibdev;
	int err;

	if (missing) {
		dev_info(&adev->dev, "device lacks RDMA capabilities 0x%llx; not binding\n",
			 missing);
		return -ENODEV;
	}
	if (!wadev->netdev) {
		dev_info(&adev->dev, "no Ethernet netdev: RoCE has no addresses; not binding\n");
		return -ENODEV;
	}
	if (!(le64_to_cpu(cdev->attr.page_size_cap) & WREN_IB_PGSZ_RANGE & PAGE_SIZE)) {
		dev_err(&adev->dev, "device does not take %lu-byte pages (page_size_cap 0x%llx)\n",
			PAGE_SIZE, le64_to_cpu(cdev->attr.page_size_cap));
		return -ENODEV;
	}

	dev = ib_alloc_device(wren_ib_dev, ibdev);
	if (!dev)
		return -ENOMEM;
	ibdev = &dev->ibdev;
	wren_ib_dev_init(dev, wadev);
	dev->dbrec_pool = dma_pool_create("wren_ib_dbrec", dev->dmadev,
					  sizeof(struct wren_qp_dbrec),
					  sizeof(struct wren_qp_dbrec), 0);
	if (!dev->dbrec_pool) {
		err = -ENOMEM;
		goto err_dealloc;
	}
	dev->event_wq = alloc_ordered_workqueue("wren_ib_ev_%s", 0,
						dev_name(&adev->dev));
	if (!dev->event_wq) {
		err = -ENOMEM;
		goto err_dealloc;
	}
	err = wren_core_events_register(wadev, &wren_ib_event_ops, dev);
	if (err)
		goto err_wq;

	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = wadev->num_comp_eqs;
	ibdev->dev.parent = dev->dmadev;
	wren_ib_set_guid(dev);
	ib_set_device_ops(ibdev, &wren_ib_dev_ops);
	ibdev->driver_def = wren_ib_uapi_defs;
	if (dev->caps & WREN_CAP_RDMA_SRQ)
		ib_set_device_ops(ibdev, &wren_ib_srq_ops);
	if (dev->caps & WREN_CAP_COUNTERS)
		ib_set_device_ops(ibdev, &wren_ib_stats_ops);
	if (dev->caps & WREN_CAP_RDMA_MW)
		ib_set_device_ops(ibdev, &wren_ib_mw_ops);
	if (wren_ib_has_xrc(dev))
		ib_set_device_ops(ibdev, &wren_ib_xrc_ops);
	if ((dev->caps & WREN_CAP_RDMA_MCAST) && (dev->caps & WREN_CAP_RDMA_UD))
		ib_set_device_ops(ibdev, &wren_ib_mcast_ops);

	err = ib_device_set_netdev(ibdev, dev->netdev, WREN_IB_PORT);
	if (err)
		goto err_events;
	err = ib_register_device(ibdev, "wren_%d", dev->dmadev);
	if (err) {
		dev_err(&adev->dev, "cannot register the ib_device: %d\n", err);
		goto err_events;
	}
	auxiliary_set_drvdata(adev, dev);
	ibdev_info(ibdev, "RoCEv2 on %s: RC%s%s%s%s%s%s, %u completion vectors, %u doorbell pages\n",
		   netdev_name(dev->netdev),
		   dev->caps & WREN_CAP_RDMA_UC ? ", UC" : "",
		   dev->caps & WREN_CAP_RDMA_UD ? ", UD" : "",
		   dev->caps & WREN_CAP_RDMA_GSI ? ", GSI" : "",
		   dev->caps & WREN_CAP_RDMA_SRQ ? ", SRQ" : "",
		   wren_ib_has_xrc(dev) ? ", XRC" : "",
		   dev->caps & WREN_CAP_RDMA_ATOMIC ? ", atomics" : "",
		   ibdev->num_comp_vectors, dev->num_db_pages);
	return 0;

err_events:
	wren_core_events_unregister(wadev);
err_wq:
	if (dev->event_wq)
		destroy_workqueue(dev->event_wq);
err_dealloc:
	dma_pool_destroy(dev->dbrec_pool);
	ib_dealloc_device(ibdev);
	return err;
}

/*
 * Objects still in the number tables once ib_core has destroyed every one
 * it knows: a create or destroy path that lost track of one.  Named one
 * by one, so that the report says which.
 */
static void wren_ib_report_leftovers(struct wren_ib_dev *dev)
{
	struct wren_ib_srq *srq;
	struct wren_ib_cq *cq;
	struct wren_ib_qp *qp;
	unsigned long i;

	xa_for_each(&dev->cqs, i, cq)
		ibdev_err(&dev->ibdev, "CQ %u left behind (%s)\n", cq->cqn,
			  cq->kernel ? "kernel" : "user");
	xa_for_each(&dev->qps, i, qp)
		ibdev_err(&dev->ibdev, "QP %u left behind (%s, type %d, state %u)\n",
			  qp->qpn, qp->kernel ? "kernel" : "user",
			  qp->ibqp.qp_type, qp->state);
	xa_for_each(&dev->srqs, i, srq)
		ibdev_err(&dev->ibdev, "SRQ %u left behind\n", srq->srqn);
}

static void wren_ib_remove(struct auxiliary_device *adev)
{
	struct wren_ib_dev *dev = auxiliary_get_drvdata(adev);

	/* Events already in hand reach their users before the device goes:
	 * a recovery tells us DEVICE_FATAL just before removing us.
	 */
	flush_workqueue(dev->event_wq);
	/* After a fatal error in-kernel consumers saw their work requests
	 * flush: those that tear their queues down now survive the removal
	 * (nvme-rdma then reconnects through the device added next).
	 */
	wren_ib_wait_ulps(dev);
	/* Destroys every user object (disassociating running processes)
	 * while the device still answers.
	 */
	ib_unregister_device(&dev->ibdev);
	wren_core_events_unregister(dev->wadev);
	destroy_workqueue(dev->event_wq);
	if (WARN_ON(!xa_empty(&dev->cqs) || !xa_empty(&dev->qps) ||
		    !xa_empty(&dev->srqs)))
		wren_ib_report_leftovers(dev);
	xa_destroy(&dev->cqs);
	xa_destroy(&dev->qps);
	xa_destroy(&dev->srqs);
	dma_pool_destroy(dev->dbrec_pool);
	ib_dealloc_device(&dev->ibdev);
}

static const struct auxiliary_device_id wren_ib_id_table[] = {
	{ .name = WREN_AUX_RDMA_MATCH },
	{ }
};
MODULE_DEVICE_TABLE(auxiliary, wren_ib_id_table);

static struct auxiliary_driver wren_ib_driver = {
	.name		= "rdma",
	.probe		= wren_ib_probe,
	.remove		= wren_ib_remove,
	.id_table	= wren_ib_id_table,
};
module_auxiliary_driver(wren_ib_driver);

MODULE_IMPORT_NS(WREN_CORE_NS);
MODULE_IMPORT_NS(WREN_PEER_NS);
MODULE_DESCRIPTION("Wren RoCEv2 NIC RDMA driver");
MODULE_LICENSE("Dual BSD/GPL");
