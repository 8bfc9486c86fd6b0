// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Ethernet RX engine: Toeplitz hash against Microsoft's RSS test vectors,
 * RSS spreading over RX queues, checksum verdicts, VLAN strip, multi-
 * buffer jumbo frames, MAC filtering, MTU, no-buffer drops that do not
 * stall other queues.
 */
#include "eth_util.h"
#include "wrenhw_int.h"

static uint8_t frm[10000];

static const uint8_t ms_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
	0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
	0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
	0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

/* Microsoft "Verifying the RSS Hash Calculation", IPv4 table. */
static const struct ms_vec {
	uint8_t src[4], dst[4];
	uint16_t sport, dport;
	uint32_t ip, tcp;
} ms4[] = {
	{ { 66, 9, 149, 187 }, { 161, 142, 100, 80 }, 2794, 1766,
	  0x323e8fc2, 0x51ccc178 },
	{ { 199, 92, 111, 2 }, { 65, 69, 140, 83 }, 14230, 4739,
	  0xd718262a, 0xc626b0ea },
	{ { 24, 19, 198, 95 }, { 12, 22, 207, 184 }, 12898, 38024,
	  0xd2d0a5de, 0x5c2b394a },
	{ { 38, 27, 205, 30 }, { 209, 142, 163, 6 }, 48228, 2217,
	  0x82989176, 0xafc7327f },
	{ { 153, 39, 163, 191 }, { 202, 188, 127, 2 }, 44251, 1303,
	  0x5d1809c5, 0x10e828a2 },
};

/* The same page's first IPv6 row. */
static const uint8_t ms6_src[16] = { 0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00,
				     0x1f, 0xff, 0, 0, 0, 0, 0, 0, 0, 7 };
static const uint8_t ms6_dst[16] = { 0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00,
				     0x00, 0x03, 0, 0, 0, 0, 0, 0, 0, 1 };
#define MS6_IP	0x2cc18cd5u
#define MS6_TCP	0x40207d3du

static void toeplitz_vectors(void)
{
	unsigned int good = 0;
	uint8_t in[36];

	for (size_t i = 0; i < sizeof(ms4) / sizeof(ms4[0]); i++) {
		memcpy(in, ms4[i].src, 4);
		memcpy(in + 4, ms4[i].dst, 4);
		in[8] = (uint8_t)(ms4[i].sport >> 8);
		in[9] = (uint8_t)ms4[i].sport;
		in[10] = (uint8_t)(ms4[i].dport >> 8);
		in[11] = (uint8_t)ms4[i].dport;
		if (whw_toeplitz(ms_key, in, 8) == ms4[i].ip &&
		    whw_toeplitz(ms_key, in, 12) == ms4[i].tcp)
			good++;
	}
	tap_ok(good == 5, "Toeplitz: Microsoft IPv4 and TCP/IPv4 vectors (%u/5)",
	       good);
	memcpy(in, ms6_src, 16);
	memcpy(in + 16, ms6_dst, 16);
	in[32] = 2794 >> 8;
	in[33] = 2794 & 0xff;
	in[34] = 1766 >> 8;
	in[35] = 1766 & 0xff;
	tap_ok(whw_toeplitz(ms_key, in, 32) == MS6_IP &&
	       whw_toeplitz(ms_key, in, 36) == MS6_TCP,
	       "Toeplitz: Microsoft IPv6 and TCP/IPv6 vectors");
}

static void set_rss(struct tenv *e, uint8_t types, const struct tq *q,
		    unsigned int nq)
{
	static struct wren_set_rss_in in;

	memset(&in, 0, sizeof(in));
	memcpy(in.key, ms_key, 40);
	in.table_size = 128;
	in.hash_types = types;
	for (unsigned int i = 0; i < 128; i++)
		in.table[i] = q[i % nq].id;
	td_cmd(e->d, WREN_AQ_OP_SET_RSS, NULL, 0, &in, sizeof(in), NULL, 0);
}

static bool rx(struct tenv *e, uint32_t len)
{
	return wrenhw_rx_frame(e->d->h->hw, frm, len);
}

