// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port scheduler in simulated time: ETS shares, strict priority,
 * max rate, pauses skipped, the wire's rate, the FIFOs' limits, link down,
 * and the sources' back-pressure (an Ethernet queue and an RC QP on a slow
 * link lose nothing).
 */
#include <stdio.h>
#include <stdlib.h>

#include "eth_util.h"
#include "port/whw_sched.h"
#include "roce_tests.h"
#include "roce_util.h"
#include "sched_util.h"
#include "wrenhw_int.h"

#define MS	1000000ull
#define SEC	1000000000ull

static double pct(uint64_t a, uint64_t total)
{
	return total ? 100.0 * (double)a / (double)total : 0;
}

static bool near(double v, double want, double tol)
{
	return v >= want - tol && v <= want + tol;
}

/* Bits on the wire per second, preamble, FCS and gap included. */
static double wire_mbps(const struct sh *s, uint64_t ns)
{
	return (double)s->wire_bits * 1000.0 / (double)ns;
}

static void ets_shares(void)
{
	static const uint8_t bw[8] = { 70, 30 };
	struct sh s;
	uint64_t tot;
	double a;

	sh_init(&s, 1000);
	tap_ok(sh_ets(&s, 0x03, bw) == WREN_AQ_STATUS_OK,
	       "SET_ETS: TC 0 70 %%, TC 1 30 %%, the rest strict");
	sh_source(&s, 0, 1500, 0);
	sh_source(&s, 1, 1000, 0);
	sh_run(&s, 10 * MS);
	sh_reset_counts(&s);
	sh_run(&s, SEC);
	tot = s.bytes[0] + s.bytes[1];
	a = pct(s.bytes[0], tot);
	tap_ok(near(a, 70, 1) && near(pct(s.bytes[1], tot), 30, 1),
	       "ETS 70/30, both backlogged (1500 and 1000 byte frames): "
	       "%.2f %% / %.2f %% of the bytes over a simulated second",
	       a, pct(s.bytes[1], tot));
	tap_ok(near(wire_mbps(&s, SEC), 1000, 10),
	       "work-conserving at the link's speed: %.1f Mb/s on a 1000 Mb/s "
	       "wire", wire_mbps(&s, SEC));
	tap_ok(sh_prio_cnt(&s, 0, WREN_PRIO_CNT_TX_PRIO_BYTES) >= s.bytes[0] &&
	       sh_prio_cnt(&s, 1, WREN_PRIO_CNT_TX_PRIO_PACKETS) >= s.frames[1],
	       "priority TX counters count what reached the wire");

	/* The same again with unequal weights on TCs 2 and 5. */
	{
		static const uint8_t bw2[8] = { [2] = 25, [5] = 75 };

		sh_source(&s, 0, 0, 0);
		sh_source(&s, 1, 0, 0);
		sh_run(&s, MS);
		sh_ets(&s, 0x24, bw2);
		sh_source(&s, 2, 9000, 0);
		sh_source(&s, 5, 64, 0);
		sh_run(&s, 10 * MS);
		sh_reset_counts(&s);
		sh_run(&s, SEC / 2);
		tot = s.bytes[2] + s.bytes[5];
		tap_ok(near(pct(s.bytes[2], tot), 25, 1),
		       "ETS 25/75 with 9000 against 64 byte frames: %.2f %% / "
		       "%.2f %%", pct(s.bytes[2], tot), pct(s.bytes[5], tot));
	}
	sh_fini(&s);
}

