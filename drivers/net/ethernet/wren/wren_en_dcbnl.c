// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * IEEE DCB through dcbnl (iproute2's dcb, lldpad): ETS, PFC, max rate per
 * TC, DSCP trust and map, apptrust (kernels that have it), receive
 * buffers, DCBX mode.  Every GET reads the NIC's state back with
 * QUERY_DCB; every SET sends one SET_* command through wren_port_cfg.c,
 * which keeps it for after a reset.  All ops run under the RTNL, which
 * also serialises the read-modify-write of the DSCP map.  Failures are
 * not logged: each is the answer to a user's request, which gets the
 * errno; only PFC refused because 802.3x pause is on says why, as dcbnl
 * has no extack to carry it.
 */
#include <linux/if_vlan.h>
#include <linux/rtnetlink.h>
#include <net/dcbnl.h>

#include "wren_en.h"

#define WREN_DCB_CAPS	(WREN_CAP_DCB_ETS | WREN_CAP_DCB_PFC | \
			 WREN_CAP_DCB_DSCP_TRUST | WREN_CAP_DCB_BUFFER | \
			 WREN_CAP_DCB_MAXRATE)
#define WREN_DCBX_MODE	(DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE)

static struct wren_dev *wren_dcb_dev(struct net_device *netdev)
{
	struct wren_eth_priv *priv = netdev_priv(netdev);

	return priv->wdev;
}

/* The NIC's whole DCB state; -EOPNOTSUPP without @cap. */
static int wren_dcb_query(struct net_device *netdev, u64 cap,
			  struct wren_dcb_state *st)
{
	struct wren_dev *wdev = wren_dcb_dev(netdev);

	ASSERT_RTNL();
	if (!(wdev->core.caps & cap))
		return -EOPNOTSUPP;
	return wren_cmd_query_dcb(wdev, st);
}

static int wren_dcbnl_getets(struct net_device *netdev, struct ieee_ets *ets)
{
	struct wren_dcb_state st;
	int err, i;

	err = wren_dcb_query(netdev, WREN_CAP_DCB_ETS, &st);
	if (err)
		return err;
	ets->ets_cap = WREN_NUM_TC;
	for (i = 0; i < WREN_NUM_TC; i++) {
		ets->tc_tsa[i] = st.ets.tc_tsa[i];
		ets->tc_tx_bw[i] = st.ets.tc_bw[i];
		ets->prio_tc[i] = st.ets.prio_tc[i];
	}
	return 0;
}

static int wren_dcbnl_setets(struct net_device *netdev, struct ieee_ets *ets)
{
	struct wren_dev *wdev = wren_dcb_dev(netdev);
	struct wren_ets in = {};
	unsigned int sum = 0;
	bool any_ets = false;
	int i;

	ASSERT_RTNL();
	if (!(wdev->core.caps & WREN_CAP_DCB_ETS))
		return -EOPNOTSUPP;
	if (ets->cbs)
		return -EOPNOTSUPP;
	for (i = 0; i < WREN_NUM_TC; i++) {
		switch (ets->tc_tsa[i]) {
		case IEEE_8021QAZ_TSA_STRICT:
			in.tc_tsa[i] = WREN_TSA_STRICT;
			break;
		case IEEE_8021QAZ_TSA_ETS:
			if (ets->tc_tx_bw[i] > 100)
				return -EINVAL;
			in.tc_tsa[i] = WREN_TSA_ETS;
			in.tc_bw[i] = ets->tc_tx_bw[i];
			sum += ets->tc_tx_bw[i];
			any_ets = true;
			break;
		case IEEE_8021QAZ_TSA_CB_SHAPER:
		case IEEE_8021QAZ_TSA_VENDOR:
			/* Valid, but contract 1.0 knows only strict and ETS. */
			return -EOPNOTSUPP;
		default:
			return -EINVAL;
		}
	}
	/* Bandwidth of strict TCs is not used; the NIC wants it 0. */
	if (any_ets && sum != 100)
		return -EINVAL;
	for (i = 0; i < WREN_NUM_PRIO; i++) {
		if (ets->prio_tc[i] >= WREN_NUM_TC)
			return -EINVAL;
		in.prio_tc[i] = ets->prio_tc[i];
	}
	return wren_port_cfg_set(wdev, WREN_CFG_ETS, &in);
}

