// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Driver-side helpers for the Ethernet engine tests (eth_util.h). */
#include <stdlib.h>

#include "eth_util.h"
#include "wrenhw_int.h"

const uint8_t dev_mac[6] = { 0x02, 0x00, 0x00, 0x57, 0x52, 0x01 };

static void wr16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint32_t rd16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

int64_t mk_cq(struct tenv *e, uint32_t log, uint16_t usec, uint16_t count,
	      struct tcq *cq)
{
	struct wren_create_cq_in in;
	struct td_res r;

	memset(&in, 0, sizeof(in));
	memset(cq, 0, sizeof(*cq));
	cq->log = log;
	cq->ring = td_alloc(e->d, (uint64_t)WREN_CQE_SIZE << log, 4096);
	cq->dbrec = td_alloc(e->d, 8, 8);
	/* As a driver does: no stale entry may look valid. */
	for (uint32_t i = 0; i < (1u << log); i++) {
		static const uint8_t zero[WREN_CQE_SIZE];

		th_mem_write(e->d->h, cq->ring + (uint64_t)i * WREN_CQE_SIZE,
			     zero, sizeof(zero));
	}
	th_mem_write(e->d->h, cq->dbrec, &cq->ci, 4);
	in.ring.addr = cq->ring;
	in.ring.page_shift = 12;
	in.dbrec_addr = cq->dbrec;
	in.eqn = e->eq.id;
	in.log_size = (uint8_t)log;
	in.moderation_usec = usec;
	in.moderation_count = count;
	r = td_cmd(e->d, WREN_AQ_OP_CREATE_CQ, NULL, 0, &in, sizeof(in), NULL,
		   0);
	if (!r.completed || r.status)
		return -(int64_t)(r.status ? r.status : 99);
	cq->id = (uint32_t)r.result;
	return cq->id;
}

static int64_t create_q(struct tenv *e, bool rx, uint32_t cqn, uint32_t log,
			struct tq *q, struct wren_create_eth_q_in *in)
{
	struct td_res r;

	in->cqn = cqn;
	in->log_size = (uint8_t)log;
	r = td_cmd(e->d, rx ? WREN_AQ_OP_CREATE_ETH_RXQ :
		   WREN_AQ_OP_CREATE_ETH_TXQ, NULL, 0, in, sizeof(*in), NULL,
		   0);
	if (!r.completed || r.status)
		return -(int64_t)(r.status ? r.status : 99);
	q->id = (uint32_t)r.result;
	return q->id;
}

int64_t mk_q(struct tenv *e, bool rx, uint32_t cqn, uint32_t log,
	     struct tq *q)
{
	struct wren_create_eth_q_in in;
	uint32_t esz = rx ? 16 : 32;

	memset(&in, 0, sizeof(in));
	memset(q, 0, sizeof(*q));
	q->rx = rx;
	q->log = log;
	q->ring = td_alloc(e->d, (uint64_t)esz << log, 4096);
	in.ring.addr = q->ring;
	in.ring.page_shift = 12;
	return create_q(e, rx, cqn, log, q, &in);
}

int64_t mk_q_paged(struct tenv *e, bool rx, uint32_t cqn, uint32_t log,
		   struct tq *q)
{
	struct wren_create_eth_q_in in;
	uint32_t esz = rx ? 16 : 32;
	uint64_t bytes = (uint64_t)esz << log;
	uint32_t np = (uint32_t)((bytes + 4095) / 4096);
	uint64_t list = td_alloc(e->d, (uint64_t)np * 8, 8);

	memset(&in, 0, sizeof(in));
	memset(q, 0, sizeof(*q));
	q->rx = rx;
	q->log = log;
	q->ring = 0;
	/* Pages in reverse order, with gaps: nothing contiguous. */
	for (uint32_t i = 0; i < np; i++) {
		uint64_t pg;

		td_alloc(e->d, 4096, 4096);
		pg = td_alloc(e->d, 4096, 4096);
		th_mem_write(e->d->h, list + (uint64_t)(np - 1 - i) * 8, &pg,
			     8);
	}
	in.ring.addr = list;
	in.ring.npages = np;
	in.ring.page_shift = 12;
	return create_q(e, rx, cqn, log, q, &in);
}

/* Bus address of slot @idx of a queue (contiguous or paged). */
static uint64_t slot_addr(struct tenv *e, struct tq *q, uint32_t idx)
{
	uint32_t esz = q->rx ? 16 : 32;
	uint64_t off = (uint64_t)(idx & ((1u << q->log) - 1)) * esz;

	if (q->ring)
		return q->ring + off;
	{
		/* Paged: read the model's copy of the list. */
		struct whw_eth_q *mq = whw_table_get(q->rx ? &e->d->h->hw->rxqs
						     : &e->d->h->hw->txqs,
						     q->id);

		return whw_ring_addr(&mq->ring, off);
	}
}

