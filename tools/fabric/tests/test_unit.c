// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of the fabric core, driven through a fake clock and fake
 * sockets so that timing is exact and nothing depends on machine load.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "ether.h"
#include "fabric.h"
#include "mac_table.h"
#include "pcap.h"
#include "pfc.h"
#include "pfc_frame.h"
#include "ecn.h"
#include "stream.h"
#define TAP_IMPLEMENTATION
#include "tap.h"

/* ---- fake I/O -------------------------------------------------------- */

#define LOG_MAX 4096
#define LOG_BYTES 128

struct sent {
	unsigned port;
	uint32_t len;
	uint64_t at_ns;
	uint8_t data[LOG_BYTES];
};

struct fake {
	uint64_t now;
	bool blocked[FABRIC_MAX_PORTS];
	unsigned nlog;
	struct sent log[LOG_MAX];
	uint64_t frames[FABRIC_MAX_PORTS]; /* excluding PHY frames */
	uint64_t phy[FABRIC_MAX_PORTS];
	uint8_t last_phy[FABRIC_MAX_PORTS][PHY_FRAME_LEN];
};

static struct fake fk;
static struct fabric F;

static uint64_t fake_now(void *ctx)
{
	(void)ctx;
	return fk.now;
}

static uint64_t fake_realtime(void *ctx)
{
	(void)ctx;
	return 1700000000ull * 1000000000ull + fk.now;
}

static bool fake_can_send(void *ctx, unsigned port)
{
	(void)ctx;
	return !fk.blocked[port];
}

static bool fake_send(void *ctx, unsigned port, const uint8_t *frame,
		      uint32_t len)
{
	(void)ctx;
	if (phy_status_is(frame, len)) {
		fk.phy[port]++;
		memcpy(fk.last_phy[port], frame,
		       len < PHY_FRAME_LEN ? len : PHY_FRAME_LEN);
		return true;
	}
	fk.frames[port]++;
	if (fk.nlog < LOG_MAX) {
		struct sent *s = &fk.log[fk.nlog++];

		s->port = port;
		s->len = len;
		s->at_ns = fk.now;
		memcpy(s->data, frame, len < LOG_BYTES ? len : LOG_BYTES);
	}
	return true;
}

static const struct fabric_io fake_io = {
	.now_ns = fake_now,
	.realtime_ns = fake_realtime,
	.can_send = fake_can_send,
	.send = fake_send,
};

static void fake_clear_log(void)
{
	fk.nlog = 0;
	memset(fk.frames, 0, sizeof(fk.frames));
	memset(fk.phy, 0, sizeof(fk.phy));
}

static void setup_cfg(const struct fabric_config *cfg)
{
	char err[128];

	memset(&fk, 0, sizeof(fk));
	if (fabric_init(&F, cfg, &fake_io, err, sizeof(err)) < 0) {
		printf("Bail out! fabric_init: %s\n", err);
		exit(1);
	}
	for (unsigned i = 0; i < cfg->nports; i++)
		fabric_connect(&F, i);
	fake_clear_log();
}

static void setup(unsigned nports)
{
	struct fabric_config cfg;

	fabric_config_default(&cfg);
	cfg.nports = nports;
	setup_cfg(&cfg);
}

/*
 * Receive a frame after letting the fake clock move on by 100 us, so that
 * tests about switching are not also tests about pacing.
 */
static void rx(unsigned port, const uint8_t *frame, uint32_t len)
{
	fk.now += 100000;
	fabric_service(&F);
	fabric_receive(&F, port, frame, len);
}

/* ---- frame builders ---------------------------------------------------- */

static void mac_n(uint8_t *mac, unsigned n)
{
	static const uint8_t base[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0 };

	memcpy(mac, base, ETH_ALEN);
	mac[4] = (uint8_t)(n >> 8);
	mac[5] = (uint8_t)n;
}

static const uint8_t bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* Ethernet frame of @len bytes; payload is a counter pattern. */
static uint32_t build_eth(uint8_t *buf, const uint8_t *dst, const uint8_t *src,
			  uint16_t type, uint32_t len)
{
	memcpy(buf, dst, ETH_ALEN);
	memcpy(buf + 6, src, ETH_ALEN);
	put_be16(buf + 12, type);
	for (uint32_t i = ETH_HDR_LEN; i < len; i++)
		buf[i] = (uint8_t)(i * 7);
	return len;
}

static uint32_t build_ipv4(uint8_t *buf, const uint8_t *dst,
			   const uint8_t *src, uint8_t dscp, uint32_t len)
{
	build_eth(buf, dst, src, ETHERTYPE_IPV4, len);
	buf[14] = 0x45;
	buf[15] = (uint8_t)(dscp << 2 | 1); /* ECT(1) must not disturb DSCP */
	return len;
}

static uint32_t build_ipv6(uint8_t *buf, const uint8_t *dst,
			   const uint8_t *src, uint8_t dscp, uint32_t len)
{
	uint8_t tclass = (uint8_t)(dscp << 2 | 2);

	build_eth(buf, dst, src, ETHERTYPE_IPV6, len);
	buf[14] = (uint8_t)(0x60 | tclass >> 4);
	buf[15] = (uint8_t)(tclass << 4 | 0x0a); /* flow label bits */
	return len;
}

static uint32_t build_vlan(uint8_t *buf, const uint8_t *dst, const uint8_t *src,
			   uint16_t tpid, uint8_t pcp, uint16_t vid,
			   uint16_t inner, uint32_t len)
{
	build_eth(buf, dst, src, tpid, len);
	put_be16(buf + 14, (uint16_t)(pcp << 13 | (vid & 0xfff)));
	put_be16(buf + 16, inner);
	return len;
}

/* ---- classification ---------------------------------------------------- */

static void test_classification(void)
{
	uint8_t map[DSCP_COUNT], a[6], b[6], fr[256];
	struct classification c;
	uint32_t n;

	dscp_map_default(map);
	mac_n(a, 1);
	mac_n(b, 2);

	n = build_eth(fr, b, a, 0x88B5, 64);
	c = classify_frame(fr, n, map);
	tap_ok(c.prio == 0 && c.source == PRIO_FROM_DEFAULT,
	       "classify: non-IP untagged frame gets priority 0");

	n = build_vlan(fr, b, a, ETHERTYPE_VLAN, 5, 100, 0x88B5, 64);
	c = classify_frame(fr, n, map);
	tap_ok(c.prio == 5 && c.source == PRIO_FROM_PCP,
	       "classify: 802.1Q PCP 5 gives priority 5");

	/* tagged IPv4 with DSCP 8 (class 1): the tag wins */
	n = build_vlan(fr, b, a, ETHERTYPE_VLAN, 6, 7, ETHERTYPE_IPV4, 64);
	fr[18] = 0x45;
	fr[19] = 8 << 2;
	c = classify_frame(fr, n, map);
	tap_ok(c.prio == 6 && c.source == PRIO_FROM_PCP,
	       "classify: PCP takes precedence over DSCP in tagged frames");

	n = build_vlan(fr, b, a, ETHERTYPE_QINQ, 2, 7, ETHERTYPE_VLAN, 64);
	c = classify_frame(fr, n, map);
	tap_ok(c.prio == 2 && c.source == PRIO_FROM_PCP,
	       "classify: outer 802.1ad tag's PCP is used");

	n = build_ipv4(fr, b, a, 46, 64);
	c = classify_frame(fr, n, map);
	tap_ok(c.prio == 5 && c.source == PRIO_FROM_DSCP,
	       "classify: IPv4 DSCP 46 (EF) -> priority 5 by default map");

	n = build_ipv4(fr, b, a, 26, 64);
	c = classify_frame(fr, n, map);
	tap_ok(c.prio == 3, "classify: IPv4 DSCP 26 -> priority 3 (got %u)",
	       c.prio);

	n = build_ipv6(fr, b, a, 26, 80);
	c = classify_frame(fr, n, map);
	tap_ok(c.prio == 3 && c.source == PRIO_FROM_DSCP,
	       "classify: IPv6 traffic class DSCP 26 -> priority 3 (got %u)",
	       c.prio);

	n = build_ipv6(fr, b, a, 63, 80);
	c = classify_frame(fr, n, map);
	tap_ok(c.prio == 7, "classify: IPv6 DSCP 63 -> priority 7");

	map[26] = 6;
	n = build_ipv4(fr, b, a, 26, 64);
	c = classify_frame(fr, n, map);
	tap_ok(c.prio == 6, "classify: configured DSCP map is honoured");

	/* an IPv4 ethertype with too little header is not trusted */
	n = build_ipv4(fr, b, a, 46, 30);
	c = classify_frame(fr, n, map);
	tap_ok(c.prio == 0 && c.source == PRIO_FROM_DEFAULT,
	       "classify: truncated IPv4 header falls back to priority 0");

	n = build_ipv4(fr, b, a, 46, 64);
	fr[14] = 0x65; /* version 6 inside an IPv4 ethertype */
	c = classify_frame(fr, n, map);
	tap_ok(c.source == PRIO_FROM_DEFAULT,
	       "classify: IPv4 ethertype with wrong IP version is ignored");

	n = build_vlan(fr, b, a, ETHERTYPE_VLAN, 5, 1, 0, ETH_HDR_LEN);
	c = classify_frame(fr, n, map);
	tap_ok(c.prio == 0, "classify: VLAN ethertype without a tag -> 0");
}

/* ---- MAC learning, flooding, aging ------------------------------------- */

static unsigned delivered_to(unsigned port)
{
	return (unsigned)fk.frames[port];
}

static void test_mac_learning(void)
{
	uint8_t a[6], b[6], c[6], fr[128];
	uint32_t n;

	setup(3);
	mac_n(a, 0xa);
	mac_n(b, 0xb);
	mac_n(c, 0xc);

	n = build_eth(fr, bcast, a, 0x88B5, 64);
	rx(0, fr, n);
	tap_ok(delivered_to(0) == 0 && delivered_to(1) == 1 &&
	       delivered_to(2) == 1,
	       "switch: broadcast floods every port but the ingress one");
	tap_ok(mac_table_lookup(&F.macs, a, fk.now) == 0,
	       "switch: source address learned on its ingress port");

	fake_clear_log();
	n = build_eth(fr, a, b, 0x88B5, 64);
	rx(1, fr, n);
	tap_ok(delivered_to(0) == 1 && delivered_to(2) == 0,
	       "switch: known unicast goes only to the learned port");

	fake_clear_log();
	n = build_eth(fr, b, a, 0x88B5, 64);
	rx(0, fr, n);
	tap_ok(delivered_to(1) == 1 && delivered_to(2) == 0,
	       "switch: reply is unicast too once both ends are learned");

	fake_clear_log();
	n = build_eth(fr, c, a, 0x88B5, 64);
	rx(0, fr, n);
	tap_ok(delivered_to(1) == 1 && delivered_to(2) == 1 &&
	       F.ports[0].st.flooded >= 2,
	       "switch: unknown unicast is flooded");

	{
		static const uint8_t mcast[6] = { 0x01, 0x00, 0x5e, 0, 0, 1 };

		fake_clear_log();
		n = build_eth(fr, mcast, a, ETHERTYPE_IPV4, 64);
		rx(0, fr, n);
		tap_ok(delivered_to(1) == 1 && delivered_to(2) == 1,
		       "switch: multicast is flooded");
		n = build_eth(fr, b, mcast, 0x88B5, 64);
		rx(2, fr, n);
		tap_ok(mac_table_lookup(&F.macs, mcast, fk.now) == MAC_NO_PORT,
		       "switch: a group source address is never learned");
	}

	fake_clear_log();
	n = build_eth(fr, b, a, 0x88B5, 64);
	rx(1, fr, n); /* a now appears on port 1, like b */
	tap_ok(F.macs.moves == 1 && mac_table_lookup(&F.macs, a, fk.now) == 1,
	       "switch: station move updates the port and is counted");
	tap_ok(F.ports[1].st.drop_filtered == 1 && delivered_to(0) == 0 &&
	       delivered_to(2) == 0,
	       "switch: frame whose destination is on the ingress port is filtered");

	/* aging: after the age time nothing is known any more */
	fake_clear_log();
	/* a was last seen by the frame above, at the current time */
	fk.now += (uint64_t)FABRIC_DEFAULT_MAC_AGE_S * 1000000000u - 1;
	tap_ok(mac_table_lookup(&F.macs, a, fk.now) == 1,
	       "aging: entry still valid just before the age time");
	fk.now += 2;
	tap_ok(mac_table_lookup(&F.macs, a, fk.now) == MAC_NO_PORT,
	       "aging: entry expires after the age time");
	n = build_eth(fr, b, c, 0x88B5, 64);
	rx(2, fr, n);
	tap_ok(delivered_to(0) == 1 && delivered_to(1) == 1,
	       "aging: frames to an aged-out address are flooded again");
	tap_ok(mac_table_count(&F.macs, fk.now) == 1,
	       "aging: only the fresh source remains in the table");

	/* link down forgets the port's addresses */
	fabric_set_link(&F, 2, false);
	tap_ok(mac_table_lookup(&F.macs, c, fk.now) == MAC_NO_PORT,
	       "switch: link down flushes addresses learned on the port");
	fabric_destroy(&F);

	/* a full bucket stops learning but keeps forwarding */
	{
		struct mac_table t;
		unsigned learned = 0;
		uint8_t m[6];

		mac_table_init(&t, 1000);
		for (unsigned i = 0; i < 4 * MAC_TABLE_BUCKETS * MAC_TABLE_WAYS; i++) {
			mac_n(m, i);
			mac_table_learn(&t, m, 0, 0);
		}
		for (unsigned i = 0; i < 4 * MAC_TABLE_BUCKETS * MAC_TABLE_WAYS; i++) {
			mac_n(m, i);
			learned += mac_table_lookup(&t, m, 1) == 0;
		}
		tap_ok(learned == mac_table_count(&t, 1) &&
		       learned <= MAC_TABLE_BUCKETS * MAC_TABLE_WAYS &&
		       t.learn_full == 4 * MAC_TABLE_BUCKETS * MAC_TABLE_WAYS - learned,
		       "mac table: overflow is bounded and counted (%u learned, %llu refused)",
		       learned, (unsigned long long)t.learn_full);
	}
}

