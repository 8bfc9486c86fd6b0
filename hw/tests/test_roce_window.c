// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The RC send window: a requester never has more than whw_rc_window()
 * PSNs sent and unacknowledged, READ responses included (a READ is asked
 * for in requests of half a window), AckReq keeps a full window moving
 * whatever the responder coalesces, and go-back-N after a loss, a lost
 * ACK or a timeout resends at most a window.  The harness watches every
 * frame: PSNs the requester (node 0) sends or asks responses for, and
 * what is acknowledged to it when the ACK or response is delivered.
 */
#include <stdlib.h>

#include "roce/whw_roce.h"
#include "roce_tests.h"

#define MIB	(1u << 20)

struct win_watch {
	uint32_t mtu;
	bool started;
	uint32_t sent_end;	/* one past the highest PSN sent / asked for */
	uint32_t acked_end;	/* one past the highest acknowledged */
	uint32_t resp_end;	/* one past the highest response sent */
	uint32_t max_out;	/* most of sent_end - acked_end seen */
	uint32_t max_resp;	/* most responses sent, not yet delivered */
	unsigned int requests, ackreqs, responses, acks;
};

static const uint8_t *bth_of(const uint8_t *f, size_t len)
{
	size_t off = 14 + (f[12] == 0x08 ? 20 : 40) + 8;

	return off + 12 <= len ? f + off : NULL;
}

static void later(uint32_t *end, uint32_t psn)
{
	if (whw_psn_diff(psn, *end) > 0)
		*end = psn;
}

static void note_out(struct win_watch *w)
{
	int32_t out = whw_psn_diff(w->sent_end, w->acked_end);
	int32_t resp = whw_psn_diff(w->resp_end, w->acked_end);

	if (out > 0 && (uint32_t)out > w->max_out)
		w->max_out = (uint32_t)out;
	if (resp > 0 && (uint32_t)resp > w->max_resp)
		w->max_resp = (uint32_t)resp;
}

static void watch(void *ctx, int from, bool delivered, const uint8_t *f,
		  size_t len)
{
	struct win_watch *w = ctx;
	const uint8_t *b = bth_of(f, len);
	uint8_t op;
	uint32_t psn, n = 1;

	if (!b)
		return;
	op = b[0];
	psn = whw_rd24be(b + 9);
	if (from == 0 && !delivered && op <= WHW_OP_READ_REQ) {
		if (op == WHW_OP_READ_REQ) {
			uint32_t dmalen = whw_rd32be(b + 12 + 12);

			n = dmalen ? (dmalen + w->mtu - 1) / w->mtu : 1;
		}
		if (!w->started) {
			w->started = true;
			w->sent_end = w->acked_end = w->resp_end = psn;
		}
		later(&w->sent_end, whw_psn_add(psn, n));
		w->requests++;
		if (b[8] & 0x80)
			w->ackreqs++;
	} else if (from == 1 && !delivered && op >= WHW_OP_READ_RESP_FIRST &&
		   op <= WHW_OP_READ_RESP_ONLY) {
		later(&w->resp_end, whw_psn_add(psn, 1));
		w->responses++;
	} else if (from == 1 && delivered && op >= WHW_OP_READ_RESP_FIRST &&
		   op <= WHW_OP_ATOMIC_ACK) {
		if (op == WHW_OP_ACK) {
			w->acks++;
			/* A NAK acknowledges what precedes its PSN. */
			if (b[12] & 0xe0)
				psn = whw_psn_add(psn, WREN_PSN_MASK);
		}
		later(&w->acked_end, whw_psn_add(psn, 1));
	}
	note_out(w);
}

static void watch_on(struct rc_env *e, struct win_watch *w, uint32_t mtu)
{
	memset(w, 0, sizeof(*w));
	w->mtu = mtu;
	e->p.watch = watch;
	e->p.watch_ctx = w;
}

static struct ro_conn conn(uint8_t mtu, uint8_t rd_atomic)
{
	struct ro_conn c = { .mtu = mtu, .timeout = 14, .retry = 7,
			     .rnr_retry = 7, .min_rnr = 1,
			     .rd_atomic = rd_atomic,
			     .access = WREN_ACCESS_LOCAL_WRITE |
				       WREN_ACCESS_REMOTE_WRITE |
				       WREN_ACCESS_REMOTE_READ };

