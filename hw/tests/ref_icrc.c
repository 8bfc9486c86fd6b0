// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <stdbool.h>
#include <string.h>

#include "ref_icrc.h"

/* Bitwise CRC-32 (no table), the independent reference. */
uint32_t ref_crc32(uint32_t crc, const void *buf, size_t n)
{
	const uint8_t *p = buf;

	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return crc;
}

uint32_t ref_icrc(const uint8_t *ip, size_t l3, size_t len)
{
	static const uint8_t ones[8] = { 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0xff, 0xff };
	bool v4 = l3 == 20;
	uint8_t hdr[40 + 8 + 12];	/* IP, UDP and BTH, masked */
	size_t hlen = l3 + 8 + 12;
	uint32_t crc;

	/* The version nibble is the sender's claim, not the length's source:
	 * a fuzzed IPv4 frame can say version 6.
	 */
	if ((l3 != 20 && l3 != 40) || len < hlen + 4)
		return 0;
	memcpy(hdr, ip, hlen);
	if (v4) {
		hdr[1] = 0xff;
		hdr[8] = 0xff;
		hdr[10] = hdr[11] = 0xff;
	} else {
		hdr[0] |= 0x0f;
		hdr[1] = hdr[2] = hdr[3] = 0xff;
		hdr[7] = 0xff;
	}
	hdr[l3 + 6] = hdr[l3 + 7] = 0xff;	/* UDP checksum */
	hdr[l3 + 8 + 4] = 0xff;			/* BTH resv8a */
	crc = ref_crc32(0xffffffffu, ones, sizeof(ones));
	crc = ref_crc32(crc, hdr, hlen);
	return ~ref_crc32(crc, ip + hlen, len - hlen - 4);
}
