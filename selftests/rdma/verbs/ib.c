// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Device, GID and QP plumbing shared by every mode. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "wvt.h"

int wvt_timeout = 14;	/* local ACK timeout: 4.096 us << 14 = 67 ms */
/* --sl, --tclass: the priority of the QP's packets (the NIC maps the SL or,
 * under DSCP trust, the traffic class's DSCP to a priority; switches read
 * the DSCP).  Both 0 by default, as before. */
int wvt_sl, wvt_tclass;

double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void gid_to_str(const union ibv_gid *g, char *s)
{
	for (int i = 0; i < 16; i++)
		sprintf(s + 2 * i, "%02x", g->raw[i]);
}

int gid_from_str(union ibv_gid *g, const char *s)
{
	for (int i = 0; i < 16; i++) {
		unsigned int v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		g->raw[i] = (uint8_t)v;
	}
	return 0;
}

/* The first RoCE v2 GID that holds an IPv4 address (::ffff:a.b.c.d). */
static int find_gid(struct dev *d)
{
	static const uint8_t v4pfx[12] = { [10] = 0xff, [11] = 0xff };

	for (int i = 0; i < d->port.gid_tbl_len; i++) {
		struct ibv_gid_entry e;

		if (ibv_query_gid_ex(d->ctx, 1, (uint32_t)i, &e, 0))
			continue;
		if (e.gid_type == IBV_GID_TYPE_ROCE_V2 &&
		    !memcmp(e.gid.raw, v4pfx, sizeof(v4pfx)))
			return i;
	}
	return -1;
}

int dev_open(struct dev *d, const char *name, int gidx)
{
	struct ibv_device **list = ibv_get_device_list(NULL), *dv = NULL;

	memset(d, 0, sizeof(*d));
	for (int i = 0; list && list[i]; i++)
		if (!name || !strcmp(ibv_get_device_name(list[i]), name)) {
			dv = list[i];
			break;
		}
	if (!dv) {
		fprintf(stderr, "wvt: no RDMA device %s\n", name ? name : "at all");
		return -1;
	}
	d->ctx = ibv_open_device(dv);
	ibv_free_device_list(list);
	if (!d->ctx || ibv_query_device(d->ctx, &d->attr) ||
	    ibv_query_port(d->ctx, 1, &d->port)) {
		fprintf(stderr, "wvt: cannot open/query the device\n");
		return -1;
	}
	{
		struct ibv_device_attr_ex ax;

		if (!ibv_query_device_ex(d->ctx, NULL, &ax))
			d->cap_ex = ax.device_cap_flags_ex;
	}
	d->gidx = gidx >= 0 ? gidx : find_gid(d);
	if (d->gidx < 0 || ibv_query_gid(d->ctx, 1, d->gidx, &d->gid)) {
		fprintf(stderr, "wvt: no RoCE v2 IPv4 GID on port 1\n");
		return -1;
	}
	d->mtu = 128u << d->port.active_mtu;
	d->pd[0] = ibv_alloc_pd(d->ctx);
	d->pd[1] = ibv_alloc_pd(d->ctx);
	if (!d->pd[0] || !d->pd[1]) {
		fprintf(stderr, "wvt: ibv_alloc_pd failed\n");
		return -1;
	}
	return 0;
}

/*
 * Whether the device died (IBV_EVENT_DEVICE_FATAL), without blocking: what
 * a program polling a CQ must ask now and then, since a dead device's CQ
 * stays empty rather than flushing.  Other events are acknowledged and
 * passed over.
 */
bool dev_fatal(struct dev *d)
{
	struct ibv_async_event ev;
	bool fatal = false;
	int fl = fcntl(d->ctx->async_fd, F_GETFL);

	if (fl < 0 || (!(fl & O_NONBLOCK) &&
		       fcntl(d->ctx->async_fd, F_SETFL, fl | O_NONBLOCK)))
		return false;
	while (!ibv_get_async_event(d->ctx, &ev)) {
		fatal |= ev.event_type == IBV_EVENT_DEVICE_FATAL;
		ibv_ack_async_event(&ev);
	}
	return fatal;
}

void dev_close(struct dev *d)
{
	for (int i = 0; i < 2; i++)
		if (d->pd[i])
			ibv_dealloc_pd(d->pd[i]);
	if (d->ctx)
		ibv_close_device(d->ctx);
}

int conn_create(struct dev *d, struct conn *c, enum ibv_qp_type t, int pd,
		int depth)
{
	return conn_create_ops(d, c, t, pd, depth, 0);
}

int conn_create_ops(struct dev *d, struct conn *c, enum ibv_qp_type t,
		    int pd, int depth, uint64_t send_ops)
{
	memset(c, 0, sizeof(*c));
	c->scq = ibv_create_cq(d->ctx, depth * 2, NULL, NULL, 0);
	c->rcq = ibv_create_cq(d->ctx, depth * 2, NULL, NULL, 0);
	if (!c->scq || !c->rcq) {
		fprintf(stderr, "wvt: ibv_create_cq failed\n");
		return -1;
	}
	return conn_create_on(d, c, t, pd, depth, send_ops);
}

