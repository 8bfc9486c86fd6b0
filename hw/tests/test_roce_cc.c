// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ECN, CNPs and DCQCN between two models, in simulated time: data leaves
 * ECT(0) with ecn_enable (IPv4 and IPv6) and Not-ECT without; the
 * harness's "switch" marks CE; the receiver sends one CNP per QP per
 * np_min_time_between_cnps_us and the CNP's every field is checked; no
 * CNP without np_enable, CNPs ignored without rp_enable; the sender's
 * first cut as QUERY_QP, the CC_RATE event and the CC counters say; a
 * rate-limited RC QP's throughput against Rc; the return to full rate;
 * RESET forgets the state; a UD sender's CNP goes to the DETH source QP.
 */
#include <stdlib.h>

#include "roce/whw_roce.h"
#include "roce_tests.h"

#define MTU4K_FRAMES	16u		/* a 64 KiB WRITE at MTU 4096 */

/* ------------------------------------------------------------ frames */

struct seen {
	uint8_t opcode;
	uint8_t tc;		/* IP traffic class */
	uint32_t dqpn, psn;
	uint8_t bth4;		/* FECN/BECN byte */
	uint32_t len, ip_len;
	uint16_t tci;		/* 0xffff: untagged */
	bool v4, parsed;
	uint64_t t;
};

#define MAX_SEEN	4096

struct cap {
	struct ro_pair *p;
	unsigned int n[2];
	struct seen s[2][MAX_SEEN];
	uint8_t cnp[2][128];	/* the last CNP each side sent, as sent */
	uint32_t cnp_len[2];
};

static void watch(void *ctx, int from, bool delivered, const uint8_t *f,
		  size_t len)
{
	struct cap *c = ctx;
	uint32_t l3 = 14, bth;
	struct whw_pkt pk;
	struct seen *s;

	if (delivered || c->n[from] >= MAX_SEEN)
		return;
	if (len >= 18 && f[12] == 0x81 && f[13] == 0)
		l3 = 18;
	if (len < l3 + 20 + 8 + 12 ||
	    (f[l3 - 2] != 0x08 && len < l3 + 40 + 8 + 12))
		return;
	s = &c->s[from][c->n[from]++];
	memset(s, 0, sizeof(*s));
	s->v4 = f[l3 - 2] == 0x08;
	s->tci = l3 == 18 ? whw_rd16be(f + 14) : 0xffff;
	s->tc = s->v4 ? f[l3 + 1] :
		(uint8_t)((f[l3] & 0x0f) << 4 | f[l3 + 1] >> 4);
	s->ip_len = s->v4 ? (uint32_t)(f[l3 + 2] << 8 | f[l3 + 3]) :
		    40u + (uint32_t)(f[l3 + 4] << 8 | f[l3 + 5]);
	bth = l3 + (s->v4 ? 20 : 40) + 8;
	s->opcode = f[bth];
	s->bth4 = f[bth + 4];
	s->dqpn = whw_rd24be(f + bth + 5);
	s->psn = whw_rd24be(f + bth + 9);
	s->len = (uint32_t)len;
	s->t = c->p->n[from].d->h->now_ns;
	/* Untagged frames only: what the parser gets after the RX engine. */
	s->parsed = l3 == 14 && whw_roce_parse(f, (uint32_t)len, &pk) ==
		    WHW_PARSE_OK;
	if (s->opcode == WHW_OP_CNP && len <= sizeof(c->cnp[from])) {
		memcpy(c->cnp[from], f, len);
		c->cnp_len[from] = (uint32_t)len;
	}
}

static unsigned int count_op(const struct cap *c, int from, uint8_t op)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < c->n[from]; i++)
		n += c->s[from][i].opcode == op;
	return n;
}

/* ------------------------------------------------------------- setup */

static struct wrenhw *hw_of(struct ro_node *n)
{
	return n->d->h->hw;
}

static void cc_caps(struct ro_pair *p)
{
	for (int i = 0; i < 2; i++)
		whw_test_set_caps(hw_of(&p->n[i]), hw_of(&p->n[i])->caps |
				  WREN_CAP_ECN | WREN_CAP_DCQCN);
}

