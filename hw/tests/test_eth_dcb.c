// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Ethernet queues and filters, SET_PORT, DCB and congestion control
 * settings, counters.
 */
#include "tests.h"
#include "wrenhw_int.h"

#define SYND_EQ(f)	SYND_IN(struct wren_create_eth_q_in, f)
#define SYND_RSS(f)	SYND_IN(struct wren_set_rss_in, f)
#define SYND_RXM(f)	SYND_IN(struct wren_set_rx_mode_in, f)

/*
 * The model stores DCB and CC settings but does not advertise their bits
 * (no engine uses them yet), so these commands answer NOT_SUPPORTED; the
 * test hook advertises the bits to keep their validation tested.
 */
static struct td *td_new_dcb(void)
{
	struct td *d = td_new(NULL);

	whw_test_set_caps(d->h->hw, WHW_CAPS | WHW_CAPS_DCB | WHW_CAPS_CC);
	return d;
}

static struct wren_create_eth_q_in ethq_in(struct td *d, uint32_t cqn)
{
	struct wren_create_eth_q_in in;

	memset(&in, 0, sizeof(in));
	in.ring.addr = td_alloc(d, 4096, 4096);
	in.ring.page_shift = 12;
	in.cqn = cqn;
	in.log_size = 7;
	return in;
}

static struct td_res create_q(struct td *d, bool rx,
			      struct wren_create_eth_q_in *in)
{
	return td_cmd(d, rx ? WREN_AQ_OP_CREATE_ETH_RXQ :
		      WREN_AQ_OP_CREATE_ETH_TXQ, NULL, 0, in, sizeof(*in),
		      NULL, 0);
}

