/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Little-endian contract fields to and from CPU order.
 */
#ifndef WHW_LE_H
#define WHW_LE_H

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

#endif