static struct wren_cc_params cc_get(struct ro_node *n)
{
	struct wren_cc_params cc;

	memset(&cc, 0, sizeof(cc));
	td_handle_cmd(n->d, WREN_AQ_OP_QUERY_CC, 0, &cc, sizeof(cc));
	return cc;
}

static bool cc_put(struct ro_node *n, struct wren_cc_params *cc)
{
	struct td_res r;

	cc->prio_mask = 0xff;
	r = td_cmd(n->d, WREN_AQ_OP_SET_CC, NULL, 0, cc, sizeof(*cc), NULL, 0);
	if (!r.completed || r.status)
		tap_diag("SET_CC: status %d synd 0x%x", r.status, r.synd);
	return r.completed && !r.status;
}

static uint64_t cc_counter(struct ro_node *n, unsigned int which)
{
	return td_counter(n->d, WREN_COUNTERS_CC, 0, which);
}

static struct wren_query_qp_out query(struct ro_node *n, uint32_t qpn)
{
	struct wren_query_qp_out o;

	memset(&o, 0, sizeof(o));
	td_handle_cmd(n->d, WREN_AQ_OP_QUERY_QP, qpn, &o, sizeof(o));
	return o;
}

/* An RC pair with the CC capabilities and a frame watcher. */
static struct cap *cc_env(struct rc_env *e, bool ipv6)
{
	struct ro_conn c = {
		.mtu = WREN_MTU_4096, .timeout = 14, .retry = 7,
		.rnr_retry = 7, .min_rnr = 1, .rd_atomic = 4,
		.access = WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE |
			  WREN_ACCESS_REMOTE_READ,
		.ipv6 = ipv6,
	};
	struct cap *cp = calloc(1, sizeof(*cp));

	rc_env_init(e, &c);
	cc_caps(&e->p);
	cp->p = &e->p;
	e->p.watch = watch;
	e->p.watch_ctx = cp;
	return cp;
}

static void write_from0(struct rc_env *e, uint32_t len)
{
	struct ro_wqe w = { .opcode = WREN_WQE_RDMA_WRITE,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };

	w.sge[0] = rc_sge(e, 0, 0, len);
	w.raddr = e->mr[1].iova;
	w.rkey = e->mr[1].key;
	ro_post_send(&e->qp[0], &w);
}

/* Settles for @us of simulated time and drains both CQs. */
static void settle_us(struct rc_env *e, uint64_t us)
{
	ro_settle(&e->p, us * 1000);
	ro_cq_drain(&e->cq[0], NULL, 0);
	ro_cq_drain(&e->cq[1], NULL, 0);
}

static void advance_us(struct rc_env *e, uint64_t us)
{
	ro_advance(&e->p, us * 1000);
	settle_us(e, 1);
}

/* ---------------------------------------------------------------- ECN */

static void ecn_marking(bool ipv6)
{
	struct rc_env e;
	struct cap *cp = cc_env(&e, ipv6);
	struct wren_cc_params cc = cc_get(&e.p.n[0]);
	unsigned int ect = 0, data = 0, acks_ect = 0;

	cc.ecn_enable = 1;
	tap_ok(e.ok && cc_put(&e.p.n[0], &cc), "cc %s: ECN on for node 0",
	       ipv6 ? "IPv6" : "IPv4");
	write_from0(&e, 64 * 1024);
	settle_us(&e, 100);
	for (unsigned int i = 0; i < cp->n[0]; i++) {
		data += cp->s[0][i].opcode <= WHW_OP_WRITE_ONLY_IMM;
		ect += cp->s[0][i].opcode <= WHW_OP_WRITE_ONLY_IMM &&
		       (cp->s[0][i].tc & 3) == 2;
	}
	for (unsigned int i = 0; i < cp->n[1]; i++)
		acks_ect += (cp->s[1][i].tc & 3) != 0;
	tap_ok(data == MTU4K_FRAMES && ect == data && cp->n[1] && !acks_ect,
	       "cc %s: all %u data frames ECT(0) with ecn_enable, the peer's "
	       "%u ACKs Not-ECT without", ipv6 ? "IPv6" : "IPv4", data,
	       cp->n[1]);
	/* Off again: Not-ECT. */
	cc.ecn_enable = 0;
	cc_put(&e.p.n[0], &cc);
	cp->n[0] = 0;
	write_from0(&e, 64 * 1024);
	settle_us(&e, 100);
	ect = 0;
	for (unsigned int i = 0; i < cp->n[0]; i++)
		ect += (cp->s[0][i].tc & 3) != 0;
	tap_ok(cp->n[0] == MTU4K_FRAMES && !ect,
	       "cc %s: without ecn_enable data leaves Not-ECT",
	       ipv6 ? "IPv6" : "IPv4");
	free(cp);
	rc_env_fini(&e);
}

