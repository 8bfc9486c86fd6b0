// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wren_nccl_check - ask a verbs device the questions NCCL's IB transport
 * asks before it moves GPU buffers over it, and print each answer.
 *
 *   - GPUDirect through peer memory: NCCL's probe is access() of
 *     /sys/kernel/mm/memory_peers/nv_mem/version, nv_mem_nc/version or
 *     /sys/module/nvidia_peermem/version.
 *   - GPUDirect through dma-buf: ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0)
 *     must fail with something other than EOPNOTSUPP / EPROTONOSUPPORT
 *     (a driver with the op answers EBADF for the bad fd).
 *   - The PCI distance between the NIC and the GPU, from sysfs paths as
 *     NCCL's topology code builds it: PIX (one PCIe switch between them),
 *     PXB (several bridges), PHB (through the host bridge).  NCCL uses
 *     GPUDirect by default only up to PXB and prefers PIX.
 *   - A RoCE v2 GID with an IPv4 address, chosen from sysfs gid_attrs.
 *   - The verbs NCCL's transport posts: RDMA WRITE with immediate into a
 *     peer that posted receives with no SGE, RDMA READ on an RC QP
 *     connected to itself (NCCL's flush of GPU writes), MRs with
 *     REMOTE_ATOMIC - on host memory and, with -G, on GPU memory of the
 *     stand-in GPU driver (registered through peer memory, as NCCL does
 *     with nvidia-peermem, and through dma-buf).
 *
 * Output: "PASS desc", "FAIL desc: why", "SKIP desc: why" and "INFO ..."
 * lines; exit 0 when nothing failed.
 *
 * With -x CMD (`rdma -dd res show mr dev wren_0`), CMD runs while each GPU
 * MR is registered and its page_shift must be at least 16: the MTT in
 * whole 64 KiB GPU pages (more where the DMA addresses are contiguous).
 *
 *   wren_nccl_check -d wren_0 [-G /dev/wren_gpu0 [-x CMD]]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <infiniband/verbs.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include "wren_test_gpu.h"

#define BUF	(256 * 1024)
#define IMM	0x4e43434cu	/* "NCCL" */

static int failed;

#define PASS(...)	do { printf("PASS "); printf(__VA_ARGS__); printf("\n"); } while (0)
#define FAIL(...)	do { printf("FAIL "); printf(__VA_ARGS__); printf("\n"); failed++; } while (0)
#define SKIP(...)	do { printf("SKIP "); printf(__VA_ARGS__); printf("\n"); } while (0)
#define INFO(...)	do { printf("INFO "); printf(__VA_ARGS__); printf("\n"); } while (0)

struct dev {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	const char *name;
	int gidx;
	union ibv_gid gid;
	int gpu_fd;
};

static void gdr_sysfs_probe(void)
{
	static const char *const paths[] = {
		"/sys/kernel/mm/memory_peers/nv_mem/version",
		"/sys/kernel/mm/memory_peers/nv_mem_nc/version",
		"/sys/module/nvidia_peermem/version",
	};
	int found = 0;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		char v[64] = "";
		FILE *f = fopen(paths[i], "r");

		if (f) {
			if (!fgets(v, sizeof(v), f))
				v[0] = 0;
			v[strcspn(v, "\n")] = 0;
			fclose(f);
		}
		INFO("%s: %s%s%s", paths[i], access(paths[i], F_OK) ? "absent" : "present",
		     v[0] ? ", version " : "", v);
		found += !access(paths[i], F_OK);
	}
	if (found)
		PASS("NCCL's GPUDirect peer-memory probe: nvidia-peermem is loaded (%d of 3 paths)", found);
	else
		FAIL("NCCL's GPUDirect peer-memory probe: none of the 3 paths exists");
}

static void dmabuf_probe(struct dev *d)
{
	struct ibv_mr *mr;

	errno = 0;
	mr = ibv_reg_dmabuf_mr(d->pd, 0, 0, 0, -1, 0);
	if (mr) {
		FAIL("NCCL's dma-buf probe: ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0) succeeded");
		ibv_dereg_mr(mr);
	} else if (errno == EOPNOTSUPP || errno == EPROTONOSUPPORT) {
		FAIL("NCCL's dma-buf probe: errno %d (%s): NCCL would say no dma-buf support",
		     errno, strerror(errno));
	} else {
		PASS("NCCL's dma-buf probe: errno %d (%s), i.e. dma-buf supported%s",
		     errno, strerror(errno), errno == EBADF ? " (EBADF, as expected)" : "");
	}
}

