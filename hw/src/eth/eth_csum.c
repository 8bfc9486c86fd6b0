// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Internet checksum (RFC 1071).  Words are summed as the CPU loads
 * them, 8 bytes at a time with end-around carry; the ones' complement sum
 * is byte-order independent, so the folded result stored back with the
 * same byte order is the right checksum in network order.
 */
#include <string.h>

#include "../whw_byteorder.h"
#include "whw_eth.h"

#define IPPROTO_TCP_	6
#define IPPROTO_UDP_	17
#define TCP_CSUM_OFF	16
#define UDP_CSUM_OFF	6

static inline uint64_t add_carry(uint64_t sum, uint64_t v)
{
	sum += v;
	return sum + (sum < v);
}

uint64_t whw_csum_add(uint64_t sum, const void *p, size_t len)
{
	const uint8_t *b = p;
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;

	while (len >= 32) {
		uint64_t a[4];

		memcpy(a, b, sizeof(a));
		sum = add_carry(sum, a[0]);
		sum = add_carry(sum, a[1]);
		sum = add_carry(sum, a[2]);
		sum = add_carry(sum, a[3]);
		b += 32;
		len -= 32;
	}
	while (len >= 8) {
		memcpy(&v8, b, 8);
		sum = add_carry(sum, v8);
		b += 8;
		len -= 8;
	}
	if (len >= 4) {
		memcpy(&v4, b, 4);
		sum = add_carry(sum, v4);
		b += 4;
		len -= 4;
	}
	if (len >= 2) {
		memcpy(&v2, b, 2);
		sum = add_carry(sum, v2);
		b += 2;
		len -= 2;
	}
	if (len) {
		/* A trailing byte is the first of a zero-padded word. */
		uint8_t last[2] = { b[0], 0 };

		memcpy(&v2, last, 2);
		sum = add_carry(sum, v2);
	}
	return sum;
}

uint16_t whw_csum_fold(uint64_t sum)
{
	sum = (sum & 0xffffffffu) + (sum >> 32);
	sum = (sum & 0xffffffffu) + (sum >> 32);
	sum = (sum & 0xffffu) + (sum >> 16);
	sum = (sum & 0xffffu) + (sum >> 16);
	return (uint16_t)sum;
}

uint64_t whw_csum_pseudo(const uint8_t *ip, bool ipv6, uint8_t proto,
			 uint32_t l4_len)
{
	uint8_t tail[8] = { 0 };
	uint64_t sum;

	if (ipv6) {
		/* Source and destination, then length (32 bit) and next. */
		sum = whw_csum_add(0, ip + 8, 32);
		whw_wr32be(tail, l4_len);
		tail[7] = proto;
		return whw_csum_add(sum, tail, 8);
	}
	sum = whw_csum_add(0, ip + 12, 8);
	tail[1] = proto;
	whw_wr16be(tail + 2, (uint16_t)l4_len);
	return whw_csum_add(sum, tail, 4);
}

void whw_ipv4_csum(uint8_t *ip)
{
	uint32_t ihl = (ip[0] & 0xfu) * 4u;
	uint16_t c;

	ip[10] = ip[11] = 0;
	c = (uint16_t)~whw_csum_fold(whw_csum_add(0, ip, ihl));
	memcpy(ip + 10, &c, 2);
}

void whw_tcp_udp_csum(uint8_t *pkt, const struct whw_l34 *h,
		      uint32_t l4_len)
{
	uint8_t *l4 = pkt + h->l4;
	uint8_t *field = l4 + (h->udp ? UDP_CSUM_OFF : TCP_CSUM_OFF);
	uint64_t sum;
	uint16_t c;

	field[0] = field[1] = 0;
	sum = whw_csum_pseudo(pkt + h->l3, h->ipv6,
			      h->udp ? IPPROTO_UDP_ : IPPROTO_TCP_, l4_len);
	c = (uint16_t)~whw_csum_fold(whw_csum_add(sum, l4, l4_len));
	if (h->udp && !c)
		c = 0xffff;	/* 0 means "no checksum" for UDP */
	memcpy(field, &c, 2);
}
