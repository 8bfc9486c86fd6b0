// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libwren device and context: matching the ib device, opening a context
 * or importing one from its cmd_fd (its doorbell page and clock page
 * mapped once here), and the table of its verbs.
 *
 * The device is matched by its PCI parent (vendor 0x1f57, device 0x0001)
 * rather than by an RDMA_DRIVER_* id: a number of our own would collide
 * with upstream's future ones.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/wren/wren_regs.h>

#include "wren.h"
#include "wren_abi.h"

static void wren_free_context(struct ibv_context *ibctx);

static const struct verbs_context_ops wren_ctx_ops = {
	.free_context = wren_free_context,
	.query_device_ex = wren_query_device_ex,
	.query_rt_values = wren_query_rt_values,
	.query_port = wren_query_port,
	.alloc_pd = wren_alloc_pd,
	.dealloc_pd = wren_dealloc_pd,
	.import_pd = wren_import_pd,
	.unimport_pd = wren_unimport_pd,
	.alloc_parent_domain = wren_alloc_parent_domain,
	.alloc_td = wren_alloc_td,
	.dealloc_td = wren_dealloc_td,
	.reg_mr = wren_reg_mr,
	.reg_dmabuf_mr = wren_reg_dmabuf_mr,
	.rereg_mr = wren_rereg_mr,
	.dereg_mr = wren_dereg_mr,
	.import_mr = wren_import_mr,
	.unimport_mr = wren_unimport_mr,
	.alloc_mw = wren_alloc_mw,
	.dealloc_mw = wren_dealloc_mw,
	.bind_mw = wren_bind_mw,
	.create_cq = wren_create_cq,
	.create_cq_ex = wren_create_cq_ex,
	.destroy_cq = wren_destroy_cq,
	.resize_cq = wren_resize_cq,
	.poll_cq = wren_poll_cq,
	.req_notify_cq = wren_arm_cq,
	.create_qp = wren_create_qp,
	.create_qp_ex = wren_create_qp_ex,
	.modify_qp = wren_modify_qp,
	.query_qp = wren_query_qp,
	.destroy_qp = wren_destroy_qp,
	.post_send = wren_post_send,
	.post_recv = wren_post_recv,
	.create_srq = wren_create_srq,
	.create_srq_ex = wren_create_srq_ex,
	.get_srq_num = wren_get_srq_num,
	.modify_srq = wren_modify_srq,
	.query_srq = wren_query_srq,
	.destroy_srq = wren_destroy_srq,
	.post_srq_recv = wren_post_srq_recv,
	.open_xrcd = wren_open_xrcd,
	.close_xrcd = wren_close_xrcd,
	.open_qp = wren_open_qp,
	.create_ah = wren_create_ah,
	.destroy_ah = wren_destroy_ah,
	/* The device's group table is the kernel's to program. */
	.attach_mcast = ibv_cmd_attach_mcast,
	.detach_mcast = ibv_cmd_detach_mcast,
};

/*
 * The device clock's page (WREN_IB_UCTX_RESP_CLOCK), read-only.  Mapped
 * here beside the doorbell page, as mlx5 maps its clock page where it
 * sets the context up: clock.c only reads it through the context of
 * wren.h, and wren.c only names clock.c's reader in its ops table, so
 * neither calls the other back.  Without the page the context still
 * works and the raw clock is EOPNOTSUPP.
 */
static void wren_map_clock(struct wren_context *ctx, int cmd_fd,
			   const struct wren_ib_alloc_ucontext_resp *resp)
{
	void *page;

	if (!(resp->comp_mask & WREN_IB_UCTX_RESP_CLOCK) ||
	    resp->clock_mmap_length != WREN_DB_PAGE_SIZE)
		return;
	page = mmap(NULL, resp->clock_mmap_length, PROT_READ, MAP_SHARED,
		    cmd_fd, resp->clock_mmap_offset);
	if (page == MAP_FAILED) {
		verbs_warn(&ctx->ibv_ctx, "wren: cannot map the clock page: %s\n",
			   strerror(errno));
		return;
	}
	ctx->clock_page = page;
	ctx->clock_length = resp->clock_mmap_length;
}

/*
 * Set a context up from what the kernel said of it: at alloc_ucontext,
 * or again at QUERY_CONTEXT for a context imported from its cmd_fd.
 */
