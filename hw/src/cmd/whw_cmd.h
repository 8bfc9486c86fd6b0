/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * One admin command as its handler sees it, and the checks handlers share
 * (cmd_util.c).
 */
#ifndef WHW_CMD_H
#define WHW_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/wren/wren_hw.h>

#include "../core/whw_table.h"
#include "../whw_err.h"
#include "wrenhw.h"

/* One admin command being executed. */
struct whw_cmd {
	const struct wren_aq_cmd *cmd;
	const uint8_t *in;	/* zero-padded to at least the defined size */
	uint32_t in_len;
	uint8_t *out;		/* out_cap bytes, zeroed */
	uint32_t out_cap;
	uint32_t out_size;	/* bytes the handler produced */
	uint64_t result;
	uint32_t result2;
};

typedef struct whw_err (*whw_cmd_fn)(struct wrenhw *hw, struct whw_cmd *c);

#define WHW_SYND_CMD(field)	(WREN_SYND_CMD | \
				 (uint32_t)offsetof(struct wren_aq_cmd, field))
#define WHW_SYND_IN(type, field) (WREN_SYND_IN | \
				  (uint32_t)offsetof(type, field))

/* Checks that bytes [off, off+len) of a block are zero; reports the first. */
bool whw_all_zero(const void *p, size_t len, size_t *first_nonzero);
struct whw_err whw_check_rsvd_cmd(const struct whw_cmd *c, size_t off,
				  size_t len);
struct whw_err whw_check_rsvd_in(const struct whw_cmd *c, size_t off,
				 size_t len);

/* cmd_dispatch.c: the shared checks of @cmd, then its handler. */
struct whw_err whw_cmd_run(struct wrenhw *hw, const struct wren_aq_cmd *cmd,
			   struct whw_cmd *c);

/* Looks up the object named by the inline handle of @c. */
void *whw_cmd_handle_obj(const struct whw_cmd *c, const struct whw_table *t,
			 struct whw_err *err);

#endif
