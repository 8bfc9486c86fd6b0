/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The RoCEv2 engine's internals: wire constants and parsed packets
 * (roce_wire.c, roce_icrc.c), memory lookups (mr_lookup.c), the per-QP
 * engine state and the requester (roce_req.c), completer (rc_comp.c),
 * responder (rc_resp.c), receive queues (roce_rq.c), UD receive
 * (ud_recv.c), frame output (roce_tx.c), steering and dispatch
 * (roce_rx.c), the send window (roce_sq.c), flush (roce_flush.c), CQEs
 * and scheduling (roce_util.c) and the QP life cycle and process loop
 * (roce_qp.c).
 */
#ifndef WHW_ROCE_H
#define WHW_ROCE_H

#include "../core/whw_timer.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_dcqcn.h"

#define WHW_ROCE_PORT		4791u
#define WHW_ROCE_PKEY		0xffffu
/* Headers ib_core's iboe_get_mtu() takes off the port MTU. */
#define WHW_ROCE_OVERHEAD	96u
#define WHW_BTH_LEN		12u
#define WHW_ICRC_LEN		4u
#define WHW_GRH_LEN		40u
#define WHW_SQ_WINDOW		64u	/* WQEs started and not completed */
/*
 * The RC send window: an RC requester has at most whw_rc_window() PSNs
 * sent and not acknowledged (READ responses count: a READ request takes
 * the PSNs of its responses).  256 KiB of payload - half of wren-fabric's
 * default 512 KiB egress queue - and never more than 256 packets (the
 * fabric's queues also hold at most 1024 frames): 64 packets at MTU 4096,
 * 256 at MTU 1024 or less.  A READ is asked for in requests of at most
 * half a window, so that the responder never has more than a window of
 * responses to send toward us.
 */
#define WHW_RC_WINDOW_BYTES	(256u * 1024)
#define WHW_RC_WINDOW_MAX	256u
#define WHW_ROCE_BUDGET		64u	/* packets per QP per process() */
#define WHW_RQ_FLUSH_NS		10000000ull	/* ERR QPs: RQ looked at */

/*
 * BTH opcodes (IBTA 9.2): RC (0x00..), UC (0x20..), UD (0x60..) and XRC
 * (0xa0..).  UC's are RC's SEND and WRITE opcodes (0x00..0x0b) in the UC
 * class, XRC's all of RC's in the XRC class.
 */
#define WHW_OP_CLASS		0xe0
#define WHW_OP_CLASS_UC		0x20
#define WHW_OP_CLASS_XRC	0xa0
enum {
	WHW_OP_SEND_FIRST = 0x00,
	WHW_OP_SEND_MIDDLE = 0x01,
	WHW_OP_SEND_LAST = 0x02,
	WHW_OP_SEND_LAST_IMM = 0x03,
	WHW_OP_SEND_ONLY = 0x04,
	WHW_OP_SEND_ONLY_IMM = 0x05,
	WHW_OP_WRITE_FIRST = 0x06,
	WHW_OP_WRITE_MIDDLE = 0x07,
	WHW_OP_WRITE_LAST = 0x08,
	WHW_OP_WRITE_LAST_IMM = 0x09,
	WHW_OP_WRITE_ONLY = 0x0a,
	WHW_OP_WRITE_ONLY_IMM = 0x0b,
	WHW_OP_READ_REQ = 0x0c,
	WHW_OP_READ_RESP_FIRST = 0x0d,
	WHW_OP_READ_RESP_MIDDLE = 0x0e,
	WHW_OP_READ_RESP_LAST = 0x0f,
	WHW_OP_READ_RESP_ONLY = 0x10,
	WHW_OP_ACK = 0x11,
	WHW_OP_ATOMIC_ACK = 0x12,
	WHW_OP_CMP_SWAP = 0x13,
	WHW_OP_FETCH_ADD = 0x14,
	WHW_OP_SEND_LAST_INV = 0x16,
	WHW_OP_SEND_ONLY_INV = 0x17,
	WHW_OP_FLUSH = 0x1c,		/* IBA 1.5: FETH, RETH */
	WHW_OP_ATOMIC_WRITE = 0x1d,	/* IBA 1.5: RETH, 8 bytes */
	WHW_OP_UD_SEND_ONLY = 0x64,
	WHW_OP_UD_SEND_ONLY_IMM = 0x65,
	WHW_OP_CNP = 0x81,
};

