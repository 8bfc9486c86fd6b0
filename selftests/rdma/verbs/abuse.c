// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Abuse mode (wren_verbs_test abuse): one node, a hostile process against
 * wren_ib's uverbs ABI, below libibverbs.  It writes uverbs commands to
 * /dev/infiniband/uverbsN itself (the write() interface every kernel
 * keeps), so that the driver-private part (udata, <rdma/wren-abi.h>) can
 * be short, oversized, misaligned or garbage, handles wrong or stale,
 * and mmap offsets made up.  Every case expects the errno the ABI
 * documents (uapi.rst) or, where the kernel rather than wren_ib answers,
 * one of the errnos it may give; none may succeed, hang or oops, and the
 * process goes on to the next.  Then races: two threads destroying the
 * same QP (exactly one wins) while a third rings doorbells for it through
 * the context's doorbell page, before, during and after.  The shell side
 * (wren-abuse.sh) checks dmesg and that the device's objects are back to
 * what they were.  TAP on stdout.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/wren-abi.h>
#include <linux/wren/wren_queues.h>
#include <linux/wren/wren_regs.h>
#include "wvt.h"
#include "tap.h"

#define PAGE		4096
#define RACE_ROUNDS	200
#define KERNEL_VA	0xffff888000000000ull

/* A context opened below libibverbs: its file, what GET_CONTEXT said,
 * a PD and the mapped doorbell page. */
struct uv {
	int fd;
	struct wren_ib_alloc_ucontext_resp ctx;
	uint32_t pd;
	uint8_t *db;		/* the context's doorbell page, mapped */
};

/* One uverbs write command - header, core part, driver part - with
 * @out_len bytes of response: 0 or -errno. */
static int uv_write(int fd, uint32_t cmd, void *core, size_t core_len,
		    const void *drv, size_t drv_len, size_t out_len)
{
	uint8_t buf[512];
	struct ib_uverbs_cmd_hdr h = {
		.command = cmd,
		.in_words = (uint16_t)((sizeof(h) + core_len + drv_len) / 4),
		.out_words = (uint16_t)(out_len / 4),
	};
	size_t len = sizeof(h) + core_len + drv_len;

	if (len > sizeof(buf) || len % 4)
		return -E2BIG;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), core, core_len);
	memcpy(buf + sizeof(h) + core_len, drv, drv_len);
	return write(fd, buf, len) == (ssize_t)len ? 0 : -errno;
}

/* A case: @got is 0 or -errno; ok when it is one of @want (0-ended,
 * positive errnos), or 0 when @want is empty (E_OK). */
static bool expect(int got, const int *want, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool expect(int got, const int *want, const char *fmt, ...)
{
	char desc[300];
	bool ok = false;
	va_list ap;
	int n;

	ok = !want[0] && !got;
	for (int i = 0; want[i]; i++)
		ok |= got == -want[i];
	va_start(ap, fmt);
	n = vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof(desc))
		snprintf(desc + n, sizeof(desc) - (size_t)n, ": %s",
			 got ? strerror(-got) : "succeeded");
	return tap_ok(ok, "%s", desc);
}

static const int E_OK[] = { 0 };
static const int E_INVAL[] = { EINVAL, 0 };
/* uverbs: a handle with no object behind it (never given out, or
 * destroyed); a handle of another type is EINVAL. */
static const int E_NOENT[] = { ENOENT, 0 };
static const int E_OPNOTSUPP[] = { EOPNOTSUPP, 0 };
static const int E_FAULT[] = { EFAULT, 0 };
static const int E_ADDR[] = { EFAULT, EINVAL, 0 };	/* the kernel's choice */
static const int E_NOMEM_INVAL[] = { ENOMEM, EINVAL, 0 };

static char *uverbs_path(struct dev *d, char *p, size_t n)
{
	snprintf(p, n, "/dev/infiniband/%s", d->ctx->device->dev_name);
	return p;
}

static int get_context(int fd, const void *drv, size_t drv_len,
		       struct wren_ib_alloc_ucontext_resp *out, void *resp_at)
{
	struct {
		struct ib_uverbs_get_context_resp core;
		struct wren_ib_alloc_ucontext_resp drv;
	} resp = { 0 };
	struct ib_uverbs_get_context c = {
		.response = (uintptr_t)(resp_at ? resp_at : &resp),
	};
	int rc = uv_write(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &c, sizeof(c), drv,
			  drv_len, sizeof(resp));

	if (!rc && out)
		*out = resp.drv;
	if (!rc && !resp_at)
		close((int)resp.core.async_fd);
	return rc;
}

