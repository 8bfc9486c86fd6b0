/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * MAC learning table: set-associative like a switch ASIC's, so a guest
 * spraying random source addresses can fill buckets (and is counted) but
 * never makes lookups slow.  Keyed on the MAC alone (shared VLAN learning):
 * tagged frames are carried, not separated.
 */
#ifndef WREN_FABRIC_MAC_TABLE_H
#define WREN_FABRIC_MAC_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "ether.h"

#define MAC_TABLE_BUCKETS 256
#define MAC_TABLE_WAYS 4
#define MAC_NO_PORT (-1)

struct mac_entry {
	uint8_t mac[ETH_ALEN];
	bool valid;
	int port;
	uint64_t last_seen_ns;
};

struct mac_table {
	struct mac_entry e[MAC_TABLE_BUCKETS][MAC_TABLE_WAYS];
	uint64_t age_ns;
	uint64_t learn_full; /* addresses not learned: bucket full of live entries */
	uint64_t moves;      /* address seen on a new port */
};

void mac_table_init(struct mac_table *t, uint64_t age_ns);
/* Record that @mac was seen on @port at @now. */
void mac_table_learn(struct mac_table *t, const uint8_t *mac, int port,
		     uint64_t now);
/* Port of @mac, or MAC_NO_PORT if unknown or aged out. */
int mac_table_lookup(struct mac_table *t, const uint8_t *mac, uint64_t now);
/* Forget every address learned on @port (link down, disconnect). */
void mac_table_flush_port(struct mac_table *t, int port);
/* Live entries at @now. */
unsigned mac_table_count(const struct mac_table *t, uint64_t now);

#endif
