// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libFuzzer harness: MMIO on BAR0 (registers) and BAR2 (doorbell pages),
 * as a buggy or hostile driver does them: any offset, value and access
 * size, on a device with live queues to ring (an EQ, CQs on the kernel's
 * and on a user doorbell page, an RC QP, Ethernet TX and RX queues), with
 * time passing, bus resets and link changes in between.  Reads are
 * checked against what the contract promises whatever was written
 * before: MAGIC and the identity registers never change, write-only
 * doorbells read 0, odd sizes and misaligned reads all-ones, BAR2 reads 0.
 * Record format: fuzz_mmio.h.
 */
#include <string.h>

#include "fuzz_mmio.h"
#include "fz.h"

static void make_queues(struct td *d)
{
	struct wren_create_eth_q_in q;
	uint64_t ring = td_alloc(d, 4096, 4096);
	int64_t pd, uar, eq, cq0, cq1;

	eq = td_create_eq(d, 6, 1, NULL);
	pd = td_alloc_pd(d);
	uar = td_alloc_uar(d);
	cq0 = td_create_cq(d, (uint32_t)eq, WREN_KERNEL_UAR, 6);
	cq1 = td_create_cq(d, (uint32_t)eq, (uint32_t)uar, 6);
	if (eq < 0 || pd < 0 || uar < 0 || cq0 < 0 || cq1 < 0 ||
	    td_create_qp(d, WREN_QPT_RC, (uint32_t)pd, (uint32_t)cq0,
			 WREN_KERNEL_UAR) < 0)
		fz_fail("setup: objects refused");
	memset(&q, 0, sizeof(q));
	q.ring.addr = ring;
	q.ring.page_shift = 12;
	q.cqn = (uint32_t)cq0;
	q.log_size = 4;
	td_cmd(d, WREN_AQ_OP_CREATE_ETH_TXQ, NULL, 0, &q, sizeof(q), NULL, 0);
	q.ring.addr = td_alloc(d, 4096, 4096);
	td_cmd(d, WREN_AQ_OP_CREATE_ETH_RXQ, NULL, 0, &q, sizeof(q), NULL, 0);
}

static void check_read(uint64_t off, unsigned int size, uint64_t v)
{
	if (off >= WREN_REGS_SIZE || (size != 4 && size != 8) ||
	    (off & (size - 1))) {
		if (v != UINT64_MAX)
			fz_fail("odd or misaligned BAR0 read is not all-ones");
		return;
	}
	if (size == 8)
		return;
	switch (off) {
	case WREN_REG_MAGIC:
		if (v != WREN_MAGIC)
			fz_fail("MAGIC changed");
		break;
	case WREN_REG_CONTRACT:
		if (v != (WREN_CONTRACT_MAJOR << 16 | WREN_CONTRACT_MINOR))
			fz_fail("CONTRACT changed");
		break;
	case WREN_REG_AQ_PI:
	case WREN_REG_ACQ_CI:
	case WREN_REG_AEQ_CI:
		if (v)
			fz_fail("a write-only doorbell register reads non-zero");
		break;
	default:
		break;
	}
}

static void reg_read(struct td *d, uint64_t off, unsigned int size)
{
	check_read(off, size, wrenhw_mmio_read(d->h->hw, WREN_BAR_REGS, off,
					       size));
}

static void raw(struct td *d, struct fz_in *in)
{
	uint8_t bar = fz_u8(in);
	unsigned int size = fz_u8(in);
	uint64_t off = fz_u32(in);
	uint64_t val = fz_u64(in);

	/* Mostly the two BARs the device has, now and then any. */
	if (bar < 0xf0)
		bar = bar & 1 ? WREN_BAR_DB : WREN_BAR_REGS;
	if (size < 0xf0)
		size = 1u << (size & 3);
	if (bar == WREN_BAR_DB && off < 0xf0000000u)
		off %= wrenhw_bar_size(d->h->hw, WREN_BAR_DB) + 4096;
	if (fz_u8(in) & 1) {
		uint64_t v = wrenhw_mmio_read(d->h->hw, bar, off, size);

		if (bar == WREN_BAR_REGS)
			check_read(off, size, v);
		else if (v)
			fz_fail("a BAR other than 0 reads non-zero");
	} else {
		wrenhw_mmio_write(d->h->hw, bar, off, val, size);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	struct td *d = fz_new();
	uint32_t off, v;
	uint8_t how;

	make_queues(d);
	while (fz_more(&in)) {
		switch (fz_u8(&in) % FM_KINDS) {
		case FM_REG_WRITE:
			off = fz_u16(&in);
			th_reg_write(d->h, off, fz_u32(&in));
			break;
		case FM_REG_READ:
			off = fz_u16(&in);
			reg_read(d, off, fz_u8(&in) % 9);
			break;
		case FM_DB_WRITE:
			/* The 4 pages the board has, and 4 it has not. */
			off = (uint32_t)(fz_u8(&in) % 8) * WREN_DB_PAGE_SIZE;
			off += fz_u16(&in) % WREN_DB_PAGE_SIZE;
			wrenhw_mmio_write(d->h->hw, WREN_BAR_DB, off,
					  fz_u64(&in), 8);
			break;
		case FM_RAW:
			raw(d, &in);
			break;
		case FM_RUN:
			th_run(d->h);
			fz_settle(d, (uint64_t)fz_u32(&in) * 1000);
			break;
		default:
			how = fz_u8(&in);
			v = fz_u32(&in);
			if (how & 1)
				wrenhw_reset(d->h->hw);
			else
				wrenhw_set_link(d->h->hw, how & 2, v);
			break;
		}
	}
	th_run(d->h);
	fz_check(d);
	fz_free(d);
	return 0;
}
