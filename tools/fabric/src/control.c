// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "control.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pfc.h"
#include "pfc_frame.h"

struct ctl_ctx {
	struct fabric *f;
	struct outbuf *out;
	char err[200];
};

struct ctl_command {
	const char *name;
	int min_args;
	int max_args;
	const char *usage;
	/* 0 on success; otherwise fills ctx->err */
	int (*run)(struct ctl_ctx *c, int argc, char **argv);
};

static void out_printf(struct outbuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out_printf(struct outbuf *o, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	outbuf_append(o, line, (size_t)n);
}

static int fail(struct ctl_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct ctl_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return -1;
}

static bool parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end || x > max)
		return false;
	*v = x;
	return true;
}

/* A probability as a fraction ("0.01") or a percentage ("1%"). */
static bool parse_probability(const char *s, double *p)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(s, &end);
	if (errno || end == s)
		return false;
	if (*end == '%') {
		x /= 100.0;
		end++;
	}
	if (*end || !(x >= 0.0 && x <= 1.0))
		return false;
	*p = x;
	return true;
}

/* "all" or one port number: sets [*first, *last]. */
static int parse_ports(struct ctl_ctx *c, const char *s, unsigned *first,
		       unsigned *last)
{
	uint64_t v;

	if (strcmp(s, "all") == 0) {
		*first = 0;
		*last = c->f->nports - 1;
		return 0;
	}
	if (!parse_u64(s, c->f->nports - 1, &v))
		return fail(c, "bad port '%s' (0..%u or all)", s,
			    c->f->nports - 1);
	*first = *last = (unsigned)v;
	return 0;
}

static int parse_on_off(struct ctl_ctx *c, const char *s, const char *on,
			const char *off, bool *val)
{
	if (strcmp(s, on) == 0)
		*val = true;
	else if (strcmp(s, off) == 0)
		*val = false;
	else
		return fail(c, "expected %s or %s, got '%s'", on, off, s);
	return 0;
}

