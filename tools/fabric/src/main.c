// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wren-fabric: the switch the emulated Wren NICs plug into.
 *   wren-fabric serve --dir DIR --ports N [options]
 *   wren-fabric ctl DIR COMMAND...
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_client.h"
#include "server.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void usage(FILE *out)
{
	fputs("usage:\n"
	      "  wren-fabric serve --dir DIR --ports N [--rate MBPS]\n"
	      "        [--port-rate PORT:MBPS]... [--pcap-dir DIR]\n"
	      "        [--loss P] [--corrupt P] [--duplicate P] [--reorder P]\n"
	      "        [--seed S] [--mac-age SECONDS]\n"
	      "        [--queue-bytes B] [--queue-frames F]\n"
	      "        [--lossless PRIOS] [--pfc-xoff B] [--pfc-xon B]\n"
	      "        [--pfc-headroom B] [--ecn QUEUES:KMIN:KMAX:PMAX[:drop]]\n"
	      "        [--pfcwd PRIOS:DETECT_MS:RESTORE_MS[:drop|:forward]]\n"
	      "        [--ets W0,W1,W2,W3,W4,W5,W6,W7]\n"
	      "        [--pidfile FILE] [--daemon]\n"
	      "  wren-fabric ctl DIR COMMAND...   (ctl DIR help lists commands)\n"
	      "P is a fraction (0.01) or a percentage (1%).\n"
	      "PRIOS, QUEUES: all or a list such as 3 or 3,4.\n",
	      out);
}

static int parse_ull(const char *s, unsigned long long max,
		     unsigned long long *v)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end || *v > max ? -1 : 0;
}

static int parse_prob(const char *s, double *p)
{
	char *end;

	errno = 0;
	*p = strtod(s, &end);
	if (errno || end == s)
		return -1;
	if (*end == '%') {
		*p /= 100.0;
		end++;
	}
	return *end || !(*p >= 0.0 && *p <= 1.0) ? -1 : 0;
}

/*
 * A priority list ("all", "3", "3,4") up to the end or a ':'; *@end is
 * left after it.  -1 on anything else.
 */
static int parse_prio_list(const char *s, uint8_t *bits, const char **end)
{
	*bits = 0;
	if (strncmp(s, "all", 3) == 0 && (s[3] == '\0' || s[3] == ':')) {
		*bits = 0xff;
		*end = s + 3;
		return 0;
	}
	for (;;) {
		if (*s < '0' || *s > '7')
			return -1;
		*bits |= (uint8_t)(1u << (*s - '0'));
		s++;
		if (*s != ',')
			break;
		s++;
	}
	*end = s;
	return *s == '\0' || *s == ':' ? 0 : -1;
}

/*
 * Split "LIST:F1:F2..." into @bits (the priority list) and up to @max
 * fields copied into @buf; returns the number of fields, -1 if malformed.
 */
static int split_fields(const char *arg, uint8_t *bits, char *buf,
			size_t len, char **field, int max)
{
	const char *s;
	int n = 0;

	if (parse_prio_list(arg, bits, &s) || *s != ':' ||
	    strlen(s + 1) >= len)
		return -1;
	strcpy(buf, s + 1);
	for (char *save = NULL, *t = strtok_r(buf, ":", &save); t;
	     t = strtok_r(NULL, ":", &save)) {
		if (n == max)
			return -1;
		field[n++] = t;
	}
	return n;
}

/* --ecn QUEUES:KMIN:KMAX:PMAX[:drop] */
static int parse_ecn(const char *arg, struct fabric_config *cfg)
{
	unsigned long long kmin, kmax;
	char buf[128], *f[4];
	int n = split_fields(arg, &cfg->ecn_queues, buf, sizeof(buf), f, 4);

	if (n < 3 || parse_ull(f[0], FABRIC_MAX_BUFFER, &kmin) ||
	    parse_ull(f[1], FABRIC_MAX_BUFFER, &kmax) || kmin > kmax ||
	    parse_prob(f[2], &cfg->red.pmax))
		return -1;
	if (n == 4 && strcmp(f[3], "drop") != 0)
		return -1;
	cfg->red.kmin = kmin;
	cfg->red.kmax = kmax;
	cfg->red.drop_not_ect = n == 4;
	return 0;
}

