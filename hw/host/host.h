/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The host of the host stub: sparse host memory in a bounded arena, with
 * stateless ranges for data buffers; DMA faults at chosen ranges,
 * recorded interrupts, a clock and the model's timer, the frames sent
 * (kept for inspection unless keep_tx is off) and a log sink.
 */
#ifndef WRENHOST_HOST_H
#define WRENHOST_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wrenhw.h"

#define TH_MAX_VECTORS	64
#define TH_MAX_FAULTS	8
#define TH_BUS_LIMIT	(1ull << 48)	/* DMA beyond this faults */
#ifndef TH_MAX_TX
#define TH_MAX_TX	128		/* TX frames kept for inspection */
#endif
#define TH_TX_MAX_LEN	9100
#ifndef TH_MAX_PAGES
#define TH_MAX_PAGES	16384		/* 64 MiB of touched host memory */
#endif
#define TH_MAX_NULL	8
#define TH_RECENT	512

struct th_frame {
	size_t len;
	uint8_t data[TH_TX_MAX_LEN];
};

struct th_fault {
	uint64_t start, end;
	bool read, write;
};

/* A page of the sparse memory. */
struct th_page {
	uint64_t pfn;		/* +1: 0 marks an empty slot */
	uint8_t *data;		/* never moves while the host lives */
};

struct th_range {
	uint64_t start, end;
};

struct th {
	struct wrenhw *hw;
	struct wrenhw_config cfg;
	uint64_t now_ns;
	uint64_t timer_deadline;
	unsigned int timer_mods;	/* calls of ops->timer_mod */
	bool scheduled;
	unsigned int irqs[TH_MAX_VECTORS];
	unsigned int tx_frames;		/* all sent; the first TH_MAX_TX kept */
	bool keep_tx;			/* keep them (default); off: count only */
	struct th_frame *tx;		/* on the first frame kept */
	unsigned int process_calls;
	unsigned int log_lines;
	bool verbose;
	struct th_fault faults[TH_MAX_FAULTS];
	unsigned int nfaults;
	/* Sparse memory: open-addressed page table, grown as pages come. */
	struct th_page *pages;
	/* Copies of the entries of pages found lately, by pfn % TH_RECENT. */
	struct th_page recent[TH_RECENT];
	size_t slots, npages, max_pages;
	/* Stateless ranges (th_mem_stateless()). */
	struct th_range null[TH_MAX_NULL];
	unsigned int nnull;
	uint64_t dma_faults;
	/* DMA the model did (ops->dma_read / dma_write that succeeded). */
	uint64_t dma_reads, dma_read_bytes, dma_writes, dma_write_bytes;
	/*
	 * Optional: every frame sent is also handed to this (the two-NIC
	 * harness queues it; it must never call back into a model).
	 */
	void (*tx_hook)(void *ctx, const void *frame, size_t len);
	void *tx_ctx;
	/*
	 * Optional: a discrete-event embedder (the ns-3 device) is told when
	 * the model moves its timer and when it asks for wrenhw_process(),
	 * to schedule events for them; timer_deadline and scheduled are set
	 * either way.
	 */
	void (*timer_hook)(void *ctx, uint64_t deadline_ns);
	void (*schedule_hook)(void *ctx);
	void *event_ctx;
};

/* cfg may be NULL for the defaults. */
struct th *th_create(const struct wrenhw_config *cfg);
void th_destroy(struct th *h);
/* Runs deferred work the model asked for (the host's bottom half). */
void th_run(struct th *h);
void th_advance(struct th *h, uint64_t ns);

int th_mem_write(struct th *h, uint64_t addr, const void *buf, size_t len);
int th_mem_read(struct th *h, uint64_t addr, void *buf, size_t len);
void th_fault_add(struct th *h, uint64_t start, uint64_t len, bool rd,
		  bool wr);
void th_fault_clear(struct th *h);
/*
 * Data buffers that carry no state: in [@start, @start + @len), page
 * aligned, reads return zeros and writes are discarded, so a host moves
 * any number of bytes in O(rings) memory.  -1 if unaligned or too many.
 */
int th_mem_stateless(struct th *h, uint64_t start, uint64_t len);

uint32_t th_reg_read(struct th *h, uint32_t off);
void th_reg_write(struct th *h, uint32_t off, uint32_t val);
void th_db_write(struct th *h, uint32_t page, uint32_t off, uint64_t val);

#endif
