/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Classic pcap writer (magic a1b2c3d4, microseconds, LINKTYPE_ETHERNET).
 * Every record goes out in one write(2) with no user-space buffering, so a
 * test can read the file while the fabric runs or after it was killed.
 */
#ifndef WREN_FABRIC_PCAP_H
#define WREN_FABRIC_PCAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PCAP_MAGIC 0xa1b2c3d4u
#define PCAP_SNAPLEN 262144u
#define PCAP_LINKTYPE_ETHERNET 1u

struct pcap_writer {
	int fd; /* -1 when closed */
	uint64_t records;
	uint64_t write_errors;
};

void pcap_writer_init(struct pcap_writer *w);
/*
 * Open @path, emptied first when @truncate (a new run), else for appending
 * (capture turned back on); writes the file header if the file is empty.
 */
int pcap_open(struct pcap_writer *w, const char *path, bool truncate);
void pcap_close(struct pcap_writer *w);
static inline bool pcap_is_open(const struct pcap_writer *w)
{
	return w->fd >= 0;
}
/* Append one frame stamped with @realtime_ns (since the epoch). */
void pcap_write(struct pcap_writer *w, const uint8_t *frame, size_t len,
		uint64_t realtime_ns);

#endif
