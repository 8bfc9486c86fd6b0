// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Where a test buffer lives, chosen once per process with --mem:
 *
 *   host        posix_memalign(), ibv_reg_mr()
 *   gpu-dmabuf  GPU memory of the stand-in GPU driver (selftests/rdma/gpu,
 *               /dev/wren_gpu0), exported as a dma-buf and registered
 *               with ibv_reg_dmabuf_mr(), iova = its CPU address
 *   gpu-peer    the same GPU memory registered with plain ibv_reg_mr()
 *               on its mapping: pinning fails (VM_IO | VM_PFNMAP), and
 *               wren_ib hands the range to the peer-memory clients,
 *               i.e. nvidia-peermem and nvidia_p2p_get_pages()
 *
 * The CPU reaches GPU memory through the driver's mapping of the BAR, so
 * every check of the tests judges the bytes in the device's memory.  A
 * GPU buffer's mapping is placed on a GPU-page (64 KiB) boundary, as
 * CUDA's are: nvidia-peermem works in whole GPU pages.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include "wvt.h"
#include "../gpu/wren_test_gpu.h"

static enum mem_kind kind = MEM_HOST;
static int gpu_fd = -1;
static size_t gpu_pad;		/* --gpu-pad-mib: GPU memory held below ours */

static const char *const kind_names[] = {
	[MEM_HOST] = "host",
	[MEM_GPU_DMABUF] = "gpu-dmabuf",
	[MEM_GPU_PEER] = "gpu-peer",
};

int mem_select(const char *name)
{
	for (int k = 0; k < (int)(sizeof(kind_names) / sizeof(kind_names[0])); k++) {
		if (!strcmp(name, kind_names[k])) {
			kind = (enum mem_kind)k;
			return 0;
		}
	}
	fprintf(stderr, "wvt: --mem %s: one of host, gpu-dmabuf, gpu-peer\n", name);
	return -1;
}

enum mem_kind mem_kind(void)
{
	return kind;
}

const char *mem_name(void)
{
	return kind_names[kind];
}

void mem_set_gpu_pad(size_t bytes)
{
	gpu_pad = bytes;
}

/* Opened on first use: the target forks before either process does. */
static int gpu_open(void)
{
	const char *path = getenv("WVT_GPU_DEV");

	if (gpu_fd >= 0)
		return 0;
	gpu_fd = open(path ? path : "/dev/wren_gpu0", O_RDWR | O_CLOEXEC);
	if (gpu_fd < 0) {
		fprintf(stderr, "wvt: open %s: %s\n", path ? path : "/dev/wren_gpu0",
			strerror(errno));
		return -1;
	}
	return 0;
}

static int gpu_alloc(struct mem *m, size_t len)
{
	struct wtgpu_alloc a = { .size = (len + WTGPU_PAGE_SIZE - 1) & ~(WTGPU_PAGE_SIZE - 1) };
	struct wtgpu_export e = { 0 };
	uint8_t *va, *aligned;

	if (gpu_open())
		return -1;
	/*
	 * The GPU driver allocates first-fit: holding @gpu_pad bytes (until
	 * the process exits) puts this buffer above what a later test,
	 * starting at offset 0, overwrites.
	 */
	if (gpu_pad) {
		struct wtgpu_alloc pad = { .size = gpu_pad };

		if (ioctl(gpu_fd, WTGPU_ALLOC, &pad)) {
			fprintf(stderr, "wvt: WTGPU_ALLOC %zu (pad): %s\n", gpu_pad,
				strerror(errno));
			return -1;
		}
		gpu_pad = 0;
	}
	if (ioctl(gpu_fd, WTGPU_ALLOC, &a)) {
		fprintf(stderr, "wvt: WTGPU_ALLOC %zu: %s\n", len, strerror(errno));
		return -1;
	}
	m->gpu_off = a.offset;
	m->map_len = a.size;
	/* Reserve one GPU page more, map over the aligned part. */
	va = mmap(NULL, a.size + WTGPU_PAGE_SIZE, PROT_NONE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (va == MAP_FAILED)
		goto err_free;
	aligned = (uint8_t *)(((uintptr_t)va + WTGPU_PAGE_SIZE - 1) & ~(WTGPU_PAGE_SIZE - 1));
	if (aligned > va)
		munmap(va, (size_t)(aligned - va));
	munmap(aligned + a.size, (size_t)(va + WTGPU_PAGE_SIZE - aligned));
	m->ptr = mmap(aligned, a.size, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_FIXED, gpu_fd, (off_t)a.offset);
	if (m->ptr == MAP_FAILED) {
		fprintf(stderr, "wvt: mmap GPU memory: %s\n", strerror(errno));
		munmap(aligned, a.size);
		goto err_free;
	}
	m->dmabuf_fd = -1;
	if (kind == MEM_GPU_DMABUF) {
		e.offset = a.offset;
		e.length = a.size;
		e.flags = O_CLOEXEC;
		if (ioctl(gpu_fd, WTGPU_EXPORT, &e)) {
			fprintf(stderr, "wvt: WTGPU_EXPORT: %s\n", strerror(errno));
			munmap(m->ptr, a.size);
			goto err_free;
		}
		m->dmabuf_fd = e.fd;
	}
	return 0;

err_free:
	ioctl(gpu_fd, WTGPU_FREE, &(struct wtgpu_free){ .offset = a.offset });
	m->ptr = NULL;
	return -1;
}

int mem_alloc(struct mem *m, size_t len)
{
	memset(m, 0, sizeof(*m));
	m->len = len;
	m->dmabuf_fd = -1;
	if (kind == MEM_HOST) {
		void *p;

		if (posix_memalign(&p, 4096, len))
			return -1;
		m->ptr = p;
		return 0;
	}
	return gpu_alloc(m, len);
}

struct ibv_mr *mem_reg(struct mem *m, struct ibv_pd *pd, size_t off, size_t len,
		       int access)
{
	if (kind != MEM_GPU_DMABUF)
		return ibv_reg_mr(pd, m->ptr + off, len, access);
	return ibv_reg_dmabuf_mr(pd, off, len, (uint64_t)(uintptr_t)(m->ptr + off),
				 m->dmabuf_fd, access);
}

int mem_gpu_free(struct mem *m)
{
	if (kind == MEM_HOST || !m->ptr)
		return -1;
	if (ioctl(gpu_fd, WTGPU_FREE, &(struct wtgpu_free){ .offset = m->gpu_off }))
		return -1;
	m->freed = true;
	return 0;
}

void mem_free(struct mem *m)
{
	if (!m->ptr)
		return;
	if (kind == MEM_HOST) {
		free(m->ptr);
	} else {
		if (m->dmabuf_fd >= 0)
			close(m->dmabuf_fd);
		munmap(m->ptr, m->map_len);
		if (!m->freed)
			ioctl(gpu_fd, WTGPU_FREE, &(struct wtgpu_free){ .offset = m->gpu_off });
	}
	memset(m, 0, sizeof(*m));
	m->dmabuf_fd = -1;
}

void mem_manifest(const struct mem *m, size_t off, size_t len, uint32_t seed,
		  uint64_t pos0)
{
	if (kind != MEM_HOST && len)
		printf("gpu_expect %" PRIu64 " %zu %u %" PRIu64 "\n",
		       (uint64_t)(m->gpu_off + off), len, seed, pos0);
}
