// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Toeplitz hash of Microsoft's RSS specification: for every set bit
 * of the input (most significant first), XOR in the 32-bit window of the
 * key that starts at that bit position.  The input is source address,
 * destination address, then (4-tuple) source and destination port, all in
 * network byte order; at most 36 bytes (IPv6 4-tuple), so the 40-byte key
 * always has the 32 bits of window the last input bit needs.
 */
#include "whw_byteorder.h"
#include "whw_eth.h"

uint32_t whw_toeplitz(const uint8_t *key, const uint8_t *in, size_t len)
{
	uint32_t window = whw_rd32be(key);
	uint32_t hash = 0;

	if (len > WREN_RSS_KEY_SIZE - 4)
		len = WREN_RSS_KEY_SIZE - 4;
	for (size_t i = 0; i < len; i++) {
		uint8_t next = key[i + 4];

		for (int bit = 7; bit >= 0; bit--) {
			if (in[i] & (1u << bit))
				hash ^= window;
			window = window << 1 | ((next >> bit) & 1);
		}
	}
	return hash;
}
