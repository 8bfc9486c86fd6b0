// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CRC-32 folding (crc32_clmul.c has the method) with AVX-512's
 * VPCLMULQDQ: one instruction multiplies four 128-bit blocks, so four
 * 512-bit accumulators take 256 bytes a step where the 128-bit loop takes
 * 64, each folded 2048 bits ahead onto the block 256 bytes further on.
 * At the end the four accumulators fold into one 512-bit register, which
 * takes the whole 64-byte blocks left, then its four 128-bit lanes into
 * one (each lane across the 384, 256 and 128 bits the later lanes hold),
 * and whw_crc32_fold.h does the rest.  The ICRC of a 4 KiB RoCE frame is 16
 * such steps.
 *
 * Like crc32_clmul.c, the instructions are enabled per function only, and
 * roce_icrc.c calls this only after whw_crc32_vpclmul_ok().
 */
#include "whw_crc32_clmul.h"

#if defined(__x86_64__)
#include "whw_crc32_fold.h"

#define VPCLMUL_TARGET \
	__attribute__((target("avx512f,vpclmulqdq,pclmul,sse4.1")))

bool whw_crc32_vpclmul_ok(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("vpclmulqdq") &&
	       whw_crc32_clmul_ok();
}

/* crc_fold() on each of the four lanes, with the same constants. */
VPCLMUL_TARGET
static inline __m512i fold4(__m512i x, __m512i k)
{
	return _mm512_xor_si512(_mm512_clmulepi64_epi128(x, k, 0x00),
				_mm512_clmulepi64_epi128(x, k, 0x11));
}

VPCLMUL_TARGET
static inline __m512i load4(const uint8_t *p)
{
	return _mm512_loadu_si512((const void *)p);
}

/*
 * The fold of a message whose first 256 bytes are @z0..@z3 (the register
 * state added already) and whose rest is @len bytes at @p, a multiple of
 * 16.
 */
VPCLMUL_TARGET
static inline uint32_t fold(__m512i z0, __m512i z1, __m512i z2, __m512i z3,
			    const uint8_t *p, size_t len)
{
	__m512i k = _mm512_broadcast_i32x4(crc_k(K_2048_HI, K_2048_LO));
	__m128i x;

	while (len >= 256) {
		z0 = _mm512_xor_si512(fold4(z0, k), load4(p));
		z1 = _mm512_xor_si512(fold4(z1, k), load4(p + 64));
		z2 = _mm512_xor_si512(fold4(z2, k), load4(p + 128));
		z3 = _mm512_xor_si512(fold4(z3, k), load4(p + 192));
		p += 256;
		len -= 256;
	}

	/* Four accumulators into one, each 512 bits ahead of the next. */
	k = _mm512_broadcast_i32x4(crc_k(K_512_HI, K_512_LO));
	z0 = _mm512_xor_si512(fold4(z0, k), z1);
	z0 = _mm512_xor_si512(fold4(z0, k), z2);
	z0 = _mm512_xor_si512(fold4(z0, k), z3);
	/*
	 * The whole 64-byte blocks left, 512 bits a fold.  Left to
	 * crc_fold_finish()'s 16-byte loop they were a chain of up to 15
	 * dependent multiplications: the ICRC of a 1060-byte packet (a
	 * message's last, or a datagram) took 96 ns with them, 69 ns so.
	 */
	while (len >= 64) {
		z0 = _mm512_xor_si512(fold4(z0, k), load4(p));
		p += 64;
		len -= 64;
	}

	/* Its lanes into one: lane i has 3 - i lanes of message after it. */
	x = _mm512_extracti32x4_epi32(z0, 3);
	x = _mm_xor_si128(x, crc_fold(_mm512_extracti32x4_epi32(z0, 2),
				      crc_k(K_128_HI, K_128_LO)));
	x = _mm_xor_si128(x, crc_fold(_mm512_extracti32x4_epi32(z0, 1),
				      crc_k(K_256_HI, K_256_LO)));
	x = _mm_xor_si128(x, crc_fold(_mm512_castsi512_si128(z0),
				      crc_k(K_384_HI, K_384_LO)));
	return crc_fold_finish(x, p, len);
}

VPCLMUL_TARGET
uint32_t whw_crc32_vpclmul(uint32_t crc, const uint8_t *p, size_t len)
{
	/* The register's state is simply added to the first 32 bits. */
	__m512i z0 = _mm512_xor_si512(load4(p),
				      _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)crc)));

	return fold(z0, load4(p + 64), load4(p + 128), load4(p + 192),
		    p + 256, len - 256);
}

VPCLMUL_TARGET
uint32_t whw_crc32_vpclmul_icrc(uint32_t crc, const uint8_t *p,
				const uint8_t *ones, unsigned int z,
				size_t len)
{
	__m512i z0 = _mm512_or_si512(load4(p), load4(ones));
	const uint8_t *q = p + 64 - z;

	z0 = _mm512_xor_si512(z0,
			      _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)crc)));
	/* Up z bytes behind zeros: 32-bit lanes, as z is a multiple of 4. */
	switch (z) {
	case 4:
		z0 = _mm512_alignr_epi32(z0, _mm512_setzero_si512(), 15);
		break;
	case 8:
		z0 = _mm512_alignr_epi32(z0, _mm512_setzero_si512(), 14);
		break;
	case 12:
		z0 = _mm512_alignr_epi32(z0, _mm512_setzero_si512(), 13);
		break;
	}
	return fold(z0, load4(q), load4(q + 64), load4(q + 128), q + 192,
		    len - 192);
}

#else
/* Nothing to accelerate here; keep the unit non-empty for ISO C. */
typedef int whw_crc32_vpclmul_none;
#endif
