// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Bandwidth mode: the active side streams RDMA WRITEs, READs or SENDs of
 * one size into/out of the passive side's buffer, or 8-byte atomic
 * FETCH_AND_ADDs on its words, keeping @depth in flight and polling its
 * CQ - no system call between START and DONE.  For WRITE, READ and ATOMIC
 * the passive side does nothing but wait on the control connection; it
 * samples its CPU time (/proc/stat) at START and DONE and, with --verify,
 * checks its buffer byte for byte.  Which side listens on TCP is
 * independent of which is active, so that the side run under strace never
 * has to retry a connect.
 *
 * The control protocol, active -> passive:
 *   BW <qpn> <psn> <gid>	-> OK <qpn> <psn> <addr> <rkey> <gid>
 *   START			-> GO (traffic may flow)
 *   DONE <n>			-> OK ... | BAD ... (n: completed operations)
 *   BYE			-> OK
 *
 * SEND: send k comes from the active buffer at the k-th offset of the walk
 * WRITE uses (0, size, 2 size, ..., back to 0 where the next one would
 * pass the end); receive k, posted with wr_id k, points at the same offset
 * of the passive buffer.  The passive side posts @depth + RX_MARGIN
 * receives before it answers GO and reposts as they complete: between
 * START and DONE it polls its receive CQ, and looks at the control
 * connection (poll() without waiting) at most once a millisecond while
 * that CQ is empty - its CPU is busy then, unlike for WRITE and READ.  At
 * DONE n it takes the completions still due until it has n; each must be
 * a successful RECV of --size bytes, in posting order, or it answers BAD.
 * With --verify it checks its buffer as for WRITE.
 *
 * ATOMIC: --size does not apply (8 bytes each).  With W the 8-byte words
 * of the buffer (both sides the same --mr-mib), op k adds k + 1 to word
 * k mod W of the passive buffer, which starts zeroed, and fetches the old
 * value into word k mod W of the active buffer.  With --verify the
 * passive side checks every word against the sum of the adds that hit it,
 * and the active side every fetched value, as its completion comes and
 * before the slot is reused, against the sum of the adds to that word
 * before it: an atomic executed twice (a duplicate request after a
 * retransmission, say) or answered with the wrong result fails them.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "wvt.h"

#define SEED_PASSIVE	0x7000u
#define SEED_ACTIVE	0x7002u
#define SEED_SENTINEL	0x7004u	/* --free-under-traffic: after the free */
#define RX_MARGIN	16	/* SEND: receives posted beyond @depth */
#define RX_DRAIN_S	10	/* SEND: wait for receive completions at DONE */

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

	if (!strcmp(o->op, "send")) {
		wr.opcode = IBV_WR_SEND;
		return ibv_post_send(c->qp, &wr, &bad);
	}
	wr.wr.rdma.remote_addr = raddr + off;
	wr.wr.rdma.rkey = rkey;
	return ibv_post_send(c->qp, &wr, &bad);
}

/*
 * Word @w of @words after its first @m adds, from zero: the j-th add to
 * it is op k = j * @words + @w, which adds k + 1.  So
 * m (w + 1) + words m (m - 1) / 2, modulo 2^64 as the NIC adds.
 */
static uint64_t atom_val(uint64_t w, uint64_t m, uint64_t words)
{
	uint64_t tri = (m & 1) ? m * ((m - 1) / 2) : m / 2 * (m - 1);

	return m * (w + 1) + words * tri;
}

/* ATOMIC op @k: FETCH_AND_ADD k + 1 to remote word k mod @words, the old
 * value into the same word of the local buffer. */
