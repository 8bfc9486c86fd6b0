// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Ethernet TX engine: single and multi-descriptor packets, checksum
 * offloads judged by an independent checksum, TSO over IPv4 and IPv6,
 * VLAN insertion, counters, and the per-call packet budget.
 */
#include "eth_util.h"
#include "wrenhw_int.h"

static uint8_t pkt[70000];

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint32_t rd16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static const struct th_frame *sent(struct tenv *e, unsigned int i)
{
	return &e->d->h->tx[i];
}

static void tx_basic(void)
{
	struct tenv e;
	struct tq q;
	struct wren_eth_cqe c;
	struct fspec s = { .sport = 1, .dport = 2, .payload = 100 };
	uint32_t frag3[3] = { 14, 40, 0 };
	uint32_t one[1];
	uint32_t len;
	bool ok;

	env_init(&e);
	mk_q(&e, false, e.cq.id, 6, &q);
	len = build_frame(pkt, &s);
	one[0] = len;
	tx_packet(&e, &q, pkt, one, 1, NULL);
	q_ring(&e, &q);
	ok = e.d->h->tx_frames == 1 && sent(&e, 0)->len == len &&
	     !memcmp(sent(&e, 0)->data, pkt, len);
	tap_ok(ok, "TX: one descriptor -> the same frame on the wire");
	ok = cq_poll(&e, &e.cq, &c) && c.type == WREN_ETH_CQE_TX &&
	     c.status == 0 && c.desc_idx == 0 && c.queue == q.id &&
	     !c.flags && !c.len;
	tap_ok(ok, "TX: one completion, type TX, desc_idx 0, queue, status 0");

	frag3[2] = len - 54;
	tx_packet(&e, &q, pkt, frag3, 3, NULL);
	q_ring(&e, &q);
	ok = e.d->h->tx_frames == 2 && sent(&e, 1)->len == len &&
	     !memcmp(sent(&e, 1)->data, pkt, len);
	tap_ok(ok, "TX: three fragments gathered into one frame");
	ok = cq_poll(&e, &e.cq, &c) && c.desc_idx == 3 && !cq_poll(&e, &e.cq, &c);
	tap_ok(ok, "TX: one completion per packet, at its EOP descriptor (3)");
	tap_ok(counter(&e, WREN_COUNTERS_ETH_QUEUE, q.id,
		       WREN_ETHQ_CNT_PACKETS) == 2 &&
	       counter(&e, WREN_COUNTERS_ETH_QUEUE, q.id,
		       WREN_ETHQ_CNT_BYTES) == 2ull * len &&
	       counter(&e, WREN_COUNTERS_PORT, 0, WREN_CNT_TX_PACKETS) == 2 &&
	       counter(&e, WREN_COUNTERS_PORT, 0, WREN_CNT_TX_BYTES) ==
	       2ull * len, "TX: queue and port packet/byte counters");

	/* A paged ring across a wrap, descriptors cached across pages. */
	{
		struct tq pq;
		unsigned int i, good = 0;

		mk_q_paged(&e, false, e.cq.id, 8, &pq);	/* 2 pages */
		e.d->h->tx_frames = 0;
		for (i = 0; i < 300; i++) {
			tx_packet(&e, &pq, pkt, one, 1, NULL);
			if (i % 50 == 49) {
				q_ring(&e, &pq);
				good += cq_drain(&e, &e.cq);
			}
		}
		tap_ok(good == 300 && e.d->h->tx_frames == 300,
		       "TX: paged ring, 300 packets across wraps (%u)", good);
	}
	env_fini(&e);
}