/* ---- queues ------------------------------------------------------------- */

/* ---- IGMP and MLD snooping ------------------------------------------------ */

static const uint8_t grp4[4] = { 239, 1, 2, 3 };
static const uint8_t mac4[6] = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 };
static const uint8_t grp6[16] = { 0xff, 0x0e, [15] = 0x42 };
static const uint8_t mac6[6] = { 0x33, 0x33, 0, 0, 0, 0x42 };

/* An IGMPv3 report from @src: one record of @type for grp4, no sources. */
static uint32_t igmp3(uint8_t *buf, const uint8_t *src, uint8_t type)
{
	static const uint8_t dst[6] = { 0x01, 0x00, 0x5e, 0, 0, 0x16 };
	uint8_t *ip = buf + 14, *m;

	memset(buf, 0, 80);
	build_eth(buf, dst, src, ETHERTYPE_IPV4, 14 + 24 + 16);
	memset(ip, 0, 24 + 16);
	ip[0] = 0x46; /* a Router Alert option: 24 bytes */
	ip[8] = 1;
	ip[9] = 2;
	ip[16] = 224;
	ip[19] = 22;
	m = ip + 24;
	m[0] = 0x22;
	put_be16(m + 6, 1);
	m[8] = type;
	memcpy(m + 12, grp4, 4);
	return 14 + 24 + 16;
}

/* An IGMPv2 report (0x16) or leave (0x17) for grp4. */
static uint32_t igmp2(uint8_t *buf, const uint8_t *src, uint8_t type)
{
	uint8_t *ip = buf + 14, *m = buf + 14 + 20;

	build_eth(buf, mac4, src, ETHERTYPE_IPV4, 14 + 20 + 8);
	memset(ip, 0, 28);
	ip[0] = 0x45;
	ip[9] = 2;
	memcpy(ip + 16, grp4, 4);
	m[0] = type;
	memcpy(m + 4, grp4, 4);
	return 14 + 28;
}

/* An MLDv2 report from @src (hop-by-hop header first): grp6, @type. */
static uint32_t mld2(uint8_t *buf, const uint8_t *src, uint8_t type)
{
	static const uint8_t dst[6] = { 0x33, 0x33, 0, 0, 0, 0x16 };
	uint8_t *ip = buf + 14, *h = ip + 40, *m = h + 8;

	build_eth(buf, dst, src, ETHERTYPE_IPV6, 14 + 40 + 8 + 28);
	memset(ip, 0, 40 + 8 + 28);
	ip[0] = 0x60;
	ip[6] = 0; /* hop-by-hop */
	h[0] = 58;
	m[0] = 143;
	put_be16(m + 6, 1);
	m[8] = type;
	memcpy(m + 12, grp6, 16);
	return 14 + 40 + 8 + 28;
}

/* A data frame to grp4 (IPv4) or grp6 from @src. */
static uint32_t group_data(uint8_t *buf, const uint8_t *src, bool v6)
{
	if (v6) {
		build_ipv6(buf, mac6, src, 0, 120);
		memcpy(buf + 14 + 24, grp6, 16);
	} else {
		build_ipv4(buf, mac4, src, 0, 120);
		memcpy(buf + 14 + 16, grp4, 4);
	}
	return 120;
}

static void test_snooping(void)
{
	uint8_t a[6], b[6], c[6], d[6], fr[160];
	uint32_t n;

	setup(4);
	mac_n(a, 0x1a);
	mac_n(b, 0x1b);
	mac_n(c, 0x1c);
	mac_n(d, 0x1d);

	n = group_data(fr, a, false);
	rx(0, fr, n);
	tap_ok(delivered_to(1) == 1 && delivered_to(2) == 1 &&
	       delivered_to(3) == 1,
	       "snooping: a group nobody reported is flooded");

	n = igmp3(fr, b, 4); /* CHANGE_TO_EXCLUDE {}: join */
	rx(1, fr, n);
	n = igmp2(fr, c, 0x16);
	rx(2, fr, n);
	tap_ok(F.snoop.n == 1 && snoop_port_groups(&F.snoop, 1) == 1 &&
	       snoop_port_groups(&F.snoop, 2) == 1 &&
	       F.ports[1].st.mcast_reports == 1 &&
	       F.ports[2].st.mcast_reports == 1,
	       "snooping: an IGMPv3 and an IGMPv2 report make ports 1 and 2 "
	       "members");
	fake_clear_log();
	n = group_data(fr, a, false);
	rx(0, fr, n);
	tap_ok(delivered_to(1) == 1 && delivered_to(2) == 1 &&
	       delivered_to(3) == 0 && F.ports[0].st.mcast_to_members == 1,
	       "snooping: the group's frame reaches its members only");
	fake_clear_log();
	n = group_data(fr, b, false);
	rx(1, fr, n);
	tap_ok(delivered_to(1) == 0 && delivered_to(2) == 1 &&
	       delivered_to(3) == 0,
	       "snooping: a member's own frame goes to the other members");

	n = igmp3(fr, b, 3); /* CHANGE_TO_INCLUDE {}: leave */
	rx(1, fr, n);
	fake_clear_log();
	n = group_data(fr, a, false);
	rx(0, fr, n);
	tap_ok(delivered_to(1) == 0 && delivered_to(2) == 1,
	       "snooping: after an IGMPv3 leave, port 1 gets none");
	n = igmp2(fr, c, 0x17);
	rx(2, fr, n);
	fake_clear_log();
	n = group_data(fr, a, false);
	rx(0, fr, n);
	tap_ok(F.snoop.n == 0 && delivered_to(1) == 1 && delivered_to(2) == 1 &&
	       delivered_to(3) == 1,
	       "snooping: the last member left: the group floods again");

	n = mld2(fr, d, 4);
	rx(3, fr, n);
	fake_clear_log();
	n = group_data(fr, a, true);
	rx(0, fr, n);
	tap_ok(snoop_port_groups(&F.snoop, 3) == 1 && delivered_to(1) == 0 &&
	       delivered_to(2) == 0 && delivered_to(3) == 1,
	       "snooping: an MLDv2 report; the IPv6 group's frame reaches "
	       "its member only");
	fabric_disconnect(&F, 3, false);
	tap_ok(F.snoop.n == 0,
	       "snooping: a port whose guest goes away leaves its groups");

	/* Link-local groups and truncated reports are never snooped. */
	n = igmp3(fr, b, 4);
	fr[14 + 24 + 12] = 224;
	fr[14 + 24 + 13] = 0;
	fr[14 + 24 + 14] = 0;
	rx(1, fr, n);
	n = igmp3(fr, b, 4);
	rx(1, fr, n - 6);
	tap_ok(F.snoop.n == 0,
	       "snooping: 224.0.0.x and a truncated record teach nothing");
}

static void learn_pair(uint8_t *a, uint8_t *b)
{
	uint8_t fr[64];
	uint32_t n;

	mac_n(a, 0xa);
	mac_n(b, 0xb);
	n = build_eth(fr, bcast, a, 0x88B5, 60);
	rx(0, fr, n);
	n = build_eth(fr, bcast, b, 0x88B5, 60);
	rx(1, fr, n);
	fake_clear_log();
}

static void test_queue_depth(void)
{
	struct egress_queue *q;
	uint8_t a[6], b[6], fr[1500];
	uint32_t n;

	setup(2);
	learn_pair(a, b);
	q = &F.ports[1].egress.q[0];
	q->limit_frames = 4;
	fk.blocked[1] = true; /* the guest stops reading */
	for (int i = 0; i < 10; i++) {
		n = build_eth(fr, b, a, 0x88B5, 100);
		fabric_receive(&F, 0, fr, n);
	}
	tap_ok(q->depth_frames == 4 && q->st.drop_full_frames == 6 &&
	       F.ports[1].st.drop_queue_full == 6,
	       "queue: frame limit tail-drops the excess (depth %u, drops %llu)",
	       q->depth_frames, (unsigned long long)q->st.drop_full_frames);
	tap_ok(q->depth_bytes == 400 && q->st.drop_full_bytes == 600,
	       "queue: byte depth and dropped bytes are counted");

	q = &F.ports[1].egress.q[5];
	q->limit_bytes = 3000;
	for (int i = 0; i < 4; i++) {
		n = build_ipv4(fr, b, a, 46, 1000);
		fabric_receive(&F, 0, fr, n);
	}
	tap_ok(q->depth_frames == 3 && q->st.drop_full_frames == 1 &&
	       F.ports[1].egress.q[0].st.drop_full_frames == 6,
	       "queue: byte limit is per queue and independent of others");
	tap_ok(F.ports[0].pfc.ingress_bytes[0] == 400 &&
	       F.ports[0].pfc.ingress_bytes[5] == 3000 &&
	       F.ports[1].pfc.ingress_bytes[0] == 0,
	       "ingress buffer: queued bytes are charged to ingress port and priority");

	fk.blocked[1] = false;
	fk.now += 1000000;
	fabric_service(&F);
	tap_ok(delivered_to(1) == 7 && egress_depth_bytes(&F.ports[1].egress) == 0,
	       "queue: queued frames drain once the peer reads again");
	tap_ok(F.ports[0].pfc.ingress_bytes[0] == 0 &&
	       F.ports[0].pfc.ingress_bytes[5] == 0,
	       "ingress buffer: released when frames leave");
	tap_ok(fk.nlog == 7 && fk.log[0].len == 1000 && fk.log[3].len == 100,
	       "scheduler: strict priority sends queue 5 before queue 0");
	fabric_destroy(&F);
}

static void test_strict_priority(void)
{
	static const uint8_t pcps[] = { 0, 3, 7, 1, 5, 3 };
	static const uint8_t want[] = { 7, 5, 3, 3, 1, 0 };
	uint8_t a[6], b[6], fr[128];
	bool order_ok = true;
	uint32_t n;

	setup(2);
	learn_pair(a, b);
	fk.blocked[1] = true;
	for (size_t i = 0; i < sizeof(pcps); i++) {
		n = build_vlan(fr, b, a, ETHERTYPE_VLAN, pcps[i], 10,
			       0x88B5, 64);
		fr[20] = (uint8_t)i; /* sequence number in the payload */
		fabric_receive(&F, 0, fr, n);
	}
	tap_ok(F.ports[1].egress.q[3].depth_frames == 2 &&
	       F.ports[1].egress.q[7].depth_frames == 1,
	       "queue: frames land in the queue of their priority");
	fk.blocked[1] = false;
	fk.now += 1000000;
	fabric_service(&F);
	for (size_t i = 0; i < sizeof(want); i++)
		if (i >= fk.nlog || (fk.log[i].data[14] >> 5) != want[i])
			order_ok = false;
	tap_ok(order_ok && fk.nlog == sizeof(want),
	       "scheduler: strict priority order 7,5,3,3,1,0");
	tap_ok(fk.log[2].data[20] == 1 && fk.log[3].data[20] == 5,
	       "scheduler: FIFO within one queue");
	tap_ok(memcmp(fk.log[0].data, fr, 12) == 0 && get_be16(fk.log[0].data + 12) == ETHERTYPE_VLAN,
	       "switch: 802.1Q tagged frames are carried unchanged");
	fabric_destroy(&F);
}

/* ---- pacing ------------------------------------------------------------- */

