// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Ethernet engine under stress: interrupt moderation (count and time
 * thresholds, fake clock), link down, malformed descriptors, DMA faults in
 * rings and buffers, doorbells beyond the ring, and destroying a queue
 * with traffic pending.
 */
#include "eth_util.h"
#include "wrenhw_int.h"

static uint8_t pkt[2048];

static uint32_t small_frame(void)
{
	struct fspec s = { .payload = 30 };

	return build_frame(pkt, &s);
}

static void send_n(struct tenv *e, struct tq *q, unsigned int n)
{
	uint32_t one[1] = { small_frame() };

	for (unsigned int i = 0; i < n; i++)
		tx_packet(e, q, pkt, one, 1, NULL);
	q_ring(e, q);
}

static void moderation(void)
{
	struct tenv e;
	struct tcq cq;
	struct tq q;
	struct wren_aq_modify_cq m;

	env_init(&e);
	mk_cq(&e, 8, 0, 0, &cq);
	mk_q(&e, false, cq.id, 6, &q);
	cq_arm(&e, &cq);
	send_n(&e, &q, 1);
	tap_ok(eq_count(&e) == 1, "no moderation: event at the first CQE");
	cq_drain(&e, &cq);

	memset(&m, 0, sizeof(m));
	m.cqn = cq.id;
	m.mask = WREN_MODIFY_CQ_MODERATION;
	m.moderation_usec = 50;
	m.moderation_count = 4;
	tap_ok(td_cmd(e.d, WREN_AQ_OP_MODIFY_CQ, &m, sizeof(m), NULL, 0, NULL,
		      0).status == 0, "MODIFY_CQ moderation 50 us / 4 CQEs");
	cq_arm(&e, &cq);
	send_n(&e, &q, 3);
	tap_ok(eq_count(&e) == 0, "moderation: 3 CQEs pending, no event yet");
	send_n(&e, &q, 1);
	tap_ok(eq_count(&e) == 1, "moderation: event at the 4th CQE (count)");
	cq_drain(&e, &cq);
	cq_arm(&e, &cq);
	send_n(&e, &q, 1);
	th_advance(e.d->h, 49000);
	tap_ok(eq_count(&e) == 0, "moderation: 1 CQE, 49 us: still held");
	th_advance(e.d->h, 1000);
	tap_ok(eq_count(&e) == 1, "moderation: event 50 us after the first CQE");
	th_advance(e.d->h, 500000);
	tap_ok(eq_count(&e) == 0, "moderation: one event per arm");
	/* CQEs already there when armed: held, then reported. */
	send_n(&e, &q, 2);
	cq_arm(&e, &cq);
	tap_ok(eq_count(&e) == 0, "moderation: arming over 2 CQEs holds them");
	th_advance(e.d->h, 50000);
	tap_ok(eq_count(&e) == 1, "moderation: ... and reports them in time");
	cq_drain(&e, &cq);
	/* Without moderation, arming over pending CQEs reports at once. */
	m.moderation_usec = 0;
	m.moderation_count = 0;
	td_cmd(e.d, WREN_AQ_OP_MODIFY_CQ, &m, sizeof(m), NULL, 0, NULL, 0);
	send_n(&e, &q, 1);
	cq_arm(&e, &cq);
	tap_ok(eq_count(&e) == 1, "arming with a CQE already present: event "
	       "at once");
	/* A CQ destroyed with its moderation timer running. */
	{
		struct tcq c2;
		struct tq q2;

		mk_cq(&e, 4, 1000, 0, &c2);
		mk_q(&e, false, c2.id, 4, &q2);
		cq_arm(&e, &c2);
		send_n(&e, &q2, 1);
		td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_ETH_TXQ, q2.id, NULL, 0);
		tap_ok(td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_CQ, c2.id, NULL,
				     0).status == 0,
		       "destroy a CQ whose moderation timer is pending");
		th_advance(e.d->h, 2000000);
		tap_ok(eq_count(&e) == 0, "... and its timer never fires");
	}
	env_fini(&e);
}