static void strict(void)
{
	static const uint8_t bw[8] = { 100 };
	struct sh s;
	double r5;

	sh_init(&s, 1000);
	sh_ets(&s, 0x01, bw);
	/* TC 5 strict wants 400 Mb/s, TC 0 (ETS) is backlogged. */
	sh_source(&s, 5, 1500, 400000);
	sh_source(&s, 0, 1500, 0);
	sh_run(&s, 10 * MS);
	sh_reset_counts(&s);
	sh_run(&s, SEC);
	r5 = (double)s.bytes[5] * 8 / 1e6;
	tap_ok(near(r5, 400, 4) &&
	       near(wire_mbps(&s, SEC), 1000, 10),
	       "strict TC 5 gets all of the 400 Mb/s it offers (%.1f), ETS TC 0 "
	       "the rest (%.1f Mb/s of payload)", r5,
	       (double)s.bytes[0] * 8 / 1e6);
	/* A strict TC that wants everything takes everything. */
	sh_source(&s, 5, 1500, 0);
	sh_run(&s, MS);
	sh_reset_counts(&s);
	sh_run(&s, 100 * MS);
	tap_ok(s.frames[5] > 8000 && s.frames[0] == 0,
	       "strict TC 5 backlogged: %llu frames, ETS TC 0 none",
	       (unsigned long long)s.frames[5]);
	/* Two strict TCs: the higher one first. */
	sh_source(&s, 0, 0, 0);
	sh_ets(&s, 0x01, bw);
	sh_source(&s, 3, 1500, 0);
	sh_run(&s, MS);
	sh_reset_counts(&s);
	sh_run(&s, 50 * MS);
	tap_ok(s.frames[5] > 4000 && s.frames[3] == 0,
	       "strict TC 5 before strict TC 3");
	sh_fini(&s);
}

static void maxrate(void)
{
	static const uint8_t bw[8] = { 50, 50 };
	struct wren_maxrate m;
	struct sh s;
	double r0, r1;

	sh_init(&s, 1000);
	sh_ets(&s, 0x03, bw);
	memset(&m, 0, sizeof(m));
	m.tc_maxrate_kbps[0] = 200000;
	tap_ok(sh_set(&s, WREN_AQ_OP_SET_MAXRATE, &m, sizeof(m)).status ==
	       WREN_AQ_STATUS_OK, "SET_MAXRATE: TC 0 at 200 Mb/s");
	sh_source(&s, 0, 1500, 0);
	sh_source(&s, 1, 1500, 0);
	sh_run(&s, 10 * MS);
	sh_reset_counts(&s);
	sh_run(&s, SEC);
	r0 = (double)s.bytes[0] * 8 / 1e6;
	r1 = (double)s.bytes[1] * 8 / 1e6;
	tap_ok(r0 <= 202 && r0 >= 198,
	       "TC 0 capped at 200 Mb/s within 1 %%: %.2f Mb/s", r0);
	tap_ok(near(wire_mbps(&s, SEC), 1000, 10) && r1 > 750,
	       "TC 1 takes the rest (%.1f Mb/s): the cap does not waste the "
	       "wire", r1);
	/* Alone, shaped: the wire idles rather than exceed the cap. */
	sh_source(&s, 1, 0, 0);
	sh_run(&s, MS);
	sh_reset_counts(&s);
	sh_run(&s, SEC / 2);
	r0 = (double)s.bytes[0] * 8 / 1e6 * 2;
	tap_ok(r0 <= 202 && r0 >= 198, "TC 0 alone stays at %.2f Mb/s", r0);
	sh_fini(&s);
}

/*
 * Under a loaded emulator the model's timer fires late; the wire must not
 * lose that time (a MAC never idles while frames wait), nor a shaper its
 * tokens: here time leaps 300 us at a time, 25 frames of the wire.
 */
static void late_timers(void)
{
	static const uint8_t bw[8] = { 50, 50 };
	struct wren_maxrate m;
	struct sh s;
	double r0, r1;

	sh_init(&s, 1000);
	sh_ets(&s, 0x03, bw);
	memset(&m, 0, sizeof(m));
	m.tc_maxrate_kbps[0] = 200000;
	sh_set(&s, WREN_AQ_OP_SET_MAXRATE, &m, sizeof(m));
	sh_source(&s, 0, 1500, 0);
	sh_source(&s, 1, 1500, 0);
	sh_run_coarse(&s, 10 * MS, 300000);
	sh_reset_counts(&s);
	sh_run_coarse(&s, SEC, 300000);
	r0 = (double)s.bytes[0] * 8 / 1e6;
	r1 = (double)s.bytes[1] * 8 / 1e6;
	tap_ok(near(wire_mbps(&s, SEC), 1000, 10),
	       "timers 300 us late: the wire still runs at %.1f Mb/s",
	       wire_mbps(&s, SEC));
	tap_ok(r0 <= 202 && r0 >= 198 && r1 > 750,
	       "timers 300 us late: TC 0 capped at %.2f Mb/s, TC 1 %.1f", r0, r1);
	sh_fini(&s);
}

