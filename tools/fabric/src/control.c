// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "control.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		{ "flooded", s->flooded },
		{ "phy_sent", s->phy_sent },
		{ "bad_stream", s->bad_stream },
		{ "connects", s->connects },
		{ "pcap_records", p->pcap.records },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		out_printf(o, "port %u %s %" PRIu64 "\n", n, rows[i].key,
			   rows[i].val);
	out_printf(o, "port %u loss %g\n", n, p->loss);
	out_printf(o, "port %u corrupt %g\n", n, p->corrupt);
	out_printf(o, "port %u pcap %s\n", n,
		   pcap_is_open(&p->pcap) ? "on" : "off");
	for (int qi = 0; qi < FABRIC_PRIOS; qi++) {
		const struct egress_queue *q = &p->egress.q[qi];
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
		};

		for (size_t i = 0; i < sizeof(qrows) / sizeof(qrows[0]); i++)
			out_printf(o, "port %u q%d_%s %" PRIu64 "\n", n, qi,
				   qrows[i].key, qrows[i].val);
		out_printf(o, "port %u q%d_ingress_bytes %" PRIu64 "\n", n, qi,
			   p->ingress_bytes[qi]);
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

static int set_probability(struct ctl_ctx *c, char **argv, bool corrupt)
{
	unsigned first, last;
	double p;

	if (parse_ports(c, argv[0], &first, &last) < 0)
		return -1;
	if (!parse_probability(argv[1], &p))
		return fail(c, "bad probability '%s' (0..1 or N%%)", argv[1]);
	for (unsigned i = first; i <= last; i++) {
		if (corrupt)
			c->f->ports[i].corrupt = p;
		else
			c->f->ports[i].loss = p;
	}
	return 0;
}

static int cmd_loss(struct ctl_ctx *c, int argc, char **argv)
{
	(void)argc;
	return set_probability(c, argv, false);
}

static int cmd_corrupt(struct ctl_ctx *c, int argc, char **argv)
{
	(void)argc;
	return set_probability(c, argv, true);
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

static int cmd_help(struct ctl_ctx *c, int argc, char **argv);

static const struct ctl_command commands[] = {
	{ "help", 0, 0, "help", cmd_help },
	{ "stats", 0, 1, "stats [port]", cmd_stats },
	{ "link", 2, 2, "link <port|all> up|down", cmd_link },
	{ "loss", 2, 2, "loss <port|all> <probability|N%>", cmd_loss },
	{ "corrupt", 2, 2, "corrupt <port|all> <probability|N%>", cmd_corrupt },
	{ "rate", 2, 2, "rate <port|all> <mbps>", cmd_rate },
	{ "pcap", 2, 2, "pcap <port|all> on|off", cmd_pcap },
	{ "qlimit", 3, 4, "qlimit <port|all> <queue|all> <bytes> [frames]",
	  cmd_qlimit },
	{ "dscp-map", 0, 2, "dscp-map [default | <dscp> <prio>]", cmd_dscp_map },
	{ "macs", 0, 0, "macs", cmd_macs },
	{ "seed", 1, 1, "seed <n>", cmd_seed },
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
