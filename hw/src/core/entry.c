// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The host's entry points into a running device: MMIO to the register and
 * doorbell BARs, deferred work and the host timer.  They sit on top of the
 * engines and are called by nothing inside the model.
 */
#include "../eth/whw_eth.h"
#include "../port/whw_port.h"
#include "../roce/whw_roce_api.h"
#include "../whw_device.h"
#include "whw_control.h"
#include "whw_services.h"
#include "whw_timer.h"
#include "wrenhw.h"

void wrenhw_timer_expired(struct wrenhw *hw)
{
	uint64_t now = whw_now(hw);

	whw_timer_host_expired(hw);
	whw_port_timer(hw, now);
	whw_timers_run(hw, now);
	whw_timer_rearm(hw);
}

uint64_t wrenhw_bar_size(const struct wrenhw *hw, unsigned int bar)
{
	switch (bar) {
	case WREN_BAR_REGS:
		return WREN_REGS_SIZE;
	case WREN_BAR_DB:
		return (uint64_t)hw->num_db_pages << WREN_DB_PAGE_SHIFT;
	default:
		return 0;
	}
}

uint64_t wrenhw_mmio_read(struct wrenhw *hw, unsigned int bar, uint64_t off,
			  unsigned int size)
{
	if (bar != WREN_BAR_REGS)
		return 0;	/* doorbell pages are write-only */
	if (off >= WREN_REGS_SIZE || (off & (size - 1)))
		return UINT64_MAX;
	if (size == 4)
		return whw_reg_read(hw, off);
	if (size == 8)
		return whw_reg_read(hw, off) |
		       (uint64_t)whw_reg_read(hw, off + 4) << 32;
	return UINT64_MAX;
}

void wrenhw_mmio_write(struct wrenhw *hw, unsigned int bar, uint64_t off,
		       uint64_t val, unsigned int size)
{
	if (bar == WREN_BAR_DB) {
		whw_db_write(hw, off, val, size);
		return;
	}
	if (bar != WREN_BAR_REGS || off >= WREN_REGS_SIZE || !size ||
	    (off & (size - 1)))
		return;
	if (size == 4) {
		whw_reg_write(hw, off, (uint32_t)val);
	} else if (size == 8) {
		/* A 64-bit access is two 32-bit ones, low half first. */
		whw_reg_write(hw, off, (uint32_t)val);
		whw_reg_write(hw, off + 4, (uint32_t)(val >> 32));
	}
}

void wrenhw_process(struct wrenhw *hw)
{
	whw_aq_process(hw);
	whw_eth_tx_process(hw);
	whw_roce_process(hw);
}
