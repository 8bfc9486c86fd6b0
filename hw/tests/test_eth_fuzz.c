// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Ethernet fuzzing: a device with live TX/RX queues, RSS and moderated
 * CQs takes random descriptors (plausible and garbage: flags, offsets,
 * lengths, addresses), doorbells (some beyond the ring), RX buffers, frames
 * (random bytes and mutated IPv4/IPv6 TCP/UDP, tagged or not, truncated),
 * DMA faults, link flaps, moderation changes and queue re-creation, with
 * time passing.  Afterwards a fresh queue pair must still move a packet.
 * Seeded (WRENHW_FUZZ_SEED, WRENHW_FUZZ_N as test_fuzz.c).
 */
#include <stdlib.h>

#include "eth_util.h"
#include "wrenhw_int.h"

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint32_t pct(void)
{
	return (uint32_t)(rnd() % 100);
}

/*
 * A bus address no buffer lives at: beyond the test bus (faults) or in
 * the low pages nothing allocates.  Never anywhere in the heap, where a
 * stray DMA would corrupt the rings of the final check, and never new
 * pages without bound (the test memory is capped).
 */
static uint64_t wild(void)
{
	return pct() < 50 ? TH_BUS_LIMIT + (rnd() & 0xffffff)
			  : 0x1000 + rnd() % 0x3000;
}

struct fz {
	struct tenv e;
	struct tq tx[2], rx[2];
	uint64_t bufs;		/* 64 KiB of packet memory */
	uint8_t f[9100];
};

static void fz_queues(struct fz *z)
{
	static struct wren_set_rss_in rss;

	for (int i = 0; i < 2; i++) {
		mk_q(&z->e, false, z->e.cq.id, 5, &z->tx[i]);
		mk_q(&z->e, true, z->e.cq.id, 5, &z->rx[i]);
	}
	memset(&rss, 0, sizeof(rss));
	for (int i = 0; i < 40; i++)
		rss.key[i] = (uint8_t)rnd();
	rss.table_size = 8;
	rss.hash_types = (uint8_t)(rnd() & 0x3f);
	for (int i = 0; i < 8; i++)
		rss.table[i] = z->rx[i & 1].id;
	td_cmd(z->e.d, WREN_AQ_OP_SET_RSS, NULL, 0, &rss, sizeof(rss), NULL,
	       0);
}

static void fz_tx(struct fz *z)
{
	struct tq *q = &z->tx[rnd() & 1];
	unsigned int n = pct() < 50 ? 1 : 1 + (unsigned int)(rnd() % 6);

	for (unsigned int i = 0; i < n; i++) {
		struct wren_eth_tx_desc d;

		memset(&d, 0, sizeof(d));
		if (pct() < 60) {
			/* One whole frame of the packet memory. */
			d.addr = z->bufs + (rnd() % 16) * 4096;
			d.len = (uint16_t)(pct() < 80 ? 4000 : 54 + rnd() % 3000);
		} else {
			d.addr = pct() < 90 ? z->bufs + rnd() % 60000 : wild();
			d.len = (uint16_t)(pct() < 80 ? 1 + rnd() % 3000
						      : rnd());
		}
		d.flags = (uint16_t)(pct() < 40 ? 0 : pct() < 90 ?
				     rnd() & 0x7e : rnd());
		if (i + 1 == n && pct() < 90)
			d.flags |= WREN_ETH_TX_F_EOP;
		else if (i + 1 < n)
			d.flags &= (uint16_t)~WREN_ETH_TX_F_EOP;
		d.mss = (uint16_t)(pct() < 80 ? 500 + rnd() % 1500 : rnd());
		d.vlan_tci = (uint16_t)rnd();
		d.l3_offset = (uint8_t)(pct() < 70 ? 14 : rnd());
		d.l4_offset = (uint8_t)(pct() < 70 ? 34 + (rnd() & 1) * 20
				       : rnd());
		d.hdr_len = (uint8_t)(d.l4_offset + 20);
		if (pct() < 3)
			d.rsvd1 = 1;
		tx_desc(&z->e, q, &d);
	}
	if (pct() < 5)
		q->pi += (uint32_t)(rnd() % 64);	/* beyond the ring */
	q_ring(&z->e, q);
}

