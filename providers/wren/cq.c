// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queues: creation (ibv_create_cq and ibv_create_cq_ex), polling
 * through both the ibv_poll_cq and the ibv_start_poll/next_poll/end_poll
 * interfaces, and arming.  Polling reads the ring in host memory and
 * publishes the consumer index in the CQ's doorbell record: no syscalls.
 * A CQ asked for completion timestamps has 64-byte entries that carry the
 * device clock in front of the CQE (WREN_CQ_F_CQE64).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <util/mmio.h>
#include <linux/wren/wren_regs.h>

#include "wren.h"
#include "wren_abi.h"

#define WREN_CQ_WC_FLAGS	IBV_WC_STANDARD_FLAGS
/* Both read the device clock, which wren.ko keeps on real time. */
#define WREN_CQ_WC_TS_FLAGS	(IBV_WC_EX_WITH_COMPLETION_TIMESTAMP | \
				 IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK)

/* ------------------------------------------------------------ polling */

/* The 32-byte CQE of free-running @index, wherever the entry puts it. */
static struct wren_cqe *wren_cq_cqe(struct wren_cq *cq, uint32_t index)
{
	return (struct wren_cqe *)(cq->ring +
				   wren_cqe_offset(index, cq->log_size, cq->stride));
}

/*
 * The next CQE, copied out once the phase bit says the device wrote it;
 * the barrier keeps the other fields from being read before the owner
 * (the device writes the owner byte last).  A 64-byte entry's timestamp
 * goes to cur_ts.
 */
static bool wren_cq_next(struct wren_cq *cq, struct wren_cqe *out)
{
	struct wren_cqe *cqe = wren_cq_cqe(cq, cq->ci);
	uint8_t owner = *(volatile uint8_t *)&cqe->owner;

	if (!wren_cqe_owned(owner, cq->ci, cq->log_size))
		return false;
	udma_from_device_barrier();
	memcpy(out, cqe, sizeof(*out));
	if (cq->stride == WREN_CQE64_SIZE) {
		const struct wren_cqe_ts *ts = (const void *)
			((const uint8_t *)cqe - sizeof(*ts));

		cq->cur_ts = le64toh(ts->timestamp);
	}
	cq->ci++;
	return true;
}

/* Free the polled slots: reads are done before the device may reuse them. */
static void wren_cq_update_ci(struct wren_cq *cq)
{
	udma_to_device_barrier();
	cq->dbrec->ci = htole32(cq->ci);
}

/* The contract uses the ib_wc_status values themselves. */
static enum ibv_wc_status wren_wc_status(uint8_t status)
{
	return wren_cqe_status_known(status) ? (enum ibv_wc_status)status :
					       IBV_WC_GENERAL_ERR;
}

static enum ibv_wc_opcode wren_wc_opcode(uint8_t opcode)
{
	switch (opcode) {
	case WREN_WQE_RDMA_WRITE:
	case WREN_WQE_RDMA_WRITE_IMM:
		return IBV_WC_RDMA_WRITE;
	case WREN_WQE_RDMA_READ:
		return IBV_WC_RDMA_READ;
	case WREN_WQE_ATOMIC_CMP_SWP:
		return IBV_WC_COMP_SWAP;
	case WREN_WQE_ATOMIC_FETCH_ADD:
		return IBV_WC_FETCH_ADD;
	case WREN_WQE_LOCAL_INV:
		return IBV_WC_LOCAL_INV;
	case WREN_WQE_BIND_MW:
		return IBV_WC_BIND_MW;
	case WREN_WQE_FLUSH:
		return IBV_WC_FLUSH;
	case WREN_WQE_ATOMIC_WRITE:
		return IBV_WC_ATOMIC_WRITE;
	case WREN_CQE_OP_RECV:
		return IBV_WC_RECV;
	case WREN_CQE_OP_RECV_RDMA_IMM:
		return IBV_WC_RECV_RDMA_WITH_IMM;
	default:
		return IBV_WC_SEND;
	}
}

