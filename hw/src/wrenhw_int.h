/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libwrenhw internals shared by the files of hw/src.  Nothing here is seen
 * by the host: it uses hw/include/wrenhw.h only.
 *
 * Every non-static symbol is prefixed whw_ because these files are linked
 * into QEMU, whose own symbols must never collide with ours.
 */
#ifndef WRENHW_INT_H
#define WRENHW_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/wren/wren_hw.h>

#include "wrenhw.h"

/* ------------------------------------------------------ board identity */

#define WHW_FW_VERSION		0x01020003u	/* 1.2.3 */
#define WHW_FW_BUILD		20261130u
#define WHW_BOARD_ID		"WREN-MODEL"
#define WHW_RESET_TIMEOUT_MS	100u
#define WHW_AQ_TIMEOUT_MS	2000u

/* What this model really implements; see hw/README.md. */
#define WHW_CAPS		(WREN_CAP_FLR | WREN_CAP_DIAG_FAULT | \
				 WREN_CAP_COUNTERS | WREN_CAP_ETH | \
				 WREN_CAP_ETH_CSUM | WREN_CAP_ETH_TSO | \
				 WREN_CAP_ETH_RSS | WREN_CAP_ETH_VLAN | \
				 WREN_CAP_CQ_MODERATION | WHW_CAPS_RDMA)

/* What the RoCEv2 engine (roce_*.c, rc_*.c, ud_*.c) implements. */
#define WHW_CAPS_RDMA		(WREN_CAP_RDMA_RC | WREN_CAP_RDMA_UD | \
				 WREN_CAP_RDMA_SRQ | WREN_CAP_RDMA_GSI | \
				 WREN_CAP_RDMA_ATOMIC | WREN_CAP_RDMA_SEND_INV | \
				 WREN_CAP_RDMA_FAST_REG | \
				 WREN_CAP_RDMA_MR_INVALIDATE | \
				 WREN_CAP_RDMA_RESERVED_LKEY)

/* Any one of these bits admits the DCB and CC settings commands. */
#define WHW_CAPS_DCB		(WREN_CAP_DCB_ETS | WREN_CAP_DCB_PFC | \
				 WREN_CAP_DCB_DSCP_TRUST | \
				 WREN_CAP_DCB_BUFFER | WREN_CAP_DCB_MAXRATE | \
				 WREN_CAP_PFC_STORM_WD)
#define WHW_CAPS_CC		(WREN_CAP_ECN | WREN_CAP_DCQCN)
/* Reserved by contract 1.0: never advertised, whatever a test asks. */
#define WHW_CAPS_NEVER		WREN_CAP_CQ_RESIZE

/* Resource defaults (wrenhw_config fields left at 0). */
#define WHW_DEF_NUM_MSIX	16u
#define WHW_DEF_DB_PAGES	256u
#define WHW_MAX_DB_PAGES	65535u	/* wren_device_attr.num_db_pages: 16 bits */
#define WHW_DEF_LINK_MBPS	25000u
#define WHW_DEF_MAX_QP		1024u
#define WHW_DEF_MAX_CQ		1024u
#define WHW_DEF_MAX_EQ		32u
#define WHW_DEF_MAX_SRQ		256u
#define WHW_DEF_MAX_PD		1024u
#define WHW_DEF_MAX_MR		4096u
#define WHW_DEF_MAX_AH		4096u
#define WHW_DEF_MAX_MTT		(1u << 20)

/* Hard ceilings, whatever the host configures (guest memory is bounded). */
#define WHW_CEIL_OBJECTS	(1u << 16)
#define WHW_CEIL_MTT		(1u << 24)
#define WHW_MAX_RING_PAGES	(1u << 21)	/* all paged rings together */