/* Extension headers and properties of an opcode (whw_roce_opinfo). */
#define WHW_H_RETH	0x0001u
#define WHW_H_AETH	0x0002u
#define WHW_H_ATOMIC	0x0004u
#define WHW_H_ATMACK	0x0008u
#define WHW_H_IMM	0x0010u
#define WHW_H_IETH	0x0020u
#define WHW_H_DETH	0x0040u
#define WHW_H_CNP	0x0080u		/* a CNP's 16 reserved bytes */
#define WHW_H_FETH	0x100000u	/* FLUSH: placement type, level */
#define WHW_K_REQ	0x0100u		/* requester to responder */
#define WHW_K_FIRST	0x0200u
#define WHW_K_MIDDLE	0x0400u
#define WHW_K_LAST	0x0800u
#define WHW_K_ONLY	(WHW_K_FIRST | WHW_K_LAST)
#define WHW_K_PAYLOAD	0x1000u
#define WHW_K_SEND	0x2000u
#define WHW_K_WRITE	0x4000u
#define WHW_K_READ	0x8000u
#define WHW_K_ATOMIC	0x10000u
#define WHW_K_UD	0x20000u
#define WHW_K_VALID	0x40000u
#define WHW_K_UC	0x80000u		/* UC class (0x20..0x2b) */
#define WHW_K_FLUSH	0x200000u
#define WHW_K_ATOMIC_WRITE 0x400000u
#define WHW_K_XRC	0x800000u		/* XRC class (0xa0..) */
#define WHW_H_XRCETH	0x1000000u	/* XRC requests: the XRC SRQ */

/* The class bits of @qp's BTH opcodes: RC's (none), UC's or XRC's. */
static inline uint8_t whw_roce_op_class(const struct whw_qp *qp)
{
	if (qp->type == WREN_QPT_UC)
		return WHW_OP_CLASS_UC;
	if (qp->type == WREN_QPT_XRC_INI || qp->type == WREN_QPT_XRC_TGT)
		return WHW_OP_CLASS_XRC;
	return 0;
}

uint32_t whw_roce_opinfo(uint8_t opcode);
/* Bytes of the extension headers that follow the BTH. */
uint32_t whw_roce_ext_len(uint32_t info);

/* AETH syndromes (IBTA 9.3.5). */
#define WHW_AETH_ACK		0x1f	/* ACK, credits "invalid" */
#define WHW_AETH_RNR		0x20	/* | timer code */
#define WHW_AETH_NAK_SEQ	0x60
#define WHW_AETH_NAK_INV	0x61
#define WHW_AETH_NAK_ACC	0x62
#define WHW_AETH_NAK_OP		0x63

/* A received packet after parsing (all fields host order). */
struct whw_pkt {
	const uint8_t *frame;	/* untagged Ethernet frame */
	uint32_t len;
	const uint8_t *l3;
	uint32_t l3_len;	/* IP header bytes */
	bool ipv4;
	bool vlan;
	uint16_t vlan_tci;
	uint8_t sgid[16], dgid[16];	/* IPv4: v4-mapped */
	uint8_t opcode;		/* as on the wire */
	uint8_t op;		/* RC's opcode of the same kind (UC, XRC) */
	uint32_t info;		/* whw_roce_opinfo() */
	bool se, ackreq;
	uint32_t dqpn, psn;
	uint64_t va;
	uint32_t rkey, dmalen;
	uint8_t syndrome;
	uint32_t msn;
	uint64_t swap, cmp, orig;
	uint8_t flush_type, flush_level;	/* FETH */
	uint8_t imm[4];		/* as on the wire */
	uint32_t ieth;
	uint32_t qkey, src_qpn;
	uint32_t xrc_srqn;	/* XRCETH */
	const uint8_t *payload;
	uint32_t paylen;
};

