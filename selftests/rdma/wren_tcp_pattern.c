// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * An ordinary TCP program, for running under rsockets' librspreload.so:
 * socket(AF_INET, SOCK_STREAM, 0), bind and listen or connect, write and
 * read, as any TCP program does, and nothing else.  (Python's sockets
 * will not do: it opens them with SOCK_CLOEXEC, which rsocket() refuses,
 * and the preload then quietly hands the program a kernel socket.)
 *
 *   wren_tcp_pattern serve IP PORT BYTES   accept one connection, read
 *                                          BYTES and check them
 *   wren_tcp_pattern send IP PORT BYTES    connect (retrying for 60 s
 *                                          while refused), write BYTES
 *
 * The bytes are wren_pattern.h's stream 0x7cb.  Exit status 0 only when
 * BYTES arrived equal (serve) or were all written (send).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "wren_pattern.h"

#define SEED	0x7cbULL
#define CHUNK	65536

static int usage(void)
{
	fprintf(stderr, "usage: wren_tcp_pattern serve|send IP PORT BYTES\n");
	return 2;
}

static int serve(const struct sockaddr_in *sa, unsigned long long n)
{
	static unsigned char buf[CHUNK];
	unsigned long long got = 0;
	int one = 1, s, c;
	ssize_t r;
	long bad;

	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(s, (const struct sockaddr *)sa, sizeof(*sa)) || listen(s, 1)) {
		perror("wren_tcp_pattern: listen");
		return 1;
	}
	c = accept(s, NULL, NULL);
	if (c < 0) {
		perror("wren_tcp_pattern: accept");
		return 1;
	}
	while (got < n) {
		size_t want = n - got < CHUNK ? n - got : CHUNK;

		r = read(c, buf, want);
		if (r <= 0)
			break;
		bad = wren_pattern_diff(buf, r, SEED, got);
		if (bad >= 0) {
			printf("received byte %llu DIFFERENT\n", got + bad);
			return 1;
		}
		got += r;
	}
	close(c);
	close(s);
	printf("received %llu bytes, %s\n", got, got == n ? "equal" : "SHORT");
	return got == n ? 0 : 1;
}

static int send_all(const struct sockaddr_in *sa, unsigned long long n)
{
	static unsigned char buf[CHUNK];
	unsigned long long sent = 0;
	time_t deadline = time(NULL) + 60;
	int s;

	for (;;) {
		s = socket(AF_INET, SOCK_STREAM, 0);
		if (s < 0) {
			perror("wren_tcp_pattern: socket");
			return 1;
		}
		if (!connect(s, (const struct sockaddr *)sa, sizeof(*sa)))
			break;
		if (errno != ECONNREFUSED || time(NULL) > deadline) {
			perror("wren_tcp_pattern: connect");
			return 1;
		}
		close(s);
		usleep(200000);
	}
	while (sent < n) {
		size_t len = n - sent < CHUNK ? n - sent : CHUNK;
		size_t off = 0;

		wren_pattern_fill(buf, len, SEED, sent);
		while (off < len) {
			ssize_t w = write(s, buf + off, len - off);

			if (w <= 0) {
				perror("wren_tcp_pattern: write");
				return 1;
			}
			off += w;
		}
		sent += len;
	}
	close(s);
	printf("sent %llu bytes\n", sent);
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	unsigned long long n;
	char *end;

	if (argc != 5)
		return usage();
	if (inet_pton(AF_INET, argv[2], &sa.sin_addr) != 1)
		return usage();
	sa.sin_port = htons((unsigned short)strtoul(argv[3], &end, 10));
	if (*end)
		return usage();
	n = strtoull(argv[4], &end, 10);
	if (*end)
		return usage();
	if (!strcmp(argv[1], "serve"))
		return serve(&sa, n);
	if (!strcmp(argv[1], "send"))
		return send_all(&sa, n);
	return usage();
}
