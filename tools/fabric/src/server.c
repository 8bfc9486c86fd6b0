// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "server.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t io_now(void *ctx)
{
	struct server *s = ctx;

	return clock_ns(CLOCK_MONOTONIC) - s->start_ns;
}

static uint64_t io_realtime(void *ctx)
{
	(void)ctx;
	return clock_ns(CLOCK_REALTIME);
}

static bool io_can_send(void *ctx, unsigned port)
{
	struct server *s = ctx;

	return s->conn[port].fd >= 0 &&
	       outbuf_pending(&s->conn[port].out) < SERVER_OUT_SOFT_LIMIT;
}

static bool io_send(void *ctx, unsigned port, const uint8_t *frame,
		    uint32_t len)
{
	struct server_conn *c = &((struct server *)ctx)->conn[port];

	if (c->fd < 0 ||
	    outbuf_pending(&c->out) + len + STREAM_LEN_BYTES > SERVER_OUT_HARD_LIMIT)
		return false;
	/* written out by the loop, batched with whatever follows */
	return outbuf_append_frame(&c->out, frame, len);
}

static int sock_path(char *out, size_t outlen, const char *dir,
		     const char *name)
{
	struct sockaddr_un sun;
	int n = snprintf(out, outlen, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= outlen || (size_t)n >= sizeof(sun.sun_path))
		return -1;
	return 0;
}

/* @path was length-checked by sock_path() */
static void fill_sun(struct sockaddr_un *sun, const char *path)
{
	size_t n = strlen(path);

	if (n >= sizeof(sun->sun_path))
		n = sizeof(sun->sun_path) - 1;
	memcpy(sun->sun_path, path, n);
	sun->sun_path[n] = '\0';
}

static int listen_unix(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	fill_sun(&sun, path);
	unlink(path); /* a stale socket from an earlier run */
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 ||
	    listen(fd, 8) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Another fabric answering on this control socket owns the directory. */
static bool fabric_alive(const char *ctl_path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool alive;

	if (fd < 0)
		return false;
	fill_sun(&sun, ctl_path);
	alive = connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0;
	close(fd);
	return alive;
}

int server_open(struct server *s, const char *dir,
		const struct fabric_config *cfg, char *err, size_t errlen)
{
	struct fabric_io io = {
		.ctx = s,
		.now_ns = io_now,
		.realtime_ns = io_realtime,
		.can_send = io_can_send,
		.send = io_send,
	};
	char path[256];

	memset(s, 0, sizeof(*s));
	s->ctl_fd = -1;
	for (int i = 0; i < FABRIC_MAX_PORTS; i++) {
		s->listen_fd[i] = -1;
		s->conn[i].fd = -1;
	}
	for (int i = 0; i < SERVER_MAX_CTL_CLIENTS; i++)
		s->ctl[i].fd = -1;
	if (strlen(dir) >= sizeof(s->dir)) {
		snprintf(err, errlen, "directory name too long");
		return -1;
	}
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	s->start_ns = clock_ns(CLOCK_MONOTONIC);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "mkdir %s: %s", dir, strerror(errno));
		return -1;
	}
	if (cfg->pcap_dir && mkdir(cfg->pcap_dir, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "mkdir %s: %s", cfg->pcap_dir,
			 strerror(errno));
		return -1;
	}
	if (fabric_init(&s->fabric, cfg, &io, err, errlen) < 0)
		return -1;

	if (sock_path(path, sizeof(path), dir, "ctl.sock") < 0) {
		snprintf(err, errlen, "socket path too long under %s", dir);
		goto fail;
	}
	if (fabric_alive(path)) {
		snprintf(err, errlen, "a fabric is already serving %s", dir);
		goto fail;
	}
	s->ctl_fd = listen_unix(path);
	if (s->ctl_fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	for (unsigned i = 0; i < cfg->nports; i++) {
		char name[32];

		snprintf(name, sizeof(name), "port%u.sock", i);
		if (sock_path(path, sizeof(path), dir, name) < 0) {
			snprintf(err, errlen, "socket path too long under %s",
				 dir);
			goto fail;
		}
		s->listen_fd[i] = listen_unix(path);
		if (s->listen_fd[i] < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto fail;
		}
		s->conn[i].rx = malloc(sizeof(*s->conn[i].rx));
		if (!s->conn[i].rx) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
		outbuf_init(&s->conn[i].out);
	}
	return 0;
fail:
	server_close(s);
	return -1;
}

static void conn_drop(struct server *s, unsigned port, bool bad_stream)
{
	struct server_conn *c = &s->conn[port];

	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	outbuf_clear(&c->out);
	fabric_disconnect(&s->fabric, port, bad_stream);
}

static void conn_accept(struct server *s, unsigned port)
{
	int fd = accept4(s->listen_fd[port], NULL, NULL,
			 SOCK_NONBLOCK | SOCK_CLOEXEC);
	struct server_conn *c = &s->conn[port];

	if (fd < 0)
		return;
	/* room for a burst towards a guest busy elsewhere (server.h) */
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &(int){ SERVER_SNDBUF },
		   sizeof(int));
	/* a reconnecting guest replaces the old connection */
	if (c->fd >= 0)
		conn_drop(s, port, false);
	c->fd = fd;
	stream_rx_reset(c->rx);
	outbuf_clear(&c->out);
	fabric_connect(&s->fabric, port);
}

