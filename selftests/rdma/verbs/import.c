// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Import mode (wren_verbs_test import): one node.  A second verbs context
 * on a dup of an owner context's command file (ibv_import_device), the
 * owner's PD and MR imported into it (ibv_import_pd, ibv_import_mr), and
 * RDMA between a QP of each context that the NIC loops back to itself.
 * The importer keeps the kernel context alive after the owner closes its
 * own.  Handles that name nothing, files that are no verbs file, and a
 * QUERY_CONTEXT whose driver attribute is too short for the answer are
 * refused.  TAP on stdout, tap_done()'s status.
 *
 * The test opens its own owner context, since it closes it mid-way.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <rdma/rdma_user_ioctl.h>
#include <rdma/wren-abi.h>
#include "wvt.h"
#include "tap.h"

#define IM_WAIT_MS	20000
#define IM_LEN		(64 * 1024)
#define IM_XFER		(3 * 4096 + 123)

struct imt {
	struct dev own, imp;	/* the owner's context, and the imported one */
	int dup_fd;
	struct ibv_mr *mr;	/* the owner's, over buf */
	struct ibv_mr *imr;	/* the same MR imported */
	struct ibv_mr *omr;	/* the owner's, over out */
	uint8_t *buf, *out;
	struct conn a, b;	/* a: imported context, b: the owner's */
	char why[WVT_WHY];
};

/* A case failed, and why (why.c). */
#define fail(s, ...) why_set((s)->why, __VA_ARGS__)

static bool case_import_device(struct imt *s)
{
	struct ibv_device_attr attr;
	struct ibv_context *ctx;

	s->dup_fd = dup(s->own.ctx->cmd_fd);
	if (s->dup_fd < 0)
		return fail(s, "dup: %s", strerror(errno));
	ctx = ibv_import_device(s->dup_fd);
	if (!ctx)
		return fail(s, "ibv_import_device: %s", strerror(errno));
	s->imp = s->own;
	s->imp.ctx = ctx;
	s->imp.pd[0] = s->imp.pd[1] = NULL;
	if (strcmp(ibv_get_device_name(ctx->device),
		   ibv_get_device_name(s->own.ctx->device)))
		return fail(s, "imported %s, owner's is %s",
			    ibv_get_device_name(ctx->device),
			    ibv_get_device_name(s->own.ctx->device));
	if (ctx->cmd_fd != s->dup_fd)
		return fail(s, "the imported context's cmd_fd is %d, not %d",
			    ctx->cmd_fd, s->dup_fd);
	if (ibv_query_device(ctx, &attr))
		return fail(s, "ibv_query_device on it: %s", strerror(errno));
	if (attr.max_qp != s->own.attr.max_qp)
		return fail(s, "max_qp %d, owner's %d", attr.max_qp,
			    s->own.attr.max_qp);
	return true;
}

static bool import_refused(struct imt *s, int fd, const char *what)
{
	struct ibv_context *ctx;

	errno = 0;
	ctx = ibv_import_device(fd);
	if (ctx) {
		ibv_close_device(ctx);
		return fail(s, "ibv_import_device of %s succeeded", what);
	}
	if (!errno)
		return fail(s, "ibv_import_device of %s: no errno", what);
	return true;
}

static bool case_import_device_bad(struct imt *s)
{
	int p[2], null_fd;
	bool ok;

	if (pipe(p))
		return fail(s, "pipe: %s", strerror(errno));
	ok = import_refused(s, p[0], "a pipe");
	close(p[0]);
	close(p[1]);
	null_fd = open("/dev/null", O_RDWR);
	if (ok && null_fd >= 0)
		ok = import_refused(s, null_fd, "/dev/null");
	if (null_fd >= 0)
		close(null_fd);
	return ok && import_refused(s, -1, "fd -1");
}

