// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Frame fix-ups (fz_frame.h).  The ICRC comes from the unit tests'
 * reference (hw/tests/ref_icrc.c, IBTA's annex A17.3.3), not from the
 * model's own function, so a bug there cannot hide behind a matching
 * bug here.
 */
#include <string.h>

#include "fz_frame.h"
#include "ref_icrc.h"

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void wr16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void ipv4_csum(uint8_t *ip, size_t ihl)
{
	uint32_t sum = 0;

	ip[10] = ip[11] = 0;
	for (size_t i = 0; i + 1 < ihl; i += 2)
		sum += rd16(ip + i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	wr16(ip + 10, ~sum & 0xffff);
}

/* @l3: the IP header, @ip_len bytes long; @total: IP bytes, ICRC included. */
static void icrc(uint8_t *l3, size_t ip_len, size_t total)
{
	uint32_t crc = ref_icrc(l3, ip_len, total);

	for (int i = 0; i < 4; i++)
		l3[total - 4 + i] = (uint8_t)(crc >> (8 * i));
}

void fz_frame_fix(uint8_t *f, size_t len, unsigned int how)
{
	size_t l3 = 14, ip_len, total;
	uint16_t type;
	uint8_t *ip, proto;

	if (len < 14)
		return;
	type = rd16(f + 12);
	if (type == 0x8100 && len >= 18) {
		type = rd16(f + 16);
		l3 = 18;
	}
	ip = f + l3;
	if (type == 0x0800 && len >= l3 + 20) {
		ip_len = (size_t)(ip[0] & 0x0f) * 4;
		if (ip_len < 20 || len < l3 + ip_len)
			return;
		total = rd16(ip + 2);
		if (how & FZ_FIX_LEN) {
			total = len - l3 > 0xffff ? 0xffff : len - l3;
			wr16(ip + 2, (uint32_t)total);
		}
		if (how & FZ_FIX_CSUM)
			ipv4_csum(ip, ip_len);
		proto = ip[9];
	} else if (type == 0x86dd && len >= l3 + 40) {
		ip_len = 40;
		total = 40 + (size_t)rd16(ip + 4);
		if (how & FZ_FIX_LEN) {
			total = len - l3 > 0xffff + 40 ? 0xffff + 40 : len - l3;
			wr16(ip + 4, (uint32_t)(total - 40));
		}
		proto = ip[6];
	} else {
		return;
	}
	if (proto != 17 || total < ip_len + 8 || l3 + total > len)
		return;
	if (how & FZ_FIX_LEN)
		wr16(ip + ip_len + 4, (uint32_t)(total - ip_len));
	/* RoCEv2 (only a 20-byte IPv4 header carries it) with room for a BTH. */
	if ((how & FZ_FIX_ICRC) && rd16(ip + ip_len + 2) == 4791 &&
	    (ip_len == 20 || ip_len == 40) && total >= ip_len + 8 + 12 + 4)
		icrc(ip, ip_len, total);
}