#define WHW_MAX_GID		128u
#define WHW_MAX_ETH_QUEUES	16u
#define WHW_MAX_MTU		9000u
#define WHW_MIN_MTU		68u
#define WHW_MAX_QP_LOG_SIZE	15u		/* 32768 WQEs */
#define WHW_MAX_SQ_WQE_SHIFT	10u
#define WHW_MAX_RQ_WQE_SHIFT	9u
#define WHW_MAX_SGE		30u
#define WHW_MAX_INLINE		256u
#define WHW_MAX_RD_ATOM		16u
#define WHW_LOCAL_ACK_DELAY	15u
#define WHW_MAX_MSG_SIZE	(1u << 31)
#define WHW_MAX_MR_SIZE		(1ull << 40)
#define WHW_MAX_MTT_PER_MR	(1u << 22)
#define WHW_ETH_LOG_SIZE_MIN	1u
#define WHW_ETH_LOG_SIZE_MAX	15u
#define WHW_PORT_BUFFER_BYTES	(512u * 1024u)
#define WHW_MAX_FLAP_MS		60000u
#define WHW_MAX_LATE_MS		120000u	/* DIAG AQ_LATE delay */
/* Ethernet engine bounds (hw/README.md). */
#define WHW_ETH_HLEN		14u
#define WHW_VLAN_HLEN		4u
#define WHW_ETH_MAX_FRAME	(WHW_ETH_HLEN + WHW_VLAN_HLEN + WHW_MAX_MTU)
#define WHW_TSO_MAX_PACKET	(65536u + 256u)	/* payload + headers */
#define WHW_TX_MAX_DESCS	64u	/* descriptors of one packet */
#define WHW_TX_BUDGET		64u	/* packets per queue per process() */
#define WHW_RX_MAX_BUFS		64u	/* buffers of one frame */
#define WHW_ETH_DCACHE		16u	/* descriptors read ahead per queue */
/* WREN_CAP_RDMA_RESERVED_LKEY's key: MR index 0 never exists. */
#define WHW_RESERVED_LKEY	0x00000001u
/* The largest RoCE frame: tag, IPv6, UDP, BTH, AtomicETH, 4096, ICRC. */
#define WHW_ROCE_MAX_FRAME	(14u + 4u + 40u + 8u + 12u + 28u + 4096u + 8u)
#define WHW_PAGE_SIZE_CAP	(((1ull << (WREN_PAGE_SHIFT_MAX + 1)) - 1) & \
				 ~((1ull << WREN_PAGE_SHIFT_MIN) - 1))

/* ---------------------------------------------------- little endian */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
static inline uint16_t whw_le16(uint16_t v) { return __builtin_bswap16(v); }
static inline uint32_t whw_le32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint64_t whw_le64(uint64_t v) { return __builtin_bswap64(v); }
#else
static inline uint16_t whw_le16(uint16_t v) { return v; }
static inline uint32_t whw_le32(uint32_t v) { return v; }
static inline uint64_t whw_le64(uint64_t v) { return v; }
#endif

/* ---------------------------------------------------- object tables */

/* Every table-managed object starts with this header. */
struct whw_obj {
	uint32_t id;
	uint32_t refs;		/* other objects that name this one */
	uint32_t gen;		/* slot generation when it was made */
};

/*
 * Handles are table indexes below `size`, allocated lowest-free-first from
 * `first` (smaller indexes are reserved: QP 0/1, UAR 0, ...).
 */
struct whw_table {
	void **slots;
	uint32_t *gens;		/* bumped each time a slot is freed */
	uint32_t size;
	uint32_t first;
	uint32_t used;
	uint32_t hint;		/* no free slot below this one */
};

int whw_table_init(struct whw_table *t, uint32_t size, uint32_t first);
void whw_table_fini(struct whw_table *t);
/* Returns the new handle, or -1 when the table is full. */
int64_t whw_table_alloc(struct whw_table *t, struct whw_obj *obj);
bool whw_table_insert_at(struct whw_table *t, uint32_t id,
			 struct whw_obj *obj);
void *whw_table_get(const struct whw_table *t, uint64_t id);
/*
 * As whw_table_get(), but only if the object is the one that held the slot
 * at generation @gen: engines that remember (id, gen) across commands
 * never act on a destroyed object's successor.
 */
