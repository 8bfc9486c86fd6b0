// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC mode (wren_verbs_test xrc): one node.  An XRC domain opened through
 * a file, XRC SRQs with CQs of their own, and an XRC initiator QP
 * connected to an XRC target QP through the NIC's loopback.  SEND (with
 * immediate), RDMA WRITE, READ and an atomic each for the SRQ their
 * work request names, the receive completing on that SRQ's CQ with the
 * target's QP number.  A second process opens the same domain through
 * the same file and the target QP by number (ibv_open_qp), makes an SRQ
 * of its own in the domain and receives a SEND there.  A request for an
 * SRQ of another domain is refused, and breaks the target.  TAP on
 * stdout, tap_done()'s status.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "wvt.h"
#include "tap.h"

#define XR_WAIT_MS	20000
#define XR_LEN		(64 * 1024)
#define XR_XFER		(2 * 4096 + 321)
#define XR_DEPTH	16
#define XR_IMM		0x5a5a0001u
#define XR_PSN_INI	0x1234
#define XR_PSN_TGT	0x4321

struct xrt {
	struct dev *d;
	char path[64], path2[64];	/* the domains' files */
	int fd, fd2;
	struct ibv_xrcd *xrcd, *xrcd2;
	struct ibv_cq *scq, *rcq[2];
	struct ibv_srq *srq[2];		/* of xrcd, on rcq[0] and rcq[1] */
	struct ibv_srq *srq_other;	/* of xrcd2, on rcq[0] */
	struct ibv_qp *ini, *tgt;
	struct ibv_mr *mr;		/* buf: the local side, out: remote */
	uint8_t *buf, *out;
	char why[WVT_WHY];
};

/* A case failed, and why (why.c). */
#define fail(s, ...) why_set((s)->why, __VA_ARGS__)

static struct ibv_srq *xrc_srq(struct xrt *s, struct ibv_xrcd *xrcd,
			       struct ibv_cq *cq)
{
	struct ibv_srq_init_attr_ex a = {
		.attr = { .max_wr = XR_DEPTH, .max_sge = 1 },
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			     IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ,
		.srq_type = IBV_SRQT_XRC,
		.pd = s->d->pd[0],
		.xrcd = xrcd,
		.cq = cq,
	};

	return ibv_create_srq_ex(s->d->ctx, &a);
}

static struct ibv_xrcd *open_xrcd(struct ibv_context *ctx, int fd, int oflags)
{
	struct ibv_xrcd_init_attr a = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = fd,
		.oflags = oflags,
	};

	return ibv_open_xrcd(ctx, &a);
}

static bool case_domains(struct xrt *s)
{
	struct ibv_xrcd *x;

	snprintf(s->path, sizeof(s->path), "/tmp/wvt-xrc-%d", (int)getpid());
	snprintf(s->path2, sizeof(s->path2), "/tmp/wvt-xrc2-%d", (int)getpid());
	s->fd = open(s->path, O_RDONLY | O_CREAT, 0600);
	s->fd2 = open(s->path2, O_RDONLY | O_CREAT, 0600);
	if (s->fd < 0 || s->fd2 < 0)
		return fail(s, "open %s: %s", s->path, strerror(errno));
	/* No domain on the file yet: only O_CREAT makes one. */
	x = open_xrcd(s->d->ctx, s->fd, 0);
	if (x) {
		ibv_close_xrcd(x);
		return fail(s, "ibv_open_xrcd without O_CREAT made a domain");
	}
	s->xrcd = open_xrcd(s->d->ctx, s->fd, O_CREAT);
	s->xrcd2 = open_xrcd(s->d->ctx, s->fd2, O_CREAT);
	if (!s->xrcd || !s->xrcd2)
		return fail(s, "ibv_open_xrcd(O_CREAT): %s", strerror(errno));
	/* The file's domain exists now: O_EXCL refuses it. */
	x = open_xrcd(s->d->ctx, s->fd, O_CREAT | O_EXCL);
	if (x) {
		ibv_close_xrcd(x);
		return fail(s, "ibv_open_xrcd(O_CREAT | O_EXCL) of an existing "
			    "domain succeeded");
	}
	return true;
}

