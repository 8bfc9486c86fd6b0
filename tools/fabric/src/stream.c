// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void stream_rx_reset(struct stream_rx *rx)
{
	rx->start = rx->end = 0;
}

uint8_t *stream_rx_space(struct stream_rx *rx, size_t *room)
{
	if (rx->start) {
		memmove(rx->buf, rx->buf + rx->start, rx->end - rx->start);
		rx->end -= rx->start;
		rx->start = 0;
	}
	*room = STREAM_RX_CAP - rx->end;
	return rx->buf + rx->end;
}

void stream_rx_commit(struct stream_rx *rx, size_t n)
{
	rx->end += n;
}

enum stream_status stream_rx_next(struct stream_rx *rx, const uint8_t **frame,
				  uint32_t *len)
{
	size_t have = rx->end - rx->start;
	uint32_t n;

	if (have < STREAM_LEN_BYTES)
		return STREAM_NEED_MORE;
	n = get_be32(rx->buf + rx->start);
	if (n == 0 || n > ETH_MAX_STREAM_FRAME)
		return STREAM_BAD_LENGTH;
	if (have < STREAM_LEN_BYTES + (size_t)n)
		return STREAM_NEED_MORE;
	*frame = rx->buf + rx->start + STREAM_LEN_BYTES;
	*len = n;
	rx->start += STREAM_LEN_BYTES + n;
	return STREAM_FRAME;
}

void outbuf_init(struct outbuf *o)
{
	memset(o, 0, sizeof(*o));
}

void outbuf_free(struct outbuf *o)
{
	free(o->buf);
	outbuf_init(o);
}

void outbuf_clear(struct outbuf *o)
{
	o->start = o->end = 0;
}

bool outbuf_append(struct outbuf *o, const void *data, size_t len)
{
	if (o->start == o->end)
		o->start = o->end = 0;
	if (o->cap - o->end < len && o->start) {
		memmove(o->buf, o->buf + o->start, o->end - o->start);
		o->end -= o->start;
		o->start = 0;
	}
	if (o->cap - o->end < len) {
		size_t cap = o->cap ? o->cap : 4096;
		uint8_t *nb;

		while (cap - o->end < len)
			cap *= 2;
		nb = realloc(o->buf, cap);
		if (!nb)
			return false;
		o->buf = nb;
		o->cap = cap;
	}
	memcpy(o->buf + o->end, data, len);
	o->end += len;
	return true;
}

bool outbuf_append_frame(struct outbuf *o, const uint8_t *frame, uint32_t len)
{
	uint8_t hdr[STREAM_LEN_BYTES];

	put_be32(hdr, len);
	/* reserve both parts first so a failure never leaves half a record */
	if (!outbuf_append(o, hdr, sizeof(hdr)))
		return false;
	if (!outbuf_append(o, frame, len)) {
		o->end -= sizeof(hdr);
		return false;
	}
	return true;
}

int outbuf_flush(struct outbuf *o, int fd)
{
	while (o->start < o->end) {
		ssize_t n = send(fd, o->buf + o->start, o->end - o->start,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -1;
		}
		o->start += (size_t)n;
	}
	o->start = o->end = 0;
	return 0;
}
