// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Random admin commands, doorbells, register writes and frames (seeded, so
 * a failure replays), then a consistency check: the model must still
 * answer NOP and QUERY_DEVICE correctly, every completion must have been
 * the answer to the command submitted, and ASan/UBSan must stay quiet.
 * WRENHW_FUZZ_SEED and WRENHW_FUZZ_N override the seed and the count.
 */
#include <stdlib.h>

#include "tests.h"
#include "wrenhw_int.h"

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint32_t pct(void)
{
	return (uint32_t)(rnd() % 100);
}

/* Mostly small handles, so that random commands hit live objects. */
static uint32_t handle(void)
{
	return pct() < 90 ? (uint32_t)(rnd() % 8) : (uint32_t)rnd();
}

static void fill_random(void *p, size_t len)
{
	uint8_t *b = p;

	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)rnd();
}

static void mutate(void *p, size_t len)
{
	uint8_t *b = p;
	unsigned int n = (unsigned int)(rnd() % 3);

	for (unsigned int i = 0; i < n && len; i++)
		b[rnd() % len] ^= (uint8_t)(1u << (rnd() % 8));
}

static void desc(struct td *d, struct wren_buf_desc *b, uint64_t bytes)
{
	b->addr = td_alloc(d, bytes < 4096 ? 4096 : bytes, 4096);
	b->page_shift = 12;
}

static const uint8_t valid_ops[] = {
	0x00, 0x01, 0x02, 0x03, 0x10, 0x11, 0x18, 0x19, 0x1a, 0x1b,
	0x20, 0x21, 0x22, 0x23, 0x28, 0x29, 0x2a, 0x2b, 0x30, 0x31,
	0x32, 0x33, 0x34, 0x35, 0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3d, 0x3e, 0x40,
	0x41, 0x42, 0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x50, 0x51,
	0x52, 0x53, 0x54, 0x55, 0x56, 0x58, 0x59, 0x60, 0x61, 0x70,
};