static int wren_dcbnl_getpfc(struct net_device *netdev, struct ieee_pfc *pfc)
{
	struct wren_dev *wdev = wren_dcb_dev(netdev);
	u64 cnt[WREN_NUM_PRIO * WREN_NUM_PRIO_COUNTERS];
	struct wren_dcb_state st;
	int err, i;

	err = wren_dcb_query(netdev, WREN_CAP_DCB_PFC, &st);
	if (err)
		return err;
	pfc->pfc_cap = WREN_NUM_PRIO;
	pfc->pfc_en = st.pfc.pfc_en;
	pfc->delay = le16_to_cpu(st.pfc.delay);
	if (!(wdev->core.caps & WREN_CAP_COUNTERS))
		return 0;
	err = wren_cmd_query_counters(&wdev->core, WREN_COUNTERS_PRIO, 0, cnt,
				      ARRAY_SIZE(cnt));
	if (err)
		return err;
	/* requests: PFC frames sent; indications: PFC frames received. */
	for (i = 0; i < WREN_NUM_PRIO; i++) {
		u64 *c = &cnt[i * WREN_NUM_PRIO_COUNTERS];

		pfc->requests[i] = c[WREN_PRIO_CNT_TX_PFC_FRAMES];
		pfc->indications[i] = c[WREN_PRIO_CNT_RX_PFC_FRAMES];
	}
	return 0;
}

static int wren_dcbnl_setpfc(struct net_device *netdev, struct ieee_pfc *pfc)
{
	struct wren_dev *wdev = wren_dcb_dev(netdev);
	struct wren_port_attr port;
	struct wren_pfc in = {};
	int err;

	ASSERT_RTNL();
	if (!(wdev->core.caps & WREN_CAP_DCB_PFC))
		return -EOPNOTSUPP;
	if (pfc->mbc)
		return -EOPNOTSUPP;
	/* PFC and 802.3x pause exclude each other (wren_set_pauseparam);
	 * the NIC refuses too (BAD_STATE, -EBUSY), but without a reason.
	 */
	if (pfc->pfc_en) {
		err = wren_cmd_query_port(&wdev->core, &port);
		if (err)
			return err;
		if (port.pause & (WREN_PAUSE_RX | WREN_PAUSE_TX)) {
			netdev_err(netdev, "802.3x pause is on (%s%s): turn it off before PFC\n",
				   port.pause & WREN_PAUSE_RX ? "rx" : "",
				   port.pause & WREN_PAUSE_TX ? " tx" : "");
			return -EBUSY;
		}
	}
	in.pfc_en = pfc->pfc_en;
	in.delay = cpu_to_le16(pfc->delay);
	return wren_port_cfg_set(wdev, WREN_CFG_PFC, &in);
}

static int wren_dcbnl_getmaxrate(struct net_device *netdev,
				 struct ieee_maxrate *maxrate)
{
	struct wren_dcb_state st;
	int err, i;

	err = wren_dcb_query(netdev, WREN_CAP_DCB_MAXRATE, &st);
	if (err)
		return err;
	/* Both are kb/s, as in mlx5; 0 is unlimited. */
	for (i = 0; i < WREN_NUM_TC; i++)
		maxrate->tc_maxrate[i] =
			le64_to_cpu(st.maxrate.tc_maxrate_kbps[i]);
	return 0;
}

static int wren_dcbnl_setmaxrate(struct net_device *netdev,
				 struct ieee_maxrate *maxrate)
{
	struct wren_dev *wdev = wren_dcb_dev(netdev);
	struct wren_maxrate in = {};
	int i;

	ASSERT_RTNL();
	if (!(wdev->core.caps & WREN_CAP_DCB_MAXRATE))
		return -EOPNOTSUPP;
	/* The NIC refuses rates above the link speed (-EINVAL). */
	for (i = 0; i < WREN_NUM_TC; i++)
		in.tc_maxrate_kbps[i] = cpu_to_le64(maxrate->tc_maxrate[i]);
	return wren_port_cfg_set(wdev, WREN_CFG_MAXRATE, &in);
}

/* The DSCP map an entry returns to when its app entry goes: the class
 * selector (DSCP >> 3), which is also the NIC's power-on map.
 */
static u8 wren_dscp_default_prio(unsigned int dscp)
{
	return dscp >> 3;
}

static int wren_dcb_check_app(struct net_device *netdev, struct dcb_app *app)
{
	struct wren_dev *wdev = wren_dcb_dev(netdev);

	if (!(wdev->core.caps & WREN_CAP_DCB_DSCP_TRUST))
		return -EOPNOTSUPP;
	if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP)
		return -EOPNOTSUPP;
	if (app->protocol >= WREN_NUM_DSCP || app->priority >= WREN_NUM_PRIO)
		return -EINVAL;
	return 0;
}

/* Trust DSCP while the app table has a DSCP entry, else the PCP. */
static void wren_dcb_app_trust(struct net_device *netdev,
			       struct wren_trust *trust)
{
	struct dcb_ieee_app_prio_map map = {};
	unsigned int i;

