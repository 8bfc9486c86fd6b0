// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The control connection: one-line commands and answers over TCP.  Reads
 * are buffered so that a line costs one read() however it is split, which
 * keeps the syscall count of a run independent of its length.
 */
#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include "wvt.h"

int ctl_listen(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 4)) {
		perror("wvt: listen");
		close(fd);
		return -1;
	}
	return fd;
}

static void ctl_init(struct ctl *c, int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->fd = fd;
	c->len = 0;
}

int ctl_accept(struct ctl *c, int lfd)
{
	int fd = accept(lfd, NULL, NULL);

	if (fd < 0) {
		perror("wvt: accept");
		return -1;
	}
	ctl_init(c, fd);
	return 0;
}

int ctl_connect(struct ctl *c, const char *host, int port, int timeout_s)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port) };
	double end = now_s() + timeout_s;

	if (inet_pton(AF_INET, host, &a.sin_addr) != 1) {
		fprintf(stderr, "wvt: %s is not an IPv4 address\n", host);
		return -1;
	}
	for (;;) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0)
			return -1;
		if (!connect(fd, (struct sockaddr *)&a, sizeof(a))) {
			ctl_init(c, fd);
			return 0;
		}
		close(fd);
		if (now_s() > end) {
			fprintf(stderr, "wvt: no server at %s:%d\n", host, port);
			return -1;
		}
		usleep(200000);
	}
}

int ctl_send(struct ctl *c, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(line) - 1)
		return -1;
	line[n++] = '\n';
	for (int off = 0; off < n;) {
		ssize_t w = write(c->fd, line + off, (size_t)(n - off));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (int)w;
	}
	return 0;
}

int ctl_recv(struct ctl *c, char *line, size_t n)
{
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len);

		if (nl) {
			size_t l = (size_t)(nl - c->buf);

			if (l >= n)
				return -1;
			memcpy(line, c->buf, l);
			line[l] = 0;
			c->len -= l + 1;
			memmove(c->buf, nl + 1, c->len);
			return 0;
		}
		if (c->len == sizeof(c->buf))
			return -1;
		ssize_t r = read(c->fd, c->buf + c->len, sizeof(c->buf) - c->len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c->len += (size_t)r;
	}
}

int ctl_call(struct ctl *c, char *reply, size_t n, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (k < 0 || k >= (int)sizeof(line))
		return -1;
	if (ctl_send(c, "%s", line) || ctl_recv(c, reply, n)) {
		snprintf(reply, n, "ERR control connection lost");
		return -1;
	}
	return 0;
}