static void paused_prio(void)
{
	struct sh s;
	uint64_t f3;

	sh_init(&s, 1000);
	sh_pfc_en(&s, 0x08);
	sh_source(&s, 3, 1500, 0);
	sh_source(&s, 1, 1500, 0);
	sh_run(&s, MS);
	sh_pause(&s, true, 0x08, 0xffff);
	sh_run(&s, 100000);	/* what the wire already had leaves */
	sh_reset_counts(&s);
	for (unsigned int i = 0; i < 20; i++) {
		sh_run(&s, 5 * MS);
		sh_pause(&s, true, 0x08, 0xffff);	/* refreshed */
	}
	f3 = s.frames[3];
	tap_ok(f3 == 0 && near(wire_mbps(&s, 100 * MS), 1000, 10),
	       "priority 3 paused (refreshed every 5 ms) sends nothing for "
	       "100 ms while priority 1 fills the wire (%.1f Mb/s)",
	       wire_mbps(&s, 100 * MS));
	sh_pause(&s, true, 0x08, 0);
	sh_reset_counts(&s);
	sh_run(&s, 10 * MS);
	tap_ok(s.frames[3] > 100 && s.frames[1] > 100,
	       "after XON both share the wire again (%llu / %llu frames)",
	       (unsigned long long)s.frames[3],
	       (unsigned long long)s.frames[1]);
	sh_fini(&s);
}

static void limits(void)
{
	static uint8_t f[1500];
	struct sh s;
	uint64_t err0, n = 0;

	sh_init(&s, 1000);
	memset(f, 0x02, 12);
	f[12] = 0x88;
	f[13] = 0xb5;
	/* No time passes: the FIFO fills to the hard limit, then drops. */
	err0 = sh_port_cnt(&s, WREN_CNT_TX_ERRORS);
	while (whw_port_tx_room(s.hw, 4)) {
		whw_port_xmit(s.hw, 4, f, sizeof(f));
		n++;
	}
	{
		uint64_t b0 = s.hw->sched.fifo[4].bytes, acc, drop;

		for (unsigned int i = 0; i < 200; i++)
			whw_port_xmit(s.hw, 4, f, sizeof(f));
		acc = (s.hw->sched.fifo[4].bytes - b0) / sizeof(f);
		drop = sh_port_cnt(&s, WREN_CNT_TX_ERRORS) - err0;
		tap_ok(n > 40 && n < 60 && drop > 0 && acc + drop == 200,
		       "room refused after %llu frames (64 KiB soft limit); of "
		       "200 more, %llu fit below the hard limit and %llu are "
		       "dropped and counted (tx_errors)",
		       (unsigned long long)n, (unsigned long long)acc,
		       (unsigned long long)drop);
	}
	{
		uint64_t held = s.hw->sched.fifo[4].bytes;

		tap_ok(held <= WHW_SCHED_HARD_BYTES &&
		       held > WHW_SCHED_HARD_BYTES - 1500,
		       "the FIFO holds up to its hard limit (%llu bytes)",
		       (unsigned long long)held);
	}
	/* Link down: everything waiting is dropped and counted. */
	{
		uint64_t q = s.hw->sched.frames, sent = s.frames[4];
		uint64_t ld0 = sh_port_cnt(&s, WREN_CNT_TX_DROPPED_LINK_DOWN);

		wrenhw_set_link(s.hw, false, 0);
		tap_ok(q > 0 && s.hw->sched.frames == 0 &&
		       sh_port_cnt(&s, WREN_CNT_TX_DROPPED_LINK_DOWN) - ld0 == q,
		       "link down flushes the %llu waiting frames "
		       "(tx_dropped_link_down)", (unsigned long long)q);
		wrenhw_set_link(s.hw, true, 0);
		sh_run(&s, 10 * MS);
		tap_ok(s.frames[4] == sent && whw_port_tx_room(s.hw, 4),
		       "nothing of it leaves after the link is back");
	}
	/* A reset empties the FIFOs too. */
	for (unsigned int i = 0; i < 10; i++)
		whw_port_xmit(s.hw, 2, f, sizeof(f));
	wrenhw_reset(s.hw);
	tap_ok(s.hw->sched.frames == 0 && !s.hw->sched.timer.pending,
	       "reset empties the FIFOs and stops the scheduler's timer");
	sh_fini(&s);
}