static int read_hex(const char *dir, const char *attr, unsigned int *v);

/* The PCI device directory of @path (a sysfs link), resolved. */
static char *pci_path(const char *path)
{
	return realpath(path, NULL);
}

/* The GPU: the first PCI device of class 0x0302xx (3D controller). */
static char *find_gpu(void)
{
	DIR *dir = opendir("/sys/bus/pci/devices");
	struct dirent *e;
	char *found = NULL;

	while (dir && !found && (e = readdir(dir))) {
		char p[PATH_MAX];
		unsigned int cls;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s", e->d_name);
		if (!read_hex(p, "class", &cls) && (cls >> 8) == 0x0302)
			found = pci_path(p);
	}
	if (dir)
		closedir(dir);
	return found;
}

static int read_hex(const char *dir, const char *attr, unsigned int *v)
{
	char p[PATH_MAX];
	FILE *f;
	int n;

	snprintf(p, sizeof(p), "%s/%s", dir, attr);
	f = fopen(p, "r");
	if (!f)
		return -1;
	n = fscanf(f, "%x", v);
	fclose(f);
	return n == 1 ? 0 : -1;
}

/* Components of a sysfs device path below /sys/devices: pci0000:00, then
 * one BDF per bridge and finally the device. */
static int split(char *path, char **part, int max)
{
	int n = 0;

	for (char *t = strtok(path, "/"); t && n < max; t = strtok(NULL, "/"))
		if (strcmp(t, "sys") && strcmp(t, "devices"))
			part[n++] = t;
	return n;
}

static void pci_distance(struct dev *d)
{
	char nicl[PATH_MAX], *nic, *gpu, *a[32], *b[32], *nics, *gpus;
	int na, nb, c = 0, hops;
	const char *level;

	snprintf(nicl, sizeof(nicl), "/sys/class/infiniband/%s/device", d->name);
	nic = pci_path(nicl);
	gpu = find_gpu();
	if (!nic || !gpu) {
		FAIL("NIC-GPU PCI distance: %s not found", nic ? "a GPU (class 0x0302)" : "the NIC's PCI device");
		free(nic);
		free(gpu);
		return;
	}
	INFO("NIC %s", nic);
	INFO("GPU %s", gpu);
	nics = strdup(nic);
	gpus = strdup(gpu);
	na = split(nics, a, 32);
	nb = split(gpus, b, 32);
	while (c < na - 1 && c < nb - 1 && !strcmp(a[c], b[c]))
		c++;
	/* a[c - 1] is the deepest common ancestor; the bridges on the path
	 * are those below it on each side, plus it when it is a bridge. */
	hops = (na - 1 - c) + (nb - 1 - c);
	if (c <= 1) {
		level = "PHB: through the host bridge";
	} else {
		unsigned int cls = 0;
		char dir[PATH_MAX];
		int len = 0;

		len += snprintf(dir + len, sizeof(dir) - len, "/sys/devices");
		for (int i = 0; i < c; i++)
			len += snprintf(dir + len, sizeof(dir) - len, "/%s", a[i]);
		read_hex(dir, "class", &cls);
		/* Under one switch: the common ancestor is its upstream port
		 * and each side has just its downstream port below it. */
		if ((cls >> 8) == 0x0604 && na - 1 - c == 1 && nb - 1 - c == 1)
			level = "PIX: both under one PCIe switch";
		else
			level = "PXB: several PCIe bridges, not through the host bridge";
		INFO("common upstream bridge %s (class 0x%06x), %d downstream bridges on the path",
		     a[c - 1], cls, hops);
	}
	if (!strncmp(level, "PIX", 3))
		PASS("NIC-GPU PCI distance as NCCL computes it: %s", level);
	else
		FAIL("NIC-GPU PCI distance as NCCL computes it: %s (a GPU server puts them under one switch)",
		     level);
	free(nics);
	free(gpus);
	free(nic);
	free(gpu);
}

/* NCCL: the RoCE v2 GID whose address is IPv4 (NCCL_IB_ADDR_FAMILY=AF_INET). */
static void gid_select(struct dev *d)
{
	d->gidx = -1;
	for (int i = 0; i < 256 && d->gidx < 0; i++) {
		char p[PATH_MAX], type[32] = "";
		union ibv_gid g;
		FILE *f;

		snprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports/1/gid_attrs/types/%d",
			 d->name, i);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (!fgets(type, sizeof(type), f))
			type[0] = 0;
		fclose(f);
		if (strncmp(type, "RoCE v2", 7) || ibv_query_gid(d->ctx, 1, i, &g))
			continue;
		if (!memcmp(g.raw, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12)) {
			d->gidx = i;
			d->gid = g;
		}
	}
	if (d->gidx < 0) {
		FAIL("RoCE v2 GID with an IPv4 address from sysfs gid_attrs: none");
		return;
	}
	PASS("RoCE v2 GID with an IPv4 address from sysfs gid_attrs: index %d (%u.%u.%u.%u)",
	     d->gidx, d->gid.raw[12], d->gid.raw[13], d->gid.raw[14], d->gid.raw[15]);
}