void *whw_table_get_gen(const struct whw_table *t, uint64_t id, uint32_t gen);
void whw_table_remove(struct whw_table *t, uint32_t id);

static inline void whw_ref(struct whw_obj *o)
{
	if (o)
		o->refs++;
}

static inline void whw_unref(struct whw_obj *o)
{
	if (o && o->refs)
		o->refs--;
}

/* -------------------------------------------------------------- rings */

struct whw_extent {
	uint64_t start;
	uint64_t end;		/* exclusive */
};

/*
 * A queue buffer in bus address space: either one contiguous block or a
 * copied page list (wren_buf_desc).  Entries never straddle a page since
 * every entry size divides every page size.
 */
struct whw_ring {
	uint64_t base;		/* contiguous buffer, or 0 when paged */
	uint64_t *pages;	/* npages bus addresses when paged */
	uint32_t npages;
	uint8_t page_shift;
	uint64_t bytes;
	struct whw_extent *ext;	/* sorted, merged: for overlap checks */
	uint32_t next;
	/* Device-written rings are linked for overlap checks. */
	bool live;
	struct whw_ring *live_next;
};

/* Outcome of a command or a validation step. */
struct whw_err {
	uint8_t status;		/* enum wren_aq_status */
	uint32_t synd;		/* WREN_SYND_* | offset */
};

#define WHW_OK			((struct whw_err){ 0, 0 })
#define WHW_ERR(st, synd)	((struct whw_err){ (st), (synd) })

/* Loads @desc describing @bytes of queue; synd_base locates @desc. */
struct whw_err whw_ring_load(struct wrenhw *hw, struct whw_ring *r,
			     const struct wren_buf_desc *desc, uint64_t bytes,
			     uint32_t synd_base);
struct whw_err whw_ring_contig(struct whw_ring *r, uint64_t base,
			       uint64_t bytes);
void whw_ring_free(struct wrenhw *hw, struct whw_ring *r);
uint64_t whw_ring_addr(const struct whw_ring *r, uint64_t off);
bool whw_ring_overlaps_live(const struct wrenhw *hw,
			    const struct whw_ring *r,
			    const struct whw_ring *except);
void whw_ring_link(struct wrenhw *hw, struct whw_ring *r);
void whw_ring_unlink(struct wrenhw *hw, struct whw_ring *r);
int whw_ring_write_entry(struct wrenhw *hw, const struct whw_ring *r,
			 uint64_t off, const void *entry, size_t len);

/* ------------------------------------------------------------- timers */

/*
 * The host gives the model one timer; timer.c multiplexes it over any
 * number of these (CQ moderation now, RDMA retransmits later), kept in a
 * list sorted by deadline.
 */
struct whw_timer {
	uint64_t deadline;
	bool pending;
	struct whw_timer *next;
	void (*fn)(struct wrenhw *hw, struct whw_timer *t);
};

void whw_timer_add(struct wrenhw *hw, struct whw_timer *t, uint64_t deadline);
void whw_timer_del(struct wrenhw *hw, struct whw_timer *t);
/* Runs every timer whose deadline is <= now (each one at most once). */
void whw_timers_run(struct wrenhw *hw, uint64_t now);
uint64_t whw_timers_next(const struct wrenhw *hw);

#define WHW_CONTAINER_OF(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* ------------------------------------------------------------ objects */

struct whw_eq {
	struct whw_obj hdr;
	struct whw_ring ring;
	uint32_t log_size;
	uint32_t vector;
	uint16_t moderation_usec;
	uint16_t moderation_count;
	uint32_t pi;		/* device producer, free-running */
	uint32_t ci;		/* last consumer index rung */
	bool armed;
	bool broken;		/* ring DMA failed: drops everything */
	bool overrun_pending;
	bool db_err_reported;
	uint64_t dropped;
	/* Moderation: EQEs written since arming, and the time limit. */
	uint32_t mod_pending;
	struct whw_timer mod_timer;
};