	return c;
}

static void post_rdma(struct rc_env *e, uint8_t opcode, uint64_t off,
		      uint64_t roff, uint32_t len, bool signaled)
{
	struct ro_wqe w = { .opcode = opcode, .nsge = 1,
			    .flags = signaled ? WREN_WQE_F_SIGNALED : 0 };

	w.sge[0] = rc_sge(e, 0, off, len);
	w.raddr = e->mr[1].iova + roff;
	w.rkey = e->mr[1].key;
	ro_post_send(&e->qp[0], &w);
}

static uint64_t cnt(struct rc_env *e, int side, unsigned int which)
{
	return ro_counter(&e->p.n[side], which);
}

/* Nothing comes back: exactly a window leaves, its last asks for an ACK. */
static void write_hold(void)
{
	struct ro_conn c = conn(WREN_MTU_4096, 4);
	uint32_t win = whw_rc_window(4096), writes = 0;
	struct rc_env e;
	struct wren_cqe cqe;
	struct win_watch ww;
	uint8_t *pat;
	bool last_ackreq;

	rc_env_init(&e, &c);
	watch_on(&e, &ww, 4096);
	pat = rc_pattern(&e, 0, 0, MIB, 11);
	e.p.hold = 1;
	post_rdma(&e, WREN_WQE_RDMA_WRITE, 0, 0, MIB, true);
	ro_settle(&e.p, 0);
	for (unsigned int i = 0; i < e.p.qlen; i++) {
		int op = ro_queued_opcode(&e.p, i);

		if (op >= WHW_OP_WRITE_FIRST && op <= WHW_OP_WRITE_LAST)
			writes++;
	}
	last_ackreq = e.p.qlen &&
		      (bth_of(e.p.q[(e.p.qhead + e.p.qlen - 1) % RO_MAX_QUEUE]
				  .data, 100)[8] & 0x80);
	tap_ok(e.ok && e.p.qlen == win && writes == win &&
	       last_ackreq && ww.ackreqs == 2,
	       "1 MiB WRITE at MTU 4096, no ACK back: %u packets leave (window "
	       "%u), AckReq on the middle and the last (%u)", e.p.qlen, win,
	       ww.ackreqs);
	e.p.hold = 0;
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[0], &cqe) && cqe.status == 0 &&
	       rc_same(&e, 1, 0, pat, MIB) && ww.max_out <= win &&
	       !cnt(&e, 0, WREN_RDMA_CNT_RETRANSMITS) &&
	       !cnt(&e, 0, WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR),
	       "... then ACKs flow: completes, data right, never more than %u "
	       "PSNs unacknowledged (%u), nothing resent", win, ww.max_out);
	free(pat);
	rc_env_fini(&e);
}

/* A long transfer stays within the window and keeps it mostly full. */
static void write_flow(uint8_t mtu_code, uint32_t mtu)
{
	struct ro_conn c = conn(mtu_code, 4);
	uint32_t win = whw_rc_window(mtu);
	struct rc_env e;
	struct wren_cqe cqe;
	struct win_watch ww;
	uint8_t *pat;

	rc_env_init(&e, &c);
	watch_on(&e, &ww, mtu);
	pat = rc_pattern(&e, 0, 0, MIB, 12);
	post_rdma(&e, WREN_WQE_RDMA_WRITE, 0, 0, MIB, true);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[0], &cqe) && cqe.status == 0 &&
	       rc_same(&e, 1, 0, pat, MIB) && ww.max_out <= win &&
	       ww.max_out >= win / 2 && ww.requests == MIB / mtu &&
	       !cnt(&e, 0, WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR),
	       "1 MiB WRITE at MTU %u: at most %u PSNs unacknowledged (%u), "
	       "%u packets, %u ACKs, no timeout, data right", mtu, win,
	       ww.max_out, ww.requests, ww.acks);
	free(pat);
	rc_env_fini(&e);
}