/* -------------------------------------------------------- the NP side */

static void np_pacing(void)
{
	struct rc_env e;
	struct cap *cp = cc_env(&e, false);
	struct wren_cc_params cc = cc_get(&e.p.n[0]);
	const struct seen *s = NULL;
	struct whw_pkt pk;
	uint64_t prio6;
	bool ok;

	cc.ecn_enable = 1;
	cc_put(&e.p.n[0], &cc);		/* sender: ECN, RP off */
	cc = cc_get(&e.p.n[1]);
	cc.np_enable = 1;
	cc.np_min_time_between_cnps_us = 100;
	cc_put(&e.p.n[1], &cc);
	prio6 = hw_of(&e.p.n[1])->cnt_prio[6][WREN_PRIO_CNT_TX_PRIO_PACKETS];
	e.p.ce_from = 0;
	e.p.ce_next = 1000;
	write_from0(&e, 64 * 1024);
	settle_us(&e, 50);
	tap_ok(e.p.ce_marked == MTU4K_FRAMES &&
	       count_op(cp, 1, WHW_OP_CNP) == 1,
	       "cc NP: %u CE-marked packets within np_min_time: one CNP",
	       e.p.ce_marked);
	for (unsigned int i = 0; i < cp->n[1]; i++)
		if (cp->s[1][i].opcode == WHW_OP_CNP)
			s = &cp->s[1][i];
	ok = s && s->dqpn == e.qp[0].qpn && (s->bth4 & 0x40) && !s->psn &&
	     s->ip_len == 20 + 8 + 12 + 16 + 4 && s->parsed &&
	     (s->tc >> 2) == 48 && !(s->tc & 3);
	tap_ok(ok, "cc NP: CNP opcode 0x81 to QP %u, BECN, PSN 0, 16 bytes, "
	       "ICRC valid, DSCP 48, Not-ECT", e.qp[0].qpn);
	ok = cp->cnp_len[1] && whw_roce_parse(cp->cnp[1], cp->cnp_len[1],
					      &pk) == WHW_PARSE_OK &&
	     pk.opcode == WHW_OP_CNP && !pk.paylen;
	tap_ok(ok, "cc NP: the CNP parses as a CNP without payload");
	tap_ok(hw_of(&e.p.n[1])->cnt_prio[6][WREN_PRIO_CNT_TX_PRIO_PACKETS] ==
	       prio6 + 1, "cc NP: the CNP went out on priority 6");
	/* 60 us later: still within 100 us of the CNP. */
	advance_us(&e, 60);
	write_from0(&e, 64 * 1024);
	settle_us(&e, 10);
	tap_ok(count_op(cp, 1, WHW_OP_CNP) == 1,
	       "cc NP: no second CNP 60 us after the first");
	advance_us(&e, 45);
	write_from0(&e, 64 * 1024);
	settle_us(&e, 10);
	tap_ok(count_op(cp, 1, WHW_OP_CNP) == 2,
	       "cc NP: a second CNP once 100 us have passed");
	tap_ok(cc_counter(&e.p.n[1], WREN_CC_CNT_NP_ECN_MARKED_ROCE_PACKETS) ==
	       3 * MTU4K_FRAMES &&
	       cc_counter(&e.p.n[1], WREN_CC_CNT_NP_CNP_SENT) == 2,
	       "cc NP: np_ecn_marked_roce_packets %u, np_cnp_sent 2",
	       3 * MTU4K_FRAMES);
	tap_ok(cc_counter(&e.p.n[0], WREN_CC_CNT_RP_CNP_IGNORED) == 2 &&
	       !cc_counter(&e.p.n[0], WREN_CC_CNT_RP_CNP_HANDLED) &&
	       !(query(&e.p.n[0], e.qp[0].qpn).cc_flags &
		 WREN_QP_CC_RP_ACTIVE),
	       "cc RP: without rp_enable both CNPs are ignored "
	       "(rp_cnp_ignored)");
	/* np_enable off: marks reach nobody. */
	cc.np_enable = 0;
	cc_put(&e.p.n[1], &cc);
	advance_us(&e, 200);
	write_from0(&e, 64 * 1024);
	settle_us(&e, 10);
	tap_ok(count_op(cp, 1, WHW_OP_CNP) == 2 &&
	       cc_counter(&e.p.n[1], WREN_CC_CNT_NP_ECN_MARKED_ROCE_PACKETS) ==
	       3 * MTU4K_FRAMES,
	       "cc NP: without np_enable no CNP and no count");
	free(cp);
	rc_env_fini(&e);
}

