/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Wren NIC Ethernet half: the netdev, its channels and their rings. */
#ifndef _WREN_EN_H
#define _WREN_EN_H

#include <linux/etherdevice.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/netdevice.h>
#include <linux/u64_stats_sync.h>
#include <linux/wren/wren_queues.h>

#include "wren.h"

#define WREN_ETH_DEF_TX_RING	512
/* 512 RX buffers ran dry under a single TCP stream in the bench (the
 * receiver drops, TCP retransmits); 1024 did not.
 */
#define WREN_ETH_DEF_RX_RING	1024
#define WREN_ETH_MIN_RING	64
#define WREN_ETH_MAX_RING	4096
#define WREN_ETH_EQ_LOG_SIZE	8	/* one CQ per EQ: a page is plenty */
#define WREN_ETH_MAX_CHANNELS	64
/* A TX queue stopped this long is stalled.  TCG guests on a busy host can
 * go seconds without running: well above the stack's 5 s default.
 */
#define WREN_ETH_TX_TIMEOUT	(15 * HZ)

/* RX buffers are whole pages: headroom for the stack, then the frame, then
 * room for skb_shared_info so that the first buffer becomes the skb head.
 */
#define WREN_RX_HEADROOM	(NET_SKB_PAD + NET_IP_ALIGN)
#define WREN_RX_BUF_LEN		(PAGE_SIZE - WREN_RX_HEADROOM - \
				 SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))

/* A TX descriptor slot: what to unmap, and the skb on the packet's EOP. */
struct wren_tx_buf {
	struct sk_buff *skb;
	dma_addr_t dma;
	u16 len;
	bool is_frag;		/* mapped as a page, not the linear head */
};

struct wren_rx_buf {
	struct page *page;
	dma_addr_t dma;		/* of WREN_RX_BUF_LEN at WREN_RX_HEADROOM */
};

/* Each counter set has exactly one writer context, as u64_stats needs:
 * TX completions and RX are counted by the channel's NAPI poll, the
 * transmit side by ndo_start_xmit under the queue's xmit lock (and by
 * ndo_tx_timeout, which runs while the stack holds every queue frozen).
 */
struct wren_queue_stats {
	struct u64_stats_sync syncp;
	u64 packets;
	u64 bytes;
	u64 errors;		/* TX: completions with an error; RX: bad CQEs */
	u64 dropped;		/* RX: no memory for the skb */
	u64 csum;		/* RX: CHECKSUM_UNNECESSARY */
	u64 wake;		/* TX: queue woken */
	u64 alloc_fail;		/* RX: page_pool ran dry */
};

struct wren_xmit_stats {
	struct u64_stats_sync syncp;
	u64 dropped;		/* unmappable or unusable packets */
	u64 busy;		/* ring full at xmit */
	u64 csum;		/* checksum offload asked for */
	u64 tso;		/* TSO packets */
	u64 timeouts;		/* the stack's watchdog found the queue stalled */
};

struct wren_channel {
	struct wren_eth_priv *priv;
	struct napi_struct napi;
	unsigned int index;
	struct device *dmadev;

	/* Completion EQ on MSI-X vector index + 1. */
	struct wren_eq eq;
	int irq;
	bool irq_requested;
	char irq_name[48];

	/* One CQ for both the TX and the RX completions of the channel. */
	struct wren_eth_cqe *cq;
	dma_addr_t cq_dma;
	unsigned int cq_log_size;
	u32 cq_ci;
	u32 cqn;
	bool cq_live;
	struct wren_cq_dbrec *dbrec;
	dma_addr_t dbrec_dma;

	/* TX queue: pi is written by xmit, ci by NAPI. */
	struct wren_eth_tx_desc *tx_ring;
	dma_addr_t tx_dma;
	struct wren_tx_buf *tx_bufs;
	unsigned int tx_size;
	u32 tx_pi;
	u32 tx_ci;
	u32 txqn;
	bool txq_live;
	struct netdev_queue *nq;
	struct wren_queue_stats tx_stats;
	struct wren_xmit_stats xmit_stats;

	/* RX queue. */
	struct wren_eth_rx_desc *rx_ring;
	dma_addr_t rx_dma;
	struct wren_rx_buf *rx_bufs;
	unsigned int rx_size;
	u32 rx_pi;
	u32 rx_ci;
	u32 rxqn;
	bool rxq_live;
	struct page_pool *pool;
	struct sk_buff *rx_skb;		/* frame spanning several buffers */
	struct wren_queue_stats rx_stats;
};

