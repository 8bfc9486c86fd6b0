// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <stdlib.h>

#include "roce/whw_roce.h"
#include "roce_util.h"
#include "wrenhw_int.h"

#define RO_CAPS	(WHW_CAPS | WREN_CAP_RDMA_RC | WREN_CAP_RDMA_UD | \
		 WREN_CAP_RDMA_SRQ | WREN_CAP_RDMA_ATOMIC | \
		 WREN_CAP_RDMA_GSI | WREN_CAP_RDMA_SEND_INV | \
		 WREN_CAP_RDMA_RESERVED_LKEY | WREN_CAP_RDMA_FAST_REG | \
		 WREN_CAP_RDMA_MR_INVALIDATE | WREN_CAP_RDMA_UC)

static void tx_hook(void *ctx, const void *frame, size_t len)
{
	struct ro_hook *hk = ctx;
	struct ro_pair *p = hk->p;
	struct ro_frame *f;

	if (p->watch)
		p->watch(p->watch_ctx, hk->from, false, frame, len);
	if (p->qlen >= RO_MAX_QUEUE)
		return;		/* the "switch" is full: lost */
	f = &p->q[(p->qhead + p->qlen) % RO_MAX_QUEUE];
	f->data = malloc(len);
	if (!f->data)
		return;
	memcpy(f->data, frame, len);
	f->len = len;
	f->to = !hk->from;
	p->qlen++;
}

void ro_pair_init(struct ro_pair *p)
{
	ro_pair_init_clock(p, false);
}

void ro_pair_init_clock(struct ro_pair *p, bool discrete)
{
	memset(p, 0, sizeof(*p));
	p->q = calloc(RO_MAX_QUEUE, sizeof(*p->q));
	p->only_from = -1;
	p->ce_from = -1;
	p->rng = 0x2545f491;
	for (int i = 0; i < 2; i++) {
		struct ro_node *n = &p->n[i];
		struct wrenhw_config cfg;
		uint8_t gid4[16] = { 0 }, gid6[16] = { 0 };

		memset(&cfg, 0, sizeof(cfg));
		cfg.mac[0] = 0x02;
		cfg.mac[3] = 0x57;
		cfg.mac[4] = 0x52;
		cfg.mac[5] = (uint8_t)(i + 1);
		cfg.discrete_clock = discrete;
		gid4[10] = gid4[11] = 0xff;
		gid4[12] = 10;
		gid4[15] = (uint8_t)(i + 1);
		gid6[0] = 0xfe;
		gid6[1] = 0x80;
		gid6[15] = (uint8_t)(i + 1);
		if (ro_node_init(n, &cfg, gid4, gid6))
			abort();
		whw_test_set_caps(n->d->h->hw, RO_CAPS);
		wrenhw_set_link(n->d->h->hw, true, RO_LINK_MBPS);
		p->hk[i].p = p;
		p->hk[i].from = i;
		n->d->h->tx_hook = tx_hook;
		n->d->h->tx_ctx = &p->hk[i];
		td_aeq_count(n->d, 0xff);	/* forget the link's event */
	}
}

void ro_pair_fini(struct ro_pair *p)
{
	while (p->qlen) {
		free(p->q[p->qhead].data);
		p->qhead = (p->qhead + 1) % RO_MAX_QUEUE;
		p->qlen--;
	}
	free(p->q);
	ro_node_fini(&p->n[0]);
	ro_node_fini(&p->n[1]);
}

int ro_queued_opcode(struct ro_pair *p, unsigned int i)
{
	const struct ro_frame *f;
	uint32_t off;

	if (i >= p->qlen)
		return -1;
	f = &p->q[(p->qhead + i) % RO_MAX_QUEUE];
	off = 14 + ((f->data[12] == 0x08) ? 20 : 40) + 8;
	return off < f->len ? f->data[off] : -1;
}

/* Marks an ECT IPv4/IPv6 frame CE, as a switch above its ECN threshold. */
static void mark_ce(struct ro_pair *p, struct ro_frame *f, int from)
{
	uint32_t l3 = 14, sum = 0;
	uint8_t *ip;

	if (!p->ce_next || (p->ce_from >= 0 && from != p->ce_from))
		return;
	if (f->len >= 18 && f->data[12] == 0x81 && f->data[13] == 0)
		l3 = 18;
	if (f->len < l3 + 40)
		return;
	ip = f->data + l3;
	if (f->data[l3 - 2] == 0x08 && f->data[l3 - 1] == 0) {
		if (!(ip[1] & 3))
			return;
		ip[1] |= 3;
		ip[10] = ip[11] = 0;
		for (int i = 0; i < 20; i += 2)
			sum += (uint32_t)ip[i] << 8 | ip[i + 1];
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		ip[10] = (uint8_t)(~sum >> 8);
		ip[11] = (uint8_t)~sum;
	} else if (f->data[l3 - 2] == 0x86 && f->data[l3 - 1] == 0xdd) {
		if (!(ip[1] & 0x30))
			return;
		ip[1] |= 0x30;
	} else {
		return;
	}
	p->ce_next--;
	p->ce_marked++;
}

static bool lose(struct ro_pair *p, struct ro_frame *f, int from)
{
	if (p->only_from >= 0 && from != p->only_from)
		return false;
	p->sent++;
	if (p->drop_opcode_n) {
		int op;
		uint32_t off = 14 + ((f->data[12] == 0x08) ? 20 : 40) + 8;

		op = off < f->len ? f->data[off] : -1;
		if (op == p->drop_opcode) {
			p->drop_opcode_n--;
			return true;
		}
	}
	if (p->drop_next) {
		p->drop_next--;
		return true;
	}
	if (p->drop_every) {
		/* Random, not periodic: a period can alias with the protocol. */
		p->rng ^= p->rng << 13;
		p->rng ^= p->rng >> 17;
		p->rng ^= p->rng << 5;
		if (p->rng % p->drop_every == 0)
			return true;
	}
	if (p->corrupt_next && f->len > 20) {
		p->corrupt_next--;
		f->data[f->len - 6] ^= 0x40;
	}
	return false;
}