static void idle_latency(void)
{
	static uint8_t f[1500];
	struct sh s;
	unsigned int before;

	sh_init(&s, 25000);
	memset(f, 0x02, 12);
	f[12] = 0x88;
	f[13] = 0xb5;
	before = s.d->h->tx_frames;
	whw_port_xmit(s.hw, 0, f, sizeof(f));
	tap_ok(s.d->h->tx_frames == before + 1 && !s.hw->sched.frames,
	       "idle port: a frame leaves at once, nothing queued");
	/* A burst within the wire's slack leaves at once too. */
	for (unsigned int i = 0; i < 40; i++)
		whw_port_xmit(s.hw, 0, f, sizeof(f));
	tap_ok(s.d->h->tx_frames == before + 41,
	       "a burst of 40 x 1500 bytes at 25 Gb/s leaves without waiting");
	sh_fini(&s);
}

/* How far the wire runs ahead of the clock: when it is free again. */
static int64_t committed_ns(struct sh *s)
{
	return (int64_t)(s->hw->sched.link_free_ps / 1000) - (int64_t)sh_now(s);
}

/*
 * A discrete-event host (ns-3): timers fire on time, so each frame goes
 * to the wire at its start time and a PFC pause stops the very next one;
 * the default (QEMU) lets the wire run up to the slack ahead.
 */
static void discrete_clock(void)
{
	static const struct wrenhw_config cfg = {
		.mac = { 0x02, 0x00, 0x00, 0x57, 0x52, 0x01 },
		.discrete_clock = 1,
	};
	/* 4096 bytes at 100 Gb/s, preamble, FCS and gap included. */
	const int64_t frame_ns = (4096 + WHW_WIRE_OVERHEAD) * 8 / 100;
	int64_t ahead, ahead_slack;
	struct sh s;

	sh_init_cfg(&s, 100000, &cfg);
	sh_pfc_en(&s, 0x08);
	sh_source(&s, 3, 4096, 0);
	sh_run(&s, MS);
	sh_reset_counts(&s);
	sh_run(&s, MS + 123);
	tap_ok(s.max_burst == 1 && near(wire_mbps(&s, MS), 100000, 200),
	       "discrete clock: frames go one at a time at their wire start, "
	       "%.0f Mb/s on a 100 Gb/s wire", wire_mbps(&s, MS));
	ahead = committed_ns(&s);
	sh_pause(&s, true, 0x08, 0xffff);
	sh_reset_counts(&s);
	sh_run(&s, 100000);
	tap_ok(ahead >= 0 && ahead <= frame_ns && s.frames[3] == 0,
	       "... a pause stops the next frame: %lld ns on the wire when it "
	       "came (a frame is %lld), none after", (long long)ahead,
	       (long long)frame_ns);
	sh_fini(&s);

	sh_init(&s, 100000);
	sh_pfc_en(&s, 0x08);
	sh_source(&s, 3, 4096, 0);
	sh_run(&s, MS);
	sh_reset_counts(&s);
	sh_run(&s, MS + 123);
	ahead_slack = committed_ns(&s);
	tap_ok(s.max_burst > 1 && ahead_slack > frame_ns &&
	       ahead_slack <= (int64_t)WHW_SCHED_SLACK_NS + frame_ns,
	       "the default clock keeps its slack: bursts of up to %u frames, "
	       "%lld ns committed ahead", s.max_burst, (long long)ahead_slack);
	sh_fini(&s);
}