static void rx_rss(void)
{
	struct tenv e;
	struct tq q[4];
	struct wren_eth_cqe c;
	unsigned int good = 0;
	bool ok;

	env_init(&e);
	for (int i = 0; i < 4; i++) {
		mk_q(&e, true, e.cq.id, 6, &q[i]);
		rx_post_n(&e, &q[i], 16, 2048);
	}
	/* Before SET_RSS: the lowest-numbered RX queue. */
	{
		struct fspec s = { .payload = 20 };

		ok = rx(&e, build_frame(frm, &s)) && cq_poll(&e, &e.cq, &c) &&
		     c.queue == q[0].id && c.type == WREN_ETH_CQE_RX &&
		     !(c.flags & WREN_ETH_RX_F_RSS);
		tap_ok(ok, "RX: before SET_RSS every frame goes to RX queue 0");
	}
	set_rss(&e, WREN_RSS_HASH_TCP_IPV4 | WREN_RSS_HASH_IPV4 |
		WREN_RSS_HASH_TCP_IPV6, q, 4);
	for (size_t i = 0; i < 5; i++) {
		struct fspec s = { .sport = ms4[i].sport,
				   .dport = ms4[i].dport, .payload = 10 };
		uint32_t len;

		memcpy(s.saddr, ms4[i].src, 4);
		memcpy(s.daddr, ms4[i].dst, 4);
		len = build_frame(frm, &s);
		fill_csums(frm, len);
		if (rx(&e, len) && cq_poll(&e, &e.cq, &c) &&
		    c.rss_hash == ms4[i].tcp &&
		    (c.flags & WREN_ETH_RX_F_RSS) &&
		    c.queue == q[(ms4[i].tcp & 127) % 4].id)
			good++;
	}
	tap_ok(good == 5, "RSS: TCP/IPv4 4-tuple hashes and queues (%u/5)",
	       good);
	{
		struct fspec s = { .ipv6 = true, .sport = 2794, .dport = 1766,
				   .payload = 5 };
		uint32_t len;

		memcpy(s.saddr, ms6_src, 16);
		memcpy(s.daddr, ms6_dst, 16);
		len = build_frame(frm, &s);
		fill_csums(frm, len);
		ok = rx(&e, len) && cq_poll(&e, &e.cq, &c) &&
		     c.rss_hash == MS6_TCP &&
		     c.queue == q[(MS6_TCP & 127) % 4].id;
		tap_ok(ok, "RSS: TCP/IPv6 4-tuple hash 0x%x", c.rss_hash);
		/* UDP/IPv6 not selected, nor IPv6: table[0], no hash. */
		s.udp = true;
		len = build_frame(frm, &s);
		fill_csums(frm, len);
		ok = rx(&e, len) && cq_poll(&e, &e.cq, &c) &&
		     !(c.flags & WREN_ETH_RX_F_RSS) && c.queue == q[0].id;
		tap_ok(ok, "RSS: a type not selected goes to table[0] unhashed");
	}
	{
		/* UDP/IPv4 with only IPV4 selected for it: 2-tuple hash. */
		struct fspec s = { .udp = true, .sport = 2794, .dport = 1766,
				   .payload = 5 };
		uint32_t len;

		memcpy(s.saddr, ms4[0].src, 4);
		memcpy(s.daddr, ms4[0].dst, 4);
		len = build_frame(frm, &s);
		fill_csums(frm, len);
		ok = rx(&e, len) && cq_poll(&e, &e.cq, &c) &&
		     c.rss_hash == ms4[0].ip &&
		     c.queue == q[(ms4[0].ip & 127) % 4].id;
		tap_ok(ok, "RSS: UDP/IPv4 without UDP hashing uses the IPv4 "
		       "2-tuple (0x%x)", c.rss_hash);
	}
	{
		/* table_size 0: RSS off, and the queues can be destroyed. */
		static struct wren_set_rss_in off;
		struct fspec s = { .sport = 9, .dport = 9, .payload = 5 };
		struct td_res r;

		memset(&off, 0, sizeof(off));
		r = td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_ETH_RXQ, q[0].id,
				  NULL, 0);
		ok = r.status == WREN_AQ_STATUS_BUSY;
		td_cmd(e.d, WREN_AQ_OP_SET_RSS, NULL, 0, &off, sizeof(off),
		       NULL, 0);
		r = td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_ETH_RXQ, q[0].id,
				  NULL, 0);
		ok = ok && r.status == 0 && rx(&e, build_frame(frm, &s)) &&
		     cq_poll(&e, &e.cq, &c) && c.queue == q[1].id &&
		     !(c.flags & WREN_ETH_RX_F_RSS);
		tap_ok(ok, "RSS off (table_size 0): queues destroyable, frames "
		       "to the lowest-numbered queue left");
	}
	env_fini(&e);
}