static unsigned int wren_wc_flags(const struct wren_cqe *cqe)
{
	uint16_t f = le16toh(cqe->flags);
	unsigned int flags = 0;

	if (f & WREN_CQE_F_IMM)
		flags |= IBV_WC_WITH_IMM;
	if (f & WREN_CQE_F_INV)
		flags |= IBV_WC_WITH_INV;
	if (f & WREN_CQE_F_GRH)
		flags |= IBV_WC_GRH;
	return flags;
}

/*
 * RoCE has no service level; a UD receive reports in the SL field the L3
 * header type ConnectX reports in bits 2:0 there (Annex A17.4.5.1 has the
 * CQE tell an IPv4 sender from an IPv6 one): 2 for IPv4, 1 for IPv6.
 * UCX's UD transport reads it to find the destination address in the
 * first 40 bytes of the buffer, which hold an IPv4 header in their second
 * half or an IPv6 header in full, and drops every packet when it reads 0.
 * ConnectX also sets bit 3 (a UDP frame); Wren leaves it out, so that an
 * AH built from the completion (ibv_init_ah_from_wc(), as udaddy and
 * rdma_cm's UD users do) names a priority the device takes, 0..7, the
 * same one ConnectX then uses from the low three bits.
 */
#define WREN_WC_SL_ROCE_IPV6	0x1
#define WREN_WC_SL_ROCE_IPV4	0x2

static uint8_t wren_wc_sl(const struct wren_cqe *cqe)
{
	uint16_t f = le16toh(cqe->flags);

	if (!(f & WREN_CQE_F_GRH))
		return 0;
	return f & WREN_CQE_F_IPV4 ? WREN_WC_SL_ROCE_IPV4 : WREN_WC_SL_ROCE_IPV6;
}

/*
 * The wr_id of the WQE a CQE of @qp completes, and the work queue slots it
 * frees.  Send WQEs complete in order, so a send CQE also retires every
 * earlier unsignalled WQE; receive WQEs of an RQ complete in order too;
 * SRQ slots may complete in any order and are freed one by one.
 */
static uint64_t wren_cqe_wr_id(struct wren_qp *qp, const struct wren_cqe *cqe)
{
	uint16_t idx16 = le16toh(cqe->wqe_idx);
	struct wren_wq *wq;
	uint64_t wr_id;
	uint32_t idx;

	if (wren_cqe_is_recv(cqe->opcode) && qp->srq)
		return wren_srq_complete(qp->srq, idx16);
	wq = wren_cqe_is_recv(cqe->opcode) ? &qp->rq : &qp->sq;
	idx = wren_wqe_idx_expand(wq->tail, idx16);
	wr_id = wq->wrid[idx & (wq->entries - 1)];
	/*
	 * Posters read tail to find free slots: publish it only after the
	 * slot's wr_id has been read.
	 */
	__atomic_store_n(&wq->tail, idx + 1, __ATOMIC_RELEASE);
	return wr_id;
}

static bool wren_cqe_xrc(const struct wren_cqe *cqe)
{
	return le16toh(cqe->flags) & WREN_CQE_F_XRC;
}

/*
 * A receive through an XRC SRQ (WREN_CQE_F_XRC): src_qp names the SRQ,
 * which frees its slot as for a QP's SRQ receive; qpn is the XRC target
 * QP's, which may be another process's.  An SRQ this context does not
 * have (the device is confused) completes nothing: the entry is reported
 * as a general error (in @cqe, the caller's copy) with wr_id 0.
 */
static uint64_t wren_cqe_xrc_wr_id(struct wren_cq *cq, struct wren_cqe *cqe)
{
	struct wren_context *ctx = to_wren_ctx(cq->verbs_cq.cq.context);
	struct wren_srq *srq;

	srq = wren_find_srq(ctx, le32toh(cqe->src_qp) & WREN_QPN_MASK);
	if (unlikely(!srq || srq->xrc_cq != cq)) {
		cqe->status = WREN_CQE_GENERAL_ERR;
		return 0;
	}
	return wren_srq_complete(srq, le16toh(cqe->wqe_idx));
}

