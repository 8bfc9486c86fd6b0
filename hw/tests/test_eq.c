// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion EQs and CQ arming: creation checks, ring descriptors (paged
 * and contiguous, overlap), doorbells and their page binding, completion
 * events through the model's internal notify hook, overrun.
 */
#include "tests.h"
#include "wrenhw_int.h"

#define SYND_EQ(f)	SYND_CMD(u.create_eq.f)

static struct wren_aq_create_eq eq_args(struct td *d, uint8_t log)
{
	struct wren_aq_create_eq c;

	memset(&c, 0, sizeof(c));
	c.ring.addr = td_alloc(d, (uint64_t)16 << log, 4096);
	c.ring.page_shift = 12;
	c.log_size = log;
	c.msix_vector = 2;
	return c;
}

static struct td_res create_eq(struct td *d, struct wren_aq_create_eq *c)
{
	return td_cmd(d, WREN_AQ_OP_CREATE_EQ, c, sizeof(*c), NULL, 0, NULL, 0);
}

static void create_checks(void)
{
	struct wrenhw_config cfg = { .mac = { 2, 0, 0, 0, 0, 1 }, .max_eq = 3 };
	struct td *d = td_new(&cfg);
	struct wren_aq_create_eq c;
	uint64_t list, pages[2];
	struct td_res r;

	c = eq_args(d, 0);
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_SIZE, SYND_EQ(log_size),
	       "CREATE_EQ log size 0 -> BAD_SIZE");
	c = eq_args(d, 17);
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_SIZE, SYND_EQ(log_size),
	       "CREATE_EQ log size 17 -> BAD_SIZE");
	c = eq_args(d, 4);
	c.msix_vector = 16;
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_PARAM, SYND_EQ(msix_vector),
	       "CREATE_EQ vector beyond NUM_MSIX -> BAD_PARAM");
	c = eq_args(d, 4);
	c.rsvd0 = 1;
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_PARAM, SYND_EQ(rsvd0),
	       "CREATE_EQ rsvd0 -> BAD_PARAM");
	c = eq_args(d, 4);
	c.rsvd1[1] = 1;
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_PARAM, SYND_EQ(rsvd1) + 4,
	       "CREATE_EQ rsvd1 -> BAD_PARAM");
	c = eq_args(d, 4);
	c.ring.addr = 0;
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_ADDR, SYND_EQ(ring.addr),
	       "CREATE_EQ ring at 0 -> BAD_ADDR");
	c = eq_args(d, 4);
	c.ring.addr += 0x800;
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_ADDR, SYND_EQ(ring.addr),
	       "CREATE_EQ unaligned ring -> BAD_ADDR");
	c = eq_args(d, 4);
	c.ring.page_shift = 11;
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_EQ(ring.page_shift), "page_shift 11 -> BAD_PARAM");
	c.ring.page_shift = 31;
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_EQ(ring.page_shift), "page_shift 31 -> BAD_PARAM");
	c = eq_args(d, 4);
	c.ring.rsvd[2] = 1;
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_PARAM, SYND_EQ(ring.rsvd),
	       "ring descriptor reserved bytes -> BAD_PARAM");
	c = eq_args(d, 4);
	c.ring.addr = d->aq;
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_ADDR, SYND_EQ(ring.addr),
	       "EQ ring overlapping the AQ -> BAD_ADDR");
	c.ring.addr = d->aeq;
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_ADDR, SYND_EQ(ring.addr),
	       "EQ ring overlapping the AEQ -> BAD_ADDR");

	/* Paged rings: 2^9 EQEs = 8 KiB = two 4 KiB pages, discontiguous. */
	pages[1] = td_alloc(d, 0x20000, 4096);
	pages[0] = pages[1] + 0x10000;
	list = td_alloc(d, 16, 8);
	th_mem_write(d->h, list, pages, sizeof(pages));
	c = eq_args(d, 9);
	c.ring.addr = list;
	c.ring.npages = 3;
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_SIZE, SYND_EQ(ring.npages),
	       "page list longer than the ring -> BAD_SIZE");
	c.ring.npages = 1;
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_SIZE, SYND_EQ(ring.npages),
	       "page list shorter than the ring -> BAD_SIZE");
	c.ring.npages = 2;
	c.ring.addr = list + 4;
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_ADDR, SYND_EQ(ring.addr),
	       "unaligned page list -> BAD_ADDR");
	c.ring.addr = list;
	th_fault_add(d->h, list, 16, true, false);
	expect(create_eq(d, &c), WREN_AQ_STATUS_DMA_ERROR, SYND_EQ(ring.addr),
	       "page list DMA fault -> DMA_ERROR");
	th_fault_clear(d->h);
	{
		uint64_t bad[2] = { pages[0], pages[0] };

		th_mem_write(d->h, list, bad, sizeof(bad));
		expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_ADDR,
		       SYND_EQ(ring.addr), "page listed twice -> BAD_ADDR");
		bad[1] = pages[1] + 0x200;
		th_mem_write(d->h, list, bad, sizeof(bad));
		expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_ADDR,
		       SYND_EQ(ring.addr), "unaligned page entry -> BAD_ADDR");
		bad[1] = 0;
		th_mem_write(d->h, list, bad, sizeof(bad));
		expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_ADDR,
		       SYND_EQ(ring.addr), "zero page entry -> BAD_ADDR");
	}
	tap_ok(d->h->hw->ring_pages_used == 0,
	       "rejected page lists hold no ring pages");
	th_mem_write(d->h, list, pages, sizeof(pages));
	r = create_eq(d, &c);
	expect(r, WREN_AQ_STATUS_OK, 0, "discontiguous two-page EQ ring");
	tap_ok(d->h->hw->ring_pages_used == 2, "... holds its 2 pages");
	{
		uint64_t dup[2] = { pages[0] + 0x40000, pages[0] + 0x40000 };
		uint64_t list2 = td_alloc(d, 16, 8);

		th_mem_write(d->h, list2, dup, sizeof(dup));
		c.ring.addr = list2;
		create_eq(d, &c);
		tap_ok(d->h->hw->ring_pages_used == 2,
		       "a rejected page list leaves the page count alone");
		c.ring.addr = list;
	}
	tap_ok(r.result == 0, "first eqn is 0");
	c = eq_args(d, 4);
	c.ring.addr = pages[1];
	expect(create_eq(d, &c), WREN_AQ_STATUS_BAD_ADDR, SYND_EQ(ring.addr),
	       "ring overlapping a page of a live paged EQ -> BAD_ADDR");
	{
		/* EQEs land in the listed pages, in list order. */
		struct wrenhw *hw = d->h->hw;
		int64_t cqn = td_create_cq(d, 0, 0, 4);
		struct whw_cq *cq = whw_table_get(&hw->cqs, (uint64_t)cqn);
		struct wren_eqe e0, e256;

		for (int i = 0; i < 257; i++) {
			cq->arm = WREN_DB_CQ_ARM_NEXT;
			whw_cq_notify(hw, cq, false);
		}
		th_mem_read(d->h, pages[0], &e0, sizeof(e0));
		th_mem_read(d->h, pages[1], &e256, sizeof(e256));
		tap_ok(e0.type == WREN_EVENT_COMP && e0.data == cqn &&
		       e0.owner == 1 && e256.type == WREN_EVENT_COMP &&
		       e256.owner == 1,
		       "EQE 0 in the first listed page, EQE 256 in the second");
		td_handle_cmd(d, WREN_AQ_OP_DESTROY_CQ, (uint32_t)cqn, NULL, 0);
	}
	c = eq_args(d, 4);
	expect(create_eq(d, &c), WREN_AQ_STATUS_OK, 0, "second EQ");
	c = eq_args(d, 4);
	expect(create_eq(d, &c), WREN_AQ_STATUS_OK, 0, "third EQ");
	c = eq_args(d, 4);
	expect(create_eq(d, &c), WREN_AQ_STATUS_NO_RESOURCES, ANY_SYND,
	       "fourth EQ with max_eq 3 -> NO_RESOURCES");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_EQ, 1, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DESTROY_EQ");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_EQ, 1, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, SYND_CMD(u.handle.handle),
	       "second DESTROY_EQ -> BAD_HANDLE");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_EQ, 1u << 30, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, SYND_CMD(u.handle.handle),
	       "DESTROY_EQ of a huge handle -> BAD_HANDLE");
	c = eq_args(d, 4);
	r = create_eq(d, &c);
	tap_ok(r.status == 0 && r.result == 1, "a freed eqn is reused (%d %llu)",
	       r.status, (unsigned long long)r.result);
	td_free(d);
}

