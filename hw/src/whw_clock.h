/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The device clock (clock.c): WREN_CAP_TIMESTAMP's nanosecond counter.
 */
#ifndef WHW_CLOCK_H
#define WHW_CLOCK_H

#include <stdint.h>

#include "wrenhw.h"

/* The clock now, in ns; what a CQE64 and the clock registers carry. */
uint64_t whw_clock(struct wrenhw *hw);
/* At device reset: the clock counts from 0 again. */
void whw_clock_reset(struct wrenhw *hw);
/* A read of WREN_REG_CLOCK_LO or _HI (regs.c dispatches only those). */
uint32_t whw_clock_reg_read(struct wrenhw *hw, uint64_t off);

#endif