int conn_create_on(struct dev *d, struct conn *c, enum ibv_qp_type t,
		   int pd, int depth, uint64_t send_ops)
{
	struct ibv_qp_init_attr_ex ia = { 0 };
	struct ibv_qp_attr a = { 0 };
	int sge = d->attr.max_sge < WVT_MAX_SGE ? d->attr.max_sge : WVT_MAX_SGE;

	c->type = t;
	ia.send_cq = c->scq;
	ia.recv_cq = c->rcq;
	ia.qp_type = t;
	ia.cap.max_send_wr = (uint32_t)depth;
	ia.cap.max_recv_wr = (uint32_t)depth;
	ia.cap.max_send_sge = (uint32_t)sge;
	ia.cap.max_recv_sge = (uint32_t)sge;
	ia.cap.max_inline_data = 64;
	ia.comp_mask = IBV_QP_INIT_ATTR_PD;
	ia.pd = d->pd[pd];
	if (send_ops) {
		ia.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		ia.send_ops_flags = send_ops;
	}
	c->qp = ibv_create_qp_ex(d->ctx, &ia);
	if (!c->qp && errno != EOPNOTSUPP) {
		/* A device without inline data. */
		ia.cap.max_inline_data = 0;
		c->qp = ibv_create_qp_ex(d->ctx, &ia);
	}
	if (!c->qp) {
		int err = errno;

		perror("wvt: ibv_create_qp");
		errno = err;	/* callers tell "not supported" apart */
		return -1;
	}
	c->max_inline = ia.cap.max_inline_data;
	if (send_ops)
		c->qpx = ibv_qp_to_qp_ex(c->qp);
	c->psn = (uint32_t)lrand48() & 0xffffff;
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	if (t == IBV_QPT_UD) {
		a.qkey = WVT_QKEY;
		if (ibv_modify_qp(c->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				  IBV_QP_PORT | IBV_QP_QKEY))
			goto err;
	} else {
		/* UC: a responder only ever takes SENDs and WRITEs. */
		a.qp_access_flags = t == IBV_QPT_UC ? IBV_ACCESS_REMOTE_WRITE :
				    IBV_ACCESS_REMOTE_WRITE |
				    IBV_ACCESS_REMOTE_READ |
				    IBV_ACCESS_REMOTE_ATOMIC;
		/*
		 * Both FLUSH rights where the device has FLUSH, as rdma-core's
		 * own tests grant them: an MR's rights then decide (iba15.c).
		 */
		if (t == IBV_QPT_RC && (d->cap_ex & WVT_DEV_FLUSH_GLOBAL))
			a.qp_access_flags |= IBV_ACCESS_FLUSH_GLOBAL |
					     IBV_ACCESS_FLUSH_PERSISTENT;
		if (ibv_modify_qp(c->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
			goto err;
	}
	return 0;
err:
	perror("wvt: modify_qp INIT");
	return -1;
}

static void fill_ah(struct dev *d, struct ibv_ah_attr *ah,
		    const union ibv_gid *gid)
{
	memset(ah, 0, sizeof(*ah));
	ah->is_global = 1;
	ah->grh.dgid = *gid;
	ah->grh.sgid_index = (uint8_t)d->gidx;
	ah->grh.hop_limit = 64;
	ah->grh.traffic_class = (uint8_t)wvt_tclass;
	ah->sl = (uint8_t)wvt_sl;
	ah->port_num = 1;
}

int conn_connect(struct dev *d, struct conn *c, uint32_t peer_qpn,
		 uint32_t peer_psn, const union ibv_gid *peer_gid)
{
	struct ibv_qp_attr a = { 0 };
	uint8_t rd = d->attr.max_qp_rd_atom < 16 ? (uint8_t)d->attr.max_qp_rd_atom : 16;
	int mask;

	c->peer_qpn = peer_qpn;
	if (c->type == IBV_QPT_UD) {
		struct ibv_ah_attr ah;

		a.qp_state = IBV_QPS_RTR;
		if (ibv_modify_qp(c->qp, &a, IBV_QP_STATE))
			goto err;
		a.qp_state = IBV_QPS_RTS;
		a.sq_psn = c->psn;
		if (ibv_modify_qp(c->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN))
			goto err;
		fill_ah(d, &ah, peer_gid);
		c->ah = ibv_create_ah(c->qp->pd, &ah);
		if (!c->ah) {
			perror("wvt: ibv_create_ah");
			return -1;
		}
		return 0;
	}
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = d->port.active_mtu;
	a.dest_qp_num = peer_qpn;
	a.rq_psn = peer_psn;
	a.max_dest_rd_atomic = rd;
	a.min_rnr_timer = 12;
	fill_ah(d, &a.ah_attr, peer_gid);
	mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
	       IBV_QP_RQ_PSN;
	/* UC has no responder resources, RNR, timeouts or retries. */
	if (c->type == IBV_QPT_RC)
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	if (ibv_modify_qp(c->qp, &a, mask))
		goto err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	if (c->type == IBV_QPT_UC) {
		a.sq_psn = c->psn;
		if (ibv_modify_qp(c->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN))
			goto err;
		return 0;
	}
	a.timeout = (uint8_t)wvt_timeout;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = c->psn;
	a.max_rd_atomic = rd;
	if (ibv_modify_qp(c->qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
			  IBV_QP_MAX_QP_RD_ATOMIC))
		goto err;
	return 0;
err:
	perror("wvt: modify_qp RTR/RTS");
	return -1;
}

void conn_destroy(struct conn *c)
{
	if (c->ah)
		ibv_destroy_ah(c->ah);
	if (c->qp)
		ibv_destroy_qp(c->qp);
	if (c->scq)
		ibv_destroy_cq(c->scq);
	if (c->rcq)
		ibv_destroy_cq(c->rcq);
	memset(c, 0, sizeof(*c));
}

int poll_one(struct ibv_cq *cq, struct ibv_wc *wc, int timeout_ms)
{
	double end = now_s() + timeout_ms / 1000.0;
	unsigned int spins = 0;

	for (;;) {
		int n = ibv_poll_cq(cq, 1, wc);

		if (n < 0)
			return -1;
		if (n == 1)
			return 0;
		if (!(++spins & 1023) && now_s() > end)
			return -1;
	}
}