static void tx_csum(void)
{
	struct tenv e;
	struct tq q;
	struct wren_eth_tx_desc d;
	struct fspec s = { .sport = 1000, .dport = 80, .payload = 333,
			   .saddr = { 10, 0, 0, 1 }, .daddr = { 10, 0, 0, 2 } };
	uint32_t len, frag[2];
	bool ok;

	env_init(&e);
	mk_q(&e, false, e.cq.id, 6, &q);
	len = build_frame(pkt, &s);
	/* Garbage in both checksum fields: the device must overwrite them. */
	pkt[14 + 10] = 0xde;
	pkt[14 + 11] = 0xad;
	pkt[34 + 16] = 0xbe;
	pkt[34 + 17] = 0xef;
	memset(&d, 0, sizeof(d));
	d.flags = WREN_ETH_TX_F_CSUM | WREN_ETH_TX_F_IP_CSUM;
	d.l3_offset = 14;
	d.l4_offset = 34;
	frag[0] = 60;
	frag[1] = len - 60;
	tx_packet(&e, &q, pkt, frag, 2, &d);
	q_ring(&e, &q);
	ok = e.d->h->tx_frames == 1 && ip4_csum_good(sent(&e, 0)->data + 14) &&
	     l4_csum_good(sent(&e, 0)->data, len);
	tap_ok(ok, "TX csum: TCP/IPv4 and IPv4 header checksums inserted");

	/* UDP over IPv6, with Ethernet padding after the IP packet. */
	s.ipv6 = true;
	s.udp = true;
	memset(s.saddr, 0x11, 16);
	memset(s.daddr, 0x22, 16);
	s.payload = 17;
	len = build_frame(pkt, &s);
	memset(pkt + len, 0x5a, 9);	/* padding, not summed */
	d.flags = WREN_ETH_TX_F_CSUM | WREN_ETH_TX_F_IPV6 | WREN_ETH_TX_F_UDP;
	d.l4_offset = 54;
	frag[0] = len + 9;
	tx_packet(&e, &q, pkt, frag, 1, &d);
	q_ring(&e, &q);
	ok = e.d->h->tx_frames == 2 && sent(&e, 1)->len == len + 9 &&
	     l4_csum_good(sent(&e, 1)->data, len);
	tap_ok(ok, "TX csum: UDP/IPv6 checksum over the IP length, padding kept");
	ok = cq_drain(&e, &e.cq) == 2 &&
	     counter(&e, WREN_COUNTERS_ETH_QUEUE, q.id,
		     WREN_ETHQ_CNT_CSUM_OFFLOADED) == 2;
	tap_ok(ok, "TX csum: csum_offloaded counts both packets");

	/* Bad offsets: L4 beyond the packet, IPv4 flag on an IPv6 packet. */
	d.l4_offset = 250;
	tx_packet(&e, &q, pkt, frag, 1, &d);
	d.l4_offset = 54;
	d.flags = WREN_ETH_TX_F_IP_CSUM | WREN_ETH_TX_F_IPV6;
	tx_packet(&e, &q, pkt, frag, 1, &d);
	d.flags = WREN_ETH_TX_F_CSUM;	/* says IPv4, packet is IPv6 */
	d.l4_offset = 34;
	tx_packet(&e, &q, pkt, frag, 1, &d);
	q_ring(&e, &q);
	{
		struct wren_eth_cqe c[3];

		ok = cq_poll(&e, &e.cq, &c[0]) && cq_poll(&e, &e.cq, &c[1]) &&
		     cq_poll(&e, &e.cq, &c[2]);
		ok = ok && c[0].status == WREN_WQ_SYND_BAD_WQE &&
		     c[1].status == WREN_WQ_SYND_BAD_WQE &&
		     c[2].status == WREN_WQ_SYND_BAD_WQE;
	}
	tap_ok(ok && e.d->h->tx_frames == 2 &&
	       counter(&e, WREN_COUNTERS_PORT, 0, WREN_CNT_TX_ERRORS) == 3,
	       "TX csum: bad offsets -> BAD_WQE completions, nothing sent");
	env_fini(&e);
}