/* -------------------------------------------------------- the RP side */

/* Node @side a reaction point (defaults as @edit leaves them), the other
 * an NP. */
static struct cap *rp_env_on(struct rc_env *e, int side,
			     void (*edit)(struct wren_cc_params *, uint32_t),
			     uint32_t arg)
{
	struct cap *cp = cc_env(e, false);
	struct wren_cc_params rp = cc_get(&e->p.n[side]);
	struct wren_cc_params np = cc_get(&e->p.n[!side]);

	rp.ecn_enable = 1;
	rp.rp_enable = 1;
	if (edit)
		edit(&rp, arg);
	cc_put(&e->p.n[side], &rp);
	np.np_enable = 1;
	cc_put(&e->p.n[!side], &np);
	td_aeq_count(e->p.n[side].d, 0xff);
	return cp;
}

static struct cap *rp_env(struct rc_env *e,
			  void (*edit)(struct wren_cc_params *, uint32_t),
			  uint32_t arg)
{
	return rp_env_on(e, 0, edit, arg);
}

/* The CC_RATE events on node 0's AEQ: the last one's fields. */
static unsigned int rate_events(struct ro_node *n, uint8_t sub,
				struct wren_eqe *last)
{
	struct wren_eqe ev;
	unsigned int k = 0;

	while (td_aeq_poll(n->d, &ev)) {
		if (ev.type == WREN_EVENT_CC_RATE && ev.sub == sub) {
			k++;
			*last = ev;
		}
	}
	return k;
}

static void rp_first_cut(void)
{
	struct rc_env e;
	struct wren_query_qp_out o;
	struct wren_eqe ev;
	struct cap *cp = rp_env(&e, NULL, 0);
	const uint32_t line = RO_LINK_MBPS * 1000;
	const uint32_t first_cut = line - (uint32_t)((uint64_t)line * 1023 / 2048);
	unsigned int cuts;
	bool ok;

	e.p.ce_from = 0;
	e.p.ce_next = 1;
	write_from0(&e, 4096);
	settle_us(&e, 2);
	o = query(&e.p.n[0], e.qp[0].qpn);
	/* From the line rate: Rc - trunc(Rc * 1023 / 2048); alpha 1023. */
	ok = (o.cc_flags & WREN_QP_CC_RP_ACTIVE) &&
	     o.cc_rate_kbps == first_cut && o.cc_target_kbps == line &&
	     o.cc_alpha == 1023 && o.cc_cnps_handled == 1;
	tap_ok(ok, "cc RP: first CNP: QUERY_QP active, Rc %u Rt %u alpha %u, "
	       "1 CNP", o.cc_rate_kbps, o.cc_target_kbps, o.cc_alpha);
	cuts = rate_events(&e.p.n[0], WREN_CC_RATE_CUT, &ev);
	tap_ok(cuts == 1 && ev.data == e.qp[0].qpn && ev.data2 == first_cut &&
	       ev.data3 == 1023,
	       "cc RP: WREN_EVENT_CC_RATE CUT with qpn, Rc kb/s, alpha");
	tap_ok(cc_counter(&e.p.n[0], WREN_CC_CNT_RP_CNP_HANDLED) == 1 &&
	       cc_counter(&e.p.n[0], WREN_CC_CNT_RP_RATE_REDUCTIONS) == 1 &&
	       !cc_counter(&e.p.n[0], WREN_CC_CNT_RP_CNP_IGNORED),
	       "cc RP: rp_cnp_handled 1, rp_rate_reductions 1");
	/* Back to RESET: the QP forgets its DCQCN state. */
	{
		struct wren_modify_qp_in m;

		memset(&m, 0, sizeof(m));
		m.qpn = e.qp[0].qpn;
		m.attr_mask = WREN_QP_ATTR_STATE;
		m.new_state = WREN_QPS_RESET;
		ro_modify(&e.p.n[0], &m);
	}
	o = query(&e.p.n[0], e.qp[0].qpn);
	tap_ok(!o.cc_flags && !o.cc_rate_kbps && !o.cc_cnps_handled &&
	       !hw_of(&e.p.n[0])->timers,
	       "cc RP: RESET clears the rate, the CNP count and the timer");
	free(cp);
	rc_env_fini(&e);
}

