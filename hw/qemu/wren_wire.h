/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The Wren port's cable to wren-fabric when the device owns it
 * (`-device wren,wire=<unix socket>`): frames batched per call into the
 * model instead of one system call each, written without the BQL, read by
 * a thread of their own.  See wren_wire.c.
 */
#ifndef WREN_WIRE_H
#define WREN_WIRE_H

/* Called for each whole frame read; false keeps it and what follows. */
typedef bool WrenWireRxFn(void *opaque, const uint8_t *frame, size_t len);
/* Called after a batch of frames, before their replies are written. */
typedef void WrenWireBatchFn(void *opaque);
/* Called when the connection goes away (peer closed, protocol error). */
typedef void WrenWireDownFn(void *opaque);

typedef struct WrenWire {
	/* Open from connect to close, shut down when the connection is lost. */
	int fd;
	bool up;
	/* wren_wire_close() is ending the reading thread. */
	bool stopping;
	QemuThread rx_thread;
	WrenWireRxFn *rx_fn;
	WrenWireBatchFn *batch_fn;
	WrenWireDownFn *down_fn;
	void *opaque;
	/*
	 * Frames queued for the fabric: a ring of WREN_WIRE_TX_BYTES, bytes
	 * [tx_tail, tx_head) of the stream (free-running counts).
	 */
	uint8_t *tx;
	uint64_t tx_tail;
	uint64_t tx_head;
	bool write_armed;
	/*
	 * A thread is writing from tx_tail without the BQL; others append
	 * behind it and leave the writing to it.  idle is signalled
	 * when it is done.
	 */
	bool flushing;
	QemuCond idle;
	/*
	 * Bytes read but not yet handed over: [rx_start, rx_end) of rx, the
	 * reading thread's alone.  rx_paused: the device refused a frame,
	 * and the thread waits on resumed.
	 */
	uint8_t *rx;
	size_t rx_start;
	size_t rx_end;
	bool rx_paused;
	QemuCond resumed;
	/* Handing received frames over: replies wait for the batch's end. */
	bool delivering;
	/* Frames lost to a full queue since it last drained. */
	uint64_t tx_dropped;
} WrenWire;

bool wren_wire_connect(WrenWire *w, const char *path, WrenWireRxFn *rx_fn,
		       WrenWireBatchFn *batch_fn, WrenWireDownFn *down_fn,
		       void *opaque, Error **errp);
bool wren_wire_connected(const WrenWire *w);
void wren_wire_queue(WrenWire *w, const void *frame, size_t len);
void wren_wire_flush(WrenWire *w);
void wren_wire_rx_resume(WrenWire *w);
void wren_wire_close(WrenWire *w);

#endif