static void check_tso(struct tenv *e, bool ipv6)
{
	struct tq q;
	struct wren_eth_tx_desc d;
	struct fspec s = { .sport = 5001, .dport = 40000, .payload = 10000,
			   .seq = 0xfffff000u, .ipv6 = ipv6,
			   .tcp_flags = 0x10 | 0x08 | 0x01 | 0x80 };
	uint32_t mss = 1448, hdr = ipv6 ? 74 : 54, len, frag[3];
	unsigned int nseg = (10000 + mss - 1) / mss, good = 0;
	const char *v = ipv6 ? "IPv6" : "IPv4";
	struct wren_eth_cqe c;

	memset(s.saddr, 7, 16);
	memset(s.daddr, 9, 16);
	mk_q(e, false, e->cq.id, 6, &q);
	len = build_frame(pkt, &s);
	memset(&d, 0, sizeof(d));
	d.flags = WREN_ETH_TX_F_TSO | (ipv6 ? WREN_ETH_TX_F_IPV6 : 0);
	d.mss = (uint16_t)mss;
	d.l3_offset = 14;
	d.l4_offset = (uint8_t)(hdr - 20);
	d.hdr_len = (uint8_t)hdr;
	frag[0] = hdr;
	frag[1] = 4000;
	frag[2] = len - hdr - 4000;
	e->d->h->tx_frames = 0;
	tx_packet(e, &q, pkt, frag, 3, &d);
	q_ring(e, &q);
	tap_ok(e->d->h->tx_frames == nseg, "TSO %s: %u segments (got %u)", v,
	       nseg, e->d->h->tx_frames);
	for (unsigned int i = 0; i < nseg && i < e->d->h->tx_frames; i++) {
		const uint8_t *f = sent(e, i)->data;
		uint32_t plen = i + 1 < nseg ? mss : 10000 - i * mss;
		const uint8_t *l4 = f + hdr - 20;
		uint8_t fl = l4[13];
		bool ok = sent(e, i)->len == hdr + plen;

		ok = ok && rd32(l4 + 4) == s.seq + i * mss;
		ok = ok && !memcmp(f + hdr, pkt + hdr + i * mss, plen);
		if (ipv6)
			ok = ok && rd16(f + 14 + 4) == 20 + plen;
		else
			ok = ok && rd16(f + 14 + 2) == 40 + plen &&
			     rd16(f + 14 + 4) == ((0x1234 + i) & 0xffff) &&
			     ip4_csum_good(f + 14);
		ok = ok && l4_csum_good(f, hdr + plen);
		ok = ok && ((fl & 0x80) != 0) == (i == 0);
		ok = ok && ((fl & 0x09) != 0) == (i + 1 == nseg);
		ok = ok && (fl & 0x10);
		if (ok)
			good++;
		else
			tap_diag("segment %u: len %zu seq 0x%x flags 0x%x", i,
				 sent(e, i)->len, rd32(l4 + 4), fl);
	}
	tap_ok(good == nseg,
	       "TSO %s: sizes, payload, seq (wrapping), lengths, IDs, flags, checksums",
	       v);
	tap_ok(cq_poll(e, &e->cq, &c) && c.desc_idx == 2 && !c.status &&
	       !cq_poll(e, &e->cq, &c), "TSO %s: one completion for the packet",
	       v);
	tap_ok(counter(e, WREN_COUNTERS_ETH_QUEUE, q.id,
		       WREN_ETHQ_CNT_TSO_SEGMENTS) == nseg &&
	       counter(e, WREN_COUNTERS_ETH_QUEUE, q.id,
		       WREN_ETHQ_CNT_PACKETS) == nseg,
	       "TSO %s: tso_segments and packets count the segments", v);
}

static void tx_tso(void)
{
	struct tenv e;
	struct tq q;
	struct wren_eth_tx_desc d;
	struct wren_eth_cqe c;
	struct fspec s = { .payload = 3000 };
	uint32_t len, one[1];
	bool ok = true;

	env_init(&e);
	check_tso(&e, false);
	check_tso(&e, true);

	/* Malformed TSO requests complete with BAD_WQE. */
	mk_q(&e, false, e.cq.id, 6, &q);
	len = build_frame(pkt, &s);
	one[0] = len;
	memset(&d, 0, sizeof(d));
	d.flags = WREN_ETH_TX_F_TSO;
	d.l3_offset = 14;
	d.l4_offset = 34;
	d.hdr_len = 54;
	d.mss = 0;					/* no mss */
	tx_packet(&e, &q, pkt, one, 1, &d);
	d.mss = 1000;
	d.hdr_len = 60;					/* != l4 + doff */
	tx_packet(&e, &q, pkt, one, 1, &d);
	d.hdr_len = 54;
	d.flags |= WREN_ETH_TX_F_UDP;			/* UDP TSO */
	tx_packet(&e, &q, pkt, one, 1, &d);
	d.flags = WREN_ETH_TX_F_TSO;
	d.mss = 9500;					/* segment > MTU */
	tx_packet(&e, &q, pkt, one, 1, &d);
	e.d->h->tx_frames = 0;
	q_ring(&e, &q);
	for (int i = 0; i < 4; i++)
		ok = ok && cq_poll(&e, &e.cq, &c) &&
		     c.status == WREN_WQ_SYND_BAD_WQE;
	tap_ok(ok && e.d->h->tx_frames == 0,
	       "TSO: no mss, wrong hdr_len, UDP, oversized mss -> BAD_WQE");
	env_fini(&e);
}

