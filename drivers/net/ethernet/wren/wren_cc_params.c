// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DCQCN (ECN, notification point, reaction point) as devlink params:
 * driver-specific, runtime, under mlx5's names.  They hold no state of
 * their own: every get reads the NIC with QUERY_CC and every set writes it
 * with SET_CC, so what `devlink dev param show` prints is what the NIC
 * runs.
 *
 * The NIC keeps one wren_cc_params per priority.  The three enables are
 * bitmasks, bit n for priority n.  Every other knob applies to all eight
 * priorities: a set writes it into each of them (keeping each one's
 * enables), a get reads priority 0.  The driver refuses what it can judge
 * alone (the contract's ranges, WREN_DCQCN_*, that do not depend on the
 * link) in the validate callback; the NIC refuses the rest (rates above
 * the link speed, a maximum below the minimum) with BAD_PARAM.  Either way
 * the old value stays: a refused SET_CC changes nothing, and priorities
 * already written are put back.
 */
#include <linux/slab.h>

#include "wren.h"

enum wren_cc_param_id {
	WREN_CC_PARAM_BASE = DEVLINK_PARAM_GENERIC_ID_MAX,
	WREN_CC_PARAM_ECN_ENABLE,
	WREN_CC_PARAM_NP_ENABLE,
	WREN_CC_PARAM_RP_ENABLE,
	WREN_CC_PARAM_NP_MIN_TIME_BETWEEN_CNPS,
	WREN_CC_PARAM_NP_CNP_DSCP,
	WREN_CC_PARAM_NP_CNP_PRIO,
	WREN_CC_PARAM_RP_TIME_RESET,
	WREN_CC_PARAM_RP_BYTE_RESET,
	WREN_CC_PARAM_RP_THRESHOLD,
	WREN_CC_PARAM_RP_AI_RATE,
	WREN_CC_PARAM_RP_HAI_RATE,
	WREN_CC_PARAM_RP_MIN_DEC_FAC,
	WREN_CC_PARAM_RP_MIN_RATE,
	WREN_CC_PARAM_RP_MAX_RATE,
	WREN_CC_PARAM_RP_RATE_TO_SET_ON_FIRST_CNP,
	WREN_CC_PARAM_RP_DCE_TCP_G,
	WREN_CC_PARAM_RP_DCE_TCP_RTT,
	WREN_CC_PARAM_RP_RATE_REDUCE_MONITOR_PERIOD,
	WREN_CC_PARAM_RP_INITIAL_ALPHA_VALUE,
	WREN_CC_PARAM_RP_GD,
	WREN_CC_PARAM_RP_CLAMP_TGT_RATE,
	WREN_CC_PARAM_END,
};

/* Where a knob lives in struct wren_cc_params and what the driver allows. */
struct wren_cc_knob {
	u16 offset;
	u8 size;			/* 1: __u8, 4: __le32 */
	bool per_prio;			/* a bitmask of priorities */
	u32 min;
	u32 max;
};

#define WREN_CC_KNOB(_id, _off, _size, _min, _max)			\
	[(_id) - WREN_CC_PARAM_BASE] = {				\
		.offset = (_off), .size = (_size),			\
		.min = (_min), .max = (_max),				\
	}
#define WREN_CC_U8(_id, _field, _min, _max)				\
	WREN_CC_KNOB(_id, offsetof(struct wren_cc_params, _field), 1,	\
		     _min, _max)
#define WREN_CC_LE32(_id, _field, _min, _max)				\
	WREN_CC_KNOB(_id, offsetof(struct wren_cc_params, _field), 4,	\
		     _min, _max)
#define WREN_CC_ENABLE(_id, _field)					\
	[(_id) - WREN_CC_PARAM_BASE] = {				\
		.offset = offsetof(struct wren_cc_params, _field),	\
		.size = 1, .per_prio = true, .max = U8_MAX,		\
	}