static void test_pacing(void)
{
	struct fabric_config cfg;
	uint8_t a[6], b[6], fr[1000];
	uint64_t t, last_at = 0, early = 0;
	unsigned frames = 1000, sent;
	struct egress_port *ep;
	uint32_t n;

	tap_ok(wire_bytes(1500) == 1524 && wire_bytes(20) == 84,
	       "pacing: wire bytes add FCS, preamble, IFG and pad runts");
	tap_ok(wire_time_ps(1500, 25000) == 487680,
	       "pacing: 1500 B at 25 Gb/s is 487.68 ns");
	tap_ok(wire_time_ps(1000, 100) == 81920000,
	       "pacing: 1000 B at 100 Mb/s is 81.92 us");

	fabric_config_default(&cfg);
	cfg.rate_mbps = 100;
	cfg.queue_limit_frames = 2000;
	cfg.queue_limit_bytes = 2000000;
	setup_cfg(&cfg);
	learn_pair(a, b);
	ep = &F.ports[1].egress;
	fk.now = 1000000000; /* wire idle for a long time */
	ep->busy_until_ps = 0;

	/* 1 MB arrives at once: the fabric must spread it over ~80 ms */
	for (unsigned i = 0; i < frames; i++) {
		n = build_eth(fr, b, a, 0x88B5, sizeof(fr));
		fabric_receive(&F, 0, fr, n);
	}
	tap_ok(delivered_to(1) == 1, "pacing: only one frame leaves at once");
	/* step the clock to each event; also peek 1 ns early each time */
	while ((t = fabric_service(&F)) != UINT64_MAX) {
		sent = delivered_to(1);
		fk.now = t - 1;
		fabric_service(&F);
		early += delivered_to(1) - sent;
		fk.now = t;
	}
	last_at = fk.log[fk.nlog - 1].at_ns;
	tap_ok(delivered_to(1) == frames && early == 0,
	       "pacing: all %u frames sent, none before its time", frames);
	tap_ok(last_at - 1000000000 == (uint64_t)(frames - 1) * 81920,
	       "pacing: last frame starts at (N-1) x wire time (%.3f ms)",
	       (double)(last_at - 1000000000) / 1e6);
	tap_ok(ep->busy_until_ps == 1000000000000ull + 1000ull * 81920000ull,
	       "pacing: 1 MB occupies a 100 Mb/s wire for 81.92 ms");
	fabric_destroy(&F);

	/* rate 25 Gb/s: 1 MB in 1000 B frames takes 334 us of wire */
	fabric_config_default(&cfg);
	cfg.queue_limit_frames = 2000;
	cfg.queue_limit_bytes = 2000000;
	setup_cfg(&cfg);
	learn_pair(a, b);
	ep = &F.ports[1].egress;
	fk.now = 5000000;
	ep->busy_until_ps = 0;
	for (unsigned i = 0; i < frames; i++) {
		n = build_eth(fr, b, a, 0x88B5, sizeof(fr));
		fabric_receive(&F, 0, fr, n);
	}
	tap_ok(delivered_to(1) == 1, "pacing: an idle wire starts one frame at once");
	/* the loop wakes 5 wire times late: it catches up, no more */
	fk.now += 5 * 327680 / 1000 + 1;
	fabric_service(&F);
	tap_ok(delivered_to(1) == 6,
	       "pacing: a late wake-up catches up exactly (%u frames)",
	       delivered_to(1));
	while ((t = fabric_service(&F)) != UINT64_MAX)
		fk.now = t;
	tap_ok(delivered_to(1) == frames &&
	       /* rounded up to the next whole ns of the fake clock */
	       fk.log[fk.nlog - 1].at_ns - 5000000 == (999ull * 327680 + 999) / 1000,
	       "pacing: 1000 x 1000 B at 25 Gb/s: last starts after %.2f us",
	       (double)(fk.log[fk.nlog - 1].at_ns - 5000000) / 1000);
	fabric_set_rate(&F, 1, 100);
	tap_ok(F.ports[1].egress.rate_mbps == 100 && fk.phy[1] == 1 &&
	       get_be32(fk.last_phy[1] + 22) == 100,
	       "rate: a rate change is announced to the guest by a PHY frame");
	fabric_destroy(&F);
}

/* ---- loss and corruption ------------------------------------------------ */

static uint64_t run_loss(uint64_t seed, unsigned frames, uint64_t *rx_drops)
{
	uint64_t tx_before;
	struct fabric_config cfg;
	uint8_t a[6], b[6], fr[64];
	uint32_t n;

	fabric_config_default(&cfg);
	cfg.seed = seed;
	setup_cfg(&cfg);
	learn_pair(a, b);
	F.ports[1].loss = 0.01;
	tx_before = F.ports[1].st.tx_frames; /* learn_pair's broadcast */
	for (unsigned i = 0; i < frames; i++) {
		n = build_eth(fr, b, a, 0x88B5, 64);
		fabric_receive(&F, 0, fr, n);
		fk.now += 1000;
	}
	fabric_service(&F);
	*rx_drops = F.ports[0].st.drop_rx_loss;
	n = (uint32_t)F.ports[1].st.drop_tx_loss;
	tap_ok(F.ports[1].st.tx_frames - tx_before + n == frames,
	       "loss: delivered + lost = sent (seed %llu)",
	       (unsigned long long)seed);
	fabric_destroy(&F);
	return n;
}

static void test_loss(void)
{
	uint64_t rx_drops, lost, again;
	uint8_t a[6], b[6], fr[256], orig[256];
	struct fabric_config cfg;
	bool header_ok = true, one_bit = true;
	uint32_t n;

	lost = run_loss(42, 100000, &rx_drops);
	/* binomial(100000, 0.01): sd ~31.5; +-5 sd */
	tap_ok(lost >= 842 && lost <= 1158,
	       "loss: 1%% over 100k frames drops %llu (expect ~1000)",
	       (unsigned long long)lost);
	tap_ok(rx_drops == 0, "loss: only the lossy port's link loses frames");
	again = run_loss(42, 100000, &rx_drops);
	tap_ok(again == lost, "loss: same seed, same drops (%llu)",
	       (unsigned long long)again);

	fabric_config_default(&cfg);
	cfg.loss = 1.0;
	setup_cfg(&cfg);
	mac_n(a, 1);
	n = build_eth(fr, bcast, a, 0x88B5, 64);
	rx(0, fr, n);
	tap_ok(F.ports[0].st.drop_rx_loss == 1 && delivered_to(1) == 0,
	       "loss: probability 1 loses frames entering from the guest too");
	fabric_destroy(&F);

	fabric_config_default(&cfg);
	setup_cfg(&cfg);
	learn_pair(a, b);
	F.ports[1].corrupt = 1.0;
	for (int i = 0; i < 50; i++) {
		n = build_ipv4(orig, b, a, 0, 200);
		rx(0, orig, n);
	}
	for (unsigned i = 0; i < fk.nlog; i++) {
		int bits = 0;

		if (memcmp(fk.log[i].data, orig, ETH_HDR_LEN) != 0)
			header_ok = false;
		for (unsigned j = 0; j < LOG_BYTES; j++)
			bits += __builtin_popcount(fk.log[i].data[j] ^ orig[j]);
		/* the flip may be past the logged bytes: 0 or 1 seen */
		if (bits > 1)
			one_bit = false;
	}
	tap_ok(fk.nlog == 50 && F.ports[1].st.tx_corrupted == 50 && header_ok &&
	       one_bit,
	       "corrupt: every frame delivered with one bit flipped past the MAC header");
	fabric_destroy(&F);
}

/* ---- duplication and reordering ----------------------------------------- */

/* A frame from a to b carrying sequence number @seq after the header. */
static void rx_seq(const uint8_t *a, const uint8_t *b, uint32_t seq)
{
	uint8_t fr[64];
	uint32_t n = build_eth(fr, b, a, 0x88B5, 64);

	put_be32(fr + ETH_HDR_LEN, seq);
	fabric_receive(&F, 0, fr, n);
	fk.now += 1000;
	fabric_service(&F);
}

static uint32_t log_seq(unsigned i)
{
	return get_be32(fk.log[i].data + ETH_HDR_LEN);
}

static void test_dup_reorder(void)
{
	struct fabric_config cfg;
	uint8_t a[6], b[6];
	bool in_order = true, swapped = true;
	uint64_t next;
	const unsigned frames = 100000;

	setup(2);
	learn_pair(a, b);
	F.ports[1].st = (struct port_stats){ 0 };
	F.ports[1].duplicate = 1.0;
	for (uint32_t i = 0; i < 20; i++)
		rx_seq(a, b, i);
	for (unsigned i = 0; i < fk.nlog; i++)
		if (log_seq(i) != i / 2)
			in_order = false;
	tap_ok(fk.nlog == 40 && in_order && F.ports[1].st.tx_duplicated == 20 &&
	       F.ports[1].st.tx_frames == 40,
	       "duplicate: probability 1 sends every frame twice, back to back");
	fabric_destroy(&F);

	setup(2);
	learn_pair(a, b);
	F.ports[1].reorder = 1.0;
	for (uint32_t i = 0; i < 10; i++)
		rx_seq(a, b, i);
	/* each frame held is overtaken by the next one: 1 0 3 2 ... */
	for (unsigned i = 0; i < fk.nlog; i++)
		if (log_seq(i) != (i ^ 1))
			swapped = false;
	tap_ok(fk.nlog == 10 && swapped && F.ports[1].st.tx_held == 5 &&
	       F.ports[1].st.tx_reordered == 5,
	       "reorder: probability 1 swaps every pair of frames");
	rx_seq(a, b, 10);
	next = fabric_service(&F);
	tap_ok(fk.nlog == 10 && F.ports[1].held &&
	       next == F.ports[1].held_until_ns,
	       "reorder: a held frame waits, and the fabric's next event is its hold's end");
	fk.now = next;
	fabric_service(&F);
	tap_ok(fk.nlog == 11 && log_seq(10) == 10 && !F.ports[1].held &&
	       F.ports[1].st.tx_reordered == 5,
	       "reorder: with nothing to overtake it, it leaves when its hold ends, not counted as reordered");
	rx_seq(a, b, 11);
	fabric_set_link(&F, 1, false);
	tap_ok(!F.ports[1].held && F.ports[1].st.drop_tx_link_down == 1,
	       "reorder: a link going down drops the held frame and counts it");
	fabric_destroy(&F);

	/* 5% of each over 100k frames: nothing lost, nothing extra but the
	 * duplicates, and no frame overtaken by more than one other. */
	fabric_config_default(&cfg);
	cfg.seed = 7;
	cfg.duplicate = 0.05;
	cfg.reorder = 0.05;
	setup_cfg(&cfg);
	learn_pair(a, b);
	/* learn_pair's broadcasts went through the faults too */
	F.ports[1].st = (struct port_stats){ 0 };
	for (uint32_t i = 0; i < frames; i++)
		rx_seq(a, b, i);
	fk.now += FABRIC_REORDER_HOLD_NS;
	fabric_service(&F);
	/* binomial(100000, 0.05): sd ~69, +-5 sd; a frame arriving while
	 * one is held is never held itself, so holds are ~5/105 of frames */
	tap_ok(F.ports[1].st.tx_duplicated >= 4655 &&
	       F.ports[1].st.tx_duplicated <= 5345 &&
	       F.ports[1].st.tx_held >= 4300 && F.ports[1].st.tx_held <= 5345 &&
	       F.ports[1].st.tx_frames == frames + F.ports[1].st.tx_duplicated &&
	       fk.frames[1] == F.ports[1].st.tx_frames &&
	       F.ports[1].st.tx_reordered <= F.ports[1].st.tx_held,
	       "duplicate, reorder 5%%: %llu duplicated, %llu held (%llu overtaken), every frame delivered (%llu)",
	       (unsigned long long)F.ports[1].st.tx_duplicated,
	       (unsigned long long)F.ports[1].st.tx_held,
	       (unsigned long long)F.ports[1].st.tx_reordered,
	       (unsigned long long)F.ports[1].st.tx_frames);
	fabric_destroy(&F);

	fabric_config_default(&cfg);
	cfg.reorder = 1.5;
	tap_ok(fabric_init(&F, &cfg, &fake_io, (char[64]){ 0 }, 64) < 0,
	       "reorder: a probability above 1 is refused at start");
}

/* ---- stream framing ---------------------------------------------------- */

static enum stream_status feed(struct stream_rx *rx, const uint8_t *data,
			       size_t len, const uint8_t **fr, uint32_t *flen)
{
	size_t room;
	uint8_t *sp = stream_rx_space(rx, &room);

	memcpy(sp, data, len < room ? len : room);
	stream_rx_commit(rx, len < room ? len : room);
	return stream_rx_next(rx, fr, flen);
}