static void eth_queues(void)
{
	struct td *d = td_new(NULL);
	uint32_t eq = (uint32_t)td_create_eq(d, 4, 1, NULL);
	uint32_t cq = (uint32_t)td_create_cq(d, eq, 0, 8);
	struct wren_create_eth_q_in in;
	static struct wren_set_rss_in rss;
	static struct wren_set_rx_mode_in rxm;
	struct wren_aq_counters cs = { .set = WREN_COUNTERS_ETH_QUEUE };
	uint64_t cnt[8];
	struct wren_eqe ev;
	struct td_res r;
	int n;

	in = ethq_in(d, 99);
	expect(create_q(d, false, &in), WREN_AQ_STATUS_BAD_HANDLE, SYND_EQ(cqn),
	       "TXQ on a missing CQ -> BAD_HANDLE");
	in = ethq_in(d, cq);
	in.prio = 8;
	expect(create_q(d, false, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_EQ(prio),
	       "TXQ priority 8 -> BAD_PARAM");
	in.prio = 1;
	expect(create_q(d, true, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_EQ(prio),
	       "RXQ with a priority -> BAD_PARAM");
	in = ethq_in(d, cq);
	in.log_size = 16;
	expect(create_q(d, false, &in), WREN_AQ_STATUS_BAD_SIZE,
	       SYND_EQ(log_size), "TXQ log size 16 -> BAD_SIZE");
	in = ethq_in(d, cq);
	in.rsvd[0] = 1;
	expect(create_q(d, false, &in), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_EQ(rsvd), "TXQ reserved -> BAD_PARAM");
	for (n = 0; n < 16; n++) {
		in = ethq_in(d, cq);
		if (create_q(d, false, &in).status)
			break;
	}
	tap_ok(n == 16, "16 TX queues");
	in = ethq_in(d, cq);
	expect(create_q(d, false, &in), WREN_AQ_STATUS_NO_RESOURCES, ANY_SYND,
	       "17th TX queue -> NO_RESOURCES");
	in = ethq_in(d, cq);
	r = create_q(d, true, &in);
	in = ethq_in(d, cq);
	tap_ok(r.status == 0 && r.result == 0 &&
	       create_q(d, true, &in).result == 1, "RX queues 0 and 1");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_CQ, cq, NULL, 0),
	       WREN_AQ_STATUS_BUSY, ANY_SYND, "DESTROY_CQ under queues -> BUSY");

	/* TX doorbell beyond the ring: queue error. */
	th_db_write(d->h, 0, WREN_DB_ETH_TX, WREN_DB_VAL(3, 0, 128));
	th_db_write(d->h, 0, WREN_DB_ETH_TX, WREN_DB_VAL(3, 0, 129));
	tap_ok(td_aeq_poll(d, &ev) && ev.type == WREN_EVENT_ETH_QUEUE_ERR &&
	       ev.data == 3 && ev.sub == WREN_WQ_SYND_BAD_INDEX,
	       "TX producer beyond the ring -> ETH_QUEUE_ERR");
	th_db_write(d->h, 1, WREN_DB_ETH_RX, WREN_DB_VAL(0, 0, 1));
	tap_ok(td_aeq_count(d, WREN_EVENT_DB_ERR) == 1,
	       "Ethernet doorbell outside page 0 -> DB_ERR");

	memset(&rss, 0, sizeof(rss));
	rss.table_size = 3;
	expect(td_cmd(d, WREN_AQ_OP_SET_RSS, NULL, 0, &rss, sizeof(rss), NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_RSS(table_size),
	       "RSS table size 3 -> BAD_PARAM");
	rss.table_size = 512;
	expect(td_cmd(d, WREN_AQ_OP_SET_RSS, NULL, 0, &rss, sizeof(rss), NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_RSS(table_size),
	       "RSS table size 512 -> BAD_PARAM");
	rss.table_size = 0;
	tap_ok(td_cmd(d, WREN_AQ_OP_SET_RSS, NULL, 0, &rss, sizeof(rss), NULL,
		      0).status == 0, "SET_RSS table_size 0 turns RSS off");
	rss.table_size = 4;
	rss.table[1] = 1;
	rss.table[2] = 5;
	expect(td_cmd(d, WREN_AQ_OP_SET_RSS, NULL, 0, &rss, sizeof(rss), NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, SYND_RSS(table) + 8,
	       "RSS entry naming a missing RX queue -> BAD_HANDLE");
	rss.table[2] = 0;
	rss.table[4] = 1;
	expect(td_cmd(d, WREN_AQ_OP_SET_RSS, NULL, 0, &rss, sizeof(rss), NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_RSS(table) + 16,
	       "RSS entry past table_size -> BAD_PARAM");
	rss.table[4] = 0;
	rss.hash_types = 0x40;
	expect(td_cmd(d, WREN_AQ_OP_SET_RSS, NULL, 0, &rss, sizeof(rss), NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_RSS(hash_types),
	       "RSS unknown hash type -> BAD_PARAM");
	rss.hash_types = WREN_RSS_HASH_TCP_IPV4;
	expect(td_cmd(d, WREN_AQ_OP_SET_RSS, NULL, 0, &rss, sizeof(rss), NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "SET_RSS");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_ETH_RXQ, 1, NULL, 0),
	       WREN_AQ_STATUS_BUSY, ANY_SYND,
	       "DESTROY_ETH_RXQ used by RSS -> BUSY");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_ETH_TXQ, 3, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DESTROY_ETH_TXQ");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_ETH_TXQ, 3, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, ANY_SYND,
	       "double DESTROY_ETH_TXQ -> BAD_HANDLE");

	memset(&rxm, 0, sizeof(rxm));
	rxm.num_macs = 65;
	expect(td_cmd(d, WREN_AQ_OP_SET_RX_MODE, NULL, 0, &rxm, sizeof(rxm),
		      NULL, 0), WREN_AQ_STATUS_BAD_PARAM, SYND_RXM(num_macs),
	       "65 MAC filters -> BAD_PARAM");
	rxm.num_macs = 1;
	rxm.flags = 4;
	expect(td_cmd(d, WREN_AQ_OP_SET_RX_MODE, NULL, 0, &rxm, sizeof(rxm),
		      NULL, 0), WREN_AQ_STATUS_BAD_PARAM, SYND_RXM(flags),
	       "unknown RX mode flag -> BAD_PARAM");
	rxm.flags = WREN_RX_MODE_ALLMULTI;
	rxm.macs[0][6] = 1;
	expect(td_cmd(d, WREN_AQ_OP_SET_RX_MODE, NULL, 0, &rxm, sizeof(rxm),
		      NULL, 0), WREN_AQ_STATUS_BAD_PARAM, SYND_RXM(macs) + 6,
	       "MAC slot padding -> BAD_PARAM");
	rxm.macs[0][6] = 0;
	rxm.macs[3][0] = 1;
	expect(td_cmd(d, WREN_AQ_OP_SET_RX_MODE, NULL, 0, &rxm, sizeof(rxm),
		      NULL, 0), WREN_AQ_STATUS_BAD_PARAM, SYND_RXM(macs) + 24,
	       "MAC in an unused slot -> BAD_PARAM");
	rxm.macs[3][0] = 0;
	rxm.macs[0][0] = 0x33;
	expect(td_cmd(d, WREN_AQ_OP_SET_RX_MODE, NULL, 0, &rxm, sizeof(rxm),
		      NULL, 0), WREN_AQ_STATUS_OK, 0, "SET_RX_MODE");

	cs.index = 2;
	r = td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &cs, sizeof(cs), NULL, 0, cnt,
		   sizeof(cnt));
	tap_ok(r.status == 0 && r.result == WREN_NUM_ETH_QUEUE_COUNTERS &&
	       r.out_len == WREN_NUM_ETH_QUEUE_COUNTERS * 8,
	       "per-queue counters of TX queue 2");
	cs.index = 0x80000001;
	expect(td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &cs, sizeof(cs), NULL, 0,
		      cnt, sizeof(cnt)), WREN_AQ_STATUS_OK, 0,
	       "per-queue counters of RX queue 1");
	cs.index = 3;
	expect(td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &cs, sizeof(cs), NULL, 0,
		      cnt, sizeof(cnt)), WREN_AQ_STATUS_BAD_HANDLE,
	       SYND_CMD(u.counters.index),
	       "counters of a destroyed queue -> BAD_HANDLE");
	td_free(d);
}

