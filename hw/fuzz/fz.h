/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the libFuzzer harnesses of libwrenhw share: a reader that turns
 * the fuzz input into fields (missing bytes read as zero, so every input
 * is valid), one device per input on the host stub's host (hw/host), the
 * settle loop, and the check every harness ends with.
 */
#ifndef WRENHW_FUZZ_FZ_H
#define WRENHW_FUZZ_FZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drv.h"

/* -------------------------------------------------------------- input */

struct fz_in {
	const uint8_t *p;
	size_t n;
};

uint8_t fz_u8(struct fz_in *in);
uint16_t fz_u16(struct fz_in *in);
uint32_t fz_u32(struct fz_in *in);
uint64_t fz_u64(struct fz_in *in);
/* Copies up to @len bytes, zero-fills the rest; returns the bytes copied. */
size_t fz_bytes(struct fz_in *in, void *buf, size_t len);
bool fz_more(const struct fz_in *in);

/* ------------------------------------------------------------- device */

/*
 * Guest memory the harnesses and their seeds agree on.  td_new() takes
 * its rings and scratch buffers from 0x100000000 up; the playground is
 * where the admin harness's commands point their rings, page lists and
 * buffers (its inputs write it).  Guest memory is sparse and capped by
 * the test host, so any address is safe to hand the model.
 */
#define FZ_PLAY_BASE	0x200000000ull
#define FZ_PLAY_SIZE	0x100000u	/* 1 MiB */

/*
 * A small board: tables fill after a handful of commands, so the
 * NO_RESOURCES paths are in reach, and creating a device per input is
 * cheap.
 */
void fz_board(struct wrenhw_config *cfg);

/* A device with AQ and AEQ enabled, on fz_board(); aborts on failure. */
struct td *fz_new(void);
void fz_free(struct td *d);

/*
 * Runs what the model asked for (bottom halves) and the timers it armed,
 * up to @max_ns of simulated time; bounded, as the host's loop is.
 */
void fz_settle(struct td *d, uint64_t max_ns);

/* Completions now in the ACQ, checked and acknowledged; returns them. */
unsigned int fz_acq_drain(struct td *d);

/*
 * The model after an input: faults cleared, recovered the way a driver
 * would (reset when fatal, AQ re-enabled when stalled), it must answer NOP
 * and QUERY_DEVICE correctly.  Aborts (a libFuzzer crash) when it does not.
 */
void fz_check(struct td *d);

/* Reports a broken invariant as a crash, with a line saying which. */
_Noreturn void fz_fail(const char *what);

#endif
