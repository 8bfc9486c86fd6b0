// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Pauses from the peer, in simulated time: PFC pause time = quanta x 512
 * bit times at the link's speed, XON, refresh, lossy priorities ignoring
 * PFC, 802.3x only with WREN_PAUSE_RX, other MAC control frames dropped,
 * the receive-side storm watchdog, and PFC / 802.3x exclusion.
 */
#include <stdlib.h>

#include "port/whw_sched.h"
#include "roce/whw_roce.h"
#include "roce_tests.h"
#include "sched_util.h"
#include "wrenhw_int.h"

#define US	1000ull
#define MS	1000000ull

static int set_pause(struct sh *s, uint8_t pause)
{
	struct wren_set_port_in in;

	memset(&in, 0, sizeof(in));
	in.mask = WREN_SET_PORT_PAUSE;
	in.pause = pause;
	return sh_set(s, WREN_AQ_OP_SET_PORT, &in, sizeof(in)).status;
}

static int set_wd(struct sh *s, uint16_t timeout_ms, uint16_t recovery_ms)
{
	struct wren_pfc_wd wd;

	memset(&wd, 0, sizeof(wd));
	wd.timeout_ms = timeout_ms;
	wd.recovery_ms = recovery_ms;
	return sh_set(s, WREN_AQ_OP_SET_PFC_WD, &wd, sizeof(wd)).status;
}

/* Priority 3 backlogged and lossless; the wire has settled. */
static void bench(struct sh *s, uint32_t speed)
{
	sh_init(s, speed);
	sh_pfc_en(s, 0x08);
	sh_source(s, 3, 1500, 0);
	sh_run(s, MS);
}

/* Pauses at @speed: quanta 1000 is 512000 / speed microseconds. */
static void pause_time(uint32_t speed)
{
	uint64_t want = 1000ull * 512000 / speed, t0;
	struct sh s;

	bench(&s, speed);
	/* What the wire had taken before the pause has been counted. */
	sh_reset_counts(&s);
	sh_pause(&s, true, 0x08, 1000);
	t0 = sh_now(&s);
	sh_run(&s, want + MS);
	tap_ok(s.frames[3] && s.first_ns[3] == t0 + want,
	       "%u Mb/s: PFC quanta 1000 holds priority 3 for %llu ns, "
	       "1000 x 512 bit times (first frame after %llu ns)", speed,
	       (unsigned long long)want,
	       (unsigned long long)(s.first_ns[3] - t0));
	tap_ok(sh_prio_cnt(&s, 3, WREN_PRIO_CNT_RX_PFC_PAUSE_US) ==
	       want / 1000 &&
	       sh_prio_cnt(&s, 3, WREN_PRIO_CNT_RX_PFC_FRAMES) == 1 &&
	       sh_pfc_cnt(&s, 3, WREN_PFC_CNT_RX_TRANSITIONS) == 1,
	       "%u Mb/s: rx_prio3_pause 1, pause_duration %llu us, one "
	       "XON->XOFF transition", speed,
	       (unsigned long long)sh_prio_cnt(&s, 3,
					       WREN_PRIO_CNT_RX_PFC_PAUSE_US));
	sh_fini(&s);
}

static void xon_refresh(void)
{
	struct sh s;
	uint64_t t0, t1;

	/* XON resumes at once. */
	bench(&s, 1000);
	sh_pause(&s, true, 0x08, 0xffff);
	sh_run(&s, 100 * US);
	sh_reset_counts(&s);
	t1 = sh_now(&s);
	sh_pause(&s, true, 0x08, 0);
	sh_run(&s, MS);
	tap_ok(s.frames[3] && s.first_ns[3] == t1 &&
	       sh_prio_cnt(&s, 3, WREN_PRIO_CNT_RX_PFC_PAUSE_US) == 100,
	       "XON after 100 us resumes priority 3 at once; 100 us counted");
	sh_fini(&s);

	/* A new pause restarts the time. */
	bench(&s, 1000);
	sh_pause(&s, true, 0x08, 1000);	/* 512 us */
	t0 = sh_now(&s);
	sh_run(&s, 300 * US);
	sh_reset_counts(&s);
	sh_pause(&s, true, 0x08, 1000);
	sh_run(&s, 2 * MS);
	tap_ok(s.first_ns[3] == t0 + 812 * US &&
	       sh_prio_cnt(&s, 3, WREN_PRIO_CNT_RX_PFC_PAUSE_US) == 812 &&
	       sh_prio_cnt(&s, 3, WREN_PRIO_CNT_RX_PFC_FRAMES) == 2 &&
	       sh_pfc_cnt(&s, 3, WREN_PFC_CNT_RX_TRANSITIONS) == 1,
	       "a second pause 300 us into the first extends it to 812 us; "
	       "2 frames, 1 transition (first frame after %llu us)",
	       (unsigned long long)((s.first_ns[3] - t0) / US));
	sh_fini(&s);
}