/* Rc held at @mbps: first-CNP rate, a cut that keeps all, no increase. */
static void hold_rate(struct wren_cc_params *cc, uint32_t mbps)
{
	cc->rp_rate_on_first_cnp_mbps = mbps;
	cc->rp_min_dec_fac = 100;
	cc->rp_ai_rate_mbps = 0;
	cc->rp_hai_rate_mbps = 0;
	cc->rp_time_reset_us = 10000000;
	cc->rp_byte_reset = 0;
}

/*
 * The rate @side's frames with opcodes @lo..@hi left at: every gap is the
 * previous frame's time at Rc, so bits over the first-to-last time, in
 * Mb/s.  @frames gets their number, @span the time in ns.
 */
static double paced_mbps(const struct cap *cp, int side, uint8_t lo,
			 uint8_t hi, unsigned int *frames, uint64_t *span)
{
	uint64_t bytes = 0, t0 = 0, t1 = 0;
	unsigned int last = 0;

	*frames = 0;
	for (unsigned int i = 0; i < cp->n[side]; i++) {
		const struct seen *s = &cp->s[side][i];

		if (s->opcode < lo || s->opcode > hi)
			continue;
		if (!(*frames)++)
			t0 = s->t;
		else
			bytes += cp->s[side][last].len;
		last = i;
		t1 = s->t;
	}
	*span = t1 - t0;
	return t1 > t0 ? (double)bytes * 8 / (double)(t1 - t0) * 1000 : 0;
}

/* A limited QP's bytes over simulated time. */
static void rp_throughput(uint32_t mbps)
{
	struct rc_env e;
	struct wren_query_qp_out o;
	struct cap *cp = rp_env(&e, hold_rate, mbps);
	unsigned int frames;
	uint64_t span;
	double rate, err;

	e.p.ce_from = 0;
	e.p.ce_next = 1;
	write_from0(&e, 4096);
	settle_us(&e, 200);
	o = query(&e.p.n[0], e.qp[0].qpn);
	cp->n[0] = 0;
	write_from0(&e, 1u << 20);
	settle_us(&e, 20000);
	rate = paced_mbps(cp, 0, 0, WHW_OP_WRITE_ONLY_IMM, &frames, &span);
	err = rate / mbps - 1;
	tap_ok((o.cc_flags & WREN_QP_CC_RP_ACTIVE) &&
	       o.cc_rate_kbps == mbps * 1000 && frames == 256 &&
	       err < 0.01 && err > -0.01,
	       "cc limiter: RC QP at Rc %u Mb/s sent %u frames at %.2f Mb/s "
	       "(%.3f %% off) in %.2f ms simulated", mbps, frames, rate,
	       err * 100, (double)span / 1e6);
	free(cp);
	rc_env_fini(&e);
}