static void port_counters(void)
{
	struct td *d = td_new(NULL);
	struct wren_set_port_in sp;
	struct wren_port_attr p;
	struct wren_aq_counters cs;
	uint64_t cnt[64];
	struct wren_eqe ev;
	struct td_res r;

	memset(&sp, 0, sizeof(sp));
	sp.mask = WREN_SET_PORT_MTU;
	sp.mtu = 67;
	expect(td_cmd(d, WREN_AQ_OP_SET_PORT, NULL, 0, &sp, sizeof(sp), NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_IN(struct wren_set_port_in, mtu),
	       "MTU 67 -> BAD_PARAM");
	sp.mtu = 9001;
	expect(td_cmd(d, WREN_AQ_OP_SET_PORT, NULL, 0, &sp, sizeof(sp), NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_IN(struct wren_set_port_in, mtu),
	       "MTU 9001 -> BAD_PARAM");
	sp.mask = WREN_SET_PORT_MAC;
	sp.mac[0] = 1;
	expect(td_cmd(d, WREN_AQ_OP_SET_PORT, NULL, 0, &sp, sizeof(sp), NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_IN(struct wren_set_port_in, mac),
	       "multicast port MAC -> BAD_PARAM");
	sp.mask = 0x10;
	expect(td_cmd(d, WREN_AQ_OP_SET_PORT, NULL, 0, &sp, sizeof(sp), NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_IN(struct wren_set_port_in, mask),
	       "unknown SET_PORT mask -> BAD_PARAM");
	wrenhw_set_link(d->h->hw, true, 100000);
	td_aeq_count(d, WREN_EVENT_PORT_STATE);
	memset(&sp, 0, sizeof(sp));
	sp.mask = WREN_SET_PORT_MTU | WREN_SET_PORT_ADMIN | WREN_SET_PORT_MAC |
		  WREN_SET_PORT_PAUSE;
	sp.mtu = 9000;
	sp.admin_up = 0;
	sp.pause = WREN_PAUSE_RX;
	sp.mac[0] = 2;
	sp.mac[5] = 0x42;
	expect(td_cmd(d, WREN_AQ_OP_SET_PORT, NULL, 0, &sp, sizeof(sp), NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "SET_PORT mtu, admin down, mac, pause");
	tap_ok(td_aeq_poll(d, &ev) && ev.type == WREN_EVENT_PORT_STATE &&
	       ev.sub == WREN_PORT_DOWN, "admin down -> PORT_STATE DOWN");
	r = td_cmd(d, WREN_AQ_OP_QUERY_PORT, NULL, 0, NULL, 0, &p, sizeof(p));
	tap_ok(r.status == 0 && p.mtu == 9000 && p.admin_up == 0 &&
	       p.state == WREN_PORT_DOWN && p.mac[5] == 0x42 &&
	       p.pause == WREN_PAUSE_RX && p.speed_mbps == 100000 &&
	       p.link_down_count == 1, "QUERY_PORT reflects SET_PORT");

	memset(&cs, 0, sizeof(cs));
	cs.set = 9;
	expect(td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &cs, sizeof(cs), NULL, 0,
		      cnt, sizeof(cnt)), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(u.counters.set), "unknown counter set -> BAD_PARAM");
	cs.set = WREN_COUNTERS_PORT;
	cs.index = 1;
	expect(td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &cs, sizeof(cs), NULL, 0,
		      cnt, sizeof(cnt)), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(u.counters.index), "port counters with an index -> BAD_PARAM");
	cs.index = 0;
	cs.rsvd0[1] = 1;
	expect(td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &cs, sizeof(cs), NULL, 0,
		      cnt, sizeof(cnt)), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(u.counters.rsvd0) + 1, "counters reserved -> BAD_PARAM");
	cs.rsvd0[1] = 0;
	cs.set = WREN_COUNTERS_PRIO;
	r = td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &cs, sizeof(cs), NULL, 0, cnt,
		   sizeof(cnt));
	tap_ok(r.status == 0 && r.result == 64 && r.out_len == 512,
	       "priority counters: 8 blocks of 8");
	cs.set = WREN_COUNTERS_PFC;
	cs.index = 7;
	r = td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &cs, sizeof(cs), NULL, 0, cnt,
		   sizeof(cnt));
	tap_ok(r.status == 0 && r.result == WREN_NUM_PFC_COUNTERS &&
	       r.out_len == 8 * WREN_NUM_PFC_COUNTERS,
	       "PFC counters of priority 7");
	cs.index = 8;
	expect(td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &cs, sizeof(cs), NULL, 0,
		      cnt, sizeof(cnt)), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(u.counters.index), "PFC counters of priority 8 -> BAD_PARAM");
	cs.index = 0;
	cs.set = WREN_COUNTERS_RDMA;
	r = td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &cs, sizeof(cs), NULL, 0, cnt,
		   16);
	tap_ok(r.status == 0 && r.result == WREN_NUM_RDMA_COUNTERS &&
	       r.out_len == 16, "RDMA counters, truncated to out_len");
	th_db_write(d->h, 0, WREN_DB_CQ, WREN_DB_VAL(5, 0, 0));
	cs.set = WREN_COUNTERS_PORT;
	r = td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &cs, sizeof(cs), NULL, 0, cnt,
		   sizeof(cnt));
	tap_ok(r.status == 0 && cnt[WREN_CNT_DB_ERRORS] == 1 &&
	       cnt[WREN_CNT_LINK_DOWN_EVENTS] == 1,
	       "port counters: db_errors and link_down_events");
	expect(td_cmd(d, WREN_AQ_OP_CLEAR_COUNTERS, &cs, sizeof(cs), NULL, 0,
		      NULL, 0), WREN_AQ_STATUS_OK, 0, "CLEAR_COUNTERS port");
	td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &cs, sizeof(cs), NULL, 0, cnt,
	       sizeof(cnt));
	tap_ok(cnt[WREN_CNT_DB_ERRORS] == 0, "port counters cleared");
	td_free(d);
}