/* UVERBS_METHOD_QUERY_CONTEXT by hand, with the driver's answer @len long. */
static int query_context_raw(int fd, struct wren_ib_alloc_ucontext_resp *r,
			     uint16_t len)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attr;
	} cmd = {
		.hdr = {
			.length = sizeof(cmd),
			.object_id = UVERBS_OBJECT_DEVICE,
			.method_id = UVERBS_METHOD_QUERY_CONTEXT,
			.num_attrs = 1,
		},
		.attr = {
			.attr_id = WREN_IB_ATTR_QUERY_CONTEXT_RESP_UCTX,
			.len = len,
			.data = (uintptr_t)r,
		},
	};

	memset(r, 0, sizeof(*r));
	return ioctl(fd, RDMA_VERBS_IOCTL, &cmd) ? errno : 0;
}

static bool case_query_context(struct imt *s)
{
	struct wren_ib_alloc_ucontext_resp r;
	int err;

	err = query_context_raw(s->dup_fd, &r, sizeof(r));
	if (err)
		return fail(s, "QUERY_CONTEXT: %s", strerror(err));
	if (!r.uar || r.db_mmap_length != 4096 || r.cqe_size != 32)
		return fail(s, "QUERY_CONTEXT answered uar %u, db_mmap_length %u, cqe_size %u",
			    r.uar, r.db_mmap_length, r.cqe_size);
	err = query_context_raw(s->dup_fd, &r,
				offsetof(struct wren_ib_alloc_ucontext_resp, reserved));
	if (err != EINVAL)
		return fail(s, "QUERY_CONTEXT with a short answer: %s, want EINVAL",
			    err ? strerror(err) : "success");
	/* Up to reserved: no room for the clock, so none reported. */
	err = query_context_raw(s->dup_fd, &r,
				offsetof(struct wren_ib_alloc_ucontext_resp,
					 clock_mmap_offset));
	if (err || (r.comp_mask & WREN_IB_UCTX_RESP_CLOCK))
		return fail(s, "QUERY_CONTEXT up to reserved: %s, comp_mask 0x%x",
			    strerror(err), r.comp_mask);
	return true;
}

static bool case_import_pd(struct imt *s)
{
	struct ibv_pd *bad;

	s->imp.pd[0] = ibv_import_pd(s->imp.ctx, s->own.pd[0]->handle);
	if (!s->imp.pd[0])
		return fail(s, "ibv_import_pd(%u): %s", s->own.pd[0]->handle,
			    strerror(errno));
	s->imp.pd[1] = s->imp.pd[0];
	if (s->imp.pd[0]->handle != s->own.pd[0]->handle ||
	    s->imp.pd[0]->context != s->imp.ctx)
		return fail(s, "imported PD: handle %u, context %p",
			    s->imp.pd[0]->handle, (void *)s->imp.pd[0]->context);
	bad = ibv_import_pd(s->imp.ctx, s->own.pd[1]->handle + 1000);
	if (bad) {
		ibv_unimport_pd(bad);
		return fail(s, "ibv_import_pd of a handle that names no PD succeeded");
	}
	return true;
}

static bool case_import_mr(struct imt *s)
{
	struct ibv_mr *bad;

	s->imr = ibv_import_mr(s->imp.pd[0], s->mr->handle);
	if (!s->imr)
		return fail(s, "ibv_import_mr(%u): %s", s->mr->handle,
			    strerror(errno));
	if (s->imr->lkey != s->mr->lkey || s->imr->rkey != s->mr->rkey ||
	    s->imr->length != s->mr->length || s->imr->handle != s->mr->handle)
		return fail(s, "imported MR: lkey 0x%x rkey 0x%x length %zu, owner's 0x%x 0x%x %zu",
			    s->imr->lkey, s->imr->rkey, s->imr->length,
			    s->mr->lkey, s->mr->rkey, s->mr->length);
	bad = ibv_import_mr(s->imp.pd[0], s->omr->handle + 1000);
	if (bad) {
		ibv_unimport_mr(bad);
		return fail(s, "ibv_import_mr of a handle that names no MR succeeded");
	}
	return true;
}

