// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Test data: byte i of stream s is the tree's test pattern
 * (tools/pattern/wren_pattern.h), a hash of (s, i), so that any byte of
 * any buffer can be predicted from its position alone and a byte copied
 * to the wrong place, twice or not at all shows up; and a buffer left
 * here checks with wren-pattern or gpu_mem_check as well.
 */
#include <string.h>
#include "wvt.h"
#include "wren_pattern.h"

uint8_t pat_byte(uint32_t seed, uint64_t pos)
{
	return wren_pattern_byte(seed, pos);
}

void pat_fill(uint8_t *p, size_t len, uint32_t seed, uint64_t pos0)
{
	wren_pattern_fill(p, len, seed, pos0);
}

long pat_diff(const uint8_t *p, size_t len, uint32_t seed, uint64_t pos0)
{
	return wren_pattern_diff(p, len, seed, pos0);
}

uint64_t pat_u64(uint32_t seed, uint64_t pos)
{
	uint8_t b[8];
	uint64_t v;

	pat_fill(b, 8, seed, pos);
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
