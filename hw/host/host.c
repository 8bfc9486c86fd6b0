// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/wren/wren_hw.h>

#include "host.h"

#define PAGE		4096u
/* The page table starts this small and doubles at half full. */
#define TABLE_MIN	64u

static uint64_t slot_of(const struct th *h, uint64_t pfn)
{
	return ((pfn * 0x9e3779b97f4a7c15ull) >> 32) & (h->slots - 1);
}

/* Doubles the page table; false (and nothing changed) without memory. */
static bool table_grow(struct th *h)
{
	size_t n = h->slots ? 2 * h->slots : TABLE_MIN, old_n = h->slots;
	struct th_page *old = h->pages, *t = calloc(n, sizeof(*t));

	if (!t)
		return false;
	h->pages = t;
	h->slots = n;
	for (size_t i = 0; i < old_n; i++) {
		uint64_t j;

		if (!old[i].pfn)
			continue;
		for (j = slot_of(h, old[i].pfn - 1); t[j].pfn; j = (j + 1) & (n - 1))
			;
		t[j] = old[i];
	}
	free(old);
	return true;
}

/*
 * The C library's memcpy for a piece of a page.  The compiler knows such
 * a piece is at most a page and would otherwise inline it as rep movsq,
 * half as fast as the library on the 1-4 KiB pieces DMA moves; hiding
 * the bound leaves it the call.
 */
static void copy(void *dst, const void *src, size_t n)
{
	__asm__("" : "+r"(n));
	memcpy(dst, src, n);
}

static bool stateless(const struct th *h, uint64_t pfn)
{
	for (unsigned int i = 0; i < h->nnull; i++)
		if (pfn >= h->null[i].start / PAGE && pfn < h->null[i].end / PAGE)
			return true;
	return false;
}

static struct th_page *find_page(struct th *h, uint64_t pfn, bool create)
{
	struct th_page *r = &h->recent[pfn % TH_RECENT];
	uint64_t i;

	/*
	 * A DMA mostly goes back to a page touched lately (the data it
	 * left off in, a ring, a doorbell record): copies of their entries
	 * are kept, so that a hit reads nothing of the table.
	 */
	if (r->pfn == pfn + 1)
		return r;

	if (create && h->npages < h->max_pages &&
	    2 * (h->npages + 1) > h->slots && !table_grow(h))
		return NULL;
	for (i = slot_of(h, pfn);; i = (i + 1) & (h->slots - 1)) {
		struct th_page *p = &h->pages[i];

		if (p->pfn == pfn + 1) {
			*r = *p;
			return r;
		}
		if (!p->pfn)
			break;
	}
	if (!create || h->npages >= h->max_pages)
		return NULL;
	h->pages[i].data = calloc(1, PAGE);
	if (!h->pages[i].data)
		return NULL;
	h->pages[i].pfn = pfn + 1;
	h->npages++;
	*r = h->pages[i];
	return r;
}

static bool faulted(struct th *h, uint64_t addr, size_t len, bool write)
{
	if (addr >= TH_BUS_LIMIT || len > TH_BUS_LIMIT - addr)
		return true;
	for (unsigned int i = 0; i < h->nfaults; i++) {
		const struct th_fault *f = &h->faults[i];

		if ((write ? f->write : f->read) && addr < f->end &&
		    addr + len > f->start)
			return true;
	}
	return false;
}

int th_mem_write(struct th *h, uint64_t addr, const void *buf, size_t len)
{
	const uint8_t *b = buf;

	while (len) {
		size_t off = addr & (PAGE - 1), n = PAGE - off;
		struct th_page *p;

		if (n > len)
			n = len;
		if (!stateless(h, addr / PAGE)) {
			p = find_page(h, addr / PAGE, true);
			if (!p)
				return -1;	/* arena full: the bus says no */
			copy(p->data + off, b, n);
		}
		addr += n;
		b += n;
		len -= n;
	}
	return 0;
}

int th_mem_read(struct th *h, uint64_t addr, void *buf, size_t len)
{
	uint8_t *b = buf;

	while (len) {
		size_t off = addr & (PAGE - 1), n = PAGE - off;
		struct th_page *p;

		if (n > len)
			n = len;
		p = stateless(h, addr / PAGE) ? NULL :
		    find_page(h, addr / PAGE, false);
		if (p)
			copy(b, p->data + off, n);
		else
			memset(b, 0, n);
		addr += n;
		b += n;
		len -= n;
	}
	return 0;
}

static int op_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
	struct th *h = opaque;

	if (faulted(h, addr, len, false)) {
		h->dma_faults++;
		return -1;
	}
	h->dma_reads++;
	h->dma_read_bytes += len;
	return th_mem_read(h, addr, buf, len);
}

