// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue memory: rings the kernel pins and the NIC reads and writes by
 * DMA, page aligned and kept out of fork()ed children.
 */
#include <stdlib.h>
#include <string.h>

#include "wren.h"

int wren_buf_alloc(struct wren_buf *buf, size_t length, size_t page_size)
{
	int ret;

	buf->length = align(length, page_size);
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
	ibv_dofork_range(buf->addr, buf->length);
	free(buf->addr);
	buf->addr = NULL;
}
