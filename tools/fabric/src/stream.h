/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * QEMU's stream netdev framing: every frame on the socket is preceded by its
 * length as a 4-byte big-endian integer (net/stream.c: htonl(size), read
 * back by net_fill_rstate()).  stream_rx reassembles frames from arbitrary
 * read boundaries; outbuf holds framed bytes waiting for a slow peer.
 */
#ifndef WREN_FABRIC_STREAM_H
#define WREN_FABRIC_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ether.h"

#define STREAM_LEN_BYTES 4
#define STREAM_RX_CAP (2 * (STREAM_LEN_BYTES + ETH_MAX_STREAM_FRAME))

struct stream_rx {
	uint8_t buf[STREAM_RX_CAP];
	size_t start; /* first unconsumed byte */
	size_t end;   /* one past the last byte read */
};

enum stream_status {
	STREAM_FRAME,     /* *frame / *len describe a complete frame */
	STREAM_NEED_MORE, /* read more bytes */
	STREAM_BAD_LENGTH /* length 0 or > ETH_MAX_STREAM_FRAME: drop peer */
};

void stream_rx_reset(struct stream_rx *rx);
/* Room to read into: compacts the buffer first. */
uint8_t *stream_rx_space(struct stream_rx *rx, size_t *room);
void stream_rx_commit(struct stream_rx *rx, size_t n);
/* Next complete frame; valid until the next stream_rx_space() call. */
enum stream_status stream_rx_next(struct stream_rx *rx, const uint8_t **frame,
				  uint32_t *len);

struct outbuf {
	uint8_t *buf;
	size_t start, end, cap;
};

void outbuf_init(struct outbuf *o);
void outbuf_free(struct outbuf *o);
void outbuf_clear(struct outbuf *o);
static inline size_t outbuf_pending(const struct outbuf *o)
{
	return o->end - o->start;
}
/* Append raw bytes; false if memory ran out. */
bool outbuf_append(struct outbuf *o, const void *data, size_t len);
/* Append @frame with its 4-byte length prefix. */
bool outbuf_append_frame(struct outbuf *o, const uint8_t *frame, uint32_t len);
/* Write what the socket takes; -1 on a fatal socket error. */
int outbuf_flush(struct outbuf *o, int fd);

#endif
