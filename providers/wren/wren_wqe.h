/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Encoding of Wren work queue entries and decoding of completion entries,
 * as the hardware contract (include/linux/wren/wren_queues.h,
 * Documentation/networking/device_drivers/wren/queues.rst) defines them.
 *
 * Pure functions on memory only - no verbs types, no barriers, no MMIO - so
 * that they can be unit tested on the host without rdma-core
 * (providers/wren/tests).  The callers in qp.c and cq.c own ordering.
 */
#ifndef WREN_WQE_H
#define WREN_WQE_H

#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/wren/wren_queues.h>
#include <linux/wren/wren_admin.h>

#define WREN_CTRL_SIZE		sizeof(struct wren_wqe_ctrl)
#define WREN_RQE_HDR_SIZE	sizeof(struct wren_rqe)

/* Smallest power of two >= v, for v >= 1. */
static inline uint32_t wren_roundup_pow2(uint32_t v)
{
	uint32_t r = 1;

	while (r < v)
		r <<= 1;
	return r;
}

static inline unsigned int wren_ilog2(uint32_t v)
{
	unsigned int l = 0;

	while ((1u << (l + 1)) <= v && l < 31)
		l++;
	return l;
}

/* --------------------------------------------------------- send WQEs */

static inline void wren_wqe_ctrl_set(struct wren_wqe_ctrl *c, uint8_t opcode,
				     uint8_t flags, uint8_t ds_count,
				     uint32_t wqe_idx)
{
	c->opcode = opcode;
	c->flags = flags;
	c->ds_count = ds_count;
	c->rsvd0 = 0;
	c->wqe_idx = htole16((uint16_t)wqe_idx);
	c->rsvd1 = 0;
	c->inv_rkey = 0;
	c->xrc_srqn = 0;
}

/*
 * An XRC initiator's WQE names the remote XRC SRQ it is for (the 24 bits
 * of the XRCETH); every other QP's leaves it 0, which the device checks.
 */
static inline void wren_wqe_ctrl_set_xrc_srqn(struct wren_wqe_ctrl *c,
					      uint32_t srqn)
{
	c->xrc_srqn = htole32(srqn & WREN_QPN_MASK);
}

/* imm_data is kept in network byte order, as on the wire and in verbs. */
static inline void wren_wqe_ctrl_set_imm(struct wren_wqe_ctrl *c,
					 uint32_t imm_be)
{
	c->imm_data = imm_be;
}

static inline void wren_wqe_ctrl_set_inv(struct wren_wqe_ctrl *c,
					 uint32_t rkey)
{
	c->inv_rkey = htole32(rkey);
}

static inline void wren_wqe_raddr_set(struct wren_wqe_raddr *r,
				      uint64_t raddr, uint32_t rkey)
{
	r->raddr = htole64(raddr);
	r->rkey = htole32(rkey);
	r->rsvd = 0;
}

static inline void wren_wqe_atomic_set(struct wren_wqe_atomic *a,
				       uint64_t swap_add, uint64_t compare)
{
	a->swap_add = htole64(swap_add);
	a->compare = htole64(compare);
}

static inline void wren_wqe_flush_set(struct wren_wqe_flush *f,
				      uint32_t length, uint8_t type,
				      uint8_t level)
{
	memset(f, 0, sizeof(*f));
	f->length = htole32(length);
	f->type = type;
	f->level = level;
}

/* The 8 bytes go as they are in memory: no byte order of their own. */
static inline void wren_wqe_atomic_write_set(struct wren_wqe_atomic_write *a,
					     const void *data)
{
	memcpy(a->data, data, sizeof(a->data));
	a->rsvd = 0;
}

static inline void wren_wqe_ud_set(struct wren_wqe_ud *u, uint32_t ah,
				   uint32_t dest_qpn, uint32_t qkey)
{
	u->ah = htole32(ah);
	u->dest_qpn = htole32(dest_qpn & WREN_QPN_MASK);
	u->qkey = htole32(qkey);
	u->rsvd = 0;
}

/*
 * BIND_MW (wren_admin.h "MW"): bind the window named by @mw_key's index to
 * [@addr, @addr + @length) of the MR @mr_key, so that @mw_key (the index
 * and the window's new tag) is its key from then on.  @access holds
 * WREN_ACCESS_REMOTE_* only; @type is the window's enum wren_mw_type.
 * The WQE has no data segments.
 */
static inline void wren_wqe_bind_mw_set(struct wren_wqe_bind_mw *b,
					uint32_t mw_key, uint32_t mr_key,
					uint64_t addr, uint64_t length,
					uint32_t access, uint8_t type)
{
	b->mw_key = htole32(mw_key);
	b->mr_key = htole32(mr_key);
	b->addr = htole64(addr);
	b->length = htole64(length);
	b->access = htole32(access);
	b->type = type;
	b->rsvd0[0] = b->rsvd0[1] = b->rsvd0[2] = 0;
}

static inline void wren_sge_set(struct wren_wqe_sge *s, uint64_t addr,
				uint32_t length, uint32_t lkey)
{
	s->addr = htole64(addr);
	s->length = htole32(length);
	s->lkey = htole32(lkey);
}

/* One piece of an inline payload. */
struct wren_inline_buf {
	const void *addr;
	size_t length;
};

/*
 * Write @n buffers as inline data at @ds (the first data segment): a
 * wren_wqe_inline header, then the bytes, zero-padded to a multiple of 16.
 * Returns the data segments used, or -EINVAL when the total exceeds
 * @max_inline.
 */
static inline int wren_inline_write(void *ds, const struct wren_inline_buf *b,
				    size_t n, uint32_t max_inline)
{
	struct wren_wqe_inline *h = ds;
	uint8_t *p = (uint8_t *)(h + 1);
	size_t total = 0, i;
	unsigned int nds;

	for (i = 0; i < n; i++) {
		if (b[i].length > max_inline - total)
			return -EINVAL;
		total += b[i].length;
	}
	for (i = 0; i < n; i++) {
		memcpy(p, b[i].addr, b[i].length);
		p += b[i].length;
	}
	nds = wren_inline_ds(total);
	memset(p, 0, (nds - 1) * WREN_WQE_DS_SIZE - total);
	h->length = htole32(total);
	h->rsvd[0] = h->rsvd[1] = h->rsvd[2] = 0;
	return nds;
}

/* ------------------------------------------------------ receive WQEs */

static inline void wren_rqe_set(struct wren_rqe *r, uint8_t ds_count,
				uint32_t wqe_idx)
{
	r->ds_count = ds_count;
	r->rsvd0 = 0;
	r->wqe_idx = htole16((uint16_t)wqe_idx);
	r->rsvd[0] = r->rsvd[1] = r->rsvd[2] = 0;
}

/* --------------------------------------------------------------- CQEs */

/*
 * A CQE names its WQE by the low 16 bits of its index; recover the full
 * free-running index from the oldest outstanding one (@tail).  Rings hold
 * at most 2^15 entries, so the distance always fits 16 bits.
 */
static inline uint32_t wren_wqe_idx_expand(uint32_t tail, uint16_t idx16)
{
	return tail + (uint16_t)(idx16 - (uint16_t)tail);
}

#endif /* WREN_WQE_H */