/*
 * A provider from before the clock asks for the response up to reserved
 * (64 bytes): it gets a context, and no clock in the bytes it reads.
 */
static void old_context_case(struct dev *d)
{
	struct {
		struct ib_uverbs_get_context_resp core;
		struct wren_ib_alloc_ucontext_resp drv;
	} resp;
	struct ib_uverbs_get_context c = { .response = (uintptr_t)&resp };
	size_t old = offsetof(typeof(resp), drv) +
		     offsetof(struct wren_ib_alloc_ucontext_resp, clock_mmap_offset);
	char path[96];
	int fd, rc;

	memset(&resp, 0xa5, sizeof(resp));
	fd = open(uverbs_path(d, path, sizeof(path)), O_RDWR | O_CLOEXEC);
	rc = uv_write(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &c, sizeof(c), NULL, 0,
		      old);
	tap_ok(!rc && resp.drv.clock_mmap_offset == 0xa5a5a5a5a5a5a5a5ull,
	       "GET_CONTEXT with a 64-byte response (an older provider): accepted, nothing written past it: %s",
	       rc ? strerror(-rc) : "ok");
	if (!rc)
		close((int)resp.core.async_fd);
	close(fd);
}

static void context_cases(struct dev *d)
{
	struct { struct wren_ib_alloc_ucontext a; uint64_t tail; } big = { 0 };
	struct wren_ib_alloc_ucontext a = { 0 };
	uint32_t four = 0;
	char path[96];
	int fd, rc;

	uverbs_path(d, path, sizeof(path));
	fd = open(path, O_RDWR | O_CLOEXEC);
	expect(get_context(fd, &four, 4, NULL, NULL), E_INVAL,
	       "GET_CONTEXT with 4 bytes of driver data (short)");
	big.tail = 0xdeadbeef;
	expect(get_context(fd, &big, sizeof(big), NULL, NULL), E_OPNOTSUPP,
	       "GET_CONTEXT with a non-zero tail past the request");
	a.comp_mask = 0x80;
	expect(get_context(fd, &a, sizeof(a), NULL, NULL), E_OPNOTSUPP,
	       "GET_CONTEXT with an unknown comp_mask bit");
	a.comp_mask = 0;
	a.reserved = 1;
	expect(get_context(fd, &a, sizeof(a), NULL, NULL), E_INVAL,
	       "GET_CONTEXT with a reserved field set");
	/* The response cannot be written: the context is undone, so the
	 * same file can have one after all. */
	expect(get_context(fd, NULL, 0, NULL, (void *)8), E_FAULT,
	       "GET_CONTEXT with its response at address 8");
	rc = get_context(fd, NULL, 0, NULL, NULL);
	tap_ok(!rc, "GET_CONTEXT on the same file after those: %s", rc ? strerror(-rc) : "ok");
	expect(get_context(fd, NULL, 0, NULL, NULL), E_INVAL,
	       "a second GET_CONTEXT on a file that has one");
	close(fd);
	old_context_case(d);
}

static int alloc_pd(struct uv *u, uint32_t *pd)
{
	struct ib_uverbs_alloc_pd_resp resp;
	struct ib_uverbs_alloc_pd c = { .response = (uintptr_t)&resp };
	int rc = uv_write(u->fd, IB_USER_VERBS_CMD_ALLOC_PD, &c, sizeof(c), NULL, 0,
			  sizeof(resp));

	*pd = resp.pd_handle;
	return rc;
}

static int uv_open(struct dev *d, struct uv *u)
{
	char path[96];
	void *db;

	memset(u, 0, sizeof(*u));
	u->fd = open(uverbs_path(d, path, sizeof(path)), O_RDWR | O_CLOEXEC);
	if (u->fd < 0 || get_context(u->fd, NULL, 0, &u->ctx, NULL) || alloc_pd(u, &u->pd))
		return -1;
	db = mmap(NULL, u->ctx.db_mmap_length, PROT_WRITE, MAP_SHARED, u->fd,
		  (off_t)u->ctx.db_mmap_offset);
	if (db == MAP_FAILED)
		return -1;
	u->db = db;
	return 0;
}

static void uv_close(struct uv *u)
{
	if (u->db)
		munmap(u->db, u->ctx.db_mmap_length);
	if (u->fd >= 0)
		close(u->fd);
}

/* The memory a CQ or QP lives in: page-aligned, its record at the end. */
struct ring {
	uint8_t *buf;
	size_t len;
};