/*
 * The next CQE to report, copied to @cqe, and its wr_id (the slots it
 * frees, freed).  A CQE of a QP already destroyed (wren_cq_clean raced
 * with the device) is dropped.
 */
static bool wren_cq_next_wc(struct wren_cq *cq, struct wren_cqe *cqe,
			    uint64_t *wr_id)
{
	struct wren_context *ctx = to_wren_ctx(cq->verbs_cq.cq.context);
	struct wren_qp *qp;

	while (wren_cq_next(cq, cqe)) {
		if (wren_cqe_xrc(cqe)) {
			*wr_id = wren_cqe_xrc_wr_id(cq, cqe);
			return true;
		}
		qp = wren_find_qp(ctx, le32toh(cqe->qpn) & WREN_QPN_MASK);
		if (qp) {
			*wr_id = wren_cqe_wr_id(qp, cqe);
			return true;
		}
	}
	return false;
}

/* UD's sender; an XRC receive's src_qp is its SRQ, no source QP. */
static uint32_t wren_wc_src_qp(const struct wren_cqe *cqe)
{
	if (wren_cqe_xrc(cqe))
		return 0;
	return le32toh(cqe->src_qp) & WREN_QPN_MASK;
}

static void wren_fill_wc(const struct wren_cqe *cqe, uint64_t wr_id,
			 struct ibv_wc *wc)
{
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = wr_id;
	wc->status = wren_wc_status(cqe->status);
	wc->vendor_err = cqe->vendor_err;
	wc->qp_num = le32toh(cqe->qpn) & WREN_QPN_MASK;
	wc->opcode = wren_wc_opcode(cqe->opcode);
	if (wc->status != IBV_WC_SUCCESS)
		return;
	wc->byte_len = le32toh(cqe->byte_len);
	wc->wc_flags = wren_wc_flags(cqe);
	if (wc->wc_flags & IBV_WC_WITH_IMM)
		wc->imm_data = cqe->imm_data;
	else if (wc->wc_flags & IBV_WC_WITH_INV)
		wc->invalidated_rkey = le32toh(cqe->inv_rkey);
	wc->src_qp = wren_wc_src_qp(cqe);
	wc->sl = wren_wc_sl(cqe);
}

int wren_poll_cq(struct ibv_cq *ibcq, int ne, struct ibv_wc *wc)
{
	struct wren_cq *cq = to_wren_cq(ibcq);
	struct wren_cqe cqe;
	uint64_t wr_id;
	int n = 0;

	pthread_spin_lock(&cq->lock);
	while (n < ne && wren_cq_next_wc(cq, &cqe, &wr_id))
		wren_fill_wc(&cqe, wr_id, &wc[n++]);
	if (n)
		wren_cq_update_ci(cq);
	pthread_spin_unlock(&cq->lock);
	return n;
}

/* --------------------------------------------- ibv_cq_ex poll interface */

/* The next CQE into cq->cur, and its wr_id and status into @cqx. */
static bool wren_cqx_load(struct wren_cq *cq)
{
	struct ibv_cq_ex *cqx = &cq->verbs_cq.cq_ex;

	if (!wren_cq_next_wc(cq, &cq->cur, &cqx->wr_id))
		return false;
	cqx->status = wren_wc_status(cq->cur.status);
	return true;
}

static int wren_start_poll(struct ibv_cq_ex *cqx, struct ibv_poll_cq_attr *attr)
{
	struct wren_cq *cq = to_wren_cq_ex(cqx);

	if (unlikely(attr->comp_mask))
		return EINVAL;
	if (!cq->single_threaded)
		pthread_spin_lock(&cq->lock);
	if (!wren_cqx_load(cq)) {
		if (!cq->single_threaded)
			pthread_spin_unlock(&cq->lock);
		return ENOENT;
	}
	return 0;
}

static int wren_next_poll(struct ibv_cq_ex *cqx)
{
	return wren_cqx_load(to_wren_cq_ex(cqx)) ? 0 : ENOENT;
}

