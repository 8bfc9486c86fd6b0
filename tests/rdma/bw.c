// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Bandwidth mode: the active side streams RDMA WRITEs or READs of one
 * size into/out of the passive side's buffer, keeping @depth in flight and
 * polling its CQ - no system call between START and DONE.  The passive
 * side does nothing but wait on the control connection; it samples its
 * CPU time (/proc/stat) at START and DONE and, with --verify, checks its
 * buffer byte for byte.  Which side listens on TCP is independent of
 * which is active, so that the side run under strace never has to retry
 * a connect.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "wvt.h"

#define SEED_PASSIVE	0x7000u
#define SEED_ACTIVE	0x7002u
#define SEED_SENTINEL	0x7004u	/* --free-under-traffic: after the free */

struct cpu {
	unsigned long long v[8];	/* user nice system idle iowait irq softirq steal */
};

static int cpu_read(struct cpu *c)
{
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &c->v[0],
		   &c->v[1], &c->v[2], &c->v[3], &c->v[4], &c->v[5], &c->v[6], &c->v[7]);
	fclose(f);
	return n == 8 ? 0 : -1;
}

static void cpu_report(const struct cpu *a, const struct cpu *b)
{
	unsigned long long d[8], total = 0, busy;

	for (int i = 0; i < 8; i++) {
		d[i] = b->v[i] - a->v[i];
		total += d[i];
	}
	busy = d[0] + d[1] + d[2] + d[5] + d[6];
	printf("# passive cpu over %llu jiffies: user %llu nice %llu system %llu irq %llu softirq %llu idle %llu iowait %llu steal %llu\n",
	       total, d[0], d[1], d[2], d[5], d[6], d[3], d[4], d[7]);
	printf("passive_cpu_busy_pct=%.2f\n", total ? 100.0 * (double)busy / (double)total : 100.0);
}

/*
 * Addresses come from the buffer, not from ibv_mr.addr: libibverbs sets
 * that to the dma-buf offset for a dma-buf MR, whose IOVA is the buffer's
 * address here (mem_reg()).
 */