static void rx_csum_vlan(void)
{
	struct tenv e;
	struct tq q;
	struct wren_eth_cqe c;
	struct fspec s = { .payload = 200, .saddr = { 10, 1, 1, 1 },
			   .daddr = { 10, 1, 1, 2 } };
	uint8_t data[2048];
	uint64_t buf;
	uint32_t len;
	uint16_t want;
	bool ok;

	env_init(&e);
	mk_q(&e, true, e.cq.id, 6, &q);
	buf = rx_post_n(&e, &q, 8, 2048);
	len = build_frame(frm, &s);
	fill_csums(frm, len);
	want = WREN_ETH_RX_F_EOP | WREN_ETH_RX_F_IPV4 | WREN_ETH_RX_F_TCP |
	       WREN_ETH_RX_F_L3_CSUM_OK | WREN_ETH_RX_F_L4_CSUM_OK;
	ok = rx(&e, len) && cq_poll(&e, &e.cq, &c) && c.flags == want &&
	     c.len == len && c.desc_idx == 0 && !c.status;
	th_mem_read(e.d->h, buf, data, len);
	tap_ok(ok && !memcmp(data, frm, len),
	       "RX: TCP/IPv4 frame written, L3+L4 checksum OK, types, EOP");
	frm[len - 1] ^= 0xff;
	ok = rx(&e, len) && cq_poll(&e, &e.cq, &c) &&
	     (c.flags & WREN_ETH_RX_F_CSUM_BAD) &&
	     !(c.flags & WREN_ETH_RX_F_L4_CSUM_OK) &&
	     counter(&e, WREN_COUNTERS_PORT, 0, WREN_CNT_RX_CSUM_BAD) == 1;
	tap_ok(ok, "RX: corrupted payload -> CSUM_BAD, rx_csum_bad counted");
	s.ipv6 = true;
	s.udp = true;
	len = build_frame(frm, &s);
	fill_csums(frm, len);
	want = WREN_ETH_RX_F_EOP | WREN_ETH_RX_F_IPV6 | WREN_ETH_RX_F_UDP |
	       WREN_ETH_RX_F_L4_CSUM_OK;
	ok = rx(&e, len) && cq_poll(&e, &e.cq, &c) && c.flags == want;
	tap_ok(ok, "RX: UDP/IPv6 checksum OK (flags 0x%x)", c.flags);

	/* VLAN-tagged: stripped, tag reported. */
	s.ipv6 = false;
	s.udp = false;
	len = build_frame(frm, &s);
	fill_csums(frm, len);
	{
		static uint8_t tagged[2048];

		memcpy(tagged, frm, 12);
		tagged[12] = 0x81;
		tagged[13] = 0x00;
		tagged[14] = (3 << 5) | 0x0;
		tagged[15] = 42;
		memcpy(tagged + 16, frm + 12, len - 12);
		ok = wrenhw_rx_frame(e.d->h->hw, tagged, len + 4) &&
		     cq_poll(&e, &e.cq, &c) &&
		     (c.flags & WREN_ETH_RX_F_VLAN) &&
		     c.vlan_tci == ((3u << 13) | 42) && c.len == len &&
		     (c.flags & WREN_ETH_RX_F_L4_CSUM_OK);
		th_mem_read(e.d->h, buf + 3 * 2048, data, len);
		tap_ok(ok && !memcmp(data, frm, len),
		       "RX VLAN: tag stripped into vlan_tci (PCP 3, VID 42)");
	}
	tap_ok(counter(&e, WREN_COUNTERS_ETH_QUEUE, q.id | WREN_COUNTERS_RXQ,
		       WREN_ETHQ_CNT_PACKETS) == 4,
	       "RX: queue packet counter");
	env_fini(&e);
}