struct whw_uar {
	struct whw_obj hdr;
};

struct whw_pd {
	struct whw_obj hdr;
};

struct whw_cq {
	struct whw_obj hdr;
	struct whw_ring ring;
	uint32_t log_size;
	uint64_t dbrec_addr;
	struct whw_eq *eq;
	struct whw_uar *uar;
	uint16_t moderation_usec;
	uint16_t moderation_count;
	uint32_t pi;
	uint32_t ci;		/* from the last CQ doorbell */
	uint32_t arm;		/* WREN_DB_CQ_ARM_* pending, one-shot */
	bool error;		/* overrun or ring DMA failure: dead */
	bool db_err_reported;
	/* Moderation: CQEs held back while armed, and the time limit. */
	uint32_t mod_pending;
	struct whw_timer mod_timer;
};

struct whw_srq {
	struct whw_obj hdr;
	struct whw_ring buf;
	struct whw_pd *pd;
	struct whw_uar *uar;
	uint32_t log_size;
	uint32_t wqe_shift;
	uint32_t limit;
	uint64_t dbrec_addr;
	uint32_t ci;		/* WQEs the device consumed */
	bool db_err_reported;
};

struct whw_qp_attrs {
	uint8_t path_mtu;
	uint8_t timeout;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	uint8_t min_rnr_timer;
	uint8_t max_rd_atomic;
	uint8_t max_dest_rd_atomic;
	uint16_t access_flags;
	uint32_t qkey;
	uint32_t sq_psn;
	uint32_t rq_psn;
	uint32_t dest_qpn;
	struct wren_av av;	/* as the driver gave it (little-endian) */
};

struct whw_qp {
	struct whw_obj hdr;
	struct whw_ring buf;
	uint8_t type;
	uint8_t flags;
	uint8_t state;
	uint8_t sq_wqe_shift;
	uint8_t rq_wqe_shift;
	uint8_t sq_log_size;
	uint8_t rq_log_size;
	uint16_t max_inline;
	uint32_t rq_offset;
	uint64_t dbrec_addr;
	struct whw_pd *pd;
	struct whw_cq *send_cq;
	struct whw_cq *recv_cq;
	struct whw_srq *srq;
	struct whw_uar *uar;
	struct whw_qp_attrs attr;
	uint32_t sq_pi;		/* last SQ doorbell */
	uint32_t sq_ci;		/* WQEs the device completed */
	bool db_err_reported;
	struct whw_roce_qp *roce;	/* the RoCE engine's state (roce.h) */
};

struct whw_mr {
	struct whw_obj hdr;
	struct whw_pd *pd;
	uint8_t state;		/* enum wren_mr_state */
	uint8_t page_shift;
	uint8_t key_tag;
	uint8_t flags;
	uint32_t access;
	uint64_t iova;
	uint64_t length;
	uint32_t num_mtt;
	uint32_t written;	/* entries with their bit set in `valid` */
	uint64_t *mtt;
	uint64_t *valid;	/* bitmap of written entries */
};

struct whw_ah {
	struct whw_obj hdr;
	struct whw_pd *pd;
	struct wren_av av;
};

struct whw_eth_q {
	struct whw_obj hdr;
	struct whw_ring ring;
	struct whw_cq *cq;
	bool rx;
	uint8_t prio;
	uint32_t log_size;
	uint32_t pi;
	uint32_t ci;
	bool error;
	bool db_err_reported;
	uint64_t counters[WREN_NUM_ETH_QUEUE_COUNTERS];
	/* Posted descriptors read ahead: absolute indexes dc_first.. */
	uint32_t dc_first;
	uint32_t dc_n;
	uint8_t dcache[WHW_ETH_DCACHE * sizeof(struct wren_eth_tx_desc)];
};

struct whw_gid {
	uint8_t type;
	uint8_t flags;
	uint16_t vlan_id;
	uint8_t gid[16];
	uint8_t mac[6];
};

