// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wren_verbs_test - verbs tests between two nodes, against any RoCE device.
 *
 *   wren_verbs_test count
 *       the number of TAP lines the initiator prints
 *   wren_verbs_test target [-d DEV] [-g GIDX] [-p PORT]
 *       serves PORT, and PORT+1 from a child process with its own context
 *   wren_verbs_test initiator [-d DEV] [-g GIDX] [-p PORT] HOST
 *       the integrity and protection cases, TAP on stdout
 *   wren_verbs_test bw --active|--passive --listen PORT|--connect HOST:PORT
 *       --op write|read|send|atomic --size BYTES (--iters N | --seconds S)
 *       [--depth N] [--mr-mib N] [--verify] [--cpu] [--ready-file F] [--hold]
 *       [--timeout EXP] [--sl SL] [--tclass TC] [-d DEV] [-g GIDX]
 *       [--stop-file F] (active, --seconds: end early once F exists)
 *       [--until-error] (active)
 *       [--free-under-traffic] (passive, gpu-peer, write|read)
 *     send: SENDs into receives the passive side keeps posted (it polls
 *       its CQ while they flow); atomic: 8-byte FETCH_AND_ADDs, --size
 *       ignored, --mr-mib N gives N MiB / 8 words (see bw.c)
 *
 *   wren_verbs_test limits [-d DEV] [-g GIDX] [--big-mr-mib N]
 *       one node: every table filled to the device's limit, a CQ overrun,
 *       an SRQ limit event, an N MiB MR (1024; 0 skips it); see limits.c
 *   wren_verbs_test ctlpath [-d DEV] [--big-mr-mib N] [--qps N]
 *       one node: how long an N MiB MR (1024) takes to register and
 *       deregister, and N RC QPs (1000) to create and destroy; see ctlpath.c
 *   wren_verbs_test faults [-d DEV] [-g GIDX] [--rounds N]
 *       one node: N rounds (100) of verbs objects made, used and freed with
 *       the process marked for the kernel's fault injection; see faults.c
 *   wren_verbs_test abuse [-d DEV]
 *       one node: raw uverbs commands with bad driver data, handles and
 *       mmap offsets, and racing destroys; see abuse.c
 *   wren_verbs_test mw [-d DEV] [-g GIDX]
 *       one node: memory windows of type 1 and 2 bound, used, refused,
 *       invalidated and deallocated over a loopback RC pair; see mw.c
 *   wren_verbs_test clock [-d DEV] [-g GIDX]
 *       one node: the device clock (ibv_query_rt_values_ex) and extended
 *       CQs with completion timestamps over a loopback RC pair; see clock.c
 *   wren_verbs_test mcast [-d DEV] [-g GIDX]
 *       one node: UD multicast through the NIC's loopback, attach and
 *       detach, refusals and the group table's limits; see mcast.c
 *   wren_verbs_test import [-d DEV] [-g GIDX]
 *       one node: a context, PD and MR imported from a dup of the cmd_fd
 *       and used over a loopback RC pair; see import.c
 *   wren_verbs_test xrc [-d DEV] [-g GIDX]
 *       one node: XRC domains through files, XRC SRQs, initiator and
 *       target QPs over the NIC's loopback, a second process opening the
 *       domain and the target; see xrc.c
 *
 *   --mem host|gpu-dmabuf|gpu-peer (every mode): where the target's and the
 *       bandwidth buffers live (mem.c); GPU memory is /dev/wren_gpu0's,
 *       --gpu-pad-mib N holds N MiB of it below the first buffer
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "wvt.h"
#include "tap.h"

extern int wvt_timeout, wvt_sl, wvt_tclass;

static int usage(void)
{
	fprintf(stderr, "usage: wren_verbs_test count|target|initiator HOST|bw ...|limits|ctlpath|faults|abuse|mw|clock|mcast|import|xrc (see main.c)\n");
	return 2;
}

