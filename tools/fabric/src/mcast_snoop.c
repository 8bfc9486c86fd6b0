// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * IGMP and MLD snooping: reports parsed, a table of groups and their
 * member ports, the forwarding decision for multicast data frames.
 */
#include <string.h>

#include "ether.h"
#include "mcast_snoop.h"

#define IPPROTO_IGMP 2
#define IPPROTO_HOPOPTS 0
#define IPPROTO_ICMPV6 58

#define IGMP_V2_REPORT 0x16
#define IGMP_V2_LEAVE 0x17
#define IGMP_V3_REPORT 0x22
#define MLD_V1_REPORT 131
#define MLD_V1_DONE 132
#define MLD_V2_REPORT 143

/* IGMPv3/MLDv2 record types (RFC 3376 4.2.12, RFC 3810 5.2.12). */
#define REC_IS_INCLUDE 1
#define REC_TO_INCLUDE 3

static const uint8_t v4_prefix[12] = { [10] = 0xff, [11] = 0xff };

static void v4_mapped(uint8_t *addr, const uint8_t *ip4)
{
	memcpy(addr, v4_prefix, 12);
	memcpy(addr + 12, ip4, 4);
}

/* Groups that are snooped: not the link-local ones every host is in. */
static bool snoopable(const uint8_t *addr)
{
	if (!memcmp(addr, v4_prefix, 12))
		return (addr[12] & 0xf0) == 0xe0 &&
		       !(addr[12] == 224 && addr[13] == 0 && addr[14] == 0);
	return addr[0] == 0xff && (addr[1] & 0x0f) > 2;
}

static int find(const struct snoop_table *t, const uint8_t *addr)
{
	for (unsigned i = 0; i < t->n; i++)
		if (!memcmp(t->g[i].addr, addr, 16))
			return (int)i;
	return -1;
}

static void join(struct snoop_table *t, unsigned port, const uint8_t *addr)
{
	int i = find(t, addr);

	if (!snoopable(addr))
		return;
	if (i < 0) {
		if (t->n == SNOOP_GROUPS) {
			t->full++;
			return;
		}
		i = (int)t->n++;
		memcpy(t->g[i].addr, addr, 16);
		t->g[i].ports = 0;
	}
	t->g[i].ports |= 1ull << port;
}

static void drop_group(struct snoop_table *t, unsigned i)
{
	t->g[i] = t->g[--t->n];
	memset(&t->g[t->n], 0, sizeof(t->g[t->n]));
}

static void leave(struct snoop_table *t, unsigned port, const uint8_t *addr)
{
	int i = find(t, addr);

	if (i < 0)
		return;
	t->g[i].ports &= ~(1ull << port);
	if (!t->g[i].ports)
		drop_group(t, (unsigned)i);
}

/*
 * Version 3 (and MLDv2) records: a group in EXCLUDE mode, or INCLUDE with
 * sources, is wanted; INCLUDE of no sources is a leave.  @alen is the
 * address length (4 or 16).
 */
static unsigned records(struct snoop_table *t, unsigned port,
			const uint8_t *p, uint32_t len, unsigned nrec,
			unsigned alen)
{
	uint32_t off = 0;
	unsigned n = 0;

	for (unsigned r = 0; r < nrec; r++) {
		uint8_t type, aux, addr[16];
		uint16_t nsrc;
		uint32_t rlen;

		if (off + 4 + alen > len)
			break;
		type = p[off];
		aux = p[off + 1];
		nsrc = get_be16(p + off + 2);
		rlen = 4 + alen + (uint32_t)nsrc * alen + aux * 4u;
		if (off + rlen > len)
			break;
		if (alen == 4)
			v4_mapped(addr, p + off + 4);
		else
			memcpy(addr, p + off + 4, 16);
		if ((type == REC_IS_INCLUDE || type == REC_TO_INCLUDE) && !nsrc)
			leave(t, port, addr);
		else
			join(t, port, addr);
		n++;
		off += rlen;
	}
	return n;
}