static int post(struct conn *c, struct mem *m, struct ibv_mr *lmr,
		const struct bw_opts *o, uint64_t raddr, uint32_t rkey, uint64_t off)
{
	struct ibv_sge sg = {
		.addr = (uintptr_t)m->ptr + off,
		.length = (uint32_t)o->size,
		.lkey = lmr->lkey,
	};
	struct ibv_send_wr wr = {
		.sg_list = &sg,
		.num_sge = 1,
		.opcode = strcmp(o->op, "read") ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	wr.wr.rdma.remote_addr = raddr + off;
	wr.wr.rdma.rkey = rkey;
	return ibv_post_send(c->qp, &wr, &bad);
}

static int active(struct dev *d, struct ctl *ctl, const struct bw_opts *o,
		  struct mem *m, struct ibv_mr *lmr, struct conn *c)
{
	char r[256], g[40];
	unsigned int qpn, psn, rkey;
	uint64_t raddr, off = 0;
	union ibv_gid pg;
	long posted = 0, done = 0, n = o->iters ? o->iters : __LONG_MAX__;
	double t0, t1;
	struct ibv_wc wc[16];
	enum ibv_wc_status stop = IBV_WC_SUCCESS;
	bool ready = false;

	gid_to_str(&d->gid, g);
	if (ctl_call(ctl, r, sizeof(r), "BW %u %u %s", c->qp->qp_num, c->psn, g) ||
	    sscanf(r, "OK %u %u %" SCNu64 " %u %39s", &qpn, &psn, &raddr, &rkey, g) != 5 ||
	    gid_from_str(&pg, g) || conn_connect(d, c, qpn, psn, &pg)) {
		fprintf(stderr, "wvt bw: setup failed: %s\n", r);
		return 1;
	}
	if (ctl_call(ctl, r, sizeof(r), "START") || strcmp(r, "GO"))
		return 1;
	t0 = now_s();
	while (done < n) {
		while (posted < n && posted - done < o->depth) {
			if (post(c, m, lmr, o, raddr, rkey, off)) {
				fprintf(stderr, "wvt bw: ibv_post_send failed\n");
				return 1;
			}
			posted++;
			off += o->size;
			if (off + o->size > o->mr_bytes)
				off = 0;
		}
		int k = ibv_poll_cq(c->scq, 16, wc);

		if (k < 0)
			return 1;
		for (int i = 0; i < k; i++) {
			if (wc[i].status == IBV_WC_SUCCESS)
				continue;
			fprintf(stderr, "wvt bw: completion %s after %ld\n",
				ibv_wc_status_str(wc[i].status), done + i);
			if (!o->until_error)
				return 1;
			stop = wc[i].status;
			done += i;
			break;
		}
		if (stop != IBV_WC_SUCCESS)
			break;
		done += k;
		/* Time only when running for a time: then syscalls do not matter. */
		if (!o->iters && k && !(done & 255)) {
			if (!ready && o->ready_file) {
				FILE *f = fopen(o->ready_file, "w");

				if (f)
					fclose(f);
				ready = true;
			}
			/*
			 * A test that has what it measures ends the flow
			 * there rather than idle out the rest of its time.
			 */
			if (now_s() - t0 >= o->seconds ||
			    (o->stop_file && !access(o->stop_file, F_OK)))
				n = posted;
		}
	}
	t1 = now_s();
	if (o->until_error) {
		printf("# bw: stopped by %s after %ld completions\n",
		       stop == IBV_WC_SUCCESS ? "nothing" : ibv_wc_status_str(stop), done);
		if (stop != IBV_WC_REM_ACCESS_ERR)
			return 1;
	}
	if (ctl_call(ctl, r, sizeof(r), "DONE %ld", done))
		return 1;
	printf("# bw: %s %zu B x %ld in %.2f s: %.1f MB/s, %.0f ops/s\n", o->op,
	       o->size, done, t1 - t0, (double)done * (double)o->size / (t1 - t0) / 1e6,
	       (double)done / (t1 - t0));
	printf("%s\n", r);
	if (strncmp(r, "OK", 2))
		return 1;
	if (o->verify && !strcmp(o->op, "read")) {
		size_t span = (size_t)done * o->size;
		long k = pat_diff(m->ptr, span < o->mr_bytes ? span : o->mr_bytes,
				  SEED_PASSIVE, 0);

		if (k >= 0) {
			printf("# READ data differs at byte %ld\n", k);
			return 1;
		}
		printf("# READ data verified: %zu bytes\n", span < o->mr_bytes ? span : o->mr_bytes);
	}
	ctl_call(ctl, r, sizeof(r), "BYE");
	return 0;
}

/*
 * GPU memory freed while the peer WRITEs into it (peer-memory MRs): wait
 * until its WRITEs land, free the allocation (its free callback makes
 * nvidia-peermem invalidate the MR: DEACTIVATE_MR before the free
 * returns), then overwrite the whole buffer through the CPU.  Nothing
 * the NIC does after that may change a byte.
 */
static int free_under_traffic(struct mem *m, const struct bw_opts *o)
{
	double t0 = now_s();

	while (pat_diff(m->ptr, 64, SEED_PASSIVE, 0) < 0) {
		if (now_s() - t0 > 120) {
			fprintf(stderr, "wvt bw: no WRITE landed within 120 s\n");
			return 1;
		}
	}
	t0 = now_s();
	if (mem_gpu_free(m)) {
		perror("wvt bw: WTGPU_FREE");
		return 1;
	}
	printf("# bw: GPU memory freed under traffic in %.1f ms\n", (now_s() - t0) * 1e3);
	pat_fill(m->ptr, o->mr_bytes, SEED_SENTINEL, 0);
	fflush(stdout);
	return 0;
}

static int passive(struct dev *d, struct ctl *ctl, const struct bw_opts *o,
		   struct mem *m, struct ibv_mr *mr, struct conn *c)
{
	char line[256], g[40];
	unsigned int qpn, psn;
	union ibv_gid pg;
	struct cpu a, b;
	long done;

	while (!ctl_recv(ctl, line, sizeof(line))) {
		if (sscanf(line, "BW %u %u %39s", &qpn, &psn, g) == 3) {
			if (gid_from_str(&pg, g) || conn_connect(d, c, qpn, psn, &pg))
				return 1;
			gid_to_str(&d->gid, g);
			ctl_send(ctl, "OK %u %u %" PRIu64 " %u %s", c->qp->qp_num, c->psn,
				 (uint64_t)(uintptr_t)m->ptr, mr->rkey, g);
		} else if (!strcmp(line, "START")) {
			cpu_read(&a);
			if (o->ready_file) {
				FILE *f = fopen(o->ready_file, "w");

				if (f)
					fclose(f);
			}
			ctl_send(ctl, "GO");
			if (o->free_under_traffic && free_under_traffic(m, o))
				return 1;
		} else if (sscanf(line, "DONE %ld", &done) == 1) {
			cpu_read(&b);
			if (o->cpu)
				cpu_report(&a, &b);
			if (o->free_under_traffic) {
				long k = pat_diff(m->ptr, o->mr_bytes, SEED_SENTINEL, 0);

				if (k >= 0)
					ctl_send(ctl, "BAD byte %ld changed after the free", k);
				else
					ctl_send(ctl, "OK nothing landed after the free: %zu bytes intact",
						 o->mr_bytes);
				continue;
			}
			if (o->verify && strcmp(o->op, "read")) {
				size_t span = (size_t)done * o->size;
				long k;

				if (span > o->mr_bytes)
					span = o->mr_bytes;
				k = pat_diff(m->ptr, span, SEED_ACTIVE, 0);
				if (k >= 0 || pat_diff(m->ptr + span,
						       o->mr_bytes - span, SEED_PASSIVE, span) >= 0) {
					ctl_send(ctl, "BAD WRITE data differs at byte %ld", k);
					continue;
				}
				ctl_send(ctl, "OK WRITE data verified: %zu bytes", span);
				mem_manifest(m, 0, span, SEED_ACTIVE, 0);
				mem_manifest(m, span, o->mr_bytes - span, SEED_PASSIVE, span);
				fflush(stdout);
				continue;
			}
			ctl_send(ctl, "OK");
		} else if (!strcmp(line, "BYE")) {
			ctl_send(ctl, "OK");
			return 0;
		}
	}
	return 1;
}

int bw_run(struct dev *d, struct ctl *ctl, const struct bw_opts *o)
{
	struct conn c;
	struct ibv_mr *mr;
	struct mem m;
	void *buf;
	int rc;

	if (o->size == 0 || o->size > o->mr_bytes || mem_alloc(&m, o->mr_bytes))
		return 2;
	buf = m.ptr;
	/* The active side's buffer is its source; the passive side's is
	 * what READs fetch and WRITEs overwrite. */
	pat_fill(buf, o->mr_bytes, o->active ? SEED_ACTIVE : SEED_PASSIVE, 0);
	if (o->active && !strcmp(o->op, "read"))
		memset(buf, 0, o->mr_bytes);
	mr = mem_reg(&m, d->pd[0], 0, o->mr_bytes, IBV_ACCESS_LOCAL_WRITE |
		     IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	if (!mr || conn_create(d, &c, IBV_QPT_RC, 0, o->depth)) {
		perror("wvt bw: MR/QP");
		return 1;
	}
	/* The QP number while it runs, for tests that look the QP up. */
	printf("# bw: %s memory, %zu bytes, qpn %u\n", mem_name(), o->mr_bytes,
	       c.qp->qp_num);
	fflush(stdout);
	rc = o->active ? active(d, ctl, o, &m, mr, &c) : passive(d, ctl, o, &m, mr, &c);
	/* For the killed-in-traffic test: when the peer is killed first,
	 * this side fails too, and must still be holding its QP, CQ and MR
	 * when its own kill comes. */
	if (rc && o->hold) {
		fprintf(stderr, "wvt bw: failed; holding everything until killed\n");
		for (;;)
			pause();
	}
	conn_destroy(&c);
	if (ibv_dereg_mr(mr)) {
		perror("wvt bw: ibv_dereg_mr");
		rc = 1;
	}
	mem_free(&m);
	return rc;
}
