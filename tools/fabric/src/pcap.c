// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "pcap.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* pcap headers are written in host byte order; readers use the magic. */
struct pcap_file_header {
	uint32_t magic;
	uint16_t version_major;
	uint16_t version_minor;
	int32_t thiszone;
	uint32_t sigfigs;
	uint32_t snaplen;
	uint32_t linktype;
};

struct pcap_record_header {
	uint32_t ts_sec;
	uint32_t ts_usec;
	uint32_t caplen;
	uint32_t len;
};

void pcap_writer_init(struct pcap_writer *w)
{
	memset(w, 0, sizeof(*w));
	w->fd = -1;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int pcap_open(struct pcap_writer *w, const char *path, bool truncate)
{
	struct pcap_file_header h = {
		.magic = PCAP_MAGIC,
		.version_major = 2,
		.version_minor = 4,
		.snaplen = PCAP_SNAPLEN,
		.linktype = PCAP_LINKTYPE_ETHERNET,
	};
	struct stat st;
	int fd;

	pcap_close(w);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC |
		  (truncate ? O_TRUNC : 0), 0644);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 ||
	    (st.st_size == 0 && write_all(fd, &h, sizeof(h)) < 0)) {
		close(fd);
		return -1;
	}
	w->fd = fd;
	return 0;
}

void pcap_close(struct pcap_writer *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}

void pcap_write(struct pcap_writer *w, const uint8_t *frame, size_t len,
		uint64_t realtime_ns)
{
	struct pcap_record_header r;
	struct iovec iov[2];
	size_t caplen = len < PCAP_SNAPLEN ? len : PCAP_SNAPLEN;
	size_t total = sizeof(r) + caplen;
	ssize_t n;

	if (w->fd < 0)
		return;
	r.ts_sec = (uint32_t)(realtime_ns / 1000000000u);
	r.ts_usec = (uint32_t)(realtime_ns % 1000000000u / 1000u);
	r.caplen = (uint32_t)caplen;
	r.len = (uint32_t)len;
	iov[0].iov_base = &r;
	iov[0].iov_len = sizeof(r);
	iov[1].iov_base = (void *)frame;
	iov[1].iov_len = caplen;
	/* regular files take the whole writev; a short write means the disk
	 * is full, and a torn record would break every reader, so stop */
	n = writev(w->fd, iov, 2);
	if (n != (ssize_t)total) {
		w->write_errors++;
		pcap_close(w);
		return;
	}
	w->records++;
}
