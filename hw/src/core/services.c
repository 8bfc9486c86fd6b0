// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The model's few services on the host's callbacks: log lines, time and
 * interrupts.  Every engine uses them, so they sit below all of them and
 * call nothing of the model's.
 *
 * Time is the host's (whw_now()); the device's own clocks run on it:
 * HEARTBEAT's milliseconds since reset, and the device clock
 * (WREN_CAP_TIMESTAMP), nanoseconds since reset or since the value
 * SET_CLOCK gave it, which the registers of its BAR0 page and the
 * 64-byte CQEs read.
 */
#include <stdarg.h>
#include <stdio.h>

#include "../whw_device.h"
#include "whw_services.h"

void whw_log(struct wrenhw *hw, const char *fmt, ...)
{
	char line[160];
	va_list ap;

	if (!hw->ops->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	hw->ops->log(hw->opaque, line);
}

uint64_t whw_now(struct wrenhw *hw)
{
	return hw->ops->now_ns ? hw->ops->now_ns(hw->opaque) : 0;
}

void whw_irq(struct wrenhw *hw, unsigned int vector)
{
	if (vector < hw->num_msix)
		hw->ops->irq_notify(hw->opaque, vector);
}

/* Milliseconds since reset, frozen by a fatal error (HEARTBEAT). */
uint32_t whw_heartbeat(struct wrenhw *hw)
{
	if (hw->status & WREN_STATUS_FATAL)
		return hw->heartbeat_frozen;
	return (uint32_t)((whw_now(hw) - hw->epoch_ns) / 1000000u);
}

uint64_t whw_clock(struct wrenhw *hw)
{
	return hw->clock_base + (whw_now(hw) - hw->clock_set_ns);
}

void whw_clock_reset(struct wrenhw *hw)
{
	hw->clock_base = 0;
	hw->clock_set_ns = whw_now(hw);
}

uint32_t whw_clock_reg_read(struct wrenhw *hw, uint64_t off)
{
	uint64_t ns;

	if (!(hw->caps & WREN_CAP_TIMESTAMP))
		return 0;
	ns = whw_clock(hw);
	return (uint32_t)(off == WREN_REG_CLOCK_HI ? ns >> 32 : ns);
}