static bool read_eqe(struct td *d, uint64_t ring, uint32_t log, uint32_t ci,
		     struct wren_eqe *e)
{
	th_mem_read(d->h, ring + (uint64_t)(ci & ((1u << log) - 1)) * 16, e,
		    sizeof(*e));
	return wren_ring_owned(e->owner, ci, log);
}

static void events(void)
{
	struct td *d = td_new(NULL);
	struct wrenhw *hw = d->h->hw;
	struct wren_eqe e;
	struct whw_cq *cq;
	uint64_t ring;
	int64_t eqn, cqn, uar, cqn2;
	uint64_t cnt[WREN_NUM_PORT_COUNTERS];
	struct wren_aq_counters set = { .set = WREN_COUNTERS_PORT };

	eqn = td_create_eq(d, 1, 3, &ring);
	cqn = td_create_cq(d, (uint32_t)eqn, 0, 4);
	uar = td_alloc_uar(d);
	cqn2 = td_create_cq(d, (uint32_t)eqn, (uint32_t)uar, 4);
	tap_ok(eqn == 0 && cqn == 0 && uar == 1 && cqn2 == 1,
	       "EQ, CQ on UAR 0, UAR 1, CQ on UAR 1");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_EQ, (uint32_t)eqn, NULL, 0),
	       WREN_AQ_STATUS_BUSY, SYND_CMD(u.handle.handle),
	       "DESTROY_EQ with CQs on it -> BUSY");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEALLOC_UAR, (uint32_t)uar, NULL, 0),
	       WREN_AQ_STATUS_BUSY, SYND_CMD(u.handle.handle),
	       "DEALLOC_UAR with a CQ bound -> BUSY");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEALLOC_UAR, 0, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, ANY_SYND,
	       "the kernel's UAR 0 cannot be freed");

	cq = whw_table_get(&hw->cqs, (uint64_t)cqn);
	whw_cq_notify(hw, cq, false);
	tap_ok(!read_eqe(d, ring, 1, 0, &e), "unarmed CQ raises no event");
	th_db_write(d->h, 0, WREN_DB_CQ,
		    WREN_DB_VAL((uint32_t)cqn, WREN_DB_CQ_ARM_SOLICITED, 0));
	whw_cq_notify(hw, cq, false);
	tap_ok(!read_eqe(d, ring, 1, 0, &e),
	       "ARM_SOLICITED ignores unsolicited completions");
	whw_cq_notify(hw, cq, true);
	tap_ok(read_eqe(d, ring, 1, 0, &e) && e.type == WREN_EVENT_COMP &&
	       e.data == cqn, "solicited completion -> COMP event");
	tap_ok(d->h->irqs[3] == 0, "unarmed EQ: no interrupt");
	th_db_write(d->h, 0, WREN_DB_EQ,
		    WREN_DB_VAL((uint32_t)eqn, WREN_DB_EQ_ARM, 0));
	tap_ok(d->h->irqs[3] == 1, "arming an EQ with a pending EQE fires now");
	th_db_write(d->h, 0, WREN_DB_EQ,
		    WREN_DB_VAL((uint32_t)eqn, WREN_DB_EQ_ARM, 1));
	th_db_write(d->h, 0, WREN_DB_CQ,
		    WREN_DB_VAL((uint32_t)cqn, WREN_DB_CQ_ARM_NEXT, 0));
	whw_cq_notify(hw, cq, false);
	tap_ok(d->h->irqs[3] == 2 && read_eqe(d, ring, 1, 1, &e) &&
	       e.data == cqn, "armed EQ interrupts on its vector");
	whw_cq_notify(hw, cq, false);
	tap_ok(!read_eqe(d, ring, 1, 2, &e), "CQ arm is one-shot");

	/* Overrun: EQ of 2, consumer at 1, two more events. */
	th_db_write(d->h, 0, WREN_DB_CQ,
		    WREN_DB_VAL((uint32_t)cqn, WREN_DB_CQ_ARM_NEXT, 0));
	whw_cq_notify(hw, cq, false);
	th_db_write(d->h, 0, WREN_DB_CQ,
		    WREN_DB_VAL((uint32_t)cqn, WREN_DB_CQ_ARM_NEXT, 0));
	whw_cq_notify(hw, cq, false);
	tap_ok(read_eqe(d, ring, 1, 2, &e) && !read_eqe(d, ring, 1, 3, &e),
	       "full EQ: the event is dropped, the ring not overrun");
	tap_ok(td_aeq_poll(d, &e) && e.type == WREN_EVENT_EQ_OVERRUN &&
	       e.data == eqn, "EQ_OVERRUN on the AEQ names the EQ");
	/* A faulting EQ ring: the EQ stops and the driver hears of it. */
	th_db_write(d->h, 0, WREN_DB_EQ, WREN_DB_VAL((uint32_t)eqn, 0, 3));
	th_fault_add(d->h, ring, 32, false, true);
	th_db_write(d->h, 0, WREN_DB_CQ,
		    WREN_DB_VAL((uint32_t)cqn, WREN_DB_CQ_ARM_NEXT, 0));
	whw_cq_notify(hw, cq, false);
	th_fault_clear(d->h);
	tap_ok(td_aeq_poll(d, &e) && e.type == WREN_EVENT_EQ_OVERRUN &&
	       e.data == eqn && e.sub == WREN_WQ_SYND_DMA,
	       "EQ ring DMA fault -> EQ_OVERRUN with sub DMA");
	th_db_write(d->h, 0, WREN_DB_EQ, WREN_DB_VAL((uint32_t)eqn, 0, 7));
	tap_ok(td_aeq_count(d, WREN_EVENT_DB_ERR) == 1,
	       "EQ consumer index beyond producer -> DB_ERR");

	/* Page binding. */
	th_db_write(d->h, (uint32_t)uar, WREN_DB_CQ,
		    WREN_DB_VAL((uint32_t)cqn, WREN_DB_CQ_ARM_NEXT, 0));
	th_db_write(d->h, (uint32_t)uar, WREN_DB_CQ,
		    WREN_DB_VAL((uint32_t)cqn, WREN_DB_CQ_ARM_NEXT, 0));
	tap_ok(cq->arm == 0, "CQ doorbell through a foreign page is ignored");
	tap_ok(td_aeq_poll(d, &e) && e.type == WREN_EVENT_DB_ERR &&
	       e.data == cqn && e.data2 == uar && e.sub == 1 &&
	       !td_aeq_poll(d, &e), "... and reported once per queue");
	th_db_write(d->h, (uint32_t)uar, WREN_DB_CQ,
		    WREN_DB_VAL((uint32_t)cqn2, WREN_DB_CQ_ARM_NEXT, 0));
	cq = whw_table_get(&hw->cqs, (uint64_t)cqn2);
	tap_ok(cq->arm == WREN_DB_CQ_ARM_NEXT, "its own page arms the CQ");
	cq->arm = 0;
	th_db_write(d->h, (uint32_t)uar, WREN_DB_CQ,
		    WREN_DB_VAL((uint32_t)cqn2, WREN_DB_CQ_ARM_NEXT, 3));
	tap_ok(cq->arm == 0 && td_aeq_poll(d, &e) &&
	       e.type == WREN_EVENT_DB_ERR && e.data == cqn2,
	       "CQ consumer index beyond the producer -> ignored, DB_ERR");
	th_db_write(d->h, 1, WREN_DB_EQ, WREN_DB_VAL((uint32_t)eqn, 0, 2));
	th_db_write(d->h, 0, WREN_DB_CQ, WREN_DB_VAL(77, 0, 0));
	wrenhw_mmio_write(hw, 2, WREN_DB_CQ, WREN_DB_VAL(1, 0, 0), 4);
	th_db_write(d->h, 0, 0x30, 0);
	th_db_write(d->h, 5000, WREN_DB_CQ, 0);
	/* The EQ already had its one report (bad consumer index above). */
	tap_ok(td_aeq_count(d, WREN_EVENT_DB_ERR) == 3,
	       "unknown CQ, 4-byte and unknown-offset doorbells reported");
	td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &set, sizeof(set), NULL, 0, cnt,
	       sizeof(cnt));
	tap_ok(cnt[WREN_CNT_DB_ERRORS] == 8,
	       "db_errors counts every ignored doorbell (%llu)",
	       (unsigned long long)cnt[WREN_CNT_DB_ERRORS]);
	td_free(d);
}