static unsigned igmp(struct snoop_table *t, unsigned port, const uint8_t *ip,
		     uint32_t len)
{
	uint32_t ihl = (ip[0] & 0x0fu) * 4u;
	const uint8_t *m = ip + ihl;
	uint8_t addr[16];

	if (ihl < 20 || len < ihl + 8 || ip[9] != IPPROTO_IGMP)
		return 0;
	len -= ihl;
	switch (m[0]) {
	case IGMP_V2_REPORT:
		v4_mapped(addr, m + 4);
		join(t, port, addr);
		return 1;
	case IGMP_V2_LEAVE:
		v4_mapped(addr, m + 4);
		leave(t, port, addr);
		return 1;
	case IGMP_V3_REPORT:
		return records(t, port, m + 8, len - 8, get_be16(m + 6), 4);
	default:
		return 0;
	}
}

static unsigned mld(struct snoop_table *t, unsigned port, const uint8_t *ip,
		    uint32_t len)
{
	const uint8_t *m = ip + 40;
	uint8_t next = ip[6];

	if (len < 40 + 8)
		return 0;
	len -= 40;
	/* MLD carries a Router Alert in a hop-by-hop header. */
	if (next == IPPROTO_HOPOPTS) {
		uint32_t hl = (m[1] + 1u) * 8u;

		if (len < hl + 8)
			return 0;
		next = m[0];
		m += hl;
		len -= hl;
	}
	if (next != IPPROTO_ICMPV6)
		return 0;
	switch (m[0]) {
	case MLD_V1_REPORT:
	case MLD_V1_DONE:
		if (len < 24)
			return 0;
		if (m[0] == MLD_V1_REPORT)
			join(t, port, m + 8);
		else
			leave(t, port, m + 8);
		return 1;
	case MLD_V2_REPORT:
		return records(t, port, m + 8, len - 8, get_be16(m + 6), 16);
	default:
		return 0;
	}
}

/*
 * The IP header of an IPv4 or IPv6 frame (untagged or with one 802.1Q
 * tag: the table does not tell VLANs apart), its version in @v.
 */
static const uint8_t *ip_of(const uint8_t *frame, uint32_t len, int *v,
			    uint32_t *ip_len)
{
	uint32_t l3 = ETH_HDR_LEN;
	uint16_t type;

	if (len < ETH_HDR_LEN + 4)
		return NULL;
	type = get_be16(frame + 12);
	if (type == ETHERTYPE_VLAN) {
		type = get_be16(frame + 16);
		l3 += 4;
	}
	if (len < l3 + 20)
		return NULL;
	*ip_len = len - l3;
	if (type == ETHERTYPE_IPV4 && (frame[l3] >> 4) == 4)
		*v = 4;
	else if (type == ETHERTYPE_IPV6 && (frame[l3] >> 4) == 6 &&
		 len >= l3 + 40)
		*v = 6;
	else
		return NULL;
	return frame + l3;
}

unsigned snoop_learn(struct snoop_table *t, unsigned port,
		     const uint8_t *frame, uint32_t len)
{
	uint32_t ip_len;
	const uint8_t *ip;
	int v;

	if (port >= 64 || !(ip = ip_of(frame, len, &v, &ip_len)))
		return 0;
	return v == 4 ? igmp(t, port, ip, ip_len) : mld(t, port, ip, ip_len);
}

bool snoop_members(const struct snoop_table *t, const uint8_t *frame,
		   uint32_t len, uint64_t *ports)
{
	uint8_t addr[16];
	uint32_t ip_len;
	const uint8_t *ip;
	int v, i;

	if (!t->n || !(ip = ip_of(frame, len, &v, &ip_len)))
		return false;
	if (v == 4)
		v4_mapped(addr, ip + 16);
	else
		memcpy(addr, ip + 24, 16);
	i = find(t, addr);
	if (i < 0)
		return false;
	*ports = t->g[i].ports;
	return true;
}

unsigned snoop_port_groups(const struct snoop_table *t, unsigned port)
{
	unsigned n = 0;

	for (unsigned i = 0; i < t->n && port < 64; i++)
		n += !!(t->g[i].ports & (1ull << port));
	return n;
}

void snoop_forget_port(struct snoop_table *t, unsigned port)
{
	if (port >= 64)
		return;
	for (unsigned i = t->n; i--;) {
		t->g[i].ports &= ~(1ull << port);
		if (!t->g[i].ports)
			drop_group(t, i);
	}
}
