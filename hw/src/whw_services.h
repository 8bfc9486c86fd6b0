/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Log lines, time and interrupts on the host's callbacks (services.c).
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

#endif