/* A pause still running reads as the time it has held so far. */
static void running_pause(void)
{
	uint64_t full = 0xffffull * 512, mid, end;
	struct sh s;

	bench(&s, 1000);
	sh_pause(&s, true, 0x08, 0xffff);	/* 33553920 ns at 1 Gb/s */
	sh_run(&s, 10 * MS);
	mid = sh_prio_cnt(&s, 3, WREN_PRIO_CNT_RX_PFC_PAUSE_US);
	sh_run(&s, 30 * MS);
	end = sh_prio_cnt(&s, 3, WREN_PRIO_CNT_RX_PFC_PAUSE_US);
	tap_ok(mid == 10000 && end == full / 1000,
	       "rx_prio3_pause_duration reads %llu us 10 ms into a 0xffff "
	       "pause and %llu us after it (%llu ns in all)",
	       (unsigned long long)mid, (unsigned long long)end,
	       (unsigned long long)full);
	sh_fini(&s);
}

static void lossy_and_global(void)
{
	struct sh s;
	uint64_t t0;

	bench(&s, 1000);
	sh_source(&s, 2, 1500, 0);
	sh_run(&s, MS);
	sh_reset_counts(&s);
	sh_pause(&s, true, 0x04, 0xffff);	/* priority 2: lossy */
	sh_run(&s, 5 * MS);
	tap_ok(s.frames[2] > 100 && s.frames[3] > 100 &&
	       sh_prio_cnt(&s, 2, WREN_PRIO_CNT_RX_PFC_FRAMES) == 1 &&
	       sh_prio_cnt(&s, 2, WREN_PRIO_CNT_RX_PFC_PAUSE_US) == 0 &&
	       sh_pfc_cnt(&s, 2, WREN_PFC_CNT_RX_TRANSITIONS) == 0,
	       "PFC for priority 2 (pfc_en 0) is counted but ignored");

	/* 802.3x without WREN_PAUSE_RX: counted, ignored. */
	sh_reset_counts(&s);
	tap_ok(sh_pause(&s, false, 0, 0xffff) &&
	       sh_port_cnt(&s, WREN_CNT_RX_PAUSE) == 1,
	       "802.3x pause consumed and counted (rx_pause)");
	sh_run(&s, 5 * MS);
	tap_ok(s.frames[2] > 100 && s.frames[3] > 100,
	       "without WREN_PAUSE_RX it pauses nothing");

	/* With WREN_PAUSE_RX (and PFC off) every priority stops. */
	tap_ok(sh_pfc_en(&s, 0) == WREN_AQ_STATUS_OK &&
	       set_pause(&s, WREN_PAUSE_RX) == WREN_AQ_STATUS_OK,
	       "PFC off, SET_PORT pause RX on");
	sh_reset_counts(&s);
	sh_pause(&s, false, 0, 1000);
	t0 = sh_now(&s);
	sh_run(&s, 2 * MS);
	tap_ok((s.first_ns[2] == t0 + 512 * US ||
		s.first_ns[3] == t0 + 512 * US) &&
	       s.first_ns[2] >= t0 + 512 * US &&
	       s.first_ns[3] >= t0 + 512 * US &&
	       s.first_ns[2] <= t0 + 512 * US + 30 * US &&
	       s.first_ns[3] <= t0 + 512 * US + 30 * US,
	       "802.3x with WREN_PAUSE_RX holds priorities 2 and 3 for "
	       "512 us (%llu / %llu us)",
	       (unsigned long long)((s.first_ns[2] - t0) / US),
	       (unsigned long long)((s.first_ns[3] - t0) / US));
	sh_fini(&s);
}

