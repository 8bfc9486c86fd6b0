// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * engine-bench: how fast libwrenhw's RoCEv2 engine moves data, on the
 * host, with no guest, no QEMU and no fabric in the way.
 *
 *   engine-bench            RC WRITE, READ and SEND of 4 KiB, 64 KiB and
 *                           1 MiB at path MTU 1024 and 4096, each for
 *                           BENCH_ENGINE_SECONDS (default 1): bytes/s, ns
 *                           a wire frame and the ratio to memcpy of the
 *                           same size measured in this run, and the time
 *                           a data frame against the floor (bench.h:
 *                           its two payload copies and two ICRC passes,
 *                           measured in this run; both in CPU time), with
 *                           the allocations
 *                           and DMA a data frame; the same 64 KiB WRITE
 *                           over hw/tests' own wire; CRC-32 throughput
 *                           against zlib's; the targets
 *   engine-bench --smoke    every stream with a few messages and the CRC
 *                           checked against zlib, TAP, no timing (make
 *                           check-hw runs it under ASan and UBSan)
 *
 * BENCH_ENGINE_ONLY=<part of a stream's name> ("READ", "64 KiB MTU
 * 4096") runs only those streams, e.g. under perf record.
 *
 * Exits non-zero when a stream fails (an error completion, a stall, a
 * byte that differs) or the CRC disagrees with zlib; a target not met is
 * printed, not failed: the figures are the result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "roce/whw_roce.h"

#define TAG		"bench-engine: "
#define MTU_1024	3		/* WREN_MTU_*: 256 << (code - 1) */
#define NSIZES		3
#define CRC_BYTES	(64u << 10)

static const uint32_t sizes[NSIZES] = { 4u << 10, 64u << 10, 1u << 20 };
static const uint8_t mtus[] = { MTU_1024, WREN_MTU_4096 };

/*
 * The targets, for WRITEs of 64 KiB: at least a fraction of memcpy's
 * rate, and at most a multiple of the floor's time a data frame.
 */
#define TARGET_SIZE	(64u << 10)
#define NTARGETS	2
static const struct {
	uint8_t mtu;
	double ratio;
	double floor;
} targets[NTARGETS] = {
	{ WREN_MTU_4096, 0.5, 1.5 },
	{ MTU_1024, 0.25, 1.5 },
};

#define NMTUS	sizeof(mtus)
/* The floor a data frame at each path MTU, measured at the start. */
static struct be_floor floors[NMTUS];

static unsigned int mtu_bytes(uint8_t code)
{
	return 128u << code;
}

static const char *size_name(uint32_t size)
{
	static char s[4][16];
	static unsigned int n;
	char *b = s[n++ % 4];

	if (!(size & ((1u << 20) - 1)))
		snprintf(b, 16, "%u MiB", size >> 20);
	else
		snprintf(b, 16, "%u KiB", size >> 10);
	return b;
}

/* Case @i of the table: MTU, then operation, then size. */
static struct be_case case_nr(unsigned int i)
{
	struct be_case c = {
		.op = (enum be_op)(i / NSIZES % BE_NOPS),
		.size = sizes[i % NSIZES],
		.mtu = mtus[i / NSIZES / BE_NOPS],
	};

	return c;
}

#define NCASES	(NSIZES * BE_NOPS * NMTUS)