/* Node 0 READs @len from node 1. */
static void read_from1(struct rc_env *e, uint32_t len)
{
	struct ro_wqe w = { .opcode = WREN_WQE_RDMA_READ,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };

	w.sge[0] = rc_sge(e, 0, 0, len);
	w.raddr = e->mr[1].iova;
	w.rkey = e->mr[1].key;
	ro_post_send(&e->qp[0], &w);
}

/*
 * The READ responder is the one whose data congests: CE-marked responses
 * make node 0 send CNPs to node 1's QP, and node 1 paces its responses at
 * the cut rate as it would its own requests.
 */
static void rp_read_throughput(uint32_t mbps)
{
	struct rc_env e;
	struct wren_query_qp_out o;
	struct cap *cp = rp_env_on(&e, 1, hold_rate, mbps);
	unsigned int frames;
	uint64_t span;
	double rate, err;

	e.p.ce_from = 1;
	e.p.ce_next = 1;
	read_from1(&e, 4096);
	settle_us(&e, 200);
	o = query(&e.p.n[1], e.qp[1].qpn);
	cp->n[1] = 0;
	read_from1(&e, 1u << 20);
	settle_us(&e, 20000);
	rate = paced_mbps(cp, 1, WHW_OP_READ_RESP_FIRST, WHW_OP_READ_RESP_ONLY,
			  &frames, &span);
	err = rate / mbps - 1;
	tap_ok((o.cc_flags & WREN_QP_CC_RP_ACTIVE) &&
	       o.cc_rate_kbps == mbps * 1000 && frames == 256 &&
	       err < 0.01 && err > -0.01,
	       "cc limiter: READ responder at Rc %u Mb/s sent %u responses at "
	       "%.2f Mb/s (%.3f %% off) in %.2f ms simulated", mbps, frames,
	       rate, err * 100, (double)span / 1e6);
	free(cp);
	rc_env_fini(&e);
}

static void fast_increase(struct wren_cc_params *cc, uint32_t unused)
{
	(void)unused;
	cc->rp_ai_rate_mbps = 1000;
	cc->rp_time_reset_us = 20;
}

static void rp_recovery(void)
{
	struct rc_env e;
	struct wren_query_qp_out o;
	struct wren_eqe ev;
	struct cap *cp = rp_env(&e, fast_increase, 0);
	unsigned int cuts, rec;

	e.p.ce_from = 0;
	e.p.ce_next = 1;
	write_from0(&e, 4096);
	settle_us(&e, 1);
	cuts = rate_events(&e.p.n[0], WREN_CC_RATE_CUT, &ev);
	settle_us(&e, 20000);
	o = query(&e.p.n[0], e.qp[0].qpn);
	rec = rate_events(&e.p.n[0], WREN_CC_RATE_RECOVERED, &ev);
	tap_ok(cuts == 1 && rec == 1 && ev.data == e.qp[0].qpn &&
	       ev.data2 == RO_LINK_MBPS * 1000 && !o.cc_flags && !o.cc_rate_kbps &&
	       o.cc_cnps_handled == 1 && !hw_of(&e.p.n[0])->timers,
	       "cc RP: the QP recovers to the line rate (CC_RATE RECOVERED), "
	       "QUERY_QP not limited, no timer left");
	free(cp);
	rc_env_fini(&e);
}

/* CNPs 100 us apart: every one cuts, one event in the millisecond. */
static void rp_event_gap(void)
{
	struct rc_env e;
	struct wren_eqe ev;
	struct cap *cp = rp_env(&e, NULL, 0);
	uint64_t t0 = e.p.n[0].d->h->now_ns, span, handled;
	unsigned int cuts, later;

	for (int i = 0; i < 5; i++) {
		e.p.ce_from = 0;
		e.p.ce_next = 1;
		write_from0(&e, 4096);
		settle_us(&e, 1);
		if (i < 4)
			advance_us(&e, 100);
	}
	span = e.p.n[0].d->h->now_ns - t0;
	handled = cc_counter(&e.p.n[0], WREN_CC_CNT_RP_CNP_HANDLED);
	cuts = rate_events(&e.p.n[0], WREN_CC_RATE_CUT, &ev);
	advance_us(&e, WREN_CC_RATE_CUT_GAP_US);
	e.p.ce_next = 1;
	write_from0(&e, 4096);
	settle_us(&e, 1);
	later = rate_events(&e.p.n[0], WREN_CC_RATE_CUT, &ev);
	tap_ok(handled == 5 && cuts == 1 && later == 1 &&
	       span < WREN_CC_RATE_CUT_GAP_US * 1000ull,
	       "cc RP: 5 CNPs in %llu us cut the rate 5 times, one CC_RATE CUT "
	       "event; one more a ms later", (unsigned long long)(span / 1000));
	free(cp);
	rc_env_fini(&e);
}