static void wren_end_poll(struct ibv_cq_ex *cqx)
{
	struct wren_cq *cq = to_wren_cq_ex(cqx);

	wren_cq_update_ci(cq);
	if (!cq->single_threaded)
		pthread_spin_unlock(&cq->lock);
}

static enum ibv_wc_opcode wren_wc_read_opcode(struct ibv_cq_ex *cqx)
{
	return wren_wc_opcode(to_wren_cq_ex(cqx)->cur.opcode);
}

static uint32_t wren_wc_read_vendor_err(struct ibv_cq_ex *cqx)
{
	return to_wren_cq_ex(cqx)->cur.vendor_err;
}

static uint32_t wren_wc_read_byte_len(struct ibv_cq_ex *cqx)
{
	return le32toh(to_wren_cq_ex(cqx)->cur.byte_len);
}

/*
 * Also ibv_wc_read_invalidated_rkey(), which returns this value cast to a
 * host-order integer (as ibv_wc.invalidated_rkey shares imm_data).
 */
static __be32 wren_wc_read_imm_data(struct ibv_cq_ex *cqx)
{
	struct wren_cq *cq = to_wren_cq_ex(cqx);

	if (le16toh(cq->cur.flags) & WREN_CQE_F_INV)
		return (__force __be32)le32toh(cq->cur.inv_rkey);
	return cq->cur.imm_data;
}

/* An XRC receive's is the target QP's, which may be another process's. */
static uint32_t wren_wc_read_qp_num(struct ibv_cq_ex *cqx)
{
	return le32toh(to_wren_cq_ex(cqx)->cur.qpn) & WREN_QPN_MASK;
}

static uint32_t wren_wc_read_src_qp(struct ibv_cq_ex *cqx)
{
	return wren_wc_src_qp(&to_wren_cq_ex(cqx)->cur);
}

static unsigned int wren_wc_read_wc_flags(struct ibv_cq_ex *cqx)
{
	return wren_wc_flags(&to_wren_cq_ex(cqx)->cur);
}

/* RoCE has no LIDs or path bits. */
static uint32_t wren_wc_read_slid(struct ibv_cq_ex *cqx)
{
	return 0;
}

static uint8_t wren_wc_read_sl(struct ibv_cq_ex *cqx)
{
	return wren_wc_sl(&to_wren_cq_ex(cqx)->cur);
}

static uint8_t wren_wc_read_dlid_path_bits(struct ibv_cq_ex *cqx)
{
	return 0;
}

/* Device clock ticks are nanoseconds of real time (WREN_CLOCK_KHZ). */
static uint64_t wren_wc_read_completion_ts(struct ibv_cq_ex *cqx)
{
	return to_wren_cq_ex(cqx)->cur_ts;
}

static void wren_cq_fill_ops(struct wren_cq *cq,
			     const struct ibv_cq_init_attr_ex *attr)
{
	struct ibv_cq_ex *cqx = &cq->verbs_cq.cq_ex;

	cqx->start_poll = wren_start_poll;
	cqx->next_poll = wren_next_poll;
	cqx->end_poll = wren_end_poll;
	cqx->read_opcode = wren_wc_read_opcode;
	cqx->read_vendor_err = wren_wc_read_vendor_err;
	cqx->read_wc_flags = wren_wc_read_wc_flags;
	if (attr->wc_flags & IBV_WC_EX_WITH_BYTE_LEN)
		cqx->read_byte_len = wren_wc_read_byte_len;
	if (attr->wc_flags & IBV_WC_EX_WITH_IMM)
		cqx->read_imm_data = wren_wc_read_imm_data;
	if (attr->wc_flags & IBV_WC_EX_WITH_QP_NUM)
		cqx->read_qp_num = wren_wc_read_qp_num;
	if (attr->wc_flags & IBV_WC_EX_WITH_SRC_QP)
		cqx->read_src_qp = wren_wc_read_src_qp;
	if (attr->wc_flags & IBV_WC_EX_WITH_SLID)
		cqx->read_slid = wren_wc_read_slid;
	if (attr->wc_flags & IBV_WC_EX_WITH_SL)
		cqx->read_sl = wren_wc_read_sl;
	if (attr->wc_flags & IBV_WC_EX_WITH_DLID_PATH_BITS)
		cqx->read_dlid_path_bits = wren_wc_read_dlid_path_bits;
	if (attr->wc_flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP)
		cqx->read_completion_ts = wren_wc_read_completion_ts;
	if (attr->wc_flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK)
		cqx->read_completion_wallclock_ns = wren_wc_read_completion_ts;
}