static void print_port_stats(struct ctl_ctx *c, const struct fabric_port *p)
{
	const struct port_stats *s = &p->st;
	struct outbuf *o = c->out;
	unsigned n = p->index;
	const struct { const char *key; uint64_t val; } rows[] = {
		{ "connected", p->connected },
		{ "link_up", p->link_up },
		{ "rate_mbps", p->egress.rate_mbps },
		{ "rx_frames", s->rx_frames },
		{ "rx_bytes", s->rx_bytes },
		{ "tx_frames", s->tx_frames },
		{ "tx_bytes", s->tx_bytes },
		{ "drop_runt", s->drop_runt },
		{ "drop_reserved", s->drop_reserved },
		{ "drop_rx_link_down", s->drop_rx_link_down },
		{ "drop_rx_loss", s->drop_rx_loss },
		{ "drop_filtered", s->drop_filtered },
		{ "drop_tx_link_down", s->drop_tx_link_down },
		{ "drop_no_peer", s->drop_no_peer },
		{ "drop_queue_full", s->drop_queue_full },
		{ "drop_tx_loss", s->drop_tx_loss },
		{ "drop_send_fail", s->drop_send_fail },
		{ "rx_corrupted", s->rx_corrupted },
		{ "tx_corrupted", s->tx_corrupted },
		{ "tx_duplicated", s->tx_duplicated },
		{ "tx_held", s->tx_held },
		{ "tx_reordered", s->tx_reordered },
		{ "flooded", s->flooded },
		{ "mcast_reports", s->mcast_reports },
		{ "mcast_to_members", s->mcast_to_members },
		{ "mcast_groups", snoop_port_groups(&c->f->snoop, n) },
		{ "phy_sent", s->phy_sent },
		{ "bad_stream", s->bad_stream },
		{ "connects", s->connects },
		{ "pcap_records", p->pcap.records },
		{ "rx_pfc_frames", s->rx_pfc_frames },
		{ "rx_pause_frames", s->rx_pause_frames },
		{ "rx_mac_ctrl_other", s->rx_mac_ctrl_other },
		{ "tx_pfc_frames", s->tx_pfc_frames },
		{ "tx_pfc_fail", s->tx_pfc_fail },
	};
	uint64_t now = c->f->io.now_ns(c->f->io.ctx);

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		out_printf(o, "port %u %s %" PRIu64 "\n", n, rows[i].key,
			   rows[i].val);
	out_printf(o, "port %u loss %g\n", n, p->loss);
	out_printf(o, "port %u corrupt %g\n", n, p->corrupt);
	out_printf(o, "port %u duplicate %g\n", n, p->duplicate);
	out_printf(o, "port %u reorder %g\n", n, p->reorder);
	out_printf(o, "port %u pcap %s\n", n,
		   pcap_is_open(&p->pcap) ? "on" : "off");
	for (int qi = 0; qi < FABRIC_PRIOS; qi++) {
		const struct egress_queue *q = &p->egress.q[qi];
		const struct pfc_prio *pp = &p->pfc.prio[qi];
		const struct { const char *key; uint64_t val; } qrows[] = {
			{ "depth_frames", q->depth_frames },
			{ "depth_bytes", q->depth_bytes },
			{ "max_depth_bytes", q->st.max_depth_bytes },
			{ "limit_frames", q->limit_frames },
			{ "limit_bytes", q->limit_bytes },
			{ "enq_frames", q->st.enq_frames },
			{ "enq_bytes", q->st.enq_bytes },
			{ "tx_frames", q->st.tx_frames },
			{ "tx_bytes", q->st.tx_bytes },
			{ "drop_full_frames", q->st.drop_full_frames },
			{ "drop_full_bytes", q->st.drop_full_bytes },
			{ "drop_flush_frames", q->st.drop_flush_frames },
			{ "ingress_bytes", p->pfc.ingress_bytes[qi] },
			{ "ingress_max_bytes", pp->ingress_max_bytes },
			{ "drop_lossless_frames", pp->drop_lossless_frames },
			{ "drop_lossless_bytes", pp->drop_lossless_bytes },
			{ "pfc_tx_xoff", pp->tx_xoff },
			{ "pfc_tx_xon", pp->tx_xon },
			{ "pfc_tx_refresh", pp->tx_refresh },
			{ "pfc_tx_active", pp->xoff_active },
			{ "tx_pause_us",
			  pfc_tx_pause_ns(&p->pfc, qi, now) / 1000u },
			{ "pfc_rx_xoff", q->st.pfc_rx_xoff },
			{ "pfc_rx_xon", q->st.pfc_rx_xon },
			{ "rx_paused", egress_queue_paused(q, now) },
			{ "rx_pause_us", egress_pause_ns(q, now) / 1000u },
			{ "ecn_marked", q->st.ecn_marked },
			{ "drop_red_frames", q->st.drop_red_frames },
			{ "drop_wd_frames", q->st.drop_wd_frames },
			{ "wd_storm", q->storm },
			{ "wd_storms", q->st.wd_storms },
			{ "wd_restores", q->st.wd_restores },
		};

		for (size_t i = 0; i < sizeof(qrows) / sizeof(qrows[0]); i++)
			out_printf(o, "port %u q%d_%s %" PRIu64 "\n", n, qi,
				   qrows[i].key, qrows[i].val);
	}
}

static int cmd_stats(struct ctl_ctx *c, int argc, char **argv)
{
	struct fabric *f = c->f;
	uint64_t now = f->io.now_ns(f->io.ctx);
	unsigned first = 0, last = f->nports - 1;

	if (argc == 1 && parse_ports(c, argv[0], &first, &last) < 0)
		return -1;
	out_printf(c->out, "fabric ports %u\n", f->nports);
	out_printf(c->out, "fabric mac_entries %u\n",
		   mac_table_count(&f->macs, now));
	out_printf(c->out, "fabric mac_learn_full %" PRIu64 "\n",
		   f->macs.learn_full);
	out_printf(c->out, "fabric mac_moves %" PRIu64 "\n", f->macs.moves);
	for (unsigned i = first; i <= last; i++)
		print_port_stats(c, &f->ports[i]);
	return 0;
}