static void test_stream(void)
{
	static struct stream_rx rx;
	static uint8_t big[4 + ETH_MAX_STREAM_FRAME];
	uint8_t msg[4 + 100];
	const uint8_t *fr;
	uint32_t len;
	unsigned frames = 0;
	bool bytewise_ok = true;

	stream_rx_reset(&rx);
	put_be32(msg, 0);
	tap_ok(feed(&rx, msg, 4, &fr, &len) == STREAM_BAD_LENGTH,
	       "stream: length 0 is rejected");

	stream_rx_reset(&rx);
	put_be32(msg, ETH_MAX_STREAM_FRAME + 1);
	tap_ok(feed(&rx, msg, 4, &fr, &len) == STREAM_BAD_LENGTH,
	       "stream: length 65537 is rejected");

	stream_rx_reset(&rx);
	put_be32(msg, 0xffffffffu);
	tap_ok(feed(&rx, msg, 4, &fr, &len) == STREAM_BAD_LENGTH,
	       "stream: length 0xffffffff is rejected");

	stream_rx_reset(&rx);
	put_be32(big, ETH_MAX_STREAM_FRAME);
	memset(big + 4, 0x5a, ETH_MAX_STREAM_FRAME);
	tap_ok(feed(&rx, big, 1000, &fr, &len) == STREAM_NEED_MORE &&
	       feed(&rx, big + 1000, sizeof(big) - 1000, &fr, &len) == STREAM_FRAME &&
	       len == ETH_MAX_STREAM_FRAME && fr[len - 1] == 0x5a,
	       "stream: a 65536-byte frame in two reads is reassembled");

	/* three frames delivered one byte at a time */
	stream_rx_reset(&rx);
	for (int f = 0; f < 3; f++) {
		put_be32(msg, 100);
		memset(msg + 4, f + 1, 100);
		for (size_t i = 0; i < sizeof(msg); i++) {
			enum stream_status st = feed(&rx, msg + i, 1, &fr, &len);

			if (i + 1 < sizeof(msg) && st != STREAM_NEED_MORE)
				bytewise_ok = false;
			if (i + 1 == sizeof(msg)) {
				if (st != STREAM_FRAME || len != 100 ||
				    fr[99] != f + 1)
					bytewise_ok = false;
				else
					frames++;
			}
		}
	}
	tap_ok(bytewise_ok && frames == 3,
	       "stream: frames split at every byte boundary are reassembled");

	{
		struct outbuf o;

		outbuf_init(&o);
		outbuf_append_frame(&o, (const uint8_t *)"abcdef", 6);
		tap_ok(outbuf_pending(&o) == 10 && get_be32(o.buf) == 6 &&
		       memcmp(o.buf + 4, "abcdef", 6) == 0,
		       "stream: output is framed with a big-endian length");
		outbuf_free(&o);
	}
}

/* ---- link state and PHY frames ------------------------------------------ */

static void test_link_state(void)
{
	uint8_t a[6], b[6], fr[128];
	struct fabric_config cfg;
	uint32_t n;

	fabric_config_default(&cfg);
	memset(&fk, 0, sizeof(fk));
	{
		char err[64];

		fabric_init(&F, &cfg, &fake_io, err, sizeof(err));
	}
	fabric_connect(&F, 0);
	tap_ok(fk.phy[0] == 1 && fk.frames[0] == 0,
	       "phy: a connecting guest gets a PHY status frame");
	tap_ok(memcmp(fk.last_phy[0], phy_status_dst, 6) == 0 &&
	       memcmp(fk.last_phy[0] + 6, phy_status_src, 6) == 0 &&
	       get_be16(fk.last_phy[0] + 12) == 0x88B6 &&
	       memcmp(fk.last_phy[0] + 14, "WPHY", 4) == 0 &&
	       fk.last_phy[0][18] == 1 && fk.last_phy[0][19] == 1 &&
	       get_be16(fk.last_phy[0] + 20) == 0 &&
	       get_be32(fk.last_phy[0] + 22) == 25000,
	       "phy: frame format (dst, src, 0x88B6, WPHY, v1, up, 25000 Mb/s)");
	fabric_connect(&F, 1);
	learn_pair(a, b);

	fabric_set_link(&F, 1, false);
	tap_ok(fk.phy[1] == 1 && fk.last_phy[1][19] == 0,
	       "phy: link down is announced with link_up = 0");
	n = build_eth(fr, b, a, 0x88B5, 64);
	rx(0, fr, n);
	n = build_eth(fr, bcast, a, 0x88B5, 64);
	rx(0, fr, n);
	n = build_eth(fr, a, b, 0x88B5, 64);
	rx(1, fr, n);
	tap_ok(fk.frames[0] == 0 && fk.frames[1] == 0,
	       "link: no frames cross a port whose link is down");
	/* b's address was forgotten with the link: its frame floods too */
	tap_ok(F.ports[0].st.flooded == 3 && F.ports[1].st.drop_rx_link_down == 1,
	       "link: frames from a down port are counted as drops");
	tap_ok(F.ports[1].st.tx_frames == 1 && F.ports[1].st.phy_sent == 2,
	       "phy: PHY frames are not counted as traffic");

	fabric_set_link(&F, 1, true);
	tap_ok(fk.phy[1] == 2 && fk.last_phy[1][19] == 1,
	       "phy: link up is announced with link_up = 1");
	n = build_eth(fr, a, b, 0x88B5, 64);
	rx(1, fr, n);
	tap_ok(fk.frames[0] == 1, "link: traffic flows again after link up");

	/* queued frames are flushed when the link drops */
	fk.blocked[1] = true;
	for (int i = 0; i < 5; i++) {
		n = build_eth(fr, b, a, 0x88B5, 64);
		rx(0, fr, n);
	}
	fabric_set_link(&F, 1, false);
	tap_ok(egress_depth_bytes(&F.ports[1].egress) == 0 &&
	       F.ports[1].st.drop_tx_link_down == 5 &&
	       F.ports[0].pfc.ingress_bytes[0] == 0,
	       "link: frames queued for a port are dropped when it goes down");
	fabric_set_link(&F, 1, true);
	fk.blocked[1] = false;

	n = build_eth(fr, bcast, a, 0x88B5, 64);
	memcpy(fr, phy_status_dst, 6);
	put_be16(fr + 12, ETHERTYPE_PHY_STATUS);
	rx(0, fr, n);
	tap_ok(F.ports[0].st.drop_reserved == 1 && fk.frames[1] == 0,
	       "phy: a guest cannot inject PHY status frames");

	n = build_eth(fr, bcast, a, 0x88B5, 10);
	rx(0, fr, n);
	tap_ok(F.ports[0].st.drop_runt == 1 && fk.frames[1] == 0,
	       "switch: frames shorter than an Ethernet header are dropped");

	fabric_disconnect(&F, 1, false);
	n = build_eth(fr, b, a, 0x88B5, 64);
	rx(0, fr, n);
	tap_ok(fk.frames[1] == 0 && !F.ports[1].connected,
	       "link: nothing is sent to a port without a guest");
	fabric_destroy(&F);
}

/* ---- pcap ---------------------------------------------------------------- */

struct pcap_hdr {
	uint32_t magic;
	uint16_t major, minor;
	int32_t zone;
	uint32_t sigfigs, snaplen, linktype;
};

static void test_pcap(void)
{
	char dir[] = "/tmp/wren-fabric-test-XXXXXX";
	char path[320];
	struct fabric_config cfg;
	struct pcap_hdr h;
	uint8_t a[6], b[6], fr[300], rec[16], data[300];
	unsigned records = 0, bad = 0, seen_300 = 0, seen_phy = 0;
	FILE *fp;

	if (!mkdtemp(dir)) {
		tap_ok(false, "pcap: mkdtemp");
		return;
	}
	fabric_config_default(&cfg);
	cfg.pcap_dir = dir;
	setup_cfg(&cfg); /* connect: 1 PHY frame per port in the capture */
	learn_pair(a, b); /* 1 rx on each port, 1 tx on each */
	for (int i = 0; i < 5; i++) {
		uint32_t n = build_eth(fr, b, a, 0x88B5, 300);

		rx(0, fr, n);
	}
	/* read while "running": records are already on disk */
	snprintf(path, sizeof(path), "%s/port1.pcap", dir);
	fp = fopen(path, "rb");
	if (!fp || fread(&h, sizeof(h), 1, fp) != 1) {
		tap_ok(false, "pcap: %s readable", path);
		if (fp)
			fclose(fp);
		fabric_destroy(&F);
		return;
	}
	tap_ok(h.magic == 0xa1b2c3d4 && h.major == 2 && h.minor == 4 &&
	       h.linktype == 1 && h.snaplen >= 65536,
	       "pcap: file header is classic pcap, LINKTYPE_ETHERNET");
	while (fread(rec, sizeof(rec), 1, fp) == 1) {
		uint32_t caplen, len;

		memcpy(&caplen, rec + 8, 4);
		memcpy(&len, rec + 12, 4);
		if (caplen != len || caplen > sizeof(data) ||
		    fread(data, caplen, 1, fp) != 1) {
			bad++;
			break;
		}
		records++;
		if (caplen == 300 && memcmp(data, fr, 300) == 0)
			seen_300++;
		if (phy_status_is(data, caplen))
			seen_phy++;
	}
	fclose(fp);
	/* port 1: PHY, rx bcast from b, tx bcast from a, 5 x tx unicast */
	tap_ok(bad == 0 && records == 8 && seen_300 == 5 && seen_phy == 1,
	       "pcap: records parse back (%u records, %u data, %u PHY)",
	       records, seen_300, seen_phy);

	fabric_set_pcap(&F, 1, false);
	rx(0, fr, 300);
	fabric_set_pcap(&F, 1, true);
	rx(0, fr, 300);
	fabric_destroy(&F);
	fp = fopen(path, "rb");
	records = 0;
	if (fp && fread(&h, sizeof(h), 1, fp) == 1) {
		while (fread(rec, sizeof(rec), 1, fp) == 1) {
			uint32_t caplen;

			memcpy(&caplen, rec + 8, 4);
			if (fseek(fp, caplen, SEEK_CUR) != 0)
				break;
			records++;
		}
	}
	if (fp)
		fclose(fp);
	tap_ok(records == 9,
	       "pcap: off stops capture, on appends without a second header");

	/* clean up the temporary directory */
	{
		DIR *d = opendir(dir);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
		if (d)
			closedir(d);
		rmdir(dir);
	}
}

/* ---- control commands ----------------------------------------------------- */

static bool ctl(const char *line, char *reply, size_t len)
{
	struct outbuf o;
	bool ok;
	size_t n;

	outbuf_init(&o);
	ok = control_execute(&F, line, &o);
	n = outbuf_pending(&o) < len - 1 ? outbuf_pending(&o) : len - 1;
	memcpy(reply, o.buf, n);
	reply[n] = '\0';
	outbuf_free(&o);
	return ok;
}