/* The completion writer later engines use: phases, full ring, overrun. */
static void cqe_writer(void)
{
	struct td *d = td_new(NULL);
	struct wrenhw *hw = d->h->hw;
	struct wren_create_cq_in in;
	struct wren_cqe cqe, got;
	struct wren_cq_dbrec rec = { 0 };
	struct wren_eqe e;
	struct whw_cq *cq;
	uint32_t eqn = (uint32_t)td_create_eq(d, 4, 2, NULL);
	bool phases = true;
	struct td_res r;

	memset(&in, 0, sizeof(in));
	in.ring.addr = td_alloc(d, 4096, 4096);
	in.ring.page_shift = 12;
	in.dbrec_addr = td_alloc(d, 8, 8);
	in.eqn = eqn;
	in.log_size = 2;			/* 4 CQEs */
	r = td_cmd(d, WREN_AQ_OP_CREATE_CQ, NULL, 0, &in, sizeof(in), NULL, 0);
	cq = whw_table_get(&hw->cqs, r.result);
	memset(&cqe, 0, sizeof(cqe));
	cqe.owner = 0xfe;		/* the device decides the owner byte */
	for (uint32_t i = 0; i < 4; i++) {
		cqe.byte_len = 100 + i;
		phases &= whw_cq_post(hw, cq, &cqe, false) == 0;
		th_mem_read(d->h, in.ring.addr + i * 32, &got, sizeof(got));
		phases &= got.owner == 1 && got.byte_len == 100 + i;
	}
	tap_ok(phases, "CQEs written in order with owner phase 1 on the first pass");
	cqe.byte_len = 200;
	tap_ok(whw_cq_post(hw, cq, &cqe, false) == -1 && td_aeq_poll(d, &e) &&
	       e.type == WREN_EVENT_CQ_ERR && e.sub == WREN_CQ_SYND_OVERRUN &&
	       e.data == r.result, "a fifth CQE in a full ring: CQ_ERR OVERRUN");
	tap_ok(whw_cq_post(hw, cq, &cqe, false) == -1,
	       "a CQ in error takes no more CQEs");
	td_handle_cmd(d, WREN_AQ_OP_DESTROY_CQ, (uint32_t)r.result, NULL, 0);

	/* Same again, but the driver consumed two (doorbell record only). */
	in.ring.addr = td_alloc(d, 4096, 4096);
	r = td_cmd(d, WREN_AQ_OP_CREATE_CQ, NULL, 0, &in, sizeof(in), NULL, 0);
	cq = whw_table_get(&hw->cqs, r.result);
	rec.ci = 0;
	th_mem_write(d->h, in.dbrec_addr, &rec, sizeof(rec));
	for (uint32_t i = 0; i < 4; i++)
		whw_cq_post(hw, cq, &cqe, false);
	rec.ci = 2;
	th_mem_write(d->h, in.dbrec_addr, &rec, sizeof(rec));
	th_db_write(d->h, 0, WREN_DB_CQ,
		    WREN_DB_VAL((uint32_t)r.result, WREN_DB_CQ_ARM_NEXT, 0));
	cqe.byte_len = 300;
	tap_ok(whw_cq_post(hw, cq, &cqe, true) == 0,
	       "full by the doorbell, room by the doorbell record: written");
	th_mem_read(d->h, in.ring.addr, &got, sizeof(got));
	tap_ok(got.owner == 0 && got.byte_len == 300,
	       "second pass over the ring has owner phase 0");
	tap_ok(d->h->irqs[2] == 0 && cq->arm == 0,
	       "armed CQ fired its completion event (EQ not armed: no IRQ)");
	th_fault_add(d->h, in.ring.addr, 4096, false, true);
	tap_ok(whw_cq_post(hw, cq, &cqe, false) == -1 && td_aeq_poll(d, &e) &&
	       e.type == WREN_EVENT_CQ_ERR && e.sub == WREN_CQ_SYND_DMA,
	       "CQ ring DMA fault: CQ_ERR DMA");
	th_fault_clear(d->h);
	td_free(d);
}

void test_eq(void)
{
	create_checks();
	events();
	cqe_writer();
}