static int op_dma_write(void *opaque, uint64_t addr, const void *buf,
			size_t len)
{
	struct th *h = opaque;

	if (faulted(h, addr, len, true)) {
		h->dma_faults++;
		return -1;
	}
	h->dma_writes++;
	h->dma_write_bytes += len;
	return th_mem_write(h, addr, buf, len);
}

static void op_irq(void *opaque, unsigned int vector)
{
	struct th *h = opaque;

	if (vector < TH_MAX_VECTORS)
		h->irqs[vector]++;
}

static void op_tx(void *opaque, const void *frame, size_t len)
{
	struct th *h = opaque;

	if (h->keep_tx && !h->tx)
		h->tx = calloc(TH_MAX_TX, sizeof(*h->tx));
	if (h->tx && h->tx_frames < TH_MAX_TX && len <= TH_TX_MAX_LEN) {
		h->tx[h->tx_frames].len = len;
		memcpy(h->tx[h->tx_frames].data, frame, len);
	}
	h->tx_frames++;
	if (h->tx_hook)
		h->tx_hook(h->tx_ctx, frame, len);
}

static uint64_t op_now(void *opaque)
{
	return ((struct th *)opaque)->now_ns;
}

static void op_timer_mod(void *opaque, uint64_t deadline)
{
	struct th *h = opaque;

	h->timer_deadline = deadline;
	h->timer_mods++;
	if (h->timer_hook)
		h->timer_hook(h->event_ctx, deadline);
}

static void op_schedule(void *opaque)
{
	struct th *h = opaque;

	h->scheduled = true;
	if (h->schedule_hook)
		h->schedule_hook(h->event_ctx);
}

static void op_log(void *opaque, const char *msg)
{
	struct th *h = opaque;

	h->log_lines++;
	if (h->verbose)
		printf("# model: %s\n", msg);
}

static const struct wrenhw_host_ops th_ops = {
	.dma_read = op_dma_read,
	.dma_write = op_dma_write,
	.irq_notify = op_irq,
	.tx_frame = op_tx,
	.now_ns = op_now,
	.timer_mod = op_timer_mod,
	.schedule = op_schedule,
	.log = op_log,
};

struct th *th_create(const struct wrenhw_config *cfg)
{
	static const struct wrenhw_config def = {
		.mac = { 0x02, 0x00, 0x00, 0x57, 0x52, 0x01 },
	};
	struct th *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->cfg = cfg ? *cfg : def;
	h->now_ns = 1000000000ull;
	h->max_pages = TH_MAX_PAGES;
	h->keep_tx = true;
	h->verbose = getenv("WRENHW_TEST_VERBOSE") != NULL;
	if (table_grow(h))
		h->hw = wrenhw_create(&h->cfg, &th_ops, h);
	if (!h->hw) {
		free(h->pages);
		free(h);
		return NULL;
	}
	return h;
}

void th_destroy(struct th *h)
{
	if (!h)
		return;
	wrenhw_destroy(h->hw);
	for (size_t i = 0; i < h->slots; i++)
		free(h->pages[i].data);
	free(h->pages);
	free(h->tx);
	free(h);
}

void th_run(struct th *h)
{
	/* Bounded: the model must settle, never loop on its own. */
	for (int i = 0; i < 64 && h->scheduled; i++) {
		h->scheduled = false;
		h->process_calls++;
		wrenhw_process(h->hw);
	}
}

void th_advance(struct th *h, uint64_t ns)
{
	h->now_ns += ns;
	if (h->timer_deadline != UINT64_MAX && h->now_ns >= h->timer_deadline) {
		h->timer_deadline = UINT64_MAX;
		wrenhw_timer_expired(h->hw);
	}
}

void th_fault_add(struct th *h, uint64_t start, uint64_t len, bool rd,
		  bool wr)
{
	if (h->nfaults < TH_MAX_FAULTS)
		h->faults[h->nfaults++] = (struct th_fault){ start, start + len,
							     rd, wr };
}

void th_fault_clear(struct th *h)
{
	h->nfaults = 0;
}

int th_mem_stateless(struct th *h, uint64_t start, uint64_t len)
{
	if ((start | len) & (PAGE - 1) || !len || start + len < start ||
	    h->nnull >= TH_MAX_NULL)
		return -1;
	h->null[h->nnull++] = (struct th_range){ start, start + len };
	return 0;
}

uint32_t th_reg_read(struct th *h, uint32_t off)
{
	return (uint32_t)wrenhw_mmio_read(h->hw, WREN_BAR_REGS, off, 4);
}

void th_reg_write(struct th *h, uint32_t off, uint32_t val)
{
	wrenhw_mmio_write(h->hw, WREN_BAR_REGS, off, val, 4);
}

void th_db_write(struct th *h, uint32_t page, uint32_t off, uint64_t val)
{
	wrenhw_mmio_write(h->hw, WREN_BAR_DB,
			  (uint64_t)page * WREN_DB_PAGE_SIZE + off, val, 8);
}