static void tx_vlan(void)
{
	struct tenv e;
	struct tq q;
	struct wren_eth_tx_desc d;
	struct fspec s = { .payload = 64 };
	uint32_t len, one[1];
	const uint8_t *f;
	bool ok;

	env_init(&e);
	mk_q(&e, false, e.cq.id, 6, &q);
	len = build_frame(pkt, &s);
	one[0] = len;
	memset(&d, 0, sizeof(d));
	d.flags = WREN_ETH_TX_F_VLAN;
	d.vlan_tci = (5 << 13) | 100;
	tx_packet(&e, &q, pkt, one, 1, &d);
	q_ring(&e, &q);
	f = sent(&e, 0)->data;
	ok = e.d->h->tx_frames == 1 && sent(&e, 0)->len == len + 4 &&
	     !memcmp(f, pkt, 12) && rd16(f + 12) == 0x8100 &&
	     rd16(f + 14) == ((5u << 13) | 100) &&
	     !memcmp(f + 16, pkt + 12, len - 12);
	tap_ok(ok, "TX VLAN: 802.1Q tag with PCP 5, VID 100 inserted");
	tap_ok(counter(&e, WREN_COUNTERS_PRIO, 0,
		       5 * WREN_NUM_PRIO_COUNTERS +
		       WREN_PRIO_CNT_TX_PRIO_PACKETS) == 1,
	       "TX VLAN: counted under priority 5");

	/* TSO with VLAN: every segment tagged. */
	{
		struct fspec t = { .payload = 4000, .saddr = { 1, 2, 3, 4 } };

		len = build_frame(pkt, &t);
		one[0] = len;
		d.flags = WREN_ETH_TX_F_VLAN | WREN_ETH_TX_F_TSO;
		d.mss = 1000;
		d.l3_offset = 14;
		d.l4_offset = 34;
		d.hdr_len = 54;
		e.d->h->tx_frames = 0;
		tx_packet(&e, &q, pkt, one, 1, &d);
		q_ring(&e, &q);
		ok = e.d->h->tx_frames == 4;
		for (unsigned int i = 0; ok && i < 4; i++) {
			uint8_t un[1100];

			f = sent(&e, i)->data;
			ok = rd16(f + 12) == 0x8100 && sent(&e, i)->len == 1058;
			memcpy(un, f, 12);
			memcpy(un + 12, f + 16, 1054 - 12);
			ok = ok && ip4_csum_good(un + 14) &&
			     l4_csum_good(un, 1054);
		}
		tap_ok(ok, "TX VLAN + TSO: four tagged segments, checksums good");
	}
	env_fini(&e);
}

static uint64_t tx_prio_packets(struct tenv *e, unsigned int prio)
{
	return counter(e, WREN_COUNTERS_PRIO, 0,
		       prio * WREN_NUM_PRIO_COUNTERS +
		       WREN_PRIO_CNT_TX_PRIO_PACKETS);
}

/* One packet with @d as first descriptor: sent (1), or refused (0). */
static unsigned int tx_one_prio(struct tenv *e, struct tq *q,
				const struct wren_eth_tx_desc *d, uint32_t len)
{
	uint32_t one[1] = { len };
	uint32_t before = e->d->h->tx_frames;
	struct wren_eth_cqe c;

	tx_packet(e, q, pkt, one, 1, d);
	q_ring(e, q);
	if (!cq_poll(e, &e->cq, &c))
		return 2;
	return c.status ? 0 : e->d->h->tx_frames - before;
}