void tx_desc(struct tenv *e, struct tq *q, const struct wren_eth_tx_desc *d)
{
	th_mem_write(e->d->h, slot_addr(e, q, q->pi), d, sizeof(*d));
	q->pi++;
}

void tx_packet(struct tenv *e, struct tq *q, const uint8_t *pkt,
	       const uint32_t *frag, unsigned int nfrag,
	       const struct wren_eth_tx_desc *first)
{
	uint32_t off = 0;

	for (unsigned int i = 0; i < nfrag; i++) {
		struct wren_eth_tx_desc d;
		uint64_t buf = td_alloc(e->d, frag[i] ? frag[i] : 1, 64);

		memset(&d, 0, sizeof(d));
		if (i == 0 && first)
			d = *first;
		th_mem_write(e->d->h, buf, pkt + off, frag[i]);
		d.addr = buf;
		d.len = (uint16_t)frag[i];
		if (i + 1 == nfrag)
			d.flags |= WREN_ETH_TX_F_EOP;
		tx_desc(e, q, &d);
		off += frag[i];
	}
}

void q_ring(struct tenv *e, struct tq *q)
{
	th_db_write(e->d->h, 0, q->rx ? WREN_DB_ETH_RX : WREN_DB_ETH_TX,
		    WREN_DB_VAL(q->id, 0, q->pi));
	th_run(e->d->h);
}

void rx_post(struct tenv *e, struct tq *q, uint64_t addr, uint16_t len)
{
	struct wren_eth_rx_desc d;

	memset(&d, 0, sizeof(d));
	d.addr = addr;
	d.len = len;
	th_mem_write(e->d->h, slot_addr(e, q, q->pi), &d, sizeof(d));
	q->pi++;
}

uint64_t rx_post_n(struct tenv *e, struct tq *q, unsigned int n,
		   uint16_t len)
{
	uint64_t first = 0;

	for (unsigned int i = 0; i < n; i++) {
		uint64_t b = td_alloc(e->d, len, 64);

		if (!i)
			first = b;
		rx_post(e, q, b, len);
	}
	q_ring(e, q);
	return first;
}

bool cq_poll(struct tenv *e, struct tcq *cq, struct wren_eth_cqe *c)
{
	uint32_t slot = cq->ci & ((1u << cq->log) - 1);
	uint32_t ci;

	th_mem_read(e->d->h, cq->ring + (uint64_t)slot * 32, c, sizeof(*c));
	if (!wren_ring_owned(c->owner, cq->ci, cq->log))
		return false;
	cq->ci++;
	ci = cq->ci;
	th_mem_write(e->d->h, cq->dbrec, &ci, 4);
	return true;
}

unsigned int cq_drain(struct tenv *e, struct tcq *cq)
{
	struct wren_eth_cqe c;
	unsigned int n = 0;

	while (cq_poll(e, cq, &c))
		n++;
	return n;
}

void cq_arm(struct tenv *e, struct tcq *cq)
{
	th_db_write(e->d->h, 0, WREN_DB_CQ,
		    WREN_DB_VAL(cq->id, WREN_DB_CQ_ARM_NEXT, cq->ci));
}

unsigned int eq_count(struct tenv *e)
{
	unsigned int n = 0;

	for (;;) {
		struct wren_eqe q;
		uint32_t slot = e->eq.ci & ((1u << e->eq.log) - 1);

		th_mem_read(e->d->h, e->eq.ring + (uint64_t)slot * 16, &q,
			    sizeof(q));
		if (!wren_ring_owned(q.owner, e->eq.ci, e->eq.log))
			break;
		e->eq.ci++;
		n++;
	}
	th_db_write(e->d->h, 0, WREN_DB_EQ, WREN_DB_VAL(e->eq.id, 0,
							e->eq.ci));
	return n;
}

void eq_arm(struct tenv *e)
{
	th_db_write(e->d->h, 0, WREN_DB_EQ,
		    WREN_DB_VAL(e->eq.id, WREN_DB_EQ_ARM, e->eq.ci));
}

void env_init(struct tenv *e)
{
	memset(e, 0, sizeof(*e));
	e->d = td_new(NULL);
	e->eq.log = 8;
	e->eq.id = (uint32_t)td_create_eq(e->d, e->eq.log, 1, &e->eq.ring);
	mk_cq(e, 10, 0, 0, &e->cq);
	wrenhw_set_link(e->d->h->hw, true, 25000);
	td_aeq_count(e->d, WREN_EVENT_PORT_STATE);
}

void env_fini(struct tenv *e)
{
	td_free(e->d);
}

uint64_t counter(struct tenv *e, uint8_t set, uint32_t index, unsigned int n)
{
	return td_counter(e->d, set, index, n);
}

int set_port(struct tenv *e, uint32_t mask, uint16_t mtu, uint8_t admin,
	     const uint8_t *mac)
{
	struct wren_set_port_in in;

	memset(&in, 0, sizeof(in));
	in.mask = mask;
	in.mtu = mtu;
	in.admin_up = admin;
	if (mac)
		memcpy(in.mac, mac, 6);
	return td_cmd(e->d, WREN_AQ_OP_SET_PORT, NULL, 0, &in, sizeof(in),
		      NULL, 0).status;
}