	dcb_ieee_getapp_prio_dscp_mask_map(netdev, &map);
	trust->trust = WREN_TRUST_PCP;
	for (i = 0; i < ARRAY_SIZE(map.map); i++)
		if (map.map[i])
			trust->trust = WREN_TRUST_DSCP;
}

static int wren_dcbnl_setapp(struct net_device *netdev, struct dcb_app *app)
{
	struct wren_dev *wdev = wren_dcb_dev(netdev);
	struct wren_trust trust;
	struct wren_dcb_state st;
	struct dcb_app old;
	unsigned long prios;
	unsigned int p;
	int err;

	err = wren_dcb_check_app(netdev, app);
	if (err)
		return err;
	err = wren_dcb_query(netdev, WREN_CAP_DCB_DSCP_TRUST, &st);
	if (err)
		return err;
	trust = st.trust;
	trust.trust = WREN_TRUST_DSCP;
	trust.dscp2prio[app->protocol] = app->priority;
	err = wren_port_cfg_set(wdev, WREN_CFG_TRUST, &trust);
	if (err)
		return err;
	prios = dcb_ieee_getapp_mask(netdev, app);
	if (!(prios & BIT(app->priority))) {
		err = dcb_ieee_setapp(netdev, app);
		if (err) {
			/* No table entry: the NIC goes back to what it had. */
			wren_port_cfg_set(wdev, WREN_CFG_TRUST, &st.trust);
			return err;
		}
	}
	/* One priority per DSCP: the new entry replaces any other. */
	old = *app;
	for_each_set_bit(p, &prios, WREN_NUM_PRIO) {
		if (p == app->priority)
			continue;
		old.priority = p;
		dcb_ieee_delapp(netdev, &old);
	}
	return 0;
}

static int wren_dcbnl_delapp(struct net_device *netdev, struct dcb_app *app)
{
	struct wren_dev *wdev = wren_dcb_dev(netdev);
	struct wren_dcb_state st;
	int err;

	err = wren_dcb_check_app(netdev, app);
	if (err)
		return err;
	err = wren_dcb_query(netdev, WREN_CAP_DCB_DSCP_TRUST, &st);
	if (err)
		return err;
	err = dcb_ieee_delapp(netdev, app);
	if (err)
		return err;
	st.trust.dscp2prio[app->protocol] =
		wren_dscp_default_prio(app->protocol);
	wren_dcb_app_trust(netdev, &st.trust);
	err = wren_port_cfg_set(wdev, WREN_CFG_TRUST, &st.trust);
	if (err)
		dcb_ieee_setapp(netdev, app);
	return err;
}

/* XOFF leaves room for what is in flight after a pause is sent: two
 * maximum frames plus the cable delay; XON is one frame below XOFF.
 */
static void wren_dcb_thresholds(struct net_device *netdev, u16 delay_bits,
				struct wren_buffer *buf)
{
	u32 frame = netdev->mtu + ETH_HLEN + VLAN_HLEN + ETH_FCS_LEN;
	u32 headroom = 2 * frame + DIV_ROUND_UP(delay_bits, BITS_PER_BYTE);
	int i;

	for (i = 0; i < WREN_NUM_PRIO; i++) {
		u32 size = le32_to_cpu(buf->size[i]);
		u32 xoff = size > headroom ? size - headroom : 0;

		buf->xoff[i] = cpu_to_le32(xoff);
		buf->xon[i] = cpu_to_le32(xoff > frame ? xoff - frame : 0);
	}
}

static int wren_dcbnl_getbuffer(struct net_device *netdev,
				struct dcbnl_buffer *dcb_buffer)
{
	struct wren_dcb_state st;
	int err, i;

	err = wren_dcb_query(netdev, WREN_CAP_DCB_BUFFER, &st);
	if (err)
		return err;
	for (i = 0; i < WREN_NUM_PRIO; i++) {
		dcb_buffer->prio2buffer[i] = st.buffer.prio2buffer[i];
		dcb_buffer->buffer_size[i] = le32_to_cpu(st.buffer.size[i]);
	}
	dcb_buffer->total_size = le32_to_cpu(st.buffer.total_size);
	return 0;
}

static int wren_dcbnl_setbuffer(struct net_device *netdev,
				struct dcbnl_buffer *dcb_buffer)
{
	struct wren_dev *wdev = wren_dcb_dev(netdev);
	struct wren_dcb_state st;
	u64 total = 0;
	int err, i;