static void tx_prio(void)
{
	struct fspec s = { .payload = 64, .saddr = { 1, 2, 3, 4 } };
	struct wren_eth_tx_desc d;
	struct wren_trust t;
	struct tenv e;
	struct tq q;
	uint32_t len;

	env_init(&e);
	whw_test_set_caps(e.d->h->hw, WHW_CAPS & ~(uint64_t)WHW_CAPS_DCB);
	mk_q(&e, false, e.cq.id, 6, &q);
	len = build_frame(pkt, &s);
	memset(&d, 0, sizeof(d));
	d.flags = WREN_ETH_TX_F_PRIO;
	d.prio = 5;
	tap_ok(tx_one_prio(&e, &q, &d, len) == 0,
	       "TX prio: WREN_ETH_TX_F_PRIO without DCB_ETS -> BAD_WQE");
	env_fini(&e);

	env_init(&e);
	mk_q(&e, false, e.cq.id, 6, &q);
	d.prio = 8;
	tap_ok(tx_one_prio(&e, &q, &d, len) == 0, "TX prio: prio 8 -> BAD_WQE");
	d.flags = 0;
	d.prio = 5;
	tap_ok(tx_one_prio(&e, &q, &d, len) == 0,
	       "TX prio: prio without its flag -> BAD_WQE");
	d.flags = WREN_ETH_TX_F_PRIO;
	tap_ok(tx_one_prio(&e, &q, &d, len) == 1 && tx_prio_packets(&e, 5) == 1 &&
	       !tx_prio_packets(&e, 0),
	       "TX prio: F_PRIO 5 is scheduled and counted on priority 5");
	tap_ok(e.d->h->tx_frames && !memcmp(sent(&e, 0)->data, pkt, len),
	       "TX prio: the frame leaves untagged and unchanged");
	d.flags = WREN_ETH_TX_F_PRIO | WREN_ETH_TX_F_VLAN;
	d.vlan_tci = (2 << 13) | 7;
	tap_ok(tx_one_prio(&e, &q, &d, len) == 1 && tx_prio_packets(&e, 2) == 1,
	       "TX prio: a tag's PCP 2 wins over F_PRIO 5");

	memset(&t, 0, sizeof(t));
	t.trust = WREN_TRUST_DSCP;
	t.dscp2prio[26] = 3;
	expect(td_cmd(e.d, WREN_AQ_OP_SET_TRUST, NULL, 0, &t, sizeof(t), NULL,
		      0), WREN_AQ_STATUS_OK, 0, "TX prio: SET_TRUST DSCP 26 -> 3");
	pkt[15] = 26 << 2;
	d.flags = WREN_ETH_TX_F_PRIO;
	tap_ok(tx_one_prio(&e, &q, &d, len) == 1 && tx_prio_packets(&e, 3) == 1 &&
	       tx_prio_packets(&e, 5) == 1,
	       "TX prio: DSCP trust puts an IPv4 packet with DSCP 26 on 3");
	pkt[12] = 0x88;
	pkt[13] = 0xb5;
	tap_ok(tx_one_prio(&e, &q, &d, len) == 1 && tx_prio_packets(&e, 5) == 2,
	       "TX prio: a non-IP packet keeps F_PRIO under DSCP trust");
	env_fini(&e);
}

static void tx_budget(void)
{
	struct tenv e;
	struct tq a, b;
	struct fspec s = { .payload = 10 };
	uint32_t one[1];

	env_init(&e);
	mk_q(&e, false, e.cq.id, 8, &a);
	mk_q(&e, false, e.cq.id, 8, &b);
	one[0] = build_frame(pkt, &s);
	for (int i = 0; i < 100; i++)
		tx_packet(&e, &a, pkt, one, 1, NULL);
	tx_packet(&e, &b, pkt, one, 1, NULL);
	th_db_write(e.d->h, 0, WREN_DB_ETH_TX, WREN_DB_VAL(a.id, 0, a.pi));
	th_db_write(e.d->h, 0, WREN_DB_ETH_TX, WREN_DB_VAL(b.id, 0, b.pi));
	tap_ok(e.d->h->scheduled && e.d->h->tx_frames == 0,
	       "TX doorbell only schedules (nothing sent inside the MMIO write)");
	e.d->h->scheduled = false;
	wrenhw_process(e.d->h->hw);
	tap_ok(e.d->h->tx_frames == 65 && e.d->h->scheduled,
	       "TX budget: 64 packets of the busy queue + the other queue's, "
	       "then reschedule (%u)", e.d->h->tx_frames);
	th_run(e.d->h);
	tap_ok(e.d->h->tx_frames == 101 && cq_drain(&e, &e.cq) == 101,
	       "TX budget: the rest goes on the next call");
	env_fini(&e);
}

void test_eth_tx(void)
{
	tx_basic();
	tx_csum();
	tx_tso();
	tx_vlan();
	tx_prio();
	tx_budget();
}
