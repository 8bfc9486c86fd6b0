/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Test helpers for the Ethernet engine: a driver-side view of CQs and
 * Ethernet queues (rings in guest memory, doorbells, CQE polling), frame
 * builders, and an independent checksum (plain RFC 1071, byte by byte)
 * to judge the model's offloads with.
 */
#ifndef WRENHW_TEST_ETH_UTIL_H
#define WRENHW_TEST_ETH_UTIL_H

#include "tests.h"

struct tcq {
	uint32_t id;
	uint64_t ring, dbrec;
	uint32_t log, ci;
};

struct tq {
	uint32_t id;
	bool rx;
	uint64_t ring;
	uint32_t log, pi;
};

struct teq {
	uint32_t id;
	uint64_t ring;
	uint32_t log, ci;
};

struct tenv {
	struct td *d;
	struct teq eq;
	struct tcq cq;
};

/* Device with link up, one EQ (vector 1, armed) and one CQ (1024). */
void env_init(struct tenv *e);
void env_fini(struct tenv *e);

int64_t mk_cq(struct tenv *e, uint32_t log, uint16_t usec, uint16_t count,
	      struct tcq *cq);
int64_t mk_q(struct tenv *e, bool rx, uint32_t cqn, uint32_t log,
	     struct tq *q);
/* A queue on a page-list ring (4 KiB pages, scattered). */
int64_t mk_q_paged(struct tenv *e, bool rx, uint32_t cqn, uint32_t log,
		   struct tq *q);

void tx_desc(struct tenv *e, struct tq *q, const struct wren_eth_tx_desc *d);
/* One descriptor per fragment of @pkt (fragment sizes in @frag). */
void tx_packet(struct tenv *e, struct tq *q, const uint8_t *pkt,
	       const uint32_t *frag, unsigned int nfrag,
	       const struct wren_eth_tx_desc *first);
void q_ring(struct tenv *e, struct tq *q);
void rx_post(struct tenv *e, struct tq *q, uint64_t addr, uint16_t len);
/* Posts @n buffers of @len bytes; returns the first buffer's address. */
uint64_t rx_post_n(struct tenv *e, struct tq *q, unsigned int n,
		   uint16_t len);

bool cq_poll(struct tenv *e, struct tcq *cq, struct wren_eth_cqe *c);
unsigned int cq_drain(struct tenv *e, struct tcq *cq);
void cq_arm(struct tenv *e, struct tcq *cq);
unsigned int eq_count(struct tenv *e);
void eq_arm(struct tenv *e);

uint64_t counter(struct tenv *e, uint8_t set, uint32_t index, unsigned int n);
int set_port(struct tenv *e, uint32_t mask, uint16_t mtu, uint8_t admin,
	     const uint8_t *mac);

/* Frame builders; return the frame length. */
struct fspec {
	const uint8_t *dst;	/* NULL: the device's MAC */
	bool ipv6, udp;
	uint8_t saddr[16], daddr[16];	/* IPv4 in the first 4 bytes */
	uint16_t sport, dport;
	uint32_t seq;
	uint8_t tcp_flags;
	uint32_t payload;
	uint8_t seed;
};

uint32_t build_frame(uint8_t *f, const struct fspec *s);
void fill_csums(uint8_t *f, uint32_t len);	/* correct checksums */
bool ip4_csum_good(const uint8_t *ip);
bool l4_csum_good(const uint8_t *f, uint32_t len);

extern const uint8_t dev_mac[6];

#endif