/* Take what the guest on @port has sent into its stream buffer. */
static void conn_fill(struct server *s, unsigned port)
{
	struct server_conn *c = &s->conn[port];
	size_t room;
	uint8_t *space = stream_rx_space(c->rx, &room);
	ssize_t n = recv(c->fd, space, room, MSG_DONTWAIT);

	if (n < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return;
		conn_drop(s, port, false);
		return;
	}
	if (n == 0) {
		conn_drop(s, port, false);
		return;
	}
	stream_rx_commit(c->rx, (size_t)n);
}

/* Hand the fabric the next whole frame buffered for @port, if any. */
static bool conn_next_frame(struct server *s, unsigned port)
{
	struct server_conn *c = &s->conn[port];
	const uint8_t *frame;
	uint32_t len;
	enum stream_status st;

	if (c->fd < 0)
		return false;
	st = stream_rx_next(c->rx, &frame, &len);
	if (st == STREAM_NEED_MORE)
		return false;
	if (st == STREAM_BAD_LENGTH) {
		/* the stream cannot be resynchronised: hang up */
		conn_drop(s, port, true);
		return false;
	}
	fabric_receive(&s->fabric, port, frame, len);
	return true;
}

/*
 * One read takes up to STREAM_RX_CAP bytes, dozens of frames.  Handing the
 * fabric one port's whole batch before the next port's would put every
 * frame of the later port behind all of the earlier one's in a shared
 * egress queue, so that only the later port sees the deep queue that RED
 * marks: a 2:1 incast under DCQCN then favours the lower port number.
 * Frames that arrived in the same wake-up are interleaved one per port,
 * starting from a port that moves on each pass, as a switch's ingress
 * arbiter would.
 */
static void dispatch_frames(struct server *s)
{
	unsigned nports = s->fabric.nports;
	bool any;

	if (!nports)
		return;
	do {
		any = false;
		for (unsigned k = 0; k < nports; k++)
			any |= conn_next_frame(s, (s->rr_port + k) % nports);
	} while (any);
	s->rr_port = (s->rr_port + 1) % nports;
}

static void ctl_close(struct ctl_client *cc)
{
	close(cc->fd);
	cc->fd = -1;
	outbuf_free(&cc->out);
}

