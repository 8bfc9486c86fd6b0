// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wren_hostile - a guest that drives the Wren NIC through its BARs from
 * userspace, with no driver bound, the way a malicious or broken guest
 * kernel could: random register writes, admin and event queues pointed
 * past the end of memory, at the device's own BARs and at pages full of
 * garbage commands, producer indexes far beyond the rings, doorbells on
 * every page for queues that do not exist.  The device model must keep
 * running and answer as hardware does (failed commands, an AQ error, a
 * fatal syndrome), and a reset must bring it back for the driver.
 *
 * It only ever points the device's DMA at pages it owns (locked, their
 * bus addresses from /proc/self/pagemap; no IOMMU in the boot it runs
 * in), at addresses beyond the guest's memory or at the device's BARs,
 * never at random memory: the guest's kernel must survive to judge.  The
 * MSI-X BAR is not touched and MSI-X stays disabled, so no interrupt is
 * written anywhere.
 *
 *   wren_hostile BDF [SEED]      TAP on stdout
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/pci_regs.h>
#include <linux/wren/wren_admin.h>
#include <linux/wren/wren_regs.h>
#include "pci_bar.h"
#define TAP_IMPLEMENTATION
#include "tap.h"

#define PAGE		4096u
#define AQ_LOG		6		/* 64 commands of 64 bytes: one page */
#define BEYOND_RAM	0x7ff000000000ull

static volatile uint32_t *regs;
static volatile uint8_t *dbs;
static size_t dbs_len;
static uint64_t bar_phys[3];
static uint64_t rng;

static uint64_t rnd(void)
{
	/* xorshift64*: deterministic for a seed, so a failure replays. */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static void wr(uint32_t off, uint32_t v)
{
	regs[off / 4] = v;
}

static uint32_t rd(uint32_t off)
{
	return regs[off / 4];
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One page of ours the device may DMA to: locked, with its bus address. */
struct dpage {
	uint8_t *va;
	uint64_t pa;
};

static int dpage_alloc(struct dpage *p)
{
	uint64_t ent;
	int fd;

	p->va = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE | MAP_LOCKED, -1, 0);
	if (p->va == MAP_FAILED)
		return -1;
	memset(p->va, 0, PAGE);
	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0 || pread(fd, &ent, 8, (off_t)((uintptr_t)p->va / PAGE * 8)) != 8) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	if (!(ent >> 63) || !(ent & ((1ull << 55) - 1)))
		return -1;	/* not present, or PFNs hidden (not root) */
	p->pa = (ent & ((1ull << 55) - 1)) * PAGE;
	return 0;
}