static void other_ctrl(void)
{
	struct sh s;
	uint8_t f[60];
	uint64_t rx0;

	sh_init(&s, 1000);
	memset(f, 0, sizeof(f));
	f[0] = 0x01;
	f[1] = 0x80;
	f[2] = 0xc2;
	f[5] = 0x01;
	f[12] = 0x88;
	f[13] = 0x08;
	f[15] = 0x02;	/* opcode 2: not pause, not PFC */
	rx0 = sh_port_cnt(&s, WREN_CNT_RX_PACKETS);
	tap_ok(!wrenhw_rx_frame(s.hw, f, sizeof(f)) &&
	       sh_port_cnt(&s, WREN_CNT_RX_PACKETS) == rx0,
	       "other MAC control frames are dropped, not passed up");
	sh_fini(&s);
}

static bool storm_event(struct sh *s, uint32_t want)
{
	struct wren_eqe e;
	bool seen = false;

	while (td_aeq_poll(s->d, &e))
		if (e.type == WREN_EVENT_PFC_STORM &&
		    e.sub == WREN_PFC_STORM_RX && e.data == want)
			seen = true;
	return seen;
}

static uint8_t dcb_storm(struct sh *s)
{
	struct wren_dcb_state st;

	memset(&st, 0, sizeof(st));
	td_cmd(s->d, WREN_AQ_OP_QUERY_DCB, NULL, 0, NULL, 0, &st, sizeof(st));
	return st.pfc_storm;
}

static void watchdog(void)
{
	struct sh s;
	uint64_t t0, t1;
	bool before = true;

	bench(&s, 1000);
	tap_ok(set_wd(&s, 10, 20) == WREN_AQ_STATUS_OK,
	       "SET_PFC_WD: timeout 10 ms, recovery 20 ms");
	td_aeq_count(s.d, WREN_EVENT_PFC_STORM);
	sh_reset_counts(&s);
	sh_pause(&s, true, 0x08, 0xffff);
	t0 = sh_now(&s);
	/* The peer keeps it paused: a refresh every 2 ms. */
	for (unsigned int i = 0; i < 5; i++) {
		sh_run(&s, 2 * MS);
		if (sh_now(&s) < t0 + 10 * MS && s.frames[3])
			before = false;
		sh_pause(&s, true, 0x08, 0xffff);
	}
	sh_run(&s, MS);
	tap_ok(before && s.frames[3] && s.first_ns[3] == t0 + 10 * MS,
	       "paused without a break: priority 3 transmits again exactly at "
	       "the 10 ms timeout (after %llu us)",
	       (unsigned long long)((s.first_ns[3] - t0) / US));
	tap_ok(storm_event(&s, 0x08) && dcb_storm(&s) == 0x08 &&
	       s.hw->dcb.rx_storm == 0x08 &&
	       sh_prio_cnt(&s, 3, WREN_PRIO_CNT_PFC_STORM_EVENTS) == 1 &&
	       sh_prio_cnt(&s, 3, WREN_PRIO_CNT_RX_PFC_PAUSE_US) == 10000,
	       "storm: PFC_STORM RX event with bitmap 0x08, pfc_storm in "
	       "QUERY_DCB, pfc_storm_events 1, 10000 us paused counted");
	/* Pauses keep coming and are ignored. */
	sh_reset_counts(&s);
	for (unsigned int i = 0; i < 10; i++) {
		sh_pause(&s, true, 0x08, 0xffff);
		sh_run(&s, MS);
	}
	t1 = sh_now(&s);
	tap_ok(s.frames[3] > 700 && s.hw->dcb.rx_storm == 0x08,
	       "in the storm state pauses are ignored (%llu frames in 10 ms)",
	       (unsigned long long)s.frames[3]);
	/* Quiet: the last pause was at t1 - 1 ms; recovery 20 ms after it. */
	sh_run(&s, 18 * MS);
	tap_ok(s.hw->dcb.rx_storm == 0x08 && !storm_event(&s, 0),
	       "still in storm 19 ms after the last pause");
	sh_run(&s, 2 * MS);
	tap_ok(s.hw->dcb.rx_storm == 0 && storm_event(&s, 0) &&
	       dcb_storm(&s) == 0,
	       "recovered 20 ms after the last pause: event with bitmap 0");
	(void)t1;
	/* Pauses are honoured again. */
	sh_reset_counts(&s);
	sh_pause(&s, true, 0x08, 1000);
	t0 = sh_now(&s);
	sh_run(&s, MS);
	tap_ok(s.first_ns[3] == t0 + 512 * US,
	       "after recovery a pause holds priority 3 again (512 us)");
	sh_fini(&s);
}