static int smoke(void)
{
	struct be_limits l = { .min_msgs = 4, .slots = 2,
			       .max_ns = 20000000000ull };
	struct be_result r;
	struct be_crc crc;
	struct be_case c;

	tap_plan(NCASES + 2);
	for (unsigned int i = 0; i < NCASES; i++) {
		c = case_nr(i);
		if (!be_stream(&c, &l, &r))
			tap_diag("%s", r.err);
		tap_ok(!r.err[0],
		       "engine-bench smoke: RC %s %s, path MTU %u, %llu messages verified",
		       be_op_name(c.op), size_name(c.size), mtu_bytes(c.mtu),
		       (unsigned long long)r.msgs);
	}
	c = (struct be_case){ BE_WRITE, 64u << 10, WREN_MTU_4096 };
	l.harness_wire = true;
	if (!be_stream(&c, &l, &r))
		tap_diag("%s", r.err);
	tap_ok(!r.err[0],
	       "engine-bench smoke: RC WRITE 64 KiB over hw/tests' wire, %llu messages verified",
	       (unsigned long long)r.msgs);
	be_crc_rate(CRC_BYTES, 0, &crc);
	tap_ok(crc.same, "engine-bench smoke: whw_crc32_update() agrees with zlib's crc32()");
	return tap_done();
}

static double seconds(void)
{
	const char *e = getenv("BENCH_ENGINE_SECONDS");
	double s = e ? strtod(e, NULL) : 1.0;

	return s < 0.01 ? 0.01 : s > 60 ? 60 : s;
}

/* BENCH_ENGINE_ONLY="WRITE 64 KiB MTU 4096" (or any part): some streams. */
static bool chosen(const struct be_case *c)
{
	const char *only = getenv("BENCH_ENGINE_ONLY");
	char name[64];

	if (!only || !*only)
		return true;
	snprintf(name, sizeof(name), "%s %s MTU %u", be_op_name(c->op),
		 size_name(c->size), mtu_bytes(c->mtu));
	return strstr(name, only) != NULL;
}

static unsigned int mtu_index(uint8_t mtu)
{
	unsigned int i = 0;

	while (mtus[i] != mtu)
		i++;
	return i;
}

/*
 * One stream and its two lines; its ratio to memcpy (-1 if it failed)
 * and in @fl, its time a data frame as a multiple of the floor's.
 */
static double stream(const char *how, const struct be_case *c,
		     const struct be_limits *l, const double *mc, double *fl)
{
	const struct be_floor *f = &floors[mtu_index(c->mtu)];
	uint32_t mtu = mtu_bytes(c->mtu);
	uint64_t dfr = (c->size + mtu - 1) / mtu;	/* data frames a msg */
	unsigned int i = 0;
	struct be_result r;
	double rate, df, ns;

	*fl = -1;
	while (sizes[i] != c->size)
		i++;
	printf(TAG "%-5s %-6s MTU %4u%s: ", be_op_name(c->op),
	       size_name(c->size), mtu, how);
	if (!be_stream(c, l, &r)) {
		printf("FAILED: %s\n", r.err);
		return -1;
	}
	rate = (double)r.bytes * 1e9 / (double)r.ns;
	printf("%7.3f GB/s %6.0f ns/frame (%6.1f frames/msg) %6.3f of memcpy",
	       rate / 1e9, (double)r.ns / (double)r.frames,
	       (double)r.frames / (double)r.msgs, rate / mc[i]);
	/* None of these happen on a lossless wire unless the engine errs. */
	if (r.jumps || r.retransmits || r.held)
		printf(" [%u timer waits, %llu retransmits, %llu held]",
		       r.jumps, (unsigned long long)r.retransmits,
		       (unsigned long long)r.held);
	printf("\n");
	/*
	 * The stream's whole CPU time, ACKs and requests included, per
	 * data frame.
	 */
	df = (double)(r.msgs * dfr);
	ns = (double)r.cpu_ns / df;
	*fl = ns / f->ns;
	printf(TAG "      %5.0f ns a data frame, %4.2fx the floor's %3.0f; a data frame: %.2f allocations, DMA %.2f reads %.0f B, %.2f writes %.0f B\n",
	       ns, *fl, f->ns, (double)r.allocs / df,
	       (double)r.dma_reads / df, (double)r.dma_read_bytes / df,
	       (double)r.dma_writes / df, (double)r.dma_write_bytes / df);
	return rate / mc[i];
}

