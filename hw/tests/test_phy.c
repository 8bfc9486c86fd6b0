// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The wire: PHY status frames (good and malformed) and receive counting. */
#include "tests.h"

static size_t phy_frame(uint8_t *f, uint8_t up, uint32_t speed)
{
	static const uint8_t hdr[14] = { 0x02, 0x57, 0x52, 0x45, 0x4e, 0x00,
					 0x02, 0, 0, 0, 0, 9, 0x88, 0xb6 };

	memset(f, 0, 64);
	memcpy(f, hdr, sizeof(hdr));
	memcpy(f + 14, "WPHY", 4);
	f[18] = 1;
	f[19] = up;
	f[22] = (uint8_t)(speed >> 24);
	f[23] = (uint8_t)(speed >> 16);
	f[24] = (uint8_t)(speed >> 8);
	f[25] = (uint8_t)speed;
	return 26;
}

static uint64_t port_counter(struct td *d, unsigned int which)
{
	struct wren_aq_counters cs = { .set = WREN_COUNTERS_PORT };
	uint64_t cnt[WREN_NUM_PORT_COUNTERS];

	memset(cnt, 0, sizeof(cnt));
	td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &cs, sizeof(cs), NULL, 0, cnt,
	       sizeof(cnt));
	return cnt[which];
}

static bool bad_frame(struct td *d, void (*edit)(uint8_t *f), size_t len)
{
	uint8_t f[64];
	uint64_t before = port_counter(d, WREN_CNT_RX_ERRORS_LENGTH);
	struct wren_eqe e;

	phy_frame(f, 1, 50000);
	if (edit)
		edit(f);
	wrenhw_rx_frame(d->h->hw, f, len);
	return !(th_reg_read(d->h, WREN_REG_STATUS) & WREN_STATUS_LINK_UP) &&
	       !td_aeq_poll(d, &e) &&
	       port_counter(d, WREN_CNT_RX_ERRORS_LENGTH) == before + 1;
}

static void bad_magic(uint8_t *f) { f[17] = 'X'; }
static void bad_version(uint8_t *f) { f[18] = 2; }
static void bad_up(uint8_t *f) { f[19] = 2; }
static void bad_rsvd(uint8_t *f) { f[21] = 1; }

void test_phy(void)
{
	struct td *d = td_new(NULL);
	struct wren_port_attr p;
	struct wren_eqe e;
	uint8_t f[9100];
	size_t n;

	tap_ok(bad_frame(d, NULL, 25), "PHY frame one byte short: dropped, counted");
	tap_ok(bad_frame(d, bad_magic, 26), "PHY frame with a bad magic");
	tap_ok(bad_frame(d, bad_version, 26), "PHY frame version 2");
	tap_ok(bad_frame(d, bad_up, 26), "PHY frame link_up 2");
	tap_ok(bad_frame(d, bad_rsvd, 26), "PHY frame reserved != 0");
	tap_ok(bad_frame(d, NULL, 13), "frame shorter than an Ethernet header");
	tap_ok(!wrenhw_rx_frame(d->h->hw, NULL, 0), "NULL frame dropped");

	n = phy_frame(f, 1, 100000);
	tap_ok(wrenhw_rx_frame(d->h->hw, f, 60), "padded PHY frame accepted");
	(void)n;
	tap_ok((th_reg_read(d->h, WREN_REG_STATUS) & WREN_STATUS_LINK_UP) &&
	       td_aeq_poll(d, &e) && e.type == WREN_EVENT_PORT_STATE &&
	       e.sub == WREN_PORT_ACTIVE && e.data == 100000,
	       "link up at 100 Gb/s: STATUS.LINK_UP and PORT_STATE ACTIVE");
	td_cmd(d, WREN_AQ_OP_QUERY_PORT, NULL, 0, NULL, 0, &p, sizeof(p));
	tap_ok(p.state == WREN_PORT_ACTIVE && p.speed_mbps == 100000,
	       "QUERY_PORT: ACTIVE, 100000 Mb/s");
	wrenhw_rx_frame(d->h->hw, f, 26);
	tap_ok(!td_aeq_poll(d, &e), "the same state again posts nothing");
	phy_frame(f, 1, 25000);
	wrenhw_rx_frame(d->h->hw, f, 26);
	tap_ok(td_aeq_poll(d, &e) && e.type == WREN_EVENT_PORT_STATE &&
	       e.sub == WREN_PORT_ACTIVE && e.data == 25000 &&
	       !td_aeq_poll(d, &e),
	       "new speed while up: one PORT_STATE ACTIVE with 25000 Mb/s");
	td_cmd(d, WREN_AQ_OP_QUERY_PORT, NULL, 0, NULL, 0, &p, sizeof(p));
	tap_ok(p.state == WREN_PORT_ACTIVE && p.speed_mbps == 25000,
	       "QUERY_PORT: ACTIVE, 25000 Mb/s");
	phy_frame(f, 1, 100000);
	wrenhw_rx_frame(d->h->hw, f, 26);
	tap_ok(td_aeq_poll(d, &e) && e.data == 100000 && !td_aeq_poll(d, &e),
	       "and back to 100000 Mb/s: one more event");

	/* Ordinary frames: counted and dropped (no RX engine yet). */
	memset(f, 0xff, 6);
	memset(f + 6, 0x02, 6);
	f[12] = 0x08;
	f[13] = 0x06;
	tap_ok(!wrenhw_rx_frame(d->h->hw, f, 60),
	       "broadcast frame dropped (no RX queue)");
	tap_ok(port_counter(d, WREN_CNT_RX_PACKETS) == 1 &&
	       port_counter(d, WREN_CNT_RX_BYTES) == 60 &&
	       port_counter(d, WREN_CNT_RX_BROADCAST) == 1 &&
	       port_counter(d, WREN_CNT_RX_DROPPED_NO_BUFFER) == 1,
	       "... and counted as received, broadcast, dropped");
	f[0] = 0x02;
	tap_ok(!wrenhw_rx_frame(d->h->hw, f, 9019) &&
	       port_counter(d, WREN_CNT_RX_ERRORS_LENGTH) == 8,
	       "frame longer than MTU 9000 + headers is a length error");
	/* Frames to the PHY address with another EtherType are not PHY's. */
	phy_frame(f, 0, 0);
	f[13] = 0xb7;
	wrenhw_rx_frame(d->h->hw, f, 60);
	tap_ok(th_reg_read(d->h, WREN_REG_STATUS) & WREN_STATUS_LINK_UP,
	       "other EtherType to the PHY address changes nothing");

	phy_frame(f, 0, 0);
	wrenhw_rx_frame(d->h->hw, f, 26);
	tap_ok(!(th_reg_read(d->h, WREN_REG_STATUS) & WREN_STATUS_LINK_UP) &&
	       td_aeq_poll(d, &e) && e.type == WREN_EVENT_PORT_STATE &&
	       e.sub == WREN_PORT_DOWN, "link down frame: PORT_STATE DOWN");
	td_cmd(d, WREN_AQ_OP_QUERY_PORT, NULL, 0, NULL, 0, &p, sizeof(p));
	tap_ok(p.state == WREN_PORT_DOWN && p.link_down_count == 1 &&
	       p.speed_mbps == 100000, "QUERY_PORT: DOWN, one link-down");
	memset(f, 0x02, 6);
	tap_ok(!wrenhw_rx_frame(d->h->hw, f, 60) &&
	       port_counter(d, WREN_CNT_RX_PACKETS) == 2,
	       "frames while the link is down are not received");
	td_free(d);
}
