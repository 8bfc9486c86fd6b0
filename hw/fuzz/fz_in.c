// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The fuzz input as a stream of little-endian fields.  A field past the
 * end reads as zero rather than failing, so that every input decodes and
 * a truncated one simply ends in zeros (which the seeds never rely on).
 */
#include <string.h>

#include "fz.h"

size_t fz_bytes(struct fz_in *in, void *buf, size_t len)
{
	size_t n = len < in->n ? len : in->n;

	memcpy(buf, in->p, n);
	memset((uint8_t *)buf + n, 0, len - n);
	in->p += n;
	in->n -= n;
	return n;
}

uint8_t fz_u8(struct fz_in *in)
{
	uint8_t v;

	fz_bytes(in, &v, 1);
	return v;
}

uint16_t fz_u16(struct fz_in *in)
{
	uint8_t b[2];

	fz_bytes(in, b, sizeof(b));
	return (uint16_t)(b[0] | b[1] << 8);
}

uint32_t fz_u32(struct fz_in *in)
{
	uint8_t b[4];

	fz_bytes(in, b, sizeof(b));
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

uint64_t fz_u64(struct fz_in *in)
{
	uint64_t lo = fz_u32(in);

	return lo | (uint64_t)fz_u32(in) << 32;
}

bool fz_more(const struct fz_in *in)
{
	return in->n != 0;
}
