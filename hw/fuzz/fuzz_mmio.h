/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The record format of fuzz_mmio.c, shared with the seed generator. */
#ifndef WRENHW_FUZZ_MMIO_H
#define WRENHW_FUZZ_MMIO_H

enum fm_kind {
	FM_REG_WRITE,	/* u16 offset, u32 value: a 32-bit BAR0 write */
	FM_REG_READ,	/* u16 offset, u8 size */
	FM_DB_WRITE,	/* u8 page, u16 offset, u64 value: a 64-bit doorbell */
	FM_RAW,		/* u8 bar, u8 size, u32 offset, u64 value: any access */
	FM_RUN,		/* u32 microseconds: bottom halves, then timers */
	FM_RESET,	/* u8 how: bus reset, or the link down/up */
	FM_KINDS
};

#endif