static int cmd_link(struct ctl_ctx *c, int argc, char **argv)
{
	unsigned first, last;
	bool up = false;

	(void)argc;
	if (parse_ports(c, argv[0], &first, &last) < 0 ||
	    parse_on_off(c, argv[1], "up", "down", &up) < 0)
		return -1;
	for (unsigned i = first; i <= last; i++)
		fabric_set_link(c->f, i, up);
	return 0;
}

/* The wire faults a port's link injects (struct fabric_port). */
enum wire_fault { FAULT_LOSS, FAULT_CORRUPT, FAULT_DUPLICATE, FAULT_REORDER };

static int set_probability(struct ctl_ctx *c, char **argv, enum wire_fault w)
{
	unsigned first, last;
	double p;

	if (parse_ports(c, argv[0], &first, &last) < 0)
		return -1;
	if (!parse_probability(argv[1], &p))
		return fail(c, "bad probability '%s' (0..1 or N%%)", argv[1]);
	for (unsigned i = first; i <= last; i++) {
		struct fabric_port *port = &c->f->ports[i];

		switch (w) {
		case FAULT_LOSS:
			port->loss = p;
			break;
		case FAULT_CORRUPT:
			port->corrupt = p;
			break;
		case FAULT_DUPLICATE:
			port->duplicate = p;
			break;
		case FAULT_REORDER:
			port->reorder = p;
			break;
		}
	}
	return 0;
}

static int cmd_loss(struct ctl_ctx *c, int argc, char **argv)
{
	(void)argc;
	return set_probability(c, argv, FAULT_LOSS);
}

static int cmd_corrupt(struct ctl_ctx *c, int argc, char **argv)
{
	(void)argc;
	return set_probability(c, argv, FAULT_CORRUPT);
}

static int cmd_duplicate(struct ctl_ctx *c, int argc, char **argv)
{
	(void)argc;
	return set_probability(c, argv, FAULT_DUPLICATE);
}

static int cmd_reorder(struct ctl_ctx *c, int argc, char **argv)
{
	(void)argc;
	return set_probability(c, argv, FAULT_REORDER);
}

static int cmd_rate(struct ctl_ctx *c, int argc, char **argv)
{
	unsigned first, last;
	uint64_t mbps;

	(void)argc;
	if (parse_ports(c, argv[0], &first, &last) < 0)
		return -1;
	if (!parse_u64(argv[1], FABRIC_MAX_RATE_MBPS, &mbps) || mbps == 0)
		return fail(c, "bad rate '%s' (1..%u Mb/s)", argv[1],
			    FABRIC_MAX_RATE_MBPS);
	for (unsigned i = first; i <= last; i++)
		fabric_set_rate(c->f, i, (uint32_t)mbps);
	return 0;
}

static int cmd_pcap(struct ctl_ctx *c, int argc, char **argv)
{
	unsigned first, last;
	bool on = false;

	(void)argc;
	if (parse_ports(c, argv[0], &first, &last) < 0 ||
	    parse_on_off(c, argv[1], "on", "off", &on) < 0)
		return -1;
	if (on && !c->f->pcap_dir[0])
		return fail(c, "no capture directory (start with --pcap-dir)");
	for (unsigned i = first; i <= last; i++)
		if (fabric_set_pcap(c->f, i, on) < 0)
			return fail(c, "cannot open capture for port %u: %s",
				    i, strerror(errno));
	return 0;
}

