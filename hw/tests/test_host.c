// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The host stub itself (hw/host): its sparse memory grows as pages are
 * touched and keeps every byte, stops at its arena's bound, and keeps
 * no state for stateless ranges, the data buffers of a simulation.
 */
#include <stdlib.h>

#include "tests.h"

#define PAGE	4096u

static void memory_grows(void)
{
	struct th *h = th_create(NULL);
	unsigned int bad = 0;
	size_t slots0 = h->slots;

	/* 10000 pages, one word each, scattered over 40 GiB, inside a page. */
	for (uint64_t i = 0; i < 10000; i++) {
		uint64_t v = i * 2654435761u;

		th_mem_write(h, (i << 22) + 8 * (i % 500), &v, sizeof(v));
	}
	for (uint64_t i = 0; i < 10000; i++) {
		uint64_t v = 0;

		th_mem_read(h, (i << 22) + 8 * (i % 500), &v, sizeof(v));
		bad += v != i * 2654435761u;
	}
	tap_ok(!bad && h->npages == 10000 && h->slots >= 20000 &&
	       slots0 < 1024,
	       "host memory: the page table grows from %zu to %zu slots for "
	       "%zu pages, every word read back (%u bad)", slots0, h->slots,
	       h->npages,
	       bad);
	th_destroy(h);
}

static void memory_bounded(void)
{
	struct th *h = th_create(NULL);
	uint8_t b = 1;
	int rc = 0;
	uint64_t i;

	for (i = 0; i < h->max_pages && !rc; i++)
		rc = th_mem_write(h, i * PAGE, &b, 1);
	tap_ok(!rc && th_mem_write(h, i * PAGE, &b, 1) == -1 &&
	       h->npages == h->max_pages,
	       "host memory: the arena stops at %zu pages, a write beyond it "
	       "fails as a bus error", h->max_pages);
	th_destroy(h);
}

static void memory_stateless(void)
{
	struct th *h = th_create(NULL);
	static uint8_t buf[3 * PAGE];
	uint64_t base = 1ull << 40;
	size_t before;
	unsigned int nonzero = 0;

	tap_ok(th_mem_stateless(h, base + 1, PAGE) == -1 &&
	       th_mem_stateless(h, base, PAGE + 1) == -1 &&
	       th_mem_stateless(h, base, 0) == -1,
	       "stateless ranges must be whole pages");
	tap_ok(th_mem_stateless(h, base, 1ull << 30) == 0,
	       "1 GiB made stateless");
	before = h->npages;
	memset(buf, 0xa5, sizeof(buf));
	/* A write straddling the range's start: only the outside part stays. */
	th_mem_write(h, base - PAGE, buf, sizeof(buf));
	for (uint64_t off = 0; off < (1ull << 30); off += 1ull << 20)
		th_mem_write(h, base + off, buf, sizeof(buf));
	memset(buf, 0, sizeof(buf));
	th_mem_read(h, base - PAGE, buf, sizeof(buf));
	for (unsigned int i = PAGE; i < sizeof(buf); i++)
		nonzero += buf[i] != 0;
	tap_ok(h->npages == before + 1 && buf[0] == 0xa5 &&
	       buf[PAGE - 1] == 0xa5 && !nonzero,
	       "writes into it are discarded and reads return zeros; one page "
	       "kept for the bytes outside it (%zu pages)", h->npages);
	th_destroy(h);
}

void test_host(void)
{
	memory_grows();
	memory_bounded();
	memory_stateless();
}
