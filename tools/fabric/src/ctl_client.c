// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "ctl_client.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "control.h"

#define CTL_CLIENT_TIMEOUT_MS 10000

static int send_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int ctl_client_main(const char *dir, int argc, char **argv)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char line[CONTROL_MAX_LINE + 1];
	char buf[4096];
	char last[256] = "";
	size_t used = 0, last_len = 0;
	int fd, n;

	n = snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/ctl.sock", dir);
	if (n < 0 || (size_t)n >= sizeof(sun.sun_path)) {
		fprintf(stderr, "wren-fabric ctl: path too long\n");
		return 2;
	}
	line[0] = '\0';
	for (int i = 0; i < argc; i++) {
		n = snprintf(line + used, sizeof(line) - used, "%s%s",
			     i ? " " : "", argv[i]);
		if (n < 0 || (size_t)n >= sizeof(line) - used - 1) {
			fprintf(stderr, "wren-fabric ctl: command too long\n");
			return 2;
		}
		used += (size_t)n;
	}
	line[used++] = '\n';

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		fprintf(stderr, "wren-fabric ctl: %s: %s\n", sun.sun_path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return 2;
	}
	/* one command per connection: half-close tells the fabric we are done */
	if (send_all(fd, line, used) < 0 || shutdown(fd, SHUT_WR) < 0) {
		fprintf(stderr, "wren-fabric ctl: send: %s\n", strerror(errno));
		close(fd);
		return 2;
	}
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		ssize_t r;

		n = poll(&p, 1, CTL_CLIENT_TIMEOUT_MS);
		if (n == 0) {
			fprintf(stderr, "wren-fabric ctl: no answer\n");
			close(fd);
			return 2;
		}
		if (n < 0 && errno == EINTR)
			continue;
		r = recv(fd, buf, sizeof(buf), 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		fwrite(buf, 1, (size_t)r, stdout);
		/* remember the last complete line to decide the exit status */
		for (ssize_t i = 0; i < r; i++) {
			if (buf[i] == '\n') {
				if (last_len)
					last[last_len] = '\0';
				last_len = 0;
				continue;
			}
			if (last_len < sizeof(last) - 1) {
				if (last_len == 0)
					last[0] = '\0';
				last[last_len++] = buf[i];
				last[last_len] = '\0';
			}
		}
	}
	close(fd);
	fflush(stdout);
	if (strcmp(last, "ok") == 0)
		return 0;
	if (strncmp(last, "error:", 6) == 0)
		return 1;
	fprintf(stderr, "wren-fabric ctl: connection closed without an answer\n");
	return 2;
}
