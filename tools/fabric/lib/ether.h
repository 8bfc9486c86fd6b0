/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Ethernet frame helpers: header fields, priority classification and the
 * fabric's own PHY status frame.
 */
#ifndef WREN_FABRIC_ETHER_H
#define WREN_FABRIC_ETHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ETH_ALEN 6
#define ETH_HDR_LEN 14
#define ETH_MIN_FRAME 60 /* without FCS */
#define ETH_MAX_STREAM_FRAME 65536 /* largest length accepted on a stream */

#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86DD
#define ETHERTYPE_VLAN 0x8100
#define ETHERTYPE_QINQ 0x88A8
#define ETHERTYPE_PHY_STATUS 0x88B6

#define FABRIC_PRIOS 8
#define DSCP_COUNT 64

/*
 * PHY status frame: how the NIC model learns link state and speed from the
 * wire.  Fixed format, documented in tools/fabric/README.md.
 */
#define PHY_MAGIC "WPHY"
#define PHY_VERSION 1
#define PHY_FRAME_LEN ETH_MIN_FRAME
extern const uint8_t phy_status_dst[ETH_ALEN];
extern const uint8_t phy_status_src[ETH_ALEN];

static inline uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline bool mac_is_group(const uint8_t *mac)
{
	return mac[0] & 1; /* broadcast and multicast alike */
}

static inline const uint8_t *eth_dst(const uint8_t *frame)
{
	return frame;
}

static inline const uint8_t *eth_src(const uint8_t *frame)
{
	return frame + ETH_ALEN;
}

/* Where a frame's priority came from; reported in tests and stats. */
enum prio_source {
	PRIO_FROM_DEFAULT,
	PRIO_FROM_PCP,
	PRIO_FROM_DSCP,
};

struct classification {
	uint8_t prio;
	enum prio_source source;
};

/* Default DSCP -> priority map: the class selector bits (dscp >> 3). */
void dscp_map_default(uint8_t map[DSCP_COUNT]);

/*
 * Priority of a frame: the PCP of its outer VLAN tag if tagged, else the
 * IPv4/IPv6 DSCP through @dscp_map, else 0.  @len must be >= ETH_HDR_LEN.
 */
struct classification classify_frame(const uint8_t *frame, size_t len,
				     const uint8_t dscp_map[DSCP_COUNT]);

/* Fill @out (PHY_FRAME_LEN bytes) with a PHY status frame. */
void phy_status_build(uint8_t out[PHY_FRAME_LEN], bool link_up,
		      uint32_t speed_mbps);

/* True when @frame is a PHY status frame (guests must not inject them). */
bool phy_status_is(const uint8_t *frame, size_t len);

#endif