/* Parse results. */
#define WHW_PARSE_OK		0
#define WHW_PARSE_NOT_ROCE	1	/* give it to the Ethernet engine */
#define WHW_PARSE_DROP		2	/* RoCE, but malformed: discard */
#define WHW_PARSE_ICRC		3	/* RoCE with a bad ICRC */

/*
 * Is this untagged frame RoCEv2 for one of our GIDs?  Only the IP/UDP
 * framing is looked at; whw_roce_parse() does the rest.
 */
bool whw_roce_is_ours(const struct wrenhw *hw, const uint8_t *f, uint32_t len);
int whw_roce_parse(const uint8_t *f, uint32_t len, struct whw_pkt *p);

/*
 * roce_icrc.c: CRC-32 (IEEE, reflected) state updates, and the ICRC.
 * @crc is the raw register: start from 0xffffffff, invert at the end.
 */
uint32_t whw_crc32_update(uint32_t crc, const void *p, size_t len);
/* The implementation whw_crc32_update() uses: "vpclmul", "pclmul" or
 * "slice8". */
const char *whw_crc32_impl(void);
#ifdef WHW_TEST_HOOKS
/* Tests only: use @impl ("vpclmul", "pclmul", "slice8"; NULL: the
 * automatic choice) from now on.  False, and nothing changed, if this
 * CPU can't run it. */
bool whw_test_crc32_force(const char *impl);
#endif
/* ICRC of the packet whose IP header is at @l3 (@total bytes to its end,
 * ICRC included); the value as stored little-endian on the wire. */
uint32_t whw_roce_icrc(const uint8_t *l3, bool ipv4, uint32_t total);

/* PSN arithmetic modulo 2^24: a - b as a signed distance. */
static inline int32_t whw_psn_diff(uint32_t a, uint32_t b)
{
	return (int32_t)((a - b) << 8) >> 8;
}

static inline uint32_t whw_psn_add(uint32_t a, uint32_t n)
{
	return (a + n) & WREN_PSN_MASK;
}

/* PSNs an RC requester may have in flight at path MTU @mtu. */
static inline uint32_t whw_rc_window(uint32_t mtu)
{
	uint32_t n = WHW_RC_WINDOW_BYTES / (mtu ? mtu : 1);

	return n > WHW_RC_WINDOW_MAX ? WHW_RC_WINDOW_MAX : n ? n : 1;
}

/* Response PSNs one READ request asks for at most. */
static inline uint32_t whw_rc_read_chunk(uint32_t mtu)
{
	uint32_t n = whw_rc_window(mtu) / 2;

	return n ? n : 1;
}

/*
 * One past the last response of the READ request that holds response
 * @i of a READ of @npkts: requests end at multiples of @chunk (or at the
 * READ's end), also when one is asked again from the middle.
 */
static inline uint32_t whw_rc_read_req_end(uint32_t i, uint32_t npkts,
					   uint32_t chunk)
{
	uint32_t end = (i / chunk + 1) * chunk;

	return end < npkts ? end : npkts;
}

/* ---------------------------------------------------------- memory */

/* Why a memory access was refused (mr_lookup.c); each maps to a status. */
enum whw_mem_err {
	WHW_MEM_OK = 0,
	WHW_MEM_BAD_KEY,	/* no MR with that index and key tag */
	WHW_MEM_BAD_STATE,	/* MR not VALID */
	WHW_MEM_BAD_PD,		/* MR of another PD */
	WHW_MEM_BOUNDS,		/* outside [start, start + length) */
	WHW_MEM_ACCESS,		/* right not granted */
	WHW_MEM_OVERFLOW,	/* addr + len wraps */
	WHW_MEM_RESERVED,	/* reserved lkey not allowed here */
	WHW_MEM_DMA,		/* the bus refused */
	WHW_MEM_BAD_QP,		/* type 2 window bound to another QP */
};