static int bench(void)
{
	double secs = seconds(), mc[NSIZES], ratio[NTARGETS], fl[NTARGETS];
	double x, y;
	struct be_limits l = {
		.run_ns = (uint64_t)(secs * 1e9),
		.max_ns = (uint64_t)(secs * 1e9) + 30000000000ull,
	};
	struct be_crc crc;
	struct be_case c;
	int rc = 0;

	printf(TAG "libwrenhw's RoCEv2 engine, two models in one process, RC, %.2f s a stream\n",
	       secs);
	for (unsigned int i = 0; i < NSIZES; i++) {
		mc[i] = be_memcpy_rate(sizes[i], 250000000ull);
		printf(TAG "memcpy %-6s: %7.3f GB/s\n", size_name(sizes[i]),
		       mc[i] / 1e9);
	}
	for (unsigned int m = 0; m < NMTUS; m++) {
		struct be_floor *f = &floors[m];

		be_floor_measure(mtu_bytes(mtus[m]), 250000000ull, f);
		printf(TAG "floor, MTU %4u: %3.0f ns a data frame = 2 payload copies (memcpy %u B, %.0f ns alone) + 2 ICRC passes (whw_crc32_update %u B, %s, %.0f ns alone), back to back on hot buffers (CPU time, as the engine's below)\n",
		       mtu_bytes(mtus[m]), f->ns, mtu_bytes(mtus[m]),
		       f->copy_ns, f->icrc_bytes, whw_crc32_impl(), f->crc_ns);
	}
	for (unsigned int t = 0; t < NTARGETS; t++) {
		ratio[t] = -1;
		fl[t] = -1;
	}
	for (unsigned int i = 0; i < NCASES; i++) {
		c = case_nr(i);
		if (!chosen(&c))
			continue;
		x = stream("", &c, &l, mc, &y);
		if (x < 0)
			rc = 1;
		for (unsigned int t = 0; t < NTARGETS; t++)
			if (c.op == BE_WRITE && c.size == TARGET_SIZE &&
			    c.mtu == targets[t].mtu) {
				ratio[t] = x;
				fl[t] = y;
			}
	}
	/* The same over hw/tests' wire: what a copy and malloc a frame cost. */
	c = (struct be_case){ BE_WRITE, TARGET_SIZE, WREN_MTU_4096 };
	l.harness_wire = true;
	if (chosen(&c) && stream(" over hw/tests' wire", &c, &l, mc, &y) < 0)
		rc = 1;
	be_crc_rate(CRC_BYTES, 250000000ull, &crc);
	printf(TAG "CRC-32 of %s: whw_crc32_update %.3f GB/s (%s), zlib crc32() %.3f GB/s%s\n",
	       size_name(CRC_BYTES), crc.whw_rate / 1e9, whw_crc32_impl(),
	       crc.zlib_rate / 1e9, crc.same ? "" : ", RESULTS DIFFER");
	if (!crc.same)
		rc = 1;
	for (unsigned int t = 0; t < NTARGETS; t++) {
		if (ratio[t] < 0)
			continue;
		printf(TAG "target: RC WRITE %s at MTU %u >= %.2f of memcpy: %.3f, %s\n",
		       size_name(TARGET_SIZE), mtu_bytes(targets[t].mtu),
		       targets[t].ratio, ratio[t],
		       ratio[t] >= targets[t].ratio ? "met" : "NOT met");
	}
	for (unsigned int t = 0; t < NTARGETS; t++) {
		if (fl[t] < 0)
			continue;
		printf(TAG "target: RC WRITE %s at MTU %u <= %.2fx the floor a data frame: %.2fx, %s\n",
		       size_name(TARGET_SIZE), mtu_bytes(targets[t].mtu),
		       targets[t].floor, fl[t],
		       fl[t] <= targets[t].floor ? "met" : "NOT met");
	}
	return rc;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "--smoke"))
		return smoke();
	if (argc != 1) {
		fprintf(stderr, "usage: %s [--smoke]\n", argv[0]);
		return 2;
	}
	return bench();
}