/* UD: the CNP goes to the sender's QP named in the DETH. */
static void ud_cnp(void)
{
	struct ro_pair p;
	struct ro_cq cq[2];
	struct ro_qp qp[2];
	struct ro_mr mr[2];
	struct wren_cc_params cc;
	struct wren_query_qp_out o;
	struct cap *cp = calloc(1, sizeof(*cp));
	struct ro_wqe w = { .opcode = WREN_WQE_SEND,
			    .flags = WREN_WQE_F_SIGNALED, .nsge = 1 };
	struct wren_wqe_sge s;
	uint32_t ah;
	const struct seen *c = NULL;

	ro_pair_init(&p);
	cc_caps(&p);
	for (int i = 0; i < 2; i++) {
		struct ro_qp_opts op = { .type = WREN_QPT_UD };

		ro_cq_create(&p.n[i], &cq[i], 8, 0);
		op.scq = op.rcq = cq[i].cqn;
		ro_qp_create(&p.n[i], &qp[i], &op);
		ro_ud_ready(&p.n[i], &qp[i], 0x1234);
		ro_mr_reg(&p.n[i], &mr[i], p.n[i].pd, 0x40000, 65536,
			  WREN_ACCESS_LOCAL_WRITE, 12, false);
	}
	ah = (uint32_t)ro_ah_create(&p, 0, true);
	cc = cc_get(&p.n[0]);
	cc.ecn_enable = 1;
	cc.rp_enable = 1;
	cc_put(&p.n[0], &cc);
	cc = cc_get(&p.n[1]);
	cc.np_enable = 1;
	cc_put(&p.n[1], &cc);
	cp->p = &p;
	p.watch = watch;
	p.watch_ctx = cp;
	s = (struct wren_wqe_sge){ .addr = mr[1].iova, .length = 2048,
				   .lkey = mr[1].key };
	ro_post_recv(&qp[1], &s, 1);
	w.ah = ah;
	w.dqpn = qp[1].qpn;
	w.qkey = 0x1234;
	w.sge[0] = (struct wren_wqe_sge){ .addr = mr[0].iova, .length = 1000,
					  .lkey = mr[0].key };
	p.ce_from = 0;
	p.ce_next = 1;
	ro_post_send(&qp[0], &w);
	ro_settle(&p, 2000);
	for (unsigned int i = 0; i < cp->n[1]; i++)
		if (cp->s[1][i].opcode == WHW_OP_CNP)
			c = &cp->s[1][i];
	o = query(&p.n[0], qp[0].qpn);
	tap_ok(p.ce_marked == 1 && c && c->dqpn == qp[0].qpn && c->parsed &&
	       !c->v4 && (c->tc >> 2) == 48 &&
	       (o.cc_flags & WREN_QP_CC_RP_ACTIVE) && o.cc_cnps_handled == 1,
	       "cc UD (IPv6): CNP to the DETH source QP %u, which cuts",
	       qp[0].qpn);
	free(cp);
	ro_mr_free(&mr[0]);
	ro_mr_free(&mr[1]);
	ro_pair_fini(&p);
}