/* Plain RFC 1071 over big-endian words, one at a time. */
static uint32_t sum16(uint32_t s, const uint8_t *p, uint32_t len)
{
	for (uint32_t i = 0; i + 1 < len; i += 2)
		s += rd16(p + i);
	if (len & 1)
		s += (uint32_t)p[len - 1] << 8;
	return s;
}

static uint16_t fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

bool ip4_csum_good(const uint8_t *ip)
{
	return fold(sum16(0, ip, (ip[0] & 0xfu) * 4u)) == 0xffff;
}

/* Sum of the pseudo header plus the L4 bytes; @f is an untagged frame. */
static uint32_t l4_sum(const uint8_t *f, uint32_t *l4_off, uint32_t *l4_len,
		       bool *udp)
{
	const uint8_t *ip = f + 14;
	uint32_t s = 0;
	uint8_t proto;

	if (rd16(f + 12) == 0x86dd) {
		*l4_off = 14 + 40;
		*l4_len = rd16(ip + 4);
		proto = ip[6];
		s = sum16(0, ip + 8, 32);
	} else {
		*l4_off = 14 + (ip[0] & 0xfu) * 4u;
		*l4_len = rd16(ip + 2) - (ip[0] & 0xfu) * 4u;
		proto = ip[9];
		s = sum16(0, ip + 12, 8);
	}
	*udp = proto == 17;
	s += proto + (*l4_len >> 16) + (*l4_len & 0xffff);
	return s;
}

bool l4_csum_good(const uint8_t *f, uint32_t len)
{
	uint32_t off, l4len;
	bool udp;
	uint32_t s = l4_sum(f, &off, &l4len, &udp);

	if (off + l4len > len)
		return false;
	return fold(sum16(s, f + off, l4len)) == 0xffff;
}

void fill_csums(uint8_t *f, uint32_t len)
{
	uint32_t off, l4len, s;
	bool udp;
	uint16_t c;

	(void)len;
	if (rd16(f + 12) == 0x0800) {
		f[14 + 10] = f[14 + 11] = 0;
		wr16(f + 14 + 10, (uint16_t)~fold(sum16(0, f + 14, 20)));
	}
	s = l4_sum(f, &off, &l4len, &udp);
	f[off + (udp ? 6 : 16)] = f[off + (udp ? 7 : 17)] = 0;
	c = (uint16_t)~fold(sum16(s, f + off, l4len));
	if (udp && !c)
		c = 0xffff;
	wr16(f + off + (udp ? 6 : 16), c);
}

uint32_t build_frame(uint8_t *f, const struct fspec *s)
{
	uint32_t l4h = s->udp ? 8 : 20;
	uint32_t l3h = s->ipv6 ? 40 : 20;
	uint32_t len = 14 + l3h + l4h + s->payload;
	uint8_t *ip = f + 14, *l4 = ip + l3h;
	static const uint8_t src_mac[6] = { 0x02, 0, 0, 0x57, 0x52, 0x09 };

	memset(f, 0, 14 + l3h + l4h);
	memcpy(f, s->dst ? s->dst : dev_mac, 6);
	memcpy(f + 6, src_mac, 6);
	if (s->ipv6) {
		wr16(f + 12, 0x86dd);
		ip[0] = 0x60;
		wr16(ip + 4, l4h + s->payload);
		ip[6] = s->udp ? 17 : 6;
		ip[7] = 64;
		memcpy(ip + 8, s->saddr, 16);
		memcpy(ip + 24, s->daddr, 16);
	} else {
		wr16(f + 12, 0x0800);
		ip[0] = 0x45;
		wr16(ip + 2, 20 + l4h + s->payload);
		wr16(ip + 4, 0x1234);
		ip[6] = 0x40;	/* DF */
		ip[8] = 64;
		ip[9] = s->udp ? 17 : 6;
		memcpy(ip + 12, s->saddr, 4);
		memcpy(ip + 16, s->daddr, 4);
	}
	wr16(l4, s->sport);
	wr16(l4 + 2, s->dport);
	if (s->udp) {
		wr16(l4 + 4, 8 + s->payload);
	} else {
		l4[4] = (uint8_t)(s->seq >> 24);
		l4[5] = (uint8_t)(s->seq >> 16);
		l4[6] = (uint8_t)(s->seq >> 8);
		l4[7] = (uint8_t)s->seq;
		l4[12] = 5 << 4;
		l4[13] = s->tcp_flags ? s->tcp_flags : 0x10;
		wr16(l4 + 14, 65535);
	}
	for (uint32_t i = 0; i < s->payload; i++)
		l4[l4h + i] = (uint8_t)(s->seed + i * 7 + (i >> 8));
	return len;
}