/* A plausible command for @op, built from small handles, then mutated. */
static void template(struct td *d, uint8_t op, struct wren_aq_cmd *c,
		     uint8_t *in, uint32_t *in_len)
{
	*in_len = 0;
	switch (op) {
	case WREN_AQ_OP_CREATE_EQ:
		c->u.create_eq.log_size = (uint8_t)(1 + rnd() % 6);
		c->u.create_eq.msix_vector = (uint16_t)(rnd() % 17);
		desc(d, &c->u.create_eq.ring, 16u << c->u.create_eq.log_size);
		break;
	case WREN_AQ_OP_CREATE_CQ: {
		struct wren_create_cq_in *x = (void *)in;

		x->log_size = (uint8_t)(1 + rnd() % 8);
		desc(d, &x->ring, 32u << x->log_size);
		x->dbrec_addr = td_alloc(d, 8, 8);
		x->eqn = handle();
		x->uar = handle();
		*in_len = sizeof(*x);
		break;
	}
	case WREN_AQ_OP_CREATE_QP: {
		struct wren_create_qp_in *x = (void *)in;

		x->type = (uint8_t)(1 + rnd() % 3);
		x->sq_wqe_shift = 6;
		x->rq_wqe_shift = 6;
		x->sq_log_size = 4;
		x->rq_log_size = 4;
		x->pdn = handle();
		x->send_cqn = handle();
		x->recv_cqn = handle();
		x->uar = handle();
		x->rq_offset = 1024;
		desc(d, &x->buf, 2048);
		x->dbrec_addr = td_alloc(d, 8, 8);
		*in_len = sizeof(*x);
		break;
	}
	case WREN_AQ_OP_MODIFY_QP: {
		struct wren_modify_qp_in *x = (void *)in;

		x->qpn = handle();
		x->attr_mask = (uint32_t)rnd() & 0x7fff;
		x->new_state = (uint8_t)(rnd() % 7);
		x->path_mtu = (uint8_t)(1 + rnd() % 5);
		x->retry_cnt = 7;
		x->min_rnr_timer = 12;
		*in_len = sizeof(*x);
		break;
	}
	case WREN_AQ_OP_CREATE_MR: {
		struct wren_create_mr_in *x = (void *)in;

		x->pdn = handle();
		x->access = (uint32_t)(rnd() % 16);
		x->page_shift = (uint8_t)(12 + rnd() % 19);
		x->num_mtt = (uint32_t)(1 + rnd() % 64);
		x->length = (uint64_t)x->num_mtt << 12;
		x->iova = rnd() & ~0xfffull;
		*in_len = sizeof(*x);
		break;
	}
	case WREN_AQ_OP_WRITE_MTT: {
		uint32_t n = (uint32_t)(1 + rnd() % 16);

		c->u.write_mtt.mr_index = handle();
		c->u.write_mtt.first = (uint32_t)(rnd() % 16);
		c->u.write_mtt.count = n;
		for (uint32_t i = 0; i < n; i++) {
			uint64_t a = (rnd() & 0xffffff) << 12;

			memcpy(in + i * 8, &a, 8);
		}
		*in_len = n * 8;
		break;
	}
	case WREN_AQ_OP_CREATE_SRQ: {
		struct wren_create_srq_in *x = (void *)in;

		x->pdn = handle();
		x->uar = handle();
		x->log_size = 4;
		x->wqe_shift = 6;
		desc(d, &x->buf, 1024);
		x->dbrec_addr = td_alloc(d, 8, 8);
		*in_len = sizeof(*x);
		break;
	}
	case WREN_AQ_OP_CREATE_ETH_TXQ:
	case WREN_AQ_OP_CREATE_ETH_RXQ: {
		struct wren_create_eth_q_in *x = (void *)in;

		x->cqn = handle();
		x->log_size = (uint8_t)(1 + rnd() % 7);
		desc(d, &x->ring, 32u << x->log_size);
		*in_len = sizeof(*x);
		break;
	}
	case WREN_AQ_OP_SET_GID: {
		struct wren_set_gid_in *x = (void *)in;

		x->index = (uint32_t)(rnd() % 4);
		x->type = WREN_GID_ROCE_V2;
		x->mac[0] = 2;
		*in_len = sizeof(*x);
		break;
	}
	case WREN_AQ_OP_CREATE_AH: {
		struct wren_create_ah_in *x = (void *)in;

		x->pdn = handle();
		x->av.gid_index = (uint8_t)(rnd() % 4);
		*in_len = sizeof(*x);
		break;
	}
	case WREN_AQ_OP_CREATE_MW:
		c->u.create_mw.pdn = handle();
		c->u.create_mw.type = (uint8_t)(1 + rnd() % 2);
		c->u.create_mw.key_tag = (uint8_t)rnd();
		break;
	case WREN_AQ_OP_DESTROY_MW:
		/* Window indexes follow the board's 16 MRs. */
		c->u.handle.handle = 16 + handle() % 4;
		break;
	case WREN_AQ_OP_DIAG_FAULT:
		c->u.diag_fault.fault = (uint32_t)(1 + rnd() % 4);
		c->u.diag_fault.arg = (uint32_t)(rnd() % 4);
		break;
	default:
		c->u.handle.handle = handle();
		*in_len = (uint32_t)(rnd() % 2) * 128;
		break;
	}
	/* Half the time as built, else a bit or two flipped in one place. */
	if (pct() < 50)
		return;
	if (*in_len && pct() < 70)
		mutate(in, *in_len);
	else
		mutate(c->u.raw, sizeof(c->u.raw));
}

static struct td_res one_command(struct td *d, uint8_t *in, uint8_t *out)
{
	struct wren_aq_cmd c;
	uint32_t in_len = 0, out_len = (uint32_t)(rnd() % 1100);
	uint32_t kind = pct();
	struct td_res r;

