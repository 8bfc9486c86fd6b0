/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * IGMP and MLD snooping (RFC 4541), as an L2 switch does it: the ports
 * that reported membership of a multicast group get the group's frames,
 * the others do not.  Groups nobody reported, and link-local groups
 * (224.0.0.0/24, ff02::/16 and narrower), are flooded as before, and so
 * are the reports themselves.  There is no querier: membership lasts
 * until the port leaves the group or its guest goes away.
 */
#ifndef WREN_FABRIC_MCAST_SNOOP_H
#define WREN_FABRIC_MCAST_SNOOP_H

#include <stdbool.h>
#include <stdint.h>

#define SNOOP_GROUPS 256

/* One group: its IPv6 or IPv4-mapped address and the member ports. */
struct snoop_group {
	uint8_t addr[16];
	uint64_t ports; /* bit n: port n */
};

struct snoop_table {
	struct snoop_group g[SNOOP_GROUPS]; /* 0 .. n - 1 in use */
	unsigned n;
	uint64_t full; /* joins refused for want of room */
};

/*
 * A frame from @port: if it is an IGMP (v2, v3) or MLD (v1, v2) report or
 * leave, the port joins or leaves the groups it names.  Returns how many
 * group records it learned from (0: not a report).
 */
unsigned snoop_learn(struct snoop_table *t, unsigned port,
		     const uint8_t *frame, uint32_t len);
/*
 * Whether a frame goes to its group's members alone: true, with the
 * member ports in *ports, for an IP multicast frame of a snooped group;
 * false for everything else (flood it).
 */
bool snoop_members(const struct snoop_table *t, const uint8_t *frame,
		   uint32_t len, uint64_t *ports);
/* The groups @port is a member of. */
unsigned snoop_port_groups(const struct snoop_table *t, unsigned port);
/* @port's guest went away: out of every group. */
void snoop_forget_port(struct snoop_table *t, unsigned port);

#endif