static int cmd_qlimit(struct ctl_ctx *c, int argc, char **argv)
{
	unsigned first, last, qfirst = 0, qlast = FABRIC_PRIOS - 1;
	uint64_t q, bytes, frames = 0;

	if (parse_ports(c, argv[0], &first, &last) < 0)
		return -1;
	if (strcmp(argv[1], "all") != 0) {
		if (!parse_u64(argv[1], FABRIC_PRIOS - 1, &q))
			return fail(c, "bad queue '%s' (0..7 or all)", argv[1]);
		qfirst = qlast = (unsigned)q;
	}
	if (!parse_u64(argv[2], UINT32_MAX, &bytes) || bytes == 0)
		return fail(c, "bad byte limit '%s'", argv[2]);
	if (argc == 4 &&
	    (!parse_u64(argv[3], UINT32_MAX, &frames) || frames == 0))
		return fail(c, "bad frame limit '%s'", argv[3]);
	for (unsigned i = first; i <= last; i++) {
		for (unsigned qi = qfirst; qi <= qlast; qi++) {
			struct egress_queue *eq = &c->f->ports[i].egress.q[qi];

			eq->limit_bytes = bytes;
			if (frames)
				eq->limit_frames = (uint32_t)frames;
		}
	}
	return 0;
}

static int cmd_dscp_map(struct ctl_ctx *c, int argc, char **argv)
{
	uint64_t dscp, prio;

	if (argc == 0) {
		for (int d = 0; d < DSCP_COUNT; d++)
			out_printf(c->out, "dscp %d prio %u\n", d,
				   c->f->dscp_map[d]);
		return 0;
	}
	if (argc == 1) {
		if (strcmp(argv[0], "default") != 0)
			return fail(c, "usage: dscp-map [default | <dscp> <prio>]");
		dscp_map_default(c->f->dscp_map);
		return 0;
	}
	if (!parse_u64(argv[0], DSCP_COUNT - 1, &dscp))
		return fail(c, "bad dscp '%s' (0..63)", argv[0]);
	if (!parse_u64(argv[1], FABRIC_PRIOS - 1, &prio))
		return fail(c, "bad priority '%s' (0..7)", argv[1]);
	c->f->dscp_map[dscp] = (uint8_t)prio;
	return 0;
}

static int cmd_macs(struct ctl_ctx *c, int argc, char **argv)
{
	struct mac_table *t = &c->f->macs;
	uint64_t now = c->f->io.now_ns(c->f->io.ctx);

	(void)argc;
	(void)argv;
	for (int b = 0; b < MAC_TABLE_BUCKETS; b++) {
		for (int w = 0; w < MAC_TABLE_WAYS; w++) {
			const struct mac_entry *e = &t->e[b][w];
			const uint8_t *m = e->mac;

			if (!e->valid || now - e->last_seen_ns >= t->age_ns)
				continue;
			out_printf(c->out,
				   "mac %02x:%02x:%02x:%02x:%02x:%02x port %d age_ms %" PRIu64 "\n",
				   m[0], m[1], m[2], m[3], m[4], m[5], e->port,
				   (now - e->last_seen_ns) / 1000000u);
		}
	}
	return 0;
}

static int cmd_seed(struct ctl_ctx *c, int argc, char **argv)
{
	uint64_t seed;

	(void)argc;
	if (!parse_u64(argv[0], UINT64_MAX, &seed))
		return fail(c, "bad seed '%s'", argv[0]);
	fabric_reseed(c->f, seed);
	return 0;
}

/* "<port|all> <prio|all>" at argv[0], argv[1]. */
static int parse_port_prio(struct ctl_ctx *c, char **argv, unsigned *first,
			   unsigned *last, unsigned *pfirst, unsigned *plast)
{
	uint64_t v;

	if (parse_ports(c, argv[0], first, last) < 0)
		return -1;
	*pfirst = 0;
	*plast = FABRIC_PRIOS - 1;
	if (strcmp(argv[1], "all") == 0)
		return 0;
	if (!parse_u64(argv[1], FABRIC_PRIOS - 1, &v))
		return fail(c, "bad priority '%s' (0..7 or all)", argv[1]);
	*pfirst = *plast = (unsigned)v;
	return 0;
}