	memset(&c, 0, sizeof(c));
	memset(in, 0, 4096);
	c.opcode = valid_ops[rnd() % sizeof(valid_ops)];
	if (kind < 10) {
		c.opcode = (uint8_t)rnd();
		fill_random(c.u.raw, sizeof(c.u.raw));
		in_len = (uint32_t)(rnd() % 4096);
		fill_random(in, in_len);
	} else if (kind < 30) {
		fill_random(c.u.raw, sizeof(c.u.raw));
		in_len = (uint32_t)(rnd() % 1200);
		fill_random(in, in_len);
	} else {
		template(d, c.opcode, &c, in, &in_len);
	}
	if (pct() < 3)
		c.flags = (uint8_t)rnd();
	if (in_len) {
		th_mem_write(d->h, d->scratch_in, in, in_len);
		c.in_addr = d->scratch_in;
	}
	c.in_len = in_len;
	if (pct() < 3)
		c.in_addr = rnd();
	if (pct() < 2)
		c.in_len = (uint32_t)rnd();
	c.out_addr = d->scratch_out;
	c.out_len = out_len;
	if (pct() < 3)
		c.out_addr = rnd();
	r = td_submit(d, &c);
	(void)out;
	return r;
}

static void random_doorbell(struct td *d)
{
	static const uint32_t offs[] = { WREN_DB_SQ, WREN_DB_CQ, WREN_DB_EQ,
					 WREN_DB_ETH_TX, WREN_DB_ETH_RX };
	uint32_t off = pct() < 90 ? offs[rnd() % 5] : (uint32_t)(rnd() % 4096);
	uint64_t val = WREN_DB_VAL(handle(), (uint32_t)rnd() & 0x03000000,
				   (uint32_t)(rnd() % 40));

	wrenhw_mmio_write(d->h->hw, WREN_BAR_DB,
			  (rnd() % 6) * WREN_DB_PAGE_SIZE + (off & ~7u), val,
			  pct() < 95 ? 8 : 4);
}

static void random_register(struct td *d)
{
	uint32_t off = (uint32_t)(rnd() % 0x140) & ~3u;

	/* Leave the queue setup alone most of the time. */
	if (off == WREN_REG_CONTROL && pct() < 80)
		return;
	if (off >= WREN_REG_AQ_BASE_LO && off < WREN_REG_AEQ_CI &&
	    off != WREN_REG_ACQ_CI && off != WREN_REG_AQ_PI && pct() < 50)
		return;
	th_reg_write(d->h, off, (uint32_t)rnd());
	(void)th_reg_read(d->h, (uint32_t)(rnd() % 0x10000) & ~3u);
}

static void random_frame(struct td *d)
{
	uint8_t f[200];
	size_t len = (size_t)(rnd() % sizeof(f));

	fill_random(f, sizeof(f));
	if (pct() < 30) {
		static const uint8_t hdr[14] = { 2, 0x57, 0x52, 0x45, 0x4e, 0,
						 2, 0, 0, 0, 0, 1, 0x88, 0xb6 };

		memcpy(f, hdr, sizeof(hdr));
		memcpy(f + 14, "WPHY", 4);
		f[18] = 1;
		f[19] = (uint8_t)(rnd() % 2);
		f[20] = f[21] = 0;
	}
	wrenhw_rx_frame(d->h->hw, f, len);
}

/* Fatal, stalled, or queues disabled by a random write: reset as a driver would. */
static void recover(struct td *d)
{
	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	td_enable(d);
}