/* ------------------------------------------------------------- arming */

int wren_arm_cq(struct ibv_cq *ibcq, int solicited_only)
{
	struct wren_cq *cq = to_wren_cq(ibcq);
	struct wren_context *ctx = to_wren_ctx(ibcq->context);
	uint32_t flags = solicited_only ? WREN_DB_CQ_ARM_SOLICITED :
					  WREN_DB_CQ_ARM_NEXT;

	/*
	 * The consumer index travels with the arm, so the device signals at
	 * once if entries beyond it are already there.
	 */
	pthread_spin_lock(&cq->lock);
	wren_cq_update_ci(cq);
	wren_ring_db(ctx, WREN_DB_CQ, WREN_DB_VAL(cq->cqn, flags, cq->ci));
	pthread_spin_unlock(&cq->lock);
	return 0;
}

/* --------------------------------------------------- create / destroy */

/*
 * The ring for @cqe entries: log2 of its size in @log_size, or EINVAL
 * beyond the device's limits.  Every slot is usable: with free-running
 * indexes and the phase bit a full ring differs from an empty one.
 */
static int wren_cq_log_size(const struct wren_context *ctx, unsigned int cqe,
			    unsigned int *log_size)
{
	if (cqe < 1 || cqe > ctx->max_cqe || cqe > (1u << ctx->max_cq_log_size))
		return EINVAL;
	*log_size = wren_ilog2(wren_roundup_pow2(cqe));
	if (*log_size < WREN_CQ_LOG_SIZE_MIN)
		*log_size = WREN_CQ_LOG_SIZE_MIN;
	return 0;
}

static struct ibv_cq_ex *wren_cq_create(struct ibv_context *ibctx,
					struct ibv_cq_init_attr_ex *attr)
{
	struct wren_context *ctx = to_wren_ctx(ibctx);
	uint64_t wc_flags = WREN_CQ_WC_FLAGS;
	struct wren_create_cq_resp resp = {};
	struct ibv_cq_init_attr_ex kattr;
	struct wren_create_cq cmd = {};
	unsigned int log_size;
	size_t ring_size;
	struct wren_cq *cq;
	int ret;