static int ring_alloc(struct ring *r, size_t len)
{
	r->len = len + PAGE;
	r->buf = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
	return r->buf == MAP_FAILED ? -1 : 0;
}

static uint64_t ring_dbrec(const struct ring *r)
{
	return (uintptr_t)r->buf + r->len - PAGE;
}

static int create_cq(struct uv *u, const struct wren_ib_create_cq *drv, size_t drv_len,
		     uint32_t cqe, uint32_t vector, uint32_t *handle, uint32_t *cqn)
{
	struct {
		struct ib_uverbs_create_cq_resp core;
		struct wren_ib_create_cq_resp drv;
	} resp = { 0 };
	struct ib_uverbs_create_cq c = {
		.response = (uintptr_t)&resp, .cqe = cqe, .comp_vector = vector,
		.comp_channel = -1,
	};
	int rc = uv_write(u->fd, IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c), drv,
			  drv_len, sizeof(resp));

	if (handle)
		*handle = resp.core.cq_handle;
	if (cqn)
		*cqn = resp.drv.cqn;
	return rc;
}

static int destroy_cq(struct uv *u, uint32_t handle)
{
	struct ib_uverbs_destroy_cq_resp resp;
	struct ib_uverbs_destroy_cq c = { .response = (uintptr_t)&resp, .cq_handle = handle };

	return uv_write(u->fd, IB_USER_VERBS_CMD_DESTROY_CQ, &c, sizeof(c), NULL, 0,
			sizeof(resp));
}

static void cq_cases(struct uv *u, struct ring *r, uint32_t *good, uint32_t *cqn)
{
	struct wren_ib_create_cq ok = {
		.buf_addr = (uintptr_t)r->buf, .dbrec_addr = ring_dbrec(r), .log_size = 4,
	}, bad;
	struct { struct wren_ib_create_cq c; uint64_t tail; } big = { ok, 1 };
	void *gone = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	void *ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t h;
	int rc;

	munmap(gone, PAGE);
	expect(create_cq(u, &ok, 8, 16, 0, NULL, NULL), E_INVAL, "CREATE_CQ with 8 bytes of driver data");
	expect(create_cq(u, &big.c, sizeof(big), 16, 0, NULL, NULL), E_OPNOTSUPP,
	       "CREATE_CQ with a non-zero tail");
	bad = ok;
	bad.comp_mask = 1;
	expect(create_cq(u, &bad, sizeof(bad), 16, 0, NULL, NULL), E_OPNOTSUPP,
	       "CREATE_CQ with an unknown comp_mask bit");
	bad = ok;
	bad.reserved[1] = 7;
	expect(create_cq(u, &bad, sizeof(bad), 16, 0, NULL, NULL), E_INVAL,
	       "CREATE_CQ with a reserved byte set");
	bad = ok;
	bad.buf_addr += 64;
	expect(create_cq(u, &bad, sizeof(bad), 16, 0, NULL, NULL), E_INVAL,
	       "CREATE_CQ with its ring off a page boundary");
	bad = ok;
	bad.dbrec_addr += 4;
	expect(create_cq(u, &bad, sizeof(bad), 16, 0, NULL, NULL), E_INVAL,
	       "CREATE_CQ with a doorbell record off 8 bytes");
	bad = ok;
	bad.log_size = 2;
	expect(create_cq(u, &bad, sizeof(bad), 16, 0, NULL, NULL), E_INVAL,
	       "CREATE_CQ with a ring smaller than cqe");
	bad = ok;
	bad.log_size = 40;
	expect(create_cq(u, &bad, sizeof(bad), 16, 0, NULL, NULL), E_INVAL,
	       "CREATE_CQ with log_size 40");
	bad = ok;
	bad.buf_addr = (uintptr_t)gone;
	expect(create_cq(u, &bad, sizeof(bad), 16, 0, NULL, NULL), E_ADDR,
	       "CREATE_CQ with its ring in unmapped memory");
	bad.buf_addr = KERNEL_VA;
	expect(create_cq(u, &bad, sizeof(bad), 16, 0, NULL, NULL), E_ADDR,
	       "CREATE_CQ with its ring at a kernel address");
	bad.buf_addr = (uintptr_t)ro;
	expect(create_cq(u, &bad, sizeof(bad), 16, 0, NULL, NULL), E_ADDR,
	       "CREATE_CQ with its ring in read-only memory (the device writes it)");
	bad = ok;
	bad.dbrec_addr = 0;
	expect(create_cq(u, &bad, sizeof(bad), 16, 0, NULL, NULL), E_ADDR,
	       "CREATE_CQ with its doorbell record at address 0");
	expect(create_cq(u, &ok, sizeof(ok), 16, 100000, NULL, NULL), E_INVAL,
	       "CREATE_CQ on completion vector 100000");
	munmap(ro, PAGE);
	rc = create_cq(u, &ok, sizeof(ok), 16, 0, &h, NULL);
	tap_ok(!rc, "CREATE_CQ with a good request after all that: %s", rc ? strerror(-rc) : "ok");
	if (!rc) {
		expect(destroy_cq(u, h), E_OK, "DESTROY_CQ");
		expect(destroy_cq(u, h), E_NOENT, "DESTROY_CQ again (double destroy)");
	} else {
		tap_ok(false, "DESTROY_CQ");
		tap_ok(false, "DESTROY_CQ again (double destroy)");
	}
	expect(destroy_cq(u, 0xfffff), E_NOENT, "DESTROY_CQ of a handle never given out");
	expect(destroy_cq(u, u->pd), E_INVAL, "DESTROY_CQ of the PD's handle");
	if (create_cq(u, &ok, sizeof(ok), 16, 0, good, cqn))
		*good = ~0u;
}

