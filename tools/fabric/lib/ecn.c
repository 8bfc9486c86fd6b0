// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "ecn.h"

#include "ether.h"

/* Offset of the IP header in an untagged frame, or 0 for anything else. */
static size_t ip_offset(const uint8_t *frame, size_t len, int *version)
{
	uint16_t type;

	if (len < ETH_HDR_LEN)
		return 0;
	type = get_be16(frame + 12);
	if (type == ETHERTYPE_IPV4 && len >= ETH_HDR_LEN + 20 &&
	    frame[ETH_HDR_LEN] >> 4 == 4 && (frame[ETH_HDR_LEN] & 0xf) >= 5) {
		*version = 4;
		return ETH_HDR_LEN;
	}
	if (type == ETHERTYPE_IPV6 && len >= ETH_HDR_LEN + 40 &&
	    frame[ETH_HDR_LEN] >> 4 == 6) {
		*version = 6;
		return ETH_HDR_LEN;
	}
	return 0;
}

int ecn_get(const uint8_t *frame, size_t len)
{
	int version = 0;
	size_t off = ip_offset(frame, len, &version);

	if (!off)
		return ECN_NOT_IP;
	if (version == 4)
		return frame[off + 1] & 3;
	/* IPv6 traffic class: low nibble of byte 0, high nibble of byte 1 */
	return (frame[off + 1] >> 4) & 3;
}

/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), for one changed 16-bit word. */
static void ipv4_csum_update(uint8_t *ip, uint16_t old_word, uint16_t new_word)
{
	uint32_t sum = (uint16_t)~get_be16(ip + 10);

	sum += (uint16_t)~old_word;
	sum += new_word;
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	put_be16(ip + 10, (uint16_t)~sum);
}

enum ip_hop ip_hop_decrement(uint8_t *frame, size_t len)
{
	int version = 0;
	size_t off = ip_offset(frame, len, &version);
	uint16_t old_word;

	if (!off)
		return IP_HOP_NOT_IP;
	if (version == 6) {
		if (frame[off + 7] <= 1)
			return IP_HOP_EXPIRED;
		frame[off + 7]--;
		return IP_HOP_OK;
	}
	if (frame[off + 8] <= 1)
		return IP_HOP_EXPIRED;
	/* TTL and protocol share the header's fifth word. */
	old_word = get_be16(frame + off + 8);
	frame[off + 8]--;
	ipv4_csum_update(frame + off, old_word, get_be16(frame + off + 8));
	return IP_HOP_OK;
}

bool ecn_set_ce(uint8_t *frame, size_t len)
{
	int version = 0;
	size_t off = ip_offset(frame, len, &version);
	int ecn = ecn_get(frame, len);
	uint16_t old_word;

	if (ecn != ECN_ECT0 && ecn != ECN_ECT1)
		return false;
	if (version == 6) {
		frame[off + 1] |= ECN_CE << 4;
		return true;
	}
	old_word = get_be16(frame + off);
	frame[off + 1] |= ECN_CE;
	ipv4_csum_update(frame + off, old_word, get_be16(frame + off));
	return true;
}

double red_probability(const struct red_config *c, uint64_t depth)
{
	if (!c->enabled || depth <= c->kmin)
		return 0.0;
	if (depth > c->kmax)
		return 1.0;
	return c->pmax * (double)(depth - c->kmin) /
	       (double)(c->kmax - c->kmin);
}

enum red_action red_apply(const struct red_config *c, uint64_t depth,
			  struct prng *prng, uint8_t *frame, size_t len)
{
	double p = red_probability(c, depth);
	int ecn;

	if (p <= 0.0 || (p < 1.0 && !prng_chance(prng, p)))
		return RED_PASS;
	ecn = ecn_get(frame, len);
	if (ecn == ECN_CE)
		return RED_PASS; /* already marked upstream */
	if (ecn == ECN_ECT0 || ecn == ECN_ECT1) {
		ecn_set_ce(frame, len);
		return RED_MARK;
	}
	return c->drop_not_ect ? RED_DROP : RED_PASS;
}
