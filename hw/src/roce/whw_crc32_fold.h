/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The parts of CRC-32 folding (crc32_clmul.c's comment has the method)
 * that the 128-bit and the 512-bit loops share: the folding constants,
 * one 128-bit fold, and the end of every run - the 16-byte blocks left
 * after the wide loop and the reduction of 128 bits to the 32-bit
 * register.  Internal to crc32_clmul.c and crc32_vpclmul.c; everything
 * is static inline with its instructions enabled per function, which the
 * wider callers' own targets include.
 */
#ifndef WHW_CRC32_FOLD_H
#define WHW_CRC32_FOLD_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

/*
 * rev33(x^k mod P) for the distances folded across, k = d + 32 and
 * d - 32 for a fold over d bits (the + 32 is the CRC's x^32).
 */
#define K_2048_HI	0x11542778aull	/* x^(2048 + 32) mod P */
#define K_2048_LO	0x1322d1430ull	/* x^(2048 - 32) mod P */
#define K_512_HI	0x154442bd4ull	/* x^(512 + 32) mod P */
#define K_512_LO	0x1c6e41596ull	/* x^(512 - 32) mod P */
#define K_384_HI	0x03db1ecdcull	/* x^(384 + 32) mod P */
#define K_384_LO	0x174359406ull	/* x^(384 - 32) mod P */
#define K_256_HI	0x0f1da05aaull	/* x^(256 + 32) mod P */
#define K_256_LO	0x15a546366ull	/* x^(256 - 32) mod P */
#define K_128_HI	0x1751997d0ull	/* x^(128 + 32) mod P */
#define K_128_LO	0x0ccaa009eull	/* x^(128 - 32) mod P */
#define K_64		0x163cd6124ull	/* x^64 mod P */
/* Barrett: P and mu = x^64 / P, both as 33-bit reversed values. */
#define K_POLY		0x1db710641ull
#define K_MU		0x1f7011641ull

#define CLMUL_TARGET	__attribute__((target("pclmul,ssse3,sse4.1")))

/* A fold constant pair as fold() takes it: x^(d + 32) in the low half. */
CLMUL_TARGET
static inline __m128i crc_k(uint64_t hi, uint64_t lo)
{
	return _mm_set_epi64x((long long)lo, (long long)hi);
}

/* @x's low half times @k's low half plus high times high. */
CLMUL_TARGET
static inline __m128i crc_fold(__m128i x, __m128i k)
{
	return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
			     _mm_clmulepi64_si128(x, k, 0x11));
}

CLMUL_TARGET
static inline __m128i crc_load(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/*
 * The register after the message folded into @x0 and the @len more bytes
 * at @p (a multiple of 16, possibly none).
 */
CLMUL_TARGET
static inline uint32_t crc_fold_finish(__m128i x0, const uint8_t *p, size_t len)
{
	const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);
	__m128i k = crc_k(K_128_HI, K_128_LO), t;

	while (len >= 16) {
		x0 = _mm_xor_si128(crc_fold(x0, k), crc_load(p));
		p += 16;
		len -= 16;
	}

	/*
	 * 128 bits to 96, appending the CRC's x^32 on the way: the earlier
	 * (low) half times x^96 mod P, added to the later half.
	 */
	t = _mm_clmulepi64_si128(x0, k, 0x10);
	x0 = _mm_xor_si128(_mm_srli_si128(x0, 8), t);
	/* 96 bits to 64: the earliest 32 times x^64 mod P onto the rest. */
	t = _mm_srli_si128(x0, 4);
	x0 = _mm_clmulepi64_si128(_mm_and_si128(x0, low32),
				  _mm_set_epi64x(0, (long long)K_64), 0x00);
	x0 = _mm_xor_si128(x0, t);

	/*
	 * Barrett: the quotient's estimate q = (low 32 bits * mu), low 32
	 * bits of it times P cancel the low 64 bits down to the remainder,
	 * which is left in bits 32..63.
	 */
	k = _mm_set_epi64x((long long)K_MU, (long long)K_POLY);
	t = _mm_clmulepi64_si128(_mm_and_si128(x0, low32), k, 0x10);
	t = _mm_clmulepi64_si128(_mm_and_si128(t, low32), k, 0x00);
	x0 = _mm_xor_si128(x0, t);
	return (uint32_t)_mm_extract_epi32(x0, 1);
}

#endif
