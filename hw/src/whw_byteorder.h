/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Byte order, in one place: the contract's little-endian fields to and
 * from CPU order, and the wire's big-endian (network order) fields read
 * from and written to a byte buffer.  The wire helpers go byte by byte,
 * so a field may sit at any alignment in a frame, and they are the same
 * on every host.
 */
#ifndef WHW_BYTEORDER_H
#define WHW_BYTEORDER_H

#include <stdint.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
static inline uint16_t whw_le16(uint16_t v) { return __builtin_bswap16(v); }
static inline uint32_t whw_le32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint64_t whw_le64(uint64_t v) { return __builtin_bswap64(v); }
#else
static inline uint16_t whw_le16(uint16_t v) { return v; }
static inline uint32_t whw_le32(uint32_t v) { return v; }
static inline uint64_t whw_le64(uint64_t v) { return v; }
#endif

static inline uint16_t whw_rd16be(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t whw_rd24be(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t whw_rd32be(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t whw_rd64be(const uint8_t *p)
{
	return (uint64_t)whw_rd32be(p) << 32 | whw_rd32be(p + 4);
}

static inline void whw_wr16be(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void whw_wr24be(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static inline void whw_wr32be(uint8_t *p, uint32_t v)
{
	whw_wr16be(p, (uint16_t)(v >> 16));
	whw_wr16be(p + 2, (uint16_t)v);
}

static inline void whw_wr64be(uint8_t *p, uint64_t v)
{
	whw_wr32be(p, (uint32_t)(v >> 32));
	whw_wr32be(p + 4, (uint32_t)v);
}

#endif