void test_fuzz(void)
{
	struct wrenhw_config cfg = {
		.mac = { 2, 0, 0, 0x57, 0x52, 0x01 }, .max_qp = 16, .max_cq = 16,
		.max_eq = 4, .max_srq = 4, .max_pd = 8, .max_mr = 16,
		.max_ah = 8, .max_mtt = 512, .num_db_pages = 8, .max_mw = 4,
	};
	const char *s = getenv("WRENHW_FUZZ_SEED");
	const char *nv = getenv("WRENHW_FUZZ_N");
	unsigned long n = nv ? strtoul(nv, NULL, 0) : 20000;
	unsigned long commands = 0, answered = 0, recoveries = 0, wrong = 0;
	unsigned long by_status[16] = { 0 };
	struct wren_device_attr a;
	uint8_t *in = calloc(1, 4096), *out = calloc(1, 4096);
	struct td *d = td_new(&cfg);
	struct td_res r;

	/* Reach the DCB/CC validation too, although not advertised. */
	whw_test_set_caps(d->h->hw, WHW_CAPS | WHW_CAPS_DCB | WHW_CAPS_CC);
	rng = s ? strtoull(s, NULL, 0) : 0x5752454e2d465a31ull;
	if (!rng)
		rng = 1;
	tap_diag("fuzz: seed 0x%llx, %lu steps", (unsigned long long)rng, n);
	for (unsigned long i = 0; i < n; i++) {
		uint32_t what = pct();

		if (what < 80) {
			uint16_t id = d->next_id + 1;

			commands++;
			r = one_command(d, in, out);
			if (r.completed) {
				answered++;
				wrong += r.cmd_id != id;
				by_status[r.status & 15]++;
			} else {
				recoveries++;
				recover(d);
			}
		} else if (what < 90) {
			random_doorbell(d);
		} else if (what < 95) {
			random_register(d);
			if (!(th_reg_read(d->h, WREN_REG_STATUS) &
			      WREN_STATUS_AQ_READY)) {
				recoveries++;
				recover(d);
			}
		} else {
			random_frame(d);
		}
		/* Drain events so the AEQ keeps flowing; advance time. */
		td_aeq_count(d, 0xff);
		th_advance(d->h, rnd() % 3000000);
		th_run(d->h);
	}
	tap_diag("fuzz: %lu commands, %lu answered, %lu resets", commands,
		 answered, recoveries);
	tap_diag("fuzz: by status: OK %lu, BAD_PARAM %lu, BAD_HANDLE %lu, "
		 "BAD_STATE %lu, NO_RES %lu, BAD_ADDR %lu, BAD_SIZE %lu, "
		 "BUSY %lu, DMA %lu, NOT_SUPP %lu, BAD_LEN %lu, EXISTS %lu",
		 by_status[0], by_status[2], by_status[3], by_status[4],
		 by_status[5], by_status[6], by_status[7], by_status[8],
		 by_status[9], by_status[10], by_status[11], by_status[14]);
	tap_ok(wrong == 0, "every completion answered the command submitted");
	if (!(th_reg_read(d->h, WREN_REG_STATUS) & WREN_STATUS_AQ_READY) ||
	    (th_reg_read(d->h, WREN_REG_STATUS) & WREN_STATUS_FATAL))
		recover(d);
	r = td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0);
	if (!r.completed) {
		recover(d);		/* a stall may have been armed last */
		r = td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0);
	}
	tap_ok(r.completed && r.status == 0, "NOP after the fuzzing");
	memset(&a, 0, sizeof(a));
	r = td_cmd(d, WREN_AQ_OP_QUERY_DEVICE, NULL, 0, NULL, 0, &a, sizeof(a));
	tap_ok(r.status == 0 && a.fw_version == 0x01020003 && a.max_qp == 16 &&
	       a.max_mtt == 512 && !strcmp(a.board_id, "WREN-MODEL"),
	       "QUERY_DEVICE after the fuzzing");
	tap_ok(th_reg_read(d->h, WREN_REG_MAGIC) == WREN_MAGIC,
	       "registers still answer");
	tap_ok(answered > commands / 2, "most commands were answered (%lu/%lu)",
	       answered, commands);
	td_free(d);
	free(in);
	free(out);
}