static bool wait_ok(struct imt *s, struct ibv_cq *cq, enum ibv_wc_opcode op,
		    const char *what)
{
	struct ibv_wc wc;

	if (poll_one(cq, &wc, IM_WAIT_MS))
		return fail(s, "%s: no completion within %d ms", what, IM_WAIT_MS);
	if (wc.status != IBV_WC_SUCCESS || wc.opcode != op)
		return fail(s, "%s: completion %s, opcode %d (want %d)", what,
			    ibv_wc_status_str(wc.status), wc.opcode, op);
	return true;
}

static bool post_write(struct imt *s, struct conn *c, uint32_t lkey,
		       uint8_t *from, uint32_t rkey, uint8_t *to)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)from, .length = IM_XFER, .lkey = lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = 1, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = (uintptr_t)to, .rkey = rkey },
	}, *bad;

	if (ibv_post_send(c->qp, &wr, &bad))
		return fail(s, "ibv_post_send: %s", strerror(errno));
	return wait_ok(s, c->scq, IBV_WC_RDMA_WRITE, "RDMA WRITE");
}

static bool check_bytes(struct imt *s, const uint8_t *p, uint32_t seed,
			const char *what)
{
	long at = pat_diff(p, IM_XFER, seed, 0);

	if (at >= 0)
		return fail(s, "%s: byte %ld differs", what, at);
	return true;
}

/*
 * a (imported context, imported PD) writes from the imported MR into the
 * owner's other MR; b (the owner's) sends into a receive a posted on the
 * imported MR.
 */