/* Enable memory decoding and bus mastering, as a driver would. */
static int enable(const char *bdf)
{
	int fd = pci_dev_open(bdf, "enable", O_WRONLY);
	uint16_t cmd;

	if (fd < 0 || write(fd, "1", 1) != 1) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	fd = pci_dev_open(bdf, "config", O_RDWR);
	if (fd < 0)
		return -1;
	if (pread(fd, &cmd, 2, PCI_COMMAND) != 2) {
		close(fd);
		return -1;
	}
	cmd |= PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER;
	if (pwrite(fd, &cmd, 2, PCI_COMMAND) != 2) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static void bus_master_off(const char *bdf)
{
	int fd = pci_dev_open(bdf, "config", O_RDWR);
	uint16_t cmd;

	if (fd < 0)
		return;
	if (pread(fd, &cmd, 2, PCI_COMMAND) == 2) {
		cmd &= (uint16_t)~PCI_COMMAND_MASTER;
		if (pwrite(fd, &cmd, 2, PCI_COMMAND) != 2)
			perror("wren_hostile: bus master off");
	}
	close(fd);
}

static void *map_bar(const char *bdf, int bar, size_t *len)
{
	uint64_t start;

	if (pci_bar_range(bdf, bar, &start, len) || !*len)
		return NULL;
	bar_phys[bar] = start;
	return pci_bar_map(bdf, bar, *len, PROT_READ | PROT_WRITE);
}

/* The device answers a read (STATUS is not all-ones). */
static bool answers(void)
{
	uint32_t s = rd(WREN_REG_STATUS);

	return s != UINT32_MAX;
}

static bool reset_ready(int ms)
{
	double end = now() + ms / 1000.0;

	wr(WREN_REG_CONTROL, WREN_CONTROL_RESET);
	while (now() < end) {
		uint32_t s = rd(WREN_REG_STATUS);

		if (!(rd(WREN_REG_CONTROL) & WREN_CONTROL_RESET) &&
		    (s & (WREN_STATUS_READY | WREN_STATUS_RESETTING | WREN_STATUS_FATAL)) ==
		    WREN_STATUS_READY)
			return true;
		usleep(1000);
	}
	return false;
}

static void set_base(uint32_t lo, uint64_t addr)
{
	wr(lo, (uint32_t)addr);
	wr(lo + 4, (uint32_t)(addr >> 32));
}

/* A base address that is safe to hand the device: see the header. */
static uint64_t safe_addr(const struct dpage *pages, int n)
{
	switch (rnd() % 5) {
	case 0:
		return BEYOND_RAM + (rnd() % 4096) * PAGE;
	case 1:
		return bar_phys[WREN_BAR_REGS];
	case 2:
		return bar_phys[WREN_BAR_DB] + (rnd() % 4) * PAGE;
	case 3:
		return pages[rnd() % (uint64_t)n].pa + (rnd() % 2 ? 0 : 8 * (rnd() % 512));
	default:
		return (rnd() | (1ull << 46)) & ~0xfffull;
	}
}

/*
 * Phase 1: random writes to every register, in random order, with the
 * queue base registers always given one of the safe addresses (a random
 * CONTROL may enable the queues at any time).
 */
static void random_registers(const struct dpage *pages, int n, long writes)
{
	for (long i = 0; i < writes; i++) {
		uint32_t off = (uint32_t)(rnd() % (WREN_REGS_SIZE / 4)) * 4;

		if (i % 64 == 0)
			off = WREN_REG_CONTROL;
		else if (i % 7 == 0)
			off = WREN_REG_AQ_BASE_LO + (uint32_t)(rnd() % 0x40);
		switch (off) {
		case WREN_REG_AQ_BASE_LO: case WREN_REG_ACQ_BASE_LO: case WREN_REG_AEQ_BASE_LO:
			set_base(off, safe_addr(pages, n));
			break;
		case WREN_REG_AQ_BASE_HI: case WREN_REG_ACQ_BASE_HI: case WREN_REG_AEQ_BASE_HI:
			set_base(off - 4, safe_addr(pages, n));
			break;
		default:
			wr(off, (uint32_t)rnd());
		}
		if (i % 16 == 0)
			(void)rd((uint32_t)(rnd() % (WREN_REGS_SIZE / 4)) * 4);
	}
}

/* Phase 2: doorbells on every page for queues that do not exist. */
static void random_doorbells(long writes)
{
	for (long i = 0; i < writes; i++) {
		size_t off = (size_t)(rnd() % (dbs_len / 8)) * 8;

		if (i % 3 == 0)
			off = (size_t)(rnd() % (dbs_len / PAGE)) * PAGE + 8 * (rnd() % 5);
		*(volatile uint64_t *)(dbs + off) = rnd();
		if (i % 5 == 0)	/* misaligned and narrow writes too */
			*(volatile uint32_t *)(dbs + (off | 4)) = (uint32_t)rnd();
	}
}

/*
 * Phase 3: an admin queue in a page of ours full of garbage commands of
 * every opcode, whose input pages hold garbage too, and a completion
 * queue in another page.  The device must complete every command (with
 * whatever status) or go fatal saying why; either way STATUS answers.
 */
static bool garbage_commands(struct dpage *aq, struct dpage *acq, struct dpage *in,
			     struct dpage *out, int rounds, char *what, size_t len)
{
	int completed = 0, failed = 0, submitted = 0, by_status[16] = { 0 };
	uint32_t st = 0;
	size_t used;

	if (!reset_ready(2000)) {
		snprintf(what, len, "reset before the garbage commands failed");
		return false;
	}
	for (int r = 0; r < rounds; r++) {
		double end;

		for (size_t i = 0; i < PAGE; i += 8)
			*(uint64_t *)(in->va + i) = rnd();
		memset(acq->va, 0, PAGE);
		for (unsigned int i = 0; i < (1u << AQ_LOG); i++) {
			struct wren_aq_cmd *c = (struct wren_aq_cmd *)aq->va + i;

			for (size_t b = 0; b < sizeof(*c); b += 8)
				*(uint64_t *)((uint8_t *)c + b) = rnd();
			c->opcode = (uint8_t)((r * 64 + i) % 0x80);
			c->cmd_id = (uint16_t)i;
			/* Most of them well-formed around garbage, so that
			 * the device looks at their inputs. */
			if (rnd() % 4) {
				c->flags = 0;
				c->rsvd0 = 0;
				c->in_addr = in->pa + 8 * (rnd() % 256);
				c->in_len = (uint32_t)(rnd() % 2048);
				c->out_addr = out->pa;
				c->out_len = (uint32_t)(rnd() % PAGE);
			}
		}
		if (!reset_ready(2000))
			break;
		set_base(WREN_REG_AQ_BASE_LO, aq->pa);
		set_base(WREN_REG_ACQ_BASE_LO, acq->pa);
		wr(WREN_REG_AQ_LOG_SIZE, AQ_LOG);
		wr(WREN_REG_ACQ_LOG_SIZE, AQ_LOG);
		wr(WREN_REG_CONTROL, WREN_CONTROL_AQ_ENABLE);
		wr(WREN_REG_AQ_PI, (1u << AQ_LOG) - 1);
		submitted += (1 << AQ_LOG) - 1;
		end = now() + 5;
		for (;;) {
			int n = 0;

			st = rd(WREN_REG_STATUS);
			for (unsigned int i = 0; i < (1u << AQ_LOG) - 1; i++)
				n += ((struct wren_acq_entry *)acq->va)[i].owner & 1;
			if (n == (1 << AQ_LOG) - 1 || (st & WREN_STATUS_FATAL) || now() > end) {
				completed += n;
				for (unsigned int i = 0; i < (unsigned int)n; i++) {
					uint8_t s = ((struct wren_acq_entry *)acq->va)[i].status;

					failed += s != 0;
					by_status[s < 15 ? s : 15]++;
				}
				break;
			}
			usleep(1000);
		}
		if (st & WREN_STATUS_FATAL)
			break;
		/* A producer index far beyond the ring: an AQ error, not a run
		 * through memory. */
		wr(WREN_REG_AQ_PI, 0x7fffffff);
	}
	snprintf(what, len, "%d garbage commands: %d completed (%d failed), status 0x%08x, "
		 "fatal syndrome %u; by completion status:", submitted, completed, failed, st,
		 rd(WREN_REG_FATAL_SYNDROME));
	for (int i = 0; i < 16; i++) {
		used = strlen(what);
		if (by_status[i] && used + 12 < len)
			snprintf(what + used, len - used, " %d:%d", i, by_status[i]);
	}
	return completed == submitted || (st & WREN_STATUS_FATAL);
}

int main(int argc, char **argv)
{
	struct dpage pages[4];
	size_t regs_len = 0;
	char what[400];
	double t0;
	bool ok;

	if (argc < 2) {
		fprintf(stderr, "usage: wren_hostile BDF [SEED]\n");
		return 2;
	}
	rng = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	if (!rng)
		rng = 1;
	tap_plan(7);
	if (enable(argv[1]) || !(regs = map_bar(argv[1], WREN_BAR_REGS, &regs_len)) ||
	    !(dbs = map_bar(argv[1], WREN_BAR_DB, &dbs_len))) {
		tap_ok(false, "%s enabled, BAR0 and BAR2 mapped from userspace: %s", argv[1],
		       strerror(errno));
		return tap_done();
	}
	for (int i = 0; i < 4; i++)
		if (dpage_alloc(&pages[i])) {
			tap_ok(false, "pages for the device's DMA, with their bus addresses");
			return tap_done();
		}
	tap_ok(rd(WREN_REG_MAGIC) == WREN_MAGIC && reset_ready(2000),
	       "%s enabled, BAR0 (%zu KiB) and BAR2 (%zu KiB) mapped; the device resets",
	       argv[1], regs_len >> 10, dbs_len >> 10);

	t0 = now();
	random_registers(pages, 4, 200000);
	tap_ok(answers(), "200000 random register writes (queues at safe addresses only): "
	       "the device answers, status 0x%08x (%.1f s)", rd(WREN_REG_STATUS), now() - t0);

	/* The queues at the device's own BARs and past the end of memory. */
	ok = true;
	for (int i = 0; i < 3; i++) {
		uint64_t at = i == 0 ? bar_phys[WREN_BAR_REGS] :
			      i == 1 ? bar_phys[WREN_BAR_DB] : BEYOND_RAM;

		ok &= reset_ready(2000);
		set_base(WREN_REG_AQ_BASE_LO, at);
		set_base(WREN_REG_ACQ_BASE_LO, at + PAGE);
		set_base(WREN_REG_AEQ_BASE_LO, at + 2 * PAGE);
		wr(WREN_REG_AQ_LOG_SIZE, AQ_LOG);
		wr(WREN_REG_ACQ_LOG_SIZE, AQ_LOG);
		wr(WREN_REG_AEQ_LOG_SIZE, 4);
		wr(WREN_REG_CONTROL, WREN_CONTROL_AQ_ENABLE | WREN_CONTROL_AEQ_ENABLE);
		wr(WREN_REG_AQ_PI, 5);
		usleep(20000);
		ok &= answers();
		tap_diag("queues at 0x%llx: status 0x%08x, aq_error 0x%08x, fatal syndrome %u",
			 (unsigned long long)at, rd(WREN_REG_STATUS), rd(WREN_REG_AQ_ERROR),
			 rd(WREN_REG_FATAL_SYNDROME));
	}
	tap_ok(ok, "admin and event queues at the device's own BAR0 and BAR2 and past the end "
	       "of memory: the device answers and resets");

	t0 = now();
	random_doorbells(200000);
	tap_ok(answers(), "200000 doorbells at random offsets of %zu pages (%.1f s)",
	       dbs_len / PAGE, now() - t0);

	t0 = now();
	ok = garbage_commands(&pages[0], &pages[1], &pages[2], &pages[3], 16, what,
			      sizeof(what));
	tap_ok(ok, "%s (%.1f s)", what, now() - t0);

	t0 = now();
	random_registers(pages, 4, 20000);
	random_doorbells(20000);
	tap_ok(answers(), "again: random registers and doorbells after the garbage commands");

	tap_ok(reset_ready(5000), "the device resets to READY at the end, status 0x%08x",
	       rd(WREN_REG_STATUS));
	/* No DMA into our pages once they are freed. */
	bus_master_off(argv[1]);
	return tap_done();
}
