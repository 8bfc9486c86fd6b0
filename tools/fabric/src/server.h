/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The fabric's sockets and event loop: one listening unix socket per port
 * (<dir>/port<N>.sock, QEMU's -netdev stream connects there), one control
 * socket (<dir>/ctl.sock), all non-blocking and served by a single ppoll()
 * loop whose timeout is the next serialization-clock event.
 */
#ifndef WREN_FABRIC_SERVER_H
#define WREN_FABRIC_SERVER_H

#include <signal.h>
#include <stddef.h>

#include "control.h"
#include "fabric.h"
#include "stream.h"

#define SERVER_MAX_CTL_CLIENTS 16
/* Stop dequeuing for a peer that has this much unsent... */
#define SERVER_OUT_SOFT_LIMIT (256u * 1024)
/* ...and refuse even PHY frames past this (a peer that never reads). */
#define SERVER_OUT_HARD_LIMIT (4u * 1024 * 1024)
/*
 * Send buffer asked for each guest's socket (the kernel caps it at
 * net.core.wmem_max and doubles it): what a guest busy elsewhere has not
 * read yet waits there, paced, instead of in the fabric's queues behind
 * SERVER_OUT_SOFT_LIMIT, and the fabric wakes less often to write it.
 */
#define SERVER_SNDBUF (1024 * 1024)
/* A control client that does not read its answers is not read either. */
#define SERVER_CTL_OUT_LIMIT (1024u * 1024)

struct server_conn {
	int fd; /* -1: no guest on this port */
	struct stream_rx *rx;
	struct outbuf out;
};

struct ctl_client {
	int fd;
	char in[CONTROL_MAX_LINE + 1];
	size_t in_len;
	struct outbuf out;
	bool read_done; /* peer shut down its side: close once flushed */
};

struct server {
	struct fabric fabric;
	char dir[256];
	int listen_fd[FABRIC_MAX_PORTS];
	struct server_conn conn[FABRIC_MAX_PORTS];
	int ctl_fd;
	struct ctl_client ctl[SERVER_MAX_CTL_CLIENTS];
	uint64_t start_ns;
	unsigned rr_port; /* first port whose frames dispatch_frames() takes */
};

/* Create the sockets under @dir; 0, or -1 with a message in @err. */
int server_open(struct server *s, const char *dir,
		const struct fabric_config *cfg, char *err, size_t errlen);
/* Serve until *@stop becomes non-zero.  Signals in @run_mask are the only
 * ones delivered, and only while waiting. */
int server_run(struct server *s, volatile sig_atomic_t *stop,
	       const sigset_t *run_mask);
/* Close everything and remove the socket files. */
void server_close(struct server *s);

#endif