/* Options after the on|off word come as "<key> <value>" pairs. */
static int check_pairs(struct ctl_ctx *c, int argc, int from)
{
	if ((argc - from) % 2)
		return fail(c, "options come as <key> <value> pairs");
	return 0;
}

static int cmd_pfc(struct ctl_ctx *c, int argc, char **argv)
{
	unsigned first, last, pfirst, plast;
	uint64_t xoff = 0, xon = 0, headroom = 0, quanta = 0, v;
	bool have_xoff = false, have_xon = false, have_head = false;
	bool on = false;

	if (parse_port_prio(c, argv, &first, &last, &pfirst, &plast) < 0 ||
	    parse_on_off(c, argv[2], "on", "off", &on) < 0 ||
	    check_pairs(c, argc, 3) < 0)
		return -1;
	for (int i = 3; i < argc; i += 2) {
		const char *k = argv[i];

		if (!parse_u64(argv[i + 1], UINT32_MAX, &v))
			return fail(c, "bad value '%s' for %s", argv[i + 1], k);
		if (strcmp(k, "xoff") == 0) {
			xoff = v;
			have_xoff = true;
		} else if (strcmp(k, "xon") == 0) {
			xon = v;
			have_xon = true;
		} else if (strcmp(k, "headroom") == 0) {
			headroom = v;
			have_head = true;
		} else if (strcmp(k, "quanta") == 0) {
			if (!v || v > PFC_MAX_QUANTA)
				return fail(c, "quanta must be 1..%u",
					    PFC_MAX_QUANTA);
			quanta = v;
		} else {
			return fail(c, "unknown option '%s' (xoff, xon, headroom, quanta)",
				    k);
		}
	}
	/* check every target first: a refused command changes nothing */
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = first; i <= last; i++) {
			for (unsigned p = pfirst; p <= plast; p++) {
				struct pfc_prio *pp =
					&c->f->ports[i].pfc.prio[p];
				uint64_t nxoff = have_xoff ? xoff : pp->xoff;
				uint64_t nxon = have_xon ? xon : pp->xon;
				uint64_t nhead = have_head ? headroom :
							     pp->headroom;

				if (pass == 0) {
					if (fabric_check_lossless(nxoff, nxon,
								  nhead, c->err,
								  sizeof(c->err)) < 0)
						return -1;
					continue;
				}
				if (quanta)
					pp->quanta = (uint16_t)quanta;
				fabric_set_lossless(c->f, i, p, on, nxoff, nxon,
						    nhead);
			}
		}
	}
	return 0;
}

static int cmd_ecn(struct ctl_ctx *c, int argc, char **argv)
{
	unsigned first, last, qfirst, qlast;
	struct red_config red;
	bool on = false, have_k = false;
	uint64_t v;

	if (parse_port_prio(c, argv, &first, &last, &qfirst, &qlast) < 0 ||
	    parse_on_off(c, argv[2], "on", "off", &on) < 0 ||
	    check_pairs(c, argc, 3) < 0)
		return -1;
	/* options start from the first target's settings */
	red = c->f->ports[first].egress.q[qfirst].red;
	red.enabled = on;
	for (int i = 3; i < argc; i += 2) {
		const char *k = argv[i], *val = argv[i + 1];

		if (strcmp(k, "kmin") == 0 || strcmp(k, "kmax") == 0) {
			if (!parse_u64(val, FABRIC_MAX_BUFFER, &v))
				return fail(c, "bad %s '%s'", k, val);
			if (strcmp(k, "kmin") == 0)
				red.kmin = v;
			else
				red.kmax = v;
			have_k = true;
		} else if (strcmp(k, "pmax") == 0) {
			if (!parse_probability(val, &red.pmax))
				return fail(c, "bad pmax '%s' (0..1 or N%%)",
					    val);
		} else if (strcmp(k, "nonect") == 0) {
			if (parse_on_off(c, val, "drop", "pass",
					 &red.drop_not_ect) < 0)
				return -1;
		} else {
			return fail(c, "unknown option '%s' (kmin, kmax, pmax, nonect)",
				    k);
		}
	}
	if (on && !have_k && !red.kmax)
		return fail(c, "ecn on needs kmin and kmax");
	if (fabric_check_red(&red, c->err, sizeof(c->err)) < 0)
		return -1;
	for (unsigned i = first; i <= last; i++)
		for (unsigned q = qfirst; q <= qlast; q++)
			c->f->ports[i].egress.q[q].red = red;
	return 0;
}

