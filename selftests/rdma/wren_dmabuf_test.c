// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * dma-buf MRs end to end on one verbs device: a memfd made into a dma-buf
 * by udmabuf (/dev/udmabuf), registered with ibv_reg_dmabuf_mr, and two RC
 * QPs on the device connected to each other, so that every byte goes
 * through the NIC (its loopback) and its MTT of the dma-buf's DMA
 * addresses.  The memfd's own mapping is the independent view of the
 * dma-buf's memory.  Cases:
 *
 *   - NCCL's probe ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0) fails with EBADF;
 *   - RDMA WRITE of a seeded pattern from a host MR into the dma-buf MR,
 *     whole and at an unaligned offset, checked through the memfd;
 *   - RDMA READ from the dma-buf MR into a host MR, checked;
 *   - the dma-buf MR as the local buffer (lkey) of a WRITE;
 *   - a WRITE with a wrong rkey completes with a remote access error and
 *     leaves the dma-buf's bytes alone.
 *
 * Output: one line per case, "PASS desc", "FAIL desc: why" or
 * "SKIP desc: why" (selftests/rdma/wren-dmabuf.sh turns them into TAP);
 * exit 0 when nothing failed, 2 when nothing could run, 1 otherwise.
 *
 * -H backs the memfd with 2 MiB huge pages, so that the dma-buf's DMA
 * addresses come in large contiguous pieces and the MTT can use large
 * pages; -x CMD runs CMD (e.g. `rdma res show mr -dd`) while the dma-buf
 * MR is registered, its output passed through, after a line
 * "INFO dmabuf lkey 0xKEY" naming the MR.
 *
 *   wren_dmabuf_test -d wren_0 -g GID_INDEX [-s BYTES] [-S SEED] [-H] [-x CMD]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <infiniband/verbs.h>
#include <linux/udmabuf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef MFD_HUGE_2MB			/* linux/memfd.h clashes with glibc's */
#define MFD_HUGE_2MB	(21U << 26)
#endif

#define IOVA_BASE	0x40000000ULL	/* 64 KiB aligned: no limit on the page size */

static int failed;

#define PASS(...)	do { printf("PASS "); printf(__VA_ARGS__); printf("\n"); } while (0)
#define FAIL(...)	do { printf("FAIL "); printf(__VA_ARGS__); printf("\n"); failed++; } while (0)

struct ctx {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp[2];
	union ibv_gid gid;
	int gidx;
	enum ibv_mtu mtu;
};

static uint8_t pat(uint32_t seed, size_t i)
{
	uint32_t x = seed ^ (uint32_t)(i * 2654435761u);

	x ^= x >> 13;
	x *= 0x5bd1e995;
	x ^= x >> 15;
	return (uint8_t)x;
}

static void fill(uint8_t *p, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = pat(seed, i);
}

/* The first byte where @p differs from the pattern, or -1. */
static long check(const uint8_t *p, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != pat(seed, i))
			return (long)i;
	return -1;
}

static int connect_qp(struct ctx *c, struct ibv_qp *qp, uint32_t dqpn)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
	};

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = c->mtu;
	a.dest_qp_num = dqpn;
	a.rq_psn = 1;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = c->gid;
	a.ah_attr.grh.sgid_index = c->gidx;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = 1;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
			     IBV_QP_MAX_QP_RD_ATOMIC);
}

static int setup(struct ctx *c, const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_all = 1,
	};
	struct ibv_port_attr pa;

	for (int i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			c->ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!c->ctx) {
		fprintf(stderr, "cannot open %s\n", name);
		return -1;
	}
	if (ibv_query_port(c->ctx, 1, &pa) || ibv_query_gid(c->ctx, 1, c->gidx, &c->gid))
		return -1;
	c->mtu = pa.active_mtu;
	c->pd = ibv_alloc_pd(c->ctx);
	c->cq = c->pd ? ibv_create_cq(c->ctx, 32, NULL, NULL, 0) : NULL;
	if (!c->cq)
		return -1;
	qa.send_cq = qa.recv_cq = c->cq;
	for (int i = 0; i < 2; i++) {
		c->qp[i] = ibv_create_qp(c->pd, &qa);
		if (!c->qp[i])
			return -1;
	}
	if (connect_qp(c, c->qp[0], c->qp[1]->qp_num) ||
	    connect_qp(c, c->qp[1], c->qp[0]->qp_num))
		return -1;
	return 0;
}

