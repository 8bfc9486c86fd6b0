/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Between the RX engine (eth_rx.c) and its classifier (eth_rx_classify.c). */
#ifndef WRENHW_ETH_RX_H
#define WRENHW_ETH_RX_H

#include "whw_objects.h"

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

#endif
