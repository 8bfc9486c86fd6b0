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
 * The first 64 bytes may come from a buffer of their own (the _head
 * variants): the ICRC's masked headers, copied and masked, followed by
 * the rest of the packet where it lies, all in one fold.
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

CLMUL_TARGET
uint32_t whw_crc32_clmul_head(uint32_t crc, const uint8_t *head,
			      const uint8_t *p, size_t len)
{
	__m128i k = crc_k(K_512_HI, K_512_LO);
	__m128i x0, x1, x2, x3;

	/* The register's state is simply added to the first 32 bits. */
	x0 = _mm_xor_si128(crc_load(head), _mm_cvtsi32_si128((int)crc));
	x1 = crc_load(head + 16);
	x2 = crc_load(head + 32);
	x3 = crc_load(head + 48);

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

uint32_t whw_crc32_clmul(uint32_t crc, const uint8_t *p, size_t len)
{
	return whw_crc32_clmul_head(crc, p, p + 64, len - 64);
}

#else
/* Nothing to accelerate here; keep the unit non-empty for ISO C. */
typedef int whw_crc32_clmul_none;
#endif