static void test_control(void)
{
	static char reply[65536];
	uint8_t a[6], b[6], fr[128];
	uint32_t n;

	setup(2);
	learn_pair(a, b);
	n = build_eth(fr, b, a, 0x88B5, 64);
	rx(0, fr, n);

	tap_ok(ctl("stats", reply, sizeof(reply)) &&
	       strstr(reply, "port 0 rx_frames 2\n") &&
	       strstr(reply, "port 1 tx_frames 2\n") &&
	       strstr(reply, "port 1 q0_tx_frames 2\n") &&
	       strstr(reply, "fabric mac_entries 2\n") &&
	       strcmp(reply + strlen(reply) - 3, "ok\n") == 0,
	       "ctl: stats prints 'port N key value' lines and ends with ok");
	tap_ok(ctl("stats 1", reply, sizeof(reply)) &&
	       !strstr(reply, "port 0 ") && strstr(reply, "port 1 link_up 1\n"),
	       "ctl: stats <port> limits output to that port");

	tap_ok(ctl("link 1 down", reply, sizeof(reply)) && !F.ports[1].link_up &&
	       strcmp(reply, "ok\n") == 0,
	       "ctl: link 1 down");
	tap_ok(ctl("link 1 up", reply, sizeof(reply)) && F.ports[1].link_up,
	       "ctl: link 1 up");
	tap_ok(!ctl("link 2 down", reply, sizeof(reply)) &&
	       strncmp(reply, "error: ", 7) == 0,
	       "ctl: out-of-range port is an error");
	tap_ok(!ctl("link 1 sideways", reply, sizeof(reply)),
	       "ctl: bad link state is an error");
	tap_ok(ctl("loss 0 1%", reply, sizeof(reply)) && F.ports[0].loss == 0.01 &&
	       ctl("loss all 0.5", reply, sizeof(reply)) &&
	       F.ports[0].loss == 0.5 && F.ports[1].loss == 0.5,
	       "ctl: loss as percentage and fraction, per port and all");
	tap_ok(!ctl("loss 0 1.5", reply, sizeof(reply)) &&
	       !ctl("loss 0 abc", reply, sizeof(reply)) &&
	       !ctl("loss 0 -0.1", reply, sizeof(reply)) && F.ports[0].loss == 0.5,
	       "ctl: invalid probabilities are rejected and change nothing");
	tap_ok(ctl("corrupt 1 0.25", reply, sizeof(reply)) &&
	       F.ports[1].corrupt == 0.25,
	       "ctl: corrupt sets the corruption probability");
	tap_ok(ctl("duplicate 1 2%", reply, sizeof(reply)) &&
	       F.ports[1].duplicate == 0.02 &&
	       ctl("reorder all 0.05", reply, sizeof(reply)) &&
	       F.ports[0].reorder == 0.05 && F.ports[1].reorder == 0.05 &&
	       !ctl("reorder 0 2", reply, sizeof(reply)) &&
	       ctl("stats 1", reply, sizeof(reply)) &&
	       strstr(reply, "port 1 duplicate 0.02\n") &&
	       strstr(reply, "port 1 reorder 0.05\n") &&
	       strstr(reply, "port 1 tx_reordered 0\n"),
	       "ctl: duplicate and reorder set their probabilities, stats shows them");
	ctl("duplicate all 0", reply, sizeof(reply));
	ctl("reorder all 0", reply, sizeof(reply));
	fake_clear_log();
	tap_ok(ctl("rate 0 1000", reply, sizeof(reply)) &&
	       F.ports[0].egress.rate_mbps == 1000 && fk.phy[0] == 1,
	       "ctl: rate sets the port rate and tells the guest");
	tap_ok(!ctl("rate 0 0", reply, sizeof(reply)) &&
	       !ctl("rate 0 99999999", reply, sizeof(reply)),
	       "ctl: rate 0 and absurd rates are rejected");
	tap_ok(!ctl("pcap 0 on", reply, sizeof(reply)) &&
	       strstr(reply, "pcap-dir") != NULL,
	       "ctl: pcap on without a capture directory is an error");
	tap_ok(ctl("qlimit 1 3 9000 7", reply, sizeof(reply)) &&
	       F.ports[1].egress.q[3].limit_bytes == 9000 &&
	       F.ports[1].egress.q[3].limit_frames == 7 &&
	       F.ports[1].egress.q[2].limit_bytes == EGRESS_DEFAULT_LIMIT_BYTES,
	       "ctl: qlimit sets one queue's limits");
	tap_ok(ctl("dscp-map 10 7", reply, sizeof(reply)) &&
	       F.dscp_map[10] == 7 && ctl("dscp-map", reply, sizeof(reply)) &&
	       strstr(reply, "dscp 10 prio 7\n") &&
	       ctl("dscp-map default", reply, sizeof(reply)) &&
	       F.dscp_map[10] == 1,
	       "ctl: dscp-map sets, shows and resets the map");
	tap_ok(!ctl("dscp-map 64 1", reply, sizeof(reply)) &&
	       !ctl("dscp-map 1 8", reply, sizeof(reply)),
	       "ctl: dscp-map rejects out-of-range values");
	tap_ok(ctl("macs", reply, sizeof(reply)) &&
	       strstr(reply, "mac 02:00:00:00:00:0a port 0"),
	       "ctl: macs lists learned addresses");
	tap_ok(!ctl("frobnicate", reply, sizeof(reply)) &&
	       strstr(reply, "unknown command"),
	       "ctl: unknown command is an error");
	tap_ok(!ctl("", reply, sizeof(reply)) &&
	       !ctl("link", reply, sizeof(reply)) &&
	       strstr(reply, "usage: link"),
	       "ctl: empty line and missing arguments are errors with usage");
	tap_ok(!ctl("stats 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17",
		    reply, sizeof(reply)),
	       "ctl: too many arguments is an error");
	tap_ok(ctl("help", reply, sizeof(reply)) && strstr(reply, "usage: qlimit"),
	       "ctl: help lists the commands");
	fabric_destroy(&F);
}

/* ---- random traffic and random knob changes ---------------------------- */

static bool buffers_consistent(void)
{
	for (int prio = 0; prio < FABRIC_PRIOS; prio++) {
		uint64_t charged = 0, queued = 0;

		for (unsigned i = 0; i < F.nports; i++) {
			charged += F.ports[i].pfc.ingress_bytes[prio];
			queued += F.ports[i].egress.q[prio].depth_bytes;
		}
		if (charged != queued)
			return false;
	}
	return true;
}

/* Random frames, link flaps and blocked peers; @dcb turns everything on. */
static void random_traffic(bool dcb)
{
	static const uint16_t types[] = { ETHERTYPE_IPV4, ETHERTYPE_IPV6,
					  ETHERTYPE_VLAN, ETHERTYPE_QINQ,
					  ETHERTYPE_PHY_STATUS, 0x0806, 0x8808 };
	struct fabric_config cfg;
	struct prng r;
	uint8_t fr[1600];
	bool consistent = true;
	uint64_t rx = 0;

	fabric_config_default(&cfg);
	cfg.nports = 5;
	cfg.queue_limit_frames = 64;
	cfg.corrupt = 0.01;
	cfg.loss = 0.01;
	if (dcb) {
		cfg.lossless_prios = 0xf0;
		cfg.pfc_xoff = 4000;
		cfg.pfc_xon = 2000;
		cfg.pfc_headroom = 20000;
		cfg.ecn_queues = 0xff;
		cfg.red = (struct red_config){ true, true, 1000, 20000, 0.5 };
		cfg.pfcwd_prios = 0xff;
		cfg.wd.detect_ns = 2000000;
		cfg.wd.restore_ns = 3000000;
	}
	setup_cfg(&cfg);
	if (dcb) {
		static const uint8_t w[FABRIC_PRIOS] = { 1, 0, 5, 100, 0, 7, 0,
							 2 };

		for (unsigned i = 0; i < F.nports; i++)
			egress_set_weights(&F.ports[i].egress, w);
	}
	prng_seed(&r, 2026);
	for (unsigned i = 0; i < 200000; i++) {
		unsigned port = prng_below(&r, 5);
		uint32_t len = prng_below(&r, 8) ? 14 + prng_below(&r, 1500)
						  : prng_below(&r, 20);
		uint32_t op = prng_below(&r, 1000);

		for (uint32_t j = 0; j < len; j++)
			fr[j] = (uint8_t)prng_next(&r);
		if (len >= 14) {
			/* a few stations and group addresses, so learning,
			 * filtering and flooding all happen */
			fr[0] = prng_below(&r, 4) ? 0x02 : 0x01;
			memset(fr + 1, 0, 4);
			fr[5] = (uint8_t)prng_below(&r, 8);
			fr[6] = 0x02;
			memset(fr + 7, 0, 4);
			fr[11] = (uint8_t)prng_below(&r, 8);
			put_be16(fr + 12, types[prng_below(&r, 7)]);
		}
		if (dcb && len >= PFC_FRAME_LEN && !prng_below(&r, 40)) {
			uint16_t quanta[FABRIC_PRIOS];

			for (int p = 0; p < FABRIC_PRIOS; p++)
				quanta[p] = prng_below(&r, 4) ?
					    (uint16_t)prng_next(&r) : 0;
			pfc_frame_build(fr, fr + 6, (uint8_t)prng_next(&r),
					quanta);
			len = PFC_FRAME_LEN;
		}
		if (op < 5)
			fabric_set_link(&F, prng_below(&r, 5), prng_below(&r, 2));
		else if (op < 8)
			fabric_set_rate(&F, prng_below(&r, 5),
					1 + prng_below(&r, 100000));
		else if (op < 20)
			fk.blocked[prng_below(&r, 5)] = prng_below(&r, 2);
		else if (op < 22)
			fabric_disconnect(&F, prng_below(&r, 5), op == 20);
		else if (op < 25)
			fabric_connect(&F, prng_below(&r, 5));
		if (F.ports[port].connected) {
			fabric_receive(&F, port, fr, len);
			rx++;
		}
		fk.now += prng_below(&r, 20000);
		if (!(i % 64))
			fabric_service(&F);
		if (!(i % 1000) && !buffers_consistent())
			consistent = false;
	}
	tap_ok(consistent, "random traffic%s: ingress charges always match queued bytes",
	       dcb ? " (lossless, RED, watchdog)" : "");
	{
		uint64_t seen = 0;

		for (unsigned i = 0; i < F.nports; i++)
			seen += F.ports[i].st.rx_frames;
		tap_ok(seen == rx, "random traffic%s: every received frame is counted (%llu)",
		       dcb ? " (lossless, RED, watchdog)" : "",
		       (unsigned long long)rx);
	}
	if (dcb) {
		uint64_t pfc_tx = 0, pfc_rx = 0, red = 0, storms = 0;
		bool bounded = true;

		for (unsigned i = 0; i < F.nports; i++) {
			const struct fabric_port *p = &F.ports[i];

			pfc_tx += p->st.tx_pfc_frames;
			pfc_rx += p->st.rx_pfc_frames + p->st.rx_pause_frames;
			for (int q = 0; q < FABRIC_PRIOS; q++) {
				red += p->egress.q[q].st.ecn_marked +
				       p->egress.q[q].st.drop_red_frames;
				storms += p->egress.q[q].st.wd_storms;
				if (p->pfc.prio[q].lossless &&
				    p->pfc.prio[q].ingress_max_bytes >
				    p->pfc.prio[q].xoff +
				    p->pfc.prio[q].headroom)
					bounded = false;
			}
		}
		tap_ok(bounded && pfc_tx && red,
		       "random traffic (lossless, RED, watchdog): %llu PFC sent, %llu received, %llu RED, %llu storms, lossless within its hard limit",
		       (unsigned long long)pfc_tx, (unsigned long long)pfc_rx,
		       (unsigned long long)red, (unsigned long long)storms);
	}
	for (unsigned i = 0; i < F.nports; i++)
		fabric_set_link(&F, i, false);
	{
		bool zero = true;

		for (unsigned i = 0; i < F.nports; i++)
			for (int p = 0; p < FABRIC_PRIOS; p++)
				zero &= F.ports[i].pfc.ingress_bytes[p] == 0;
		tap_ok(zero, "random traffic%s: all buffers are released when links go down",
		       dcb ? " (lossless, RED, watchdog)" : "");
	}
	fabric_destroy(&F);
}

/* ---- lossless switching: PFC, RED/ECN, watchdog ------------------------ */

/*
 * Until when the fake guest on @port stays paused at @prio, judging by the
 * fabric's PFC frames it had seen by @seen_by (a NIC reacts with a delay).
 */
static uint64_t guest_paused_until(unsigned port, unsigned prio,
				   uint64_t seen_by)
{
	uint64_t until = 0;

	for (unsigned i = 0; i < fk.nlog; i++) {
		const struct sent *s = &fk.log[i];
		struct mac_ctrl c;

		if (s->port != port || s->at_ns > seen_by)
			continue;
		c = mac_ctrl_parse(s->data, s->len);
		if (c.kind != MAC_CTRL_PFC || !(c.class_enable & (1u << prio)))
			continue;
		until = s->at_ns +
			pfc_quanta_ns(c.quanta[prio],
				      F.ports[port].egress.rate_mbps);
	}
	return until;
}

static unsigned count_pfc(unsigned port, unsigned prio, bool xoff)
{
	unsigned n = 0;

	for (unsigned i = 0; i < fk.nlog; i++) {
		const struct sent *s = &fk.log[i];
		struct mac_ctrl c = mac_ctrl_parse(s->data, s->len);

		if (s->port == port && c.kind == MAC_CTRL_PFC &&
		    (c.class_enable & (1u << prio)) &&
		    (c.quanta[prio] != 0) == xoff)
			n++;
	}
	return n;
}

static unsigned data_frames_to(unsigned port)
{
	unsigned n = 0;

	for (unsigned i = 0; i < fk.nlog; i++)
		if (fk.log[i].port == port &&
		    mac_ctrl_parse(fk.log[i].data, fk.log[i].len).kind ==
			    MAC_CTRL_NONE)
			n++;
	return n;
}

static void test_pfc_frame_format(void)
{
	static const uint16_t quanta[FABRIC_PRIOS] = { 1, 2, 3, 0xffff, 5, 6,
						       7, 8 };
	uint8_t fr[PFC_FRAME_LEN], src[ETH_ALEN];
	struct mac_ctrl c;

	pfc_port_mac(3, src);
	pfc_frame_build(fr, src, 0x08, quanta);
	tap_ok(memcmp(fr, mac_ctrl_dst, 6) == 0 && memcmp(fr + 6, src, 6) == 0 &&
	       get_be16(fr + 12) == 0x8808 && get_be16(fr + 14) == 0x0101 &&
	       get_be16(fr + 16) == 0x0008 && get_be16(fr + 24) == 0xffff &&
	       get_be16(fr + 18) == 0 && get_be16(fr + 32) == 0,
	       "pfc frame: DA 01:80:C2:00:00:01, 0x8808, opcode 0x0101, vector, times");
	{
		bool zero = true;

		for (int i = 34; i < PFC_FRAME_LEN; i++)
			zero &= fr[i] == 0;
		tap_ok(zero && src[0] == 0x02 && src[5] == 3,
		       "pfc frame: padded with zeros to 60 bytes, local source MAC");
	}
	c = mac_ctrl_parse(fr, sizeof(fr));
	tap_ok(c.kind == MAC_CTRL_PFC && c.class_enable == 0x08 &&
	       c.quanta[3] == 0xffff && c.quanta[0] == 0,
	       "pfc frame: parses back");
	pause_frame_build(fr, src, 300);
	c = mac_ctrl_parse(fr, sizeof(fr));
	tap_ok(c.kind == MAC_CTRL_PAUSE && c.class_enable == 0xff &&
	       c.quanta[0] == 300 && c.quanta[7] == 300,
	       "802.3x pause: one time for all priorities");
	put_be16(fr + 14, 0x0003);
	tap_ok(mac_ctrl_parse(fr, sizeof(fr)).kind == MAC_CTRL_OTHER &&
	       mac_ctrl_parse(fr, 15).kind == MAC_CTRL_OTHER,
	       "MAC control with another opcode or truncated is recognised");
	tap_ok(pfc_quanta_ns(0xffff, 25000) == 1342156 &&
	       pfc_quanta_ns(1000, 100) == 5120000 &&
	       pfc_quanta_ns(1000, 1000) == 512000,
	       "pfc: quanta are 512 bit times at the port's rate");
}