/* Completion EQ moderation: the MSI-X interrupt waits, the EQE does not. */
static void eq_moderation(void)
{
	struct tenv e;
	struct wren_aq_create_eq ce;
	struct tcq cq;
	struct tq q;
	struct td_res r;
	unsigned int *irq;

	env_init(&e);
	memset(&ce, 0, sizeof(ce));
	e.eq.log = 6;
	e.eq.ring = td_alloc(e.d, 16u << 6, 4096);
	ce.ring.addr = e.eq.ring;
	ce.ring.page_shift = 12;
	ce.log_size = 6;
	ce.msix_vector = 3;
	ce.moderation_usec = 100;
	ce.moderation_count = 3;
	r = td_cmd(e.d, WREN_AQ_OP_CREATE_EQ, &ce, sizeof(ce), NULL, 0, NULL,
		   0);
	e.eq.id = (uint32_t)r.result;
	e.eq.ci = 0;
	irq = &e.d->h->irqs[3];
	mk_cq(&e, 6, 0, 0, &cq);
	mk_q(&e, false, cq.id, 6, &q);
	eq_arm(&e);
	cq_arm(&e, &cq);
	send_n(&e, &q, 1);
	tap_ok(r.status == 0 && *irq == 0,
	       "EQ moderation: one EQE written, interrupt held");
	th_advance(e.d->h, 100000);
	tap_ok(*irq == 1, "EQ moderation: interrupt 100 us later");
	eq_count(&e);
	eq_arm(&e);
	for (int i = 0; i < 3; i++) {
		cq_drain(&e, &cq);
		cq_arm(&e, &cq);
		send_n(&e, &q, 1);
	}
	tap_ok(*irq == 2, "EQ moderation: interrupt at the 3rd EQE (count)");
	env_fini(&e);
}

static void link_down(void)
{
	struct tenv e;
	struct tq q, rq;
	struct wren_eth_cqe c;
	uint32_t len;
	bool ok;

	env_init(&e);
	mk_q(&e, false, e.cq.id, 6, &q);
	mk_q(&e, true, e.cq.id, 6, &rq);
	rx_post_n(&e, &rq, 8, 2048);
	wrenhw_set_link(e.d->h->hw, false, 0);
	e.d->h->tx_frames = 0;
	send_n(&e, &q, 3);
	ok = e.d->h->tx_frames == 0 && cq_poll(&e, &e.cq, &c) && !c.status &&
	     cq_drain(&e, &e.cq) == 2;
	tap_ok(ok, "link down: TX completes (status 0) but sends nothing");
	tap_ok(counter(&e, WREN_COUNTERS_PORT, 0,
		       WREN_CNT_TX_DROPPED_LINK_DOWN) == 3,
	       "link down: tx_dropped_link_down counts 3");
	len = small_frame();
	tap_ok(!wrenhw_rx_frame(e.d->h->hw, pkt, len) &&
	       !cq_poll(&e, &e.cq, &c), "link down: RX frame not delivered");
	wrenhw_set_link(e.d->h->hw, true, 0);
	send_n(&e, &q, 1);
	ok = e.d->h->tx_frames == 1 && wrenhw_rx_frame(e.d->h->hw, pkt, len);
	tap_ok(ok, "link up again: TX and RX resume");
	cq_drain(&e, &e.cq);
	set_port(&e, WREN_SET_PORT_ADMIN, 0, 0, NULL);
	send_n(&e, &q, 1);
	ok = e.d->h->tx_frames == 1 && !wrenhw_rx_frame(e.d->h->hw, pkt, len);
	tap_ok(ok, "admin down: TX dropped, RX not delivered");
	env_fini(&e);
}