/* Rights a lookup needs. */
#define WHW_MEM_LOCAL_READ	0u
#define WHW_MEM_REMOTE		0x100u	/* key is an rkey */
#define WHW_MEM_WHOLE		0x200u	/* all of the MR: no range check */

/*
 * Checks @len bytes at @addr under @key for @qp (PD, reserved lkey rule)
 * needing @access (WREN_ACCESS_* | WHW_MEM_REMOTE | WHW_MEM_WHOLE).  *mr is the MR, or
 * NULL for the reserved lkey.
 */
enum whw_mem_err whw_mem_check(struct wrenhw *hw, const struct whw_qp *qp,
			       uint32_t key, uint64_t addr, uint64_t len,
			       uint32_t access, struct whw_mr **mr);
/* DMA through a checked MR (NULL: bus addresses). */
enum whw_mem_err whw_mem_dma(struct wrenhw *hw, const struct whw_mr *mr,
			     uint64_t addr, void *buf, uint32_t len,
			     bool write);
/* Completion status of a local (lkey) failure, and the NAK of a remote one. */
uint8_t whw_mem_local_status(enum whw_mem_err e);

struct whw_sge {
	uint64_t addr;
	uint32_t len;
	uint32_t lkey;
};

/* Checks every SGE; returns the first failure. */
enum whw_mem_err whw_sgl_check(struct wrenhw *hw, const struct whw_qp *qp,
			       const struct whw_sge *sge, uint32_t n,
			       uint32_t access);
/* Copies @len bytes at message offset @off from/to a SGE list. */
enum whw_mem_err whw_sgl_copy(struct wrenhw *hw, const struct whw_qp *qp,
			      const struct whw_sge *sge, uint32_t n,
			      uint32_t off, void *buf, uint32_t len,
			      bool write);

/* --------------------------------------------------------- per QP */

/* A send WQE the requester has started. */
struct whw_swqe {
	uint32_t idx;		/* SQ index */
	uint8_t opcode, flags;
	uint8_t nsge;
	bool inl;
	bool done;
	uint8_t status, vendor;
	uint32_t len;
	uint64_t raddr;
	uint32_t rkey;
	uint8_t imm[4];		/* imm_data (wire order) or inv_rkey (LE) */
	uint64_t swap, cmp;
	uint8_t flush_type, flush_level;	/* FLUSH; its length is len */
	uint8_t aw_data[WREN_ATOMIC_LEN];	/* ATOMIC_WRITE */
	uint32_t dqpn, qkey;
	uint32_t xrc_srqn;	/* XRC initiators: the remote XRC SRQ */
	struct wren_av av;	/* UD: the AH's */
	uint32_t first_psn, npkts;	/* PSNs the WQE uses */
	/* Packets sent (READ: responses asked for; atomic: request 0/1). */
	uint32_t sent;
	uint32_t acked;		/* packets acknowledged / responses received */
	struct whw_sge sge[WHW_MAX_SGE];
	uint8_t inl_data[WHW_MAX_INLINE];
};

/*
 * Responder resource: a READ or atomic that can be answered again; a
 * FLUSH or ATOMIC WRITE ("empty": an RDMA READ response of no payload
 * answers it) is answered again, never executed again.
 */
struct whw_rdres {
	bool valid, atomic, empty;
	uint32_t psn, npkts, cur;
	uint32_t xrc_srqn, xrc_gen;	/* XRC target: its request's SRQ */
	uint64_t va;
	uint32_t rkey, len;
	uint64_t orig;
};

/* A receive WQE being filled. */
struct whw_rwqe {
	bool srq;
	uint32_t idx;
	uint8_t nsge;
	uint64_t total;
	struct whw_sge sge[WHW_MAX_SGE];
};

