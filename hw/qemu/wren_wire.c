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
 *
 * The write itself runs without the BQL.  It is a system call of 10-20 us
 * on the bench's host, made by the vCPU after a doorbell or by the main
 * loop after received frames, and the other thread wanted the lock in that
 * time (the next received frame, the next doorbell) about once a message:
 * it slept on it and had to be woken, a second host wake-up in a
 * message's path (bench.rst).  One thread writes at a time; frames queued
 * meanwhile go behind and the writer sends them before it returns; the
 * queue is a ring, so nothing moves under it; and the socket is not closed
 * under it (wren_wire_wait_idle()).
 *
 * Reading has a thread of its own, which sleeps in poll() on the socket
 * alone and takes the BQL only to hand the frames over.  Like a vCPU's
 * doorbell, the frames and the work they start then run the model in that
 * thread, not in the main loop, which the guest's timers, the bottom half
 * and every other device share.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/error-report.h"
#include "qemu/main-loop.h"
#include "qemu/rcu.h"
#include "qemu/thread.h"
#include "qapi/error.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "wren_wire.h"

#define WREN_WIRE_LEN_BYTES	4
/* What the fabric and -netdev stream accept as one frame. */
#define WREN_WIRE_MAX_FRAME	65536
/*
 * Frames waiting for the socket, a ring (a power of two).  The fabric
 * drains a port at its link rate; this only absorbs bursts (4 MiB is
 * 4,000 frames of 1 KiB), and a frame that finds it full is lost, as on a
 * congested wire.  A ring, so that frames queued while another thread
 * writes never move what it is writing.
 */
#define WREN_WIRE_TX_BYTES	(4 * 1024 * 1024)
/* The socket's send buffer asked for (the kernel doubles what it grants). */
#define WREN_WIRE_SNDBUF	(1024 * 1024)
QEMU_BUILD_BUG_ON(WREN_WIRE_TX_BYTES & (WREN_WIRE_TX_BYTES - 1));
/* One read, plus room for the partial frame left over from the last. */
#define WREN_WIRE_RX_BYTES	(256 * 1024)
#define WREN_WIRE_RX_CAP	(WREN_WIRE_RX_BYTES + WREN_WIRE_LEN_BYTES + \
				 WREN_WIRE_MAX_FRAME)

static void wren_wire_writable(void *opaque);

/* The main loop only waits for room in the socket (wren_wire_rx_thread()). */
static void wren_wire_set_handlers(WrenWire *w)
{
	qemu_set_fd_handler(w->fd, NULL,
			    w->write_armed ? wren_wire_writable : NULL, w);
}

/* Until no other thread writes to the socket, the BQL released meanwhile. */
static void wren_wire_wait_idle(WrenWire *w)
{
	while (w->flushing)
		qemu_cond_wait_iothread(&w->idle);
}

/*
 * The connection is gone.  The socket stays open, shut down, until
 * wren_wire_close(): the reading thread may be waiting on it, which the
 * shutdown wakes, and it must not find the number reused for another file.
 */
static void wren_wire_drop(WrenWire *w, const char *why)
{
	g_autofree char *reason = g_strdup(why);

	wren_wire_wait_idle(w);
	if (!w->up)
		return;
	warn_report("wren: wire closed: %s", reason);
	w->up = false;
	qemu_set_fd_handler(w->fd, NULL, NULL, NULL);
	shutdown(w->fd, SHUT_RDWR);
	w->tx_tail = w->tx_head = 0;
	w->write_armed = false;
	w->down_fn(w->opaque);
}

/* Whether a whole frame waits in rx (its length is checked on delivery). */
static bool wren_wire_rx_whole(const WrenWire *w)
{
	size_t have = w->rx_end - w->rx_start;

	return have >= WREN_WIRE_LEN_BYTES &&
	       have >= WREN_WIRE_LEN_BYTES + (size_t)ldl_be_p(w->rx + w->rx_start);
}

/* Hand over every whole frame read so far, then write the replies. */
static void wren_wire_deliver(WrenWire *w)
{
	bool any = false;

	w->delivering = true;
	while (w->up && !w->rx_paused) {
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
			break;
		}
		w->rx_start += WREN_WIRE_LEN_BYTES + len;
		any = true;
	}
	if (any && w->up)
		w->batch_fn(w->opaque);
	w->delivering = false;
	wren_wire_flush(w);
}

/*
 * Handles what one recv() returned, under the BQL: false when the thread
 * is to end.  Frames the device refuses for now are kept, and the thread
 * waits until wren_wire_rx_resume() (the rest of QEMU runs meanwhile).
 */