static void fz_rx_buffers(struct fz *z)
{
	struct tq *q = &z->rx[rnd() & 1];
	unsigned int n = 1 + (unsigned int)(rnd() % 8);

	for (unsigned int i = 0; i < n; i++)
		rx_post(&z->e, q, pct() < 95 ? z->bufs + rnd() % 60000 : wild(),
			(uint16_t)(pct() < 95 ? 64 + rnd() % 4000 : rnd() % 3));
	q_ring(&z->e, q);
}

static void fz_frame(struct fz *z)
{
	struct fspec s;
	uint32_t len;

	memset(&s, 0, sizeof(s));
	s.ipv6 = rnd() & 1;
	s.udp = rnd() & 1;
	s.sport = (uint16_t)rnd();
	s.dport = (uint16_t)rnd();
	s.payload = (uint32_t)(rnd() % 3000);
	s.seed = (uint8_t)rnd();
	for (int i = 0; i < 16; i++) {
		s.saddr[i] = (uint8_t)rnd();
		s.daddr[i] = (uint8_t)rnd();
	}
	if (pct() < 10) {
		static const uint8_t bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff,
					       0xff };

		s.dst = bc;
	}
	len = build_frame(z->f, &s);
	if (pct() < 60)
		fill_csums(z->f, len);
	if (pct() < 20) {
		/* Tag it. */
		memmove(z->f + 16, z->f + 12, len - 12);
		z->f[12] = 0x81;
		z->f[13] = 0;
		z->f[14] = (uint8_t)rnd();
		z->f[15] = (uint8_t)rnd();
		len += 4;
	}
	for (unsigned int i = 0, m = (unsigned int)(rnd() % 4); i < m; i++)
		z->f[rnd() % len] = (uint8_t)rnd();
	if (pct() < 20)
		len = (uint32_t)(rnd() % (len + 1));
	if (pct() < 10)
		for (uint32_t i = 0; i < len; i++)
			z->f[i] = (uint8_t)rnd();
	wrenhw_rx_frame(z->e.d->h->hw, z->f, len);
}

static void fz_misc(struct fz *z)
{
	uint32_t what = pct();

	if (what < 20) {
		wrenhw_set_link(z->e.d->h->hw, rnd() & 1, 0);
	} else if (what < 40) {
		struct wren_aq_modify_cq m;

		memset(&m, 0, sizeof(m));
		m.cqn = z->e.cq.id;
		m.mask = WREN_MODIFY_CQ_MODERATION;
		m.moderation_usec = (uint16_t)(rnd() % 200);
		m.moderation_count = (uint16_t)(rnd() % 16);
		td_cmd(z->e.d, WREN_AQ_OP_MODIFY_CQ, &m, sizeof(m), NULL, 0,
		       NULL, 0);
	} else if (what < 55) {
		th_fault_add(z->e.d->h, z->bufs + rnd() % 60000, 4096,
			     rnd() & 1, rnd() & 1);
	} else if (what < 70) {
		th_fault_clear(z->e.d->h);
	} else if (what < 90) {
		/* Re-create the queues (the RSS table must let go first). */
		static struct wren_set_rss_in none;

		td_cmd(z->e.d, WREN_AQ_OP_SET_RSS, NULL, 0, &none, sizeof(none),
		       NULL, 0);
		for (int i = 0; i < 2; i++) {
			td_handle_cmd(z->e.d, WREN_AQ_OP_DESTROY_ETH_TXQ,
				      z->tx[i].id, NULL, 0);
			td_handle_cmd(z->e.d, WREN_AQ_OP_DESTROY_ETH_RXQ,
				      z->rx[i].id, NULL, 0);
		}
		fz_queues(z);
	} else {
		cq_arm(&z->e, &z->e.cq);
	}
}