/* Congestion control of a QP: its NP pacing, its RP (roce_cnp.c, roce_rp.c). */
struct whw_cc_qp {
	/* reaction point */
	struct whw_dcqcn dcqcn;
	uint32_t cnps;		/* CNPs that cut the rate (QUERY_QP) */
	uint8_t prio;		/* priority of the latest data frame sent */
	bool prio_valid;
	bool waiting;		/* the rate limiter stopped the requester */
	uint64_t next_tx_ns;	/* the limiter lets a frame go from then */
	uint32_t next_tx_ps;	/* and so many ps (< 1000) more */
	uint64_t cut_reported_ns; /* the last CC_RATE CUT event */
	struct whw_timer timer;
	/* notification point */
	bool np_sent;		/* a CNP went back at np_last_ns */
	uint64_t np_last_ns;
};

/* Which of the process loop's lists (struct wrenhw) a QP is on. */
enum whw_roce_list_id {
	WHW_ROCE_OFF,		/* none: nothing to do */
	WHW_ROCE_RUN,		/* work to do: hw->roce_run */
	WHW_ROCE_WAIT,		/* stopped for room at the port: hw->roce_wait */
};

struct whw_roce_qp {
	struct whw_qp *qp;
	bool work;		/* has work: on the run list */
	bool tx_wait;		/* stopped for room at the port (port_sched.c) */
	uint8_t list;		/* enum whw_roce_list_id */
	struct whw_roce_qp *list_prev, *list_next;
	/* requester */
	struct whw_swqe *sw;	/* WHW_SQ_WINDOW slots: idx % window */
	uint32_t sq_fetch;	/* next SQ index to start */
	uint32_t tx_idx;	/* oldest started WQE with packets to send */
	uint32_t psn_max;	/* one past the highest PSN ever sent */
	bool psn_max_valid;
	uint8_t retry_left, rnr_left;
	bool rnr_wait;
	uint32_t rnr_psn_pending;	/* where to go back after the RNR wait */
	/* An implied NAK already went back here; no progress since. */
	bool rewind_pending;
	uint32_t rewind_psn;
	uint32_t rd_out;	/* READ/atomic WQEs started, not done */
	bool drain_notify;
	struct whw_timer ack_timer;
	struct whw_timer rnr_timer;
	struct whw_timer flush_timer;	/* ERR: receives posted later */
	/* responder */
	uint32_t msn;
	bool nak_seq_sent;
	bool in_send, in_write;
	bool uc_sending;	/* UC: a SEND is landing in rwqe (in_send) */
	bool uc_drop;		/* UC: the rest of a message is dropped */
	/* XRC target: the SRQ the message in progress is for (roce_rq.c). */
	uint32_t xrc_srqn, xrc_gen;
	struct whw_rwqe rwqe;
	uint32_t rcv_off;
	uint64_t w_va;
	uint32_t w_rkey, w_len, w_off;
	struct whw_rdres res[WHW_MAX_RD_ATOM];
	uint32_t res_next;
	bool ack_pending;
	uint32_t ack_psn;
	uint8_t ack_syn;
	uint32_t rq_ci;
	bool comm_est;
	struct whw_cc_qp cc;
};

/* roce_util.c: the process loop's lists */
void whw_roce_kick(struct wrenhw *hw, struct whw_qp *qp);
/* Take @r off its list and, unless @to is WHW_ROCE_OFF, append it to @to. */
void whw_roce_list_move(struct wrenhw *hw, struct whw_roce_qp *r,
			enum whw_roce_list_id to);

/* roce_qp.c */
/* The QP goes to ERR: everything outstanding is flushed. */
void whw_roce_qp_error(struct wrenhw *hw, struct whw_qp *qp);
void whw_roce_flush(struct wrenhw *hw, struct whw_qp *qp);
void whw_roce_flush_rwqe(struct wrenhw *hw, struct whw_qp *qp);
void whw_roce_send_cqe(struct wrenhw *hw, struct whw_qp *qp, uint32_t idx,
		       uint8_t opcode, uint8_t status, uint8_t vendor,
		       uint32_t byte_len);
void whw_roce_recv_cqe(struct wrenhw *hw, struct whw_qp *qp,
		       struct wren_cqe *cqe, bool solicited);
/*
 * The receive WQE in r->rwqe completes successfully as @opcode with
 * @len bytes, the immediate or invalidated key of the message's last
 * packet @p in its CQE.
 */