struct qp {
	struct ibv_cq *cq;
	struct ibv_qp *qp;
};

static int qp_create(struct dev *d, struct qp *q)
{
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	q->cq = ibv_create_cq(d->ctx, 64, NULL, NULL, 0);
	if (!q->cq)
		return -1;
	ia.send_cq = ia.recv_cq = q->cq;
	q->qp = ibv_create_qp(d->pd, &ia);
	return q->qp ? 0 : -1;
}

static int qp_connect(struct dev *d, struct qp *q, uint32_t dest)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_ATOMIC,
	};

	if (ibv_modify_qp(q->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest;
	a.rq_psn = 0x100;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = d->gid;
	a.ah_attr.grh.sgid_index = (uint8_t)d->gidx;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(q->qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			  IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0x100;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(q->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
}

static void qp_destroy(struct qp *q)
{
	if (q->qp)
		ibv_destroy_qp(q->qp);
	if (q->cq)
		ibv_destroy_cq(q->cq);
	memset(q, 0, sizeof(*q));
}

/* Completions on @cq until @n arrived or 10 s passed. */
static int poll_n(struct ibv_cq *cq, struct ibv_wc *wc, int n)
{
	struct timespec t0, t;
	int got = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (got < n) {
		int k = ibv_poll_cq(cq, n - got, wc + got);

		if (k < 0)
			return -1;
		got += k;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 10)
			break;
	}
	return got;
}

/* A buffer: host memory, or GPU memory of the stand-in (peer or dma-buf). */
struct buf {
	const char *what;
	uint8_t *p;
	size_t len;
	uint64_t gpu_off;
	int dmabuf;
	struct ibv_mr *mr;
};

static int buf_get(struct dev *d, struct buf *b, const char *what)
{
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		     IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

	memset(b, 0, sizeof(*b));
	b->what = what;
	b->len = BUF;
	b->dmabuf = -1;
	if (!strcmp(what, "host")) {
		if (posix_memalign((void **)&b->p, 65536, BUF))
			return -1;
		b->mr = ibv_reg_mr(d->pd, b->p, BUF, access);
		return b->mr ? 0 : -1;
	} else {
		struct wtgpu_alloc a = { .size = BUF };
		uint8_t *va;

		if (ioctl(d->gpu_fd, WTGPU_ALLOC, &a))
			return -1;
		b->gpu_off = a.offset;
		va = mmap(NULL, BUF + WTGPU_PAGE_SIZE, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (va == MAP_FAILED)
			return -1;
		va = (uint8_t *)(((uintptr_t)va + WTGPU_PAGE_SIZE - 1) & ~(WTGPU_PAGE_SIZE - 1));
		b->p = mmap(va, BUF, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
			    d->gpu_fd, (off_t)a.offset);
		if (b->p == MAP_FAILED) {
			b->p = NULL;
			return -1;
		}
		if (!strcmp(what, "GPU, dma-buf")) {
			struct wtgpu_export e = { .offset = a.offset, .length = BUF,
						  .flags = O_CLOEXEC };

			if (ioctl(d->gpu_fd, WTGPU_EXPORT, &e))
				return -1;
			b->dmabuf = e.fd;
			b->mr = ibv_reg_dmabuf_mr(d->pd, 0, BUF, (uintptr_t)b->p, e.fd, access);
		} else {
			b->mr = ibv_reg_mr(d->pd, b->p, BUF, access);
		}
		return b->mr ? 0 : -1;
	}
}

static void buf_put(struct dev *d, struct buf *b)
{
	if (b->mr)
		ibv_dereg_mr(b->mr);
	if (!strcmp(b->what, "host")) {
		free(b->p);
	} else {
		if (b->p)
			munmap(b->p, BUF);
		if (b->dmabuf >= 0)
			close(b->dmabuf);
		ioctl(d->gpu_fd, WTGPU_FREE, &(struct wtgpu_free){ .offset = b->gpu_off });
	}
	memset(b, 0, sizeof(*b));
}

/*
 * NCCL's data path on one device: a "sender" QP WRITEs with immediate into
 * the receiver's buffer @dst, whose QP posted receives with no SGE; then
 * the receiver flushes with an RDMA READ of one word of @dst on a QP
 * connected to itself, into a host scratch buffer.
 */
static void transport(struct dev *d, struct buf *dst, struct buf *src)
{
	struct qp s = { 0 }, r = { 0 }, f = { 0 };
	struct ibv_recv_wr rwr = { .wr_id = 7, .num_sge = 0 }, *brw;
	struct ibv_send_wr wr = { 0 }, *bsw;
	struct ibv_sge sge;
	struct ibv_wc wc[2];
	uint64_t flushed = 0;
	struct ibv_mr *fmr;
	size_t len = 65536 + 3;
	int ok;

	for (size_t i = 0; i < BUF; i++) {
		src->p[i] = (uint8_t)(i * 7 + 1);
		dst->p[i] = 0xee;
	}
	if (qp_create(d, &s) || qp_create(d, &r) || qp_create(d, &f) ||
	    qp_connect(d, &s, r.qp->qp_num) || qp_connect(d, &r, s.qp->qp_num) ||
	    qp_connect(d, &f, f.qp->qp_num)) {
		FAIL("%s: RC QPs to RTS (a pair, and one connected to itself): %s",
		     dst->what, strerror(errno));
		goto out;
	}
	ok = !ibv_post_recv(r.qp, &rwr, &brw);
	sge = (struct ibv_sge){ .addr = (uintptr_t)src->p, .length = (uint32_t)len,
				.lkey = src->mr->lkey };
	wr.wr_id = 1;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.imm_data = htonl(IMM);
	wr.wr.rdma.remote_addr = (uintptr_t)dst->p + 1;
	wr.wr.rdma.rkey = dst->mr->rkey;
	ok = ok && !ibv_post_send(s.qp, &wr, &bsw) && poll_n(s.cq, wc, 1) == 1 &&
	     wc[0].status == IBV_WC_SUCCESS && poll_n(r.cq, wc + 1, 1) == 1;
	if (!ok) {
		FAIL("%s: WRITE_WITH_IMM into a zero-SGE receive: no completion (%s)",
		     dst->what, ibv_wc_status_str(wc[0].status));
		goto out;
	}
	if (wc[1].status != IBV_WC_SUCCESS || wc[1].opcode != IBV_WC_RECV_RDMA_WITH_IMM ||
	    !(wc[1].wc_flags & IBV_WC_WITH_IMM) || ntohl(wc[1].imm_data) != IMM ||
	    wc[1].byte_len != len)
		FAIL("%s: WRITE_WITH_IMM into a zero-SGE receive: completion %s opcode %d imm 0x%x byte_len %u",
		     dst->what, ibv_wc_status_str(wc[1].status), wc[1].opcode,
		     ntohl(wc[1].imm_data), wc[1].byte_len);
	else if (dst->p[0] != 0xee || dst->p[len + 1] != 0xee ||
		 memcmp(dst->p + 1, src->p, len))
		FAIL("%s: WRITE_WITH_IMM into a zero-SGE receive: the data differs", dst->what);
	else
		PASS("%s: WRITE_WITH_IMM of %zu B into a zero-SGE receive: RECV_RDMA_WITH_IMM, imm, byte_len and data right",
		     dst->what, len);

	/* The flush: READ one word of dst through the self-connected QP. */
	fmr = ibv_reg_mr(d->pd, &flushed, sizeof(flushed), IBV_ACCESS_LOCAL_WRITE);
	sge = (struct ibv_sge){ .addr = (uintptr_t)&flushed, .length = sizeof(flushed),
				.lkey = fmr ? fmr->lkey : 0 };
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 2;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_READ;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uintptr_t)dst->p + 1;
	wr.wr.rdma.rkey = dst->mr->rkey;
	if (!fmr || ibv_post_send(f.qp, &wr, &bsw) || poll_n(f.cq, wc, 1) != 1 ||
	    wc[0].status != IBV_WC_SUCCESS)
		FAIL("%s: flush READ on an RC QP connected to itself: %s", dst->what,
		     fmr ? ibv_wc_status_str(wc[0].status) : strerror(errno));
	else if (memcmp(&flushed, src->p, sizeof(flushed)))
		FAIL("%s: flush READ on an RC QP connected to itself: wrong data", dst->what);
	else
		PASS("%s: flush READ on an RC QP connected to itself (qpn 0x%x -> itself): completes, data right",
		     dst->what, f.qp->qp_num);
	if (fmr)
		ibv_dereg_mr(fmr);
out:
	qp_destroy(&s);
	qp_destroy(&r);
	qp_destroy(&f);
}

/*
 * The MR's translation as restrack shows it (`rdma -dd res show mr`, run
 * as @cmd): GPU memory comes in 64 KiB pages, and the MTT must use them
 * or larger ones.
 */
static void mtt_pages(const char *what, struct ibv_mr *mr, uint64_t iova,
		      const char *cmd)
{
	char line[1024], key[32];
	int shift = -1, mtt = -1;
	uint64_t want = 0;
	FILE *p;

	if (!cmd) {
		SKIP("%s: the MTT's page size: no -x CMD to show it", what);
		return;
	}
	snprintf(key, sizeof(key), "lkey 0x%x ", mr->lkey);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		char *s = strstr(line, key), *t;

		if (!s)
			continue;
		t = strstr(line, "page_shift ");
		if (t)
			shift = atoi(t + 11);
		t = strstr(line, "num_mtt ");
		if (t)
			mtt = atoi(t + 8);
	}
	if (p)
		pclose(p);
	/*
	 * Larger when the DMA addresses happen to be contiguous (no IOMMU, or
	 * an IOMMU that gave neighbouring IOVAs); the entries are the pages
	 * that cover [iova, iova + BUF).
	 */
	if (shift >= 16 && shift < 63) {
		uint64_t pg = 1ULL << shift;

		want = ((iova & (pg - 1)) + BUF + pg - 1) >> shift;
	}
	if (shift >= 16 && (uint64_t)mtt == want)
		PASS("%s: the MTT is in pages of at least the GPU's 64 KiB (page_shift %d, %d entries for %d KiB)",
		     what, shift, mtt, BUF >> 10);
	else
		FAIL("%s: the MTT's page_shift is %d (num_mtt %d), want 16 or more for GPU pages",
		     what, shift, mtt);
}

static void memory(struct dev *d, const char *what, const char *xcmd)
{
	struct buf dst, src;

	if (buf_get(d, &dst, what)) {
		FAIL("%s: MR with LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC, as NCCL registers: %s",
		     what, strerror(errno));
		buf_put(d, &dst);
		return;
	}
	PASS("%s: MR with LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC, as NCCL registers",
	     what);
	if (strcmp(what, "host"))
		mtt_pages(what, dst.mr, (uintptr_t)dst.p, xcmd);
	if (buf_get(d, &src, "host")) {
		FAIL("%s: a host source MR: %s", what, strerror(errno));
	} else {
		transport(d, &dst, &src);
	}
	buf_put(d, &src);
	buf_put(d, &dst);
}

int main(int argc, char **argv)
{
	struct ibv_device **list;
	const char *gpu = NULL, *xcmd = NULL;
	struct dev d = { .name = "wren_0", .gpu_fd = -1 };
	int opt, n;

	while ((opt = getopt(argc, argv, "d:G:x:")) != -1) {
		switch (opt) {
		case 'd': d.name = optarg; break;
		case 'G': gpu = optarg; break;
		case 'x': xcmd = optarg; break;
		default:
			fprintf(stderr, "usage: wren_nccl_check [-d DEV] [-G /dev/wren_gpuN [-x 'rdma -dd res show mr']]\n");
			return 2;
		}
	}
	list = ibv_get_device_list(&n);
	for (int i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), d.name))
			d.ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!d.ctx || !(d.pd = ibv_alloc_pd(d.ctx))) {
		FAIL("open %s and allocate a PD", d.name);
		return 1;
	}
	gdr_sysfs_probe();
	dmabuf_probe(&d);
	pci_distance(&d);
	gid_select(&d);
	if (d.gidx >= 0) {
		memory(&d, "host", NULL);
		if (gpu) {
			d.gpu_fd = open(gpu, O_RDWR | O_CLOEXEC);
			if (d.gpu_fd < 0) {
				FAIL("open %s: %s", gpu, strerror(errno));
			} else {
				memory(&d, "GPU, peer memory", xcmd);
				memory(&d, "GPU, dma-buf", xcmd);
				close(d.gpu_fd);
			}
		} else {
			SKIP("GPU memory: no -G /dev/wren_gpuN given");
		}
	}
	ibv_dealloc_pd(d.pd);
	ibv_close_device(d.ctx);
	printf("INFO %d failed\n", failed);
	return failed ? 1 : 0;
}