/* A register-programmed ring: AQ, ACQ or AEQ. */
struct whw_regq {
	uint64_t base;
	uint32_t log_size;
	bool enabled;
	struct whw_ring ring;	/* filled while enabled */
	uint32_t pi;		/* producer (AQ: driver's; ACQ/AEQ: device's) */
	uint32_t ci;		/* consumer (AQ: device's; ACQ/AEQ: driver's) */
	bool armed;
};

struct whw_port {
	bool phys_up;		/* what the wire says */
	uint32_t phys_speed;
	bool admin_up;
	bool flapping;		/* DIAG_FAULT LINK_FLAP holds it down */
	uint64_t flap_until_ns;
	bool reported_active;	/* last state posted as an event */
	uint8_t pause;
	uint16_t mtu;
	uint8_t mac[6];
	uint32_t link_down_count;
};

struct whw_dcb {
	struct wren_ets ets;
	struct wren_pfc pfc;
	struct wren_trust trust;
	struct wren_buffer buffer;
	struct wren_maxrate maxrate;
	struct wren_pfc_wd pfc_wd;
	struct wren_cc_params cc[WREN_NUM_PRIO];
};

struct wrenhw {
	const struct wrenhw_host_ops *ops;
	void *opaque;

	/* Board (survives reset). */
	uint8_t mac[6];
	uint32_t num_msix;
	uint32_t num_db_pages;
	uint32_t link_speed;
	uint32_t max_qp, max_cq, max_eq, max_srq, max_pd, max_mr, max_ah;
	uint32_t max_mtt;
	uint64_t serial;
	uint64_t caps;		/* WREN_CAP_*: WHW_CAPS unless a test changes it */

	/* Registers. */
	uint32_t status;
	uint32_t control;
	uint32_t fatal_syndrome;
	uint32_t fatal_info;
	uint32_t mgmt_vector;
	uint32_t aq_error;
	uint32_t heartbeat_frozen;
	uint64_t epoch_ns;
	struct whw_regq aq, acq, aeq;
	uint64_t aeq_dropped;
	bool aeq_overrun_pending;
	bool aeq_broken;	/* AEQ ring DMA failed: no more events */

	/* Admin engine. */
	bool aq_stall_armed;	/* DIAG AQ_STALL: swallow the next command */
	bool aq_stalled;	/* a command was swallowed: AQ stops */
	uint32_t aq_late_ms;	/* DIAG AQ_LATE: delay the next command */
	bool aq_late_pending;	/* aq_late_cmd waits for aq_late_timer */
	struct wren_aq_cmd aq_late_cmd;
	struct whw_timer aq_late_timer;
	bool diag_fatal_pending;	/* DIAG FATAL: after its completion */
	uint32_t drop_eqes;	/* DIAG DROP_EQE budget */
	uint32_t last_db_err_queue;	/* rate limit for unknown queues */

	/* Objects. */
	struct whw_table eqs, cqs, qps, srqs, pds, mrs, ahs, uars;
	struct whw_table txqs, rxqs;
	struct whw_uar kernel_uar;
	uint32_t mtt_used;
	uint32_t ring_pages_used;
	struct whw_ring *live_rings;
	struct whw_gid gids[WHW_MAX_GID];

	/* Ethernet filter state (eth_rx.c uses it). */
	uint16_t rss_table_size;
	uint8_t rss_hash_types;
	uint8_t rss_key[WREN_RSS_KEY_SIZE];
	uint32_t rss_table[WREN_RSS_TABLE_MAX];
	uint32_t rx_mode_flags;
	uint32_t rx_num_macs;
	uint8_t rx_macs[WREN_RX_MODE_MAX_MACS][6];

	struct whw_port port;
	struct whw_dcb dcb;
	struct whw_timer *timers;	/* sorted by deadline */