/* --pfcwd PRIOS:DETECT_MS:RESTORE_MS[:drop|:forward] */
static int parse_pfcwd(const char *arg, struct fabric_config *cfg)
{
	const unsigned long long max_ms = FABRIC_MAX_PFCWD_NS / 1000000u;
	unsigned long long detect, restore;
	char buf[128], *f[3];
	int n = split_fields(arg, &cfg->pfcwd_prios, buf, sizeof(buf), f, 3);

	if (n < 2 || parse_ull(f[0], max_ms, &detect) || !detect ||
	    parse_ull(f[1], max_ms, &restore) || !restore)
		return -1;
	cfg->wd.detect_ns = detect * 1000000u;
	cfg->wd.restore_ns = restore * 1000000u;
	if (n == 3 && strcmp(f[2], "forward") == 0)
		cfg->wd.action = PFCWD_FORWARD;
	else if (n == 3 && strcmp(f[2], "drop") != 0)
		return -1;
	return 0;
}

/* --ets W0,...,W7: eight weights, 0 strict priority, 1..100 DWRR */
static int parse_ets(const char *arg, uint8_t weight[FABRIC_PRIOS])
{
	unsigned long long v;
	char buf[64], *save = NULL, *t;
	int n = 0;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (n == FABRIC_PRIOS || parse_ull(t, EGRESS_MAX_WEIGHT, &v))
			return -1;
		weight[n++] = (uint8_t)v;
	}
	return n == FABRIC_PRIOS ? 0 : -1;
}

struct serve_opts {
	struct fabric_config cfg;
	const char *dir;
	const char *pidfile;
	bool daemon;
	unsigned nrates;
	unsigned rate_port[FABRIC_MAX_PORTS];
	uint32_t rate_mbps[FABRIC_MAX_PORTS];
};

static int bad_option(const char *opt, const char *val)
{
	fprintf(stderr, "wren-fabric: bad value for --%s: '%s'\n", opt, val);
	return -1;
}

static int parse_serve(int argc, char **argv, struct serve_opts *o)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "ports", required_argument, NULL, 'n' },
		{ "rate", required_argument, NULL, 'r' },
		{ "port-rate", required_argument, NULL, 'R' },
		{ "pcap-dir", required_argument, NULL, 'p' },
		{ "loss", required_argument, NULL, 'l' },
		{ "corrupt", required_argument, NULL, 'c' },
		{ "duplicate", required_argument, NULL, 'u' },
		{ "reorder", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "mac-age", required_argument, NULL, 'a' },
		{ "queue-bytes", required_argument, NULL, 'B' },
		{ "queue-frames", required_argument, NULL, 'F' },
		{ "lossless", required_argument, NULL, 'L' },
		{ "pfc-xoff", required_argument, NULL, 'X' },
		{ "pfc-xon", required_argument, NULL, 'x' },
		{ "pfc-headroom", required_argument, NULL, 'H' },
		{ "ecn", required_argument, NULL, 'E' },
		{ "pfcwd", required_argument, NULL, 'W' },
		{ "ets", required_argument, NULL, 'T' },
		{ "pidfile", required_argument, NULL, 'P' },
		{ "daemon", no_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long v, port;
	const char *end;
	char *colon;
	int c;

	memset(o, 0, sizeof(*o));
	fabric_config_default(&o->cfg);
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o->dir = optarg;
			break;
		case 'n':
			if (parse_ull(optarg, FABRIC_MAX_PORTS, &v) || v == 0)
				return bad_option("ports", optarg);
			o->cfg.nports = (unsigned)v;
			break;
		case 'r':
			if (parse_ull(optarg, FABRIC_MAX_RATE_MBPS, &v) || v == 0)
				return bad_option("rate", optarg);
			o->cfg.rate_mbps = (uint32_t)v;
			break;
		case 'R':
			colon = strchr(optarg, ':');
			if (!colon || o->nrates == FABRIC_MAX_PORTS)
				return bad_option("port-rate", optarg);
			*colon = '\0';
			if (parse_ull(optarg, FABRIC_MAX_PORTS - 1, &port) ||
			    parse_ull(colon + 1, FABRIC_MAX_RATE_MBPS, &v) || v == 0) {
				*colon = ':';
				return bad_option("port-rate", optarg);
			}
			o->rate_port[o->nrates] = (unsigned)port;
			o->rate_mbps[o->nrates++] = (uint32_t)v;
			break;
		case 'p':
			o->cfg.pcap_dir = optarg;
			break;
		case 'l':
			if (parse_prob(optarg, &o->cfg.loss))
				return bad_option("loss", optarg);
			break;
		case 'c':
			if (parse_prob(optarg, &o->cfg.corrupt))
				return bad_option("corrupt", optarg);
			break;
		case 'u':
			if (parse_prob(optarg, &o->cfg.duplicate))
				return bad_option("duplicate", optarg);
			break;
		case 'o':
			if (parse_prob(optarg, &o->cfg.reorder))
				return bad_option("reorder", optarg);
			break;
		case 's':
			if (parse_ull(optarg, UINT64_MAX, &v))
				return bad_option("seed", optarg);
			o->cfg.seed = v;
			break;
		case 'a':
			if (parse_ull(optarg, 86400ull * 365, &v) || v == 0)
				return bad_option("mac-age", optarg);
			o->cfg.mac_age_ns = v * 1000000000ull;
			break;
		case 'B':
			if (parse_ull(optarg, UINT32_MAX, &v) || v == 0)
				return bad_option("queue-bytes", optarg);
			o->cfg.queue_limit_bytes = v;
			break;
		case 'F':
			if (parse_ull(optarg, UINT32_MAX, &v) || v == 0)
				return bad_option("queue-frames", optarg);
			o->cfg.queue_limit_frames = (uint32_t)v;
			break;
		case 'L':
			if (parse_prio_list(optarg, &o->cfg.lossless_prios,
					    &end) || *end)
				return bad_option("lossless", optarg);
			break;
		case 'X':
		case 'x':
		case 'H':
			if (parse_ull(optarg, FABRIC_MAX_BUFFER, &v))
				return bad_option(c == 'X' ? "pfc-xoff" :
						  c == 'x' ? "pfc-xon" :
							     "pfc-headroom",
						  optarg);
			if (c == 'X')
				o->cfg.pfc_xoff = v;
			else if (c == 'x')
				o->cfg.pfc_xon = v;
			else
				o->cfg.pfc_headroom = v;
			break;
		case 'E':
			if (parse_ecn(optarg, &o->cfg))
				return bad_option("ecn", optarg);
			break;
		case 'W':
			if (parse_pfcwd(optarg, &o->cfg))
				return bad_option("pfcwd", optarg);
			break;
		case 'T':
			if (parse_ets(optarg, o->cfg.ets_weight))
				return bad_option("ets", optarg);
			break;
		case 'P':
			o->pidfile = optarg;
			break;
		case 'D':
			o->daemon = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc || !o->dir) {
		usage(stderr);
		return -1;
	}
	for (unsigned i = 0; i < o->nrates; i++) {
		if (o->rate_port[i] >= o->cfg.nports) {
			fprintf(stderr, "wren-fabric: --port-rate port %u >= --ports\n",
				o->rate_port[i]);
			return -1;
		}
	}
	return 0;
}

