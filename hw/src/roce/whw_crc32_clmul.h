/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * CRC-32 (IEEE, reflected) by carry-less multiplication: the bulk of
 * whw_crc32_update() on x86-64 processors with PCLMULQDQ and SSE4.1, or
 * AVX-512 VPCLMULQDQ.
 * Internal to roce_icrc.c, which picks the implementation at run time;
 * other architectures have only the portable slicing-by-8.
 */
#ifndef WHW_CRC32_CLMUL_H
#define WHW_CRC32_CLMUL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
#define WHW_HAVE_CRC32_CLMUL 1

/* Whether this processor has the instructions whw_crc32_clmul() uses. */
bool whw_crc32_clmul_ok(void);

/*
 * Advances the CRC-32 register @crc (not inverted, as whw_crc32_update())
 * over @len bytes at @p, any alignment.  @len is at least 64 and a
 * multiple of 16; the caller does the rest a byte or a word at a time.
 * Only where whw_crc32_clmul_ok().
 */
uint32_t whw_crc32_clmul(uint32_t crc, const uint8_t *p, size_t len);

/*
 * The ICRC's fold (roce_icrc.c): as whw_crc32_clmul() over a message
 * whose first 64 bytes are the 64 at @p with @ones' bits set (the masked
 * headers), moved up @z bytes (0, 4, 8 or 12) behind as many zeros, and
 * whose rest is the @len bytes at @p + 64 - @z, a multiple of 16.  @crc
 * is added to the bytes at @p, not to the zeros.
 */
uint32_t whw_crc32_clmul_icrc(uint32_t crc, const uint8_t *p,
			      const uint8_t *ones, unsigned int z, size_t len);

/* Whether this processor has what whw_crc32_vpclmul() uses (AVX-512F,
 * VPCLMULQDQ, and whw_crc32_clmul()'s instructions for the tail). */
bool whw_crc32_vpclmul_ok(void);

/*
 * As whw_crc32_clmul(), 256 bytes a step (crc32_vpclmul.c): @len is at
 * least 256 and a multiple of 16.  Only where whw_crc32_vpclmul_ok().
 */
uint32_t whw_crc32_vpclmul(uint32_t crc, const uint8_t *p, size_t len);

/* As whw_crc32_clmul_icrc(), @len at least 192. */
uint32_t whw_crc32_vpclmul_icrc(uint32_t crc, const uint8_t *p,
				const uint8_t *ones, unsigned int z,
				size_t len);
#endif

#endif