void whw_roce_recv_done(struct wrenhw *hw, struct whw_qp *qp,
			const struct whw_pkt *p, uint8_t opcode, uint32_t len);
/*
 * The receive WQE in r->rwqe completes in error: @status, @vendor and
 * @len bytes in its CQE.  The QP's state is the caller's to change.
 */
void whw_roce_recv_error(struct wrenhw *hw, struct whw_qp *qp, uint8_t status,
			 uint8_t vendor, uint32_t len);
uint32_t whw_roce_pmtu(const struct wrenhw *hw, const struct whw_qp *qp);
bool whw_roce_cap(const struct wrenhw *hw, uint64_t cap);

/* roce_tx.c: one frame under construction in hw->roce_tx. */
struct whw_frame {
	uint8_t *buf;
	uint32_t len;
	uint32_t l3;
	uint32_t bth;
	bool ipv4;
	uint8_t prio;
	/*
	 * IPv4: the one's complement sum of the header's 16-bit words as
	 * frame_init wrote them (no length, no checksum), so sending adds
	 * the length instead of reading the header back; whoever changes
	 * the header after frame_init clears ip_sum_ok.
	 */
	bool ip_sum_ok;
	uint32_t ip_sum;
};

/* Priority of a RoCE frame to @av: DSCP trust's map, else its sl. */
uint8_t whw_roce_av_prio(const struct wrenhw *hw, const struct wren_av *av);
bool whw_roce_frame_init(struct wrenhw *hw, struct whw_frame *f,
			 const struct wren_av *av, uint16_t sport,
			 uint8_t opcode, bool se, uint32_t dqpn, bool ackreq,
			 uint32_t psn);
uint8_t *whw_roce_put(struct whw_frame *f, uint32_t n);
void whw_roce_frame_send(struct wrenhw *hw, struct whw_frame *f);
/* Receives the frames this NIC sent to itself (from process()). */
void whw_roce_loopback_rx(struct wrenhw *hw);
uint16_t whw_roce_sport(const struct wren_av *av, uint32_t lqpn,
			uint32_t rqpn);
/* ACK/NAK (and atomic ACK) from the responder of an RC QP. */
void whw_roce_send_ack(struct wrenhw *hw, struct whw_qp *qp, uint32_t psn,
		       uint8_t syndrome);

/* roce_req.c */
void whw_req_process(struct wrenhw *hw, struct whw_qp *qp, uint32_t *budget);
void whw_req_retransmit(struct wrenhw *hw, struct whw_qp *qp, uint32_t psn);
struct whw_swqe *whw_swqe(struct whw_roce_qp *r, uint32_t idx);
uint32_t whw_req_una(const struct whw_qp *qp);

/* rc_comp.c */
void whw_comp_rx(struct wrenhw *hw, struct whw_qp *qp,
		 const struct whw_pkt *p);
void whw_comp_retire(struct wrenhw *hw, struct whw_qp *qp);
void whw_comp_timer_update(struct wrenhw *hw, struct whw_qp *qp);
void whw_comp_timer_fn(struct wrenhw *hw, struct whw_timer *t);
void whw_comp_rnr_fn(struct wrenhw *hw, struct whw_timer *t);

/* roce_place.c: a request's payload into memory, for RC and UC */
/*
 * A WRITE's FIRST packet @p (counted): false if the QP's rights or the
 * rkey, range and rights of the MR refuse the whole RETH; else it is the
 * write in progress (r->w_*).
 */
bool whw_place_write_start(struct wrenhw *hw, struct whw_qp *qp,
			   const struct whw_pkt *p);
/* Whether @p fits what is left of the write; a LAST packet must end it. */
bool whw_place_write_fits(const struct whw_roce_qp *r, const struct whw_pkt *p);
/* @p's payload at the write's offset, checked again; the error, if any. */
enum whw_mem_err whw_place_write(struct wrenhw *hw, struct whw_qp *qp,
				 const struct whw_pkt *p);