static int create_srq(struct uv *u, const struct wren_ib_create_srq *drv,
		      uint32_t max_wr, uint32_t *handle)
{
	struct {
		struct ib_uverbs_create_srq_resp core;
		struct wren_ib_create_srq_resp drv;
	} resp = { 0 };
	struct ib_uverbs_create_srq c = {
		.response = (uintptr_t)&resp, .pd_handle = u->pd, .max_wr = max_wr,
		.max_sge = 1,
	};
	int rc = uv_write(u->fd, IB_USER_VERBS_CMD_CREATE_SRQ, &c, sizeof(c), drv,
			  sizeof(*drv), sizeof(resp));

	*handle = resp.core.srq_handle;
	return rc;
}

static int resize_srq(struct uv *u, uint32_t handle, uint32_t max_wr,
		      const void *drv, size_t drv_len)
{
	struct ib_uverbs_modify_srq c = {
		.srq_handle = handle, .attr_mask = IBV_SRQ_MAX_WR, .max_wr = max_wr,
	};

	return uv_write(u->fd, IB_USER_VERBS_CMD_MODIFY_SRQ, &c, sizeof(c), drv,
			drv_len, 0);
}

static int destroy_srq(struct uv *u, uint32_t handle)
{
	struct ib_uverbs_destroy_srq_resp resp;
	struct ib_uverbs_destroy_srq c = { .response = (uintptr_t)&resp,
					   .srq_handle = handle };

	return uv_write(u->fd, IB_USER_VERBS_CMD_DESTROY_SRQ, &c, sizeof(c), NULL, 0,
			sizeof(resp));
}

/*
 * MODIFY_SRQ with IB_SRQ_MAX_WR and bad driver data, on an SRQ of 4 WQEs
 * of 64 bytes (rings of 16 pages are enough for 1 << 10 of them).
 */