static struct td_res set(struct td *d, uint8_t op, const void *in, uint32_t len)
{
	return td_cmd(d, op, NULL, 0, in, len, NULL, 0);
}

static void dcb(void)
{
	struct td *d = td_new_dcb();
	struct wren_ets ets;
	struct wren_pfc pfc;
	struct wren_trust trust;
	struct wren_buffer buf;
	struct wren_maxrate rate;
	struct wren_pfc_wd wd;
	struct wren_dcb_state st;
	struct td_res r;

	memset(&ets, 0, sizeof(ets));
	for (int i = 0; i < 8; i++) {
		ets.tc_tsa[i] = WREN_TSA_ETS;
		ets.prio_tc[i] = (uint8_t)i;
	}
	ets.tc_bw[0] = 50;
	ets.tc_bw[3] = 49;
	expect(set(d, WREN_AQ_OP_SET_ETS, &ets, sizeof(ets)),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_IN(struct wren_ets, tc_bw),
	       "ETS bandwidths summing to 99 -> BAD_PARAM");
	ets.tc_bw[3] = 50;
	ets.tc_tsa[5] = 1;
	expect(set(d, WREN_AQ_OP_SET_ETS, &ets, sizeof(ets)),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_IN(struct wren_ets, tc_tsa) + 5,
	       "unknown TSA -> BAD_PARAM");
	ets.tc_tsa[5] = WREN_TSA_ETS;
	ets.prio_tc[2] = 8;
	expect(set(d, WREN_AQ_OP_SET_ETS, &ets, sizeof(ets)),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_IN(struct wren_ets, prio_tc) + 2,
	       "prio_tc 8 -> BAD_PARAM");
	ets.prio_tc[2] = 2;
	ets.tc_tsa[7] = WREN_TSA_STRICT;
	ets.tc_bw[7] = 30;
	expect(set(d, WREN_AQ_OP_SET_ETS, &ets, sizeof(ets)),
	       WREN_AQ_STATUS_OK, 0, "ETS 50/50 plus a strict TC");

	memset(&pfc, 0, sizeof(pfc));
	pfc.rsvd[1] = 1;
	expect(set(d, WREN_AQ_OP_SET_PFC, &pfc, sizeof(pfc)),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_IN(struct wren_pfc, rsvd) + 4,
	       "PFC reserved -> BAD_PARAM");
	pfc.rsvd[1] = 0;
	pfc.pfc_en = 0x08;
	pfc.delay = 32;
	expect(set(d, WREN_AQ_OP_SET_PFC, &pfc, sizeof(pfc)),
	       WREN_AQ_STATUS_OK, 0, "PFC on priority 3");

	memset(&trust, 0, sizeof(trust));
	trust.trust = 2;
	expect(set(d, WREN_AQ_OP_SET_TRUST, &trust, sizeof(trust)),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_IN(struct wren_trust, trust),
	       "trust mode 2 -> BAD_PARAM");
	trust.trust = WREN_TRUST_DSCP;
	trust.dscp2prio[26] = 8;
	expect(set(d, WREN_AQ_OP_SET_TRUST, &trust, sizeof(trust)),
	       WREN_AQ_STATUS_BAD_PARAM,
	       SYND_IN(struct wren_trust, dscp2prio) + 26,
	       "DSCP mapped to priority 8 -> BAD_PARAM");
	trust.dscp2prio[26] = 3;
	expect(set(d, WREN_AQ_OP_SET_TRUST, &trust, sizeof(trust)),
	       WREN_AQ_STATUS_OK, 0, "DSCP trust, 26 -> 3");

	memset(&buf, 0, sizeof(buf));
	buf.size[0] = 256 * 1024;
	buf.size[1] = 128 * 1024;
	buf.xoff[1] = 130 * 1024;
	expect(set(d, WREN_AQ_OP_SET_BUFFER, &buf, sizeof(buf)),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_IN(struct wren_buffer, xoff) + 4,
	       "xoff above the buffer size -> BAD_PARAM");
	buf.xoff[1] = 100 * 1024;
	buf.xon[1] = 101 * 1024;
	expect(set(d, WREN_AQ_OP_SET_BUFFER, &buf, sizeof(buf)),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_IN(struct wren_buffer, xon) + 4,
	       "xon above xoff -> BAD_PARAM");
	buf.xon[1] = 80 * 1024;
	buf.size[2] = 200 * 1024;
	expect(set(d, WREN_AQ_OP_SET_BUFFER, &buf, sizeof(buf)),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_IN(struct wren_buffer, size),
	       "buffers beyond the port's 512 KiB -> BAD_PARAM");
	buf.size[2] = 0;
	buf.prio2buffer[3] = 8;
	expect(set(d, WREN_AQ_OP_SET_BUFFER, &buf, sizeof(buf)),
	       WREN_AQ_STATUS_BAD_PARAM,
	       SYND_IN(struct wren_buffer, prio2buffer) + 3,
	       "priority to buffer 8 -> BAD_PARAM");
	buf.prio2buffer[3] = 1;
	buf.size[7] = 0xffffffff;
	expect(set(d, WREN_AQ_OP_SET_BUFFER, &buf, sizeof(buf)),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_IN(struct wren_buffer, size),
	       "sizes that would overflow 32 bits -> BAD_PARAM");
	buf.size[7] = 0;
	buf.total_size = 12345;
	expect(set(d, WREN_AQ_OP_SET_BUFFER, &buf, sizeof(buf)),
	       WREN_AQ_STATUS_OK, 0, "SET_BUFFER (total_size ignored)");

	memset(&rate, 0, sizeof(rate));
	rate.tc_maxrate_kbps[2] = 25000001;
	expect(set(d, WREN_AQ_OP_SET_MAXRATE, &rate, sizeof(rate)),
	       WREN_AQ_STATUS_BAD_PARAM,
	       SYND_IN(struct wren_maxrate, tc_maxrate_kbps) + 16,
	       "max rate above the 25 Gb/s port -> BAD_PARAM");
	rate.tc_maxrate_kbps[2] = 1000000;
	expect(set(d, WREN_AQ_OP_SET_MAXRATE, &rate, sizeof(rate)),
	       WREN_AQ_STATUS_OK, 0, "TC 2 limited to 1 Gb/s");

	memset(&wd, 0, sizeof(wd));
	wd.timeout_ms = 60001;
	expect(set(d, WREN_AQ_OP_SET_PFC_WD, &wd, sizeof(wd)),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_IN(struct wren_pfc_wd, timeout_ms),
	       "storm watchdog timeout 60001 ms -> BAD_PARAM");
	wd.timeout_ms = 100;
	wd.recovery_ms = 200;
	expect(set(d, WREN_AQ_OP_SET_PFC_WD, &wd, sizeof(wd)),
	       WREN_AQ_STATUS_OK, 0, "storm watchdog 100 ms");

	memset(&st, 0, sizeof(st));
	r = td_cmd(d, WREN_AQ_OP_QUERY_DCB, NULL, 0, NULL, 0, &st, sizeof(st));
	tap_ok(r.status == 0 && r.out_len == sizeof(st) &&
	       st.ets.tc_bw[0] == 50 && st.ets.tc_tsa[7] == WREN_TSA_STRICT &&
	       st.pfc.pfc_en == 0x08 && st.pfc.delay == 32 &&
	       st.trust.trust == WREN_TRUST_DSCP && st.trust.dscp2prio[26] == 3 &&
	       st.buffer.size[1] == 128 * 1024 && st.buffer.xon[1] == 80 * 1024 &&
	       st.buffer.prio2buffer[3] == 1 &&
	       st.buffer.total_size == 512 * 1024 &&
	       st.maxrate.tc_maxrate_kbps[2] == 1000000 &&
	       st.pfc_wd.timeout_ms == 100 && st.pfc_storm == 0,
	       "QUERY_DCB returns everything that was set");
	td_free(d);
}

