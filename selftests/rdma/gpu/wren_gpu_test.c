// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wren_gpu_test: drives /dev/wren_gpu<N> of wren_test_gpu.ko (the emulated
 * GPU's test driver) from user space.  Built by `make gpu-tests`; used by
 * selftests/rdma/wren-gpu-driver.sh.
 *
 *   wren_gpu_test [-d DEV] info
 *       the counters of WTGPU_INFO, one "name value" line each
 *   wren_gpu_test [-d DEV] [-s BYTES] selftest
 *       allocate, map (64 KiB aligned), write and read back through two
 *       mappings, refuse what must be refused, export a dma-buf, free, and
 *       check that the counters come back; a child killed with its memory
 *       mapped and exported gives everything back.  One "PASS name",
 *       "FAIL name: why" or "SKIP name: why" line per case.
 *   wren_gpu_test [-d DEV] [-s BYTES] hold
 *       allocate and map BYTES, write a seeded pattern (seed = BAR offset),
 *       print "offset OFF size SIZE va VA", then wait for stdin to close
 *
 * Exit status: 0 when every case passed, 1 otherwise, 2 on usage errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wren_pattern.h"
#include "wren_test_gpu.h"

static const char *dev = "/dev/wren_gpu0";
static int failed;

static void result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", name);
	} else {
		failed = 1;
		printf("FAIL %s: ", name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	fflush(stdout);
}

static int info(int fd, struct wtgpu_info *i)
{
	memset(i, 0, sizeof(*i));
	return ioctl(fd, WTGPU_INFO, i);
}

static void print_info(const struct wtgpu_info *i)
{
	printf("bar_size %" PRIu64 "\nbar_free %" PRIu64 "\nallocs %" PRIu64
	       "\np2p_tables %" PRIu64 "\np2p_pages %" PRIu64
	       "\np2p_dma_maps %" PRIu64 "\ndmabufs %" PRIu64
	       "\ndmabuf_maps %" PRIu64 "\nfree_callbacks %" PRIu64 "\n",
	       (uint64_t)i->bar_size, (uint64_t)i->bar_free,
	       (uint64_t)i->allocs, (uint64_t)i->p2p_tables,
	       (uint64_t)i->p2p_pages, (uint64_t)i->p2p_dma_maps,
	       (uint64_t)i->dmabufs, (uint64_t)i->dmabuf_maps,
	       (uint64_t)i->free_callbacks);
}

/* The counters that must come back to where they were. */
static int same_levels(const struct wtgpu_info *a, const struct wtgpu_info *b,
		       char *why, size_t len)
{
	snprintf(why, len, "bar_free %llu->%llu allocs %llu->%llu dmabufs %llu->%llu p2p_tables %llu->%llu",
		 (unsigned long long)a->bar_free, (unsigned long long)b->bar_free,
		 (unsigned long long)a->allocs, (unsigned long long)b->allocs,
		 (unsigned long long)a->dmabufs, (unsigned long long)b->dmabufs,
		 (unsigned long long)a->p2p_tables, (unsigned long long)b->p2p_tables);
	return a->bar_free == b->bar_free && a->allocs == b->allocs &&
	       a->dmabufs == b->dmabufs && a->dmabuf_maps == b->dmabuf_maps &&
	       a->p2p_tables == b->p2p_tables && a->p2p_pages == b->p2p_pages &&
	       a->p2p_dma_maps == b->p2p_dma_maps;
}

/* Map @len of allocation @off at a WTGPU_PAGE_SIZE-aligned address. */
static void *map_aligned(int fd, uint64_t off, size_t len, int flags)
{
	size_t span = len + WTGPU_PAGE_SIZE;
	uintptr_t base, va;
	void *r, *p;

	r = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return MAP_FAILED;
	base = (uintptr_t)r;
	va = (base + WTGPU_PAGE_SIZE - 1) & ~(uintptr_t)(WTGPU_PAGE_SIZE - 1);
	p = mmap((void *)va, len, PROT_READ | PROT_WRITE, flags | MAP_FIXED, fd, off);
	if (p == MAP_FAILED) {
		int e = errno;

		munmap(r, span);
		errno = e;
		return MAP_FAILED;
	}
	if (va > base)
		munmap(r, va - base);
	if (base + span > va + len)
		munmap((void *)(va + len), base + span - (va + len));
	return p;
}

/*
 * Word @i of the tree's test pattern as it lies in memory, so that BAR
 * memory written here holds stream @seed from offset 0 for any checker.
 */
static uint64_t pattern(uint64_t seed, size_t i)
{
	return wren_pattern_mem(seed, i);
}

static void fill(volatile uint64_t *p, size_t len, uint64_t seed)
{
	size_t i;

	for (i = 0; i < len / 8; i++)
		p[i] = pattern(seed, i);
}

/* Index of the first mismatching u64, or -1. */
static long check(volatile const uint64_t *p, size_t len, uint64_t seed)
{
	size_t i;

	for (i = 0; i < len / 8; i++)
		if (p[i] != pattern(seed, i))
			return (long)i;
	return -1;
}

static int do_alloc(int fd, uint64_t size, uint64_t *off)
{
	struct wtgpu_alloc a = { .size = size };

	if (ioctl(fd, WTGPU_ALLOC, &a))
		return -errno;
	*off = a.offset;
	return 0;
}

static int do_free(int fd, uint64_t off)
{
	struct wtgpu_free f = { .offset = off };

	return ioctl(fd, WTGPU_FREE, &f) ? -errno : 0;
}

static int do_export(int fd, uint64_t off, uint64_t len)
{
	struct wtgpu_export e = { .offset = off, .length = len, .flags = O_CLOEXEC };

	return ioctl(fd, WTGPU_EXPORT, &e) ? -errno : e.fd;
}

/* A child that allocates, maps, writes and exports, then is killed. */
static void killed_child(size_t size)
{
	struct wtgpu_info before, after;
	char why[256];
	int p[2], fd, status, tries;
	pid_t pid;
	char c;

	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0 || info(fd, &before)) {
		result(0, "killed process gives everything back", "%s: %s", dev, strerror(errno));
		return;
	}
	if (pipe(p)) {
		result(0, "killed process gives everything back", "pipe: %s", strerror(errno));
		close(fd);
		return;
	}
	pid = fork();
	if (pid == 0) {
		int cfd = open(dev, O_RDWR);
		uint64_t off;
		void *m;

		if (cfd < 0 || do_alloc(cfd, size, &off))
			_exit(1);
		m = map_aligned(cfd, off, size, MAP_SHARED);
		if (m == MAP_FAILED)
			_exit(1);
		fill(m, size, off);
		if (do_export(cfd, off, size) < 0)
			_exit(1);
		if (write(p[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &c, 1) != 1) {
		result(0, "killed process gives everything back", "child did not set up");
		if (pid > 0)
			waitpid(pid, &status, 0);
		close(p[0]);
		close(fd);
		return;
	}
	info(fd, &after);
	result(after.allocs == before.allocs + 1 && after.dmabufs == before.dmabufs + 1,
	       "child holds an allocation and a dma-buf", "allocs %llu dmabufs %llu",
	       (unsigned long long)after.allocs, (unsigned long long)after.dmabufs);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	/* The child's files are closed before wait returns; dma-buf
	 * release may trail it by an fput worker.
	 */
	for (tries = 0; tries < 100; tries++) {
		info(fd, &after);
		if (same_levels(&before, &after, why, sizeof(why)))
			break;
		usleep(20000);
	}
	result(same_levels(&before, &after, why, sizeof(why)),
	       "killed process gives everything back", "%s", why);
	close(p[0]);
	close(fd);
}

static int selftest(size_t size)
{
	struct wtgpu_info base, i;
	uint64_t off, off2, big;
	volatile uint64_t *m, *m2;
	char why[256];
	long bad;
	int fd, r, dfd;
	int pfd[2];
	void *x;

	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		result(0, "open", "%s: %s", dev, strerror(errno));
		return 1;
	}
	r = info(fd, &base);
	result(!r && base.bar_size >= size && base.bar_free <= base.bar_size,
	       "WTGPU_INFO", "%s, bar_size %llu", r ? strerror(errno) : "ok",
	       (unsigned long long)base.bar_size);
	if (r)
		return 1;

	r = do_alloc(fd, size - 1, &off);
	result(!r && off % WTGPU_PAGE_SIZE == 0, "WTGPU_ALLOC rounds to GPU pages",
	       "%s, offset %#llx", strerror(-r), (unsigned long long)off);
	if (r)
		return 1;
	info(fd, &i);
	result(i.allocs == base.allocs + 1 && i.bar_free == base.bar_free - size,
	       "allocation counted", "allocs %llu bar_free %llu",
	       (unsigned long long)i.allocs, (unsigned long long)i.bar_free);

	r = do_alloc(fd, base.bar_size + 1, &big);
	result(r == -EINVAL || r == -ENOSPC, "allocation larger than the BAR refused",
	       "got %s", strerror(-r));
	r = do_free(fd, off + WTGPU_PAGE_SIZE);
	result(r == -EINVAL, "WTGPU_FREE of a non-allocation refused", "got %s",
	       strerror(-r));

	m = map_aligned(fd, off, size, MAP_SHARED);
	result(m != MAP_FAILED && (uintptr_t)m % WTGPU_PAGE_SIZE == 0,
	       "mmap at a 64 KiB-aligned address", "%s", strerror(errno));
	if (m == MAP_FAILED)
		return 1;
	m2 = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	result(m2 != MAP_FAILED, "second mapping of the allocation", "%s", strerror(errno));
	x = mmap(NULL, size + WTGPU_PAGE_SIZE, PROT_READ, MAP_SHARED, fd, off);
	result(x == MAP_FAILED && errno == EINVAL, "mapping beyond the allocation refused",
	       "%s", x == MAP_FAILED ? strerror(errno) : "mapped");
	if (x != MAP_FAILED)
		munmap(x, size + WTGPU_PAGE_SIZE);
	x = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, off);
	result(x == MAP_FAILED && errno == EINVAL, "MAP_PRIVATE refused", "%s",
	       x == MAP_FAILED ? strerror(errno) : "mapped");
	if (x != MAP_FAILED)
		munmap(x, size);

	fill(m, size, off);
	bad = check(m, size, off);
	result(bad < 0, "pattern reads back through its mapping", "u64 %ld", bad);
	if (m2 != MAP_FAILED) {
		bad = check(m2, size, off);
		result(bad < 0, "pattern reads back through the other mapping", "u64 %ld", bad);
	}

	/* VM_IO | VM_PFNMAP: get_user_pages() (vmsplice) must refuse it. */
	if (!pipe(pfd)) {
		struct iovec iov = { .iov_base = (void *)m, .iov_len = 4096 };
		ssize_t n = vmsplice(pfd[1], &iov, 1, 0);

		result(n < 0 && errno == EFAULT, "its pages cannot be pinned (vmsplice EFAULT)",
		       "vmsplice returned %zd (%s)", n, n < 0 ? strerror(errno) : "spliced");
		close(pfd[0]);
		close(pfd[1]);
	}

	r = do_export(fd, off + 1, WTGPU_PAGE_SIZE);
	result(r == -EINVAL, "unaligned dma-buf export refused", "got %d", r);
	r = do_export(fd, off, size + WTGPU_PAGE_SIZE);
	result(r == -EINVAL, "dma-buf export beyond the allocation refused", "got %d", r);
	if (r >= 0)
		close(r);
	dfd = do_export(fd, off, size);
	info(fd, &i);
	result(dfd >= 0 && i.dmabufs == base.dmabufs + 1, "WTGPU_EXPORT gives a dma-buf",
	       "%s, dmabufs %llu", dfd < 0 ? strerror(-dfd) : "fd",
	       (unsigned long long)i.dmabufs);
	if (dfd >= 0) {
		off2 = lseek(dfd, 0, SEEK_END);
		result(off2 == size, "dma-buf size is the exported length", "%llu",
		       (unsigned long long)off2);
	}

	r = do_free(fd, off);
	info(fd, &i);
	result(!r && i.allocs == base.allocs + 1 && i.bar_free == base.bar_free - size,
	       "WTGPU_FREE while mapped and exported keeps the BAR pages",
	       "%s, allocs %llu bar_free %llu", strerror(-r),
	       (unsigned long long)i.allocs, (unsigned long long)i.bar_free);
	bad = check(m, size, off);
	result(bad < 0, "freed allocation still reads through its mapping", "u64 %ld", bad);
	r = do_free(fd, off);
	result(r == -EINVAL, "second WTGPU_FREE refused", "got %s", strerror(-r));
	r = do_export(fd, off, size);
	result(r == -EINVAL, "dma-buf export of a freed allocation refused", "got %d", r);
	if (r >= 0)
		close(r);

	munmap((void *)m, size);
	if (m2 != MAP_FAILED)
		munmap((void *)m2, size);
	info(fd, &i);
	result(i.allocs == base.allocs + 1, "dma-buf alone keeps the allocation",
	       "allocs %llu", (unsigned long long)i.allocs);
	if (dfd >= 0)
		close(dfd);
	info(fd, &i);
	result(same_levels(&base, &i, why, sizeof(why)),
	       "last unmap and dma-buf close return the BAR pages", "%s", why);

	/* Close frees what the file still owns. */
	r = do_alloc(fd, size, &off);
	if (!r)
		r = do_alloc(fd, WTGPU_PAGE_SIZE, &off2);
	result(!r, "two more allocations", "%s", strerror(-r));
	close(fd);
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		info(fd, &i);
		result(same_levels(&base, &i, why, sizeof(why)),
		       "close frees the file's allocations", "%s", why);
		close(fd);
	}

	killed_child(size);
	return failed;
}

