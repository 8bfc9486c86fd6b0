/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The outcome of a command or of one validation step: an AQ status and
 * the syndrome that locates the offending field.
 */
#ifndef WHW_ERR_H
#define WHW_ERR_H

#include <stdint.h>

/* Outcome of a command or a validation step. */
struct whw_err {
	uint8_t status;		/* enum wren_aq_status */
	uint32_t synd;		/* WREN_SYND_* | offset */
};

#define WHW_OK			((struct whw_err){ 0, 0 })
#define WHW_ERR(st, synd)	((struct whw_err){ (st), (synd) })

#endif