	if (ctx->caps & WREN_CAP_TIMESTAMP)
		wc_flags |= WREN_CQ_WC_TS_FLAGS;
	if (!check_comp_mask(attr->comp_mask, IBV_CQ_INIT_ATTR_MASK_FLAGS |
					      IBV_CQ_INIT_ATTR_MASK_PD) ||
	    !check_comp_mask(attr->wc_flags, wc_flags) ||
	    ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
	     !check_comp_mask(attr->flags, IBV_CREATE_CQ_ATTR_SINGLE_THREADED))) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (wren_cq_log_size(ctx, attr->cqe, &log_size)) {
		errno = EINVAL;
		return NULL;
	}
	/* IBV_CQ_INIT_ATTR_MASK_PD names a parent domain, not a plain PD. */
	if ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_PD) &&
	    (!attr->parent_domain || attr->parent_domain->context != ibctx ||
	     !to_wren_pd(attr->parent_domain)->protection)) {
		errno = EINVAL;
		return NULL;
	}

	cq = calloc(1, sizeof(*cq));
	if (!cq) {
		errno = ENOMEM;
		return NULL;
	}
	if (pthread_spin_init(&cq->lock, PTHREAD_PROCESS_PRIVATE))
		goto err_free;
	if (attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_PD)
		cq->parent = wren_pd_hold(attr->parent_domain);
	cq->single_threaded = ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
			       (attr->flags & IBV_CREATE_CQ_ATTR_SINGLE_THREADED)) ||
			      (cq->parent && cq->parent->td);

	/*
	 * Either timestamp needs 64-byte entries, which the kernel makes for
	 * IBV_WC_EX_WITH_COMPLETION_TIMESTAMP's flag (and only for it).
	 */
	kattr = *attr;
	if (attr->wc_flags & WREN_CQ_WC_TS_FLAGS)
		kattr.wc_flags |= IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	cq->stride = kattr.wc_flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP ?
		     WREN_CQE64_SIZE : WREN_CQE_SIZE;
	ring_size = (size_t)cq->stride << log_size;
	ret = wren_buf_alloc(&cq->buf, ring_size + sizeof(*cq->dbrec),
			     ctx->page_size, cq->parent, WREN_RES_TYPE_CQ);
	if (ret) {
		errno = ret;
		goto err_lock;
	}
	cq->ring = cq->buf.addr;
	cq->dbrec = (struct wren_cq_dbrec *)((uint8_t *)cq->buf.addr + ring_size);
	cq->log_size = log_size;

	cmd.buf_addr = (uintptr_t)cq->ring;
	cmd.dbrec_addr = (uintptr_t)cq->dbrec;
	cmd.log_size = log_size;
	attr->cqe = 1u << log_size;
	kattr.cqe = attr->cqe;
	ret = ibv_cmd_create_cq_ex(ibctx, &kattr, &cq->verbs_cq,
				   &cmd.ibv_cmd, sizeof(cmd),
				   &resp.ibv_resp, sizeof(resp), 0);
	if (ret) {
		errno = ret;
		goto err_buf;
	}
	cq->cqn = resp.cqn;
	wren_cq_fill_ops(cq, attr);
	return &cq->verbs_cq.cq_ex;

err_buf:
	wren_buf_free(&cq->buf);
err_lock:
	wren_pd_release(cq->parent);
	pthread_spin_destroy(&cq->lock);
err_free:
	free(cq);
	return NULL;
}

struct ibv_cq *wren_create_cq(struct ibv_context *ibctx, int cqe,
			      struct ibv_comp_channel *channel, int vector)
{
	struct ibv_cq_init_attr_ex attr = {
		.cqe = cqe,
		.channel = channel,
		.comp_vector = vector,
		.wc_flags = IBV_WC_STANDARD_FLAGS,
	};
	struct ibv_cq_ex *cqx;

	if (cqe < 1) {
		errno = EINVAL;
		return NULL;
	}
	cqx = wren_cq_create(ibctx, &attr);
	return cqx ? ibv_cq_ex_to_cq(cqx) : NULL;
}

struct ibv_cq_ex *wren_create_cq_ex(struct ibv_context *ibctx,
				    struct ibv_cq_init_attr_ex *attr)
{
	return wren_cq_create(ibctx, attr);
}

/*
 * A new ring, zeroed, with a consumer index of 0 in its record; the NIC
 * moves the entries not yet polled to its start and restarts the indexes
 * (RESIZE_CQ), so polling goes on from 0.  The lock keeps pollers and
 * arming out while the CQ changes rings.  More entries not yet polled
 * than the new size holds: EINVAL from the kernel, the CQ as it was.
 */
