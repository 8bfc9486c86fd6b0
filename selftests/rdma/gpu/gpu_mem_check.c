// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * gpu_mem_check - judge the emulated GPU's memory from outside the guest.
 *
 * The bench backs the GPU's BAR with a host file (RUN_DIR/gpu<i>.mem);
 * a guest test that left RDMA-written data in GPU memory lists it as
 * "gpu_expect BAR_OFFSET LEN SEED POS0" lines
 * (selftests/rdma/verbs/mem.c).  Each line is checked against the file:
 * bytes [BAR_OFFSET, +LEN) must hold stream SEED from POS0 of the tree's
 * test pattern (tools/pattern/wren_pattern.h).  So the data went to the device's
 * memory, not to a bounce buffer of the guest.
 *
 *   gpu_mem_check MEMFILE MANIFEST    one "ok"/"not ok" line per entry
 *                                     (no plan); exit 0 if all matched
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "wren_pattern.h"

int main(int argc, char **argv)
{
	uint64_t off, pos0;
	unsigned int seed;
	char line[256];
	int fd, bad = 0, n = 0;
	struct stat st;
	uint8_t *mem;
	size_t len;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: gpu_mem_check MEMFILE MANIFEST\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	f = fopen(argv[2], "r");
	if (fd < 0 || !f || fstat(fd, &st)) {
		printf("not ok - gpu_mem_check: open %s and %s\n", argv[1], argv[2]);
		return 1;
	}
	mem = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED) {
		printf("not ok - gpu_mem_check: mmap %s\n", argv[1]);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		long k;

		if (sscanf(line, "gpu_expect %" SCNu64 " %zu %u %" SCNu64, &off, &len,
			   &seed, &pos0) != 4)
			continue;
		n++;
		if (off + len > (uint64_t)st.st_size) {
			printf("not ok - GPU memory [0x%" PRIx64 ", +%zu): beyond the %lld-byte file\n",
			       off, len, (long long)st.st_size);
			bad++;
			continue;
		}
		k = wren_pattern_diff(mem + off, len, seed, pos0);
		if (k >= 0) {
			printf("not ok - GPU memory [0x%" PRIx64 ", +%zu) in the host file holds stream 0x%x: byte %ld is 0x%02x, want 0x%02x\n",
			       off, len, seed, k, mem[off + k],
			       wren_pattern_byte(seed, pos0 + (uint64_t)k));
			bad++;
		} else {
			printf("ok - GPU memory [0x%" PRIx64 ", +%zu) in the host file holds stream 0x%x from %" PRIu64 "\n",
			       off, len, seed, pos0);
		}
	}
	if (!n) {
		printf("not ok - gpu_mem_check: no gpu_expect lines in %s\n", argv[2]);
		bad++;
	}
	return bad ? 1 : 0;
}
