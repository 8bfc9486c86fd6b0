// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Test data: byte i of stream s is a hash of (s, i), so that any byte of
 * any buffer can be predicted from its position alone and a byte copied
 * to the wrong place, twice or not at all shows up.
 */
#include <string.h>
#include "wvt.h"

static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t word(uint32_t seed, uint64_t w)
{
	return mix(((uint64_t)seed << 40) ^ w);
}

uint8_t pat_byte(uint32_t seed, uint64_t pos)
{
	return (uint8_t)(word(seed, pos >> 3) >> (8 * (pos & 7)));
}

void pat_fill(uint8_t *p, size_t len, uint32_t seed, uint64_t pos0)
{
	size_t i = 0;

	while (i < len && ((pos0 + i) & 7))
		p[i] = pat_byte(seed, pos0 + i), i++;
	for (; i + 8 <= len; i += 8) {
		uint64_t v = word(seed, (pos0 + i) >> 3);

		memcpy(p + i, &v, 8);	/* little-endian host: same bytes */
	}
	for (; i < len; i++)
		p[i] = pat_byte(seed, pos0 + i);
}

long pat_diff(const uint8_t *p, size_t len, uint32_t seed, uint64_t pos0)
{
	size_t i = 0;

	while (i < len && ((pos0 + i) & 7)) {
		if (p[i] != pat_byte(seed, pos0 + i))
			return (long)i;
		i++;
	}
	for (; i + 8 <= len; i += 8) {
		uint64_t v = word(seed, (pos0 + i) >> 3);

		if (memcmp(p + i, &v, 8))
			break;
	}
	for (; i < len; i++)
		if (p[i] != pat_byte(seed, pos0 + i))
			return (long)i;
	return -1;
}

uint64_t pat_u64(uint32_t seed, uint64_t pos)
{
	uint8_t b[8];

	pat_fill(b, 8, seed, pos);
	uint64_t v;

	memcpy(&v, b, 8);
	return v;
}

void layout_make(struct layout *l, size_t total, int nsge, size_t base,
		 int nbufs)
{
	size_t cur[2] = { base, base + 5 }, left = total, start = 0;
	int i;

	if ((size_t)nsge > total)
		nsge = (int)total;
	if (nsge > WVT_MAX_SGE)
		nsge = WVT_MAX_SGE;
	l->n = nsge;
	for (i = 0; i < nsge; i++) {
		/* Uneven: the first piece is half a share, the last the rest. */
		size_t share = total / (size_t)nsge;
		size_t len = i == nsge - 1 ? left : (i == 0 ? (share + 1) / 2 : share);
		int b = nbufs > 1 ? (i & 1) : 0;

		if (!len)
			len = 1;
		l->off[i] = cur[b];
		l->len[i] = len;
		l->start[i] = start;
		l->mr[i] = b;
		cur[b] += len + WVT_GAP;
		start += len;
		left -= len;
	}
}

size_t layout_end(const struct layout *l, int b)
{
	size_t end = 0;
	int i;

	for (i = 0; i < l->n; i++)
		if (l->mr[i] == b && l->off[i] + l->len[i] > end)
			end = l->off[i] + l->len[i];
	return end;
}