void test_eth_fuzz(void)
{
	const char *s = getenv("WRENHW_FUZZ_SEED");
	const char *nv = getenv("WRENHW_FUZZ_N");
	unsigned long n = nv ? strtoul(nv, NULL, 0) : 20000;
	struct fz *z = calloc(1, sizeof(*z));
	struct tq tq, rq;
	struct wren_eth_cqe c;
	uint32_t len, one[1];
	uint64_t sent0;
	bool ok;

	rng = s ? strtoull(s, NULL, 0) : 0x4554482d465a5a31ull;
	if (!rng)
		rng = 1;
	tap_diag("eth fuzz: seed 0x%llx, %lu steps", (unsigned long long)rng,
		 n);
	env_init(&z->e);
	z->bufs = td_alloc(z->e.d, 65536, 4096);
	/* Sixteen real TCP/UDP frames to offload, one per 4 KiB. */
	for (uint64_t a = 0; a < 65536; a += 4096) {
		struct fspec sp = { .udp = (a >> 12) & 1, .payload = 4000 - 54,
				    .sport = (uint16_t)a };

		build_frame(z->f, &sp);
		th_mem_write(z->e.d->h, z->bufs + a, z->f, 4096);
	}
	set_port(&z->e, WREN_SET_PORT_MTU, 9000, 0, NULL);
	fz_queues(z);
	for (unsigned long i = 0; i < n; i++) {
		uint32_t what = pct();

		if (what < 35)
			fz_tx(z);
		else if (what < 55)
			fz_rx_buffers(z);
		else if (what < 90)
			fz_frame(z);
		else
			fz_misc(z);
		cq_drain(&z->e, &z->e.cq);
		td_aeq_count(z->e.d, 0xff);
		eq_count(&z->e);
		th_advance(z->e.d->h, rnd() % 100000);
		th_run(z->e.d->h);
	}
	tap_diag("eth fuzz: %u frames sent, port counters rx %llu tx %llu",
		 z->e.d->h->tx_frames,
		 (unsigned long long)counter(&z->e, WREN_COUNTERS_PORT, 0,
					     WREN_CNT_RX_PACKETS),
		 (unsigned long long)counter(&z->e, WREN_COUNTERS_PORT, 0,
					     WREN_CNT_TX_PACKETS));
	tap_ok(z->e.d->h->tx_frames > 100,
	       "eth fuzz: some random packets were good enough to send");

	/* Afterwards: a clean queue pair on a fresh CQ still works. */
	th_fault_clear(z->e.d->h);
	wrenhw_set_link(z->e.d->h->hw, true, 0);
	set_port(&z->e, WREN_SET_PORT_ADMIN, 0, 1, NULL);
	{
		static struct wren_set_rss_in none;

		td_cmd(z->e.d, WREN_AQ_OP_SET_RSS, NULL, 0, &none, sizeof(none),
		       NULL, 0);
	}
	for (int i = 0; i < 2; i++) {
		td_handle_cmd(z->e.d, WREN_AQ_OP_DESTROY_ETH_TXQ, z->tx[i].id,
			      NULL, 0);
		td_handle_cmd(z->e.d, WREN_AQ_OP_DESTROY_ETH_RXQ, z->rx[i].id,
			      NULL, 0);
	}
	ok = mk_cq(&z->e, 6, 0, 0, &z->e.cq) >= 0;
	ok = ok && mk_q(&z->e, false, z->e.cq.id, 4, &tq) >= 0 &&
	     mk_q(&z->e, true, z->e.cq.id, 4, &rq) >= 0;
	{
		struct fspec sp = { .payload = 100 };

		len = build_frame(z->f, &sp);
	}
	one[0] = len;
	rx_post_n(&z->e, &rq, 2, 2048);
	sent0 = z->e.d->h->tx_frames;
	tx_packet(&z->e, &tq, z->f, one, 1, NULL);
	q_ring(&z->e, &tq);
	ok = ok && z->e.d->h->tx_frames == sent0 + 1 &&
	     cq_poll(&z->e, &z->e.cq, &c) && !c.status &&
	     c.type == WREN_ETH_CQE_TX;
	ok = ok && wrenhw_rx_frame(z->e.d->h->hw, z->f, len) &&
	     cq_poll(&z->e, &z->e.cq, &c) && c.type == WREN_ETH_CQE_RX &&
	     c.len == len;
	tap_ok(ok, "eth fuzz: a fresh queue pair sends and receives afterwards");
	env_fini(&z->e);
	free(z);
}
