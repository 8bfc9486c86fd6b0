/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The IP header fields a switch rewrites on the way: ECN codepoints of
 * IPv4/IPv6 frames and the RED/ECN marking decision of one egress queue
 * (Kmin, Kmax in bytes, Pmax), as DCQCN's congestion point does it, and
 * a router's TTL (hop limit).
 */
#ifndef WREN_FABRIC_ECN_H
#define WREN_FABRIC_ECN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prng.h"

#define ECN_NOT_ECT 0
#define ECN_ECT1 1
#define ECN_ECT0 2
#define ECN_CE 3
#define ECN_NOT_IP (-1)

struct red_config {
	bool enabled;
	bool drop_not_ect; /* RED-drop Not-ECT packets instead of passing them */
	uint64_t kmin;     /* bytes of queue depth where marking starts */
	uint64_t kmax;     /* bytes where it reaches pmax; always above */
	double pmax;
};

enum red_action {
	RED_PASS,
	RED_MARK, /* CE was set on the frame */
	RED_DROP,
};

/* The ECN field of an untagged IPv4/IPv6 frame, or ECN_NOT_IP. */
int ecn_get(const uint8_t *frame, size_t len);

/*
 * Set CE on an ECT(0)/ECT(1) IPv4/IPv6 frame, updating the IPv4 header
 * checksum incrementally (RFC 1624).  False if the frame is not ECT.
 */
bool ecn_set_ce(uint8_t *frame, size_t len);

/* Probability that a packet meeting a queue of @depth bytes is marked. */
double red_probability(const struct red_config *c, uint64_t depth);

/*
 * Decide for one frame meeting a queue of @depth bytes (before it is
 * added), draw from @prng only between Kmin and Kmax, and mark it if the
 * decision is to mark.
 */
enum red_action red_apply(const struct red_config *c, uint64_t depth,
			  struct prng *prng, uint8_t *frame, size_t len);

/*
 * A router's hop: decrement an IPv4 TTL (updating the header checksum
 * incrementally) or an IPv6 hop limit.  Returns IP_HOP_OK, IP_HOP_EXPIRED
 * (the TTL was 1 or 0: the frame is dropped, left unchanged) or
 * IP_HOP_NOT_IP.  A routing loop thus ends for each frame after at most
 * 255 hops, as it does in an IP fabric.
 */
enum ip_hop {
	IP_HOP_OK,
	IP_HOP_EXPIRED,
	IP_HOP_NOT_IP,
};

enum ip_hop ip_hop_decrement(uint8_t *frame, size_t len);

#endif
