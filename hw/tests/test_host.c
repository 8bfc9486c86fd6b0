// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The host stub itself (hw/host): its sparse memory grows as pages are
 * touched and keeps every byte, stops at its arena's bound, and keeps
 * no state for stateless ranges, the data buffers of a simulation; and
 * its RC flows between two NICs, the unit a simulation moves.
 */
#include <stdlib.h>

#include "cc.h"
#include "flow.h"
#include "roce_util.h"
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

/* Runs the pair in steps of @step_ns until @f ends or @max_ns pass. */
static void run_flows(struct ro_pair *p, struct ro_flow_host *fh,
		      const bool *done, uint64_t step_ns, uint64_t max_ns)
{
	uint64_t end = p->n[0].d->h->now_ns + max_ns;

	while (!*done && p->n[0].d->h->now_ns < end) {
		uint64_t t = p->n[0].d->h->now_ns + step_ns;

		ro_settle(p, step_ns);
		/* Quiet before the step's end: time goes on anyway. */
		if (p->n[0].d->h->now_ns < t)
			ro_advance(p, t - p->n[0].d->h->now_ns);
		ro_flow_poll(&fh[0]);
		ro_flow_poll(&fh[1]);
	}
}

static void flows(void)
{
	static const struct ro_conn conn = {
		.mtu = WREN_MTU_4096, .timeout = 14, .retry = 7,
		.rnr_retry = 7, .min_rnr = 1, .rd_atomic = 1,
	};
	const uint64_t bytes = 64ull << 20;
	/*
	 * The wire's time at 100 Gb/s: 4096-byte payloads, each with its
	 * Ethernet, IP, UDP and BTH headers, ICRC and 24 bytes of preamble,
	 * FCS and gap (the first packet's RETH aside).
	 */
	const double ideal_us = (double)(bytes / 4096) *
				(4096 + 14 + 20 + 8 + 12 + 4 + 24) * 8 / 100000;
	struct ro_flow_host fh[2];
	struct ro_flow f, s;
	struct ro_pair p;
	size_t pages0, pages1;
	double fct_us;
	uint64_t rx0;

	/* Timers on time, no slack: the completion time is the wire's. */
	ro_pair_init_clock(&p, true);
	tap_ok(!ro_flow_host_init(&fh[0], &p.n[0], 10, &conn) &&
	       !ro_flow_host_init(&fh[1], &p.n[1], 10, &conn),
	       "flow hosts: a CQ and a 1 GiB stateless buffer on each NIC");
	pages0 = p.n[0].d->h->npages;
	pages1 = p.n[1].d->h->npages;
	rx0 = td_counter(p.n[1].d, WREN_COUNTERS_PORT, 0, WREN_CNT_RX_BYTES);
	tap_ok(!ro_flow_start(&f, &fh[0], &fh[1], RO_FLOW_WRITE, bytes, 3),
	       "a 64 MiB RC WRITE flow on priority 3 starts");
	run_flows(&p, fh, &f.done, 1000, 100000000);
	fct_us = (double)(f.end_ns - f.start_ns) / 1000;
	/*
	 * The harness hands a frame to the peer as it starts on the wire,
	 * so the last one's ACK comes back up to a frame's time (0.34 us)
	 * before the wire would be done with it.
	 */
	tap_ok(f.done && !f.status && fct_us >= ideal_us - 0.34 &&
	       fct_us < ideal_us * 1.02,
	       "... completes in %.1f us, the wire's %.1f us at 100 Gb/s "
	       "(goodput %.1f %% of the line rate), status %d", fct_us,
	       ideal_us, (double)bytes * 8 / 1000 / fct_us, f.status);
	tap_ok(td_counter(p.n[1].d, WREN_COUNTERS_PORT, 0,
			  WREN_CNT_RX_BYTES) - rx0 > bytes &&
	       td_counter(p.n[0].d, WREN_COUNTERS_PRIO, 0,
			  3 * WREN_NUM_PRIO_COUNTERS +
			  WREN_PRIO_CNT_TX_PRIO_BYTES) > bytes,
	       "... its bytes crossed the wire, on priority 3");
	tap_ok(p.n[0].d->h->npages - pages0 < 16 &&
	       p.n[1].d->h->npages - pages1 < 16 && !fh[0].active,
	       "... in %zu and %zu pages of host memory (rings), its QPs gone",
	       p.n[0].d->h->npages - pages0, p.n[1].d->h->npages - pages1);
	tap_ok(!ro_flow_start(&s, &fh[1], &fh[0], RO_FLOW_SEND, 3000000, 0),
	       "a 3 MB SEND flow the other way starts");
	run_flows(&p, fh, &s.done, 1000, 100000000);
	tap_ok(s.done && !s.status && s.recvs == s.wqes && s.wqes == 1,
	       "... ends once the receiver completed too (%.0f us)",
	       (double)(s.end_ns - s.start_ns) / 1000);
	ro_flow_host_fini(&fh[0]);
	ro_flow_host_fini(&fh[1]);
	ro_pair_fini(&p);
}

static void cc_profiles(void)
{
	static const char *const name[] = { "mlx5", "paper", "HPCC" };
	struct td *d = td_new(NULL);

	wrenhw_set_link(d->h->hw, true, 100000);
	td_aeq_count(d, 0xff);
	for (int p = RO_CC_MLX5; p <= RO_CC_HPCC; p++) {
		struct wren_cc_params want, got;
		int rc = ro_cc_set(d, (enum ro_cc_profile)p, 0x08, 100000);

		ro_cc_profile(&want, (enum ro_cc_profile)p, 0x08, 100000);
		memset(&got, 0, sizeof(got));
		td_handle_cmd(d, WREN_AQ_OP_QUERY_CC, 3, &got, sizeof(got));
		got.prio_mask = want.prio_mask;
		tap_ok(!rc && !memcmp(&want, &got, sizeof(got)),
		       "DCQCN profile %s: SET_CC takes it, QUERY_CC of "
		       "priority 3 reads it back (status %d)", name[p], rc);
	}
	td_free(d);
}

void test_host(void)
{
	memory_grows();
	memory_bounded();
	memory_stateless();
	flows();
	cc_profiles();
}
