// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * WREN_CAP_TIMESTAMP: the device clock in its own BAR0 page (counting
 * nanoseconds from reset, set by SET_CLOCK, read HI/LO/HI), and CQs of
 * 64-byte entries whose first half is the clock when the device wrote
 * the completion, the CQE with its owner byte last after it - also after
 * RESIZE_CQ.  Without the capability the clock page reads 0 and both
 * SET_CLOCK and WREN_CQ_F_CQE64 are NOT_SUPPORTED.
 */
#include "tests.h"
#include "wrenhw_int.h"

#define SYND_CQ(f)	SYND_IN(struct wren_create_cq_in, f)

static uint64_t clock_read(struct td *d)
{
	for (int i = 0; i < 4; i++) {
		uint32_t hi = th_reg_read(d->h, WREN_REG_CLOCK_HI);
		uint32_t lo = th_reg_read(d->h, WREN_REG_CLOCK_LO);
		__u64 ns;

		if (wren_clock_join(hi, lo, th_reg_read(d->h, WREN_REG_CLOCK_HI),
				    &ns))
			return ns;
	}
	return UINT64_MAX;
}

static struct td_res set_clock(struct td *d, uint64_t ns)
{
	struct wren_aq_set_clock s;

	memset(&s, 0, sizeof(s));
	s.ns = ns;
	return td_cmd(d, WREN_AQ_OP_SET_CLOCK, &s, sizeof(s), NULL, 0, NULL, 0);
}