#define N_SRQ_CASES	12
static void srq_cases(struct uv *u, struct ring *r)
{
	const struct wren_ib_create_srq mk = {
		.buf_addr = (uintptr_t)r->buf, .dbrec_addr = ring_dbrec(r),
		.wqe_shift = 6, .log_size = 2,
	};
	struct wren_ib_resize_srq ok = {
		.buf_addr = (uintptr_t)r->buf + 8 * PAGE,
		.dbrec_addr = (uintptr_t)r->buf + 8 * PAGE + 512, .log_size = 3,
	}, bad;
	void *gone = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	uint32_t h;
	int rc;

	munmap(gone, PAGE);
	if (!(u->ctx.caps & WREN_CAP_SRQ_RESIZE) || !(u->ctx.caps & WREN_CAP_RDMA_SRQ)) {
		for (int i = 0; i < N_SRQ_CASES; i++)
			tap_skipped("the device cannot resize SRQs", "SRQ resize case %d", i + 1);
		return;
	}
	rc = create_srq(u, &mk, 4, &h);
	tap_ok(!rc, "CREATE_SRQ of 4 WQEs: %s", rc ? strerror(-rc) : "ok");
	if (rc) {
		for (int i = 1; i < N_SRQ_CASES; i++)
			tap_ok(false, "SRQ resize case %d: no SRQ", i + 1);
		return;
	}
	expect(resize_srq(u, h, 8, &ok, 8), E_INVAL,
	       "MODIFY_SRQ(MAX_WR) with 8 bytes of driver data");
	bad = ok;
	bad.comp_mask = 1;
	expect(resize_srq(u, h, 8, &bad, sizeof(bad)), E_OPNOTSUPP,
	       "MODIFY_SRQ(MAX_WR) with an unknown comp_mask bit");
	bad = ok;
	bad.reserved[2] = 1;
	expect(resize_srq(u, h, 8, &bad, sizeof(bad)), E_INVAL,
	       "MODIFY_SRQ(MAX_WR) with a reserved byte set");
	bad = ok;
	bad.log_size = 2;
	expect(resize_srq(u, h, 4, &bad, sizeof(bad)), E_INVAL,
	       "MODIFY_SRQ(MAX_WR) to a ring no larger than the SRQ's");
	expect(resize_srq(u, h, 9, &ok, sizeof(ok)), E_INVAL,
	       "MODIFY_SRQ(MAX_WR) of 9 into a ring of 8");
	expect(resize_srq(u, h, 8, NULL, 0), E_INVAL,
	       "MODIFY_SRQ(MAX_WR) beyond the SRQ with no ring given");
	expect(resize_srq(u, h, 1u << 30, &ok, sizeof(ok)), E_INVAL,
	       "MODIFY_SRQ(MAX_WR) of 2^30, beyond max_srq_wr");
	bad = ok;
	bad.buf_addr = (uintptr_t)gone;
	expect(resize_srq(u, h, 8, &bad, sizeof(bad)), E_ADDR,
	       "MODIFY_SRQ(MAX_WR) with its ring in unmapped memory");
	expect(resize_srq(u, h, 8, &ok, sizeof(ok)), E_OK,
	       "MODIFY_SRQ(MAX_WR) to 8 with a good ring after all that");
	expect(resize_srq(u, h, 8, &ok, sizeof(ok)), E_INVAL,
	       "MODIFY_SRQ(MAX_WR) to 8 again with a ring: not a larger one");
	expect(destroy_srq(u, h), E_OK, "DESTROY_SRQ of the grown SRQ");
}

struct qp_req {
	struct ib_uverbs_create_qp core;
	struct wren_ib_create_qp drv;
};

static void qp_good(struct uv *u, struct qp_req *q, struct ring *r, uint32_t cq)
{
	memset(q, 0, sizeof(*q));
	q->core.pd_handle = u->pd;
	q->core.send_cq_handle = cq;
	q->core.recv_cq_handle = cq;
	q->core.max_send_wr = 4;
	q->core.max_recv_wr = 4;
	q->core.max_send_sge = 1;
	q->core.max_recv_sge = 1;
	q->core.qp_type = IB_UVERBS_QPT_RC;
	q->drv.buf_addr = (uintptr_t)r->buf;
	q->drv.dbrec_addr = ring_dbrec(r);
	q->drv.sq_wqe_shift = (uint8_t)wren_sq_wqe_shift(1, 0);
	q->drv.sq_log_size = 2;
	q->drv.rq_wqe_shift = (uint8_t)wren_rq_wqe_shift(1);
	q->drv.rq_log_size = 2;
	q->drv.rq_offset = PAGE;
}

static int create_qp(struct uv *u, struct qp_req *q, size_t drv_len, uint32_t *handle,
		     uint32_t *qpn)
{
	struct {
		struct ib_uverbs_create_qp_resp core;
		struct wren_ib_create_qp_resp drv;
	} resp = { 0 };
	int rc;

	q->core.response = (uintptr_t)&resp;
	rc = uv_write(u->fd, IB_USER_VERBS_CMD_CREATE_QP, &q->core, sizeof(q->core), &q->drv,
		      drv_len, sizeof(resp));
	if (handle)
		*handle = resp.core.qp_handle;
	if (qpn)
		*qpn = resp.core.qpn;
	return rc;
}

static int destroy_qp(int fd, uint32_t handle)
{
	struct ib_uverbs_destroy_qp_resp resp;
	struct ib_uverbs_destroy_qp c = { .response = (uintptr_t)&resp, .qp_handle = handle };

	return uv_write(fd, IB_USER_VERBS_CMD_DESTROY_QP, &c, sizeof(c), NULL, 0, sizeof(resp));
}