static int post_atomic(struct conn *c, struct mem *m, struct ibv_mr *lmr,
		       uint64_t raddr, uint32_t rkey, long k, size_t words)
{
	uint64_t w = (uint64_t)k % words;
	struct ibv_sge sg = {
		.addr = (uintptr_t)m->ptr + 8 * w,
		.length = 8,
		.lkey = lmr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = (uint64_t)k,
		.sg_list = &sg,
		.num_sge = 1,
		.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	wr.wr.atomic.remote_addr = raddr + 8 * w;
	wr.wr.atomic.compare_add = (uint64_t)k + 1;
	wr.wr.atomic.rkey = rkey;
	return ibv_post_send(c->qp, &wr, &bad);
}

/* ATOMIC --verify on the active side: the fetched values. */
struct fetch {
	size_t words;
	long checked, bad;
	char first[160];	/* the first wrong one */
};

/*
 * Op @k completed successfully: its local word must hold the remote
 * word's value before its add.  Called before more ops are posted, and
 * op k + words (the next one to fetch into that word) is posted only once
 * op k has completed, since words >= depth.
 */
static void fetch_check(struct fetch *f, const struct mem *m, const struct ibv_wc *wc,
			long k)
{
	uint64_t w = (uint64_t)k % f->words, got;
	uint64_t want = atom_val(w, (uint64_t)k / f->words, f->words);

	memcpy(&got, m->ptr + 8 * w, 8);
	f->checked++;
	if (wc->opcode == IBV_WC_FETCH_ADD && wc->wr_id == (uint64_t)k && got == want)
		return;
	if (!f->bad++)
		snprintf(f->first, sizeof(f->first),
			 "op %ld (opcode %d, wr_id %" PRIu64 ") fetched 0x%" PRIx64
			 ", expected 0x%" PRIx64, k, (int)wc->opcode, (uint64_t)wc->wr_id,
			 got, want);
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
	bool ready = false, atomic = !strcmp(o->op, "atomic");
	unsigned long idle = 0;
	double idle_since = 0;
	struct fetch fx = { .words = o->mr_bytes / 8 };

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
			if (atomic ? post_atomic(c, m, lmr, raddr, rkey, posted, fx.words) :
			    post(c, m, lmr, o, raddr, rkey, off)) {
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
		/*
		 * A dead device completes nothing: after 5 s without a
		 * completion, ask.  The clock is the vDSO's; the question is a
		 * syscall, which a flowing data path must never make.
		 */
		if (k) {
			idle = 0;
		} else if (!idle++) {
			idle_since = now_s();
		} else if (!(idle & 0xffff) && now_s() - idle_since > 5.0 &&
			   dev_fatal(d)) {
			fprintf(stderr, "wvt bw: IBV_EVENT_DEVICE_FATAL after %ld completions\n",
				done);
			return 2;
		}
		for (int i = 0; i < k; i++) {
			if (wc[i].status == IBV_WC_SUCCESS) {
				if (atomic && o->verify)
					fetch_check(&fx, m, &wc[i], done + i);
				continue;
			}
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
	if (atomic && o->verify) {
		if (fx.bad) {
			printf("# ATOMIC fetch results: %ld of %ld wrong, first: %s\n", fx.bad,
			       fx.checked, fx.first);
			return 1;
		}
		printf("# ATOMIC fetch results verified: %ld\n", fx.checked);
	}
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

/* SEND, the passive side's receives. */
struct rx {
	long posted, got;	/* receives posted; completions taken */
	uint64_t off;		/* where the next one points */
	int window;		/* how many to keep posted */
	char bad[160];		/* the first failure, "" while none */
};

/* Keep @x->window receives posted, each the next --size slice. */
static int rx_fill(struct conn *c, struct mem *m, struct ibv_mr *mr,
		   const struct bw_opts *o, struct rx *x)
{
	/* After a failure the QP is in error: nothing more to post. */
	while (!x->bad[0] && x->posted - x->got < x->window) {
		struct ibv_sge sg = {
			.addr = (uintptr_t)m->ptr + x->off,
			.length = (uint32_t)o->size,
			.lkey = mr->lkey,
		};
		struct ibv_recv_wr wr = {
			.wr_id = (uint64_t)x->posted,
			.sg_list = &sg,
			.num_sge = 1,
		}, *bad;

		if (ibv_post_recv(c->qp, &wr, &bad)) {
			fprintf(stderr, "wvt bw: ibv_post_recv failed\n");
			return -1;
		}
		x->posted++;
		x->off += o->size;
		if (x->off + o->size > o->mr_bytes)
			x->off = 0;
	}
	return 0;
}

/* Take receive completions; each must be the next one, whole. */
static int rx_poll(struct conn *c, const struct bw_opts *o, struct rx *x)
{
	struct ibv_wc wc[16];
	int k = ibv_poll_cq(c->rcq, 16, wc);

	for (int i = 0; i < k; i++, x->got++) {
		if (x->bad[0])
			continue;
		if (wc[i].status != IBV_WC_SUCCESS)
			snprintf(x->bad, sizeof(x->bad), "receive %ld completed %s", x->got,
				 ibv_wc_status_str(wc[i].status));
		else if (wc[i].opcode != IBV_WC_RECV || wc[i].wr_id != (uint64_t)x->got ||
			 wc[i].byte_len != o->size || (wc[i].wc_flags & IBV_WC_WITH_IMM))
			snprintf(x->bad, sizeof(x->bad),
				 "receive %ld: opcode %d wr_id %" PRIu64 " %u bytes flags 0x%x",
				 x->got, (int)wc[i].opcode, (uint64_t)wc[i].wr_id,
				 wc[i].byte_len, wc[i].wc_flags);
		if (x->bad[0])
			fprintf(stderr, "wvt bw: %s\n", x->bad);
	}
	return k;
}

/*
 * The next control line while SENDs flow: take receive completions and
 * repost, and look at the control connection only while the CQ is empty,
 * at most once a millisecond (now_s() needs no system call).
 */
static int rx_next_line(struct ctl *ctl, struct conn *c, struct mem *m, struct ibv_mr *mr,
			const struct bw_opts *o, struct rx *x, char *line, size_t n)
{
	double next = 0;

	if (memchr(ctl->buf, '\n', ctl->len))
		return ctl_recv(ctl, line, n);
	for (;;) {
		struct pollfd p = { .fd = ctl->fd, .events = POLLIN };
		int k = rx_poll(c, o, x);
		double t;

		if (k < 0 || rx_fill(c, m, mr, o, x))
			return -1;
		if (k)
			continue;
		t = now_s();
		if (t < next)
			continue;
		next = t + 1e-3;
		k = poll(&p, 1, 0);
		if (k < 0 && errno != EINTR)
			return -1;
		if (k > 0)
			return ctl_recv(ctl, line, n);
	}
}

/* SEND at DONE @done: all receives in, and with --verify the data. */
static int rx_done(struct ctl *ctl, struct conn *c, struct mem *m,
		   const struct bw_opts *o, struct rx *x, long done)
{
	double end = now_s() + RX_DRAIN_S;
	size_t span = o->size * (size_t)(done < 0 ? 0 : done);
	long k;

	while (!x->bad[0] && x->got < done && now_s() < end)
		if (rx_poll(c, o, x) < 0)
			return ctl_send(ctl, "BAD SEND receive CQ poll failed");
	/* Nothing beyond them either. */
	if (rx_poll(c, o, x) < 0)
		return ctl_send(ctl, "BAD SEND receive CQ poll failed");
	if (x->bad[0])
		return ctl_send(ctl, "BAD SEND %s", x->bad);
	if (x->got != done)
		return ctl_send(ctl, "BAD SEND %ld receives completed, %ld sends", x->got, done);
	if (!o->verify)
		return ctl_send(ctl, "OK");
	/* The slices the walk covers, never the tail past the last whole one. */
	if ((size_t)done > o->mr_bytes / o->size)
		span = o->mr_bytes / o->size * o->size;
	k = pat_diff(m->ptr, span, SEED_ACTIVE, 0);
	if (k < 0) {
		k = pat_diff(m->ptr + span, o->mr_bytes - span, SEED_PASSIVE, span);
		if (k >= 0)
			k += (long)span;
	}
	if (k >= 0)
		return ctl_send(ctl, "BAD SEND data differs at byte %ld", k);
	ctl_send(ctl, "OK SEND data verified: %zu bytes", span);
	mem_manifest(m, 0, span, SEED_ACTIVE, 0);
	mem_manifest(m, span, o->mr_bytes - span, SEED_PASSIVE, span);
	fflush(stdout);
	return 0;
}

/* ATOMIC --verify at DONE @done: each word the sum of the adds to it. */
static int atomic_done(struct ctl *ctl, struct mem *m, const struct bw_opts *o, long done)
{
	uint64_t words = o->mr_bytes / 8, n = (uint64_t)(done < 0 ? 0 : done);

	for (uint64_t w = 0; w < words; w++) {
		uint64_t got, want = atom_val(w, n / words + (w < n % words), words);

		memcpy(&got, m->ptr + 8 * w, 8);
		if (got != want)
			return ctl_send(ctl, "BAD word %" PRIu64 " is 0x%" PRIx64
					", expected 0x%" PRIx64, w, got, want);
	}
	for (size_t i = words * 8; i < o->mr_bytes; i++)
		if (m->ptr[i])
			return ctl_send(ctl, "BAD byte %zu past the last word changed", i);
	return ctl_send(ctl, "OK ATOMIC data verified: %ld ops, %" PRIu64 " words", done,
			n < words ? n : words);
}

static int passive(struct dev *d, struct ctl *ctl, const struct bw_opts *o,
		   struct mem *m, struct ibv_mr *mr, struct conn *c)
{
	char line[256], g[40];
	unsigned int qpn, psn;
	union ibv_gid pg;
	struct cpu a, b;
	long done;
	bool send = !strcmp(o->op, "send"), flowing = false;
	struct rx x = { .window = o->depth + RX_MARGIN };

	while (!(flowing ? rx_next_line(ctl, c, m, mr, o, &x, line, sizeof(line)) :
		 ctl_recv(ctl, line, sizeof(line)))) {
		if (sscanf(line, "BW %u %u %39s", &qpn, &psn, g) == 3) {
			if (gid_from_str(&pg, g) || conn_connect(d, c, qpn, psn, &pg))
				return 1;
			gid_to_str(&d->gid, g);
			ctl_send(ctl, "OK %u %u %" PRIu64 " %u %s", c->qp->qp_num, c->psn,
				 (uint64_t)(uintptr_t)m->ptr, mr->rkey, g);
		} else if (!strcmp(line, "START")) {
			/* SEND: receives are there before the first send. */
			if (send) {
				if (rx_fill(c, m, mr, o, &x))
					return 1;
				flowing = true;
			}
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
			if (send) {
				flowing = false;
				rx_done(ctl, c, m, o, &x, done);
				continue;
			}
			if (o->verify && !strcmp(o->op, "atomic")) {
				atomic_done(ctl, m, o, done);
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
	bool atomic = !strcmp(o->op, "atomic");
	/* SEND: the passive side's RQ holds @depth + RX_MARGIN receives. */
	int qdepth = !o->active && !strcmp(o->op, "send") ? o->depth + RX_MARGIN : o->depth;

	if (atomic && d->attr.atomic_cap == IBV_ATOMIC_NONE) {
		fprintf(stderr, "wvt bw: the device has no atomics\n");
		return 2;
	}
	/* ATOMIC: a fetch slot is reused only after its op completed. */
	if (o->size == 0 || o->size > o->mr_bytes ||
	    (atomic && o->mr_bytes / 8 < (size_t)o->depth) || mem_alloc(&m, o->mr_bytes))
		return 2;
	buf = m.ptr;
	/* The active side's buffer is its source; the passive side's is
	 * what READs fetch and WRITEs and SENDs overwrite.  ATOMIC: the
	 * passive words start at zero, the active side fetches over its
	 * pattern. */
	pat_fill(buf, o->mr_bytes, o->active ? SEED_ACTIVE : SEED_PASSIVE, 0);
	if (o->active && !strcmp(o->op, "read"))
		memset(buf, 0, o->mr_bytes);
	if (!o->active && atomic)
		memset(buf, 0, o->mr_bytes);
	mr = mem_reg(&m, d->pd[0], 0, o->mr_bytes, IBV_ACCESS_LOCAL_WRITE |
		     IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
		     (atomic ? IBV_ACCESS_REMOTE_ATOMIC : 0));
	if (!mr || conn_create(d, &c, IBV_QPT_RC, 0, qdepth)) {
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