static int write_pidfile(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "%ld\n", (long)getpid());
	return fclose(f);
}

/* Detach once the sockets exist, so the parent's exit means "ready". */
static int daemonize(void)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0)
		return -1;
	if (pid > 0)
		_exit(0);
	if (setsid() < 0)
		return -1;
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	return 0;
}

static int serve_main(int argc, char **argv)
{
	static struct server server;
	struct serve_opts o;
	struct sigaction sa;
	sigset_t block, run_mask;
	char err[256];
	int rc;

	if (parse_serve(argc, argv, &o) < 0)
		return 2;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* signals arrive only inside ppoll(), so none is lost between the
	 * stop check and the wait */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &run_mask);
	sigdelset(&run_mask, SIGTERM);
	sigdelset(&run_mask, SIGINT);

	if (server_open(&server, o.dir, &o.cfg, err, sizeof(err)) < 0) {
		fprintf(stderr, "wren-fabric: %s\n", err);
		return 1;
	}
	for (unsigned i = 0; i < o.nrates; i++)
		fabric_set_rate(&server.fabric, o.rate_port[i], o.rate_mbps[i]);
	if (o.daemon && daemonize() < 0) {
		fprintf(stderr, "wren-fabric: daemonize: %s\n", strerror(errno));
		server_close(&server);
		return 1;
	}
	if (o.pidfile && write_pidfile(o.pidfile) < 0) {
		fprintf(stderr, "wren-fabric: pidfile %s: %s\n", o.pidfile,
			strerror(errno));
		server_close(&server);
		return 1;
	}
	if (!o.daemon)
		fprintf(stderr, "wren-fabric: serving %u ports in %s\n",
			o.cfg.nports, o.dir);
	rc = server_run(&server, &stop_requested, &run_mask);
	if (rc < 0)
		fprintf(stderr, "wren-fabric: poll: %s\n", strerror(errno));
	server_close(&server);
	if (o.pidfile)
		unlink(o.pidfile);
	return rc < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "serve") == 0)
		return serve_main(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "ctl") == 0) {
		if (argc < 4) {
			usage(stderr);
			return 2;
		}
		return ctl_client_main(argv[2], argc - 3, argv + 3);
	}
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 ||
			  strcmp(argv[1], "help") == 0)) {
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 2;
}