void ro_step(struct ro_pair *p, int node)
{
	while (p->qlen) {
		struct ro_frame f = p->q[p->qhead];

		p->qhead = (p->qhead + 1) % RO_MAX_QUEUE;
		p->qlen--;
		wrenhw_rx_frame(p->n[f.to].d->h->hw, f.data, f.len);
		p->delivered++;
		free(f.data);
	}
	if (node >= 0 && p->n[node].d->h->scheduled) {
		struct th *h = p->n[node].d->h;

		h->scheduled = false;
		h->process_calls++;
		wrenhw_process(h->hw);
	}
}

void ro_settle(struct ro_pair *p, uint64_t max_ns)
{
	struct th *h0 = p->n[0].d->h, *h1 = p->n[1].d->h;
	uint64_t end = h0->now_ns + max_ns;

	for (unsigned int it = 0; it < 1000000; it++) {
		bool moved = false;

		while (p->qlen && !p->hold) {
			struct ro_frame f = p->q[p->qhead];

			p->qhead = (p->qhead + 1) % RO_MAX_QUEUE;
			p->qlen--;
			mark_ce(p, &f, !f.to);
			if (!lose(p, &f, !f.to)) {
				if (p->watch)
					p->watch(p->watch_ctx, !f.to, true,
						 f.data, f.len);
				wrenhw_rx_frame(p->n[f.to].d->h->hw, f.data,
						f.len);
				p->delivered++;
			}
			free(f.data);
			moved = true;
		}
		for (int i = 0; i < 2; i++) {
			if (p->n[i].d->h->scheduled) {
				th_run(p->n[i].d->h);
				moved = true;
			}
		}
		if (moved)
			continue;
		{
			uint64_t dl = h0->timer_deadline < h1->timer_deadline ?
				      h0->timer_deadline : h1->timer_deadline;

			if (dl == UINT64_MAX || dl > end || p->hold)
				return;
			if (dl < h0->now_ns)
				dl = h0->now_ns;
			th_advance(h0, dl - h0->now_ns);
			th_advance(h1, dl - h1->now_ns);
		}
	}
}

void ro_advance(struct ro_pair *p, uint64_t ns)
{
	th_advance(p->n[0].d->h, ns);
	th_advance(p->n[1].d->h, ns);
}

uint8_t *ro_frame_v4(uint8_t *f, uint32_t l3, const uint8_t *dmac,
		     const uint8_t *smac, const uint8_t *sip,
		     const uint8_t *dip, uint16_t sport)
{
	uint8_t *ip = f + 14, *udp = ip + 20;

	memset(f, 0, 14 + l3);
	memcpy(f, dmac, 6);
	memcpy(f + 6, smac, 6);
	f[12] = 0x08;
	ip[0] = 0x45;
	ip[2] = (uint8_t)(l3 >> 8);
	ip[3] = (uint8_t)l3;
	ip[8] = 64;
	ip[9] = 17;
	memcpy(ip + 12, sip, 4);
	memcpy(ip + 16, dip, 4);
	udp[0] = (uint8_t)(sport >> 8);
	udp[1] = (uint8_t)sport;
	udp[2] = (uint8_t)(WHW_ROCE_PORT >> 8);
	udp[3] = (uint8_t)WHW_ROCE_PORT;
	udp[4] = (uint8_t)((l3 - 20) >> 8);
	udp[5] = (uint8_t)(l3 - 20);
	return udp + 8;
}

uint8_t *ro_mr_pattern(struct ro_mr *mr, uint64_t off, uint32_t len,
		       uint32_t seed)
{
	uint8_t *b = malloc(len ? len : 1);

	ro_fill(b, len, seed);
	ro_mr_write(mr, mr->iova + off, b, len);
	return b;
}

bool ro_mr_same(struct ro_mr *mr, uint64_t off, const uint8_t *want,
		uint32_t len)
{
	uint8_t *got = malloc(len ? len : 1);
	bool same;

	ro_mr_read(mr, mr->iova + off, got, len);
	same = !memcmp(got, want, len);
	free(got);
	return same;
}

static void fill_av(struct ro_pair *p, int side, struct wren_av *av,
		    bool ipv6)
{
	ro_fill_av(&p->n[!side], av, ipv6);
}

/* Side 0's SQ starts just below the 24-bit wrap; side 1's low. */
static uint32_t sq_psn(int side)
{
	return side ? 0x000100 : 0xfffff0;
}

int ro_connect(struct ro_pair *p, int side, struct ro_qp *qp,
	       struct ro_qp *peer, const struct ro_conn *c)
{
	return ro_connect_to(&p->n[side], qp, &p->n[!side], peer->qpn,
			     sq_psn(side), sq_psn(!side), c);
}

int64_t ro_ah_create(struct ro_pair *p, int side, bool ipv6)
{
	struct wren_create_ah_in in;

	memset(&in, 0, sizeof(in));
	in.pdn = p->n[side].pd;
	fill_av(p, side, &in.av, ipv6);
	return td_handle(td_cmd(p->n[side].d, WREN_AQ_OP_CREATE_AH, NULL, 0,
				 &in, sizeof(in), NULL, 0));
}

void ro_fill(uint8_t *b, size_t n, uint32_t seed)
{
	uint32_t x = seed * 2654435761u + 1;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		b[i] = (uint8_t)x;
	}
}