/* An Ethernet queue on a 100 Mb/s link: waits for room, loses nothing. */
static void eth_backpressure(void)
{
	struct tenv e;
	struct tq q;
	struct wren_eth_cqe c;
	uint8_t pkt[1514];
	uint32_t one[1] = { sizeof(pkt) }, done = 0, n = 400;
	uint64_t t0, ok = 0;

	env_init(&e);
	wrenhw_set_link(e.d->h->hw, true, 100);
	mk_q(&e, false, e.cq.id, 9, &q);
	memset(pkt, 0, sizeof(pkt));
	memset(pkt, 0x02, 6);
	memcpy(pkt + 6, dev_mac, 6);
	pkt[12] = 0x88;
	pkt[13] = 0xb5;
	for (uint32_t i = 0; i < n; i++)
		tx_packet(&e, &q, pkt, one, 1, NULL);
	t0 = e.d->h->now_ns;
	e.d->h->tx_frames = 0;
	q_ring(&e, &q);
	for (unsigned int it = 0;
	     it < 200000 && (done < n || e.d->h->tx_frames < n); it++) {
		th_run(e.d->h);
		while (cq_poll(&e, &e.cq, &c)) {
			done++;
			ok += c.status == 0;
		}
		if (e.d->h->timer_deadline != UINT64_MAX)
			th_advance(e.d->h, e.d->h->timer_deadline >
				   e.d->h->now_ns ? e.d->h->timer_deadline -
				   e.d->h->now_ns : 0);
	}
	{
		double ms = (double)(e.d->h->now_ns - t0) / 1e6;
		double want = n * (1514.0 + 24) * 8 / 100e6 * 1e3;

		tap_ok(done == n && ok == n && e.d->h->tx_frames == n &&
		       counter(&e, WREN_COUNTERS_PORT, 0,
			       WREN_CNT_TX_ERRORS) == 0 &&
		       counter(&e, WREN_COUNTERS_ETH_QUEUE, q.id,
			       WREN_ETHQ_CNT_DROPPED) == 0 &&
		       ms >= want - 0.2 && ms <= want * 1.01,
		       "%u x 1514 bytes on a 100 Mb/s link: all completed, all "
		       "on the wire, none dropped, the last one started at %.2f ms "
		       "(the wire needs %.2f for all)", n, ms, want);
	}
	env_fini(&e);
}

/* RC WRITE and READ on a 1 Gb/s link: paced by the port, nothing resent. */
static void rc_backpressure(void)
{
	const uint32_t len = 1u << 20;
	struct rc_env e;
	struct wren_cqe cqe = { 0 };
	uint8_t *pat;

	rc_env_init(&e, NULL);
	for (int i = 0; i < 2; i++)
		wrenhw_set_link(e.p.n[i].d->h->hw, true, 1000);
	for (int rd = 0; rd < 2; rd++) {
		struct ro_wqe w = { .opcode = rd ? WREN_WQE_RDMA_READ :
					      WREN_WQE_RDMA_WRITE,
				    .nsge = 1, .flags = WREN_WQE_F_SIGNALED };
		uint64_t t0 = e.p.n[0].d->h->now_ns;
		double ms, want = (double)len * 8 / 1e9 * 1e3;
		bool good;

		/* WRITE: ours to theirs; READ: theirs back into ours. */
		pat = rc_pattern(&e, rd ? 1 : 0, 0, len, 21 + (uint32_t)rd);
		w.sge[0] = rc_sge(&e, 0, 0, len);
		w.raddr = e.mr[1].iova;
		w.rkey = e.mr[1].key;
		ro_post_send(&e.qp[0], &w);
		/* Until its completion, in steps of 100 us. */
		good = false;
		for (unsigned int k = 0; k < 10000 && !good; k++) {
			ro_settle(&e.p, 100000);
			good = ro_cq_poll(&e.cq[0], &cqe);
		}
		ms = (double)(e.p.n[0].d->h->now_ns - t0) / 1e6;
		good = good && cqe.status == 0 &&
		       rc_same(&e, rd ? 0 : 1, 0, pat, len);
		tap_ok(good &&
		       !ro_counter(&e.p.n[0], WREN_RDMA_CNT_RETRANSMITS) &&
		       !ro_counter(&e.p.n[0],
				   WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR) &&
		       !ro_counter(&e.p.n[rd], WREN_RDMA_CNT_RETRANSMITS) &&
		       ms >= want && ms < want * 1.15,
		       "1 MiB RC %s over a 1 Gb/s link: completed, data right, "
		       "nothing resent, %.2f ms (the payload alone needs %.2f)",
		       rd ? "READ" : "WRITE", ms, want);
		free(pat);
	}
	tap_ok(!ro_counter(&e.p.n[0], WREN_RDMA_CNT_RETRANSMITS) &&
	       e.p.n[0].d->h->hw->cnt_port[WREN_CNT_TX_ERRORS] == 0 &&
	       e.p.n[1].d->h->hw->cnt_port[WREN_CNT_TX_ERRORS] == 0,
	       "no frame dropped at either port's FIFOs");
	rc_env_fini(&e);
}

void test_sched(void)
{
	ets_shares();
	strict();
	maxrate();
	late_timers();
	paused_prio();
	limits();
	idle_latency();
	discrete_clock();
	eth_backpressure();
	rc_backpressure();
}