/* @side's QP back to RESET and up again along a VLAN-tagged AV (sl 0). */
static bool reconnect_vlan(struct rc_env *e, int side, uint16_t vid)
{
	const struct ro_node *peer = &e->p.n[!side];
	struct ro_node *n = &e->p.n[side];
	struct wren_modify_qp_in m;
	bool ok;

	memset(&m, 0, sizeof(m));
	m.qpn = e->qp[side].qpn;
	m.attr_mask = WREN_QP_ATTR_STATE;
	m.new_state = WREN_QPS_RESET;
	ok = !ro_modify(n, &m);
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_ACCESS_FLAGS;
	m.new_state = WREN_QPS_INIT;
	m.access_flags = WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE;
	ok = ok && !ro_modify(n, &m);
	memset(&m, 0, sizeof(m));
	m.qpn = e->qp[side].qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_AV |
		      WREN_QP_ATTR_PATH_MTU | WREN_QP_ATTR_DEST_QPN |
		      WREN_QP_ATTR_RQ_PSN | WREN_QP_ATTR_MAX_DEST_RD_ATOMIC |
		      WREN_QP_ATTR_MIN_RNR_TIMER;
	m.new_state = WREN_QPS_RTR;
	m.av.gid_index = 0;
	m.av.hop_limit = 64;
	m.av.flags = WREN_AV_F_IPV4 | WREN_AV_F_VLAN;
	m.av.vlan_id = vid;
	memcpy(m.av.dgid, peer->gid4, 16);
	memcpy(m.av.dmac, peer->mac, 6);
	m.path_mtu = WREN_MTU_4096;
	m.dest_qpn = e->qp[!side].qpn;
	m.rq_psn = 0x500;
	m.max_dest_rd_atomic = 1;
	m.min_rnr_timer = 1;
	ok = ok && !ro_modify(n, &m);
	memset(&m, 0, sizeof(m));
	m.qpn = e->qp[side].qpn;
	m.attr_mask = WREN_QP_ATTR_STATE | WREN_QP_ATTR_TIMEOUT |
		      WREN_QP_ATTR_RETRY_CNT | WREN_QP_ATTR_RNR_RETRY |
		      WREN_QP_ATTR_SQ_PSN | WREN_QP_ATTR_MAX_QP_RD_ATOMIC;
	m.new_state = WREN_QPS_RTS;
	m.timeout = 14;
	m.retry_cnt = 7;
	m.rnr_retry = 7;
	m.sq_psn = 0x500;
	m.max_rd_atomic = 1;
	return ok && !ro_modify(n, &m);
}

/* Tagged RC: the CNP's PCP is np_cnp_prio, the data's stays sl. */
static void np_vlan_pcp(void)
{
	struct rc_env e;
	struct cap *cp = cc_env(&e, false);
	struct wren_cc_params cc = cc_get(&e.p.n[0]);
	bool ok = reconnect_vlan(&e, 0, 7) && reconnect_vlan(&e, 1, 7);
	uint16_t tci_data = 0xffff, tci_cnp = 0xffff;

	cc.ecn_enable = 1;
	cc_put(&e.p.n[0], &cc);
	cc = cc_get(&e.p.n[1]);
	cc.np_enable = 1;
	cc_put(&e.p.n[1], &cc);
	cp->n[0] = cp->n[1] = 0;
	e.p.ce_from = 0;
	e.p.ce_next = 1;
	write_from0(&e, 4096);
	settle_us(&e, 10);
	for (unsigned int i = 0; i < cp->n[0]; i++)
		if (cp->s[0][i].opcode == WHW_OP_WRITE_ONLY)
			tci_data = cp->s[0][i].tci;
	for (unsigned int i = 0; i < cp->n[1]; i++)
		if (cp->s[1][i].opcode == WHW_OP_CNP)
			tci_cnp = cp->s[1][i].tci;
	tap_ok(ok && e.p.ce_marked == 1 && tci_data == 7 &&
	       tci_cnp == (6u << 13 | 7),
	       "cc NP: tagged CNP with PCP 6 in VLAN 7 (data: PCP 0), "
	       "TCI 0x%04x", tci_cnp);
	free(cp);
	rc_env_fini(&e);
}

void test_roce_cc(void)
{
	ecn_marking(false);
	ecn_marking(true);
	np_pacing();
	np_vlan_pcp();
	rp_first_cut();
	rp_throughput(1000);
	rp_throughput(3000);
	rp_read_throughput(1000);
	rp_recovery();
	rp_event_gap();
	ud_cnp();
}