	/*
	 * Ethernet scratch: no per-packet allocation.  Both TX buffers keep
	 * WHW_VLAN_HLEN bytes of headroom in front for tag insertion.
	 */
	uint8_t tx_buf[WHW_VLAN_HLEN + WHW_TSO_MAX_PACKET];
	uint8_t seg_buf[WHW_VLAN_HLEN + WHW_ETH_MAX_FRAME];
	uint8_t rx_buf[WHW_ETH_MAX_FRAME];
	/* RoCE engine: one frame being built, and QPs with work pending. */
	uint8_t roce_tx[WHW_ROCE_MAX_FRAME];
	bool roce_work;
	/* Frames to our own MAC loop back inside the NIC (roce_tx.c). */
	struct whw_lb_frame *lb;
	uint32_t lb_head, lb_count;

	uint64_t cnt_port[WREN_NUM_PORT_COUNTERS];
	uint64_t cnt_rdma[WREN_NUM_RDMA_COUNTERS];
	uint64_t cnt_prio[WREN_NUM_PRIO][WREN_NUM_PRIO_COUNTERS];
	uint64_t cnt_cc[WREN_NUM_CC_COUNTERS];
};

/* ----------------------------------------------------------- commands */

/* One admin command being executed. */
struct whw_cmd {
	const struct wren_aq_cmd *cmd;
	const uint8_t *in;	/* zero-padded to at least the defined size */
	uint32_t in_len;
	uint8_t *out;		/* out_cap bytes, zeroed */
	uint32_t out_cap;
	uint32_t out_size;	/* bytes the handler produced */
	uint64_t result;
	uint32_t result2;
};

typedef struct whw_err (*whw_cmd_fn)(struct wrenhw *hw, struct whw_cmd *c);

#define WHW_SYND_CMD(field)	(WREN_SYND_CMD | \
				 (uint32_t)offsetof(struct wren_aq_cmd, field))
#define WHW_SYND_IN(type, field) (WREN_SYND_IN | \
				  (uint32_t)offsetof(type, field))

/* Checks that bytes [off, off+len) of a block are zero; reports the first. */
bool whw_all_zero(const void *p, size_t len, size_t *first_nonzero);
struct whw_err whw_check_rsvd_cmd(const struct whw_cmd *c, size_t off,
				  size_t len);
struct whw_err whw_check_rsvd_in(const struct whw_cmd *c, size_t off,
				 size_t len);