/*
 * @p's payload into the receive WQE r->rwqe at rcv_off: WREN_CQE_SUCCESS,
 * or the status of a receive that cannot take it (LOC_LEN_ERR, counted,
 * or the local protection status).
 */
uint8_t whw_place_send(struct wrenhw *hw, struct whw_qp *qp,
		       const struct whw_pkt *p);

/* uc_resp.c: the UC responder (the requester is roce_req.c's) */
void whw_uc_rx(struct wrenhw *hw, struct whw_qp *qp, const struct whw_pkt *p);

/* rc_resp.c */
void whw_resp_rx(struct wrenhw *hw, struct whw_qp *qp,
		 const struct whw_pkt *p);
void whw_resp_process(struct wrenhw *hw, struct whw_qp *qp,
		      uint32_t *budget);

/* roce_fastreg.c: REG_MR and LOCAL_INV; a wren_cqe_status. */
uint8_t whw_fastreg_reg(struct wrenhw *hw, struct whw_qp *qp,
			const struct wren_wqe_reg_mr *w);
uint8_t whw_fastreg_inv(struct wrenhw *hw, struct whw_qp *qp, uint32_t key);

/*
 * roce_mw_bind.c: BIND_MW (a wren_cqe_status), and the invalidation of a type 2
 * window's key by LOCAL_INV (@remote false: any QP of its PD) or by a
 * SEND_INV arriving at @qp (@remote: only the QP it is bound to).
 */
uint8_t whw_mw_bind(struct wrenhw *hw, struct whw_qp *qp,
		    const struct wren_wqe_bind_mw *w);
bool whw_mw_invalidate(struct wrenhw *hw, const struct whw_qp *qp,
		       uint32_t key, bool remote);
/* [addr, addr + len) inside [start, start + length), without wrapping. */
static inline bool whw_in_range(uint64_t addr, uint64_t len, uint64_t start,
				uint64_t length)
{
	return addr >= start && addr - start <= length &&
	       len <= length - (addr - start);
}

/* Whether @key's index is a window's (max_mr and above). */
static inline bool whw_key_is_mw(const struct wrenhw *hw, uint32_t key)
{
	return (key >> 8) >= hw->max_mr;
}

/* roce_rq.c: the next receive WQE (RQ or SRQ); 1 none posted, -1 bad. */
int whw_rq_fetch(struct wrenhw *hw, struct whw_qp *qp, struct whw_rwqe *w,
		 uint8_t *vendor);
void whw_rq_flush(struct wrenhw *hw, struct whw_qp *qp);

/*
 * roce_rq.c: an XRC target QP's SRQ, PD and CQ for one request's work.
 * whw_xrc_srq() finds the XRC SRQ @srqn of the QP's domain (and, with
 * @gen, only the one that had that generation), or NULL.
 */
struct whw_srq *whw_xrc_srq(struct wrenhw *hw, const struct whw_qp *qp,
			    uint32_t srqn, const uint32_t *gen);
void whw_xrc_bind(struct whw_qp *qp, struct whw_srq *srq);
void whw_xrc_unbind(struct whw_qp *qp);

/* roce_cnp.c: a received packet, as the notification point sees it. */
void whw_np_rx(struct wrenhw *hw, struct whw_qp *qp, const struct whw_pkt *p);

/* roce_rp.c: the reaction point and its rate limiter. */
void whw_rp_cnp(struct wrenhw *hw, struct whw_qp *qp, const struct whw_pkt *p);
/* May the requester of @qp send a frame now?  If not, it is kicked later. */
bool whw_rp_may_send(struct wrenhw *hw, struct whw_qp *qp);
/* The requester of @qp sent @f (whw_roce_frame_send() done). */
void whw_rp_sent(struct wrenhw *hw, struct whw_qp *qp,
		 const struct whw_frame *f);
void whw_rp_timer_fn(struct wrenhw *hw, struct whw_timer *t);

/* ud_recv.c */
void whw_ud_rx(struct wrenhw *hw, struct whw_qp *qp,
	       const struct whw_pkt *p);

#endif
