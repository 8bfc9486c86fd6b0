// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Wren port's cable to wren-fabric, owned by the device rather than by
 * a QEMU netdev: `-device wren,wire=<unix socket path>`.
 *
 * The bytes on the socket are those of `-netdev stream` (each frame behind
 * a 4-byte big-endian length), so the fabric, its captures and its tests
 * see no difference.  What differs is the number of system calls.  A
 * netdev writes every frame with a sendmsg() of its own, and the fabric
 * and the receiving QEMU wake up for each; one pass of the model sends up
 * to 64 frames of a QP (a 64 KiB RDMA WRITE at path MTU 1024), and
 * bench.rst's profile put about 70% of a frame's host CPU into those
 * per-frame socket hops.  Here the frames one call into the model produces
 * are queued and written with one send() when the call returns, reads take
 * everything the socket holds (up to WREN_WIRE_RX_BYTES), and replies the
 * model makes to a batch of received frames (ACKs) go out together after
 * the batch.  Nothing is delayed: a queue is written as soon as the model
 * returns.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/error-report.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"

#include <sys/socket.h>
#include <sys/un.h>

#include "wren_wire.h"

#define WREN_WIRE_LEN_BYTES	4
/* What the fabric and -netdev stream accept as one frame. */
#define WREN_WIRE_MAX_FRAME	65536
/*
 * Frames waiting for the socket.  The fabric drains a port at its link
 * rate; this only absorbs bursts (4 MiB is 4,000 frames of 1 KiB), and a
 * frame that finds it full is lost, as on a congested wire.
 */
#define WREN_WIRE_TX_BYTES	(4 * 1024 * 1024)
/* One read, plus room for the partial frame left over from the last. */
#define WREN_WIRE_RX_BYTES	(256 * 1024)
#define WREN_WIRE_RX_CAP	(WREN_WIRE_RX_BYTES + WREN_WIRE_LEN_BYTES + \
				 WREN_WIRE_MAX_FRAME)

static void wren_wire_readable(void *opaque);
static void wren_wire_writable(void *opaque);

static void wren_wire_set_handlers(WrenWire *w)
{
	qemu_set_fd_handler(w->fd, w->rx_paused ? NULL : wren_wire_readable,
			    w->write_armed ? wren_wire_writable : NULL, w);
}

static void wren_wire_drop(WrenWire *w, const char *why)
{
	if (w->fd < 0)
		return;
	warn_report("wren: wire closed: %s", why);
	qemu_set_fd_handler(w->fd, NULL, NULL, NULL);
	close(w->fd);
	w->fd = -1;
	w->tx_start = w->tx_end = 0;
	w->rx_start = w->rx_end = 0;
	w->write_armed = false;
	w->rx_paused = false;
	w->down_fn(w->opaque);
}

/* Hand over every whole frame read so far, then write the replies. */
static void wren_wire_deliver(WrenWire *w)
{
	w->delivering = true;
	while (w->fd >= 0 && !w->rx_paused) {
		size_t have = w->rx_end - w->rx_start;
		uint32_t len;

		if (have < WREN_WIRE_LEN_BYTES)
			break;
		len = ldl_be_p(w->rx + w->rx_start);
		if (!len || len > WREN_WIRE_MAX_FRAME) {
			w->delivering = false;
			wren_wire_drop(w, "bad frame length from the fabric");
			return;
		}
		if (have < WREN_WIRE_LEN_BYTES + (size_t)len)
			break;
		if (!w->rx_fn(w->opaque, w->rx + w->rx_start + WREN_WIRE_LEN_BYTES,
			      len)) {
			w->rx_paused = true;
			wren_wire_set_handlers(w);
			break;
		}
		w->rx_start += WREN_WIRE_LEN_BYTES + len;
	}
	w->delivering = false;
	wren_wire_flush(w);
}

static void wren_wire_readable(void *opaque)
{
	WrenWire *w = opaque;
	ssize_t n;

	if (w->rx_start) {
		memmove(w->rx, w->rx + w->rx_start, w->rx_end - w->rx_start);
		w->rx_end -= w->rx_start;
		w->rx_start = 0;
	}
	n = recv(w->fd, w->rx + w->rx_end, WREN_WIRE_RX_CAP - w->rx_end,
		 MSG_DONTWAIT);
	if (n == 0) {
		wren_wire_drop(w, "the fabric closed the connection");
		return;
	}
	if (n < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			wren_wire_drop(w, strerror(errno));
		return;
	}
	w->rx_end += (size_t)n;
	wren_wire_deliver(w);
}

static void wren_wire_writable(void *opaque)
{
	wren_wire_flush(opaque);
}

