// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <stdlib.h>

#include "port/whw_mac_ctrl.h"
#include "port/whw_sched.h"
#include "sched_util.h"
#include "wrenhw_int.h"

#define STEP_NS	20000ull	/* sources look at the port this often */

static void on_wire(void *ctx, const void *frame, size_t len)
{
	struct sh *s = ctx;
	const uint8_t *f = frame;
	unsigned int p;

	if (len < 15 || f[12] != 0x88 || f[13] != 0xb5)
		return;		/* not one of the sources' frames */
	p = f[14] & 7;
	if (!s->frames[p])
		s->first_ns[p] = s->d->h->now_ns;
	s->bytes[p] += len;
	s->frames[p]++;
	s->last_ns[p] = s->d->h->now_ns;
	s->wire_bits += (len + WHW_WIRE_OVERHEAD) * 8ull;
	if (s->burst && s->burst_ns == s->d->h->now_ns) {
		s->burst++;
	} else {
		s->burst = 1;
		s->burst_ns = s->d->h->now_ns;
	}
	if (s->burst > s->max_burst)
		s->max_burst = s->burst;
}

void sh_init(struct sh *s, uint32_t speed_mbps)
{
	sh_init_cfg(s, speed_mbps, NULL);
}

void sh_init_cfg(struct sh *s, uint32_t speed_mbps,
		 const struct wrenhw_config *cfg)
{
	memset(s, 0, sizeof(*s));
	s->d = td_new(cfg);
	s->hw = s->d->h->hw;
	s->speed = speed_mbps;
	whw_test_set_caps(s->hw, WHW_CAPS | WHW_CAPS_DCB | WHW_CAPS_CC);
	wrenhw_set_link(s->hw, true, speed_mbps);
	td_aeq_count(s->d, WREN_EVENT_PORT_STATE);
	s->d->h->tx_hook = on_wire;
	s->d->h->tx_ctx = s;
}

void sh_fini(struct sh *s)
{
	td_free(s->d);
}

uint64_t sh_now(struct sh *s)
{
	return s->d->h->now_ns;
}

void sh_source(struct sh *s, unsigned int prio, uint32_t len,
	       uint64_t rate_kbps)
{
	s->len[prio] = len;
	s->rate_kbps[prio] = rate_kbps;
	s->fed[prio] = 0;
	s->feed_t0 = sh_now(s);
}

void sh_reset_counts(struct sh *s)
{
	memset(s->bytes, 0, sizeof(s->bytes));
	memset(s->frames, 0, sizeof(s->frames));
	s->wire_bits = 0;
	s->burst = 0;
	s->max_burst = 0;
}

static void feed(struct sh *s)
{
	static uint8_t f[WHW_SCHED_MAX_FRAME];
	uint64_t dt = sh_now(s) - s->feed_t0;

	for (unsigned int p = 0; p < WREN_NUM_PRIO; p++) {
		if (!s->len[p])
			continue;
		memset(f, 0, 15);
		memset(f, 0x02, 6);
		f[12] = 0x88;		/* IEEE local experimental 1 */
		f[13] = 0xb5;
		f[14] = (uint8_t)p;
		while (whw_port_tx_room(s->hw, (uint8_t)p)) {
			if (s->rate_kbps[p] &&
			    s->fed[p] * 8000000ull >= s->rate_kbps[p] * dt)
				break;
			whw_port_xmit(s->hw, (uint8_t)p, f, s->len[p]);
			s->fed[p] += s->len[p];
		}
	}
}

void sh_run(struct sh *s, uint64_t ns)
{
	struct th *h = s->d->h;
	uint64_t end = h->now_ns + ns;

	for (;;) {
		uint64_t next = h->now_ns + STEP_NS;

		feed(s);
		th_run(h);
		if (h->timer_deadline < next)
			next = h->timer_deadline;
		if (next < h->now_ns)
			next = h->now_ns;
		if (next > end)
			next = end;
		th_advance(h, next - h->now_ns);
		if (h->now_ns >= end) {
			feed(s);
			th_run(h);
			return;
		}
	}
}

void sh_run_coarse(struct sh *s, uint64_t ns, uint64_t step_ns)
{
	struct th *h = s->d->h;
	uint64_t end = h->now_ns + ns;

	while (h->now_ns < end) {
		feed(s);
		th_run(h);
		th_advance(h, step_ns < end - h->now_ns ? step_ns : end - h->now_ns);
	}
	feed(s);
	th_run(h);
}

bool sh_pause(struct sh *s, bool pfc, uint8_t enable, uint16_t quanta)
{
	static const uint8_t peer[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	uint16_t q[8];
	uint8_t f[WHW_MAC_CTRL_FRAME_LEN];

	for (unsigned int i = 0; i < 8; i++)
		q[i] = quanta;
	whw_mac_ctrl_build_pfc(f, peer, enable, q);
	if (!pfc) {
		/* 802.3x: opcode 1, one time, then padding. */
		memset(f + 14, 0, sizeof(f) - 14);
		f[15] = 0x01;
		f[16] = (uint8_t)(quanta >> 8);
		f[17] = (uint8_t)quanta;
	}
	return wrenhw_rx_frame(s->hw, f, sizeof(f));
}

struct td_res sh_set(struct sh *s, uint8_t op, const void *in, uint32_t len)
{
	return td_cmd(s->d, op, NULL, 0, in, len, NULL, 0);
}

int sh_ets(struct sh *s, uint8_t ets_mask, const uint8_t *bw)
{
	struct wren_ets e;

	memset(&e, 0, sizeof(e));
	for (unsigned int tc = 0; tc < WREN_NUM_TC; tc++) {
		e.tc_tsa[tc] = (ets_mask & (1u << tc)) ? WREN_TSA_ETS
						      : WREN_TSA_STRICT;
		e.tc_bw[tc] = (ets_mask & (1u << tc)) ? bw[tc] : 0;
		e.prio_tc[tc] = (uint8_t)tc;
	}
	return sh_set(s, WREN_AQ_OP_SET_ETS, &e, sizeof(e)).status;
}

int sh_pfc_en(struct sh *s, uint8_t pfc_en)
{
	struct wren_pfc p;

	memset(&p, 0, sizeof(p));
	p.pfc_en = pfc_en;
	return sh_set(s, WREN_AQ_OP_SET_PFC, &p, sizeof(p)).status;
}

static uint64_t query(struct sh *s, uint8_t set, uint32_t index,
		      unsigned int n)
{
	struct wren_aq_counters c;
	uint64_t out[128];

	memset(&c, 0, sizeof(c));
	memset(out, 0, sizeof(out));
	c.set = set;
	c.index = index;
	td_cmd(s->d, WREN_AQ_OP_QUERY_COUNTERS, &c, sizeof(c), NULL, 0, out,
	       sizeof(out));
	return n < 128 ? out[n] : 0;
}

uint64_t sh_prio_cnt(struct sh *s, unsigned int prio, unsigned int n)
{
	return query(s, WREN_COUNTERS_PRIO, 0,
		     prio * WREN_NUM_PRIO_COUNTERS + n);
}

uint64_t sh_port_cnt(struct sh *s, unsigned int n)
{
	return query(s, WREN_COUNTERS_PORT, 0, n);
}

uint64_t sh_pfc_cnt(struct sh *s, unsigned int prio, unsigned int n)
{
	return query(s, WREN_COUNTERS_PFC, prio, n);
}