/* tshark, if installed, must decode what the fabric sends as PFC. */
static void test_pfc_tshark(void)
{
	static const uint16_t quanta[FABRIC_PRIOS] = { [3] = 0xffff };
	char path[64], cmd[256], out[256] = "";
	uint8_t fr[PFC_FRAME_LEN], src[ETH_ALEN];
	struct pcap_writer w;
	FILE *pp;
	int fd;

	if (system("command -v tshark >/dev/null 2>&1") != 0) {
		tap_ok(true, "tshark decodes the fabric's PFC frame # SKIP no tshark");
		return;
	}
	snprintf(path, sizeof(path), "/tmp/wren-fabric-pfc-XXXXXX");
	fd = mkstemp(path);
	if (fd >= 0)
		close(fd);
	pcap_writer_init(&w);
	pfc_port_mac(1, src);
	pfc_frame_build(fr, src, 0x08, quanta);
	if (fd < 0 || pcap_open(&w, path, true) < 0) {
		tap_ok(false, "tshark decodes the fabric's PFC frame (no temp file)");
		return;
	}
	pcap_write(&w, fr, sizeof(fr), 1700000000ull * 1000000000ull);
	pcap_close(&w);
	snprintf(cmd, sizeof(cmd),
		 "tshark -r %s -T fields -e macc.opcode -e macc.cbfc.enbv "
		 "-e macc.cbfc.pause_time.c3 2>/dev/null", path);
	pp = popen(cmd, "r");
	if (pp) {
		if (!fgets(out, sizeof(out), pp))
			out[0] = '\0';
		pclose(pp);
	}
	unlink(path);
	out[strcspn(out, "\n")] = '\0';
	tap_ok(strstr(out, "0x0101") && strstr(out, "0x0008") &&
	       strstr(out, "65535"),
	       "tshark decodes the fabric's PFC frame as PFC (%.60s)", out);
}

/*
 * Senders on ports 0 and 1 each send 1000-byte frames at line rate to the
 * receiver on port 2 (2:1 overload) and honour the PFC they are sent,
 * as a NIC would, after @react_ns.
 */
struct overload_result {
	unsigned sent, delivered;
};

static struct overload_result overload(bool lossless, unsigned nframes,
				       uint64_t react_ns)
{
	struct overload_result r = { 0, 0 };
	uint8_t fr[1000], mac[3][6];
	uint64_t dt, end;
	unsigned left[2] = { nframes, nframes };
	struct fabric_config cfg;

	fabric_config_default(&cfg);
	cfg.nports = 3;
	cfg.rate_mbps = 1000;
	cfg.queue_limit_bytes = 100000;
	if (lossless)
		cfg.lossless_prios = 1u << 3;
	setup_cfg(&cfg);
	for (unsigned i = 0; i < 3; i++) {
		mac_n(mac[i], 0x10 + i);
		build_eth(fr, bcast, mac[i], 0x88B5, 60);
		fabric_receive(&F, i, fr, 60);
	}
	fk.now += 1000000;
	fabric_service(&F);
	fake_clear_log();
	dt = wire_time_ps(sizeof(fr), 1000) / 1000;
	while (left[0] || left[1]) {
		for (unsigned g = 0; g < 2; g++) {
			uint64_t seen = fk.now > react_ns ? fk.now - react_ns : 0;

			if (!left[g] || guest_paused_until(g, 3, seen) > fk.now)
				continue;
			build_ipv4(fr, mac[2], mac[g], 24, sizeof(fr));
			fabric_receive(&F, g, fr, sizeof(fr));
			left[g]--;
			r.sent++;
		}
		fk.now += dt;
		fabric_service(&F);
		if (fk.nlog > LOG_MAX - 16)
			break;
	}
	/* drain */
	end = fk.now + 1000000000ull;
	while (fk.now < end && egress_depth_bytes(&F.ports[2].egress)) {
		fk.now += dt;
		fabric_service(&F);
	}
	r.delivered = data_frames_to(2);
	return r;
}

static void test_lossless_overload(void)
{
	struct overload_result r;
	const struct pfc_prio *p0, *p1;
	uint64_t max;

	/* 20 us reaction: a few frames still arrive after each XOFF */
	r = overload(true, 1000, 20000);
	p0 = &F.ports[0].pfc.prio[3];
	p1 = &F.ports[1].pfc.prio[3];
	tap_ok(r.sent == 2000 && r.delivered == r.sent,
	       "lossless: 2:1 overload loses nothing (%u of %u delivered)",
	       r.delivered, r.sent);
	tap_ok(p0->tx_xoff > 0 && p1->tx_xoff > 0 && count_pfc(0, 3, true) &&
	       count_pfc(1, 3, true),
	       "lossless: XOFF sent to both senders (%llu, %llu)",
	       (unsigned long long)p0->tx_xoff, (unsigned long long)p1->tx_xoff);
	tap_ok(count_pfc(0, 3, false) && count_pfc(1, 3, false) &&
	       !p0->xoff_active && !p1->xoff_active &&
	       F.ports[0].pfc.ingress_bytes[3] == 0,
	       "lossless: XON sent after draining");
	max = p0->ingress_max_bytes > p1->ingress_max_bytes ?
	      p0->ingress_max_bytes : p1->ingress_max_bytes;
	tap_ok(p0->drop_lossless_frames == 0 && p1->drop_lossless_frames == 0 &&
	       F.ports[2].st.drop_queue_full == 0 && max >= p0->xoff &&
	       max <= p0->xoff + p0->headroom,
	       "lossless: occupancy peaked at %llu bytes, within xoff + headroom",
	       (unsigned long long)max);
	tap_ok(F.ports[2].egress.q[3].st.max_depth_bytes >
	       F.ports[2].egress.q[3].limit_bytes,
	       "lossless: the shared buffer holds more than the lossy queue limit");
	{
		bool only3 = true;

		for (unsigned i = 0; i < fk.nlog; i++) {
			struct mac_ctrl c = mac_ctrl_parse(fk.log[i].data,
							   fk.log[i].len);

			if (c.kind != MAC_CTRL_NONE && c.class_enable != 0x08)
				only3 = false;
		}
		tap_ok(only3, "lossless: PFC frames name priority 3 only");
	}
	fabric_destroy(&F);

	r = overload(false, 1000, 20000);
	tap_ok(F.ports[2].st.drop_queue_full > 0 && r.delivered < r.sent &&
	       r.delivered + F.ports[2].st.drop_queue_full == r.sent &&
	       !count_pfc(0, 3, true) && !count_pfc(1, 3, true),
	       "lossy: the same overload tail-drops %llu and sends no PFC",
	       (unsigned long long)F.ports[2].st.drop_queue_full);
	fabric_destroy(&F);

	/* a guest that ignores PFC overruns the headroom: visibly */
	{
		struct fabric_config cfg;
		uint8_t fr[1000], a[6], b[6];
		static char reply[65536];

		fabric_config_default(&cfg);
		cfg.lossless_prios = 1u << 3;
		cfg.pfc_xoff = 4000;
		cfg.pfc_xon = 1000;
		cfg.pfc_headroom = 2000;
		setup_cfg(&cfg);
		learn_pair(a, b);
		fk.blocked[1] = true;
		for (unsigned i = 0; i < 10; i++) {
			build_ipv4(fr, b, a, 24, sizeof(fr));
			fabric_receive(&F, 0, fr, sizeof(fr));
		}
		tap_ok(F.ports[0].pfc.prio[3].drop_lossless_frames == 4 &&
		       F.ports[1].egress.q[3].depth_frames == 6 &&
		       F.ports[1].st.drop_queue_full == 0 &&
		       ctl("stats 0", reply, sizeof(reply)) &&
		       strstr(reply, "port 0 q3_drop_lossless_frames 4\n") &&
		       strstr(reply, "port 0 q3_drop_lossless_bytes 4000\n"),
		       "lossless: beyond xoff + headroom frames drop as lossless drops");
		fabric_destroy(&F);
	}

	/* a receiver that never reads: the pause must never lapse */
	{
		struct fabric_config cfg;
		uint8_t fr[1000], a[6], b[6];
		uint64_t last = 0, gap = 0, pause;
		unsigned n = 0;

		fabric_config_default(&cfg);
		cfg.rate_mbps = 1000;
		cfg.lossless_prios = 1u << 3;
		setup_cfg(&cfg);
		learn_pair(a, b);
		fk.blocked[1] = true;
		for (unsigned i = 0; i < 100; i++) {
			build_ipv4(fr, b, a, 24, sizeof(fr));
			fabric_receive(&F, 0, fr, sizeof(fr));
		}
		for (unsigned ms = 0; ms < 200; ms++) {
			fk.now += 1000000;
			fabric_service(&F);
		}
		pause = pfc_quanta_ns(PFC_MAX_QUANTA, 1000);
		for (unsigned i = 0; i < fk.nlog; i++) {
			struct mac_ctrl c = mac_ctrl_parse(fk.log[i].data,
							   fk.log[i].len);

			if (fk.log[i].port != 0 || c.kind != MAC_CTRL_PFC)
				continue;
			if (n++ && fk.log[i].at_ns - last > gap)
				gap = fk.log[i].at_ns - last;
			last = fk.log[i].at_ns;
		}
		tap_ok(n >= 200000000ull / pause * 2 && gap < pause &&
		       F.ports[0].pfc.prio[3].tx_refresh == n - 1 &&
		       !count_pfc(0, 3, false),
		       "lossless: XOFF refreshed %u times, largest gap %llu us < pause %llu us",
		       n, (unsigned long long)gap / 1000,
		       (unsigned long long)pause / 1000);
		tap_ok(pfc_tx_pause_ns(&F.ports[0].pfc, 3, fk.now) >=
		       199000000ull,
		       "lossless: tx pause time counts the whole XOFF (%llu us)",
		       (unsigned long long)pfc_tx_pause_ns(&F.ports[0].pfc, 3,
							   fk.now) / 1000);
		fabric_destroy(&F);
	}
}

/* Guest B (port 1) pauses priority 3 for @quanta; A sends at 3 and 0. */
static void pfc_rx_at(uint32_t rate)
{
	static const uint16_t q1000[FABRIC_PRIOS] = { [3] = 1000 };
	uint8_t fr[200], pfc[PFC_FRAME_LEN], a[6], b[6];
	uint64_t t0, pause = pfc_quanta_ns(1000, rate), at3 = 0, at0 = 0;
	uint64_t ft = wire_time_ps(sizeof(fr), rate) / 1000 + 1;
	struct fabric_config cfg;

	fabric_config_default(&cfg);
	cfg.rate_mbps = rate;
	setup_cfg(&cfg);
	learn_pair(a, b);
	fk.now += 1000000;
	fabric_service(&F);
	t0 = fk.now;
	pfc_frame_build(pfc, b, 0x08, q1000);
	fabric_receive(&F, 1, pfc, sizeof(pfc));
	build_ipv4(fr, b, a, 24, sizeof(fr));
	fabric_receive(&F, 0, fr, sizeof(fr));
	build_ipv4(fr, b, a, 0, sizeof(fr));
	fabric_receive(&F, 0, fr, sizeof(fr));
	while (fk.now < t0 + 2 * pause) {
		uint64_t next = fabric_service(&F);

		fk.now = next != UINT64_MAX && next > fk.now ?
			 next : fk.now + pause / 4;
	}
	for (unsigned i = 0; i < fk.nlog; i++) {
		if (fk.log[i].port != 1)
			continue;
		if (fk.log[i].data[15] >> 2 == 24)
			at3 = fk.log[i].at_ns;
		else
			at0 = fk.log[i].at_ns;
	}
	tap_ok(at0 && at0 - t0 <= ft && at3 >= t0 + pause &&
	       at3 <= t0 + pause + ft,
	       "pfc rx at %u Mb/s: priority 3 held %llu us (pause %llu us), priority 0 went at once",
	       rate, (unsigned long long)(at3 - t0) / 1000,
	       (unsigned long long)pause / 1000);
	tap_ok(F.ports[1].st.rx_pfc_frames == 1 && data_frames_to(0) == 0 &&
	       fk.frames[0] == 0 &&
	       egress_pause_ns(&F.ports[1].egress.q[3], fk.now) == pause &&
	       F.ports[1].egress.q[3].st.pfc_rx_xoff == 1,
	       "pfc rx at %u Mb/s: consumed, not forwarded, pause time counted",
	       rate);
	fabric_destroy(&F);
}