static int cmd_pfcwd(struct ctl_ctx *c, int argc, char **argv)
{
	unsigned first, last, qfirst, qlast;
	struct pfcwd_config wd;
	bool on = false, fwd = false;
	uint64_t v;

	if (parse_port_prio(c, argv, &first, &last, &qfirst, &qlast) < 0 ||
	    parse_on_off(c, argv[2], "on", "off", &on) < 0 ||
	    check_pairs(c, argc, 3) < 0)
		return -1;
	wd = c->f->ports[first].egress.q[qfirst].wd;
	if (!wd.detect_ns)
		wd.detect_ns = PFCWD_DEFAULT_DETECT_MS * 1000000ull;
	if (!wd.restore_ns)
		wd.restore_ns = PFCWD_DEFAULT_RESTORE_MS * 1000000ull;
	for (int i = 3; i < argc; i += 2) {
		const char *k = argv[i], *val = argv[i + 1];

		if (strcmp(k, "detect") == 0 || strcmp(k, "restore") == 0) {
			if (!parse_u64(val, FABRIC_MAX_PFCWD_NS / 1000000u, &v) ||
			    !v)
				return fail(c, "bad %s '%s' (ms)", k, val);
			if (k[0] == 'd')
				wd.detect_ns = v * 1000000u;
			else
				wd.restore_ns = v * 1000000u;
		} else if (strcmp(k, "action") == 0) {
			if (parse_on_off(c, val, "forward", "drop", &fwd) < 0)
				return -1;
			wd.action = fwd ? PFCWD_FORWARD : PFCWD_DROP;
		} else {
			return fail(c, "unknown option '%s' (detect, restore, action)",
				    k);
		}
	}
	if (!on)
		wd.detect_ns = 0;
	if (fabric_check_pfcwd(&wd, c->err, sizeof(c->err)) < 0)
		return -1;
	for (unsigned i = first; i <= last; i++)
		for (unsigned q = qfirst; q <= qlast; q++)
			c->f->ports[i].egress.q[q].wd = wd;
	return 0;
}

static int cmd_ets(struct ctl_ctx *c, int argc, char **argv)
{
	uint8_t weight[FABRIC_PRIOS] = { 0 };
	unsigned first, last;
	uint64_t v;

	if (parse_ports(c, argv[0], &first, &last) < 0)
		return -1;
	if (argc == 2 && strcmp(argv[1], "strict") != 0)
		return fail(c, "usage: ets <port|all> strict | <w0> .. <w7>");
	if (argc != 2 && argc != 1 + FABRIC_PRIOS)
		return fail(c, "ets needs eight weights, one per queue");
	for (int q = 0; argc > 2 && q < FABRIC_PRIOS; q++) {
		if (!parse_u64(argv[1 + q], EGRESS_MAX_WEIGHT, &v))
			return fail(c, "bad weight '%s' (0 strict, 1..%u)",
				    argv[1 + q], EGRESS_MAX_WEIGHT);
		weight[q] = (uint8_t)v;
	}
	for (unsigned i = first; i <= last; i++)
		egress_set_weights(&c->f->ports[i].egress, weight);
	return 0;
}