static void clock_regs(struct td *d)
{
	struct wren_aq_set_clock s;
	uint64_t t0, t1;
	__u64 torn;

	tap_ok(th_reg_read(d->h, WREN_REG_CAPS_HI) &
	       (uint32_t)(WREN_CAP_TIMESTAMP >> 32),
	       "the board advertises WREN_CAP_TIMESTAMP");
	t0 = clock_read(d);
	th_advance(d->h, 1500);
	t1 = clock_read(d);
	tap_ok(t0 != UINT64_MAX && t1 - t0 == 1500,
	       "the clock counts the host's nanoseconds (1500 ns later: +%llu)",
	       (unsigned long long)(t1 - t0));
	tap_ok(th_reg_read(d->h, WREN_CLOCK_PAGE + 8) == 0 &&
	       th_reg_read(d->h, WREN_CLOCK_PAGE + 0xffc) == 0,
	       "the rest of the clock page reads 0");

	expect(set_clock(d, 0x123456789abcdef0ull), WREN_AQ_STATUS_OK, 0,
	       "SET_CLOCK");
	t0 = clock_read(d);
	th_advance(d->h, 10);
	tap_ok(t0 == 0x123456789abcdef0ull && clock_read(d) == t0 + 10,
	       "the clock reads the value set, and counts on from it");
	set_clock(d, 0x1fffffff0ull);
	th_advance(d->h, 0x20);
	tap_ok(th_reg_read(d->h, WREN_REG_CLOCK_HI) == 2 &&
	       th_reg_read(d->h, WREN_REG_CLOCK_LO) == 0x10,
	       "LO carries into HI");
	tap_ok(!wren_clock_join(1, 0x10, 2, &torn),
	       "wren_clock_join refuses a read that LO's carry tore");

	memset(&s, 0, sizeof(s));
	s.rsvd[3] = 1;
	expect(td_cmd(d, WREN_AQ_OP_SET_CLOCK, &s, sizeof(s), NULL, 0, NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_CMD(u.set_clock.rsvd) + 12,
	       "SET_CLOCK reserved -> BAD_PARAM");
}

static int64_t create_cq(struct td *d, uint32_t eqn, uint8_t flags,
			 uint8_t log, uint32_t npages, uint64_t *ring)
{
	struct wren_create_cq_in in;
	struct td_res r;

	memset(&in, 0, sizeof(in));
	*ring = td_alloc(d, (uint64_t)wren_cqe_stride(flags) << log, 4096);
	if (npages) {
		uint64_t pbl = td_alloc(d, 8ull * npages, 8);

		for (uint32_t i = 0; i < npages; i++) {
			uint64_t a = *ring + 4096ull * i;

			th_mem_write(d->h, pbl + 8ull * i, &a, sizeof(a));
		}
		in.ring.addr = pbl;
		in.ring.npages = npages;
	} else {
		in.ring.addr = *ring;
	}
	in.ring.page_shift = 12;
	in.dbrec_addr = td_alloc(d, 8, 8);
	in.eqn = eqn;
	in.log_size = log;
	in.flags = flags;
	r = td_cmd(d, WREN_AQ_OP_CREATE_CQ, NULL, 0, &in, sizeof(in), NULL, 0);
	return r.completed && !r.status ? (int64_t)r.result : -1;
}

static struct wren_cqe64 entry(struct td *d, uint64_t ring, uint32_t i)
{
	struct wren_cqe64 e;

	th_mem_read(d->h, ring + (uint64_t)i * sizeof(e), &e, sizeof(e));
	return e;
}

static bool ts_rsvd_zero(const struct wren_cqe64 *e)
{
	for (unsigned int i = 0; i < sizeof(e->ts.rsvd) / sizeof(e->ts.rsvd[0]); i++)
		if (e->ts.rsvd[i])
			return false;
	return true;
}

static void cqe64(struct td *d, uint32_t eqn)
{
	struct wren_resize_cq_in rs;
	struct wren_cqe64 e[3];
	struct wren_cqe cqe;
	struct whw_cq *cq;
	uint64_t ring, t[3];
	int64_t cqn;

	expect(td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "NOP");
	cqn = create_cq(d, eqn, WREN_CQ_F_CQE64, 7, 1, &ring);
	tap_ok(cqn < 0, "a 128-entry CQE64 ring in one 4 KiB page is refused");
	cqn = create_cq(d, eqn, WREN_CQ_F_CQE64, 7, 2, &ring);
	tap_ok(cqn >= 0, "a 128-entry CQE64 ring in two pages");
	cq = cqn >= 0 ? whw_table_get(&d->h->hw->cqs, (uint64_t)cqn) : NULL;
	if (!cq)
		return;
	tap_ok(cq->stride == WREN_CQE64_SIZE, "its entries are 64 bytes");

	memset(&cqe, 0, sizeof(cqe));
	for (uint32_t i = 0; i < 3; i++) {
		th_advance(d->h, 1000 + i);
		t[i] = clock_read(d);
		cqe.byte_len = 100 + i;
		whw_cq_post(d->h->hw, cq, &cqe, false);
		e[i] = entry(d, ring, i);
	}
	tap_ok(e[0].ts.timestamp == t[0] && e[1].ts.timestamp == t[1] &&
	       e[2].ts.timestamp == t[2],
	       "each entry carries the clock when it was written");
	tap_ok(e[0].cqe.byte_len == 100 && e[2].cqe.byte_len == 102 &&
	       ts_rsvd_zero(&e[0]) && ts_rsvd_zero(&e[2]),
	       "the CQE follows the timestamp; the reserved bytes are 0");
	tap_ok(wren_cqe_owned(e[0].cqe.owner, 0, 7) &&
	       wren_cqe_owned(e[2].cqe.owner, 2, 7) &&
	       !wren_cqe_owned(entry(d, ring, 3).cqe.owner, 3, 7),
	       "owner, the entry's last byte, has the phase of its index");
	tap_ok(wren_cqe_offset(2, 7, WREN_CQE64_SIZE) ==
	       2 * 64 + offsetof(struct wren_cqe64, cqe),
	       "wren_cqe_offset finds the CQE in a 64-byte entry");

	/* Resize: the unconsumed entries keep their timestamps. */
	memset(&rs, 0, sizeof(rs));
	rs.cqn = (uint32_t)cqn;
	rs.log_size = 2;
	rs.ring.addr = td_alloc(d, 4 * 64, 4096);
	rs.ring.page_shift = 12;
	rs.dbrec_addr = td_alloc(d, 8, 8);
	{
		struct wren_cq_dbrec rec = { .ci = 1 };

		th_mem_write(d->h, cq->dbrec_addr, &rec, sizeof(rec));
	}
	expect(td_cmd(d, WREN_AQ_OP_RESIZE_CQ, NULL, 0, &rs, sizeof(rs), NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "RESIZE_CQ of the CQE64 CQ to 4 entries");
	tap_ok(entry(d, rs.ring.addr, 0).ts.timestamp == t[1] &&
	       entry(d, rs.ring.addr, 1).cqe.byte_len == 102 &&
	       wren_cqe_owned(entry(d, rs.ring.addr, 1).cqe.owner, 1, 2),
	       "the two unconsumed 64-byte entries moved whole, with the new phase");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_CQ, (uint32_t)cqn, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DESTROY_CQ");

	cqn = create_cq(d, eqn, 0, 2, 0, &ring);
	cq = cqn >= 0 ? whw_table_get(&d->h->hw->cqs, (uint64_t)cqn) : NULL;
	tap_ok(cq && cq->stride == WREN_CQE_SIZE,
	       "without the flag a CQ's entries stay 32 bytes");
	if (cq) {
		cqe.byte_len = 7;
		whw_cq_post(d->h->hw, cq, &cqe, false);
		th_mem_read(d->h, ring, &cqe, sizeof(cqe));
		tap_ok(cqe.byte_len == 7 && wren_cqe_owned(cqe.owner, 0, 2),
		       "... and the CQE is written at slot 0 as before");
		td_handle_cmd(d, WREN_AQ_OP_DESTROY_CQ, (uint32_t)cqn, NULL, 0);
	}
}

static void without_cap(struct td *d, uint32_t eqn)
{
	struct wren_create_cq_in in;
	uint64_t ring;

	whw_test_set_caps(d->h->hw, WHW_CAPS & ~WREN_CAP_TIMESTAMP);
	tap_ok(th_reg_read(d->h, WREN_REG_CLOCK_LO) == 0 &&
	       th_reg_read(d->h, WREN_REG_CLOCK_HI) == 0,
	       "without WREN_CAP_TIMESTAMP the clock page reads 0");
	expect(set_clock(d, 1), WREN_AQ_STATUS_NOT_SUPPORTED, SYND_CMD(opcode),
	       "SET_CLOCK without the capability -> NOT_SUPPORTED");
	memset(&in, 0, sizeof(in));
	ring = td_alloc(d, 4096, 4096);
	in.ring.addr = ring;
	in.ring.page_shift = 12;
	in.dbrec_addr = td_alloc(d, 8, 8);
	in.eqn = eqn;
	in.log_size = 2;
	in.flags = WREN_CQ_F_CQE64;
	expect(td_cmd(d, WREN_AQ_OP_CREATE_CQ, NULL, 0, &in, sizeof(in), NULL, 0),
	       WREN_AQ_STATUS_NOT_SUPPORTED, SYND_CQ(flags),
	       "a CQE64 CQ without the capability -> NOT_SUPPORTED");
	whw_test_set_caps(d->h->hw, WHW_CAPS);
}

void test_timestamp(void)
{
	struct td *d = td_new(NULL);
	uint32_t eqn = (uint32_t)td_create_eq(d, 4, 2, NULL);

	clock_regs(d);
	cqe64(d, eqn);
	without_cap(d, eqn);
	td_free(d);
}