static void test_pfc_rx(void)
{
	static const uint16_t qmax[FABRIC_PRIOS] = { [3] = 0xffff };
	static const uint16_t qzero[FABRIC_PRIOS] = { 0 };
	uint8_t fr[200], pfc[PFC_FRAME_LEN], a[6], b[6];
	uint64_t t_xon, at = 0;

	pfc_rx_at(1000);
	pfc_rx_at(100);

	setup(2);
	learn_pair(a, b);
	pfc_frame_build(pfc, b, 0x08, qmax);
	fabric_receive(&F, 1, pfc, sizeof(pfc));
	build_ipv4(fr, b, a, 24, sizeof(fr));
	fabric_receive(&F, 0, fr, sizeof(fr));
	fk.now += 100000;
	fabric_service(&F);
	tap_ok(fk.frames[1] == 0 && egress_queue_paused(&F.ports[1].egress.q[3],
							fk.now),
	       "pfc rx: frame held while paused");
	t_xon = fk.now;
	pfc_frame_build(pfc, b, 0x08, qzero);
	fabric_receive(&F, 1, pfc, sizeof(pfc));
	fabric_service(&F);
	for (unsigned i = 0; i < fk.nlog; i++)
		if (fk.log[i].port == 1)
			at = fk.log[i].at_ns;
	tap_ok(at == t_xon && F.ports[1].egress.q[3].st.pfc_rx_xon == 1 &&
	       egress_pause_ns(&F.ports[1].egress.q[3], fk.now) == 100000,
	       "pfc rx: XON resumes at once and closes the pause time");

	fake_clear_log();
	pause_frame_build(pfc, b, 100);
	fabric_receive(&F, 1, pfc, sizeof(pfc));
	build_ipv4(fr, b, a, 0, sizeof(fr));
	fabric_receive(&F, 0, fr, sizeof(fr));
	build_ipv4(fr, b, a, 56, sizeof(fr));
	fabric_receive(&F, 0, fr, sizeof(fr));
	fabric_service(&F);
	tap_ok(fk.frames[1] == 0 && F.ports[1].st.rx_pause_frames == 1,
	       "802.3x pause holds every priority");
	fk.now += pfc_quanta_ns(100, F.ports[1].egress.rate_mbps);
	fabric_service(&F);
	tap_ok(fk.frames[1] == 2, "802.3x pause: both frames go when it ends");

	/* a pause does not outlive the link: the next guest is not paused */
	pfc_frame_build(pfc, b, 0x08, qmax);
	fabric_receive(&F, 1, pfc, sizeof(pfc));
	fabric_set_link(&F, 1, false);
	fabric_set_link(&F, 1, true);
	fake_clear_log();
	build_ipv4(fr, b, a, 24, sizeof(fr));
	fabric_receive(&F, 0, fr, sizeof(fr));
	fabric_service(&F);
	tap_ok(fk.frames[1] == 1 &&
	       !egress_queue_paused(&F.ports[1].egress.q[3], fk.now),
	       "pfc rx: link down forgets the pause");

	put_be16(pfc + 14, 0x0002);
	fabric_receive(&F, 1, pfc, sizeof(pfc));
	fabric_receive(&F, 1, pfc, 15);
	tap_ok(F.ports[1].st.rx_mac_ctrl_other == 2 && fk.frames[0] == 0,
	       "pfc rx: other or truncated MAC control is dropped and counted");
	fabric_destroy(&F);
}