static int run_target(const char *dev, int gidx, int port)
{
	pid_t child;
	int status = 0, rc;
	struct dev d;
	struct ctl c;
	int lfd;

	/* The child is forked before either process opens the device: it
	 * is another process with its own context, PD, MRs and QPs. */
	child = fork();
	if (child < 0)
		return 1;
	lfd = ctl_listen(child ? port : port + 1);
	if (lfd < 0 || dev_open(&d, dev, gidx) || ctl_accept(&c, lfd))
		return 1;
	rc = target_run(&d, &c);
	close(c.fd);
	dev_close(&d);
	if (!child)
		_exit(rc ? 1 : 0);
	waitpid(child, &status, 0);
	fprintf(stderr, "wvt target: %d failed commands; child process: %s\n", rc,
		WIFEXITED(status) && !WEXITSTATUS(status) ? "ok" : "failed");
	return rc || !WIFEXITED(status) || WEXITSTATUS(status) ? 1 : 0;
}

static int run_initiator(const char *dev, int gidx, int port, const char *host)
{
	struct ctl p, ch;
	struct dev d;

	if (dev_open(&d, dev, gidx) || ctl_connect(&p, host, port, 120) ||
	    ctl_connect(&ch, host, port + 1, 60)) {
		tap_plan(cases_count());
		tap_ok(false, "connect to the target at %s:%d", host, port);
		return 1;
	}
	int rc = cases_run(&d, &p, &ch);

	dev_close(&d);
	return rc;
}

/* The one-node modes that need nothing but the device. */
static const struct {
	const char *name;
	int (*run)(struct dev *d);
} dev_modes[] = {
	{ "abuse", abuse_run },
	{ "mw", mw_run },
	{ "clock", clock_run },
	{ "mcast", mcast_run },
	{ "import", import_run },
	{ "xrc", xrc_run },
};

