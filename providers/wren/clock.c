// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The device clock (WREN_CAP_TIMESTAMP): its BAR0 page, which wren.c maps
 * read-only once per context beside the doorbell page, read here without
 * a syscall for ibv_query_rt_values_ex.  The clock counts nanoseconds
 * (WREN_CLOCK_KHZ) and wren.ko sets it to real time when it brings the
 * device up.
 */
#include <errno.h>

#include <linux/wren/wren_regs.h>

#include "wren.h"

static uint32_t wren_clock_reg(const struct wren_context *ctx, uint32_t reg)
{
	return le32toh(*(const volatile uint32_t *)
		       (ctx->clock_page + reg - WREN_CLOCK_PAGE));
}

/* Three reads at most: LO wraps once every 4.3 s. */
static int wren_clock_read(const struct wren_context *ctx, uint64_t *ns)
{
	for (int i = 0; i < 3; i++) {
		uint32_t hi = wren_clock_reg(ctx, WREN_REG_CLOCK_HI);
		uint32_t lo = wren_clock_reg(ctx, WREN_REG_CLOCK_LO);
		__u64 v;

		if (wren_clock_join(hi, lo, wren_clock_reg(ctx, WREN_REG_CLOCK_HI),
				    &v)) {
			*ns = v;
			return 0;
		}
	}
	return EIO;
}

/*
 * The raw clock goes in raw_clock.tv_nsec with tv_sec 0, as mlx5 reports
 * its cycles (what applications and pyverbs read); the ticks being
 * nanoseconds, tv_sec * 10^9 + tv_nsec is the clock either way.
 */
int wren_query_rt_values(struct ibv_context *ibctx, struct ibv_values_ex *values)
{
	struct wren_context *ctx = to_wren_ctx(ibctx);
	uint32_t done = 0;
	uint64_t ns;
	int ret;

	if (values->comp_mask & IBV_VALUES_MASK_RAW_CLOCK) {
		if (!ctx->clock_page)
			return EOPNOTSUPP;
		ret = wren_clock_read(ctx, &ns);
		if (ret)
			return ret;
		values->raw_clock.tv_sec = 0;
		values->raw_clock.tv_nsec = (long)ns;
		done |= IBV_VALUES_MASK_RAW_CLOCK;
	}
	values->comp_mask = done;
	return 0;
}