static const struct wren_cc_knob wren_cc_knobs[] = {
	WREN_CC_ENABLE(WREN_CC_PARAM_ECN_ENABLE, ecn_enable),
	WREN_CC_ENABLE(WREN_CC_PARAM_NP_ENABLE, np_enable),
	WREN_CC_ENABLE(WREN_CC_PARAM_RP_ENABLE, rp_enable),
	WREN_CC_LE32(WREN_CC_PARAM_NP_MIN_TIME_BETWEEN_CNPS,
		     np_min_time_between_cnps_us, 0, WREN_DCQCN_TIME_MAX_US),
	WREN_CC_U8(WREN_CC_PARAM_NP_CNP_DSCP, np_cnp_dscp, 0,
		   WREN_NUM_DSCP - 1),
	WREN_CC_U8(WREN_CC_PARAM_NP_CNP_PRIO, np_cnp_prio, 0,
		   WREN_NUM_PRIO - 1),
	WREN_CC_LE32(WREN_CC_PARAM_RP_TIME_RESET, rp_time_reset_us,
		     WREN_DCQCN_RP_TIME_RESET_MIN_US, WREN_DCQCN_TIME_MAX_US),
	WREN_CC_LE32(WREN_CC_PARAM_RP_BYTE_RESET, rp_byte_reset, 0,
		     WREN_DCQCN_RP_BYTE_RESET_MAX),
	WREN_CC_LE32(WREN_CC_PARAM_RP_THRESHOLD, rp_threshold,
		     WREN_DCQCN_RP_THRESHOLD_MIN, WREN_DCQCN_RP_THRESHOLD_MAX),
	/* Rates: the NIC knows the link speed, their upper bound. */
	WREN_CC_LE32(WREN_CC_PARAM_RP_AI_RATE, rp_ai_rate_mbps, 0, U32_MAX),
	WREN_CC_LE32(WREN_CC_PARAM_RP_HAI_RATE, rp_hai_rate_mbps, 0, U32_MAX),
	WREN_CC_U8(WREN_CC_PARAM_RP_MIN_DEC_FAC, rp_min_dec_fac,
		   WREN_DCQCN_RP_MIN_DEC_FAC_MIN, WREN_DCQCN_RP_MIN_DEC_FAC_MAX),
	WREN_CC_LE32(WREN_CC_PARAM_RP_MIN_RATE, rp_min_rate_mbps,
		     WREN_DCQCN_RP_MIN_RATE_MIN_MBPS, U32_MAX),
	WREN_CC_LE32(WREN_CC_PARAM_RP_MAX_RATE, rp_max_rate_mbps, 0, U32_MAX),
	WREN_CC_LE32(WREN_CC_PARAM_RP_RATE_TO_SET_ON_FIRST_CNP,
		     rp_rate_on_first_cnp_mbps, 0, U32_MAX),
	WREN_CC_LE32(WREN_CC_PARAM_RP_DCE_TCP_G, rp_g, 0, WREN_DCQCN_RP_G_MAX),
	WREN_CC_LE32(WREN_CC_PARAM_RP_DCE_TCP_RTT, rp_alpha_update_us,
		     WREN_DCQCN_RP_ALPHA_UPDATE_MIN_US, WREN_DCQCN_TIME_MAX_US),
	WREN_CC_LE32(WREN_CC_PARAM_RP_RATE_REDUCE_MONITOR_PERIOD,
		     rp_rate_reduce_period_us, 0, WREN_DCQCN_TIME_MAX_US),
	WREN_CC_LE32(WREN_CC_PARAM_RP_INITIAL_ALPHA_VALUE, rp_initial_alpha, 0,
		     WREN_DCQCN_ALPHA_MAX),
	WREN_CC_U8(WREN_CC_PARAM_RP_GD, rp_gd, WREN_DCQCN_RP_GD_MIN,
		   WREN_DCQCN_RP_GD_MAX),
	WREN_CC_U8(WREN_CC_PARAM_RP_CLAMP_TGT_RATE, rp_clamp_tgt_rate, 0, 1),
};

static const struct wren_cc_knob *wren_cc_knob(u32 id)
{
	if (id <= WREN_CC_PARAM_BASE || id >= WREN_CC_PARAM_END)
		return NULL;
	return &wren_cc_knobs[id - WREN_CC_PARAM_BASE];
}

static u32 wren_cc_field_get(const struct wren_cc_params *p,
			     const struct wren_cc_knob *k)
{
	const u8 *f = (const u8 *)p + k->offset;

	/* Every __le32 of the structure is naturally aligned. */
	if (k->size == 1)
		return *f;
	return le32_to_cpup((const __le32 *)f);
}

static void wren_cc_field_set(struct wren_cc_params *p,
			      const struct wren_cc_knob *k, u32 val)
{
	u8 *f = (u8 *)p + k->offset;

	if (k->size == 1)
		*f = val;
	else
		*(__le32 *)f = cpu_to_le32(val);
}

static u32 wren_cc_val_get(u32 id, const union devlink_param_value *v)
{
	switch (id) {
	case WREN_CC_PARAM_ECN_ENABLE:
	case WREN_CC_PARAM_NP_ENABLE:
	case WREN_CC_PARAM_RP_ENABLE:
	case WREN_CC_PARAM_NP_CNP_DSCP:
	case WREN_CC_PARAM_NP_CNP_PRIO:
		return v->vu8;
	case WREN_CC_PARAM_RP_CLAMP_TGT_RATE:
		return v->vbool;
	default:
		return v->vu32;
	}
}