/**
 * wren_wire_connect() - cable the port to a fabric port's unix socket
 * @w: the wire, zeroed by its owner
 * @path: the fabric port's socket
 * @rx_fn: gets each frame read; returning false holds it (and what follows)
 *	until wren_wire_rx_resume()
 * @down_fn: called once if the connection is lost afterwards
 * @opaque: handed to both
 * @errp: why not, when it returns false
 *
 * Return: true when connected; the link is then up.
 */
bool wren_wire_connect(WrenWire *w, const char *path, WrenWireRxFn *rx_fn,
		       WrenWireDownFn *down_fn, void *opaque, Error **errp)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd;

	w->fd = -1;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		error_setg(errp, "wire=%s: path longer than %zu bytes", path,
			   sizeof(sun.sun_path) - 1);
		return false;
	}
	memcpy(sun.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		error_setg_errno(errp, errno, "wire=%s: socket", path);
		return false;
	}
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		error_setg_errno(errp, errno, "wire=%s: connect", path);
		close(fd);
		return false;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0) {
		error_setg_errno(errp, errno, "wire=%s: O_NONBLOCK", path);
		close(fd);
		return false;
	}
	w->tx = g_malloc(WREN_WIRE_TX_BYTES);
	w->rx = g_malloc(WREN_WIRE_RX_CAP);
	w->fd = fd;
	w->rx_fn = rx_fn;
	w->down_fn = down_fn;
	w->opaque = opaque;
	wren_wire_set_handlers(w);
	return true;
}

/**
 * wren_wire_connected() - whether the cable is still plugged in
 * @w: the wire
 *
 * Return: true until the fabric closes the connection or breaks the framing.
 */
bool wren_wire_connected(const WrenWire *w)
{
	return w->fd >= 0;
}

/**
 * wren_wire_queue() - queue one frame for the fabric
 * @w: the wire
 * @frame: the Ethernet frame, without FCS
 * @len: its length
 *
 * The frame is copied; wren_wire_flush() writes it.  A frame that does not
 * fit is lost, and the loss reported once the queue drains.  The model
 * sends nothing while the link is down, hence nothing to an unplugged
 * cable.
 */
void wren_wire_queue(WrenWire *w, const void *frame, size_t len)
{
	size_t need = WREN_WIRE_LEN_BYTES + len;

	if (w->fd < 0 || !len || len > WREN_WIRE_MAX_FRAME)
		return;
	if (WREN_WIRE_TX_BYTES - w->tx_end < need && w->tx_start) {
		memmove(w->tx, w->tx + w->tx_start, w->tx_end - w->tx_start);
		w->tx_end -= w->tx_start;
		w->tx_start = 0;
	}
	if (WREN_WIRE_TX_BYTES - w->tx_end < need) {
		w->tx_dropped++;
		return;
	}
	stl_be_p(w->tx + w->tx_end, (uint32_t)len);
	memcpy(w->tx + w->tx_end + WREN_WIRE_LEN_BYTES, frame, len);
	w->tx_end += need;
}

/**
 * wren_wire_flush() - write the queued frames
 * @w: the wire
 *
 * As much as the socket takes now, the rest when it becomes writable; in
 * the middle of handing over received frames, after the last of them.
 */
void wren_wire_flush(WrenWire *w)
{
	bool armed = w->write_armed;

	if (w->fd < 0 || w->delivering)
		return;
	while (w->tx_start < w->tx_end) {
		ssize_t n = send(w->fd, w->tx + w->tx_start,
				 w->tx_end - w->tx_start,
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n < 0) {
			wren_wire_drop(w, strerror(errno));
			return;
		}
		w->tx_start += (size_t)n;
	}
	if (w->tx_start == w->tx_end) {
		w->tx_start = w->tx_end = 0;
		if (w->tx_dropped) {
			warn_report("wren: wire: %" PRIu64 " frames lost while the fabric was not reading",
				    w->tx_dropped);
			w->tx_dropped = 0;
		}
	}
	w->write_armed = w->tx_start < w->tx_end;
	if (w->write_armed != armed)
		wren_wire_set_handlers(w);
}

/**
 * wren_wire_rx_resume() - hand over frames held by a refusing rx_fn
 * @w: the wire
 */
void wren_wire_rx_resume(WrenWire *w)
{
	if (w->fd < 0 || !w->rx_paused)
		return;
	w->rx_paused = false;
	wren_wire_set_handlers(w);
	wren_wire_deliver(w);
}

/**
 * wren_wire_close() - unplug the cable; no callback runs afterwards
 * @w: the wire
 */
void wren_wire_close(WrenWire *w)
{
	if (w->fd >= 0) {
		qemu_set_fd_handler(w->fd, NULL, NULL, NULL);
		close(w->fd);
		w->fd = -1;
	}
	g_free(w->tx);
	g_free(w->rx);
	w->tx = w->rx = NULL;
}
