// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The control path's cost: how long one process takes to
 * register (and deregister) a large MR, and to create and destroy many RC
 * QPs, on whatever device it is given - make bench-rdma runs it on Wren
 * and on rdma_rxe in the same boot and prints the ratios.  The MR's
 * memory is written before the clock starts, so that the time is the
 * registration's (pinning and the device's translation), not the kernel
 * zero-filling fresh pages.  It is 2 MiB aligned (map_aligned()) and the
 * share in huge pages is printed beside the figures.
 *
 * One line a figure on stdout, "ctlpath: NAME VALUE ms"; exit 1 if any
 * verb failed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "wvt.h"

/* How much of the mapping at @p the kernel backs with huge pages, in KiB. */
static long huge_kib(const void *p)
{
	unsigned long start, end;
	char line[256];
	bool in_vma = false;
	long kib = -1;
	FILE *f;

	f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* A mapping's header line, "start-end perms ...". */
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2) {
			if (in_vma)
				break;
			in_vma = start == (unsigned long)p;
		} else if (in_vma &&
			   sscanf(line, "AnonHugePages: %ld kB", &kib) == 1) {
			break;
		}
	}
	fclose(f);
	return kib;
}

/*
 * @len bytes at a 2 MiB boundary, as Linux 6.7 and later place large
 * anonymous mappings by themselves (and 6.1 does not): the figure is then
 * the same on both guest kernels, and transparent huge pages, where the
 * kernel has them, cover the whole buffer rather than all but its ends.
 */
static void *map_aligned(size_t len)
{
	const size_t align = 2 << 20;
	uint8_t *raw, *p;
	size_t head;

	raw = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return MAP_FAILED;
	p = (uint8_t *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
	head = (size_t)(p - raw);
	if (head)
		munmap(raw, head);
	munmap(p + len, align - head);
	return p;
}

static int time_mr(struct dev *d, size_t mib)
{
	size_t len = mib << 20;
	struct ibv_mr *mr;
	double t0, t1, t2;
	long huge;
	void *p;

	p = map_aligned(len);
	if (p == MAP_FAILED) {
		fprintf(stderr, "ctlpath: %zu MiB of memory: %s\n", mib, strerror(errno));
		return 1;
	}
	memset(p, 0x5a, len);
	t0 = now_s();
	mr = ibv_reg_mr(d->pd[0], p, len, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	t1 = now_s();
	if (!mr) {
		fprintf(stderr, "ctlpath: ibv_reg_mr of %zu MiB: %s\n", mib, strerror(errno));
		munmap(p, len);
		return 1;
	}
	if (ibv_dereg_mr(mr)) {
		fprintf(stderr, "ctlpath: ibv_dereg_mr: %s\n", strerror(errno));
		return 1;
	}
	t2 = now_s();
	/* Read off the clock: walking the mapping takes milliseconds. */
	huge = huge_kib(p);
	munmap(p, len);
	printf("ctlpath: reg_mr_%zu_mib %.1f ms\n", mib, (t1 - t0) * 1e3);
	printf("ctlpath: dereg_mr_%zu_mib %.1f ms\n", mib, (t2 - t1) * 1e3);
	/* Not a figure: what the registration was given (bench.rst). */
	if (huge >= 0)
		fprintf(stderr, "reg_mr: the %zu MiB buffer is 2 MiB aligned, %ld MiB of it in huge pages\n",
			mib, huge >> 10);
	return 0;
}

static int time_qps(struct dev *d, int n)
{
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp **qps = calloc(n, sizeof(*qps));
	struct ibv_cq *cq = ibv_create_cq(d->ctx, 64, NULL, NULL, 0);
	double t0, t1, t2;
	int i, made, rc = 0;

	if (!qps || !cq) {
		fprintf(stderr, "ctlpath: a CQ for the QPs: %s\n", strerror(errno));
		free(qps);
		return 1;
	}
	ia.send_cq = cq;
	ia.recv_cq = cq;
	t0 = now_s();
	for (made = 0; made < n; made++) {
		qps[made] = ibv_create_qp(d->pd[0], &ia);
		if (!qps[made])
			break;
	}
	t1 = now_s();
	if (made < n) {
		fprintf(stderr, "ctlpath: RC QP %d of %d: %s\n", made + 1, n, strerror(errno));
		rc = 1;
	}
	for (i = 0; i < made; i++)
		if (ibv_destroy_qp(qps[i]))
			rc = 1;
	t2 = now_s();
	ibv_destroy_cq(cq);
	free(qps);
	if (rc)
		return 1;
	printf("ctlpath: create_%d_rc_qps %.1f ms\n", n, (t1 - t0) * 1e3);
	printf("ctlpath: destroy_%d_rc_qps %.1f ms\n", n, (t2 - t1) * 1e3);
	printf("ctlpath: create_destroy_%d_rc_qps %.1f ms\n", n, (t2 - t0) * 1e3);
	return 0;
}

/**
 * ctlpath_run() - time a large MR's registration and many QPs' lives
 * @d: the open device
 * @mr_mib: the MR's size in MiB (0: skip)
 * @qps: how many RC QPs to create and destroy (0: skip)
 *
 * Return: 0 when every verb succeeded, else 1.
 */
int ctlpath_run(struct dev *d, size_t mr_mib, int qps)
{
	int rc = 0;

	if (mr_mib)
		rc |= time_mr(d, mr_mib);
	if (qps > 0)
		rc |= time_qps(d, qps);
	return rc;
}