static int cmd_qos(struct ctl_ctx *c, int argc, char **argv)
{
	unsigned first = 0, last = c->f->nports - 1;

	if (argc == 1 && parse_ports(c, argv[0], &first, &last) < 0)
		return -1;
	for (unsigned i = first; i <= last; i++) {
		for (int q = 0; q < FABRIC_PRIOS; q++) {
			const struct pfc_prio *pp = &c->f->ports[i].pfc.prio[q];
			const struct egress_queue *eq =
				&c->f->ports[i].egress.q[q];
			const struct { const char *key; uint64_t val; } rows[] = {
				{ "lossless", pp->lossless },
				{ "xoff", pp->xoff },
				{ "xon", pp->xon },
				{ "headroom", pp->headroom },
				{ "quanta", pp->quanta },
				{ "ets_weight", c->f->ports[i].egress.weight[q] },
				{ "ecn", eq->red.enabled },
				{ "kmin", eq->red.kmin },
				{ "kmax", eq->red.kmax },
				{ "nonect_drop", eq->red.drop_not_ect },
				{ "wd", eq->wd.detect_ns != 0 },
				{ "wd_detect_ms", eq->wd.detect_ns / 1000000u },
				{ "wd_restore_ms", eq->wd.restore_ns / 1000000u },
			};

			for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
				out_printf(c->out, "port %u q%d_%s %" PRIu64 "\n",
					   i, q, rows[r].key, rows[r].val);
			out_printf(c->out, "port %u q%d_pmax %g\n", i, q,
				   eq->red.pmax);
			out_printf(c->out, "port %u q%d_wd_action %s\n", i, q,
				   eq->wd.action == PFCWD_FORWARD ? "forward" :
								    "drop");
		}
	}
	return 0;
}

static int cmd_qdepth(struct ctl_ctx *c, int argc, char **argv)
{
	unsigned first, last, qfirst = 0, qlast = FABRIC_PRIOS - 1;
	uint64_t v;

	if (parse_ports(c, argv[0], &first, &last) < 0)
		return -1;
	if (argc == 2) {
		if (!parse_u64(argv[1], FABRIC_PRIOS - 1, &v))
			return fail(c, "bad queue '%s' (0..7)", argv[1]);
		qfirst = qlast = (unsigned)v;
	}
	for (unsigned i = first; i <= last; i++) {
		for (unsigned q = qfirst; q <= qlast; q++) {
			const struct egress_queue *eq =
				&c->f->ports[i].egress.q[q];
			const struct egress_queue_stats *st = &eq->st;

			out_printf(c->out, "port %u q%u_depth_bytes %" PRIu64 "\n",
				   i, q, eq->depth_bytes);
			out_printf(c->out, "port %u q%u_max_depth_bytes %" PRIu64 "\n",
				   i, q, st->max_depth_bytes);
			out_printf(c->out, "port %u q%u_hist_0 %" PRIu64 "\n",
				   i, q, st->depth_hist[0]);
			for (int b = 1; b < EGRESS_HIST_BUCKETS - 1; b++)
				out_printf(c->out,
					   "port %u q%u_hist_lt_%llu %" PRIu64 "\n",
					   i, q, 1024ull << (b - 1),
					   st->depth_hist[b]);
			out_printf(c->out, "port %u q%u_hist_ge_%llu %" PRIu64 "\n",
				   i, q, 1024ull << (EGRESS_HIST_BUCKETS - 3),
				   st->depth_hist[EGRESS_HIST_BUCKETS - 1]);
			/* oldest first */
			for (int r = 0; r < EGRESS_RING; r++)
				out_printf(c->out,
					   "port %u q%u_sample_%d %" PRIu64 "\n",
					   i, q, r,
					   st->depth_ring[(st->ring_next + r) %
							  EGRESS_RING]);
		}
	}
	return 0;
}

