/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A PCI function's BARs from userspace through sysfs, with no driver
 * bound: the test programs that reach the NIC's registers as a hostile
 * guest or a racing vCPU would (wren_hostile, remap_race).
 *
 * DEV is a function's sysfs folder (/sys/bus/pci/devices/0000:00:03.0)
 * or its bus address alone (0000:00:03.0).  The kernel maps a BAR's
 * resource file only while memory decode is on (PCI_COMMAND_MEMORY);
 * turning it on is the caller's part.
 *
 * Header only: static inline, nothing to link.
 */
#ifndef WREN_SELFTESTS_PCI_BAR_H
#define WREN_SELFTESTS_PCI_BAR_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* open(2) of the function's sysfs file @file (config, enable, resource2). */
static inline int pci_dev_open(const char *dev, const char *file, int flags)
{
	char path[512];

	if (strchr(dev, '/'))
		snprintf(path, sizeof(path), "%s/%s", dev, file);
	else
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", dev, file);
	return open(path, flags);
}

/*
 * Where BAR @bar lies in the bus's memory space, from the function's
 * resource file: 0 and its start and length, or -1.
 */
static inline int pci_bar_range(const char *dev, int bar, uint64_t *start,
				size_t *len)
{
	unsigned long long s, e, flags;
	char line[128];
	int fd, i, rc = -1;
	FILE *f;

	fd = pci_dev_open(dev, "resource", O_RDONLY);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	for (i = 0; fgets(line, sizeof(line), f); i++)
		if (i == bar && sscanf(line, "%llx %llx %llx", &s, &e, &flags) == 3) {
			*start = s;
			*len = (size_t)(e - s + 1);
			rc = 0;
		}
	fclose(f);
	return rc;
}

/*
 * The first @len bytes of BAR @bar mapped shared with @prot (PROT_READ,
 * and PROT_WRITE to write), through its resourceN file opened O_SYNC;
 * NULL with errno set on failure.
 */
static inline void *pci_bar_map(const char *dev, int bar, size_t len, int prot)
{
	char name[32];
	void *p;
	int fd, e;

	snprintf(name, sizeof(name), "resource%d", bar);
	fd = pci_dev_open(dev, name, (prot & PROT_WRITE ? O_RDWR : O_RDONLY) | O_SYNC);
	if (fd < 0)
		return NULL;
	p = mmap(NULL, len, prot, MAP_SHARED, fd, 0);
	e = errno;
	close(fd);
	errno = e;
	return p == MAP_FAILED ? NULL : p;
}

#endif /* WREN_SELFTESTS_PCI_BAR_H */
