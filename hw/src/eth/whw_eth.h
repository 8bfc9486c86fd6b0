/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The Ethernet engine's pieces: checksums, queue descriptors and
 * completions, TX offloads and segmentation, and the receive side: the
 * RX engine (eth_rx.c) and its classifier (eth_rx_classify.c).
 */
#ifndef WHW_ETH_H
#define WHW_ETH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/wren/wren_hw.h>

#include "../whw_objects.h"
#include "wrenhw.h"

/* eth_csum.c: 16-bit ones' complement sums, in memory byte order. */
uint64_t whw_csum_add(uint64_t sum, const void *p, size_t len);
uint16_t whw_csum_fold(uint64_t sum);	/* not inverted */
/* Sum of the TCP/UDP pseudo-header for the IP header at @ip. */
uint64_t whw_csum_pseudo(const uint8_t *ip, bool ipv6, uint8_t proto,
			 uint32_t l4_len);

/* eth_queue.c: descriptor reads and completions shared by TX and RX. */
const void *whw_ethq_desc(struct wrenhw *hw, struct whw_eth_q *q,
			  uint32_t idx);
void whw_ethq_error(struct wrenhw *hw, struct whw_eth_q *q, uint8_t synd);
void whw_ethq_complete(struct wrenhw *hw, struct whw_eth_q *q,
		       struct wren_eth_cqe *cqe);
bool whw_link_active(const struct wrenhw *hw);

/*
 * eth_tx.c, eth_offload.c, eth_emit.c.  @prio is what the TX engine read
 * from the packet's first descriptor (the tag's PCP, else
 * WREN_ETH_TX_F_PRIO's prio, else the queue's) and carries down with the
 * packet; under DSCP trust whw_eth_emit() may still pick an untagged IP
 * packet's DSCP's.
 */
void whw_eth_tx_process(struct wrenhw *hw);
uint8_t whw_eth_tx_offload(struct wrenhw *hw, struct whw_eth_q *q,
			   const struct wren_eth_tx_desc *d, uint8_t prio,
			   uint8_t *pkt, uint32_t len);
void whw_eth_emit(struct wrenhw *hw, struct whw_eth_q *q,
		  const struct wren_eth_tx_desc *d, uint8_t prio,
		  uint8_t *frame, uint32_t len);

/* Offsets of a TX packet's headers, validated (eth_offload.c). */
struct whw_l34 {
	uint32_t l3, l4;
	uint32_t l4_hlen;	/* TCP: doff * 4; UDP: 8 */
	bool ipv6, udp;
};

uint8_t whw_eth_tso(struct wrenhw *hw, struct whw_eth_q *q,
		    const struct wren_eth_tx_desc *d, uint8_t prio,
		    const struct whw_l34 *h, uint8_t *pkt, uint32_t len);
void whw_tcp_udp_csum(uint8_t *pkt, const struct whw_l34 *h,
		      uint32_t l4_len);
void whw_ipv4_csum(uint8_t *ip);

/* eth_rx.c: a frame the receive buffers hand on; false if dropped. */
bool whw_eth_rx(struct wrenhw *hw, const uint8_t *f, size_t len);

/* What the RX engine learns from a frame (eth_rx_classify.c). */
struct whw_rx_info {
	uint16_t flags;		/* WREN_ETH_RX_F_* */
	uint16_t vlan_tci;
	uint32_t hash;
	const uint8_t *addrs;	/* source then destination address */
	uint32_t addr_len;	/* 8 (IPv4) or 32 (IPv6) */
	const uint8_t *ports;	/* source then destination port, or NULL */
};

/* @f is an untagged frame of @len >= WHW_ETH_HLEN bytes. */
void whw_rx_classify(struct whw_rx_info *ri, const uint8_t *f, uint32_t len);
struct whw_eth_q *whw_rx_pick_queue(struct wrenhw *hw,
				    struct whw_rx_info *ri);
/* The Toeplitz hash of RSS over @len bytes of @in with @key. */
uint32_t whw_toeplitz(const uint8_t *key, const uint8_t *in, size_t len);

#endif
