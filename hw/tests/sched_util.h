/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A bench for the port scheduler and pause tests: one device with the DCB
 * bits, its link at a chosen speed, sources that feed whw_port_xmit()
 * per priority (as fast as the port takes them, or at a given rate), the
 * frames on the wire counted per priority, and the peer's pause frames.
 * Everything runs in simulated time.
 */
#ifndef WRENHW_TEST_SCHED_UTIL_H
#define WRENHW_TEST_SCHED_UTIL_H

#include "tests.h"

struct sh {
	struct td *d;
	struct wrenhw *hw;
	uint32_t speed;			/* Mb/s */
	/* Sources: frame length (0: idle) and rate (0: backlogged). */
	uint32_t len[WREN_NUM_PRIO];
	uint64_t rate_kbps[WREN_NUM_PRIO];
	uint64_t fed[WREN_NUM_PRIO];	/* bytes handed to the port */
	uint64_t feed_t0;
	/* The wire, per priority (payload byte 14 says which). */
	uint64_t bytes[WREN_NUM_PRIO], frames[WREN_NUM_PRIO];
	uint64_t first_ns[WREN_NUM_PRIO];	/* since the last reset */
	uint64_t last_ns[WREN_NUM_PRIO];
	uint64_t wire_bits;		/* with preamble, FCS and gap */
	/* Frames handed to the wire at one instant: the most in a row. */
	uint64_t burst_ns;
	uint32_t burst, max_burst;
};

void sh_init(struct sh *s, uint32_t speed_mbps);
/* The same on a board configured by @cfg. */
void sh_init_cfg(struct sh *s, uint32_t speed_mbps,
		 const struct wrenhw_config *cfg);
void sh_fini(struct sh *s);
uint64_t sh_now(struct sh *s);
/* Starts (or stops, len 0) a source; rate 0 keeps it backlogged. */
void sh_source(struct sh *s, unsigned int prio, uint32_t len,
	       uint64_t rate_kbps);
/* Forgets what the wire saw so far. */
void sh_reset_counts(struct sh *s);
/* Feeds the sources and runs the device for @ns of simulated time. */
void sh_run(struct sh *s, uint64_t ns);
/* The same, but time moves in @step_ns leaps, so timers fire late (as a
 * loaded emulator's do). */
void sh_run_coarse(struct sh *s, uint64_t ns, uint64_t step_ns);
/* The peer sends a PFC frame (or an 802.3x pause when @pfc is false). */
bool sh_pause(struct sh *s, bool pfc, uint8_t enable, uint16_t quanta);
struct td_res sh_set(struct sh *s, uint8_t op, const void *in, uint32_t len);
/* ETS: TCs in @ets_mask share by @bw, the others are strict. */
int sh_ets(struct sh *s, uint8_t ets_mask, const uint8_t *bw);
int sh_pfc_en(struct sh *s, uint8_t pfc_en);
uint64_t sh_prio_cnt(struct sh *s, unsigned int prio, unsigned int n);
uint64_t sh_port_cnt(struct sh *s, unsigned int n);
uint64_t sh_pfc_cnt(struct sh *s, unsigned int prio, unsigned int n);

#endif