/* One packet lost: go back to it, resend at most a window. */
static void write_loss(void)
{
	struct ro_conn c = conn(WREN_MTU_4096, 4);
	uint32_t win = whw_rc_window(4096);
	struct rc_env e;
	struct wren_cqe cqe;
	struct win_watch ww;
	uint8_t *pat;
	uint64_t retx;

	rc_env_init(&e, &c);
	watch_on(&e, &ww, 4096);
	pat = rc_pattern(&e, 0, 0, MIB, 13);
	e.p.drop_opcode = WHW_OP_WRITE_MIDDLE;
	e.p.drop_opcode_n = 1;
	post_rdma(&e, WREN_WQE_RDMA_WRITE, 0, 0, MIB, true);
	ro_settle(&e.p, 1000000000ull);
	retx = cnt(&e, 0, WREN_RDMA_CNT_RETRANSMITS);
	tap_ok(rc_one_cqe(&e.cq[0], &cqe) && cqe.status == 0 &&
	       rc_same(&e, 1, 0, pat, MIB) && retx >= 1 && retx <= win &&
	       cnt(&e, 0, WREN_RDMA_CNT_PACKET_SEQ_ERR) == 1 &&
	       !cnt(&e, 0, WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR) &&
	       ww.max_out <= win,
	       "1 MiB WRITE, second packet lost: one sequence NAK, %llu "
	       "packets resent (at most the window, %u, not the rest of the "
	       "message), data right", (unsigned long long)retx, win);
	free(pat);
	rc_env_fini(&e);
}

/* Everything in flight lost: the timer resends exactly the window. */
static void write_timeout(void)
{
	struct ro_conn c = conn(WREN_MTU_4096, 4);
	uint32_t win = whw_rc_window(4096);
	struct rc_env e;
	struct wren_cqe cqe;
	uint8_t *pat;

	rc_env_init(&e, &c);
	pat = rc_pattern(&e, 0, 0, MIB, 14);
	e.p.hold = 1;
	post_rdma(&e, WREN_WQE_RDMA_WRITE, 0, 0, MIB, true);
	ro_settle(&e.p, 0);
	e.p.drop_next = e.p.qlen;
	e.p.hold = 0;
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[0], &cqe) && cqe.status == 0 &&
	       rc_same(&e, 1, 0, pat, MIB) &&
	       cnt(&e, 0, WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR) == 1 &&
	       cnt(&e, 0, WREN_RDMA_CNT_RETRANSMITS) == win,
	       "a whole window lost: one ACK timeout, the %u packets resent "
	       "(%llu), then the rest; data right", win,
	       (unsigned long long)cnt(&e, 0, WREN_RDMA_CNT_RETRANSMITS));
	free(pat);
	rc_env_fini(&e);
}

/* Lost ACKs: a later ACK covers them, or the timer does; no stall. */
static void ack_loss(void)
{
	struct ro_conn c = conn(WREN_MTU_1024_, 4);
	uint32_t win = whw_rc_window(1024);
	struct rc_env e;
	struct wren_cqe cqe;
	struct win_watch ww;
	uint8_t *pat;

	rc_env_init(&e, &c);
	watch_on(&e, &ww, 1024);
	pat = rc_pattern(&e, 0, 0, MIB, 15);
	e.p.drop_opcode = WHW_OP_ACK;
	e.p.drop_opcode_n = 3;
	post_rdma(&e, WREN_WQE_RDMA_WRITE, 0, 0, MIB, true);
	ro_settle(&e.p, 10000000000ull);
	tap_ok(rc_one_cqe(&e.cq[0], &cqe) && cqe.status == 0 &&
	       rc_same(&e, 1, 0, pat, MIB) && ww.max_out <= win &&
	       !e.p.drop_opcode_n,
	       "1 MiB WRITE at MTU 1024 with its first 3 ACKs lost: completes "
	       "(%llu timeouts, %llu resent), data right",
	       (unsigned long long)cnt(&e, 0,
				       WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR),
	       (unsigned long long)cnt(&e, 0, WREN_RDMA_CNT_RETRANSMITS));
	free(pat);
	rc_env_fini(&e);
}

/*
 * Many short unsignalled WRITEs, a long one that fills the window in its
 * middle, and a signalled one at the end: the responder coalesces ACKs,
 * the window still drains, no timer has to help.
 */
