// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * One device per fuzz input, on the host stub's host (hw/host) (sparse guest
 * memory, fake clock and timer, captured frames) driven by its tiny
 * driver (drv.c); the settle loop; and the check that ends every input.
 * A fresh device per input keeps every crash reproducible from its input
 * alone, and destroying it lets LeakSanitizer see what the model leaked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz.h"

void fz_fail(const char *what)
{
	fprintf(stderr, "wrenhw fuzz: %s\n", what);
	abort();
}

void fz_board(struct wrenhw_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mac[0] = 0x02;
	cfg->mac[3] = 0x57;
	cfg->mac[4] = 0x52;
	cfg->mac[5] = 0x01;
	cfg->num_msix = 4;
	cfg->num_db_pages = 4;
	cfg->max_qp = 16;
	cfg->max_cq = 16;
	cfg->max_eq = 4;
	cfg->max_srq = 4;
	cfg->max_pd = 8;
	cfg->max_mr = 16;
	cfg->max_ah = 8;
	cfg->max_mtt = 4096;
	cfg->max_mw = 4;
}

struct td *fz_new(void)
{
	struct wrenhw_config cfg;
	struct td *d;

	fz_board(&cfg);
	d = td_new(&cfg);
	if (!d)
		fz_fail("no device");
	if ((th_reg_read(d->h, WREN_REG_STATUS) &
	     (WREN_STATUS_AQ_READY | WREN_STATUS_AEQ_READY)) !=
	    (WREN_STATUS_AQ_READY | WREN_STATUS_AEQ_READY))
		fz_fail("a fresh device does not enable its AQ and AEQ");
	return d;
}

void fz_free(struct td *d)
{
	td_free(d);
}

void fz_settle(struct td *d, uint64_t max_ns)
{
	struct th *h = d->h;
	uint64_t end = h->now_ns + max_ns;

	for (unsigned int i = 0; i < 4096; i++) {
		if (h->scheduled) {
			th_run(h);
			continue;
		}
		if (h->timer_deadline == UINT64_MAX ||
		    h->timer_deadline > end)
			return;
		th_advance(h, h->timer_deadline > h->now_ns ?
			   h->timer_deadline - h->now_ns : 0);
	}
}

unsigned int fz_acq_drain(struct td *d)
{
	unsigned int n = 0;
	struct td_res r;

	/* A ring's worth at most: the device cannot have written more. */
	while (n < (2u << d->acq_log) && td_poll(d, &r)) {
		if (r.status > WREN_AQ_STATUS_EXISTS)
			fz_fail("admin completion with an unknown status");
		n++;
	}
	return n;
}

static bool both_ready(struct td *d)
{
	uint32_t st = th_reg_read(d->h, WREN_REG_STATUS);

	return (st & (WREN_STATUS_AQ_READY | WREN_STATUS_AEQ_READY)) ==
	       (WREN_STATUS_AQ_READY | WREN_STATUS_AEQ_READY) &&
	       !(st & WREN_STATUS_FATAL);
}

static bool nop_ok(struct td *d)
{
	struct td_res r = td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL,
				 0);

	return r.completed && r.status == WREN_AQ_STATUS_OK &&
	       r.cmd_id == d->next_id;
}

/*
 * What a driver does with a device it lost track of: reset it when it is
 * fatal, then disable and re-enable the admin queues on fresh rings.  An
 * input may have left an EQ or CQ ring live where the driver's rings go
 * (the enable is then refused, BAD_ADDR, as it should be): only a reset
 * frees those.
 */
static void recover(struct td *d)
{
	struct th *h = d->h;

	if (th_reg_read(h, WREN_REG_STATUS) & WREN_STATUS_FATAL)
		th_reg_write(h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	th_reg_write(h, WREN_REG_CONTROL, 0);
	td_enable(d);
	if (!both_ready(d)) {
		th_reg_write(h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
		td_enable(d);
		if (!both_ready(d))
			fz_fail("AQ and AEQ do not enable after a reset");
	}
	th_run(h);
}

static void check_device(struct td *d)
{
	struct wren_device_attr a;
	struct td_res r;
	struct th *h = d->h;
	uint64_t caps;

	memset(&a, 0, sizeof(a));
	r = td_cmd(d, WREN_AQ_OP_QUERY_DEVICE, NULL, 0, NULL, 0, &a,
		   sizeof(a));
	if (!r.completed || r.status != WREN_AQ_STATUS_OK ||
	    r.out_len != sizeof(a))
		fz_fail("QUERY_DEVICE fails after recovery");
	caps = th_reg_read(h, WREN_REG_CAPS_LO) |
	       (uint64_t)th_reg_read(h, WREN_REG_CAPS_HI) << 32;
	if (a.caps != caps || a.num_msix != th_reg_read(h, WREN_REG_NUM_MSIX) ||
	    a.num_db_pages != th_reg_read(h, WREN_REG_NUM_DB_PAGES) ||
	    a.max_qp != h->cfg.max_qp || a.max_cq != h->cfg.max_cq ||
	    a.max_mw != ((caps & WREN_CAP_RDMA_MW) ? h->cfg.max_mw : 0) ||
	    !a.max_mcast_grp != !(caps & WREN_CAP_RDMA_MCAST) ||
	    memcmp(a.mac, h->cfg.mac, 6) || strcmp(a.board_id, "WREN-MODEL"))
		fz_fail("QUERY_DEVICE disagrees with the registers and board");
	if (th_reg_read(h, WREN_REG_MAGIC) != WREN_MAGIC)
		fz_fail("MAGIC changed");
}

void fz_check(struct td *d)
{
	struct th *h = d->h;
	struct wren_eqe e;
	unsigned int n = 0;

	th_fault_clear(h);
	fz_acq_drain(d);
	/* First as the input left it; a stalled or confused AQ recovers. */
	if (!both_ready(d) || !nop_ok(d)) {
		recover(d);
		if (!nop_ok(d))
			fz_fail("NOP does not complete after recovery");
	}
	check_device(d);
	while (n++ < (2u << d->aeq_log) && td_aeq_poll(d, &e))
		if (e.type > WREN_EVENT_CC_RATE)
			fz_fail("AEQ entry with an unknown event type");
}
