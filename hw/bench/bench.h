/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * make bench-engine: the RoCEv2 engine of libwrenhw on the host, two
 * models in one process (the host stub, hw/host, and hw/tests' RC pair harness) joined
 * by a wire of its own (bench_wire.c), RC streams (bench_stream.c), the
 * references they are held against, memcpy and zlib's CRC-32
 * (bench_ref.c), and the program (engine_bench.c).
 */
#ifndef WRENHW_BENCH_H
#define WRENHW_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "roce_util.h"

/* Monotonic wall-clock nanoseconds. */
uint64_t be_wall_ns(void);
/*
 * This thread's CPU time in nanoseconds: what the floor and the engine's
 * time a data frame are measured in, so that on a shared machine the
 * time the process waits for a core counts in neither.
 */
uint64_t be_cpu_ns(void);

/*
 * The wire: every frame a NIC sends is handed straight to the other's
 * receive entry point, with no copy, unless that NIC is inside a call
 * already (the frame is a reply sent while its peer's call is still on
 * the stack): then it is copied and held until the next be_pump(), and
 * the other's frames to it wait behind those (a wire keeps order).
 * Both models' clock is the wall clock, so time inside the engine passes
 * as it does in QEMU.
 */
struct be_held {
	int to;
	uint32_t len;
	uint8_t data[TH_TX_MAX_LEN];
};

struct be_wire;

struct be_end {
	struct be_wire *w;
	int side;
	bool busy;		/* a call into this model is on the stack */
	unsigned int held;	/* frames held for it */
};

struct be_wire {
	struct ro_pair *p;
	struct be_end end[2];
	struct be_held *held;
	unsigned int hhead, hlen, hmax;
	uint64_t base_ns, skip_ns;
	unsigned int jumps;	/* be_jump()s: the engine waited for a timer */
	uint64_t nheld;		/* frames that waited (copied) */
	uint64_t lost;		/* held queue full (never expected) */
};

/* Takes over @p's frames (ro_pair_init() first); false without memory. */
bool be_wire_init(struct be_wire *w, struct ro_pair *p);
void be_wire_fini(struct be_wire *w);
/* One round: held frames, due timers, one process() per model. */
bool be_pump(struct be_wire *w);
/* Nothing moves: the clock jumps to the earliest timer; false if none. */
bool be_jump(struct be_wire *w);

enum be_op { BE_WRITE, BE_READ, BE_SEND, BE_NOPS };

struct be_case {
	enum be_op op;
	uint32_t size;		/* bytes a message */
	uint8_t mtu;		/* WREN_MTU_* */
};

struct be_limits {
	uint64_t run_ns;	/* keep posting this long (0: count only) */
	uint64_t min_msgs;	/* and at least this many messages */
	uint64_t max_ns;	/* a stream still running after this fails */
	unsigned int slots;	/* data slots (0: up to 16 in 4 MiB) */
	bool harness_wire;	/* hw/tests' wire (ro_settle) instead */
};

#define BE_ERR_LEN	160

struct be_result {
	uint64_t msgs, bytes, frames, ns;
	uint64_t cpu_ns;		/* the same stretch in CPU time */
	uint64_t allocs;		/* malloc/calloc/realloc calls */
	uint64_t dma_reads, dma_read_bytes, dma_writes, dma_write_bytes;
	unsigned int jumps;
	uint64_t held, retransmits;
	char err[BE_ERR_LEN];	/* empty when the stream was good */
};

const char *be_op_name(enum be_op op);
/* One stream; false (with r->err) on an error CQE, a stall or bad data. */
bool be_stream(const struct be_case *c, const struct be_limits *l,
	       struct be_result *r);

/* memcpy of @size-byte buffers for about @ns: bytes per second. */
double be_memcpy_rate(size_t size, uint64_t ns);

struct be_crc {
	double whw_rate, zlib_rate;	/* bytes per second */
	bool same;			/* both gave the same CRC */
};

/*
 * CRC-32 of a @size-byte buffer, whw_crc32_update() against zlib's
 * crc32(): whether they agree, and with @ns, how fast each is.
 */
void be_crc_rate(size_t size, uint64_t ns, struct be_crc *c);

/*
 * The floor of a data frame: the work no RoCEv2 engine that keeps the
 * model's interface can avoid, for a frame of @payload bytes (IPv4, BTH,
 * no extension header): the sender's copy of the payload into the frame,
 * the sender's ICRC pass over what the ICRC covers (8 bytes of ones, the
 * 40 bytes of headers and the payload), the receiver's ICRC pass over the
 * same, and the receiver's copy out of it - memcpy and whw_crc32_update()
 * back to back on one frame's buffers, hot in the cache, for about @ns of
 * CPU time.
 */
struct be_floor {
	double ns;		/* the four, a frame */
	double copy_ns;		/* one copy alone */
	double crc_ns;		/* one ICRC pass alone */
	uint32_t icrc_bytes;	/* what one pass covers */
};

void be_floor_measure(uint32_t payload, uint64_t ns, struct be_floor *f);

/* Allocations (malloc, calloc, realloc) in this process so far. */
uint64_t be_allocs(void);

#endif