static void qp_cases(struct uv *u, struct ring *r, uint32_t cq)
{
	struct qp_req q;
	uint32_t h;
	int rc;

	qp_good(u, &q, r, cq);
	q.core.pd_handle = 0xfffff;
	expect(create_qp(u, &q, sizeof(q.drv), NULL, NULL), E_NOENT,
	       "CREATE_QP on a PD handle never given out");
	qp_good(u, &q, r, cq);
	q.core.send_cq_handle = u->pd;
	expect(create_qp(u, &q, sizeof(q.drv), NULL, NULL), E_INVAL,
	       "CREATE_QP with the PD's handle as its send CQ");
	qp_good(u, &q, r, cq);
	expect(create_qp(u, &q, 16, NULL, NULL), E_INVAL, "CREATE_QP with 16 bytes of driver data");
	qp_good(u, &q, r, cq);
	q.drv.sq_log_size = 1;
	expect(create_qp(u, &q, sizeof(q.drv), NULL, NULL), E_INVAL,
	       "CREATE_QP with an SQ smaller than max_send_wr");
	qp_good(u, &q, r, cq);
	q.core.max_send_sge = 8;
	expect(create_qp(u, &q, sizeof(q.drv), NULL, NULL), E_INVAL,
	       "CREATE_QP with an SQ stride too small for max_send_sge");
	qp_good(u, &q, r, cq);
	q.drv.sq_wqe_shift = 31;
	expect(create_qp(u, &q, sizeof(q.drv), NULL, NULL), E_INVAL,
	       "CREATE_QP with an SQ stride of 2^31");
	qp_good(u, &q, r, cq);
	q.drv.rq_offset = PAGE / 2 + 8;
	expect(create_qp(u, &q, sizeof(q.drv), NULL, NULL), E_INVAL,
	       "CREATE_QP with its RQ off a multiple of its stride");
	qp_good(u, &q, r, cq);
	q.drv.rq_offset = 0;
	expect(create_qp(u, &q, sizeof(q.drv), NULL, NULL), E_INVAL,
	       "CREATE_QP with its RQ on top of its SQ");
	qp_good(u, &q, r, cq);
	q.drv.rq_offset = 1u << 30;
	expect(create_qp(u, &q, sizeof(q.drv), NULL, NULL), E_ADDR,
	       "CREATE_QP with its RQ 1 GiB past its buffer");
	qp_good(u, &q, r, cq);
	q.drv.buf_addr = KERNEL_VA;
	expect(create_qp(u, &q, sizeof(q.drv), NULL, NULL), E_ADDR,
	       "CREATE_QP with its queues at a kernel address");
	qp_good(u, &q, r, cq);
	q.core.max_send_wr = 1u << 30;
	q.drv.sq_log_size = 30;
	expect(create_qp(u, &q, sizeof(q.drv), NULL, NULL), E_NOMEM_INVAL,
	       "CREATE_QP with 2^30 send entries");
	qp_good(u, &q, r, cq);
	q.drv.reserved = 5;
	expect(create_qp(u, &q, sizeof(q.drv), NULL, NULL), E_INVAL,
	       "CREATE_QP with a reserved field set");
	qp_good(u, &q, r, cq);
	rc = create_qp(u, &q, sizeof(q.drv), &h, NULL);
	tap_ok(!rc, "CREATE_QP with a good request after all that: %s", rc ? strerror(-rc) : "ok");
	expect(rc ? -EIO : destroy_qp(u->fd, h), E_OK, "DESTROY_QP");
	expect(destroy_qp(u->fd, h), E_NOENT, "DESTROY_QP again (double destroy)");
}

static int reg_mr(struct uv *u, uint64_t start, uint64_t len, uint32_t access, uint32_t pd,
		  uint32_t *handle)
{
	struct ib_uverbs_reg_mr_resp resp = { 0 };
	struct ib_uverbs_reg_mr c = {
		.response = (uintptr_t)&resp, .start = start, .length = len, .hca_va = start,
		.pd_handle = pd, .access_flags = access,
	};
	int rc = uv_write(u->fd, IB_USER_VERBS_CMD_REG_MR, &c, sizeof(c), NULL, 0,
			  sizeof(resp));

	if (handle)
		*handle = resp.mr_handle;
	return rc;
}

static int dereg_mr(struct uv *u, uint32_t handle)
{
	struct ib_uverbs_dereg_mr c = { .mr_handle = handle };

	return uv_write(u->fd, IB_USER_VERBS_CMD_DEREG_MR, &c, sizeof(c), NULL, 0, 0);
}

/* The highest mmap offset the context handed out. */
static uint64_t last_offset(const struct uv *u)
{
	uint64_t off = u->ctx.db_mmap_offset;

	if ((u->ctx.comp_mask & WREN_IB_UCTX_RESP_CLOCK) &&
	    u->ctx.clock_mmap_offset > off)
		off = u->ctx.clock_mmap_offset;
	return off;
}

/*
 * The clock page maps read-only and stays so: writable or executable
 * mappings are refused, and so is an mprotect() that would add writing.
 */