static void wren_cc_val_put(u32 id, union devlink_param_value *v, u32 val)
{
	switch (id) {
	case WREN_CC_PARAM_ECN_ENABLE:
	case WREN_CC_PARAM_NP_ENABLE:
	case WREN_CC_PARAM_RP_ENABLE:
	case WREN_CC_PARAM_NP_CNP_DSCP:
	case WREN_CC_PARAM_NP_CNP_PRIO:
		v->vu8 = val;
		break;
	case WREN_CC_PARAM_RP_CLAMP_TGT_RATE:
		v->vbool = val;
		break;
	default:
		v->vu32 = val;
		break;
	}
}

#ifdef HAVE_DEVLINK_PARAM_GET_EXTACK
static int wren_cc_param_get(struct devlink *devlink, u32 id,
			     struct devlink_param_gset_ctx *ctx,
			     struct netlink_ext_ack *extack)
#else
static int wren_cc_param_get(struct devlink *devlink, u32 id,
			     struct devlink_param_gset_ctx *ctx)
#endif
{
	const struct wren_cc_knob *k = wren_cc_knob(id);
	struct wren_dev *wdev = devlink_priv(devlink);
	struct wren_cc_params p;
	u32 val = 0;
	int err = 0;
	u8 prio;

	if (!k)
		return -EINVAL;
	mutex_lock(&wdev->cc_lock);
	for (prio = 0; prio < (k->per_prio ? WREN_NUM_PRIO : 1); prio++) {
		err = wren_cmd_query_cc(wdev, prio, &p);
		if (err)
			break;
		if (!k->per_prio)
			val = wren_cc_field_get(&p, k);
		else if (wren_cc_field_get(&p, k))
			val |= BIT(prio);
	}
	mutex_unlock(&wdev->cc_lock);
	if (!err)
		wren_cc_val_put(id, &ctx->val, val);
	return err;
}

/* Write @val into every priority; on a refusal put back those done. */
static int wren_cc_write(struct wren_dev *wdev, const struct wren_cc_knob *k,
			 u32 val, struct netlink_ext_ack *extack)
{
	struct wren_cc_params *old, p;
	int err = 0, prio, done;

	old = kcalloc(WREN_NUM_PRIO, sizeof(*old), GFP_KERNEL);
	if (!old)
		return -ENOMEM;
	mutex_lock(&wdev->cc_lock);
	for (prio = 0; prio < WREN_NUM_PRIO && !err; prio++)
		err = wren_cmd_query_cc(wdev, prio, &old[prio]);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "QUERY_CC failed");
		goto out;
	}
	for (done = 0; done < WREN_NUM_PRIO; done++) {
		p = old[done];
		p.prio_mask = BIT(done);
		wren_cc_field_set(&p, k, k->per_prio ? !!(val & BIT(done)) : val);
		if (wren_cc_field_get(&p, k) == wren_cc_field_get(&old[done], k))
			continue;
		err = wren_port_cfg_set_cc(wdev, &p);
		if (err)
			break;
	}
	if (!err)
		goto out;
	if (err == -EINVAL)
		NL_SET_ERR_MSG_MOD(extack, "the NIC refused the value (link speed, other knobs)");
	else
		NL_SET_ERR_MSG_MOD(extack, "SET_CC failed");
	for (prio = 0; prio < done; prio++) {
		old[prio].prio_mask = BIT(prio);
		if (wren_port_cfg_set_cc(wdev, &old[prio]))
			dev_warn(&wdev->pdev->dev,
				 "cannot restore the DCQCN parameters of priority %d\n",
				 prio);
	}
out:
	mutex_unlock(&wdev->cc_lock);
	kfree(old);
	return err;
}

#ifdef HAVE_DEVLINK_PARAM_SET_EXTACK
static int wren_cc_param_set(struct devlink *devlink, u32 id,
			     struct devlink_param_gset_ctx *ctx,
			     struct netlink_ext_ack *extack)
#else
static int wren_cc_param_set(struct devlink *devlink, u32 id,
			     struct devlink_param_gset_ctx *ctx)
#endif
{
	const struct wren_cc_knob *k = wren_cc_knob(id);
#ifndef HAVE_DEVLINK_PARAM_SET_EXTACK
	struct netlink_ext_ack *extack = NULL;
#endif

	if (!k)
		return -EINVAL;
	return wren_cc_write(devlink_priv(devlink), k,
			     wren_cc_val_get(id, &ctx->val), extack);
}

/* The value comes by pointer where devlink lets validate adjust it. */
#ifdef HAVE_DEVLINK_PARAM_VALIDATE_PTR
static int wren_cc_param_validate(struct devlink *devlink, u32 id,
				  union devlink_param_value *val,
				  struct netlink_ext_ack *extack)
#else
static int wren_cc_param_validate(struct devlink *devlink, u32 id,
				  union devlink_param_value value,
				  struct netlink_ext_ack *extack)
