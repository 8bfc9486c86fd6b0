// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wren_mpi_check - MPI collectives and one-sided operations over any
 * number of ranks, every result checked exactly (Open MPI over Wren
 * between the bench guests).
 *
 *   - MPI_Allreduce, sum of int64 and of double arrays from 1 element to
 *     1 MiB.  Each element a rank contributes is a hash of (rank, index),
 *     so a missing, doubled or misplaced contribution changes the sum.
 *   - MPI_Alltoall: every element names its source, destination and
 *     index, so a block delivered to the wrong rank or at the wrong
 *     offset is seen.
 *   - MPI_Put and MPI_Get on an MPI_Win_create window, synchronised with
 *     fences (active target) and with lock/unlock (passive target): each
 *     rank writes into its right neighbour and reads from its left.
 *
 * Output: TAP from rank 0.  Each check is decided over all ranks (an
 * MPI_Reduce of the ranks' failure counts); rank 0 prints the first
 * mismatch of up to MAX_DIAG failing ranks as diagnostics.  The exit
 * status is non-zero on any failure, on every rank.
 *
 *   wren_mpi_check [--corrupt RANK]       the checks
 *   wren_mpi_check --bench [--iters N]    one line:
 *       allreduce_8B_us=<median> allreduce_1MiB_us=<median>
 *
 * --corrupt RANK makes RANK contribute one wrong element to every check
 * (the last element of each of its buffers): every check must then fail,
 * which is how the host test proves that the checks can fail.
 */
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wren_pattern.h"

#define DIAG_LEN	160
#define MAX_DIAG	4
/* The window and the largest allreduce: 1 MiB of 8-byte elements. */
#define WIN_ELEMS	(1024 * 1024 / 8)
#define BENCH_WARMUP	5

static int rank, nranks;
static int corrupt_rank = -1;
static int tap_count, tap_failed;

/*
 * The test's own failure note on this rank: the first mismatch it saw in
 * the current check, sent to rank 0 when the check is decided.
 */
static int local_fails;
static char local_diag[DIAG_LEN];

static void die(const char *msg)
{
	fprintf(stderr, "wren_mpi_check: rank %d: %s\n", rank, msg);
	MPI_Abort(MPI_COMM_WORLD, 2);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		die("out of memory");
	return p;
}

/*
 * What rank r contributes at index i: the tree's test pattern, stream r,
 * its even words here and its odd ones in dval(), so that every (rank,
 * index) gives an unrelated value.  Kept to 40 bits so that the sum
 * over up to 2^23 ranks stays inside int64 (no overflow, which would be
 * undefined behaviour in the MPI library's reduction).
 */
static int64_t ival(int r, size_t i)
{
	return (int64_t)(wren_pattern_word((uint64_t)r, 2 * (uint64_t)i) &
			 ((1ull << 40) - 1));
}

/*
 * As a double: 32-bit integers, whose sums over up to 2^21 ranks are
 * exact in a double whatever order the library adds them in, so the
 * result can be compared with ==.
 */
static double dval(int r, size_t i)
{
	return (double)(wren_pattern_word((uint64_t)r, 2 * (uint64_t)i + 1) &
			0xffffffffull);
}

/* An element of the alltoall or window patterns: who, to whom, where. */
static int64_t tagval(int src, int dst, size_t i, unsigned int kind)
{
	return (int64_t)(((uint64_t)kind << 60) | ((uint64_t)(src & 0xfffff) << 40) |
			 ((uint64_t)(dst & 0xfffff) << 20) | (i & 0xfffff));
}

static void mismatch(const char *what, size_t i, long long got, long long want)
{
	if (!local_fails++)
		snprintf(local_diag, sizeof(local_diag),
			 "rank %d: %s[%zu] = %#llx, want %#llx",
			 rank, what, i, (unsigned long long)got,
			 (unsigned long long)want);
}

/*
 * Decide the current check over all ranks and print its TAP line.  The
 * diagnostics travel with an MPI_Gather, so that they come out in order
 * on rank 0's stdout rather than interleaved from every rank.
 */
static void decide(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void decide(const char *fmt, ...)
{
	char desc[128];
	char *all = NULL;
	int fails = 0, mine = local_fails ? 1 : 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);

	if (!local_fails)
		local_diag[0] = '\0';
	if (rank == 0)
		all = xmalloc((size_t)nranks * DIAG_LEN);
	MPI_Reduce(&mine, &fails, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Gather(local_diag, DIAG_LEN, MPI_CHAR, all, DIAG_LEN, MPI_CHAR, 0,
		   MPI_COMM_WORLD);
	tap_count++;
	if (fails)
		tap_failed++;
	if (rank == 0) {
		int shown = 0;

		printf("%s %d - %s (%d ranks)\n", fails ? "not ok" : "ok",
		       tap_count, desc, nranks);
		for (int r = 0; r < nranks && shown < MAX_DIAG; r++) {
			if (all[(size_t)r * DIAG_LEN]) {
				printf("# %.*s\n", DIAG_LEN, all + (size_t)r * DIAG_LEN);
				shown++;
			}
		}
		if (fails > shown)
			printf("# ... %d of %d ranks saw a mismatch\n", fails, nranks);
		fflush(stdout);
		free(all);
	}
	local_fails = 0;
}

static int corrupting(void)
{
	return rank == corrupt_rank;
}

/*
 * Element i of rank r's allreduce input: ival() for int64, dval() for
 * double.  Both are integers an int64 holds exactly, and so is their sum
 * over the ranks, so one loop checks either type with ==.
 */
static int64_t elem(int r, size_t i, int dbl)
{
	return dbl ? (int64_t)dval(r, i) : ival(r, i);
}

/* Element i of an allreduce buffer of int64 or (dbl) double. */
static void put(void *buf, size_t i, int64_t v, int dbl)
{
	if (dbl)
		((double *)buf)[i] = (double)v;
	else
		((int64_t *)buf)[i] = v;
}

static void check_allreduce(size_t n, MPI_Datatype type)
{
	int dbl = type == MPI_DOUBLE;
	void *in = xmalloc(n * 8), *out = xmalloc(n * 8);

	for (size_t i = 0; i < n; i++) {
		put(in, i, elem(rank, i, dbl) + (corrupting() && i == n - 1), dbl);
		put(out, i, -1, dbl);
	}
	MPI_Allreduce(in, out, (int)n, type, MPI_SUM, MPI_COMM_WORLD);
	for (size_t i = 0; i < n; i++) {
		const double *d = out;
		const int64_t *v = out;
		int64_t want = 0;

		for (int r = 0; r < nranks; r++)
			want += elem(r, i, dbl);
		/* A double is compared as one: 1.5 must not pass as 1. */
		if (dbl ? d[i] != (double)want : v[i] != want)
			mismatch("sum", i, dbl ? (long long)d[i] : v[i], want);
	}
	decide("allreduce %s sum, %zu element%s (%zu B)", dbl ? "double" : "int64",
	       n, n == 1 ? "" : "s", n * 8);
	free(in);
	free(out);
}

/* blk elements from every rank to every rank. */
static void check_alltoall(size_t blk)
{
	size_t n = blk * (size_t)nranks;
	int64_t *in = xmalloc(n * sizeof(*in)), *out = xmalloc(n * sizeof(*out));

	for (int d = 0; d < nranks; d++)
		for (size_t i = 0; i < blk; i++)
			in[(size_t)d * blk + i] = tagval(rank, d, i, 1);
	for (size_t i = 0; i < n; i++)
		out[i] = -1;
	if (corrupting())
		in[n - 1] ^= 1;
	MPI_Alltoall(in, (int)blk, MPI_INT64_T, out, (int)blk, MPI_INT64_T,
		     MPI_COMM_WORLD);
	for (int s = 0; s < nranks; s++)
		for (size_t i = 0; i < blk; i++) {
			int64_t want = tagval(s, rank, i, 1);
			size_t k = (size_t)s * blk + i;

			if (out[k] != want)
				mismatch("recv", k, out[k], want);
		}
	decide("alltoall int64, %zu element%s a block", blk, blk == 1 ? "" : "s");
	free(in);
	free(out);
}

static void check_window(int64_t *win, const char *what, int src, int dst,
			 unsigned int kind)
{
	for (size_t i = 0; i < WIN_ELEMS; i++) {
		int64_t want = tagval(src, dst, i, kind);

		if (win[i] != want)
			mismatch(what, i, win[i], want);
	}
}

static void fill(int64_t *buf, int src, int dst, unsigned int kind)
{
	for (size_t i = 0; i < WIN_ELEMS; i++)
		buf[i] = tagval(src, dst, i, kind);
	if (corrupting())
		buf[WIN_ELEMS - 1] ^= 1;
}

/*
 * One-sided: MPI_Put into the right neighbour and MPI_Get from the left
 * one, first between fences, then in passive-target epochs.  With one
 * rank both neighbours are the rank itself, which still goes through the
 * window.
 */
static const char *const rma_checks[] = {
	"MPI_Put with fence, 1 MiB into the right neighbour",
	"MPI_Get with fence, 1 MiB from the left neighbour",
	"MPI_Put with lock/unlock, 1 MiB into the right neighbour",
	"MPI_Get with lock/unlock, 1 MiB from the left neighbour",
};

static void check_rma(void)
{
	int right = (rank + 1) % nranks, left = (rank + nranks - 1) % nranks;
	int64_t *base, *buf = xmalloc(WIN_ELEMS * sizeof(*buf));
	MPI_Aint size = WIN_ELEMS * sizeof(*base);
	MPI_Win win;
	int err;

	/* MPI_Alloc_mem: registered memory where the transport wants it. */
	MPI_Alloc_mem(size, MPI_INFO_NULL, &base);
	memset(base, 0xff, size);
	/*
	 * Without a one-sided component for the transport (Debian's
	 * openmpi-mca-params.conf leaves out osc pt2pt and ucx, and osc rdma
	 * needs a BTL with RDMA) the window cannot be created: the four
	 * checks fail with the reason instead of the job aborting.
	 */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	err = MPI_Win_create(base, size, sizeof(*base), MPI_INFO_NULL,
			     MPI_COMM_WORLD, &win);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	if (err != MPI_SUCCESS) {
		char msg[MPI_MAX_ERROR_STRING];
		int len;

		MPI_Error_string(err, msg, &len);
		for (int k = 0; k < 4; k++) {
			local_fails = 1;
			snprintf(local_diag, sizeof(local_diag),
				 "rank %d: MPI_Win_create: %.100s", rank, msg);
			decide("%s", rma_checks[k]);
		}
		MPI_Free_mem(base);
		free(buf);
		return;
	}

	/* Active target: Put between two fences lands before the second. */
	fill(buf, rank, right, 2);
	MPI_Win_fence(0, win);
	MPI_Put(buf, WIN_ELEMS, MPI_INT64_T, right, 0, WIN_ELEMS, MPI_INT64_T, win);
	MPI_Win_fence(0, win);
	check_window(base, "window", left, rank, 2);
	decide("%s", rma_checks[0]);

	/*
	 * Each rank sets its own window between fences (local stores in an
	 * access epoch: the fence makes them visible to the others' Get).
	 */
	fill(base, rank, rank, 3);
	memset(buf, 0xff, size);
	MPI_Win_fence(0, win);
	MPI_Get(buf, WIN_ELEMS, MPI_INT64_T, left, 0, WIN_ELEMS, MPI_INT64_T, win);
	MPI_Win_fence(0, win);
	check_window(buf, "got", left, left, 3);
	decide("%s", rma_checks[1]);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, win);

	/*
	 * Passive target: the Put is complete at the target when unlock
	 * returns; the barrier tells the target, whose own lock on its
	 * window brings the public copy into its private one (the separate
	 * memory model; a no-op in the unified one).
	 */
	fill(buf, rank, right, 4);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
	MPI_Put(buf, WIN_ELEMS, MPI_INT64_T, right, 0, WIN_ELEMS, MPI_INT64_T, win);
	MPI_Win_unlock(right, win);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
	check_window(base, "window", left, rank, 4);
	MPI_Win_unlock(rank, win);
	decide("%s", rma_checks[2]);

	/* Local stores under an exclusive self-lock, then a shared-lock Get. */
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
	fill(base, rank, rank, 5);
	MPI_Win_unlock(rank, win);
	MPI_Barrier(MPI_COMM_WORLD);
	memset(buf, 0xff, size);
	MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win);
	MPI_Get(buf, WIN_ELEMS, MPI_INT64_T, left, 0, WIN_ELEMS, MPI_INT64_T, win);
	MPI_Win_unlock(left, win);
	check_window(buf, "got", left, left, 5);
	decide("%s", rma_checks[3]);

	MPI_Win_free(&win);
	MPI_Free_mem(base);
	free(buf);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Median over iterations of the slowest rank's time: an allreduce is as
 * slow as its last rank, and the median keeps one descheduled iteration
 * (TCG guests) out of the figure.
 */
static double bench_allreduce(size_t n, int iters)
{
	int64_t *in = xmalloc(n * sizeof(*in)), *out = xmalloc(n * sizeof(*out));
	double *t = xmalloc((size_t)iters * sizeof(*t));
	double *tmax = xmalloc((size_t)iters * sizeof(*tmax));
	double med;

	for (size_t i = 0; i < n; i++)
		in[i] = ival(rank, i);
	for (int k = -BENCH_WARMUP; k < iters; k++) {
		double t0;

		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		MPI_Allreduce(in, out, (int)n, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
		if (k >= 0)
			t[k] = MPI_Wtime() - t0;
	}
	/* A fast wrong answer is no figure: the last result is checked. */
	for (size_t i = 0; i < n; i++) {
		int64_t want = 0;

		for (int r = 0; r < nranks; r++)
			want += ival(r, i);
		if (out[i] != want)
			mismatch("sum", i, out[i], want);
	}
	MPI_Allreduce(t, tmax, iters, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	qsort(tmax, (size_t)iters, sizeof(*tmax), cmp_double);
	med = iters % 2 ? tmax[iters / 2] : (tmax[iters / 2 - 1] + tmax[iters / 2]) / 2;
	free(in);
	free(out);
	free(t);
	free(tmax);
	return med * 1e6;
}

static void usage(void)
{
	if (rank == 0)
		fprintf(stderr, "usage: wren_mpi_check [--corrupt RANK] | --bench [--iters N]\n");
	MPI_Finalize();
	exit(2);
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 1, 3, 1000, 16384, WIN_ELEMS };
	static const size_t blocks[] = { 1, 1000 };
	const int nsizes = sizeof(sizes) / sizeof(sizes[0]);
	const int nblocks = sizeof(blocks) / sizeof(blocks[0]);
	int bench = 0, iters = 50, total;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);

	for (int i = 1; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "--bench")) {
			bench = 1;
		} else if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
			iters = (int)strtol(argv[++i], &end, 0);
			if (*end || iters < 1)
				usage();
		} else if (!strcmp(argv[i], "--corrupt") && i + 1 < argc) {
			corrupt_rank = (int)strtol(argv[++i], &end, 0);
			if (*end || corrupt_rank < 0 || corrupt_rank >= nranks)
				usage();
		} else {
			usage();
		}
	}

	if (bench) {
		double small = bench_allreduce(1, iters);
		double large = bench_allreduce(WIN_ELEMS, iters);
		int fails = 0, mine = local_fails ? 1 : 0;

		MPI_Allreduce(&mine, &fails, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		if (fails)
			fprintf(stderr, "wren_mpi_check: %s\n", local_diag[0] ?
				local_diag : "a rank's allreduce result was wrong");
		else if (rank == 0)
			printf("allreduce_8B_us=%.1f allreduce_1MiB_us=%.1f\n",
			       small, large);
		MPI_Finalize();
		return fails ? 1 : 0;
	}

	total = 2 * nsizes + nblocks + 4;
	if (rank == 0) {
		printf("TAP version 13\n1..%d\n", total);
		fflush(stdout);
	}
	for (int i = 0; i < nsizes; i++)
		check_allreduce(sizes[i], MPI_INT64_T);
	for (int i = 0; i < nsizes; i++)
		check_allreduce(sizes[i], MPI_DOUBLE);
	for (int i = 0; i < nblocks; i++)
		check_alltoall(blocks[i]);
	check_rma();
	if (rank == 0 && tap_count != total)
		printf("# %d checks ran, %d planned\n", tap_count, total);

	MPI_Finalize();
	return tap_failed || tap_count != total ? 1 : 0;
}