static bool case_objects(struct xrt *s)
{
	struct ibv_qp_init_attr_ex ini = {
		.qp_type = IBV_QPT_XRC_SEND,
		.send_cq = NULL,
		.cap = { .max_send_wr = XR_DEPTH, .max_send_sge = 1 },
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = s->d->pd[0],
		.sq_sig_all = 1,
	};
	struct ibv_qp_init_attr_ex tgt = {
		.qp_type = IBV_QPT_XRC_RECV,
		.comp_mask = IBV_QP_INIT_ATTR_XRCD,
	};
	uint32_t n[3];

	s->scq = ibv_create_cq(s->d->ctx, 64, NULL, NULL, 0);
	s->rcq[0] = ibv_create_cq(s->d->ctx, 64, NULL, NULL, 0);
	s->rcq[1] = ibv_create_cq(s->d->ctx, 64, NULL, NULL, 0);
	if (!s->scq || !s->rcq[0] || !s->rcq[1])
		return fail(s, "ibv_create_cq: %s", strerror(errno));
	s->srq[0] = xrc_srq(s, s->xrcd, s->rcq[0]);
	s->srq[1] = xrc_srq(s, s->xrcd, s->rcq[1]);
	s->srq_other = xrc_srq(s, s->xrcd2, s->rcq[0]);
	if (!s->srq[0] || !s->srq[1] || !s->srq_other)
		return fail(s, "ibv_create_srq_ex(IBV_SRQT_XRC): %s",
			    strerror(errno));
	if (ibv_get_srq_num(s->srq[0], &n[0]) ||
	    ibv_get_srq_num(s->srq[1], &n[1]) ||
	    ibv_get_srq_num(s->srq_other, &n[2]) ||
	    n[0] == n[1] || n[1] == n[2] || n[0] == n[2])
		return fail(s, "ibv_get_srq_num: %s, or numbers not distinct",
			    strerror(errno));
	ini.send_cq = s->scq;
	s->ini = ibv_create_qp_ex(s->d->ctx, &ini);
	tgt.xrcd = s->xrcd;
	s->tgt = ibv_create_qp_ex(s->d->ctx, &tgt);
	if (!s->ini || !s->tgt)
		return fail(s, "ibv_create_qp_ex XRC_SEND/XRC_RECV: %s",
			    strerror(errno));
	return true;
}

/* Only what ib_core requires of each half, as verbs users pass it. */
static int xrc_connect(struct xrt *s, struct ibv_qp *qp, bool tgt,
		       uint32_t dest)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = tgt ? IBV_ACCESS_REMOTE_WRITE |
					 IBV_ACCESS_REMOTE_READ |
					 IBV_ACCESS_REMOTE_ATOMIC : 0,
	};
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
		   IBV_QP_ACCESS_FLAGS;

	if (ibv_modify_qp(qp, &a, mask))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = s->d->port.active_mtu;
	a.dest_qp_num = dest;
	a.rq_psn = tgt ? XR_PSN_INI : XR_PSN_TGT;
	a.max_dest_rd_atomic = 4;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.dgid = s->d->gid;
	a.ah_attr.grh.sgid_index = (uint8_t)s->d->gidx;
	a.ah_attr.grh.hop_limit = 64;
	mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
	       IBV_QP_RQ_PSN;
	if (tgt)
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	if (ibv_modify_qp(qp, &a, mask))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = tgt ? XR_PSN_TGT : XR_PSN_INI;
	a.max_rd_atomic = 4;
	mask = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_SQ_PSN;
	if (!tgt)
		mask |= IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	return ibv_modify_qp(qp, &a, mask);
}

static bool case_connect(struct xrt *s)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	if (xrc_connect(s, s->ini, false, s->tgt->qp_num) ||
	    xrc_connect(s, s->tgt, true, s->ini->qp_num))
		return fail(s, "XRC_SEND/XRC_RECV to RTS: %s", strerror(errno));
	if (ibv_query_qp(s->tgt, &a, IBV_QP_STATE, &ia) ||
	    a.qp_state != IBV_QPS_RTS)
		return fail(s, "the target queries as state %d", a.qp_state);
	return true;
}

