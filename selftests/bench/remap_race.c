// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The bench's check of its QEMU under memory-map changes (selftests/bench/
 * qemu-remap-race.sh, tools/testbench/remap-race.sh).  A thread on CPU 0
 * turns a PCI device's memory decode off and on through its sysfs config
 * file, and QEMU rebuilds the guest's memory map each time; a thread on
 * CPU 1 writes and reads a read-only register in the device's BAR 0 and
 * reads the first doorbell page and the MSI-X table through mmaps of the
 * sysfs resource files: MMIO through the vCPU's TLB, besides the local
 * APIC accesses of the interrupts that CPU takes.
 *
 * A TCG vCPU's TLB entry for an MMIO page holds an index into the memory
 * map it was filled from.  QEMU 7.2 as released switched a vCPU to the
 * new map while it was still executing from the old TLB, so an access
 * could look its index up in the new map: another region, where a read
 * returns what that region holds, or one past the end, where QEMU
 * crashed (hw/qemu/patches/0001-*).  Each page read here answers one of
 * two values, the one it gave with decode on and the one with decode
 * off, both read before the race; any other is a stray read, an access
 * that reached another region.  The accesses are harmless to the NIC
 * (the register ignores writes).
 *
 * usage: remap_race SECONDS SYSFS_PCI_DIR
 * Prints "toggles N accesses M stray S" when the time is up, then the
 * first stray reads; exits 0 if there were none, 1 if there were.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/pci_regs.h>

#include "pci_bar.h"

/* BAR 0 (read and written), the first pages of BARs 2 and 4 (read). */
#define NPAGES		3
#define MAX_STRAYS	8

static const int bar_of_page[NPAGES] = { 0, 2, 4 };
static volatile uint32_t *page[NPAGES];
static uint32_t value_on[NPAGES], value_off[NPAGES];

static volatile int stop;
static unsigned long toggles, accesses, strays;
static struct {
	int page;
	uint32_t value;
} stray_log[MAX_STRAYS];
static int config_fd;

static void die(const char *what)
{
	fprintf(stderr, "remap_race: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	errno = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (errno)
		die("pthread_setaffinity_np");
}

static void write_command(uint16_t cmd)
{
	if (pwrite(config_fd, &cmd, sizeof(cmd), PCI_COMMAND) != sizeof(cmd))
		die("write PCI_COMMAND");
}

/* CPU 0: every write of the command register rebuilds the memory map. */
static void *remap_thread(void *arg)
{
	uint16_t cmd = *(uint16_t *)arg;

	pin(0);
	while (!stop) {
		write_command(cmd & ~PCI_COMMAND_MEMORY);
		write_command(cmd | PCI_COMMAND_MEMORY);
		toggles++;
	}
	return NULL;
}

static void check_read(int p, uint32_t v)
{
	if (v == value_on[p] || v == value_off[p])
		return;
	if (strays < MAX_STRAYS) {
		stray_log[strays].page = p;
		stray_log[strays].value = v;
	}
	strays++;
}

/*
 * CPU 1: MMIO through the TLB to each page (each BAR its own region, so
 * its own index in the map), several accesses a loop, so that most of a
 * translation block's time is spent in them.
 */
static void *access_thread(void *arg)
{
	(void)arg;
	pin(1);
	while (!stop) {
		for (int i = 0; i < 4; i++) {
			page[0][0] = 0;
			for (int p = 0; p < NPAGES; p++)
				check_read(p, page[p][0]);
		}
		accesses += 4 * (NPAGES + 1);
	}
	return NULL;
}

static volatile uint32_t *map_page(const char *dir, int bar_no, int prot)
{
	void *p = pci_bar_map(dir, bar_no, 4096, prot);
	char path[512];

	if (!p) {
		snprintf(path, sizeof(path), "%s/resource%d", dir, bar_no);
		die(path);
	}
	return p;
}

int main(int argc, char **argv)
{
	pthread_t remap, access;
	char path[512];
	uint16_t cmd;
	int seconds;

	if (argc != 3) {
		fprintf(stderr, "usage: remap_race SECONDS SYSFS_PCI_DIR\n");
		return 2;
	}
	seconds = atoi(argv[1]);
	if (seconds <= 0) {
		fprintf(stderr, "remap_race: SECONDS must be positive\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/config", argv[2]);
	config_fd = open(path, O_RDWR);
	if (config_fd < 0)
		die(path);
	if (pread(config_fd, &cmd, sizeof(cmd), PCI_COMMAND) != sizeof(cmd))
		die("read PCI_COMMAND");
	/* sysfs' resource mmap needs decode on; the kernel leaves it off
	 * for a device no driver has enabled.
	 */
	cmd |= PCI_COMMAND_MEMORY;
	write_command(cmd);
	for (int p = 0; p < NPAGES; p++) {
		page[p] = map_page(argv[2], bar_of_page[p],
				   PROT_READ | (p == 0 ? PROT_WRITE : 0));
		value_on[p] = page[p][0];
	}
	/* One thread, nothing racing: what the pages read with decode off. */
	write_command(cmd & ~PCI_COMMAND_MEMORY);
	for (int p = 0; p < NPAGES; p++)
		value_off[p] = page[p][0];
	write_command(cmd);

	errno = pthread_create(&access, NULL, access_thread, NULL);
	if (errno)
		die("pthread_create");
	errno = pthread_create(&remap, NULL, remap_thread, &cmd);
	if (errno)
		die("pthread_create");
	sleep(seconds);
	stop = 1;
	pthread_join(remap, NULL);
	pthread_join(access, NULL);
	printf("toggles %lu accesses %lu stray %lu\n", toggles, accesses, strays);
	for (unsigned long i = 0; i < strays && i < MAX_STRAYS; i++)
		printf("stray read of BAR %d: 0x%08x (decode on 0x%08x, off 0x%08x)\n",
		       bar_of_page[stray_log[i].page], stray_log[i].value,
		       value_on[stray_log[i].page], value_off[stray_log[i].page]);
	return strays ? 1 : 0;
}
