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
/* A 32-bit read at @off of BAR0's clock page (WREN_CLOCK_PAGE). */
uint32_t whw_clock_reg_read(struct wrenhw *hw, uint64_t off);

#endif