static bool case_traffic(struct imt *s)
{
	struct ibv_sge sge;
	struct ibv_recv_wr rwr = { .wr_id = 2, .sg_list = &sge, .num_sge = 1 }, *rbad;
	struct ibv_send_wr swr = {
		.wr_id = 3, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *sbad;

	if (conn_create(&s->imp, &s->a, IBV_QPT_RC, 0, 16) ||
	    conn_create(&s->own, &s->b, IBV_QPT_RC, 0, 16) ||
	    conn_connect(&s->imp, &s->a, s->b.qp->qp_num, s->b.psn, &s->own.gid) ||
	    conn_connect(&s->own, &s->b, s->a.qp->qp_num, s->a.psn, &s->own.gid))
		return fail(s, "a loopback RC pair across the contexts: %s",
			    strerror(errno));
	pat_fill(s->buf, IM_XFER, 0x1a, 0);
	memset(s->out, 0, IM_LEN);
	if (!post_write(s, &s->a, s->imr->lkey, s->buf, s->omr->rkey, s->out) ||
	    !check_bytes(s, s->out, 0x1a, "written by the imported context"))
		return false;

	memset(s->buf, 0, IM_LEN);
	sge = (struct ibv_sge){ (uintptr_t)s->buf, IM_XFER, s->imr->lkey };
	if (ibv_post_recv(s->a.qp, &rwr, &rbad))
		return fail(s, "ibv_post_recv on the imported MR: %s",
			    strerror(errno));
	pat_fill(s->out, IM_XFER, 0x1b, 0);
	sge = (struct ibv_sge){ (uintptr_t)s->out, IM_XFER, s->omr->lkey };
	if (ibv_post_send(s->b.qp, &swr, &sbad))
		return fail(s, "ibv_post_send: %s", strerror(errno));
	return wait_ok(s, s->b.scq, IBV_WC_SEND, "owner's SEND") &&
	       wait_ok(s, s->a.rcq, IBV_WC_RECV, "imported RECV") &&
	       check_bytes(s, s->buf, 0x1b, "received into the imported MR");
}

/*
 * The owner closes its context: the importer's file holds the kernel
 * context, and its PD, MR and queues, which keep working.
 */
static bool case_owner_gone(struct imt *s)
{
	struct conn c = { 0 };
	bool ok;

	conn_destroy(&s->b);
	/* The owner's objects are the kernel context's: left to it. */
	ibv_close_device(s->own.ctx);
	s->own.ctx = NULL;
	conn_destroy(&s->a);
	if (conn_create(&s->imp, &s->a, IBV_QPT_RC, 0, 16) ||
	    conn_create(&s->imp, &c, IBV_QPT_RC, 0, 16)) {
		conn_destroy(&c);
		return fail(s, "QPs on the imported context: %s", strerror(errno));
	}
	if (conn_connect(&s->imp, &s->a, c.qp->qp_num, c.psn, &s->imp.gid) ||
	    conn_connect(&s->imp, &c, s->a.qp->qp_num, s->a.psn, &s->imp.gid)) {
		conn_destroy(&c);
		return fail(s, "connecting them: %s", strerror(errno));
	}
	pat_fill(s->buf, IM_XFER, 0x1c, 0);
	memset(s->out, 0, IM_LEN);
	ok = post_write(s, &s->a, s->imr->lkey, s->buf, s->omr->rkey, s->out) &&
	     check_bytes(s, s->out, 0x1c, "written after the owner closed");
	conn_destroy(&c);
	return ok;
}

static const struct {
	bool (*run)(struct imt *s);
	const char *what;
} cases[] = {
	{ case_import_device, "ibv_import_device on a dup of the cmd_fd: the same device" },
	{ case_import_device_bad, "ibv_import_device refuses a pipe, /dev/null and fd -1" },
	{ case_query_context, "QUERY_CONTEXT answers the context; a too short answer refused" },
	{ case_import_pd, "ibv_import_pd of the owner's PD; a handle of no PD refused" },
	{ case_import_mr, "ibv_import_mr: the owner's keys and length; a handle of no MR refused" },
	{ case_traffic, "RDMA WRITE and SEND between the imported and the owner's context" },
	{ case_owner_gone, "the owner closes its context: the importer's PD, MR and QPs work on" },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

int import_run(struct dev *d)
{
	struct imt s = { .dup_fd = -1 };
	bool up = true;
	size_t i;

	tap_plan(N_CASES);
	/* The owner: a context of our own on the same device, closed mid-way. */
	s.own = *d;
	s.own.ctx = ibv_open_device(d->ctx->device);
	if (s.own.ctx) {
		s.own.pd[0] = ibv_alloc_pd(s.own.ctx);
		s.own.pd[1] = ibv_alloc_pd(s.own.ctx);
	}
	s.buf = aligned_alloc(4096, IM_LEN);
	s.out = aligned_alloc(4096, IM_LEN);
	if (!s.own.ctx || !s.own.pd[0] || !s.own.pd[1] || !s.buf || !s.out) {
		tap_diag("import: the owner's context: %s", strerror(errno));
		up = false;
	} else {
		s.mr = ibv_reg_mr(s.own.pd[0], s.buf, IM_LEN, IBV_ACCESS_LOCAL_WRITE);
		s.omr = ibv_reg_mr(s.own.pd[0], s.out, IM_LEN,
				   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
		up = s.mr && s.omr;
	}
	for (i = 0; i < N_CASES; i++) {
		bool ok = up && cases[i].run(&s);

		why_report(s.why, ok, cases[i].what);
		/* Each case builds on the one before. */
		up = ok;
	}

	conn_destroy(&s.a);
	conn_destroy(&s.b);
	if (s.imr)
		ibv_unimport_mr(s.imr);
	if (s.imp.pd[0])
		ibv_unimport_pd(s.imp.pd[0]);
	if (s.imp.ctx)
		ibv_close_device(s.imp.ctx);
	else if (s.dup_fd >= 0)
		close(s.dup_fd);
	/* Left to the kernel context if the owner is gone; freed here if not. */
	if (s.own.ctx) {
		if (s.omr)
			ibv_dereg_mr(s.omr);
		if (s.mr)
			ibv_dereg_mr(s.mr);
		ibv_dealloc_pd(s.own.pd[0]);
		ibv_dealloc_pd(s.own.pd[1]);
		ibv_close_device(s.own.ctx);
	}
	free(s.buf);
	free(s.out);
	return tap_done();
}