static int cmd_help(struct ctl_ctx *c, int argc, char **argv);

static const struct ctl_command commands[] = {
	{ "help", 0, 0, "help", cmd_help },
	{ "stats", 0, 1, "stats [port]", cmd_stats },
	{ "link", 2, 2, "link <port|all> up|down", cmd_link },
	{ "loss", 2, 2, "loss <port|all> <probability|N%>", cmd_loss },
	{ "corrupt", 2, 2, "corrupt <port|all> <probability|N%>", cmd_corrupt },
	{ "duplicate", 2, 2, "duplicate <port|all> <probability|N%>",
	  cmd_duplicate },
	{ "reorder", 2, 2, "reorder <port|all> <probability|N%>", cmd_reorder },
	{ "rate", 2, 2, "rate <port|all> <mbps>", cmd_rate },
	{ "pcap", 2, 2, "pcap <port|all> on|off", cmd_pcap },
	{ "qlimit", 3, 4, "qlimit <port|all> <queue|all> <bytes> [frames]",
	  cmd_qlimit },
	{ "dscp-map", 0, 2, "dscp-map [default | <dscp> <prio>]", cmd_dscp_map },
	{ "macs", 0, 0, "macs", cmd_macs },
	{ "seed", 1, 1, "seed <n>", cmd_seed },
	{ "pfc", 3, 11,
	  "pfc <port|all> <prio|all> on|off [xoff B] [xon B] [headroom B] [quanta Q]",
	  cmd_pfc },
	{ "ecn", 3, 11,
	  "ecn <port|all> <queue|all> on|off [kmin B] [kmax B] [pmax P] [nonect pass|drop]",
	  cmd_ecn },
	{ "pfcwd", 3, 9,
	  "pfcwd <port|all> <prio|all> on|off [detect MS] [restore MS] [action drop|forward]",
	  cmd_pfcwd },
	{ "ets", 2, 9, "ets <port|all> strict | <w0> .. <w7>", cmd_ets },
	{ "qos", 0, 1, "qos [port]", cmd_qos },
	{ "qdepth", 1, 2, "qdepth <port|all> [queue]", cmd_qdepth },
};

static int cmd_help(struct ctl_ctx *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		out_printf(c->out, "usage: %s\n", commands[i].usage);
	return 0;
}

bool control_execute(struct fabric *f, const char *line, struct outbuf *out)
{
	char buf[CONTROL_MAX_LINE];
	char *argv[CONTROL_MAX_ARGS];
	struct ctl_ctx c = { .f = f, .out = out };
	int argc = 0;
	char *tok, *save;

	if (strlen(line) >= sizeof(buf)) {
		out_printf(out, "error: line too long\n");
		return false;
	}
	strcpy(buf, line);
	for (tok = strtok_r(buf, " \t\r\n", &save); tok;
	     tok = strtok_r(NULL, " \t\r\n", &save)) {
		if (argc == CONTROL_MAX_ARGS) {
			out_printf(out, "error: too many arguments\n");
			return false;
		}
		argv[argc++] = tok;
	}
	if (argc == 0) {
		out_printf(out, "error: empty command\n");
		return false;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const struct ctl_command *cmd = &commands[i];
		int nargs = argc - 1;

		if (strcmp(argv[0], cmd->name) != 0)
			continue;
		if (nargs < cmd->min_args || nargs > cmd->max_args) {
			out_printf(out, "error: usage: %s\n", cmd->usage);
			return false;
		}
		if (cmd->run(&c, nargs, argv + 1) < 0) {
			out_printf(out, "error: %s\n", c.err);
			return false;
		}
		out_printf(out, "ok\n");
		return true;
	}
	out_printf(out, "error: unknown command '%s' (try help)\n", argv[0]);
	return false;
}
