// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wren-pattern: a seeded byte stream for end-to-end data checks in the
 * guests.  Under TCG, /dev/urandom plus sha256sum on both ends costs more
 * guest CPU than the network path being tested; regenerating a cheap
 * pseudo-random stream and comparing every byte is both faster and
 * stricter (it names the first bad offset).
 *
 *   wren-pattern gen SEED BYTES          write the stream to stdout
 *   wren-pattern check SEED BYTES        read stdin; exit 0 only if it is
 *                                        exactly that stream
 *
 * The stream is the tree's test pattern (wren_pattern.h), so a buffer
 * another test program wrote with the same seed checks here too.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wren_pattern.h"

#define BLOCK	(64 * 1024)

/* Where the stream is: its seed and the offset of the next byte. */
struct pattern {
	uint64_t seed;
	uint64_t off;
};

static void pattern_fill(struct pattern *p, unsigned char *buf, size_t len)
{
	wren_pattern_fill(buf, len, p->seed, p->off);
	p->off += len;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || end == s || *end ? -1 : 0;
}

static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

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

static int gen(struct pattern *p, uint64_t bytes)
{
	static unsigned char buf[BLOCK];

	while (bytes) {
		size_t n = bytes < BLOCK ? (size_t)bytes : BLOCK;

		pattern_fill(p, buf, n);
		if (write_all(STDOUT_FILENO, buf, n)) {
			fprintf(stderr, "wren-pattern: write: %s\n", strerror(errno));
			return 1;
		}
		bytes -= n;
	}
	return 0;
}

static int check(struct pattern *p, uint64_t bytes)
{
	static unsigned char got[BLOCK];
	uint64_t off = 0;

	for (;;) {
		ssize_t n = read(STDIN_FILENO, got, sizeof(got));
		long i;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "wren-pattern: read: %s\n", strerror(errno));
			return 1;
		}
		if (n == 0)
			break;
		if ((uint64_t)n > bytes - off) {
			printf("long: more than %" PRIu64 " bytes\n", bytes);
			return 1;
		}
		i = wren_pattern_diff(got, (size_t)n, p->seed, off);
		if (i >= 0) {
			printf("mismatch at offset %" PRIu64 ": got 0x%02x, want 0x%02x\n",
			       off + (uint64_t)i, got[i],
			       wren_pattern_byte(p->seed, off + (uint64_t)i));
			return 1;
		}
		off += (uint64_t)n;
	}
	if (off != bytes) {
		printf("short: got %" PRIu64 " of %" PRIu64 " bytes\n", off, bytes);
		return 1;
	}
	printf("ok %" PRIu64 " bytes\n", bytes);
	return 0;
}

int main(int argc, char **argv)
{
	struct pattern p = { 0 };
	uint64_t seed, bytes;

	if (argc != 4 || parse_u64(argv[2], &seed) || parse_u64(argv[3], &bytes)) {
		fprintf(stderr, "usage: wren-pattern gen|check SEED BYTES\n");
		return 2;
	}
	p.seed = seed;
	if (!strcmp(argv[1], "gen"))
		return gen(&p, bytes);
	if (!strcmp(argv[1], "check"))
		return check(&p, bytes);
	fprintf(stderr, "usage: wren-pattern gen|check SEED BYTES\n");
	return 2;
}
