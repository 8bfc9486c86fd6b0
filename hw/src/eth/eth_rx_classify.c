// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the RX engine learns from a received frame (its VLAN tag already
 * stripped): packet type, checksum verdicts and the RSS hash (Toeplitz's)
 * that picks its RX queue.
 *
 * Checksums: the IPv4 header checksum (L3_CSUM_OK or CSUM_BAD), and the
 * TCP/UDP checksum of unfragmented IPv4 packets and of IPv6 packets whose
 * next header is TCP or UDP (L4_CSUM_OK or CSUM_BAD).  A UDP/IPv4 checksum
 * of 0 means "none": neither flag.  IPv6 extension headers are not
 * walked: such frames are only marked IPV6.
 *
 * RSS (wren_set_rss_in): TCP/UDP frames hash the 4-tuple when hash_types
 * selects their L4 type, else the address pair when it selects their IP
 * version; frames of a type not selected go to table[0] without a hash.
 * Until the first SET_RSS every frame goes to the lowest-numbered RX
 * queue that exists.
 */
#include <string.h>

#include "../core/whw_table.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_eth.h"

#define IPPROTO_TCP_	6
#define IPPROTO_UDP_	17

static bool l4_csum_ok(const uint8_t *ip, bool ipv6, uint8_t proto,
		       const uint8_t *l4, uint32_t l4_len)
{
	uint64_t sum = whw_csum_pseudo(ip, ipv6, proto, l4_len);

	return whw_csum_fold(whw_csum_add(sum, l4, l4_len)) == 0xffff;
}

/* Checks the L4 checksum and notes the ports for RSS. */
static void classify_l4(struct whw_rx_info *ri, const uint8_t *ip, bool ipv6,
			uint8_t proto, const uint8_t *l4, uint32_t l4_len)
{
	if (proto == IPPROTO_TCP_ && l4_len >= 20) {
		ri->flags |= WREN_ETH_RX_F_TCP;
	} else if (proto == IPPROTO_UDP_ && l4_len >= 8) {
		ri->flags |= WREN_ETH_RX_F_UDP;
		if (!ipv6 && !l4[6] && !l4[7]) {
			ri->ports = l4;
			return;	/* no checksum sent */
		}
	} else {
		return;
	}
	ri->ports = l4;
	if (ri->flags & WREN_ETH_RX_F_CSUM_BAD)
		return;	/* the IP header already failed: no L4 verdict */
	if (l4_csum_ok(ip, ipv6, proto, l4, l4_len))
		ri->flags |= WREN_ETH_RX_F_L4_CSUM_OK;
	else
		ri->flags |= WREN_ETH_RX_F_CSUM_BAD;
}

static void classify_ipv4(struct whw_rx_info *ri, const uint8_t *ip,
			  uint32_t len)
{
	uint32_t ihl = (ip[0] & 0xfu) * 4u;
	uint32_t tot;

	if (len < 20 || (ip[0] >> 4) != 4 || ihl < 20 || ihl > len)
		return;
	tot = whw_rd16be(ip + 2);
	if (tot < ihl || tot > len)
		return;
	ri->flags |= WREN_ETH_RX_F_IPV4;
	ri->addrs = ip + 12;
	ri->addr_len = 8;
	/* A bad header checksum is reported; the frame is still hashed. */
	if (whw_csum_fold(whw_csum_add(0, ip, ihl)) == 0xffff)
		ri->flags |= WREN_ETH_RX_F_L3_CSUM_OK;
	else
		ri->flags |= WREN_ETH_RX_F_CSUM_BAD;
	/* Fragments: no L4 header to trust (MF set or offset non-zero). */
	if (whw_rd16be(ip + 6) & 0x3fff)
		return;
	classify_l4(ri, ip, false, ip[9], ip + ihl, tot - ihl);
}

static void classify_ipv6(struct whw_rx_info *ri, const uint8_t *ip,
			  uint32_t len)
{
	uint32_t plen;

	if (len < 40 || (ip[0] >> 4) != 6)
		return;
	plen = whw_rd16be(ip + 4);
	if (40 + plen > len)
		return;
	ri->flags |= WREN_ETH_RX_F_IPV6;
	ri->addrs = ip + 8;
	ri->addr_len = 32;
	classify_l4(ri, ip, true, ip[6], ip + 40, plen);
}

void whw_rx_classify(struct whw_rx_info *ri, const uint8_t *f, uint32_t len)
{
	uint16_t type = whw_rd16be(f + 12);

	ri->addrs = NULL;
	ri->ports = NULL;
	if (type == 0x0800)
		classify_ipv4(ri, f + WHW_ETH_HLEN, len - WHW_ETH_HLEN);
	else if (type == 0x86dd)
		classify_ipv6(ri, f + WHW_ETH_HLEN, len - WHW_ETH_HLEN);
}

static struct whw_eth_q *lowest_rxq(struct wrenhw *hw)
{
	for (uint32_t i = 0; i < hw->rxqs.size; i++) {
		struct whw_eth_q *q = whw_table_get(&hw->rxqs, i);

		if (q)
			return q;
	}
	return NULL;
}

/* Which hash input the frame's type selects; 0 bytes: none. */
static size_t rss_input(const struct wrenhw *hw, const struct whw_rx_info *ri,
			uint8_t *in)
{
	bool v6 = ri->flags & WREN_ETH_RX_F_IPV6;
	uint8_t t = hw->rss_hash_types;
	bool l4;

	if (!ri->addrs)
		return 0;
	if (ri->flags & WREN_ETH_RX_F_TCP)
		l4 = t & (v6 ? WREN_RSS_HASH_TCP_IPV6 : WREN_RSS_HASH_TCP_IPV4);
	else if (ri->flags & WREN_ETH_RX_F_UDP)
		l4 = t & (v6 ? WREN_RSS_HASH_UDP_IPV6 : WREN_RSS_HASH_UDP_IPV4);
	else
		l4 = false;
	memcpy(in, ri->addrs, ri->addr_len);
	if (l4 && ri->ports) {
		memcpy(in + ri->addr_len, ri->ports, 4);
		return ri->addr_len + 4;
	}
	if (t & (v6 ? WREN_RSS_HASH_IPV6 : WREN_RSS_HASH_IPV4))
		return ri->addr_len;
	return 0;
}

/*
 * The Toeplitz hash of Microsoft's RSS specification: for every set bit
 * of the input (most significant first), XOR in the 32-bit window of the
 * key that starts at that bit position.  The input is source address,
 * destination address, then (4-tuple) source and destination port, all in
 * network byte order; at most 36 bytes (IPv6 4-tuple), so the 40-byte key
 * always has the 32 bits of window the last input bit needs.
 */
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

struct whw_eth_q *whw_rx_pick_queue(struct wrenhw *hw,
				    struct whw_rx_info *ri)
{
	uint8_t in[36];
	size_t n;

	if (!hw->rss_table_size)
		return lowest_rxq(hw);
	n = rss_input(hw, ri, in);
	if (!n)
		return whw_table_get(&hw->rxqs, hw->rss_table[0]);
	ri->hash = whw_toeplitz(hw->rss_key, in, n);
	ri->flags |= WREN_ETH_RX_F_RSS;
	return whw_table_get(&hw->rxqs,
			     hw->rss_table[ri->hash &
					   (hw->rss_table_size - 1u)]);
}