static void clock_page_cases(struct uv *u)
{
	static const int E_PERM[] = { EPERM, 0 };
	static const int E_ACCES[] = { EACCES, 0 };
	off_t off = (off_t)u->ctx.clock_mmap_offset;
	void *m;
	int rc;

	if (!(u->ctx.comp_mask & WREN_IB_UCTX_RESP_CLOCK)) {
		for (int i = 0; i < 3; i++)
			tap_skipped("the device has no clock page", "clock page case %d", i);
		return;
	}
	m = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, u->fd, off);
	expect(m == MAP_FAILED ? -errno : 0, E_PERM, "mmap of the clock page writable");
	if (m != MAP_FAILED)
		munmap(m, PAGE);
	m = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_SHARED, u->fd, off);
	expect(m == MAP_FAILED ? -errno : 0, E_PERM, "mmap of the clock page executable");
	if (m != MAP_FAILED)
		munmap(m, PAGE);
	m = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, u->fd, off);
	if (m == MAP_FAILED) {
		tap_ok(false, "mmap of the clock page read-only: %s", strerror(errno));
		return;
	}
	rc = mprotect(m, PAGE, PROT_READ | PROT_WRITE) ? -errno : 0;
	expect(rc, E_ACCES, "the read-only clock page, mprotect to writable");
	munmap(m, PAGE);
}

static void mr_and_mmap_cases(struct uv *u, struct ring *r)
{
	uintptr_t p = (uintptr_t)r->buf;
	uint32_t h;
	void *m;
	int rc;

	expect(reg_mr(u, p, 0, IBV_ACCESS_LOCAL_WRITE, u->pd, NULL), E_INVAL,
	       "REG_MR of 0 bytes");
	expect(reg_mr(u, p, PAGE, 0x80000000u, u->pd, NULL), E_INVAL,
	       "REG_MR with unknown access bits");
	expect(reg_mr(u, p, PAGE, IBV_ACCESS_REMOTE_WRITE, u->pd, NULL), E_INVAL,
	       "REG_MR with remote write but not local write");
	expect(reg_mr(u, KERNEL_VA, PAGE, IBV_ACCESS_LOCAL_WRITE, u->pd, NULL), E_ADDR,
	       "REG_MR of a kernel address");
	expect(reg_mr(u, p, 1ull << 62, IBV_ACCESS_LOCAL_WRITE, u->pd, NULL),
	       (const int[]){ EFAULT, EINVAL, ENOMEM, 0 }, "REG_MR of 2^62 bytes");
	expect(reg_mr(u, p, PAGE, IBV_ACCESS_LOCAL_WRITE, 0xfffff, NULL), E_NOENT,
	       "REG_MR on a PD handle never given out");
	rc = reg_mr(u, p, PAGE, IBV_ACCESS_LOCAL_WRITE, u->pd, &h);
	tap_ok(!rc && !dereg_mr(u, h), "REG_MR and DEREG_MR of a good page");
	expect(dereg_mr(u, h), E_NOENT, "DEREG_MR again (double destroy)");

	m = mmap(NULL, PAGE, PROT_WRITE, MAP_SHARED, u->fd, 0x1234000);
	expect(m == MAP_FAILED ? -errno : 0, E_INVAL, "mmap of an offset never handed out");
	if (m != MAP_FAILED)
		munmap(m, PAGE);
	m = mmap(NULL, 2 * PAGE, PROT_WRITE, MAP_SHARED, u->fd, (off_t)u->ctx.db_mmap_offset);
	expect(m == MAP_FAILED ? -errno : 0, E_INVAL, "mmap of the doorbell page, two pages long");
	if (m != MAP_FAILED)
		munmap(m, 2 * PAGE);
	m = mmap(NULL, PAGE, PROT_WRITE, MAP_PRIVATE, u->fd, (off_t)u->ctx.db_mmap_offset);
	expect(m == MAP_FAILED ? -errno : 0, E_INVAL, "mmap of the doorbell page MAP_PRIVATE");
	if (m != MAP_FAILED)
		munmap(m, PAGE);
	clock_page_cases(u);
	m = mmap(NULL, PAGE, PROT_WRITE, MAP_SHARED, u->fd,
		 (off_t)last_offset(u) + PAGE);
	expect(m == MAP_FAILED ? -errno : 0, E_INVAL,
	       "mmap of the page after the last one handed out");
	if (m != MAP_FAILED)
		munmap(m, PAGE);
}