static int hold(size_t size)
{
	uint64_t off;
	void *m;
	char c;
	int fd, r;

	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror(dev);
		return 1;
	}
	r = do_alloc(fd, size, &off);
	if (r) {
		fprintf(stderr, "WTGPU_ALLOC: %s\n", strerror(-r));
		return 1;
	}
	m = map_aligned(fd, off, size, MAP_SHARED);
	if (m == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	fill(m, size, off);
	printf("offset %llu size %zu va %#llx\n", (unsigned long long)off, size,
	       (unsigned long long)(uintptr_t)m);
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: wren_gpu_test [-d DEV] [-s BYTES] info|selftest|hold\n");
	exit(2);
}

int main(int argc, char **argv)
{
	size_t size = 4 * WTGPU_PAGE_SIZE;
	struct wtgpu_info i;
	int opt, fd;

	while ((opt = getopt(argc, argv, "d:s:")) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 's':
			size = strtoull(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1 || !size || size % WTGPU_PAGE_SIZE)
		usage();
	if (!strcmp(argv[optind], "selftest"))
		return selftest(size) ? 1 : 0;
	if (!strcmp(argv[optind], "hold"))
		return hold(size);
	if (strcmp(argv[optind], "info"))
		usage();
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0 || info(fd, &i)) {
		perror(dev);
		return 1;
	}
	print_info(&i);
	return 0;
}