	err = wren_dcb_query(netdev, WREN_CAP_DCB_BUFFER, &st);
	if (err)
		return err;
	for (i = 0; i < WREN_NUM_PRIO; i++) {
		if (dcb_buffer->prio2buffer[i] >= DCBX_MAX_BUFFERS)
			return -EINVAL;
		st.buffer.prio2buffer[i] = dcb_buffer->prio2buffer[i];
		st.buffer.size[i] = cpu_to_le32(dcb_buffer->buffer_size[i]);
		total += dcb_buffer->buffer_size[i];
	}
	if (total > le32_to_cpu(st.buffer.total_size))
		return -EINVAL;
	st.buffer.total_size = 0;
	wren_dcb_thresholds(netdev, le16_to_cpu(st.pfc.delay), &st.buffer);
	return wren_port_cfg_set(wdev, WREN_CFG_BUFFER, &st.buffer);
}

#ifdef HAVE_DCBNL_APPTRUST
/* apptrust: which fields classify received frames, in order.  The NIC
 * trusts either the PCP alone or the DSCP of IP frames with the PCP for
 * the rest, so exactly two orders exist: "pcp" and "dscp pcp".  setapp
 * and delapp still switch the trust as the DSCP app table fills and
 * empties; an apptrust set after them wins until the next one.
 */
static int wren_dcbnl_getapptrust(struct net_device *netdev, u8 *selectors,
				  int *nselectors)
{
	struct wren_dcb_state st;
	int err, n = 0;

	err = wren_dcb_query(netdev, WREN_CAP_DCB_DSCP_TRUST, &st);
	if (err)
		return err;
	if (st.trust.trust == WREN_TRUST_DSCP)
		selectors[n++] = IEEE_8021QAZ_APP_SEL_DSCP;
	selectors[n++] = DCB_APP_SEL_PCP;
	*nselectors = n;
	return 0;
}

static int wren_dcbnl_setapptrust(struct net_device *netdev, u8 *selectors,
				  int nselectors)
{
	struct wren_dev *wdev = wren_dcb_dev(netdev);
	struct wren_dcb_state st;
	int err;

	err = wren_dcb_query(netdev, WREN_CAP_DCB_DSCP_TRUST, &st);
	if (err)
		return err;
	if (nselectors == 1 && selectors[0] == DCB_APP_SEL_PCP)
		st.trust.trust = WREN_TRUST_PCP;
	else if (nselectors == 2 && selectors[0] == IEEE_8021QAZ_APP_SEL_DSCP &&
		 selectors[1] == DCB_APP_SEL_PCP)
		st.trust.trust = WREN_TRUST_DSCP;
	else
		return -EOPNOTSUPP;
	return wren_port_cfg_set(wdev, WREN_CFG_TRUST, &st.trust);
}
#endif

static u8 wren_dcbnl_getdcbx(struct net_device *netdev)
{
	return WREN_DCBX_MODE;
}

/* Only the host's IEEE DCBX (lldpad) exists: 1 refuses anything else. */
static u8 wren_dcbnl_setdcbx(struct net_device *netdev, u8 mode)
{
	return mode == WREN_DCBX_MODE ? 0 : 1;
}

static const struct dcbnl_rtnl_ops wren_dcbnl_ops = {
	.ieee_getets	= wren_dcbnl_getets,
	.ieee_setets	= wren_dcbnl_setets,
	.ieee_getpfc	= wren_dcbnl_getpfc,
	.ieee_setpfc	= wren_dcbnl_setpfc,
	.ieee_getmaxrate = wren_dcbnl_getmaxrate,
	.ieee_setmaxrate = wren_dcbnl_setmaxrate,
	.ieee_setapp	= wren_dcbnl_setapp,
	.ieee_delapp	= wren_dcbnl_delapp,
	.dcbnl_getbuffer = wren_dcbnl_getbuffer,
	.dcbnl_setbuffer = wren_dcbnl_setbuffer,
	.getdcbx	= wren_dcbnl_getdcbx,
	.setdcbx	= wren_dcbnl_setdcbx,
#ifdef HAVE_DCBNL_APPTRUST
	.dcbnl_getapptrust = wren_dcbnl_getapptrust,
	.dcbnl_setapptrust = wren_dcbnl_setapptrust,
#endif
};

/**
 * wren_dcbnl_setup() - give the netdev its dcbnl ops
 * @priv: the netdev's private state, before register_netdev()
 *
 * Only a NIC with at least one DCB capability gets them; each op checks
 * the capability it needs and answers -EOPNOTSUPP without it.
 */
void wren_dcbnl_setup(struct wren_eth_priv *priv)
{
	if (priv->wdev->core.caps & WREN_DCB_CAPS)
		priv->netdev->dcbnl_ops = &wren_dcbnl_ops;
}
