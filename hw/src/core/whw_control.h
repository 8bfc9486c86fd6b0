/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The control path's entries below the host's: registers (regs.c), the
 * admin queue engine (aq.c) and doorbells (doorbell.c).
 */
#ifndef WHW_CONTROL_H
#define WHW_CONTROL_H

#include <stdbool.h>
#include <stdint.h>

#include "../whw_objects.h"
#include "wrenhw.h"

/* regs.c */
uint32_t whw_reg_read(struct wrenhw *hw, uint64_t off);
void whw_reg_write(struct wrenhw *hw, uint64_t off, uint32_t val);

/* aq.c */
void whw_aq_doorbell(struct wrenhw *hw, uint32_t pi);
void whw_acq_doorbell(struct wrenhw *hw, uint32_t val);
void whw_aq_process(struct wrenhw *hw);
void whw_aq_late_cancel(struct wrenhw *hw);

/* doorbell.c */
void whw_db_write(struct wrenhw *hw, uint64_t off, uint64_t val,
		  unsigned int size);
void whw_db_error(struct wrenhw *hw, bool *reported, uint32_t queue,
		  uint32_t page, uint32_t db_off);
void whw_eq_doorbell(struct wrenhw *hw, struct whw_eq *eq, uint32_t ci,
		     bool arm);

#endif