static bool post_srq_recv(struct xrt *s, struct ibv_srq *srq, uint64_t id,
			  uint8_t *to)
{
	struct ibv_sge sge = { (uintptr_t)to, XR_XFER, s->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	if (ibv_post_srq_recv(srq, &wr, &bad))
		return fail(s, "ibv_post_srq_recv: %s", strerror(errno));
	return true;
}

/* A work request for SRQ @srq from the initiator; its completion checked. */
static bool post_xrc(struct xrt *s, enum ibv_wr_opcode op, struct ibv_srq *srq,
		     uint8_t *from, uint32_t len, uint8_t *remote,
		     enum ibv_wc_status want)
{
	struct ibv_sge sge = { (uintptr_t)from, len, s->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = 7, .sg_list = &sge, .num_sge = 1, .opcode = op,
		.send_flags = IBV_SEND_SIGNALED, .imm_data = htobe32(XR_IMM),
	}, *bad;
	struct ibv_wc wc;
	uint32_t srqn;

	if (ibv_get_srq_num(srq, &srqn))
		return fail(s, "ibv_get_srq_num: %s", strerror(errno));
	wr.qp_type.xrc.remote_srqn = srqn;
	if (op == IBV_WR_ATOMIC_FETCH_AND_ADD) {
		wr.wr.atomic.remote_addr = (uintptr_t)remote;
		wr.wr.atomic.rkey = s->mr->rkey;
		wr.wr.atomic.compare_add = 5;
	} else {
		wr.wr.rdma.remote_addr = (uintptr_t)remote;
		wr.wr.rdma.rkey = s->mr->rkey;
	}
	if (ibv_post_send(s->ini, &wr, &bad))
		return fail(s, "ibv_post_send on the initiator: %s",
			    strerror(errno));
	if (poll_one(s->scq, &wc, XR_WAIT_MS))
		return fail(s, "no initiator completion within %d ms",
			    XR_WAIT_MS);
	if (wc.status != want)
		return fail(s, "initiator completion %s, wanted %s",
			    ibv_wc_status_str(wc.status),
			    ibv_wc_status_str(want));
	return true;
}

static bool recv_ok(struct xrt *s, struct ibv_cq *cq, uint64_t id,
		    bool imm, const uint8_t *got, uint32_t seed)
{
	struct ibv_wc wc;
	long at;

	if (poll_one(cq, &wc, XR_WAIT_MS))
		return fail(s, "no receive completion within %d ms", XR_WAIT_MS);
	if (wc.status != IBV_WC_SUCCESS || wc.opcode != IBV_WC_RECV ||
	    wc.wr_id != id || wc.byte_len != XR_XFER ||
	    wc.qp_num != s->tgt->qp_num ||
	    !!(wc.wc_flags & IBV_WC_WITH_IMM) != imm ||
	    (imm && be32toh(wc.imm_data) != XR_IMM))
		return fail(s, "receive: %s opcode %d wr_id %llu len %u qp %u "
			    "(target %u) flags 0x%x",
			    ibv_wc_status_str(wc.status), wc.opcode,
			    (unsigned long long)wc.wr_id, wc.byte_len,
			    wc.qp_num, s->tgt->qp_num, wc.wc_flags);
	at = pat_diff(got, XR_XFER, seed, 0);
	if (at >= 0)
		return fail(s, "received data: byte %ld differs", at);
	return true;
}

static bool case_send(struct xrt *s)
{
	struct ibv_wc wc;

	memset(s->out, 0, XR_LEN);
	pat_fill(s->buf, XR_XFER, 0x21, 0);
	if (!post_srq_recv(s, s->srq[0], 100, s->out) ||
	    !post_srq_recv(s, s->srq[1], 200, s->out + 16384) ||
	    !post_xrc(s, IBV_WR_SEND_WITH_IMM, s->srq[0], s->buf, XR_XFER,
		      NULL, IBV_WC_SUCCESS) ||
	    !recv_ok(s, s->rcq[0], 100, true, s->out, 0x21))
		return false;
	pat_fill(s->buf, XR_XFER, 0x22, 0);
	if (!post_xrc(s, IBV_WR_SEND, s->srq[1], s->buf, XR_XFER, NULL,
		      IBV_WC_SUCCESS) ||
	    !recv_ok(s, s->rcq[1], 200, false, s->out + 16384, 0x22))
		return false;
	if (!poll_one(s->rcq[0], &wc, 0) || !poll_one(s->rcq[1], &wc, 0))
		return fail(s, "a receive completion too many");
	return true;
}

static bool case_rdma(struct xrt *s)
{
	uint64_t *v = (uint64_t *)(s->out + 32768);
	uint64_t *orig = (uint64_t *)(s->buf + 32768);
	long at;

	pat_fill(s->buf, XR_XFER, 0x23, 0);
	memset(s->out, 0, XR_XFER);
	if (!post_xrc(s, IBV_WR_RDMA_WRITE, s->srq[1], s->buf, XR_XFER,
		      s->out, IBV_WC_SUCCESS))
		return false;
	at = pat_diff(s->out, XR_XFER, 0x23, 0);
	if (at >= 0)
		return fail(s, "RDMA WRITE: byte %ld differs", at);
	pat_fill(s->out + 40960, XR_XFER, 0x24, 0);
	memset(s->buf, 0, XR_XFER);
	if (!post_xrc(s, IBV_WR_RDMA_READ, s->srq[0], s->buf, XR_XFER,
		      s->out + 40960, IBV_WC_SUCCESS))
		return false;
	at = pat_diff(s->buf, XR_XFER, 0x24, 0);
	if (at >= 0)
		return fail(s, "RDMA READ: byte %ld differs", at);
	*v = 40;
	*orig = 0;
	if (!post_xrc(s, IBV_WR_ATOMIC_FETCH_AND_ADD, s->srq[0],
		      s->buf + 32768, 8, s->out + 32768, IBV_WC_SUCCESS))
		return false;
	if (*v != 45 || *orig != 40)
		return fail(s, "FETCH_ADD: %llu in memory, %llu returned",
			    (unsigned long long)*v, (unsigned long long)*orig);
	return true;
}

/*
 * The child: the domain through the file, the target by number, an SRQ of
 * its own in the domain; it reports the SRQ's number and checks what
 * arrives there.  Exit status 0 if all of it worked.
 */
static int child(struct xrt *s, int to_parent, int from_parent)
{
	struct ibv_qp_open_attr oa = {
		.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD |
			     IBV_QP_OPEN_ATTR_TYPE,
		.qp_num = s->tgt->qp_num,
		.qp_type = IBV_QPT_XRC_RECV,
	};
	struct ibv_srq_init_attr_ex sa = {
		.attr = { .max_wr = 4, .max_sge = 1 },
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			     IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ,
		.srq_type = IBV_SRQT_XRC,
	};
	struct ibv_recv_wr wr = { .wr_id = 300, .num_sge = 1 }, *bad;
	struct ibv_qp_init_attr ia;
	struct ibv_context *ctx;
	struct ibv_qp_attr qa;
	struct ibv_sge sge;
	struct ibv_xrcd *x;
	struct ibv_mr *mr;
	struct ibv_srq *srq;
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_wc wc;
	uint8_t *buf = aligned_alloc(4096, XR_LEN);
	uint32_t srqn = 0;
	char go;

	ctx = ibv_open_device(s->d->ctx->device);
	if (!ctx || !buf)
		return 2;
	x = open_xrcd(ctx, s->fd, 0);
	if (!x)
		return 3;
	oa.xrcd = x;
	qp = ibv_open_qp(ctx, &oa);
	if (!qp || ibv_query_qp(qp, &qa, IBV_QP_STATE, &ia) ||
	    qa.qp_state != IBV_QPS_RTS)
		return 4;
	sa.pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
	mr = sa.pd ? ibv_reg_mr(sa.pd, buf, XR_LEN, IBV_ACCESS_LOCAL_WRITE) :
		     NULL;
	sa.xrcd = x;
	sa.cq = cq;
	srq = cq && mr ? ibv_create_srq_ex(ctx, &sa) : NULL;
	if (!srq || ibv_get_srq_num(srq, &srqn))
		return 5;
	memset(buf, 0, XR_LEN);
	sge = (struct ibv_sge){ (uintptr_t)buf, XR_XFER, mr->lkey };
	wr.sg_list = &sge;
	if (ibv_post_srq_recv(srq, &wr, &bad))
		return 6;
	if (write(to_parent, &srqn, sizeof(srqn)) != sizeof(srqn))
		return 7;
	if (poll_one(cq, &wc, XR_WAIT_MS) || wc.status != IBV_WC_SUCCESS ||
	    wc.wr_id != 300 || wc.qp_num != s->tgt->qp_num ||
	    pat_diff(buf, XR_XFER, 0x25, 0) >= 0)
		return 8;
	/* The parent destroys nothing of ours until we are done. */
	if (read(from_parent, &go, 1) != 1)
		return 9;
	ibv_destroy_srq(srq);
	ibv_destroy_qp(qp);
	ibv_close_xrcd(x);
	ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(sa.pd);
	ibv_close_device(ctx);
	free(buf);
	return 0;
}

/* The initiator's SEND for the other process's SRQ @srqn. */
static bool send_to(struct xrt *s, uint32_t srqn)
{
	struct ibv_sge sge = { (uintptr_t)s->buf, XR_XFER, s->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = 8, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct ibv_wc wc;

	pat_fill(s->buf, XR_XFER, 0x25, 0);
	wr.qp_type.xrc.remote_srqn = srqn;
	if (ibv_post_send(s->ini, &wr, &bad))
		return fail(s, "ibv_post_send: %s", strerror(errno));
	if (poll_one(s->scq, &wc, XR_WAIT_MS) || wc.status != IBV_WC_SUCCESS)
		return fail(s, "SEND to the other process's SRQ %u failed",
			    srqn);
	return true;
}

static bool case_other_process(struct xrt *s)
{
	int up[2], down[2], status = 0;
	uint32_t srqn = 0;
	bool ok;
	pid_t pid;

	if (pipe(up) || pipe(down))
		return fail(s, "pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return fail(s, "fork: %s", strerror(errno));
	if (!pid)
		_exit(child(s, up[1], down[0]));
	close(up[1]);
	close(down[0]);
	if (read(up[0], &srqn, sizeof(srqn)) != sizeof(srqn))
		ok = fail(s, "the other process made no SRQ");
	else
		ok = send_to(s, srqn);
	/* Its receive checked, it may tear down. */
	if (write(down[1], "g", 1) != 1)
		ok = false;
	close(up[0]);
	close(down[1]);
	if ((waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	     WEXITSTATUS(status)) && ok)
		ok = fail(s, "the other process failed at step %d",
			  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return ok;
}

/* Still the target's after the other process closed its handle on it. */
static bool case_after_close(struct xrt *s)
{
	memset(s->out, 0, XR_LEN);
	pat_fill(s->buf, XR_XFER, 0x26, 0);
	return post_srq_recv(s, s->srq[0], 101, s->out) &&
	       post_xrc(s, IBV_WR_SEND, s->srq[0], s->buf, XR_XFER, NULL,
			IBV_WC_SUCCESS) &&
	       recv_ok(s, s->rcq[0], 101, false, s->out, 0x26);
}

static bool case_refusals(struct xrt *s)
{
	struct ibv_sge sge = { (uintptr_t)s->buf, 16, s->mr->lkey };
	struct ibv_recv_wr rwr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 };
	struct ibv_send_wr swr = {
		.wr_id = 1, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
	};
	struct ibv_recv_wr *rbad;
	struct ibv_send_wr *sbad;

	if (!ibv_post_recv(s->ini, &rwr, &rbad))
		return fail(s, "ibv_post_recv on an XRC initiator succeeded");
	if (!ibv_post_recv(s->tgt, &rwr, &rbad))
		return fail(s, "ibv_post_recv on an XRC target succeeded");
	if (!ibv_post_send(s->tgt, &swr, &sbad))
		return fail(s, "ibv_post_send on an XRC target succeeded");
	return true;
}

/* Last: the refusal breaks the target (QP_REQ_ERR). */
static bool case_other_domain(struct xrt *s)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;
	struct ibv_wc wc;

	if (!post_srq_recv(s, s->srq_other, 400, s->out) ||
	    !post_xrc(s, IBV_WR_SEND, s->srq_other, s->buf, 64, NULL,
		      IBV_WC_REM_INV_REQ_ERR))
		return false;
	if (ibv_query_qp(s->tgt, &a, IBV_QP_STATE, &ia) ||
	    a.qp_state != IBV_QPS_ERR)
		return fail(s, "the target is in state %d, not ERR", a.qp_state);
	if (!poll_one(s->rcq[0], &wc, 0))
		return fail(s, "the other domain's SRQ completed a receive");
	return true;
}

static const struct {
	bool (*run)(struct xrt *s);
	const char *what;
} cases[] = {
	{ case_domains, "ibv_open_xrcd through a file: O_CREAT makes the domain, O_EXCL refuses an existing one" },
	{ case_objects, "XRC SRQs with CQs of their own, ibv_get_srq_num, XRC_SEND and XRC_RECV QPs" },
	{ case_connect, "XRC_SEND and XRC_RECV to RTS with ib_core's masks of each half" },
	{ case_send, "SEND with immediate and SEND, each to the SRQ it names: that SRQ's CQ, the target's qp_num" },
	{ case_rdma, "RDMA WRITE, READ and FETCH_ADD through the XRC pair" },
	{ case_other_process, "another process: the domain by file, the target by ibv_open_qp, a SEND to its own SRQ" },
	{ case_after_close, "the target serves on after the other process closed its handles" },
	{ case_refusals, "receives on XRC QPs and sends on a target refused" },
	{ case_other_domain, "a SEND for an SRQ of another domain: REM_INV_REQ_ERR, the target in ERR" },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

int xrc_run(struct dev *d)
{
	struct xrt s = { .d = d, .fd = -1, .fd2 = -1 };
	struct ibv_device_attr_ex ax;
	bool up = true;
	size_t i;

	tap_plan(N_CASES);
	if (ibv_query_device_ex(d->ctx, NULL, &ax) ||
	    !(ax.orig_attr.device_cap_flags & IBV_DEVICE_XRC)) {
		for (i = 0; i < N_CASES; i++)
			tap_skipped("the device has no XRC (IBV_DEVICE_XRC)",
				    "%s", cases[i].what);
		return tap_done();
	}
	/* One MR for both sides: buf the local one, out the remote. */
	s.buf = aligned_alloc(4096, 2 * XR_LEN);
	s.out = s.buf ? s.buf + XR_LEN : NULL;
	if (s.buf)
		s.mr = ibv_reg_mr(d->pd[0], s.buf, 2 * XR_LEN,
				  IBV_ACCESS_LOCAL_WRITE |
				  IBV_ACCESS_REMOTE_WRITE |
				  IBV_ACCESS_REMOTE_READ |
				  IBV_ACCESS_REMOTE_ATOMIC);
	if (!s.mr) {
		tap_diag("xrc: buffers: %s", strerror(errno));
		up = false;
	}
	for (i = 0; i < N_CASES; i++) {
		bool ok = up && cases[i].run(&s);

		why_report(s.why, ok, cases[i].what);
		/* Each case builds on the one before. */
		up = ok;
	}

	if (s.ini)
		ibv_destroy_qp(s.ini);
	if (s.tgt)
		ibv_destroy_qp(s.tgt);
	for (i = 0; i < 2; i++)
		if (s.srq[i])
			ibv_destroy_srq(s.srq[i]);
	if (s.srq_other)
		ibv_destroy_srq(s.srq_other);
	if (s.xrcd)
		ibv_close_xrcd(s.xrcd);
	if (s.xrcd2)
		ibv_close_xrcd(s.xrcd2);
	if (s.scq)
		ibv_destroy_cq(s.scq);
	for (i = 0; i < 2; i++)
		if (s.rcq[i])
			ibv_destroy_cq(s.rcq[i]);
	if (s.mr)
		ibv_dereg_mr(s.mr);
	free(s.buf);
	if (s.fd >= 0) {
		close(s.fd);
		unlink(s.path);
	}
	if (s.fd2 >= 0) {
		close(s.fd2);
		unlink(s.path2);
	}
	return tap_done();
}