/* Handlers, one group per file. */
struct whw_err whw_cmd_nop(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_device(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_port(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_port(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_counters(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_clear_counters(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_diag_fault(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_eq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_eq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_alloc_uar(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_dealloc_uar(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_alloc_pd(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_dealloc_pd(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_ah(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_ah(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_gid(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_cq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_cq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_modify_cq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_qp(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_modify_qp(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_qp(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_qp(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_srq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_modify_srq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_srq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_srq(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_mr(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_write_mtt(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_activate_mr(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_deactivate_mr(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_modify_mr(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_mr(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_mr(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_create_eth_q(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_destroy_eth_q(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_rss(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_rx_mode(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_ets(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_pfc(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_trust(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_buffer(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_maxrate(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_pfc_wd(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_dcb(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_set_cc(struct wrenhw *hw, struct whw_cmd *c);
struct whw_err whw_cmd_query_cc(struct wrenhw *hw, struct whw_cmd *c);

/* Variable-length input (WRITE_MTT): bytes the command defines. */
uint32_t whw_write_mtt_in_size(const struct wren_aq_cmd *cmd);

/* Looks up the object named by the inline handle of @c. */
void *whw_cmd_handle_obj(const struct whw_cmd *c, const struct whw_table *t,
			 struct whw_err *err);

/* ------------------------------------------------------- engine pieces */

void whw_log(struct wrenhw *hw, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
uint64_t whw_now(struct wrenhw *hw);
void whw_irq(struct wrenhw *hw, unsigned int vector);

/* regs.c */
uint32_t whw_reg_read(struct wrenhw *hw, uint64_t off);
void whw_reg_write(struct wrenhw *hw, uint64_t off, uint32_t val);

/* core.c */
void whw_state_reset(struct wrenhw *hw);
void whw_go_fatal(struct wrenhw *hw, uint32_t syndrome, uint32_t info);
void whw_timer_rearm(struct wrenhw *hw);

/* aq.c */
void whw_aq_doorbell(struct wrenhw *hw, uint32_t pi);
void whw_acq_doorbell(struct wrenhw *hw, uint32_t val);
void whw_aq_process(struct wrenhw *hw);
void whw_aq_late_cancel(struct wrenhw *hw);

/* eq.c */
void whw_aeq_post(struct wrenhw *hw, uint8_t type, uint8_t sub,
		  uint32_t data, uint32_t data2);
void whw_aeq_doorbell(struct wrenhw *hw, uint32_t val);
void whw_eq_post(struct wrenhw *hw, struct whw_eq *eq, uint8_t type,
		 uint8_t sub, uint32_t data, uint32_t data2);
void whw_eq_doorbell(struct wrenhw *hw, struct whw_eq *eq, uint32_t ci,
		     bool arm);
/* A CQE was written to @cq: raise its completion event if armed. */
void whw_cq_notify(struct wrenhw *hw, struct whw_cq *cq, bool solicited);

/* moderation.c: CQ doorbell with arm flags; the timer's callback. */
void whw_cq_arm(struct wrenhw *hw, struct whw_cq *cq, uint32_t ci,
		uint32_t flags);
void whw_cq_mod_init(struct whw_cq *cq);
void whw_cq_mod_fini(struct wrenhw *hw, struct whw_cq *cq);
/* @n EQEs are pending on an armed EQ: interrupt now or when moderated. */
void whw_eq_pending(struct wrenhw *hw, struct whw_eq *eq, uint32_t n);
void whw_eq_mod_init(struct whw_eq *eq);
void whw_eq_mod_fini(struct wrenhw *hw, struct whw_eq *eq);

/* cq.c: writes one 32-byte CQE (owner set by the device); -1 if dropped. */
int whw_cq_post(struct wrenhw *hw, struct whw_cq *cq, const void *cqe,
		bool solicited);

/* doorbell.c */
void whw_db_write(struct wrenhw *hw, uint64_t off, uint64_t val,
		  unsigned int size);
void whw_db_error(struct wrenhw *hw, bool *reported, uint32_t queue,
		  uint32_t page, uint32_t db_off);

/* port.c */
void whw_port_update(struct wrenhw *hw);
void whw_port_timer(struct wrenhw *hw, uint64_t now);

/* eth_csum.c: 16-bit ones' complement sums, in memory byte order. */
uint64_t whw_csum_add(uint64_t sum, const void *p, size_t len);
uint16_t whw_csum_fold(uint64_t sum);	/* not inverted */
/* Sum of the TCP/UDP pseudo-header for the IP header at @ip. */
uint64_t whw_csum_pseudo(const uint8_t *ip, bool ipv6, uint8_t proto,
			 uint32_t l4_len);

/* rss.c */
uint32_t whw_toeplitz(const uint8_t *key, const uint8_t *in, size_t len);

/* eth_queue.c: descriptor reads and completions shared by TX and RX. */
const void *whw_ethq_desc(struct wrenhw *hw, struct whw_eth_q *q,
			  uint32_t idx);
void whw_ethq_error(struct wrenhw *hw, struct whw_eth_q *q, uint8_t synd);
void whw_ethq_complete(struct wrenhw *hw, struct whw_eth_q *q,
		       struct wren_eth_cqe *cqe);
bool whw_link_active(const struct wrenhw *hw);

/* eth_tx.c, eth_offload.c, eth_tso.c */
void whw_eth_tx_process(struct wrenhw *hw);
uint8_t whw_eth_tx_offload(struct wrenhw *hw, struct whw_eth_q *q,
			   const struct wren_eth_tx_desc *d, uint8_t *pkt,
			   uint32_t len);
void whw_eth_emit(struct wrenhw *hw, struct whw_eth_q *q, uint8_t *frame,
		  uint32_t len, uint16_t flags, uint16_t vlan_tci);

/* Offsets of a TX packet's headers, validated (eth_offload.c). */
struct whw_l34 {
	uint32_t l3, l4;
	uint32_t l4_hlen;	/* TCP: doff * 4; UDP: 8 */
	bool ipv6, udp;
};

uint8_t whw_eth_tso(struct wrenhw *hw, struct whw_eth_q *q,
		    const struct wren_eth_tx_desc *d, const struct whw_l34 *h,
		    uint8_t *pkt, uint32_t len);
void whw_tcp_udp_csum(uint8_t *pkt, const struct whw_l34 *h,
		      uint32_t l4_len);
void whw_ipv4_csum(uint8_t *ip);

/* RoCE engine (roce_*.c, rc_*.c, ud_*.c; internals in roce.h). */
struct whw_roce_qp;
#define WHW_LB_FRAMES		64u

struct whw_lb_frame {
	uint32_t len;
	uint8_t data[WHW_ROCE_MAX_FRAME];
};
/* An untagged frame the RX engine accepted: true if it was RoCEv2 for us. */
bool whw_roce_rx(struct wrenhw *hw, const uint8_t *f, uint32_t len,
		 bool vlan, uint16_t vlan_tci);
void whw_roce_process(struct wrenhw *hw);
int whw_roce_qp_init(struct wrenhw *hw, struct whw_qp *qp);
void whw_roce_qp_fini(struct wrenhw *hw, struct whw_qp *qp);
/* DESTROY_QP, before whw_qp_free(): returns an SRQ WQE still held. */
void whw_roce_qp_destroying(struct wrenhw *hw, struct whw_qp *qp);
/* MODIFY_QP moved @qp from @cur to its new state. */
void whw_roce_qp_modified(struct wrenhw *hw, struct whw_qp *qp, uint8_t cur,
			  bool drain_notify);
void whw_roce_sq_doorbell(struct wrenhw *hw, struct whw_qp *qp);
/* SQD with started WQEs not yet completed (QUERY_QP sq_draining). */
bool whw_roce_sq_draining(const struct whw_qp *qp);

/* rx.c / phy.c */
bool whw_phy_frame(struct wrenhw *hw, const uint8_t *f, size_t len);
bool whw_eth_rx(struct wrenhw *hw, const uint8_t *f, size_t len);

/* cmd_*.c helpers used across groups */
struct whw_err whw_check_av(struct wrenhw *hw, const struct wren_av *av,
			    uint32_t synd_base);
void whw_objects_destroy_all(struct wrenhw *hw);
struct whw_uar *whw_lookup_uar(struct wrenhw *hw, uint32_t page);
void whw_cq_free(struct wrenhw *hw, struct whw_cq *cq);
void whw_eq_free(struct wrenhw *hw, struct whw_eq *eq);
void whw_qp_free(struct wrenhw *hw, struct whw_qp *qp);
void whw_srq_free(struct wrenhw *hw, struct whw_srq *srq);
void whw_mr_free(struct wrenhw *hw, struct whw_mr *mr);
void whw_eth_q_free(struct wrenhw *hw, struct whw_eth_q *q);
void whw_dcb_defaults(struct wrenhw *hw);
bool whw_rxq_in_rss(const struct wrenhw *hw, uint32_t rxq);

#ifdef WHW_TEST_HOOKS
/*
 * Host tests only (mk/hw.mk defines WHW_TEST_HOOKS for wrenhw-tests, never
 * for libwrenhw.a or QEMU): advertise @caps instead of WHW_CAPS, so the
 * validation behind capability-gated commands stays tested before the
 * engines that would justify advertising them exist.  WHW_CAPS_NEVER bits
 * are dropped.
 */
void whw_test_set_caps(struct wrenhw *hw, uint64_t caps);
#endif

#endif /* WRENHW_INT_H */