static void cc(void)
{
	struct td *d = td_new_dcb();
	struct wren_cc_params p, q;
	struct wren_aq_handle h = { .handle = 3 };
	struct td_res r;

	memset(&q, 0, sizeof(q));
	r = td_cmd(d, WREN_AQ_OP_QUERY_CC, &h, sizeof(h), NULL, 0, &q, sizeof(q));
	tap_ok(r.status == 0 && q.rp_initial_alpha == 1023 && q.rp_threshold == 5 &&
	       q.rp_gd == 11 && q.rp_min_dec_fac == 50 && q.rp_clamp_tgt_rate == 1,
	       "DCQCN defaults as published");
	p = q;
	p.prio_mask = 0x08;
	p.np_enable = p.rp_enable = p.ecn_enable = 1;
#define CC_BAD(field, value, what) do {					\
		struct wren_cc_params b = p;				\
		b.field = value;					\
		expect(td_cmd(d, WREN_AQ_OP_SET_CC, NULL, 0, &b, sizeof(b),	\
			      NULL, 0), WREN_AQ_STATUS_BAD_PARAM,	\
		       SYND_IN(struct wren_cc_params, field), what);	\
	} while (0)
	CC_BAD(prio_mask, 0, "CC for no priority -> BAD_PARAM");
	CC_BAD(np_enable, 2, "np_enable 2 -> BAD_PARAM");
	CC_BAD(rp_initial_alpha, 1024, "alpha 1024 -> BAD_PARAM");
	CC_BAD(rp_g, 1025, "g 1025 -> BAD_PARAM");
	CC_BAD(np_cnp_dscp, 64, "CNP DSCP 64 -> BAD_PARAM");
	CC_BAD(np_cnp_prio, 8, "CNP priority 8 -> BAD_PARAM");
	CC_BAD(rp_threshold, 0, "F = 0 -> BAD_PARAM");
	CC_BAD(rp_min_rate_mbps, 25001, "min rate above the port -> BAD_PARAM");
	CC_BAD(rp_ai_rate_mbps, 25001, "AI rate above the port -> BAD_PARAM");
	CC_BAD(rp_time_reset_us, 0, "T = 0 -> BAD_PARAM");
	CC_BAD(rsvd[2], 1, "CC reserved -> BAD_PARAM");
	CC_BAD(rp_max_rate_mbps, 25001, "max rate above the port -> BAD_PARAM");
	CC_BAD(rp_rate_on_first_cnp_mbps, 25001,
	       "first-CNP rate above the port -> BAD_PARAM");
	CC_BAD(rp_min_dec_fac, 0, "min_dec_fac 0 -> BAD_PARAM");
	CC_BAD(rp_min_dec_fac, 101, "min_dec_fac 101 -> BAD_PARAM");
	CC_BAD(rp_gd, 9, "gd 9 (cut could pass Rc) -> BAD_PARAM");
	CC_BAD(rp_clamp_tgt_rate, 2, "clamp_tgt_rate 2 -> BAD_PARAM");
	CC_BAD(rsvd1, 1, "CC rsvd1 -> BAD_PARAM");
	p.rp_g = 16;
	expect(td_cmd(d, WREN_AQ_OP_SET_CC, NULL, 0, &p, sizeof(p), NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "SET_CC for priority 3");
	memset(&q, 0, sizeof(q));
	r = td_cmd(d, WREN_AQ_OP_QUERY_CC, &h, sizeof(h), NULL, 0, &q, sizeof(q));
	tap_ok(r.status == 0 && q.rp_g == 16 && q.np_enable == 1 &&
	       q.prio_mask == 0x08, "QUERY_CC priority 3 returns it");
	h.handle = 2;
	td_cmd(d, WREN_AQ_OP_QUERY_CC, &h, sizeof(h), NULL, 0, &q, sizeof(q));
	tap_ok(q.rp_g == 4 && q.np_enable == 0, "priority 2 untouched");
	h.handle = 8;
	expect(td_cmd(d, WREN_AQ_OP_QUERY_CC, &h, sizeof(h), NULL, 0, &q,
		      sizeof(q)), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(u.handle.handle), "QUERY_CC priority 8 -> BAD_PARAM");
	td_free(d);
}

void test_eth_dcb(void)
{
	eth_queues();
	port_counters();
	dcb();
	cc();
}
