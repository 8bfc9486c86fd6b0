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
 * after whw_crc32_clmul_ok().  crc32_vpclmul.c folds the same way four
 * blocks to an instruction where the processor has AVX-512 VPCLMULQDQ;
 * both end in whw_crc32_fold.h.
 *
 * The ICRC's variant (the _icrc functions) masks the packet's headers
 * as it loads its first 64 bytes, and may put zeros in front of them
 * (roce_icrc.c says why): the masked headers are never stored and
 * loaded back, which cost as much as folding 250 bytes.
 */
#include "whw_crc32_clmul.h"

#if defined(__x86_64__)
#include "whw_crc32_fold.h"

bool whw_crc32_clmul_ok(void)
{
	/* Needed before constructors have run; harmless after. */
	__builtin_cpu_init();
	return __builtin_cpu_supports("pclmul") &&
	       __builtin_cpu_supports("sse4.1");
}

/*
 * The fold of a message whose first 64 bytes are @x0..@x3 (the register
 * state added already) and whose rest is @len bytes at @p, a multiple of
 * 16.
 */
CLMUL_TARGET
static inline uint32_t fold(__m128i x0, __m128i x1, __m128i x2, __m128i x3,
			    const uint8_t *p, size_t len)
{
	__m128i k = crc_k(K_512_HI, K_512_LO);

	while (len >= 64) {
		x0 = _mm_xor_si128(crc_fold(x0, k), crc_load(p));
		x1 = _mm_xor_si128(crc_fold(x1, k), crc_load(p + 16));
		x2 = _mm_xor_si128(crc_fold(x2, k), crc_load(p + 32));
		x3 = _mm_xor_si128(crc_fold(x3, k), crc_load(p + 48));
		p += 64;
		len -= 64;
	}

	/* Four accumulators into one, then the remaining 16-byte blocks. */
	k = crc_k(K_128_HI, K_128_LO);
	x0 = _mm_xor_si128(crc_fold(x0, k), x1);
	x0 = _mm_xor_si128(crc_fold(x0, k), x2);
	x0 = _mm_xor_si128(crc_fold(x0, k), x3);
	return crc_fold_finish(x0, p, len);
}

CLMUL_TARGET
uint32_t whw_crc32_clmul(uint32_t crc, const uint8_t *p, size_t len)
{
	/* The register's state is simply added to the first 32 bits. */
	return fold(_mm_xor_si128(crc_load(p), _mm_cvtsi32_si128((int)crc)),
		    crc_load(p + 16), crc_load(p + 32), crc_load(p + 48),
		    p + 64, len - 64);
}

/* @hi:@lo moved down @z bytes (the shift an immediate: a case each). */
CLMUL_TARGET
static inline __m128i align(__m128i hi, __m128i lo, unsigned int z)
{
	switch (z) {
	case 4:
		return _mm_alignr_epi8(hi, lo, 12);
	case 8:
		return _mm_alignr_epi8(hi, lo, 8);
	default:
		return _mm_alignr_epi8(hi, lo, 4);
	}
}

CLMUL_TARGET
uint32_t whw_crc32_clmul_icrc(uint32_t crc, const uint8_t *p,
			      const uint8_t *ones, unsigned int z, size_t len)
{
	__m128i x0, x1, x2, x3;

	x0 = _mm_or_si128(crc_load(p), crc_load(ones));
	x0 = _mm_xor_si128(x0, _mm_cvtsi32_si128((int)crc));
	x1 = _mm_or_si128(crc_load(p + 16), crc_load(ones + 16));
	x2 = _mm_or_si128(crc_load(p + 32), crc_load(ones + 32));
	x3 = _mm_or_si128(crc_load(p + 48), crc_load(ones + 48));
	if (z) {
		x3 = align(x3, x2, z);
		x2 = align(x2, x1, z);
		x1 = align(x1, x0, z);
		x0 = align(x0, _mm_setzero_si128(), z);
	}
	return fold(x0, x1, x2, x3, p + 64 - z, len);
}

#else
/* Nothing to accelerate here; keep the unit non-empty for ISO C. */
typedef int whw_crc32_clmul_none;
#endif
