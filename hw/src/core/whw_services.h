/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Log lines, time and interrupts on the host's callbacks, and the
 * device's clocks on that time (services.c).
 */
#ifndef WHW_SERVICES_H
#define WHW_SERVICES_H

#include <stdint.h>

#include "wrenhw.h"

void whw_log(struct wrenhw *hw, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
uint64_t whw_now(struct wrenhw *hw);
void whw_irq(struct wrenhw *hw, unsigned int vector);
uint32_t whw_heartbeat(struct wrenhw *hw);

/*
 * The device clock (WREN_CAP_TIMESTAMP) now, in ns: what a CQE64 and the
 * clock registers carry.
 */
uint64_t whw_clock(struct wrenhw *hw);
/* At device reset: the clock counts from 0 again. */
void whw_clock_reset(struct wrenhw *hw);
/* A read of WREN_REG_CLOCK_LO or _HI (regs.c dispatches only those). */
uint32_t whw_clock_reg_read(struct wrenhw *hw, uint64_t off);

#endif