static void coalesced_mix(void)
{
	struct ro_conn c = conn(WREN_MTU_1024_, 4);
	uint32_t win = whw_rc_window(1024);
	struct rc_env e;
	struct wren_cqe cqe[4];
	struct win_watch ww;
	uint8_t *small, *big;
	unsigned int n;

	rc_env_init(&e, &c);
	watch_on(&e, &ww, 1024);
	small = rc_pattern(&e, 0, 0, 3000, 16);
	big = rc_pattern(&e, 0, 4096, 800000, 17);
	for (int i = 0; i < 40; i++)
		post_rdma(&e, WREN_WQE_RDMA_WRITE, 0, 4096u * (uint32_t)i,
			  3000, false);
	post_rdma(&e, WREN_WQE_RDMA_WRITE, 4096, 4096 * 40, 800000, false);
	for (int i = 0; i < 20; i++)
		post_rdma(&e, WREN_WQE_RDMA_WRITE, 0, 4096 * 40 + 800000 +
			  4096u * (uint32_t)(i % 2), 3000, i == 19);
	ro_settle(&e.p, 1000000000ull);
	n = ro_cq_drain(&e.cq[0], cqe, 4);
	tap_ok(n == 1 && cqe[0].status == 0 && rc_same(&e, 1, 0, small, 3000) &&
	       rc_same(&e, 1, 4096 * 39, small, 3000) &&
	       rc_same(&e, 1, 4096 * 40, big, 800000) &&
	       rc_same(&e, 1, 4096 * 40 + 800000 + 4096, small, 3000) &&
	       ww.max_out <= win &&
	       !cnt(&e, 0, WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR) &&
	       !cnt(&e, 0, WREN_RDMA_CNT_RETRANSMITS),
	       "61 WRITEs (40 short, one of 800000 B, 20 short, one CQE): "
	       "%u PSNs at most unacknowledged (window %u), %u ACKs for %u "
	       "packets, no timeout, nothing resent", ww.max_out, win, ww.acks,
	       ww.requests);
	free(small);
	free(big);
	rc_env_fini(&e);
}

/*
 * More one-packet WRITEs than the WQE window, all posted at once: the
 * first pass sends a window's worth and spends the packet budget on its
 * last packet.  Once the ACK retires them, the next WQEs take their
 * slots; the send cursor must move on with the retirement, not send the
 * WQE now in its old slot (64 on) ahead of its turn, which the responder
 * NAKs and go-back-N resends.
 */
static void window_wrap(void)
{
	struct ro_conn c = conn(WREN_MTU_1024_, 4);
	unsigned int n = 3 * WHW_SQ_WINDOW + 7, got = 0, in_order = 0;
	struct wren_cqe cqe;
	struct rc_env e;
	uint8_t *data;
	bool same = true;

	rc_env_init_sq(&e, &c, 9);
	data = rc_pattern(&e, 0, 0, 1000u * n, 18);
	for (unsigned int i = 0; i < n; i++) {
		struct ro_wqe w = { .opcode = WREN_WQE_RDMA_WRITE, .nsge = 1,
				    .flags = WREN_WQE_F_SIGNALED };

		w.sge[0] = rc_sge(&e, 0, 1000u * i, 1000);
		w.raddr = e.mr[1].iova + 1000u * i;
		w.rkey = e.mr[1].key;
		ro_write_send(&e.qp[0], &w);
	}
	/* One doorbell; the requester's first pass, the responder's, and
	 * the ACK back before the requester runs again, as on a fast wire. */
	ro_ring(&e.qp[0]);
	ro_step(&e.p, 0);
	ro_step(&e.p, 1);
	ro_step(&e.p, 1);
	ro_step(&e.p, -1);
	ro_settle(&e.p, 1000000000ull);
	for (; ro_cq_poll(&e.cq[0], &cqe); got++)
		if (cqe.status == 0 && cqe.wqe_idx == (uint16_t)got)
			in_order++;
	same = rc_same(&e, 1, 0, data, 1000u * n);
	tap_ok(e.ok && got == n && in_order == n && same &&
	       !cnt(&e, 0, WREN_RDMA_CNT_RETRANSMITS) &&
	       !cnt(&e, 1, WREN_RDMA_CNT_OUT_OF_SEQUENCE),
	       "%u one-packet WRITEs posted at once (window %u WQEs): %u CQEs, "
	       "%u in order, data %s, %llu resent, %llu out of sequence", n,
	       WHW_SQ_WINDOW, got, in_order, same ? "right" : "WRONG",
	       (unsigned long long)cnt(&e, 0, WREN_RDMA_CNT_RETRANSMITS),
	       (unsigned long long)cnt(&e, 1, WREN_RDMA_CNT_OUT_OF_SEQUENCE));
	free(data);
	rc_env_fini(&e);
}