static void rx_jumbo(void)
{
	struct tenv e;
	struct tq q;
	struct wren_eth_cqe c;
	struct fspec s = { .payload = 9000 - 40 };
	static uint8_t back[5 * 2048];
	unsigned int n = 0, eop = 0;
	uint32_t len, got = 0;
	uint64_t buf;
	bool ok = true;

	env_init(&e);
	mk_q(&e, true, e.cq.id, 6, &q);
	buf = rx_post_n(&e, &q, 8, 2048);
	len = build_frame(frm, &s);	/* 9014 bytes */
	fill_csums(frm, len);
	tap_ok(!rx(&e, len) &&
	       counter(&e, WREN_COUNTERS_PORT, 0, WREN_CNT_RX_ERRORS_LENGTH) == 1,
	       "RX: 9014-byte frame with MTU 1500 -> rx_errors_length");
	tap_ok(set_port(&e, WREN_SET_PORT_MTU, 9000, 0, NULL) == 0,
	       "SET_PORT MTU 9000");
	ok = rx(&e, len);
	while (cq_poll(&e, &e.cq, &c)) {
		ok = ok && c.desc_idx == n && c.queue == q.id;
		ok = ok && c.len == (n < 4 ? 2048 : len - 4 * 2048);
		if (c.flags & WREN_ETH_RX_F_EOP)
			eop++;
		ok = ok && ((c.flags & WREN_ETH_RX_F_EOP) != 0) == (n == 4);
		got += c.len;
		n++;
	}
	th_mem_read(e.d->h, buf, back, 5 * 2048);
	tap_ok(ok && n == 5 && eop == 1 && got == len &&
	       !memcmp(back, frm, len),
	       "RX: 9014-byte frame over five 2 KiB buffers, EOP on the last");
	env_fini(&e);
}

static void rx_filter(void)
{
	struct tenv e;
	struct tq q;
	static struct wren_set_rx_mode_in m;
	static const uint8_t other[6] = { 0x02, 1, 2, 3, 4, 5 };
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t mcast[6] = { 0x01, 0x00, 0x5e, 0, 0, 1 };
	static const uint8_t mcast2[6] = { 0x33, 0x33, 0, 0, 0, 1 };
	static const uint8_t newmac[6] = { 0x02, 9, 9, 9, 9, 9 };
	struct fspec s = { .payload = 10 };
	uint32_t len;
	bool ok;

	env_init(&e);
	mk_q(&e, true, e.cq.id, 8, &q);
	rx_post_n(&e, &q, 64, 2048);
#define SEND(mac) (s.dst = (mac), len = build_frame(frm, &s), rx(&e, len))
	ok = SEND(NULL) && SEND(bcast) && !SEND(other) && !SEND(mcast);
	tap_ok(ok && counter(&e, WREN_COUNTERS_PORT, 0,
			     WREN_CNT_RX_DROPPED_FILTER) == 2,
	       "RX filter: own MAC and broadcast pass; other unicast and "
	       "unlisted multicast -> rx_dropped_filter");
	tap_ok(counter(&e, WREN_COUNTERS_PORT, 0, WREN_CNT_RX_BROADCAST) == 1 &&
	       counter(&e, WREN_COUNTERS_PORT, 0, WREN_CNT_RX_MULTICAST) == 1,
	       "RX: broadcast and multicast counters");
	memset(&m, 0, sizeof(m));
	m.num_macs = 2;
	memcpy(m.macs[0], mcast, 6);
	memcpy(m.macs[1], other, 6);
	td_cmd(e.d, WREN_AQ_OP_SET_RX_MODE, NULL, 0, &m, sizeof(m), NULL, 0);
	ok = SEND(mcast) && SEND(other) && !SEND(mcast2);
	tap_ok(ok, "RX filter: listed multicast and unicast pass, others not");
	m.flags = WREN_RX_MODE_ALLMULTI;
	m.num_macs = 0;
	memset(m.macs, 0, sizeof(m.macs));
	td_cmd(e.d, WREN_AQ_OP_SET_RX_MODE, NULL, 0, &m, sizeof(m), NULL, 0);
	ok = SEND(mcast2) && !SEND(other);
	tap_ok(ok, "RX filter: ALLMULTI passes any multicast, not unicast");
	m.flags = WREN_RX_MODE_PROMISC;
	td_cmd(e.d, WREN_AQ_OP_SET_RX_MODE, NULL, 0, &m, sizeof(m), NULL, 0);
	tap_ok(SEND(other), "RX filter: PROMISC passes other unicast");
	m.flags = 0;
	td_cmd(e.d, WREN_AQ_OP_SET_RX_MODE, NULL, 0, &m, sizeof(m), NULL, 0);
	set_port(&e, WREN_SET_PORT_MAC, 0, 0, newmac);
	ok = SEND(newmac) && !SEND(NULL);
	tap_ok(ok, "RX filter: follows the MAC set with SET_PORT");
#undef SEND
	env_fini(&e);
}