/* One signaled RDMA op on qp[0]; returns its completion status, or -1. */
static int rdma_op(struct ctx *c, enum ibv_wr_opcode op, void *laddr,
		   uint32_t len, uint32_t lkey, uint64_t raddr, uint32_t rkey)
{
	struct ibv_sge sge = { .addr = (uintptr_t)laddr, .length = len, .lkey = lkey };
	struct ibv_send_wr wr = {
		.wr_id = 1, .sg_list = &sge, .num_sge = 1, .opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	}, *bad;
	struct timespec t0, t;
	struct ibv_wc wc;
	int n;

	if (ibv_post_send(c->qp[0], &wr, &bad))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		n = ibv_poll_cq(c->cq, 1, &wc);
		if (n < 0)
			return -1;
		if (n)
			return wc.status;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 30) {
			fprintf(stderr, "no completion within 30 s\n");
			return -1;
		}
	}
}

int main(int argc, char **argv)
{
	struct ctx c = { .gidx = -1 };
	const char *dev = "wren_0";
	size_t size = 1 << 20;
	uint32_t seed = 0x5eed;
	struct udmabuf_create uc = { .flags = UDMABUF_FLAGS_CLOEXEC };
	struct ibv_mr *hmr, *dmr, *mr;
	uint8_t *host, *view;
	int opt, memfd, ufd, dfd, st, huge = 0;
	const char *show = NULL;
	size_t align;
	long bad;

	while ((opt = getopt(argc, argv, "d:g:s:S:Hx:")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'g': c.gidx = atoi(optarg); break;
		case 's': size = strtoul(optarg, NULL, 0); break;
		case 'S': seed = strtoul(optarg, NULL, 0); break;
		case 'H': huge = 1; break;
		case 'x': show = optarg; break;
		default:
			fprintf(stderr, "usage: %s -d DEV -g GID_INDEX [-s BYTES] [-S SEED] [-H] [-x CMD]\n", argv[0]);
			return 2;
		}
	}
	align = huge ? 2 << 20 : 0x10000;
	size = (size + align - 1) & ~(align - 1);
	if (c.gidx < 0 || size < 0x20000) {
		fprintf(stderr, "need -g GID_INDEX and at least 128 KiB\n");
		return 2;
	}
	if (setup(&c, dev)) {
		fprintf(stderr, "setup of %s failed: %s\n", dev, strerror(errno));
		return 2;
	}

	/* NCCL's probe: the verb exists, the fd does not. */
	errno = 0;
	mr = ibv_reg_dmabuf_mr(c.pd, 0, 0, 0, -1, 0);
	if (!mr && errno == EBADF)
		PASS("ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0) fails with EBADF");
	else
		FAIL("ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0) fails with EBADF: %s",
		     mr ? "it succeeded" : strerror(errno));
	if (mr)
		ibv_dereg_mr(mr);

	memfd = memfd_create("wren-dmabuf", MFD_ALLOW_SEALING |
			     (huge ? MFD_HUGETLB | MFD_HUGE_2MB : 0));
	if (memfd < 0 || ftruncate(memfd, size) ||
	    fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK)) {
		fprintf(stderr, "memfd: %s\n", strerror(errno));
		return 2;
	}
	/* Mapped (and for huge pages reserved) before udmabuf pins them. */
	view = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	if (view == MAP_FAILED) {
		fprintf(stderr, "mmap of the memfd: %s\n", strerror(errno));
		return 2;
	}
	ufd = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (ufd < 0) {
		printf("SKIP dma-buf MR cases: /dev/udmabuf: %s\n", strerror(errno));
		return failed ? 1 : 0;
	}
	uc.memfd = memfd;
	uc.offset = 0;
	uc.size = size;
	dfd = ioctl(ufd, UDMABUF_CREATE, &uc);
	close(ufd);
	if (dfd < 0) {
		fprintf(stderr, "UDMABUF_CREATE: %s\n", strerror(errno));
		return 2;
	}
	host = aligned_alloc(4096, size);
	if (!host)
		return 2;
	memset(view, 0, size);
	memset(host, 0, size);
	hmr = ibv_reg_mr(c.pd, host, size, IBV_ACCESS_LOCAL_WRITE |
			 IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	if (!hmr) {
		fprintf(stderr, "ibv_reg_mr: %s\n", strerror(errno));
		return 2;
	}

	errno = 0;
	dmr = ibv_reg_dmabuf_mr(c.pd, 0, size, IOVA_BASE, dfd,
				IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				IBV_ACCESS_REMOTE_READ);
	if (!dmr) {
		FAIL("ibv_reg_dmabuf_mr of a %zu KiB udmabuf: %s", size >> 10,
		     strerror(errno));
		return 1;
	}
	PASS("ibv_reg_dmabuf_mr of a %zu KiB udmabuf%s", size >> 10,
	     huge ? " of 2 MiB pages" : "");
	if (show) {
		printf("INFO dmabuf lkey 0x%x\n", dmr->lkey);
		fflush(stdout);
		if (system(show))
			printf("INFO %s failed\n", show);
		fflush(stdout);
	}

	/* WRITE into the dma-buf, the whole of it. */
	fill(host, size, seed);
	st = rdma_op(&c, IBV_WR_RDMA_WRITE, host, size, hmr->lkey, IOVA_BASE, dmr->rkey);
	bad = check(view, size, seed);
	if (st == IBV_WC_SUCCESS && bad < 0)
		PASS("RDMA WRITE of %zu KiB into the dma-buf MR, checked through the memfd",
		     size >> 10);
	else
		FAIL("RDMA WRITE of %zu KiB into the dma-buf MR: status %d, first bad byte %ld",
		     size >> 10, st, bad);

	/* An unaligned piece that spans pages, elsewhere in the buffer. */
	{
		size_t off = 0x10000 + 4093, len = 70001;

		fill(host, len, seed + 1);
		st = rdma_op(&c, IBV_WR_RDMA_WRITE, host, len, hmr->lkey,
			     IOVA_BASE + off, dmr->rkey);
		bad = check(view + off, len, seed + 1);
		if (st == IBV_WC_SUCCESS && bad < 0 &&
		    check(view, off, seed) < 0 &&
		    view[off + len] == pat(seed, off + len))
			PASS("RDMA WRITE of %zu bytes at offset %zu, neighbours untouched", len, off);
		else
			FAIL("RDMA WRITE of %zu bytes at offset %zu: status %d, first bad byte %ld",
			     len, off, st, bad);
	}

	/* READ from the dma-buf. */
	fill(view, size, seed + 2);
	memset(host, 0, size);
	st = rdma_op(&c, IBV_WR_RDMA_READ, host, size, hmr->lkey, IOVA_BASE, dmr->rkey);
	bad = check(host, size, seed + 2);
	if (st == IBV_WC_SUCCESS && bad < 0)
		PASS("RDMA READ of %zu KiB from the dma-buf MR", size >> 10);
	else
		FAIL("RDMA READ of %zu KiB from the dma-buf MR: status %d, first bad byte %ld",
		     size >> 10, st, bad);

	/* The dma-buf MR as the local side: a WRITE from it into host memory.
	 * The local address is the MR's iova, not a process address.
	 */
	fill(view, size, seed + 3);
	memset(host, 0, size);
	st = rdma_op(&c, IBV_WR_RDMA_WRITE, (void *)(uintptr_t)IOVA_BASE, size,
		     dmr->lkey, (uintptr_t)host, hmr->rkey);
	bad = check(host, size, seed + 3);
	if (st == IBV_WC_SUCCESS && bad < 0)
		PASS("RDMA WRITE of %zu KiB from the dma-buf MR (its lkey) into host memory",
		     size >> 10);
	else
		FAIL("RDMA WRITE from the dma-buf MR (its lkey): status %d, first bad byte %ld",
		     st, bad);

	/* A wrong rkey: the key's tag byte changed.  Last, as it breaks the QP. */
	fill(host, 4096, seed + 4);
	st = rdma_op(&c, IBV_WR_RDMA_WRITE, host, 4096, hmr->lkey, IOVA_BASE,
		     dmr->rkey ^ 0x5a);
	bad = check(view, 4096, seed + 3);
	if (st == IBV_WC_REM_ACCESS_ERR && bad < 0)
		PASS("RDMA WRITE with a wrong rkey: remote access error, dma-buf untouched");
	else
		FAIL("RDMA WRITE with a wrong rkey: status %d (want %d), first changed byte %ld",
		     st, IBV_WC_REM_ACCESS_ERR, bad);

	if (ibv_dereg_mr(dmr))
		FAIL("ibv_dereg_mr of the dma-buf MR: %s", strerror(errno));
	else
		PASS("ibv_dereg_mr of the dma-buf MR");
	ibv_dereg_mr(hmr);
	ibv_destroy_qp(c.qp[0]);
	ibv_destroy_qp(c.qp[1]);
	ibv_destroy_cq(c.cq);
	ibv_dealloc_pd(c.pd);
	ibv_close_device(c.ctx);
	close(dfd);
	munmap(view, size);
	close(memfd);
	free(host);
	return failed ? 1 : 0;
}