/* READs: requests of half a window; responses in flight within one. */
static void read_paced(void)
{
	struct ro_conn c = conn(WREN_MTU_4096, 4);
	uint32_t win = whw_rc_window(4096), chunk = whw_rc_read_chunk(4096);
	unsigned int reads = 0, lens_ok = 0, n;
	struct rc_env e;
	struct wren_cqe cqe[8];
	struct win_watch ww;
	uint8_t *pat;
	bool ok;

	rc_env_init(&e, &c);
	watch_on(&e, &ww, 4096);
	pat = rc_pattern(&e, 1, 0, MIB, 18);
	e.p.hold = 1;
	for (int i = 0; i < 4; i++)
		post_rdma(&e, WREN_WQE_RDMA_READ, 0, 0, MIB, true);
	ro_settle(&e.p, 0);
	for (unsigned int i = 0; i < e.p.qlen; i++) {
		const struct ro_frame *f =
			&e.p.q[(e.p.qhead + i) % RO_MAX_QUEUE];
		const uint8_t *b = bth_of(f->data, f->len);

		if (b && b[0] == WHW_OP_READ_REQ) {
			reads++;
			if (whw_rd32be(b + 24) == chunk * 4096)
				lens_ok++;
		}
	}
	tap_ok(e.ok && reads == 2 && lens_ok == 2 && e.p.qlen == 2,
	       "four 1 MiB READs at MTU 4096: %u READ requests of %u KiB "
	       "leave (a window of %u responses asked for)", reads,
	       chunk * 4, win);
	e.p.hold = 0;
	ro_settle(&e.p, 1000000000ull);
	n = ro_cq_drain(&e.cq[0], cqe, 8);
	ok = n == 4;
	for (unsigned int i = 0; i < n; i++)
		ok = ok && !cqe[i].status && cqe[i].byte_len == MIB;
	tap_ok(ok && rc_same(&e, 0, 0, pat, MIB) && ww.max_out <= win &&
	       ww.max_resp <= win && ww.responses == 4 * MIB / 4096 &&
	       ww.requests == 4 * MIB / 4096 / chunk &&
	       !cnt(&e, 0, WREN_RDMA_CNT_RETRANSMITS) &&
	       !cnt(&e, 1, WREN_RDMA_CNT_DUPLICATE_REQUEST),
	       "... all complete, data right: %u requests, %u responses, at "
	       "most %u in flight toward the requester (window %u)",
	       ww.requests, ww.responses, ww.max_resp, win);
	free(pat);
	rc_env_fini(&e);
}

/* A READ response lost: asked again from the gap, a window at most. */
static void read_loss(void)
{
	struct ro_conn c = conn(WREN_MTU_1024_, 4);
	uint32_t win = whw_rc_window(1024);
	struct rc_env e;
	struct wren_cqe cqe;
	struct win_watch ww;
	uint8_t *pat;

	rc_env_init(&e, &c);
	watch_on(&e, &ww, 1024);
	pat = rc_pattern(&e, 1, 0, MIB, 19);
	e.p.drop_opcode = WHW_OP_READ_RESP_MIDDLE;
	e.p.drop_opcode_n = 1;
	post_rdma(&e, WREN_WQE_RDMA_READ, 0, 0, MIB, true);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(rc_one_cqe(&e.cq[0], &cqe) && cqe.status == 0 &&
	       cqe.byte_len == MIB && rc_same(&e, 0, 0, pat, MIB) &&
	       ww.responses > MIB / 1024 &&
	       ww.responses <= MIB / 1024 + win &&
	       cnt(&e, 0, WREN_RDMA_CNT_IMPLIED_NAK_SEQ_ERR) >= 1 &&
	       !cnt(&e, 0, WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR),
	       "1 MiB READ at MTU 1024, a response lost: re-read from the gap, "
	       "%u responses for %u (at most a window more), data right",
	       ww.responses, MIB / 1024);
	free(pat);
	rc_env_fini(&e);
}