static int run_on_dev(const char *name, int gidx, int (*run)(struct dev *d))
{
	struct dev d;
	int rc;

	if (dev_open(&d, name, gidx))
		return 1;
	rc = run(&d);
	dev_close(&d);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "active", no_argument, NULL, 'A' },
		{ "passive", no_argument, NULL, 'P' },
		{ "listen", required_argument, NULL, 'l' },
		{ "connect", required_argument, NULL, 'c' },
		{ "op", required_argument, NULL, 'o' },
		{ "size", required_argument, NULL, 's' },
		{ "iters", required_argument, NULL, 'n' },
		{ "seconds", required_argument, NULL, 't' },
		{ "depth", required_argument, NULL, 'D' },
		{ "mr-mib", required_argument, NULL, 'm' },
		{ "verify", no_argument, NULL, 'V' },
		{ "cpu", no_argument, NULL, 'C' },
		{ "ready-file", required_argument, NULL, 'r' },
		{ "stop-file", required_argument, NULL, 'K' },
		{ "hold", no_argument, NULL, 'H' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "mem", required_argument, NULL, 'M' },
		{ "until-error", no_argument, NULL, 'E' },
		{ "free-under-traffic", no_argument, NULL, 'F' },
		{ "gpu-pad-mib", required_argument, NULL, 'G' },
		{ "sl", required_argument, NULL, 'S' },
		{ "tclass", required_argument, NULL, 'X' },
		{ "big-mr-mib", required_argument, NULL, 'B' },
		{ "qps", required_argument, NULL, 'Q' },
		{ "rounds", required_argument, NULL, 'R' },
		{ 0 }
	};
	struct bw_opts o = { .op = "write", .size = 65536, .depth = 16,
			     .mr_bytes = 1u << 20 };
	const char *dev = NULL, *connect_to = NULL, *mode;
	int gidx = -1, port = 18600, listen_port = 0, opt, mr_mib = 0;
	long big_mib = 1024, qps = 1000, rounds = 100;

	if (argc < 2)
		return usage();
	mode = argv[1];
	if (!strcmp(mode, "count")) {
		printf("%d\n", cases_count());
		return 0;
	}
	signal(SIGPIPE, SIG_IGN);
	srand48(getpid() ^ (long)now_s());
	optind = 2;
	while ((opt = getopt_long(argc, argv, "d:g:p:", lo, NULL)) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'g': gidx = atoi(optarg); break;
		case 'p': port = atoi(optarg); break;
		case 'A': o.active = true; break;
		case 'P': o.active = false; break;
		case 'l': listen_port = atoi(optarg); break;
		case 'c': connect_to = optarg; break;
		case 'o': o.op = optarg; break;
		case 's': o.size = strtoul(optarg, NULL, 0); break;
		case 'n': o.iters = atol(optarg); break;
		case 't': o.seconds = atof(optarg); break;
		case 'D': o.depth = atoi(optarg); break;
		case 'm': mr_mib = atoi(optarg); break;
		case 'V': o.verify = true; break;
		case 'C': o.cpu = true; break;
		case 'r': o.ready_file = optarg; break;
		case 'K': o.stop_file = optarg; break;
		case 'H': o.hold = true; break;
		case 'T': wvt_timeout = atoi(optarg); break;
		case 'M':
			if (mem_select(optarg))
				return usage();
			break;
		case 'E': o.until_error = true; break;
		case 'F': o.free_under_traffic = true; break;
		case 'G': mem_set_gpu_pad((size_t)atoi(optarg) << 20); break;
		case 'S': wvt_sl = atoi(optarg); break;
		case 'X': wvt_tclass = atoi(optarg); break;
		case 'B': big_mib = atol(optarg); break;
		case 'Q': qps = atol(optarg); break;
		case 'R': rounds = atol(optarg); break;
		default: return usage();
		}
	}
	if (wvt_sl < 0 || wvt_sl > 15 || wvt_tclass < 0 || wvt_tclass > 255)
		return usage();
	if (strcmp(o.op, "write") && strcmp(o.op, "read") && strcmp(o.op, "send") &&
	    strcmp(o.op, "atomic"))
		return usage();
	/* Atomics are 8 bytes, whatever --size says. */
	if (!strcmp(o.op, "atomic"))
		o.size = 8;
	if (o.free_under_traffic && (!strcmp(o.op, "send") || !strcmp(o.op, "atomic"))) {
		fprintf(stderr, "wvt: --free-under-traffic is for --op write or read\n");
		return 2;
	}
	if (o.free_under_traffic && mem_kind() != MEM_GPU_PEER) {
		fprintf(stderr, "wvt: --free-under-traffic needs --mem gpu-peer (dma-buf MRs are pinned)\n");
		return 2;
	}
	if (!strcmp(mode, "target"))
		return run_target(dev, gidx, port);
	for (size_t i = 0; i < sizeof(dev_modes) / sizeof(dev_modes[0]); i++)
		if (!strcmp(mode, dev_modes[i].name))
			return run_on_dev(dev, gidx, dev_modes[i].run);
	if (!strcmp(mode, "limits")) {
		struct dev d;
		int rc;

		if (big_mib < 0 || big_mib > 65536)
			return usage();
		if (dev_open(&d, dev, gidx))
			return 1;
		rc = limits_run(&d, (size_t)big_mib);
		dev_close(&d);
		return rc;
	}
	if (!strcmp(mode, "faults")) {
		struct dev d;
		int rc;

		if (rounds < 1 || rounds > 100000)
			return usage();
		if (dev_open(&d, dev, gidx))
			return 1;
		rc = faults_run(&d, (int)rounds);
		dev_close(&d);
		return rc;
	}
	if (!strcmp(mode, "ctlpath")) {
		struct dev d;
		int rc;

		if (big_mib < 0 || big_mib > 65536 || qps < 0 || qps > 1000000)
			return usage();
		if (dev_open(&d, dev, gidx))
			return 1;
		rc = ctlpath_run(&d, (size_t)big_mib, (int)qps);
		dev_close(&d);
		return rc;
	}
	if (!strcmp(mode, "initiator"))
		return optind < argc ? run_initiator(dev, gidx, port, argv[optind]) : usage();
	if (strcmp(mode, "bw") || (!listen_port == !connect_to) ||
	    (o.active && !o.iters && o.seconds <= 0) || o.depth < 1 || o.depth > 128)
		return usage();
	if (mr_mib)
		o.mr_bytes = (size_t)mr_mib << 20;
	if (o.mr_bytes < o.size)
		o.mr_bytes = o.size;

	struct ctl c;
	struct dev d;
	int rc;

	if (listen_port) {
		int lfd = ctl_listen(listen_port);

		if (lfd < 0 || ctl_accept(&c, lfd))
			return 1;
		close(lfd);
	} else {
		char host[64];
		char *colon;

		snprintf(host, sizeof(host), "%s", connect_to);
		colon = strrchr(host, ':');
		if (!colon)
			return usage();
		*colon = 0;
		if (ctl_connect(&c, host, atoi(colon + 1), 120))
			return 1;
	}
	if (dev_open(&d, dev, gidx))
		return 1;
	rc = bw_run(&d, &c, &o);
	dev_close(&d);
	return rc;
}