/* The race: two threads destroy the same QP; a third rings doorbells. */
struct race {
	struct uv *u;
	pthread_barrier_t go, done;
	atomic_uint handle, qpn;
	uint32_t cqn;
	atomic_bool stop;
	int rounds, rc_b;
};

static void *race_destroyer(void *arg)
{
	struct race *r = arg;

	for (int i = 0; i < r->rounds; i++) {
		pthread_barrier_wait(&r->go);
		r->rc_b = destroy_qp(r->u->fd, atomic_load(&r->handle));
		pthread_barrier_wait(&r->done);
	}
	return NULL;
}

static void *race_ringer(void *arg)
{
	struct race *r = arg;
	volatile uint64_t *sq = (volatile uint64_t *)(r->u->db + WREN_DB_SQ);
	volatile uint64_t *cq = (volatile uint64_t *)(r->u->db + WREN_DB_CQ);
	volatile uint64_t *eth = (volatile uint64_t *)(r->u->db + WREN_DB_ETH_TX);
	uint32_t i = 0;

	/* SQ doorbells for the QP being created and destroyed, with
	 * producer indexes far beyond its ring; CQ doorbells for the
	 * context's CQ with consumer indexes the device never produced; a
	 * kernel-only doorbell (the NIC reports each bad queue once). */
	while (!atomic_load(&r->stop)) {
		*sq = WREN_DB_VAL(atomic_load(&r->qpn), 0, i * 977u);
		*cq = WREN_DB_VAL(r->cqn, WREN_DB_CQ_ARM_NEXT, i * 31u);
		if (!(i & 255))
			*eth = WREN_DB_VAL(0, 0, i);
		i++;
	}
	return NULL;
}

static void race_cases(struct uv *u, struct ring *r, uint32_t cq, uint32_t cqn)
{
	struct race x = { .u = u, .rounds = RACE_ROUNDS, .cqn = cqn };
	pthread_t td, tr;
	int wins = 0, both = 0, none = 0, created = 0, odd = 0;
	struct qp_req q;

	pthread_barrier_init(&x.go, NULL, 2);
	pthread_barrier_init(&x.done, NULL, 2);
	pthread_create(&td, NULL, race_destroyer, &x);
	pthread_create(&tr, NULL, race_ringer, &x);
	for (int i = 0; i < x.rounds; i++) {
		uint32_t h = ~0u, qpn = 0;
		int rc_a;

		qp_good(u, &q, r, cq);
		if (!create_qp(u, &q, sizeof(q.drv), &h, &qpn))
			created++;
		atomic_store(&x.handle, h);
		atomic_store(&x.qpn, qpn);
		pthread_barrier_wait(&x.go);
		rc_a = destroy_qp(u->fd, h);
		pthread_barrier_wait(&x.done);
		if (!rc_a && !x.rc_b)
			both++;
		else if (!rc_a || !x.rc_b)
			wins++;
		else
			none++;
		/* The loser finds the handle gone, or busy being destroyed. */
		if ((rc_a && rc_a != -ENOENT && rc_a != -EBUSY) ||
		    (x.rc_b && x.rc_b != -ENOENT && x.rc_b != -EBUSY))
			odd++;
	}
	atomic_store(&x.stop, true);
	pthread_join(td, NULL);
	pthread_join(tr, NULL);
	tap_ok(created == x.rounds && wins == x.rounds && !both && !none && !odd,
	       "%d QPs created, each destroyed by two threads at once while a third rang "
	       "doorbells: %d destroyed once, %d twice, %d never, %d other errors",
	       created, wins, both, none, odd);
}

int abuse_run(struct dev *d)
{
	struct ring cqr, qpr, mrr, srqr;
	struct uv u;
	uint32_t cq, cqn = 0;

	tap_plan(7 + 18 + 15 + 12 + N_SRQ_CASES + 1);
	context_cases(d);
	if (uv_open(d, &u) || ring_alloc(&cqr, PAGE) || ring_alloc(&qpr, 2 * PAGE) ||
	    ring_alloc(&mrr, PAGE) || ring_alloc(&srqr, 16 * PAGE)) {
		tap_diag("abuse: a context, a PD and rings to start with: %s", strerror(errno));
		return 1;
	}
	cq_cases(&u, &cqr, &cq, &cqn);
	qp_cases(&u, &qpr, cq);
	mr_and_mmap_cases(&u, &mrr);
	srq_cases(&u, &srqr);
	race_cases(&u, &qpr, cq, cqn);
	/* The CQ stays: closing the file must clean up after a process
	 * that leaves objects behind. */
	uv_close(&u);
	return tap_done();
}