static void ctl_accept(struct server *s)
{
	int fd = accept4(s->ctl_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return;
	for (int i = 0; i < SERVER_MAX_CTL_CLIENTS; i++) {
		struct ctl_client *cc = &s->ctl[i];

		if (cc->fd < 0) {
			memset(cc, 0, sizeof(*cc));
			cc->fd = fd;
			outbuf_init(&cc->out);
			return;
		}
	}
	close(fd); /* too many control clients at once */
}

static void ctl_run_lines(struct server *s, struct ctl_client *cc, bool eof)
{
	size_t start = 0;

	for (size_t i = 0; i < cc->in_len; i++) {
		if (cc->in[i] != '\n')
			continue;
		cc->in[i] = '\0';
		control_execute(&s->fabric, cc->in + start, &cc->out);
		start = i + 1;
	}
	memmove(cc->in, cc->in + start, cc->in_len - start);
	cc->in_len -= start;
	if (eof && cc->in_len) {
		/* a last command without its newline */
		cc->in[cc->in_len] = '\0';
		control_execute(&s->fabric, cc->in, &cc->out);
		cc->in_len = 0;
	}
}

static void ctl_read(struct server *s, struct ctl_client *cc)
{
	ssize_t n = recv(cc->fd, cc->in + cc->in_len,
			 CONTROL_MAX_LINE - cc->in_len, MSG_DONTWAIT);

	if (n < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			ctl_close(cc);
		return;
	}
	if (n == 0) {
		ctl_run_lines(s, cc, true);
		cc->read_done = true;
		return;
	}
	cc->in_len += (size_t)n;
	ctl_run_lines(s, cc, false);
	if (cc->in_len == CONTROL_MAX_LINE) {
		static const char msg[] = "error: line too long\n";

		outbuf_append(&cc->out, msg, sizeof(msg) - 1);
		cc->in_len = 0;
		cc->read_done = true;
	}
}

static void flush_all(struct server *s)
{
	for (unsigned i = 0; i < s->fabric.nports; i++) {
		struct server_conn *c = &s->conn[i];

		if (c->fd >= 0 && outbuf_pending(&c->out) &&
		    outbuf_flush(&c->out, c->fd) < 0)
			conn_drop(s, i, false);
	}
	for (int i = 0; i < SERVER_MAX_CTL_CLIENTS; i++) {
		struct ctl_client *cc = &s->ctl[i];

		if (cc->fd < 0)
			continue;
		if (outbuf_pending(&cc->out) && outbuf_flush(&cc->out, cc->fd) < 0)
			ctl_close(cc);
		else if (cc->read_done && !outbuf_pending(&cc->out))
			ctl_close(cc);
	}
}

/* What each pollfd slot belongs to. */
enum slot_kind { SLOT_LISTEN, SLOT_CONN, SLOT_CTL_LISTEN, SLOT_CTL };

struct slot {
	enum slot_kind kind;
	int index;
};

int server_run(struct server *s, volatile sig_atomic_t *stop,
	       const sigset_t *run_mask)
{
	enum { MAX_FDS = 2 * FABRIC_MAX_PORTS + 1 + SERVER_MAX_CTL_CLIENTS };
	struct pollfd pfd[MAX_FDS];
	struct slot slot[MAX_FDS];

	/* the default 50 us timer slack would add jitter to every paced frame */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);

	while (!*stop) {
		uint64_t next, now;
		struct timespec ts, *tsp = NULL;
		int n = 0, rc;

		fabric_service(&s->fabric);
		flush_all(s);
		/* flushing may have made room: serve again, then sleep */
		next = fabric_service(&s->fabric);
		flush_all(s);

		for (unsigned i = 0; i < s->fabric.nports; i++) {
			struct server_conn *c = &s->conn[i];

			pfd[n] = (struct pollfd){ s->listen_fd[i], POLLIN, 0 };
			slot[n++] = (struct slot){ SLOT_LISTEN, (int)i };
			if (c->fd < 0)
				continue;
			pfd[n] = (struct pollfd){
				c->fd,
				(short)(POLLIN | (outbuf_pending(&c->out) ? POLLOUT : 0)),
				0
			};
			slot[n++] = (struct slot){ SLOT_CONN, (int)i };
		}
		pfd[n] = (struct pollfd){ s->ctl_fd, POLLIN, 0 };
		slot[n++] = (struct slot){ SLOT_CTL_LISTEN, 0 };
		for (int i = 0; i < SERVER_MAX_CTL_CLIENTS; i++) {
			struct ctl_client *cc = &s->ctl[i];

			if (cc->fd < 0)
				continue;
			pfd[n] = (struct pollfd){
				cc->fd,
				(short)((cc->read_done ||
					 outbuf_pending(&cc->out) > SERVER_CTL_OUT_LIMIT ?
					 0 : POLLIN) |
					(outbuf_pending(&cc->out) ? POLLOUT : 0)),
				0
			};
			slot[n++] = (struct slot){ SLOT_CTL, i };
		}

		if (next != UINT64_MAX) {
			now = io_now(s);
			next = next > now ? next - now : 0;
			ts.tv_sec = (time_t)(next / 1000000000u);
			ts.tv_nsec = (long)(next % 1000000000u);
			tsp = &ts;
		}
		rc = ppoll(pfd, (nfds_t)n, tsp, run_mask);
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (int i = 0; i < n && rc > 0; i++) {
			short ev = pfd[i].revents;

			if (!ev)
				continue;
			switch (slot[i].kind) {
			case SLOT_LISTEN:
				conn_accept(s, (unsigned)slot[i].index);
				break;
			case SLOT_CONN: {
				struct server_conn *c = &s->conn[slot[i].index];

				/* the fd may have been replaced by an accept
				 * earlier in this pass */
				if (c->fd != pfd[i].fd)
					break;
				if (ev & (POLLIN | POLLHUP | POLLERR))
					conn_fill(s, (unsigned)slot[i].index);
				break;
			}
			case SLOT_CTL_LISTEN:
				ctl_accept(s);
				break;
			case SLOT_CTL: {
				struct ctl_client *cc = &s->ctl[slot[i].index];

				if (cc->fd != pfd[i].fd)
					break;
				if (ev & (POLLIN | POLLHUP | POLLERR)) {
					if (cc->read_done)
						ctl_close(cc);
					else
						ctl_read(s, cc);
				}
				break;
			}
			}
		}
		dispatch_frames(s);
	}
	return 0;
}

void server_close(struct server *s)
{
	char path[256], name[32];

	for (unsigned i = 0; i < FABRIC_MAX_PORTS; i++) {
		if (s->conn[i].fd >= 0)
			close(s->conn[i].fd);
		s->conn[i].fd = -1;
		outbuf_free(&s->conn[i].out);
		free(s->conn[i].rx);
		s->conn[i].rx = NULL;
		if (s->listen_fd[i] < 0)
			continue;
		close(s->listen_fd[i]);
		s->listen_fd[i] = -1;
		snprintf(name, sizeof(name), "port%u.sock", i);
		if (sock_path(path, sizeof(path), s->dir, name) == 0)
			unlink(path);
	}
	for (int i = 0; i < SERVER_MAX_CTL_CLIENTS; i++)
		if (s->ctl[i].fd >= 0)
			ctl_close(&s->ctl[i]);
	if (s->ctl_fd >= 0) {
		close(s->ctl_fd);
		s->ctl_fd = -1;
		if (sock_path(path, sizeof(path), s->dir, "ctl.sock") == 0)
			unlink(path);
	}
	fabric_destroy(&s->fabric);
}
