/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The record format of fuzz_admin.c, shared with the seed generator. */
#ifndef WRENHW_FUZZ_ADMIN_H
#define WRENHW_FUZZ_ADMIN_H

enum fa_kind {
	FA_CMD,
	FA_RING,
	FA_AQ_PI,
	FA_ACQ,
	FA_AEQ,
	FA_TIME,
	FA_MEM,
	FA_FAULT,
	FA_KINDS
};

/* FA_CMD's "how" bits: point the command at the harness's buffers. */
#define FA_IN_SCRATCH	0x01	/* in_addr = the input buffer written */
#define FA_OUT_SCRATCH	0x02	/* out_addr = a 64 KiB output buffer */
#define FA_QUEUE_ONLY	0x04	/* write to the AQ, ring later (FA_RING) */

/* Input buffer bytes a record carries (the contract allows 64 KiB). */
#define FA_IN_MAX	4096

#endif
