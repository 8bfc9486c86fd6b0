/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The test pattern: one seeded byte stream that every data check of the
 * tree writes and verifies (wren-pattern on the guests' pipes,
 * wren_verbs_test in RDMA buffers, gpu_mem_check in the GPU's memory
 * file, wren_gpu_test in BAR memory, wren_mpi_check's values), so that a
 * buffer one program wrote verifies with any other.
 *
 * Byte OFF of stream SEED is byte OFF % 8, least significant first, of
 * word OFF / 8, and word W is splitmix64's W+1st output from state SEED:
 * the finalizer of SEED + (W + 1) * golden gamma.  Any byte follows from
 * (SEED, OFF) alone, so a check can start anywhere, and a shifted,
 * repeated, swapped or zeroed block never passes for the right one.
 *
 * Header only, C and the hosts' and guests' libc alone: the guest test
 * programs (selftests/) and tools/pattern include it without linking
 * anything of each other.
 */
#ifndef WREN_PATTERN_H
#define WREN_PATTERN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define WREN_PATTERN_GAMMA	0x9e3779b97f4a7c15ULL

/* splitmix64's output function: every input bit reaches every output bit. */
static inline uint64_t wren_pattern_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Word @w of stream @seed: bytes [8w, 8w + 8) as a little-endian value. */
static inline uint64_t wren_pattern_word(uint64_t seed, uint64_t w)
{
	return wren_pattern_mix(seed + (w + 1) * WREN_PATTERN_GAMMA);
}

/* Word @w as it lies in memory: its bytes in stream order on any host. */
static inline uint64_t wren_pattern_mem(uint64_t seed, uint64_t w)
{
	uint64_t v = wren_pattern_word(seed, w);

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* Byte @off of stream @seed. */
static inline uint8_t wren_pattern_byte(uint64_t seed, uint64_t off)
{
	return (uint8_t)(wren_pattern_word(seed, off >> 3) >> (8 * (off & 7)));
}

/* Bytes [@off, @off + @len) of stream @seed into @buf. */
static inline void wren_pattern_fill(void *buf, size_t len, uint64_t seed,
				     uint64_t off)
{
	uint8_t *p = (uint8_t *)buf;
	size_t i = 0;

	for (; i < len && ((off + i) & 7); i++)
		p[i] = wren_pattern_byte(seed, off + i);
	for (; i + 8 <= len; i += 8) {
		uint64_t v = wren_pattern_mem(seed, (off + i) >> 3);

		memcpy(p + i, &v, 8);
	}
	for (; i < len; i++)
		p[i] = wren_pattern_byte(seed, off + i);
}

/*
 * Where @buf, which should hold bytes [@off, @off + @len) of stream @seed,
 * first differs from them (an index into @buf), or -1 if it does not.
 */
static inline long wren_pattern_diff(const void *buf, size_t len,
				     uint64_t seed, uint64_t off)
{
	const uint8_t *p = (const uint8_t *)buf;
	size_t i = 0;

	for (; i < len && ((off + i) & 7); i++)
		if (p[i] != wren_pattern_byte(seed, off + i))
			return (long)i;
	/* Whole words compared as words; a bad one is found byte by byte below. */
	for (; i + 8 <= len; i += 8) {
		uint64_t v = wren_pattern_mem(seed, (off + i) >> 3), got;

		memcpy(&got, p + i, 8);
		if (got != v)
			break;
	}
	for (; i < len; i++)
		if (p[i] != wren_pattern_byte(seed, off + i))
			return (long)i;
	return -1;
}

#endif /* WREN_PATTERN_H */
