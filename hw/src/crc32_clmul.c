// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CRC-32 by folding with carry-less multiplication (Intel's "Fast CRC
 * Computation for Generic Polynomials Using PCLMULQDQ", for the reflected
 * IEEE polynomial P = 0x104c11db7).  A CRC is the message as a polynomial
 * over GF(2), times x^32, mod P.  A 128-bit block B followed by n more
 * bits of message contributes B * x^n, and B * x^n mod P is congruent to
 * B_hi * (x^(n+64) mod P) + B_lo * (x^n mod P): two 64 x 33-bit carry-less
 * products, 96 bits wide, that can simply be added (xor) to the block n
 * bits further on.  So the message is folded 512 bits at a time into four
 * 128-bit accumulators (independent chains, which hides PCLMULQDQ's
 * latency), then the four into one, then 128 bits at a time, and the last
 * 128 bits are reduced to 32 by two more folds and a Barrett reduction.
 * No tables: eight multiplies per 64 bytes instead of 64 table lookups.
 *
 * Bit order: the CRC is reflected, so a byte's bit 0 is its highest
 * coefficient and a little-endian 128-bit load has the message's first
 * bits at the bottom.  The constants are bit-reversed to match, and
 * shifted left one place because the reversed 127-bit product of two
 * 64-bit operands lands one bit low in the 128-bit result.
 *
 * Compiled with the instructions enabled per function (target attribute),
 * never for the whole file: hw/src goes into QEMU and the fuzz build with
 * their own flags, and must run on any x86-64; roce_icrc.c calls this only
 * after whw_crc32_clmul_ok().
 */
#include "crc32_clmul.h"

#if defined(__x86_64__)
#include <immintrin.h>

/*
 * rev33(x^k mod P) << 1 for the distances folded across, k = d + 32 and
 * d - 32 for a fold over d bits (the + 32 is the CRC's x^32).
 */
#define K_512_HI	0x154442bd4ull	/* x^(512 + 32) mod P */
#define K_512_LO	0x1c6e41596ull	/* x^(512 - 32) mod P */
#define K_128_HI	0x1751997d0ull	/* x^(128 + 32) mod P */
#define K_128_LO	0x0ccaa009eull	/* x^(128 - 32) mod P */
#define K_64		0x163cd6124ull	/* x^64 mod P */
/* Barrett: P and mu = x^64 / P, both as 33-bit reversed values. */
#define K_POLY		0x1db710641ull
#define K_MU		0x1f7011641ull

#define CLMUL_TARGET	__attribute__((target("pclmul,sse4.1")))

bool whw_crc32_clmul_ok(void)
{
	/* Needed before constructors have run; harmless after. */
	__builtin_cpu_init();
	return __builtin_cpu_supports("pclmul") &&
	       __builtin_cpu_supports("sse4.1");
}

/* @x's low half times @k's low half plus high times high. */
CLMUL_TARGET
static inline __m128i fold(__m128i x, __m128i k)
{
	return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
			     _mm_clmulepi64_si128(x, k, 0x11));
}

CLMUL_TARGET
static inline __m128i load(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

CLMUL_TARGET
uint32_t whw_crc32_clmul(uint32_t crc, const uint8_t *p, size_t len)
{
	const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);
	__m128i k = _mm_set_epi64x((long long)K_512_LO, (long long)K_512_HI);
	__m128i x0, x1, x2, x3, t;

	/* The register's state is simply added to the first 32 bits. */
	x0 = _mm_xor_si128(load(p), _mm_cvtsi32_si128((int)crc));
	x1 = load(p + 16);
	x2 = load(p + 32);
	x3 = load(p + 48);
	p += 64;
	len -= 64;

	while (len >= 64) {
		x0 = _mm_xor_si128(fold(x0, k), load(p));
		x1 = _mm_xor_si128(fold(x1, k), load(p + 16));
		x2 = _mm_xor_si128(fold(x2, k), load(p + 32));
		x3 = _mm_xor_si128(fold(x3, k), load(p + 48));
		p += 64;
		len -= 64;
	}

	/* Four accumulators into one, then the remaining 16-byte blocks. */
	k = _mm_set_epi64x((long long)K_128_LO, (long long)K_128_HI);
	x0 = _mm_xor_si128(fold(x0, k), x1);
	x0 = _mm_xor_si128(fold(x0, k), x2);
	x0 = _mm_xor_si128(fold(x0, k), x3);
	while (len >= 16) {
		x0 = _mm_xor_si128(fold(x0, k), load(p));
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

#else
/* Nothing to accelerate here; keep the unit non-empty for ISO C. */
typedef int whw_crc32_clmul_none;
#endif
