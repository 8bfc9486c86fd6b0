// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue memory: rings the kernel pins and the NIC reads and writes by
 * DMA, page aligned and kept out of fork()ed children - or, for queues
 * made through a parent domain with allocators, the application's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wren.h"

int wren_buf_alloc(struct wren_buf *buf, size_t length, size_t page_size,
		   struct wren_pd *pd, enum wren_res_type type)
{
	int ret;

	buf->length = align(length, page_size);
	buf->pd = NULL;
	if (pd && pd->alloc) {
		void *p = pd->alloc(&pd->ibv_pd, pd->pd_context, buf->length,
				    page_size, type);

		if (p != IBV_ALLOCATOR_USE_DEFAULT) {
			if (!p)
				return ENOMEM;
			/* The kernel pins whole pages from the ring's start. */
			if ((uintptr_t)p & (page_size - 1)) {
				pd->free(&pd->ibv_pd, pd->pd_context, p, type);
				return EINVAL;
			}
			/*
			 * The application's memory, maybe part of a huge page
			 * that MADV_DONTFORK could not split: left as it is,
			 * as mlx5 leaves it.
			 */
			memset(p, 0, buf->length);
			buf->addr = p;
			buf->pd = pd;
			buf->res_type = type;
			return 0;
		}
	}
	ret = posix_memalign(&buf->addr, page_size, buf->length);
	if (ret)
		return ret;
	/* Rings start zeroed: no slot may look written by the device. */
	memset(buf->addr, 0, buf->length);
	ret = ibv_dontfork_range(buf->addr, buf->length);
	if (ret) {
		free(buf->addr);
		buf->addr = NULL;
	}
	return ret;
}

void wren_buf_free(struct wren_buf *buf)
{
	if (!buf->addr)
		return;
	if (buf->pd) {
		buf->pd->free(&buf->pd->ibv_pd, buf->pd->pd_context, buf->addr,
			      buf->res_type);
	} else {
		ibv_dofork_range(buf->addr, buf->length);
		free(buf->addr);
	}
	buf->addr = NULL;
}