/* max_rd_atomic 1: one READ request (half a window) at a time. */
static void read_one_at_a_time(void)
{
	struct ro_conn c = conn(WREN_MTU_4096, 1);
	struct rc_env e;
	struct wren_cqe cqe;
	uint8_t *pat;
	unsigned int reads = 0, held;

	rc_env_init(&e, &c);
	pat = rc_pattern(&e, 1, 0, MIB, 20);
	e.p.hold = 1;
	post_rdma(&e, WREN_WQE_RDMA_READ, 0, 0, MIB, true);
	ro_settle(&e.p, 0);
	for (unsigned int i = 0; i < e.p.qlen; i++) {
		const struct ro_frame *f =
			&e.p.q[(e.p.qhead + i) % RO_MAX_QUEUE];
		const uint8_t *b = bth_of(f->data, f->len);

		if (b && b[0] == WHW_OP_READ_REQ &&
		    whw_rd32be(b + 24) == whw_rc_read_chunk(4096) * 4096)
			reads++;
	}
	held = e.p.qlen;
	e.p.hold = 0;
	ro_settle(&e.p, 1000000000ull);
	tap_ok(reads == 1 && held == 1 && rc_one_cqe(&e.cq[0], &cqe) &&
	       cqe.status == 0 &&
	       rc_same(&e, 0, 0, pat, MIB) &&
	       !cnt(&e, 0, WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR),
	       "max_rd_atomic 1: a 1 MiB READ asks for one part of %u KiB at "
	       "a time, completes, data right", whw_rc_read_chunk(4096) * 4);
	free(pat);
	rc_env_fini(&e);
}

/* Random loss both ways over WRITEs and READs of 1 MiB. */
static void lossy_bulk(void)
{
	struct ro_conn c = conn(WREN_MTU_1024_, 4);
	uint32_t win = whw_rc_window(1024);
	struct rc_env e;
	struct wren_cqe cqe[4];
	struct win_watch ww;
	uint8_t *wr, *rd;
	unsigned int n;
	bool ok;

	c.timeout = 10;
	rc_env_init(&e, &c);
	watch_on(&e, &ww, 1024);
	wr = rc_pattern(&e, 0, 0, MIB / 2, 21);
	rd = rc_pattern(&e, 1, MIB / 2, MIB / 2, 22);
	e.p.drop_every = 100;
	post_rdma(&e, WREN_WQE_RDMA_WRITE, 0, 0, MIB / 2, true);
	post_rdma(&e, WREN_WQE_RDMA_READ, MIB / 2, MIB / 2, MIB / 2, true);
	post_rdma(&e, WREN_WQE_RDMA_WRITE, 0, 0, MIB / 2, true);
	ro_settle(&e.p, 10000000000ull);
	n = ro_cq_drain(&e.cq[0], cqe, 4);
	ok = n == 3;
	for (unsigned int i = 0; i < n; i++)
		ok = ok && !cqe[i].status;
	tap_ok(ok && rc_same(&e, 1, 0, wr, MIB / 2) &&
	       rc_same(&e, 0, MIB / 2, rd, MIB / 2),
	       "512 KiB WRITE, READ, WRITE at MTU 1024 with 1%% loss: all "
	       "complete, data right (%llu resent, %u responses, window %u)",
	       (unsigned long long)cnt(&e, 0, WREN_RDMA_CNT_RETRANSMITS),
	       ww.responses, win);
	free(wr);
	free(rd);
	rc_env_fini(&e);
}

void test_roce_window(void)
{
	write_hold();
	write_flow(WREN_MTU_4096, 4096);
	write_flow(WREN_MTU_1024_, 1024);
	write_flow(WREN_MTU_256, 256);
	write_loss();
	write_timeout();
	ack_loss();
	coalesced_mix();
	window_wrap();
	read_paced();
	read_loss();
	read_one_at_a_time();
	lossy_bulk();
}