static void bad_descs(void)
{
	struct tenv e;
	struct tq q;
	struct wren_eth_tx_desc d;
	struct wren_eth_cqe c;
	uint32_t len = small_frame();
	uint64_t buf;
	bool ok;

	env_init(&e);
	mk_q(&e, false, e.cq.id, 7, &q);
	buf = td_alloc(e.d, 2048, 64);
	th_mem_write(e.d->h, buf, pkt, len);
	memset(&d, 0, sizeof(d));
	d.addr = buf;
	d.flags = WREN_ETH_TX_F_EOP;
	tx_desc(&e, &q, &d);		/* len 0 */
	d.len = (uint16_t)len;
	d.rsvd1 = 1;
	tx_desc(&e, &q, &d);		/* reserved */
	d.rsvd1 = 0;
	d.flags = WREN_ETH_TX_F_EOP | 0x100;
	tx_desc(&e, &q, &d);		/* unknown flag */
	d.flags = WREN_ETH_TX_F_EOP;
	d.len = 10;
	tx_desc(&e, &q, &d);		/* shorter than a header */
	d.len = (uint16_t)len;
	tx_desc(&e, &q, &d);		/* good */
	e.d->h->tx_frames = 0;
	q_ring(&e, &q);
	ok = true;
	for (int i = 0; i < 4; i++)
		ok = ok && cq_poll(&e, &e.cq, &c) &&
		     c.status == WREN_WQ_SYND_BAD_WQE && c.desc_idx == i;
	ok = ok && cq_poll(&e, &e.cq, &c) && !c.status && c.desc_idx == 4 &&
	     e.d->h->tx_frames == 1;
	tap_ok(ok, "TX: zero length, reserved bits, unknown flag, runt -> "
	       "BAD_WQE each; the queue goes on");

	/* Non-TSO packet bigger than the largest frame. */
	{
		uint32_t frags[3] = { 4000, 4000, 1100 };
		static uint8_t big[9100];

		memcpy(big, pkt, len);
		tx_packet(&e, &q, big, frags, 3, NULL);
		q_ring(&e, &q);
		ok = cq_poll(&e, &e.cq, &c) &&
		     c.status == WREN_WQ_SYND_BAD_WQE && e.d->h->tx_frames == 1;
		tap_ok(ok, "TX: 9100-byte packet without TSO -> BAD_WQE");
	}
	/* Buffer DMA fault: DMA status, queue goes on. */
	th_fault_add(e.d->h, buf, 64, true, false);
	d.flags = WREN_ETH_TX_F_EOP;
	tx_desc(&e, &q, &d);
	q_ring(&e, &q);
	th_fault_clear(e.d->h);
	ok = cq_poll(&e, &e.cq, &c) && c.status == WREN_WQ_SYND_DMA;
	tx_desc(&e, &q, &d);
	q_ring(&e, &q);
	ok = ok && cq_poll(&e, &e.cq, &c) && !c.status;
	tap_ok(ok, "TX: buffer DMA fault -> DMA completion; the queue goes on");
	tap_ok(counter(&e, WREN_COUNTERS_PORT, 0, WREN_CNT_TX_ERRORS) == 6,
	       "TX: tx_errors counts the six failed packets");

	/* 65 descriptors without EOP: boundary lost, queue stops. */
	d.flags = 0;
	d.len = 10;
	for (int i = 0; i < 65; i++)
		tx_desc(&e, &q, &d);
	q_ring(&e, &q);
	ok = cq_poll(&e, &e.cq, &c) && c.status == WREN_WQ_SYND_BAD_WQE &&
	     td_aeq_count(e.d, WREN_EVENT_ETH_QUEUE_ERR) == 1;
	d.flags = WREN_ETH_TX_F_EOP;
	d.len = (uint16_t)len;
	tx_desc(&e, &q, &d);
	e.d->h->tx_frames = 0;
	q_ring(&e, &q);
	ok = ok && e.d->h->tx_frames == 0 && !cq_poll(&e, &e.cq, &c);
	tap_ok(ok, "TX: too many fragments -> BAD_WQE, ETH_QUEUE_ERR, queue "
	       "stopped");
	tap_ok(td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_ETH_TXQ, q.id, NULL,
			     0).status == 0, "the stopped queue can be destroyed");

	/* A two-entry ring full without EOP also stops (never hangs). */
	mk_q(&e, false, e.cq.id, 1, &q);
	d.flags = 0;
	tx_desc(&e, &q, &d);
	tx_desc(&e, &q, &d);
	q_ring(&e, &q);
	tap_ok(td_aeq_count(e.d, WREN_EVENT_ETH_QUEUE_ERR) == 1 &&
	       cq_poll(&e, &e.cq, &c) && c.status == WREN_WQ_SYND_BAD_WQE,
	       "TX: a whole ring without EOP -> queue error");
	env_fini(&e);
}