static bool wren_wire_received(WrenWire *w, ssize_t n, int err)
{
	if (w->stopping || !w->up)
		return false;
	if (n == 0) {
		wren_wire_drop(w, "the fabric closed the connection");
		return false;
	}
	if (n < 0) {
		if (err == EINTR || err == EAGAIN)
			return true;
		wren_wire_drop(w, strerror(err));
		return false;
	}
	w->rx_end += (size_t)n;
	/*
	 * Until only part of a frame is left.  The device can resume while
	 * the replies are written, the BQL released, so the pause is looked
	 * at afterwards.
	 */
	for (;;) {
		wren_wire_deliver(w);
		if (!w->up || w->stopping)
			return false;
		if (w->rx_paused)
			qemu_cond_wait_iothread(&w->resumed);
		else if (!wren_wire_rx_whole(w))
			break;
	}
	/* What is left is less than one frame: room for the next read. */
	memmove(w->rx, w->rx + w->rx_start, w->rx_end - w->rx_start);
	w->rx_end -= w->rx_start;
	w->rx_start = 0;
	return true;
}

/*
 * Waits for bytes and reads them.  Not a blocking recv() alone: a thread
 * asleep in one is woken by everything that wakes the socket, including
 * the room each of our own writes leaves once the fabric reads it (a
 * stream socket's wait for data takes any wake-up, where poll() takes
 * only the events asked for); that was a spurious wake-up of this thread
 * for most frames sent.
 */
static ssize_t wren_wire_recv(WrenWire *w)
{
	struct pollfd pfd = { .fd = w->fd, .events = POLLIN };

	while (poll(&pfd, 1, -1) < 0) {
		if (errno != EINTR)
			return -1;
	}
	return recv(w->fd, w->rx + w->rx_end, WREN_WIRE_RX_CAP - w->rx_end,
		    MSG_DONTWAIT);
}

/*
 * The reading thread: waits and reads without the BQL, everything the
 * socket holds up to the buffer's end, then hands the frames to the
 * device with it.  Only this thread touches rx.
 */
static void *wren_wire_rx_thread(void *opaque)
{
	WrenWire *w = opaque;
	bool more = true;

	/* The model's DMA goes through address spaces, read under RCU. */
	rcu_register_thread();
	while (more) {
		ssize_t n = wren_wire_recv(w);
		int err = errno;

		qemu_mutex_lock_iothread();
		more = wren_wire_received(w, n, err);
		qemu_mutex_unlock_iothread();
	}
	rcu_unregister_thread();
	return NULL;
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
 * @batch_fn: called after the frames of one read are handed over, before
 *	the replies they made are written
 * @down_fn: called once if the connection is lost afterwards
 * @opaque: handed to all three
 * @errp: why not, when it returns false
 *
 * Return: true when connected; the link is then up.
 */
bool wren_wire_connect(WrenWire *w, const char *path, WrenWireRxFn *rx_fn,
		       WrenWireBatchFn *batch_fn, WrenWireDownFn *down_fn,
		       void *opaque, Error **errp)
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
	/*
	 * A unix stream socket holds what its reader has not taken up to the
	 * writer's send buffer, 208 KiB by default: less than the four passes
	 * a batch of received frames may run, so a READ responder's replies
	 * met a full socket and waited for the main loop.  The kernel caps the
	 * request at net.core.wmem_max; a smaller buffer is no error.
	 */
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &(int){ WREN_WIRE_SNDBUF },
		   sizeof(int));
	/* Left blocking: every send() and recv() is MSG_DONTWAIT. */
	qemu_cond_init(&w->idle);
	qemu_cond_init(&w->resumed);
	w->tx = g_malloc(WREN_WIRE_TX_BYTES);
	w->rx = g_malloc(WREN_WIRE_RX_CAP);
	w->fd = fd;
	w->up = true;
	w->rx_fn = rx_fn;
	w->batch_fn = batch_fn;
	w->down_fn = down_fn;
	w->opaque = opaque;
	/* It delivers nothing before the caller, holding the BQL, returns. */
	qemu_thread_create(&w->rx_thread, "wren-wire-rx", wren_wire_rx_thread,
			   w, QEMU_THREAD_JOINABLE);
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
	return w->up;
}

