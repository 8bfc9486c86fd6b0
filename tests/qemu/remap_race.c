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
 * could look its index up in the new map: another region, or one past
 * the end, and QEMU crashed (hw/qemu/patches/0001-*).  The accesses are
 * harmless to the device (the register ignores writes), so a QEMU that
 * keeps each vCPU's map and TLB together runs this to the end.
 *
 * usage: remap_race SECONDS SYSFS_PCI_DIR
 * Prints "toggles N accesses M" and exits 0 when the time is up.
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

static volatile int stop;
static unsigned long toggles, accesses;
static volatile uint32_t *bar;
/* The first pages of the doorbell and MSI-X BARs, only read. */
static volatile uint32_t *other_bars[2];
static int config_fd;

static void die(const char *what)
{
	fprintf(stderr, "remap_race: %s: %s\n", what, strerror(errno));
	exit(1);
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

/* CPU 1: MMIO through the TLB, to a page of each BAR (each its own
 * region, so its own index in the map), several accesses a loop, so that
 * most of a translation block's time is spent in them.
 */
static void *access_thread(void *arg)
{
	uint32_t sink = 0;

	(void)arg;
	pin(1);
	while (!stop) {
		for (int i = 0; i < 4; i++) {
			bar[0] = 0;
			sink += bar[0];
			for (int b = 0; b < 2; b++)
				if (other_bars[b])
					sink += other_bars[b][0];
		}
		accesses += 16;
	}
	return (void *)(uintptr_t)sink;
}

static volatile uint32_t *map_bar(const char *dir, int bar_no, int prot)
{
	char path[512];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/resource%d", dir, bar_no);
	fd = open(path, (prot & PROT_WRITE ? O_RDWR : O_RDONLY) | O_SYNC);
	if (fd < 0)
		die(path);
	p = mmap(NULL, 4096, prot, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die(path);
	close(fd);
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
	/* sysfs' resource0 mmap needs decode on; the kernel leaves it off
	 * for a device no driver has enabled.
	 */
	cmd |= PCI_COMMAND_MEMORY;
	write_command(cmd);
	bar = map_bar(argv[2], 0, PROT_READ | PROT_WRITE);
	other_bars[0] = map_bar(argv[2], 2, PROT_READ);
	other_bars[1] = map_bar(argv[2], 4, PROT_READ);

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
	printf("toggles %lu accesses %lu\n", toggles, accesses);
	return 0;
}