int wren_resize_cq(struct ibv_cq *ibcq, int cqe)
{
	struct wren_context *ctx = to_wren_ctx(ibcq->context);
	struct wren_cq *cq = to_wren_cq(ibcq);
	struct wren_resize_cq_resp resp = {};
	struct wren_resize_cq cmd = {};
	struct wren_buf buf, old;
	unsigned int log_size;
	size_t ring_size;
	int ret;

	if (!(ctx->caps & WREN_CAP_CQ_RESIZE))
		return EOPNOTSUPP;
	if (cqe < 1 || wren_cq_log_size(ctx, (unsigned int)cqe, &log_size))
		return EINVAL;
	ring_size = (size_t)cq->stride << log_size;
	ret = wren_buf_alloc(&buf, ring_size + sizeof(*cq->dbrec),
			     ctx->page_size, cq->parent, WREN_RES_TYPE_CQ);
	if (ret)
		return ret;

	cmd.buf_addr = (uintptr_t)buf.addr;
	cmd.dbrec_addr = (uintptr_t)buf.addr + ring_size;
	cmd.log_size = log_size;
	pthread_spin_lock(&cq->lock);
	/* What was polled is not moved. */
	wren_cq_update_ci(cq);
	ret = ibv_cmd_resize_cq(ibcq, cqe, &cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	if (ret) {
		pthread_spin_unlock(&cq->lock);
		wren_buf_free(&buf);
		return ret;
	}
	old = cq->buf;
	cq->buf = buf;
	cq->ring = buf.addr;
	cq->dbrec = (struct wren_cq_dbrec *)((uint8_t *)buf.addr + ring_size);
	cq->log_size = log_size;
	cq->ci = 0;
	pthread_spin_unlock(&cq->lock);
	wren_buf_free(&old);
	return 0;
}

int wren_destroy_cq(struct ibv_cq *ibcq)
{
	struct wren_cq *cq = to_wren_cq(ibcq);
	int ret;

	ret = ibv_cmd_destroy_cq(ibcq);
	if (ret)
		return ret;
	wren_buf_free(&cq->buf);
	wren_pd_release(cq->parent);
	pthread_spin_destroy(&cq->lock);
	free(cq);
	return 0;
}

/*
 * Relabel the written entries past the consumer index that @match picks
 * with qpn 0xffffff, which the NIC never assigns and polling skips (and
 * without WREN_CQE_F_XRC, so that polling does not look for their SRQ);
 * @match does what dropping one needs.
 */
static void wren_cq_drop(struct wren_cq *cq,
			 bool (*match)(struct wren_cqe *cqe, uint32_t num,
				       struct wren_srq *srq),
			 uint32_t num, struct wren_srq *srq)
{
	uint32_t mask = (1u << cq->log_size) - 1;
	uint32_t i;

	pthread_spin_lock(&cq->lock);
	for (i = cq->ci;; i++) {
		struct wren_cqe *cqe = wren_cq_cqe(cq, i);

		if (!wren_cqe_owned(*(volatile uint8_t *)&cqe->owner, i,
				    cq->log_size) || i - cq->ci > mask)
			break;
		udma_from_device_barrier();
		if (!match(cqe, num, srq))
			continue;
		cqe->qpn = htole32(0xffffff);
		cqe->flags &= ~htole16(WREN_CQE_F_XRC);
	}
	pthread_spin_unlock(&cq->lock);
}

/*
 * A CQE of QP @qpn; a dropped receive completion of its SRQ (@srq, or
 * NULL) gives the slot back, or the slot would stay busy for good.  An
 * XRC receive is its SRQ's, not its target QP's.
 */
static bool wren_cqe_of_qp(struct wren_cqe *cqe, uint32_t qpn,
			   struct wren_srq *srq)
{
	if (wren_cqe_xrc(cqe) || (le32toh(cqe->qpn) & WREN_QPN_MASK) != qpn)
		return false;
	if (srq && wren_cqe_is_recv(cqe->opcode))
		wren_srq_complete(srq, le16toh(cqe->wqe_idx));
	return true;
}

/*
 * Forget the CQEs still queued for a QP that is being destroyed or reset,
 * so that a later QP that reuses the number does not inherit them.
 */
void wren_cq_clean(struct wren_cq *cq, uint32_t qpn, struct wren_srq *srq)
{
	wren_cq_drop(cq, wren_cqe_of_qp, qpn, srq);
}

static bool wren_cqe_of_xrc_srq(struct wren_cqe *cqe, uint32_t srqn,
				struct wren_srq *srq)
{
	return wren_cqe_xrc(cqe) &&
	       (le32toh(cqe->src_qp) & WREN_QPN_MASK) == srqn;
}

/* Forget the receives still queued of an XRC SRQ that is being destroyed. */
void wren_cq_clean_xrc_srq(struct wren_cq *cq, uint32_t srqn)
{
	wren_cq_drop(cq, wren_cqe_of_xrc_srq, srqn, NULL);
}