static uint16_t ip_csum(const uint8_t *ip, unsigned len)
{
	uint32_t sum = 0;

	for (unsigned i = 0; i < len; i += 2)
		sum += get_be16(ip + i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

static void fill_ip_csum(uint8_t *fr)
{
	put_be16(fr + 24, 0);
	put_be16(fr + 24, (uint16_t)~ip_csum(fr + 14, 20));
}

static unsigned red_marks(const struct red_config *c, uint64_t depth,
			  unsigned trials, struct prng *r)
{
	uint8_t fr[100], a[6], b[6];
	unsigned n = 0;

	mac_n(a, 1);
	mac_n(b, 2);
	for (unsigned i = 0; i < trials; i++) {
		build_ipv4(fr, b, a, 24, sizeof(fr));
		if (red_apply(c, depth, r, fr, sizeof(fr)) == RED_MARK)
			n++;
	}
	return n;
}

static void test_red_ecn(void)
{
	struct red_config c = { true, false, 10000, 50000, 0.2 };
	uint8_t fr[100], a[6], b[6];
	struct prng r;
	unsigned n;
	bool ok = true;

	prng_seed(&r, 42);
	mac_n(a, 1);
	mac_n(b, 2);
	tap_ok(red_marks(&c, 0, 10000, &r) == 0 &&
	       red_marks(&c, 10000, 10000, &r) == 0,
	       "red: no marks at or below Kmin");
	tap_ok(red_marks(&c, 50001, 10000, &r) == 10000,
	       "red: every ECT packet marked above Kmax");
	/* p = 0.2 * 0.5 = 0.1: 20000 trials, mean 2000, sd 42; 5 sd bound */
	n = red_marks(&c, 30000, 20000, &r);
	tap_ok(n >= 1788 && n <= 2212,
	       "red: %u of 20000 marked midway (expect 2000 = Pmax/2)", n);
	n = red_marks(&c, 20000, 20000, &r);
	tap_ok(n >= 820 && n <= 1180,
	       "red: %u of 20000 marked at a quarter (expect 1000)", n);
	{
		struct prng r1, r2;

		prng_seed(&r1, 7);
		prng_seed(&r2, 7);
		tap_ok(red_marks(&c, 30000, 1000, &r1) ==
		       red_marks(&c, 30000, 1000, &r2),
		       "red: the same seed gives the same marks");
	}

	build_ipv4(fr, b, a, 24, sizeof(fr));
	fr[15] = (uint8_t)(24 << 2 | ECN_ECT0);
	fill_ip_csum(fr);
	tap_ok(ecn_set_ce(fr, sizeof(fr)) && (fr[15] & 3) == ECN_CE &&
	       fr[15] >> 2 == 24 && ip_csum(fr + 14, 20) == 0xffff,
	       "ecn: CE on IPv4 ECT(0), DSCP kept, header checksum still valid");
	for (unsigned i = 0; i < 256 && ok; i++) {
		build_ipv4(fr, b, a, 24, sizeof(fr));
		fr[15] = (uint8_t)(i | 1);
		if ((i & 3) == 3)
			fr[15] = (uint8_t)(i & ~2u);
		fr[16] = (uint8_t)i;
		fr[17] = (uint8_t)(i * 37);
		fill_ip_csum(fr);
		ecn_set_ce(fr, sizeof(fr));
		ok = ip_csum(fr + 14, 20) == 0xffff;
	}
	tap_ok(ok, "ecn: incremental checksum right for 256 headers");
	build_ipv6(fr, b, a, 26, sizeof(fr));
	tap_ok(ecn_get(fr, sizeof(fr)) == ECN_ECT0 && ecn_set_ce(fr, sizeof(fr)) &&
	       ecn_get(fr, sizeof(fr)) == ECN_CE &&
	       classify_frame(fr, sizeof(fr), F.dscp_map).prio == 3,
	       "ecn: CE on IPv6 ECT(0), traffic class DSCP kept");
	build_ipv4(fr, b, a, 24, sizeof(fr));
	fr[15] = 24 << 2;
	tap_ok(red_apply(&c, 60000, &r, fr, sizeof(fr)) == RED_PASS &&
	       (fr[15] & 3) == 0,
	       "red: Not-ECT passes when configured to");
	c.drop_not_ect = true;
	tap_ok(red_apply(&c, 60000, &r, fr, sizeof(fr)) == RED_DROP &&
	       red_apply(&c, 5000, &r, fr, sizeof(fr)) == RED_PASS,
	       "red: Not-ECT dropped above Kmin when configured to");
	build_ipv4(fr, b, a, 24, sizeof(fr));
	fr[15] |= ECN_CE;
	tap_ok(red_apply(&c, 60000, &r, fr, sizeof(fr)) == RED_PASS,
	       "red: an already-marked packet passes unchanged");
	build_eth(fr, b, a, 0x0806, 60);
	tap_ok(ecn_get(fr, 60) == ECN_NOT_IP && !ecn_set_ce(fr, 60),
	       "ecn: non-IP frames have no codepoint");
	tap_ok(ip_hop_decrement(fr, 60) == IP_HOP_NOT_IP,
	       "ttl: a non-IP frame has no hop to count");
	ok = true;
	for (unsigned i = 2; i < 256 && ok; i++) {
		build_ipv4(fr, b, a, 24, sizeof(fr));
		fr[22] = (uint8_t)i;
		fr[23] = (uint8_t)(i * 13);
		fill_ip_csum(fr);
		ok = ip_hop_decrement(fr, sizeof(fr)) == IP_HOP_OK &&
		     fr[22] == i - 1 && fr[23] == (uint8_t)(i * 13) &&
		     ip_csum(fr + 14, 20) == 0xffff;
	}
	tap_ok(ok, "ttl: IPv4 TTL 2..255 decremented, checksum still valid");
	build_ipv4(fr, b, a, 24, sizeof(fr));
	fr[22] = 1;
	fill_ip_csum(fr);
	tap_ok(ip_hop_decrement(fr, sizeof(fr)) == IP_HOP_EXPIRED && fr[22] == 1 &&
	       ip_csum(fr + 14, 20) == 0xffff,
	       "ttl: IPv4 TTL 1 expires, the frame left as it was");
	build_ipv6(fr, b, a, 26, sizeof(fr));
	fr[21] = 2;
	tap_ok(ip_hop_decrement(fr, sizeof(fr)) == IP_HOP_OK && fr[21] == 1 &&
	       ip_hop_decrement(fr, sizeof(fr)) == IP_HOP_EXPIRED,
	       "ttl: IPv6 hop limit decremented, expires at 1");

	/* through the fabric: a standing queue on port 1, queue 3 */
	{
		static char reply[4096];
		unsigned ce = 0;

		setup(2);
		learn_pair(a, b);
		tap_ok(ctl("ecn 1 3 on kmin 0 kmax 0 pmax 1", reply,
			   sizeof(reply)) && F.ports[1].egress.q[3].red.enabled,
		       "ctl: ecn <port> <queue> on kmin kmax pmax");
		fk.blocked[1] = true;
		for (unsigned i = 0; i < 10; i++) {
			build_ipv4(fr, b, a, 24, sizeof(fr));
			fr[15] = (uint8_t)(24 << 2 | ECN_ECT0);
			fill_ip_csum(fr);
			fabric_receive(&F, 0, fr, sizeof(fr));
		}
		fk.blocked[1] = false;
		fk.now += 1000000;
		fabric_service(&F);
		for (unsigned i = 0; i < fk.nlog; i++)
			if (fk.log[i].port == 1 &&
			    (fk.log[i].data[15] & 3) == ECN_CE &&
			    ip_csum(fk.log[i].data + 14, 20) == 0xffff)
				ce++;
		tap_ok(F.ports[1].egress.q[3].st.ecn_marked == 9 && ce == 9 &&
		       fk.frames[1] == 10,
		       "ecn: the fabric marks frames meeting a standing queue (%u)",
		       ce);
		tap_ok(ctl("ecn 1 3 off", reply, sizeof(reply)) &&
		       !F.ports[1].egress.q[3].red.enabled,
		       "ctl: ecn off");
		fabric_destroy(&F);
	}
}

/*
 * A storm: guest B pauses priority 3 (1.34 ms at 25 Gb/s) every ms for
 * 50 ms while A sends it one priority-3 frame every ms; then B sends XON
 * and stops.
 */
static void storm(const char *action, unsigned *before, unsigned *during,
		  unsigned *after)
{
	static const uint16_t qmax[FABRIC_PRIOS] = { [3] = 0xffff };
	static const uint16_t qzero[FABRIC_PRIOS] = { 0 };
	uint8_t fr[200], pfc[PFC_FRAME_LEN], a[6], b[6];
	char cmd[128], reply[256];

	setup(2);
	learn_pair(a, b);
	snprintf(cmd, sizeof(cmd), "pfcwd 1 3 on detect 10 restore 20 action %s",
		 action);
	tap_ok(ctl(cmd, reply, sizeof(reply)),
	       "ctl: pfcwd on, action %s", action);
	for (unsigned ms = 0; ms < 100; ms++) {
		if (ms < 50) {
			pfc_frame_build(pfc, b, 0x08, qmax);
			fabric_receive(&F, 1, pfc, sizeof(pfc));
		} else if (ms == 50) {
			pfc_frame_build(pfc, b, 0x08, qzero);
			fabric_receive(&F, 1, pfc, sizeof(pfc));
		}
		build_ipv4(fr, b, a, 24, sizeof(fr));
		fabric_receive(&F, 0, fr, sizeof(fr));
		fk.now += 1000000;
		fabric_service(&F);
		if (ms == 8)
			*before = (unsigned)fk.frames[1];
		if (ms == 49)
			*during = (unsigned)fk.frames[1];
	}
	*after = (unsigned)fk.frames[1] - *during;
}

static void test_watchdog(void)
{
	const struct egress_queue *q;
	unsigned before, during, after;

	storm("drop", &before, &during, &after);
	q = &F.ports[1].egress.q[3];
	tap_ok(q->st.wd_storms == 1 && q->st.drop_wd_frames >= 40 &&
	       during == 0,
	       "pfcwd drop: storm detected, %llu queued and new frames dropped",
	       (unsigned long long)q->st.drop_wd_frames);
	tap_ok(q->st.wd_restores == 1 && !q->storm && after >= 25,
	       "pfcwd drop: restored after 20 ms without pauses, %u frames flow",
	       after);
	fabric_destroy(&F);

	storm("forward", &before, &during, &after);
	q = &F.ports[1].egress.q[3];
	tap_ok(q->st.wd_storms == 1 && q->st.drop_wd_frames == 0 &&
	       before == 0 && during == 50,
	       "pfcwd forward: held %u before detection, %u forwarded through the storm",
	       before, during);
	tap_ok(q->st.wd_restores == 1 && !q->storm && during + after == 100,
	       "pfcwd forward: restored, nothing lost");
	fabric_destroy(&F);

	/* a short pause with frames waiting is not a storm */
	{
		static const uint16_t q100[FABRIC_PRIOS] = { [3] = 10000 };
		uint8_t fr[200], pfc[PFC_FRAME_LEN], a[6], b[6];
		char reply[256];

		setup(2);
		learn_pair(a, b);
		ctl("pfcwd 1 all on detect 10", reply, sizeof(reply));
		pfc_frame_build(pfc, b, 0x08, q100); /* 0.2 ms at 25 Gb/s */
		fabric_receive(&F, 1, pfc, sizeof(pfc));
		build_ipv4(fr, b, a, 24, sizeof(fr));
		fabric_receive(&F, 0, fr, sizeof(fr));
		for (unsigned ms = 0; ms < 30; ms++) {
			fk.now += 1000000;
			fabric_service(&F);
		}
		tap_ok(F.ports[1].egress.q[3].st.wd_storms == 0 &&
		       fk.frames[1] == 1,
		       "pfcwd: a pause shorter than the detection time is no storm");
		fabric_destroy(&F);
	}
}

static bool has_line(const char *reply, const char *line)
{
	return strstr(reply, line) != NULL;
}

static void test_dcb_control(void)
{
	static char reply[65536];
	struct fabric_config cfg;
	uint8_t a[6], b[6], fr[200];

	setup(2);
	tap_ok(ctl("pfc all 3 on xoff 20000 xon 10000 headroom 100000 quanta 500",
		   reply, sizeof(reply)) &&
	       F.ports[0].pfc.prio[3].lossless &&
	       F.ports[1].pfc.prio[3].xoff == 20000 &&
	       F.ports[1].pfc.prio[3].xon == 10000 &&
	       F.ports[0].pfc.prio[3].headroom == 100000 &&
	       F.ports[0].pfc.prio[3].quanta == 500 &&
	       !F.ports[0].pfc.prio[2].lossless,
	       "ctl: pfc all 3 on with thresholds");
	tap_ok(!ctl("pfc 0 3 on xon 30000", reply, sizeof(reply)) &&
	       F.ports[0].pfc.prio[3].xon == 10000,
	       "ctl: pfc refuses xon >= xoff and changes nothing");
	tap_ok(!ctl("pfc 0 3 on xoff", reply, sizeof(reply)) &&
	       !ctl("pfc 0 3 on speed 1", reply, sizeof(reply)) &&
	       !ctl("pfc 0 8 on", reply, sizeof(reply)) &&
	       !ctl("pfc 0 3 on quanta 0", reply, sizeof(reply)) &&
	       !ctl("pfc 0 3 maybe", reply, sizeof(reply)),
	       "ctl: pfc refuses odd pairs, unknown keys, bad priority, quanta 0");
	tap_ok(!ctl("ecn 0 3 on", reply, sizeof(reply)) &&
	       !ctl("ecn 0 3 on kmin 5000 kmax 1000", reply, sizeof(reply)) &&
	       !ctl("ecn 0 3 on kmin 1 kmax 2 pmax 2", reply, sizeof(reply)) &&
	       !ctl("ecn 0 3 on kmin 1 kmax 2 nonect maybe", reply,
		    sizeof(reply)) &&
	       !F.ports[0].egress.q[3].red.enabled,
	       "ctl: ecn refuses missing or inverted thresholds and bad pmax");
	tap_ok(ctl("ecn all all on kmin 5000 kmax 200000 pmax 5% nonect drop",
		   reply, sizeof(reply)) &&
	       F.ports[1].egress.q[7].red.kmax == 200000 &&
	       F.ports[1].egress.q[7].red.pmax == 0.05 &&
	       F.ports[1].egress.q[7].red.drop_not_ect,
	       "ctl: ecn all all with a percentage and nonect drop");
	tap_ok(!ctl("pfcwd 0 3 on action bounce", reply, sizeof(reply)) &&
	       !ctl("pfcwd 0 3 on detect 0", reply, sizeof(reply)) &&
	       ctl("pfcwd 0 3 on", reply, sizeof(reply)) &&
	       F.ports[0].egress.q[3].wd.detect_ns == 200000000ull &&
	       F.ports[0].egress.q[3].wd.action == PFCWD_DROP &&
	       ctl("pfcwd 0 3 off", reply, sizeof(reply)) &&
	       !F.ports[0].egress.q[3].wd.detect_ns,
	       "ctl: pfcwd defaults to SONiC's 200/200 ms drop; bad values refused");
	tap_ok(ctl("qos 1", reply, sizeof(reply)) &&
	       has_line(reply, "port 1 q3_lossless 1\n") &&
	       has_line(reply, "port 1 q3_xoff 20000\n") &&
	       has_line(reply, "port 1 q7_pmax 0.05\n") &&
	       has_line(reply, "port 1 q7_nonect_drop 1\n") &&
	       has_line(reply, "port 1 q2_wd_action drop\n") &&
	       !has_line(reply, "port 0 "),
	       "ctl: qos shows the configuration");

	learn_pair(a, b);
	fk.blocked[1] = true;
	for (unsigned i = 0; i < 5; i++) {
		build_ipv4(fr, b, a, 24, sizeof(fr));
		fabric_receive(&F, 0, fr, sizeof(fr));
	}
	tap_ok(ctl("qdepth 1 3", reply, sizeof(reply)) &&
	       has_line(reply, "port 1 q3_depth_bytes 1000\n") &&
	       has_line(reply, "port 1 q3_hist_0 1\n") &&
	       has_line(reply, "port 1 q3_hist_lt_1024 4\n") &&
	       has_line(reply, "port 1 q3_sample_15 800\n") &&
	       has_line(reply, "port 1 q3_sample_11 0\n") &&
	       has_line(reply, "port 1 q3_hist_ge_524288 0\n") &&
	       !has_line(reply, "q2_"),
	       "ctl: qdepth prints the depth histogram and recent samples");
	tap_ok(ctl("stats 0", reply, sizeof(reply)) &&
	       has_line(reply, "port 0 q3_ingress_bytes 1000\n") &&
	       has_line(reply, "port 0 q3_pfc_tx_xoff 0\n") &&
	       has_line(reply, "port 0 q3_drop_lossless_frames 0\n") &&
	       has_line(reply, "port 0 q3_tx_pause_us 0\n") &&
	       has_line(reply, "port 0 q3_rx_pause_us 0\n") &&
	       has_line(reply, "port 0 q3_ecn_marked 0\n") &&
	       has_line(reply, "port 0 q3_wd_storms 0\n") &&
	       has_line(reply, "port 0 rx_pfc_frames 0\n") &&
	       has_line(reply, "port 0 tx_pfc_frames 0\n"),
	       "ctl: stats carries the lossless, ECN and watchdog counters");
	fabric_destroy(&F);

	fabric_config_default(&cfg);
	tap_ok(!cfg.lossless_prios && !cfg.ecn_queues && !cfg.pfcwd_prios,
	       "defaults: no lossless priority, no ECN, no watchdog");
	cfg.lossless_prios = 0x08;
	cfg.pfc_xon = cfg.pfc_xoff;
	{
		char err[128];

		tap_ok(fabric_init(&F, &cfg, &fake_io, err, sizeof(err)) < 0,
		       "config: xon >= xoff is refused (%s)", err);
	}
}

static void test_ets(void)
{
	static char reply[4096];
	uint8_t fr[1000], a[6], b[6];
	unsigned n1 = 0, n2 = 0, n7 = 0, first7 = 0;
	uint64_t dt;

	setup(2);
	learn_pair(a, b);
	tap_ok(ctl("ets 1 0 30 10 0 0 0 0 0", reply, sizeof(reply)) &&
	       F.ports[1].egress.weight[1] == 30 &&
	       F.ports[1].egress.weight[2] == 10 &&
	       !F.ports[1].egress.weight[7],
	       "ctl: ets sets per-queue weights (0 strict)");
	tap_ok(!ctl("ets 1 1 2 3", reply, sizeof(reply)) &&
	       !ctl("ets 1 0 0 0 0 0 0 0 101", reply, sizeof(reply)) &&
	       !ctl("ets 1 fair", reply, sizeof(reply)),
	       "ctl: ets refuses a short list, weights over 100 and bad words");
	fk.blocked[1] = true;
	for (unsigned i = 0; i < 200; i++) {
		build_ipv4(fr, b, a, 8, sizeof(fr));
		fabric_receive(&F, 0, fr, sizeof(fr));
		build_ipv4(fr, b, a, 16, sizeof(fr));
		fabric_receive(&F, 0, fr, sizeof(fr));
	}
	fk.blocked[1] = false;
	dt = wire_time_ps(sizeof(fr), F.ports[1].egress.rate_mbps) / 1000 + 1;
	while (fk.frames[1] < 160) {
		if (fk.frames[1] == 100 && !n7++) {
			build_ipv4(fr, b, a, 56, sizeof(fr));
			fabric_receive(&F, 0, fr, sizeof(fr));
			first7 = (unsigned)fk.frames[1];
		}
		fk.now += dt;
		fabric_service(&F);
	}
	n7 = 0;
	for (unsigned i = 0; i < fk.nlog && i < 160; i++) {
		unsigned dscp = fk.log[i].data[15] >> 2;

		if (dscp == 8)
			n1++;
		else if (dscp == 16)
			n2++;
		else if (dscp == 56 && i <= first7 + 1)
			n7++;
	}
	/* 30:10 of the bytes: 119.25 : 39.75 of the 159 weighted frames */
	tap_ok(n1 >= 117 && n1 <= 122 && n1 + n2 == 159,
	       "ets: weights 30:10 share the link %u:%u", n1, n2);
	tap_ok(n7 == 1, "ets: a strict-priority queue goes before weighted ones");
	{
		static const uint16_t q1[FABRIC_PRIOS] = { [1] = 0xffff };
		uint8_t pfc[PFC_FRAME_LEN];
		uint64_t before2 = F.ports[1].egress.q[2].st.tx_frames;
		uint64_t before1 = F.ports[1].egress.q[1].st.tx_frames;

		pfc_frame_build(pfc, b, 0x02, q1);
		fabric_receive(&F, 1, pfc, sizeof(pfc));
		for (unsigned i = 0; i < 20; i++) {
			fk.now += dt;
			fabric_service(&F);
		}
		tap_ok(F.ports[1].egress.q[2].st.tx_frames - before2 >= 19 &&
		       F.ports[1].egress.q[1].st.tx_frames == before1,
		       "ets: a paused weighted queue leaves the link to the others");
	}
	tap_ok(ctl("ets all strict", reply, sizeof(reply)) &&
	       !F.ports[1].egress.weight[1],
	       "ctl: ets strict restores strict priority");
	fabric_destroy(&F);
}

int main(void)
{
	test_classification();
	test_mac_learning();
	test_snooping();
	test_queue_depth();
	test_strict_priority();
	test_pacing();
	test_loss();
	test_dup_reorder();
	test_stream();
	test_link_state();
	test_pcap();
	test_control();
	random_traffic(false);
	random_traffic(true);
	test_pfc_frame_format();
	test_pfc_tshark();
	test_lossless_overload();
	test_pfc_rx();
	test_red_ecn();
	test_watchdog();
	test_dcb_control();
	test_ets();
	return tap_done();
}
