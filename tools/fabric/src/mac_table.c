// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "mac_table.h"

#include <string.h>

static unsigned mac_hash(const uint8_t *mac)
{
	/* FNV-1a over the address; good enough spread for 256 buckets */
	uint32_t h = 2166136261u;

	for (int i = 0; i < ETH_ALEN; i++)
		h = (h ^ mac[i]) * 16777619u;
	return (h ^ (h >> 16)) % MAC_TABLE_BUCKETS;
}

static bool entry_live(const struct mac_table *t, const struct mac_entry *e,
		       uint64_t now)
{
	return e->valid && now - e->last_seen_ns < t->age_ns;
}

void mac_table_init(struct mac_table *t, uint64_t age_ns)
{
	memset(t, 0, sizeof(*t));
	t->age_ns = age_ns;
}

void mac_table_learn(struct mac_table *t, const uint8_t *mac, int port,
		     uint64_t now)
{
	struct mac_entry *bucket = t->e[mac_hash(mac)];
	struct mac_entry *free_slot = NULL;

	if (mac_is_group(mac))
		return; /* group addresses are never a station's source */
	for (int w = 0; w < MAC_TABLE_WAYS; w++) {
		struct mac_entry *e = &bucket[w];

		if (e->valid && memcmp(e->mac, mac, ETH_ALEN) == 0) {
			if (e->port != port && entry_live(t, e, now))
				t->moves++;
			e->port = port;
			e->last_seen_ns = now;
			return;
		}
		if (!free_slot && !entry_live(t, e, now))
			free_slot = e;
	}
	if (!free_slot) {
		t->learn_full++;
		return;
	}
	memcpy(free_slot->mac, mac, ETH_ALEN);
	free_slot->valid = true;
	free_slot->port = port;
	free_slot->last_seen_ns = now;
}

int mac_table_lookup(struct mac_table *t, const uint8_t *mac, uint64_t now)
{
	struct mac_entry *bucket = t->e[mac_hash(mac)];

	for (int w = 0; w < MAC_TABLE_WAYS; w++) {
		struct mac_entry *e = &bucket[w];

		if (e->valid && memcmp(e->mac, mac, ETH_ALEN) == 0) {
			if (!entry_live(t, e, now)) {
				e->valid = false;
				return MAC_NO_PORT;
			}
			return e->port;
		}
	}
	return MAC_NO_PORT;
}

void mac_table_flush_port(struct mac_table *t, int port)
{
	for (int b = 0; b < MAC_TABLE_BUCKETS; b++)
		for (int w = 0; w < MAC_TABLE_WAYS; w++)
			if (t->e[b][w].port == port)
				t->e[b][w].valid = false;
}

unsigned mac_table_count(const struct mac_table *t, uint64_t now)
{
	unsigned n = 0;

	for (int b = 0; b < MAC_TABLE_BUCKETS; b++)
		for (int w = 0; w < MAC_TABLE_WAYS; w++)
			n += entry_live(t, &t->e[b][w], now);
	return n;
}
