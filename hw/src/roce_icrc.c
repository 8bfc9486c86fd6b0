// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The RoCEv2 invariant CRC (IBTA annex A17.3.3): CRC-32 (the IEEE
 * polynomial, reflected, as Ethernet's FCS) over 8 bytes of ones standing
 * for the masked LRH, the IP header, the UDP header and the BTH with their
 * variant fields set to ones, then the rest of the packet up to the ICRC.
 * Masked: IPv4 TOS, TTL and header checksum; IPv6 traffic class, flow
 * label and hop limit; the UDP checksum; the BTH's reserved byte in front
 * of the destination QP.  rxe_icrc.c computes the same thing (its seed
 * 0xdebb20e3 is this CRC's state after the 8 bytes of ones).  The result
 * is inverted and stored little-endian, as the FCS is.
 */
#include <string.h>

#include "roce.h"

/*
 * Slicing-by-8: eight bytes per step through eight tables.  The ICRC
 * covers every payload byte twice per packet (sender and receiver), so
 * it is most of the engine's cost per byte.
 */
static uint32_t crc_table[8][256];
static bool crc_ready;

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^
					  crc_table[0][crc_table[t - 1][i] &
						       0xff];
	crc_ready = true;
}

uint32_t whw_crc32_update(uint32_t crc, const void *p, size_t len)
{
	const uint8_t *b = p;

	if (!crc_ready)
		crc_init();
	while (len >= 8) {
		uint32_t lo = crc ^ ((uint32_t)b[0] | (uint32_t)b[1] << 8 |
				     (uint32_t)b[2] << 16 |
				     (uint32_t)b[3] << 24);
		uint32_t hi = (uint32_t)b[4] | (uint32_t)b[5] << 8 |
			      (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;

		crc = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
		      crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^
		      crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff] ^
		      crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
		b += 8;
		len -= 8;
	}
	while (len--)
		crc = crc_table[0][(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return crc;
}

uint32_t whw_roce_icrc(const uint8_t *l3, bool ipv4, uint32_t total)
{
	static const uint8_t lrh[8] = { 0xff, 0xff, 0xff, 0xff,
					0xff, 0xff, 0xff, 0xff };
	uint8_t hdr[40 + 8 + WHW_BTH_LEN];
	uint32_t ip_len = ipv4 ? 20u : 40u;
	uint32_t hlen = ip_len + 8 + WHW_BTH_LEN;
	uint8_t *udp = hdr + ip_len;
	uint8_t *bth = udp + 8;
	uint32_t crc;

	/* Callers guarantee total >= hlen + ICRC and a 20-byte IPv4 header. */
	memcpy(hdr, l3, hlen);
	if (ipv4) {
		hdr[1] = 0xff;			/* TOS */
		hdr[8] = 0xff;			/* TTL */
		hdr[10] = hdr[11] = 0xff;	/* header checksum */
	} else {
		hdr[0] |= 0x0f;			/* traffic class, low nibble */
		hdr[1] = hdr[2] = hdr[3] = 0xff; /* class and flow label */
		hdr[7] = 0xff;			/* hop limit */
	}
	udp[6] = udp[7] = 0xff;
	bth[4] = 0xff;				/* FECN, BECN, resv6a */
	crc = whw_crc32_update(0xffffffffu, lrh, sizeof(lrh));
	crc = whw_crc32_update(crc, hdr, hlen);
	crc = whw_crc32_update(crc, l3 + hlen, total - hlen - WHW_ICRC_LEN);
	return ~crc;
}