static int wren_context_setup(struct wren_context *ctx, int cmd_fd,
			      const struct wren_ib_alloc_ucontext_resp *resp)
{
	/*
	 * The formats this provider writes are those of contract 1.x with
	 * 32-byte CQEs and WQE strides from 64 bytes; refuse anything else
	 * rather than corrupt rings.
	 */
	if (resp->contract_major != WREN_CONTRACT_MAJOR ||
	    resp->db_mmap_length != WREN_DB_PAGE_SIZE ||
	    resp->cqe_size != WREN_CQE_SIZE ||
	    resp->min_wqe_shift != WREN_WQE_SHIFT_MIN) {
		verbs_err(&ctx->ibv_ctx,
			  "wren: unsupported device (contract %u.%u, CQE %u bytes, min WQE shift %u)\n",
			  resp->contract_major, resp->contract_minor,
			  resp->cqe_size, resp->min_wqe_shift);
		return EOPNOTSUPP;
	}
	ctx->page_size = to_wren_dev(ctx->ibv_ctx.context.device)->page_size;
	ctx->caps = resp->caps;
	ctx->max_qp_wr = resp->max_qp_wr;
	ctx->max_srq_wr = resp->max_srq_wr;
	ctx->max_cqe = resp->max_cqe;
	ctx->max_inline = resp->max_inline;
	ctx->max_sge = resp->max_sge;
	ctx->max_sge_rd = resp->max_sge_rd;
	ctx->max_sq_wqe_shift = resp->max_sq_wqe_shift;
	ctx->max_rq_wqe_shift = resp->max_rq_wqe_shift;
	ctx->max_wq_log_size = resp->max_wq_log_size;
	ctx->max_cq_log_size = resp->max_cq_log_size;

	/* Doorbells only: the page is never read (and maps write-only). */
	ctx->db_length = resp->db_mmap_length;
	ctx->db_page = mmap(NULL, ctx->db_length, PROT_WRITE, MAP_SHARED,
			    cmd_fd, resp->db_mmap_offset);
	if (ctx->db_page == MAP_FAILED) {
		int err = errno;

		verbs_err(&ctx->ibv_ctx, "wren: cannot map the doorbell page: %s\n",
			  strerror(err));
		return err;
	}
	wren_map_clock(ctx, cmd_fd, resp);
	wren_table_init(&ctx->qp_table);
	wren_table_init(&ctx->srq_table);
	verbs_set_ops(&ctx->ibv_ctx, &wren_ctx_ops);
	return 0;
}

/* The context set up, or (@err) undone as verbs_init_and_alloc_context() did it. */
static struct verbs_context *wren_context_done(struct wren_context *ctx, int err)
{
	if (!err)
		return &ctx->ibv_ctx;
	verbs_uninit_context(&ctx->ibv_ctx);
	free(ctx);
	errno = err;
	return NULL;
}

static struct verbs_context *wren_alloc_context(struct ibv_device *ibdev,
						int cmd_fd, void *private_data)
{
	struct wren_alloc_ucontext_resp resp = {};
	struct ibv_get_context cmd = {};
	struct wren_context *ctx;
	int err;

	ctx = verbs_init_and_alloc_context(ibdev, cmd_fd, ctx, ibv_ctx,
					   RDMA_DRIVER_UNKNOWN);
	if (!ctx)
		return NULL;

	err = ibv_cmd_get_context(&ctx->ibv_ctx, &cmd, sizeof(cmd),
				  &resp.ibv_resp, sizeof(resp));
	if (!err)
		err = wren_context_setup(ctx, cmd_fd, &resp.drv_payload);
	return wren_context_done(ctx, err);
}

/*
 * ibv_import_device(): a second context on a cmd_fd whose kernel context
 * exists already (another process's, passed over a socket, or a dup).  The
 * kernel answers what alloc_ucontext answered, so this context maps the
 * same doorbell page and rings the same queues' doorbells.
 */
static struct verbs_context *wren_import_context(struct ibv_device *ibdev,
						 int cmd_fd)
{
	DECLARE_COMMAND_BUFFER_LINK(driver_attr, UVERBS_OBJECT_DEVICE,
				    UVERBS_METHOD_QUERY_CONTEXT, 1, NULL);
	struct wren_ib_alloc_ucontext_resp resp = {};
	struct wren_context *ctx;
	int err;

	ctx = verbs_init_and_alloc_context(ibdev, cmd_fd, ctx, ibv_ctx,
					   RDMA_DRIVER_UNKNOWN);
	if (!ctx)
		return NULL;

	fill_attr_out_ptr(driver_attr, WREN_IB_ATTR_QUERY_CONTEXT_RESP_UCTX,
			  &resp);
	err = ibv_cmd_query_context(&ctx->ibv_ctx.context, driver_attr);
	if (!err)
		err = wren_context_setup(ctx, cmd_fd, &resp);
	return wren_context_done(ctx, err);
}

static void wren_free_context(struct ibv_context *ibctx)
{
	struct wren_context *ctx = to_wren_ctx(ibctx);

	if (ctx->clock_page)
		munmap((void *)ctx->clock_page, ctx->clock_length);
	munmap(ctx->db_page, ctx->db_length);
	wren_table_fini(&ctx->srq_table);
	wren_table_fini(&ctx->qp_table);
	verbs_uninit_context(&ctx->ibv_ctx);
	free(ctx);
}

static struct verbs_device *wren_device_alloc(struct verbs_sysfs_dev *sysfs_dev)
{
	struct wren_device *dev;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	dev->page_size = sysconf(_SC_PAGESIZE);
	return &dev->ibv_dev;
}

static void wren_device_free(struct verbs_device *vdev)
{
	free(container_of(vdev, struct wren_device, ibv_dev));
}

static const struct verbs_match_ent wren_match_table[] = {
	VERBS_PCI_MATCH(WREN_PCI_VENDOR_ID, WREN_PCI_DEVICE_ID, NULL),
	{},
};

static const struct verbs_device_ops wren_dev_ops = {
	.name = "wren",
	.match_min_abi_version = WREN_IB_UVERBS_ABI_VERSION,
	.match_max_abi_version = WREN_IB_UVERBS_ABI_VERSION,
	.match_table = wren_match_table,
	.alloc_device = wren_device_alloc,
	.uninit_device = wren_device_free,
	.alloc_context = wren_alloc_context,
	.import_context = wren_import_context,
};

PROVIDER_DRIVER(wren, wren_dev_ops);
