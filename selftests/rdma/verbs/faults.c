// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Faults mode (wren_verbs_test faults): verbs objects made and torn down
 * while the kernel fails some of this process's allocations.
 *
 * The caller arms the kernel's fault injection (failslab and
 * fail_page_alloc with task-filter on, a probability and no limit on the
 * count); this process then marks itself (/proc/self/make-it-fail) for
 * each round and only for the round, so that the failures land in the
 * kernel paths a verbs user drives: ib_uverbs, ib_core, wren_ib and wren.
 * A round opens a context, allocates a PD, registers an MR, makes two RC
 * QPs with their CQs, connects them to each other (the NIC loops the
 * traffic back), RDMA WRITEs a page from one half of the MR to the other
 * and checks it, and frees everything.  Any step may fail: that is the
 * point; what must hold is that a failed call says why (errno), that a
 * round that got its QPs to RTS moves the right bytes, and that nothing
 * hangs.  The device's object counts after the process are the script's
 * to check (selftests/driver/wren-fault-inject.sh).
 *
 * While marked, the process touches no file system: every page it uses
 * is locked in first (mlockall), and it prints nothing until the rounds
 * are over.  An allocation failure injected into a file system (the
 * bench's root is 9p) is that file system's business, and it once broke
 * every later exec of the guest.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "wvt.h"
#include "tap.h"

#define PAGE		4096

enum step { S_CTX, S_PD, S_MR, S_QP_A, S_QP_B, S_CONNECT, S_WRITE, S_DATA, S_DONE, S_NR };

static const char *const step_name[S_NR] = {
	[S_CTX] = "open the device", [S_PD] = "allocate a PD",
	[S_MR] = "register an MR", [S_QP_A] = "create QP a and its CQs",
	[S_QP_B] = "create QP b and its CQs", [S_CONNECT] = "connect the QPs",
	[S_WRITE] = "RDMA WRITE", [S_DATA] = "data check", [S_DONE] = "whole round",
};

struct round {
	enum step stopped;	/* S_DONE: every step worked */
	int err;		/* errno of the failed call */
	int bad_destroys;
};

static int mark_fd = -1;

static void mark(int on)
{
	/* No allocation on this path: a short write to an open proc file. */
	if (pwrite(mark_fd, on ? "1" : "0", 1, 0) != 1)
		abort();
}

/* One RDMA WRITE of @len from @src to @dst through @a, waited for. */
static int write_wait(struct conn *a, struct ibv_mr *mr, uint8_t *src,
		      uint8_t *dst, size_t len)
{
	struct ibv_sge sg = { .addr = (uintptr_t)src, .length = (uint32_t)len,
			      .lkey = mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sg, .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct ibv_wc wc;
	int ret;

	wr.wr.rdma.remote_addr = (uintptr_t)dst;
	wr.wr.rdma.rkey = mr->rkey;
	/* ibv_post_send() returns its errno rather than setting it. */
	ret = ibv_post_send(a->qp, &wr, &bad);
	if (ret) {
		errno = ret;
		return -1;
	}
	if (poll_one(a->scq, &wc, 10000)) {
		errno = ETIMEDOUT;
		return -1;
	}
	if (wc.status != IBV_WC_SUCCESS) {
		errno = EIO;
		return -1;
	}
	return 0;
}

static void round_run(const struct dev *base, uint8_t *buf, unsigned int seed,
		      struct round *r)
{
	struct dev d = *base;
	struct conn a = { 0 }, b = { 0 };
	struct ibv_mr *mr = NULL;
	int bad = 0;

	memset(r, 0, sizeof(*r));
	d.pd[0] = d.pd[1] = NULL;
	errno = 0;
	r->stopped = S_CTX;
	d.ctx = ibv_open_device(base->ctx->device);
	if (!d.ctx)
		goto fail;
	r->stopped = S_PD;
	d.pd[0] = d.pd[1] = ibv_alloc_pd(d.ctx);
	if (!d.pd[0])
		goto fail;
	r->stopped = S_MR;
	mr = ibv_reg_mr(d.pd[0], buf, 2 * PAGE, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		goto fail;
	r->stopped = S_QP_A;
	if (conn_create(&d, &a, IBV_QPT_RC, 0, 4))
		goto fail;
	r->stopped = S_QP_B;
	if (conn_create(&d, &b, IBV_QPT_RC, 0, 4))
		goto fail;
	r->stopped = S_CONNECT;
	errno = 0;
	if (conn_connect(&d, &a, b.qp->qp_num, b.psn, &d.gid) ||
	    conn_connect(&d, &b, a.qp->qp_num, a.psn, &d.gid))
		goto fail;
	r->stopped = S_WRITE;
	pat_fill(buf, PAGE, seed, 0);
	memset(buf + PAGE, 0, PAGE);
	if (write_wait(&a, mr, buf, buf + PAGE, PAGE))
		goto fail;
	r->stopped = S_DATA;
	if (pat_diff(buf + PAGE, PAGE, seed, 0) >= 0) {
		r->err = EILSEQ;
		goto out;
	}
	r->stopped = S_DONE;
	goto out;
fail:
	r->err = errno;
out:
	/* conn_destroy() frees what conn_create() got before it failed. */
	bad += a.qp && ibv_destroy_qp(a.qp);
	bad += b.qp && ibv_destroy_qp(b.qp);
	a.qp = b.qp = NULL;
	conn_destroy(&a);
	conn_destroy(&b);
	bad += mr && ibv_dereg_mr(mr);
	bad += d.pd[0] && ibv_dealloc_pd(d.pd[0]);
	bad += d.ctx && ibv_close_device(d.ctx);
	r->bad_destroys = bad;
}

/*
 * Grow the stack now, for mlockall() to lock: a stack page first touched
 * while marked would be an allocation the kernel may fail, in a page
 * fault rather than a verbs call.
 */
static void stack_prefault(void)
{
	volatile uint8_t pad[128 * 1024];

	memset((uint8_t *)pad, 0, sizeof(pad));
}

int faults_run(struct dev *d, int rounds)
{
	struct round *res = calloc((size_t)rounds, sizeof(*res));
	unsigned int stopped[S_NR] = { 0 };
	int silent = 0, wrong = 0, destroys = 0, errs[S_NR] = { 0 };
	int null_fd, err_fd;
	uint8_t *buf;
	struct round clean;

	tap_plan(3);
	buf = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mark_fd = open("/proc/self/make-it-fail", O_WRONLY);
	/* The helpers' perror()s go nowhere while marked (see the top). */
	null_fd = open("/dev/null", O_WRONLY);
	err_fd = dup(STDERR_FILENO);
	stack_prefault();
	if (!res || buf == MAP_FAILED || mark_fd < 0 || null_fd < 0 || err_fd < 0 ||
	    mlockall(MCL_CURRENT | MCL_FUTURE)) {
		tap_diag("faults: buffers, /proc/self/make-it-fail, /dev/null and mlockall: %s",
			 strerror(errno));
		return 1;
	}
	fflush(NULL);
	dup2(null_fd, STDERR_FILENO);
	for (int i = 0; i < rounds; i++) {
		mark(1);
		round_run(d, buf, (unsigned int)i, &res[i]);
		mark(0);
	}
	dup2(err_fd, STDERR_FILENO);
	close(err_fd);
	close(null_fd);
	munlockall();

	for (int i = 0; i < rounds; i++) {
		struct round *r = &res[i];

		stopped[r->stopped]++;
		destroys += r->bad_destroys;
		if (r->stopped == S_DATA)
			wrong++;
		else if (r->stopped != S_DONE && !r->err)
			silent++;
		else if (r->stopped != S_DONE && !errs[r->stopped])
			errs[r->stopped] = r->err;
	}
	for (int s = 0; s < S_NR; s++)
		if (stopped[s])
			tap_diag("faults: %u of %d rounds %s%s%s%s", stopped[s], rounds,
				 s == S_DONE ? "completed: " : "stopped at: ",
				 step_name[s], s == S_DONE || !errs[s] ? "" : ": ",
				 s == S_DONE || !errs[s] ? "" : strerror(errs[s]));
	tap_diag("faults: %d destroy calls failed (their objects go with the context)",
		 destroys);
	tap_ok(!silent, "%d rounds under allocation failures: every failed call gave an errno (%d did not)",
	       rounds, silent);
	tap_ok(!wrong, "every round whose QPs reached RTS wrote the right bytes (%d did not)",
	       wrong);

	round_run(d, buf, 0x5eed, &clean);
	tap_ok(clean.stopped == S_DONE && !clean.bad_destroys,
	       "a round without injection completes and frees everything%s%s",
	       clean.stopped == S_DONE ? "" : ": stopped at ",
	       clean.stopped == S_DONE ? "" : step_name[clean.stopped]);
	close(mark_fd);
	munmap(buf, 2 * PAGE);
	free(res);
	return tap_done();
}