#endif
{
#ifndef HAVE_DEVLINK_PARAM_VALIDATE_PTR
	union devlink_param_value *val = &value;
#endif
	const struct wren_cc_knob *k = wren_cc_knob(id);
	u32 v = wren_cc_val_get(id, val);

	if (!k)
		return -EINVAL;
	if (v < k->min || v > k->max) {
		NL_SET_ERR_MSG_MOD(extack, "value out of the parameter's range");
		return -EINVAL;
	}
	return 0;
}

#define WREN_CC_PARAM(_id, _name, _type)				\
	DEVLINK_PARAM_DRIVER(_id, _name, DEVLINK_PARAM_TYPE_##_type,	\
			     BIT(DEVLINK_PARAM_CMODE_RUNTIME),		\
			     wren_cc_param_get, wren_cc_param_set,	\
			     wren_cc_param_validate)

/* With WREN_CAP_ECN. */
static const struct devlink_param wren_ecn_params[] = {
	WREN_CC_PARAM(WREN_CC_PARAM_ECN_ENABLE, "cc_ecn_enable", U8),
};

/* With WREN_CAP_DCQCN. */
static const struct devlink_param wren_dcqcn_params[] = {
	WREN_CC_PARAM(WREN_CC_PARAM_NP_ENABLE, "cc_np_enable", U8),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_ENABLE, "cc_rp_enable", U8),
	WREN_CC_PARAM(WREN_CC_PARAM_NP_MIN_TIME_BETWEEN_CNPS,
		      "np_min_time_between_cnps", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_NP_CNP_DSCP, "np_cnp_dscp", U8),
	WREN_CC_PARAM(WREN_CC_PARAM_NP_CNP_PRIO, "np_cnp_prio", U8),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_TIME_RESET, "rp_time_reset", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_BYTE_RESET, "rp_byte_reset", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_THRESHOLD, "rp_threshold", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_AI_RATE, "rp_ai_rate", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_HAI_RATE, "rp_hai_rate", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_MIN_DEC_FAC, "rp_min_dec_fac", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_MIN_RATE, "rp_min_rate", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_MAX_RATE, "rp_max_rate", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_RATE_TO_SET_ON_FIRST_CNP,
		      "rp_rate_to_set_on_first_cnp", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_DCE_TCP_G, "rp_dce_tcp_g", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_DCE_TCP_RTT, "rp_dce_tcp_rtt", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_RATE_REDUCE_MONITOR_PERIOD,
		      "rp_rate_reduce_monitor_period", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_INITIAL_ALPHA_VALUE,
		      "rp_initial_alpha_value", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_GD, "rp_gd", U32),
	WREN_CC_PARAM(WREN_CC_PARAM_RP_CLAMP_TGT_RATE, "rp_clamp_tgt_rate",
		      BOOL),
};

/**
 * wren_cc_params_register() - register the DCQCN devlink params
 * @wdev: the device, its capabilities known, before devlink_register()
 *	  (Linux 6.1 takes params only from an unregistered instance)
 *
 * The DCQCN set needs WREN_CAP_DCQCN, cc_ecn_enable WREN_CAP_ECN as well:
 * SET_CC carries both, and only a NIC with DCQCN has the CC commands'
 * reaction and notification points.  A failure leaves the driver working
 * without them.
 */
void wren_cc_params_register(struct wren_dev *wdev)
{
	int err;

	mutex_init(&wdev->cc_lock);
	if (!(wdev->core.caps & WREN_CAP_DCQCN))
		return;
	err = devlink_params_register(wdev->devlink, wren_dcqcn_params,
				      ARRAY_SIZE(wren_dcqcn_params));
	if (!err && (wdev->core.caps & WREN_CAP_ECN)) {
		err = devlink_params_register(wdev->devlink, wren_ecn_params,
					      ARRAY_SIZE(wren_ecn_params));
		if (err)
			devlink_params_unregister(wdev->devlink,
						  wren_dcqcn_params,
						  ARRAY_SIZE(wren_dcqcn_params));
	}
	if (err) {
		dev_warn(&wdev->pdev->dev, "cannot register the DCQCN devlink params: %d\n",
			 err);
		return;
	}
	wdev->cc_params = true;
}

/**
 * wren_cc_params_unregister() - unregister what wren_cc_params_register() did
 * @wdev: the device, after devlink_unregister()
 */
void wren_cc_params_unregister(struct wren_dev *wdev)
{
	if (wdev->cc_params) {
		if (wdev->core.caps & WREN_CAP_ECN)
			devlink_params_unregister(wdev->devlink, wren_ecn_params,
						  ARRAY_SIZE(wren_ecn_params));
		devlink_params_unregister(wdev->devlink, wren_dcqcn_params,
					  ARRAY_SIZE(wren_dcqcn_params));
	}
	wdev->cc_params = false;
	mutex_destroy(&wdev->cc_lock);
}