/* Copy @len bytes in at tx_head, across the ring's end if need be. */
static void wren_wire_tx_put(WrenWire *w, const void *src, size_t len)
{
	size_t off = w->tx_head & (WREN_WIRE_TX_BYTES - 1);
	size_t first = MIN(len, WREN_WIRE_TX_BYTES - off);

	memcpy(w->tx + off, src, first);
	memcpy(w->tx, (const uint8_t *)src + first, len - first);
	w->tx_head += len;
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
	uint8_t hdr[WREN_WIRE_LEN_BYTES];

	if (!w->up || !len || len > WREN_WIRE_MAX_FRAME)
		return;
	if (WREN_WIRE_TX_BYTES - (w->tx_head - w->tx_tail) < need) {
		w->tx_dropped++;
		return;
	}
	stl_be_p(hdr, (uint32_t)len);
	wren_wire_tx_put(w, hdr, sizeof(hdr));
	wren_wire_tx_put(w, frame, len);
}

/* One sendmsg() of what is queued, without the BQL: bytes, or -errno. */
static ssize_t wren_wire_send_unlocked(WrenWire *w)
{
	bool bql = qemu_mutex_iothread_locked();
	/* Others append behind tx_head meanwhile: what is queued now. */
	size_t off = w->tx_tail & (WREN_WIRE_TX_BYTES - 1);
	size_t len = w->tx_head - w->tx_tail;
	size_t first = MIN(len, WREN_WIRE_TX_BYTES - off);
	struct iovec iov[2] = {
		{ .iov_base = w->tx + off, .iov_len = first },
		{ .iov_base = w->tx, .iov_len = len - first },
	};
	struct msghdr msg = {
		.msg_iov = iov,
		.msg_iovlen = len > first ? 2 : 1,
	};
	int fd = w->fd;
	ssize_t n;

	if (bql)
		qemu_mutex_unlock_iothread();
	n = sendmsg(fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (n < 0)
		n = -errno;
	if (bql)
		qemu_mutex_lock_iothread();
	return n;
}

/**
 * wren_wire_flush() - write the queued frames
 * @w: the wire
 *
 * As much as the socket takes now, the rest when it becomes writable; in
 * the middle of handing over received frames, after the last of them.
 * The BQL is released while the socket is written (see above): the caller
 * must be outside the model, which the other threads may enter meanwhile.
 * While another thread writes, the frames are left to it.
 */
void wren_wire_flush(WrenWire *w)
{
	bool armed = w->write_armed;
	ssize_t n = 0;

	if (!w->up || w->delivering || w->flushing)
		return;
	w->flushing = true;
	while (w->tx_tail != w->tx_head) {
		n = wren_wire_send_unlocked(w);
		if (n == -EINTR)
			continue;
		if (n < 0)
			break;
		w->tx_tail += (uint64_t)n;
	}
	w->flushing = false;
	qemu_cond_broadcast(&w->idle);
	if (n < 0 && n != -EAGAIN && n != -EWOULDBLOCK) {
		wren_wire_drop(w, strerror((int)-n));
		return;
	}
	if (w->tx_tail == w->tx_head) {
		if (w->tx_dropped) {
			warn_report("wren: wire: %" PRIu64 " frames lost while the fabric was not reading",
				    w->tx_dropped);
			w->tx_dropped = 0;
		}
	}
	w->write_armed = w->tx_tail != w->tx_head;
	if (w->write_armed != armed)
		wren_wire_set_handlers(w);
}

/**
 * wren_wire_rx_resume() - hand over frames held by a refusing rx_fn
 * @w: the wire
 *
 * The reading thread hands them over once it has the BQL again.
 */
void wren_wire_rx_resume(WrenWire *w)
{
	if (!w->up || !w->rx_paused)
		return;
	w->rx_paused = false;
	qemu_cond_signal(&w->resumed);
}

/**
 * wren_wire_close() - unplug the cable; no callback runs afterwards
 * @w: the wire
 *
 * Waits, the BQL released, for the reading thread to end.
 */
void wren_wire_close(WrenWire *w)
{
	if (!w->tx)
		return;
	wren_wire_wait_idle(w);
	w->stopping = true;
	w->up = false;
	qemu_set_fd_handler(w->fd, NULL, NULL, NULL);
	shutdown(w->fd, SHUT_RDWR);
	qemu_cond_broadcast(&w->resumed);
	qemu_mutex_unlock_iothread();
	qemu_thread_join(&w->rx_thread);
	qemu_mutex_lock_iothread();
	close(w->fd);
	w->fd = -1;
	qemu_cond_destroy(&w->idle);
	qemu_cond_destroy(&w->resumed);
	g_free(w->tx);
	g_free(w->rx);
	w->tx = w->rx = NULL;
}