static void exclusion(void)
{
	struct sh s;

	sh_init(&s, 1000);
	tap_ok(set_pause(&s, WREN_PAUSE_RX | WREN_PAUSE_TX) ==
	       WREN_AQ_STATUS_OK, "802.3x pause on while PFC is off");
	tap_ok(sh_pfc_en(&s, 0x08) == WREN_AQ_STATUS_BAD_STATE,
	       "SET_PFC with pfc_en while 802.3x pause is on: BAD_STATE");
	tap_ok(sh_pfc_en(&s, 0) == WREN_AQ_STATUS_OK,
	       "SET_PFC with pfc_en 0 is fine");
	tap_ok(set_pause(&s, 0) == WREN_AQ_STATUS_OK &&
	       sh_pfc_en(&s, 0x08) == WREN_AQ_STATUS_OK,
	       "pause off, then PFC on priority 3");
	tap_ok(set_pause(&s, WREN_PAUSE_TX) == WREN_AQ_STATUS_BAD_STATE &&
	       set_pause(&s, 0) == WREN_AQ_STATUS_OK,
	       "SET_PORT pause on while pfc_en != 0: BAD_STATE; off is fine");
	sh_fini(&s);
}

static void roce_prio(void)
{
	struct sh s;
	struct wren_trust t;
	struct wren_av av;

	sh_init(&s, 1000);
	memset(&av, 0, sizeof(av));
	av.sl = 2;
	av.traffic_class = 26 << 2 | 2;	/* DSCP 26, ECT(0) */
	tap_ok(whw_roce_av_prio(s.hw, &av) == 2,
	       "PCP trust: a RoCE frame's priority is the AV's sl");
	memset(&t, 0, sizeof(t));
	t.trust = WREN_TRUST_DSCP;
	t.dscp2prio[26] = 5;
	sh_set(&s, WREN_AQ_OP_SET_TRUST, &t, sizeof(t));
	tap_ok(whw_roce_av_prio(s.hw, &av) == 5,
	       "DSCP trust: dscp2prio[traffic_class >> 2]");
	sh_fini(&s);

	/* On the wire: an RC WRITE's frames leave on the mapped priority. */
	{
		struct rc_env e;
		struct wren_cqe cqe;
		struct ro_wqe w = { .opcode = WREN_WQE_RDMA_WRITE, .nsge = 1,
				    .flags = WREN_WQE_F_SIGNALED };
		struct wrenhw *hw;
		uint64_t p0, p5;
		uint8_t *pat;

		rc_env_init(&e, NULL);
		hw = e.p.n[0].d->h->hw;
		/* White-box: the pair's caps do not admit SET_TRUST. */
		hw->dcb.state.trust.trust = WREN_TRUST_DSCP;
		/* the AV's class is 0 */
		hw->dcb.state.trust.dscp2prio[0] = 5;
		p0 = hw->cnt_prio[0][WREN_PRIO_CNT_TX_PRIO_PACKETS];
		pat = rc_pattern(&e, 0, 0, 65536, 5);
		w.sge[0] = rc_sge(&e, 0, 0, 65536);
		w.raddr = e.mr[1].iova;
		w.rkey = e.mr[1].key;
		ro_post_send(&e.qp[0], &w);
		ro_settle(&e.p, 1000000000ull);
		p5 = hw->cnt_prio[5][WREN_PRIO_CNT_TX_PRIO_PACKETS];
		tap_ok(rc_one_cqe(&e.cq[0], &cqe) && !cqe.status &&
		       rc_same(&e, 1, 0, pat, 65536) && p5 >= 8 &&
		       hw->cnt_prio[0][WREN_PRIO_CNT_TX_PRIO_PACKETS] == p0,
		       "DSCP trust, DSCP 0 -> priority 5: the WRITE's %llu "
		       "packets leave on priority 5, none on 0",
		       (unsigned long long)p5);
		free(pat);
		rc_env_fini(&e);
	}
}

void test_pause(void)
{
	pause_time(1000);
	pause_time(10000);
	xon_refresh();
	running_pause();
	lossy_and_global();
	other_ctrl();
	watchdog();
	exclusion();
	roce_prio();
}