struct wren_eth_priv {
	struct wren_dev *wdev;
	struct net_device *netdev;
	struct wren_channel *chans;
	unsigned int num_chans;		/* live channels while open */
	bool chans_open;		/* a failed reopen leaves them closed */
	unsigned int max_chans;
	unsigned int req_chans;		/* ethtool -L */
	unsigned int tx_ring_size;
	unsigned int rx_ring_size;
	bool rss_on;
	u8 rss_key[WREN_RSS_KEY_SIZE];
	u32 rss_table[WREN_RSS_TABLE_MAX];
	u8 rss_hash_types;		/* WREN_RSS_HASH_*, ethtool -N rx-flow-hash */
	u16 cq_mod_usec;
	u16 cq_mod_count;
	u32 speed_mbps;
	struct work_struct rx_mode_work;
	/* A stalled TX queue is recovered by reopening the channels. */
	struct work_struct tx_timeout_work;
	u64 tx_timeout_resets;		/* reopens done by tx_timeout_work */
};

static inline u32 wren_tx_free(const struct wren_channel *ch)
{
	return ch->tx_size - (READ_ONCE(ch->tx_pi) - READ_ONCE(ch->tx_ci));
}

/* Publish the CQ consumer index and ask for an event for the next entry;
 * the device raises one at once if entries are already waiting.  Both the
 * channel setup and the NAPI poll ring it, hence here.
 */
static inline void wren_cq_arm(struct wren_channel *ch)
{
	/* Finish reading the entries before the device may reuse them. */
	mb();
	WRITE_ONCE(ch->dbrec->ci, cpu_to_le32(ch->cq_ci));
	writeq(WREN_DB_VAL(ch->cqn, WREN_DB_CQ_ARM_NEXT, ch->cq_ci),
	       ch->priv->wdev->db + WREN_DB_CQ);
}

/* Room for the largest packet xmit may be given: head + every fragment. */
#define WREN_TX_WAKE_THRESH	(MAX_SKB_FRAGS + 2)

#define WREN_RSS_HASH_DEFAULT	(WREN_RSS_HASH_IPV4 | WREN_RSS_HASH_TCP_IPV4 | \
				 WREN_RSS_HASH_UDP_IPV4 | WREN_RSS_HASH_IPV6 | \
				 WREN_RSS_HASH_TCP_IPV6 | WREN_RSS_HASH_UDP_IPV6)

/* wren_en_main.c (probe, remove and port events: wren.h) */
int wren_eth_reconfigure(struct wren_eth_priv *priv, unsigned int chans,
			 unsigned int tx_size, unsigned int rx_size);

/* wren_en_port.c */
int wren_eth_set_rss(struct wren_eth_priv *priv, bool on);
int wren_eth_query_port(struct wren_eth_priv *priv, struct wren_port_attr *out);
int wren_eth_set_port(struct wren_eth_priv *priv, struct wren_set_port_in *in);
int wren_eth_set_rx_filter(struct wren_eth_priv *priv,
			   const struct wren_set_rx_mode_in *in);

/* wren_en_queues.c */
int wren_eth_open_channels(struct wren_eth_priv *priv);
void wren_eth_close_channels(struct wren_eth_priv *priv);
int wren_eth_modify_cq(struct wren_eth_priv *priv);

/* wren_en_tx.c */
netdev_tx_t wren_start_xmit(struct sk_buff *skb, struct net_device *netdev);
void wren_tx_complete(struct wren_channel *ch, const struct wren_eth_cqe *cqe,
		      int budget, unsigned int *pkts, unsigned int *bytes);
void wren_tx_free_all(struct wren_channel *ch);
void wren_tx_timeout(struct net_device *netdev, unsigned int txqueue);

/* wren_en_rx.c */
int wren_rx_pool_create(struct wren_channel *ch);
void wren_rx_pool_destroy(struct wren_channel *ch);
bool wren_rx_refill(struct wren_channel *ch, gfp_t gfp);
int wren_rx_complete(struct wren_channel *ch, const struct wren_eth_cqe *cqe);
void wren_rx_free_all(struct wren_channel *ch);
int wren_napi_poll(struct napi_struct *napi, int budget);

/* wren_en_dcbnl.c */
#ifdef CONFIG_DCB
void wren_dcbnl_setup(struct wren_eth_priv *priv);
#else
static inline void wren_dcbnl_setup(struct wren_eth_priv *priv) {}
#endif

/* wren_en_ethtool.c */
extern const struct ethtool_ops wren_ethtool_ops;

#endif /* _WREN_EN_H */