static void ring_faults(void)
{
	struct tenv e;
	struct tq q, rq;
	struct wren_eth_cqe c;
	struct wren_eth_rx_desc rd;
	struct wren_eqe ev;
	bool ok, seen = false;
	uint64_t buf;
	uint32_t len = small_frame();

	env_init(&e);
	/* TX descriptor ring unreadable. */
	mk_q(&e, false, e.cq.id, 4, &q);
	th_fault_add(e.d->h, q.ring, 4096, true, false);
	send_n(&e, &q, 1);
	th_fault_clear(e.d->h);
	while (td_aeq_poll(e.d, &ev))
		if (ev.type == WREN_EVENT_ETH_QUEUE_ERR &&
		    ev.sub == WREN_WQ_SYND_DMA && ev.data == q.id)
			seen = true;
	tap_ok(seen, "TX ring DMA fault -> ETH_QUEUE_ERR / DMA");

	/* Doorbell beyond the ring. */
	mk_q(&e, false, e.cq.id, 4, &q);
	th_db_write(e.d->h, 0, WREN_DB_ETH_TX, WREN_DB_VAL(q.id, 0, 17));
	seen = false;
	while (td_aeq_poll(e.d, &ev))
		if (ev.type == WREN_EVENT_ETH_QUEUE_ERR &&
		    ev.sub == WREN_WQ_SYND_BAD_INDEX && ev.data == q.id)
			seen = true;
	e.d->h->tx_frames = 0;
	send_n(&e, &q, 1);
	tap_ok(seen && e.d->h->tx_frames == 0,
	       "TX doorbell 17 on a 16-entry ring -> BAD_INDEX, queue stopped");

	/* RX: malformed descriptor and buffer DMA fault. */
	mk_q(&e, true, e.cq.id, 4, &rq);
	memset(&rd, 0, sizeof(rd));
	rd.addr = td_alloc(e.d, 2048, 64);
	rd.len = 0;
	th_mem_write(e.d->h, rq.ring, &rd, sizeof(rd));
	rq.pi = 1;
	q_ring(&e, &rq);
	ok = !wrenhw_rx_frame(e.d->h->hw, pkt, len) &&
	     td_aeq_count(e.d, WREN_EVENT_ETH_QUEUE_ERR) == 1;
	tap_ok(ok, "RX descriptor with length 0 -> ETH_QUEUE_ERR");
	td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_ETH_RXQ, rq.id, NULL, 0);
	mk_q(&e, true, e.cq.id, 4, &rq);
	buf = rx_post_n(&e, &rq, 2, 2048);
	th_fault_add(e.d->h, buf, 64, false, true);
	ok = !wrenhw_rx_frame(e.d->h->hw, pkt, len) &&
	     cq_poll(&e, &e.cq, &c) && c.status == WREN_WQ_SYND_DMA &&
	     (c.flags & WREN_ETH_RX_F_EOP);
	th_fault_clear(e.d->h);
	ok = ok && td_aeq_count(e.d, WREN_EVENT_ETH_QUEUE_ERR) == 1 &&
	     !wrenhw_rx_frame(e.d->h->hw, pkt, len);
	tap_ok(ok, "RX buffer DMA fault -> DMA completion, queue stopped");
	env_fini(&e);
}

static void destroy_pending(void)
{
	struct tenv e;
	struct tq q;
	uint32_t one[1] = { small_frame() };

	env_init(&e);
	mk_q(&e, false, e.cq.id, 6, &q);
	for (int i = 0; i < 10; i++)
		tx_packet(&e, &q, pkt, one, 1, NULL);
	th_db_write(e.d->h, 0, WREN_DB_ETH_TX, WREN_DB_VAL(q.id, 0, q.pi));
	e.d->h->tx_frames = 0;
	/* The AQ runs first in the same process() call: TX finds no queue. */
	tap_ok(td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_ETH_TXQ, q.id, NULL,
			     0).status == 0 && e.d->h->tx_frames == 0,
	       "destroy a TX queue with 10 packets pending: none sent");
	th_run(e.d->h);
	tap_ok(cq_drain(&e, &e.cq) == 0 &&
	       td_handle_cmd(e.d, WREN_AQ_OP_DESTROY_CQ, e.cq.id, NULL,
			     0).status == 0,
	       "no completion for a destroyed queue; its CQ can go");
	/* A new queue in the same slot starts clean. */
	mk_cq(&e, 6, 0, 0, &e.cq);
	mk_q(&e, false, e.cq.id, 6, &q);
	send_n(&e, &q, 1);
	tap_ok(e.d->h->tx_frames == 1 && cq_drain(&e, &e.cq) == 1,
	       "a successor queue in the same slot works from index 0");
	env_fini(&e);
}

void test_eth_err(void)
{
	moderation();
	eq_moderation();
	link_down();
	bad_descs();
	ring_faults();
	destroy_pending();
}
