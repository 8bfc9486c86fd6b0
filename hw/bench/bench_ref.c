// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the engine is held against, measured in the same process and run
 * so that the machine's speed and load cancel out: memcpy between two
 * buffers of a message's size (the least any data path costs: the NIC
 * moves each byte at least from one buffer to another), and CRC-32 by
 * zlib beside libwrenhw's own (the ICRC covers every byte twice, once
 * when it is sent and once when it is received).
 */
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "bench.h"
#include "roce/whw_roce.h"

struct job {
	uint8_t *src, *dst;
	size_t size;
	uint32_t sink;
};

/* Runs @fn over whole buffers for about @ns; returns bytes a second. */
static double rate(uint64_t ns, struct job *j, void (*fn)(struct job *))
{
	uint64_t t0 = be_wall_ns(), t, bytes = 0;
	unsigned int batch = j->size >= (1u << 20) ? 1u :
			     (unsigned int)((1u << 20) / j->size);

	do {
		for (unsigned int i = 0; i < batch; i++)
			fn(j);
		bytes += (uint64_t)batch * j->size;
		t = be_wall_ns() - t0;
	} while (t < ns);
	return (double)bytes * 1e9 / (double)t;
}

static void *buf_new(size_t size)
{
	void *b = aligned_alloc(64, (size + 63) & ~(size_t)63);

	if (b)
		ro_fill(b, size, (uint32_t)size);
	return b;
}

static void copy(struct job *j)
{
	memcpy(j->dst, j->src, j->size);
	/* The copy is used: keep the compiler from dropping it. */
	__asm__ volatile("" : : "r"(j->dst), "r"(j->src) : "memory");
}

double be_memcpy_rate(size_t size, uint64_t ns)
{
	struct job j = { .src = buf_new(size), .dst = buf_new(size),
			 .size = size };
	double r = 0;

	if (j.src && j.dst) {
		copy(&j);		/* warm: pages and caches */
		r = rate(ns, &j, copy);
	}
	free(j.src);
	free(j.dst);
	return r;
}

/* IEEE CRC-32 as zlib has it: all ones in, inverted out. */
static uint32_t whw_crc(const struct job *j)
{
	return whw_crc32_update(~0u, j->src, j->size) ^ ~0u;
}

static uint32_t zlib_crc(const struct job *j)
{
	return (uint32_t)crc32(0, j->src, (uInt)j->size);
}

static void whw_job(struct job *j)
{
	j->sink ^= whw_crc(j);
}

static void zlib_job(struct job *j)
{
	j->sink ^= zlib_crc(j);
}

void be_crc_rate(size_t size, uint64_t ns, struct be_crc *c)
{
	struct job j = { .src = buf_new(size), .size = size };

	memset(c, 0, sizeof(*c));
	if (!j.src)
		return;
	c->same = whw_crc(&j) == zlib_crc(&j);
	if (ns) {
		c->whw_rate = rate(ns, &j, whw_job);
		c->zlib_rate = rate(ns, &j, zlib_job);
	}
	free(j.src);
}

/* One frame's floor: both copies and both ICRC passes, in order. */
struct frame_job {
	uint8_t *src, *frame, *dst;
	uint32_t payload, icrc_bytes;
	uint32_t sink;
};

/* The frame: 48 bytes the ICRC covers ahead of the payload. */
#define FLOOR_HDR	48u

static void floor_frame(struct frame_job *j)
{
	uint8_t *pl = j->frame + FLOOR_HDR;

	memcpy(pl, j->src, j->payload);
	j->sink ^= whw_crc32_update(~0u, j->frame, j->icrc_bytes);
	j->sink ^= whw_crc32_update(~0u, j->frame, j->icrc_bytes);
	memcpy(j->dst, pl, j->payload);
	__asm__ volatile("" : : "r"(j->dst), "r"(j->frame) : "memory");
}

static void floor_copy(struct frame_job *j)
{
	memcpy(j->frame + FLOOR_HDR, j->src, j->payload);
	__asm__ volatile("" : : "r"(j->frame) : "memory");
}

static void floor_crc(struct frame_job *j)
{
	j->sink ^= whw_crc32_update(~0u, j->frame, j->icrc_bytes);
}

/*
 * CPU ns a call of @fn, run for about @ns of CPU time; batches long
 * beside the clock's own cost (a system call).
 */
static double per_call(uint64_t ns, struct frame_job *j,
		       void (*fn)(struct frame_job *))
{
	uint64_t t0 = be_cpu_ns(), t, calls = 0;

	do {
		for (unsigned int i = 0; i < 4096; i++)
			fn(j);
		calls += 4096;
		t = be_cpu_ns() - t0;
	} while (t < ns);
	return (double)t / (double)calls;
}

void be_floor_measure(uint32_t payload, uint64_t ns, struct be_floor *f)
{
	struct frame_job j = {
		.src = buf_new(payload), .dst = buf_new(payload),
		.frame = buf_new(FLOOR_HDR + payload), .payload = payload,
		.icrc_bytes = FLOOR_HDR + payload,
	};

	memset(f, 0, sizeof(*f));
	f->icrc_bytes = j.icrc_bytes;
	if (j.src && j.dst && j.frame) {
		floor_frame(&j);	/* warm: pages, caches, CRC tables */
		f->ns = per_call(ns / 2, &j, floor_frame);
		f->copy_ns = per_call(ns / 4, &j, floor_copy);
		f->crc_ns = per_call(ns / 4, &j, floor_crc);
	}
	free(j.src);
	free(j.dst);
	free(j.frame);
}

/*
 * Allocations counted as the linker's --wrap hands them over
 * (mk/bench-engine.mk): every call of malloc, calloc and realloc from the
 * model, the host stub and the bench, not the C library's own.
 */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

static uint64_t nallocs;

void *__wrap_malloc(size_t n)
{
	nallocs++;
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	nallocs++;
	return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	nallocs++;
	return __real_realloc(p, n);
}

uint64_t be_allocs(void)
{
	return nallocs;
}