static void rx_no_buffer(void)
{
	struct tenv e;
	struct tq q[2];
	struct wren_eth_cqe c;
	unsigned int to[2] = { 0, 0 }, delivered = 0, dropped = 0;
	bool ok;

	env_init(&e);
	mk_q(&e, true, e.cq.id, 6, &q[0]);
	mk_q(&e, true, e.cq.id, 6, &q[1]);
	rx_post_n(&e, &q[1], 32, 2048);	/* queue 0 has none */
	set_rss(&e, WREN_RSS_HASH_TCP_IPV4, q, 2);
	for (uint16_t port = 1; port <= 40; port++) {
		struct fspec s = { .sport = port, .dport = 80, .payload = 10,
				   .saddr = { 10, 0, 0, 1 },
				   .daddr = { 10, 0, 0, 2 } };
		uint32_t len = build_frame(frm, &s);
		uint8_t in[12] = { 10, 0, 0, 1, 10, 0, 0, 2,
				   (uint8_t)(port >> 8), (uint8_t)port, 0, 80 };
		unsigned int which = (whw_toeplitz(ms_key, in, 12) & 127) % 2;

		to[which]++;
		if (rx(&e, len))
			delivered++;
		else
			dropped++;
	}
	ok = to[0] && to[1] && delivered == to[1] && dropped == to[0];
	if (!ok)
		tap_diag("to %u/%u, filter %llu nobuf %llu", to[0], to[1],
			 (unsigned long long)counter(&e, WREN_COUNTERS_PORT, 0,
				WREN_CNT_RX_DROPPED_FILTER),
			 (unsigned long long)counter(&e, WREN_COUNTERS_PORT, 0,
				WREN_CNT_RX_DROPPED_NO_BUFFER));
	tap_ok(ok, "RX: frames for the empty queue dropped (%u), the other "
	       "queue's delivered (%u)", dropped, delivered);
	ok = counter(&e, WREN_COUNTERS_PORT, 0,
		     WREN_CNT_RX_DROPPED_NO_BUFFER) == to[0] &&
	     counter(&e, WREN_COUNTERS_ETH_QUEUE, q[0].id | WREN_COUNTERS_RXQ,
		     WREN_ETHQ_CNT_DROPPED) == to[0] &&
	     counter(&e, WREN_COUNTERS_ETH_QUEUE, q[1].id | WREN_COUNTERS_RXQ,
		     WREN_ETHQ_CNT_PACKETS) == to[1];
	tap_ok(ok, "RX: rx_dropped_no_buffer counted on the port and queue");
	/* Buffers posted later: the starved queue works again. */
	rx_post_n(&e, &q[0], 4, 2048);
	{
		unsigned int n = cq_drain(&e, &e.cq);
		struct fspec s = { .sport = 1, .dport = 80, .payload = 10,
				   .saddr = { 10, 0, 0, 1 },
				   .daddr = { 10, 0, 0, 2 } };
		unsigned int k;

		for (k = 1; k < 40; k++) {
			uint8_t in[12] = { 10, 0, 0, 1, 10, 0, 0, 2, 0,
					   (uint8_t)k, 0, 80 };

			if (!((whw_toeplitz(ms_key, in, 12) & 127) % 2))
				break;
		}
		s.sport = (uint16_t)k;
		ok = n == to[1] && rx(&e, build_frame(frm, &s)) &&
		     cq_poll(&e, &e.cq, &c) && c.queue == q[0].id;
	}
	tap_ok(ok, "RX: the starved queue receives once buffers are posted");
	/* A frame needing more buffers than are posted is dropped whole. */
	{
		struct fspec s = { .payload = 3000 };
		struct tq one;

		set_port(&e, WREN_SET_PORT_MTU, 9000, 0, NULL);
		mk_q(&e, true, e.cq.id, 6, &one);
		set_rss(&e, 0, &one, 1);
		rx_post_n(&e, &one, 1, 2048);
		ok = !rx(&e, build_frame(frm, &s)) && !cq_poll(&e, &e.cq, &c);
		rx_post_n(&e, &one, 1, 2048);
		ok = ok && rx(&e, build_frame(frm, &s)) &&
		     cq_drain(&e, &e.cq) == 2;
		tap_ok(ok, "RX: a frame is never partly delivered");
	}
	env_fini(&e);
}

void test_eth_rx(void)
{
	toeplitz_vectors();
	rx_rss();
	rx_csum_vlan();
	rx_jumbo();
	rx_filter();
	rx_no_buffer();
}
