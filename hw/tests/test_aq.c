// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The admin queue: common command checks, the growth rule, buffers and
 * DMA faults, ring flow control, interrupts, the AEQ, DIAG_FAULT.
 */
#include "tests.h"
#include "wrenhw_int.h"

static struct td_res raw(struct td *d, uint8_t op, void (*edit)(struct wren_aq_cmd *))
{
	struct wren_aq_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = op;
	if (edit)
		edit(&c);
	return td_submit(d, &c);
}

static void set_flags(struct wren_aq_cmd *c) { c->flags = 1; }
static void set_rsvd0(struct wren_aq_cmd *c) { c->rsvd0 = 0x100; }
static void set_raw(struct wren_aq_cmd *c) { c->u.raw[3] = 7; }
static void big_in(struct wren_aq_cmd *c) { c->in_len = WREN_AQ_MAX_BUF_LEN + 1; c->in_addr = 0x1000; }
static void big_out(struct wren_aq_cmd *c) { c->out_len = WREN_AQ_MAX_BUF_LEN + 8; c->out_addr = 0x1000; }
static void zero_in(struct wren_aq_cmd *c) { c->in_len = 32; }
static void odd_in(struct wren_aq_cmd *c) { c->in_len = 32; c->in_addr = 0x10004; }
static void odd_out(struct wren_aq_cmd *c) { c->out_len = 32; c->out_addr = 0x10002; }

static void common_checks(void)
{
	struct td *d = td_new(NULL);
	struct wren_device_attr a;
	struct wren_port_attr p;
	struct td_res r;

	r = raw(d, WREN_AQ_OP_NOP, NULL);
	tap_ok(r.completed && r.status == 0 && r.cmd_id == d->next_id,
	       "NOP completes OK with its cmd_id echoed");
	r = td_cmd(d, WREN_AQ_OP_QUERY_DEVICE, NULL, 0, NULL, 0, &a, sizeof(a));
	tap_ok(r.status == 0 && r.out_len == sizeof(a), "QUERY_DEVICE OK");
	tap_ok(a.fw_version == 0x01020003 && a.contract_major == 1 &&
	       !strcmp(a.board_id, "WREN-MODEL") && a.num_ports == 1 &&
	       a.caps == (WREN_CAP_FLR | WREN_CAP_DIAG_FAULT |
			  WREN_CAP_COUNTERS | WREN_CAP_ETH |
			  WREN_CAP_ETH_CSUM | WREN_CAP_ETH_TSO |
			  WREN_CAP_ETH_RSS | WREN_CAP_ETH_VLAN |
			  WREN_CAP_CQ_MODERATION | WREN_CAP_CQ_RESIZE |
			  WREN_CAP_TIMESTAMP | WREN_CAP_SRQ_RESIZE |
			  WHW_CAPS_RDMA |
			  WHW_CAPS_DCB | WHW_CAPS_CC) &&
	       a.page_size_cap == 0x7ffff000ull && a.max_qp == 4096 &&
	       a.max_gid == 128 && a.mac[5] == 0x01 && a.num_msix == 16,
	       "QUERY_DEVICE describes the board honestly");
	memset(&a, 0, sizeof(a));
	r = td_cmd(d, WREN_AQ_OP_QUERY_DEVICE, NULL, 0, NULL, 0, &a, 16);
	tap_ok(r.status == 0 && r.out_len == 16 && a.fw_version == 0x01020003 &&
	       a.max_qp == 0, "short out_len: the device writes only out_len");
	r = td_cmd(d, WREN_AQ_OP_QUERY_PORT, NULL, 0, NULL, 0, &p, sizeof(p));
	tap_ok(r.status == 0 && r.out_len == sizeof(p) &&
	       p.state == WREN_PORT_DOWN && p.mtu == 1500 &&
	       p.max_mtu == 9000 && p.admin_up == 1,
	       "QUERY_PORT: down until the wire says up, MTU 1500");

	expect(raw(d, 0x05, NULL), WREN_AQ_STATUS_BAD_OPCODE, SYND_CMD(opcode),
	       "unassigned opcode -> BAD_OPCODE");
	expect(raw(d, 0xff, NULL), WREN_AQ_STATUS_BAD_OPCODE, SYND_CMD(opcode),
	       "opcode beyond MAX -> BAD_OPCODE");
	expect(raw(d, WREN_AQ_OP_NOP, set_flags), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(flags), "flags != 0 -> BAD_PARAM at flags");
	expect(raw(d, WREN_AQ_OP_NOP, set_rsvd0), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(rsvd0), "rsvd0 != 0 -> BAD_PARAM at rsvd0");
	expect(raw(d, WREN_AQ_OP_QUERY_DEVICE, set_raw),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_CMD(u) + 3,
	       "unused inline bytes != 0 -> BAD_PARAM at the byte");
	expect(raw(d, WREN_AQ_OP_NOP, big_in), WREN_AQ_STATUS_BAD_LENGTH,
	       SYND_CMD(in_len), "in_len > 64 KiB -> BAD_LENGTH");
	expect(raw(d, WREN_AQ_OP_QUERY_DEVICE, big_out),
	       WREN_AQ_STATUS_BAD_LENGTH, SYND_CMD(out_len),
	       "out_len > 64 KiB -> BAD_LENGTH");
	expect(raw(d, WREN_AQ_OP_SET_PORT, zero_in), WREN_AQ_STATUS_BAD_ADDR,
	       SYND_CMD(in_addr), "in_len with in_addr 0 -> BAD_ADDR");
	expect(raw(d, WREN_AQ_OP_SET_PORT, odd_in), WREN_AQ_STATUS_BAD_ADDR,
	       SYND_CMD(in_addr), "unaligned in_addr -> BAD_ADDR");
	expect(raw(d, WREN_AQ_OP_QUERY_PORT, odd_out), WREN_AQ_STATUS_BAD_ADDR,
	       SYND_CMD(out_addr), "unaligned out_addr -> BAD_ADDR");
	td_free(d);
}

static void growth_rule(void)
{
	struct td *d = td_new(NULL);
	uint8_t in[64] = { 0 };
	struct wren_set_port_in *sp = (void *)in;

	sp->mask = WREN_SET_PORT_MTU;
	sp->mtu = 4000;
	expect(td_cmd(d, WREN_AQ_OP_SET_PORT, NULL, 0, in, 31, NULL, 0),
	       WREN_AQ_STATUS_BAD_LENGTH, SYND_CMD(in_len),
	       "in_len shorter than the structure -> BAD_LENGTH");
	expect(td_cmd(d, WREN_AQ_OP_SET_PORT, NULL, 0, in, 64, NULL, 0),
	       WREN_AQ_STATUS_OK, 0,
	       "longer in_len with zero trailing bytes is accepted");
	in[40] = 1;
	expect(td_cmd(d, WREN_AQ_OP_SET_PORT, NULL, 0, in, 64, NULL, 0),
	       WREN_AQ_STATUS_NOT_SUPPORTED, WREN_SYND_IN | 40,
	       "non-zero unknown trailing byte -> NOT_SUPPORTED at it");
	memset(in, 0, 40);
	expect(td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, in, 64, NULL, 0),
	       WREN_AQ_STATUS_NOT_SUPPORTED, WREN_SYND_IN | 40,
	       "input to a command that takes none must be zero");
	td_free(d);
}

static void dma_faults(void)
{
	struct td *d = td_new(NULL);
	struct wren_set_port_in sp = { .mask = WREN_SET_PORT_MTU, .mtu = 2000 };
	struct wren_port_attr p;
	struct td_res r;

	th_fault_add(d->h, d->scratch_in, 4096, true, false);
	expect(td_cmd(d, WREN_AQ_OP_SET_PORT, NULL, 0, &sp, sizeof(sp), NULL, 0),
	       WREN_AQ_STATUS_DMA_ERROR, SYND_CMD(in_addr),
	       "input buffer DMA fault -> DMA_ERROR");
	th_fault_clear(d->h);
	th_fault_add(d->h, d->scratch_out, 4096, false, true);
	expect(td_cmd(d, WREN_AQ_OP_QUERY_PORT, NULL, 0, NULL, 0, &p, sizeof(p)),
	       WREN_AQ_STATUS_DMA_ERROR, SYND_CMD(out_addr),
	       "output buffer DMA fault -> DMA_ERROR");
	th_fault_clear(d->h);
	r = td_cmd(d, WREN_AQ_OP_QUERY_PORT, NULL, 0, NULL, 0, &p, sizeof(p));
	tap_ok(r.status == 0 && p.mtu == 1500,
	       "failed SET_PORT changed nothing; the device works on");

	/* The AQ ring itself faults: fatal, AQ_DMA. */
	th_fault_add(d->h, d->aq, 4096, true, false);
	r = td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0);
	tap_ok(!r.completed &&
	       (th_reg_read(d->h, WREN_REG_STATUS) & WREN_STATUS_FATAL) &&
	       th_reg_read(d->h, WREN_REG_FATAL_SYNDROME) == WREN_FATAL_AQ_DMA,
	       "AQ ring DMA fault -> device fatal, syndrome AQ_DMA");
	tap_ok(td_aeq_count(d, WREN_EVENT_DEVICE_FATAL) == 1,
	       "DEVICE_FATAL event posted");
	th_fault_clear(d->h);
	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	td_enable(d);
	th_fault_add(d->h, d->acq, 4096, false, true);
	r = td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0);
	tap_ok(!r.completed &&
	       th_reg_read(d->h, WREN_REG_FATAL_SYNDROME) == WREN_FATAL_AQ_DMA,
	       "ACQ ring DMA fault -> device fatal");
	th_fault_clear(d->h);
	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	td_enable(d);
	th_fault_add(d->h, d->aeq, 4096, false, true);
	th_reg_write(d->h, WREN_REG_AQ_PI, 1000);	/* AQ_ERR event */
	tap_ok(th_reg_read(d->h, WREN_REG_FATAL_SYNDROME) == WREN_FATAL_AEQ_DMA,
	       "AEQ ring DMA fault -> device fatal, syndrome AEQ_DMA");
	th_fault_clear(d->h);
	/* Bus mastering off: every DMA fails; the first cause is reported. */
	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	td_enable(d);
	th_fault_add(d->h, 0, TH_BUS_LIMIT, true, true);
	r = td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0);
	tap_ok(!r.completed &&
	       (th_reg_read(d->h, WREN_REG_STATUS) & WREN_STATUS_FATAL) &&
	       th_reg_read(d->h, WREN_REG_FATAL_SYNDROME) == WREN_FATAL_AQ_DMA &&
	       th_reg_read(d->h, WREN_REG_FATAL_INFO) == (uint32_t)d->aq,
	       "all DMA refused: fatal with the first cause, AQ_DMA at the AQ");
	th_fault_clear(d->h);
	td_free(d);
}

static void flow_control(void)
{
	struct td *d = td_new(NULL);
	struct wren_aq_cmd c;
	struct td_res r;
	unsigned int got = 0;
	bool in_order = true;
	uint16_t first;

	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	d->acq_log = 2;			/* 4 completions, 64 commands */
	td_enable(d);
	d->auto_ack = false;
	first = d->next_id + 1;
	for (int i = 0; i < 10; i++) {
		memset(&c, 0, sizeof(c));
		td_queue(d, &c);
	}
	td_ring(d);
	while (td_poll(d, &r)) {
		in_order &= r.cmd_id == (uint16_t)(first + got);
		got++;
	}
	tap_ok(got == 4, "ACQ full: the device stops at 4 completions (%u)",
	       got);
	th_reg_write(d->h, WREN_REG_ACQ_CI, d->acq_ci);
	th_run(d->h);
	while (td_poll(d, &r)) {
		in_order &= r.cmd_id == (uint16_t)(first + got);
		got++;
	}
	th_reg_write(d->h, WREN_REG_ACQ_CI, d->acq_ci);
	th_run(d->h);
	while (td_poll(d, &r)) {
		in_order &= r.cmd_id == (uint16_t)(first + got);
		got++;
	}
	tap_ok(got == 10 && in_order,
	       "freeing ACQ space resumes; all 10 answered in order");

	/* A burst larger than one processing budget: rescheduled, not lost. */
	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	d->acq_log = 7;
	d->aq_log = 7;
	td_enable(d);
	for (int i = 0; i < 100; i++) {
		memset(&c, 0, sizeof(c));
		td_queue(d, &c);
	}
	d->h->scheduled = false;
	th_reg_write(d->h, WREN_REG_AQ_PI, d->aq_pi);
	got = 0;
	while (td_poll(d, &r))
		got++;
	tap_ok(got == 64 && d->h->scheduled,
	       "the AQ_PI write answers 64 commands (one budget) and asks to be run again");
	th_reg_write(d->h, WREN_REG_ACQ_CI, d->acq_ci);
	th_run(d->h);
	while (td_poll(d, &r))
		got++;
	tap_ok(got == 100, "the rest follow on the next run");
	memset(&c, 0, sizeof(c));
	td_queue(d, &c);
	th_reg_write(d->h, WREN_REG_ACQ_CI, d->acq_ci);
	th_reg_write(d->h, WREN_REG_AQ_PI, d->aq_pi);
	tap_ok(td_poll(d, &r) && r.status == 0,
	       "a command is answered within its AQ_PI write, before any process call");
	th_reg_write(d->h, WREN_REG_ACQ_CI, d->acq_ci);
	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	d->acq_log = 6;
	d->aq_log = 6;
	td_enable(d);

	/* A consumer index beyond the producer is ignored. */
	th_reg_write(d->h, WREN_REG_ACQ_CI, d->acq_ci + 3);
	memset(&c, 0, sizeof(c));
	td_queue(d, &c);
	td_ring(d);
	tap_ok(td_poll(d, &r) && r.status == 0,
	       "bogus ACQ_CI ignored, queue still works");
	th_reg_write(d->h, WREN_REG_ACQ_CI, d->acq_ci);

	/* PI beyond the ring: ignored, AQ_ERR. */
	th_reg_write(d->h, WREN_REG_AQ_PI, d->aq_pi + 65);
	th_run(d->h);
	tap_ok(!td_poll(d, &r), "PI more than a ring ahead is ignored");
	tap_ok(td_aeq_count(d, WREN_EVENT_AQ_ERR) == 1, "... and reported");
	/* AQ_ERR data is the value written, bit 31 (not an index bit) too. */
	th_reg_write(d->h, WREN_REG_AQ_PI, 0x80000000u | (d->aq_pi + 65));
	th_run(d->h);
	{
		struct wren_eqe e;

		tap_ok(!td_poll(d, &r) && td_aeq_poll(d, &e) &&
		       e.type == WREN_EVENT_AQ_ERR &&
		       e.data == (0x80000000u | (d->aq_pi + 65)) &&
		       e.data2 == d->aq_pi,
		       "AQ_ERR: data = AQ_PI as written, data2 = device CI");
	}
	memset(&c, 0, sizeof(c));
	d->auto_ack = true;
	r = td_submit(d, &c);
	tap_ok(r.completed && r.status == 0, "the AQ still works after it");
	td_free(d);
}

static void interrupts(void)
{
	struct td *d = td_new(NULL);
	struct th *h = d->h;
	struct wren_eqe e;
	unsigned int base;

	/* MGMT_VECTOR is frozen while the queues are enabled. */
	th_reg_write(h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	d->mgmt_vector = 1;
	td_enable(d);
	td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0);
	tap_ok(h->irqs[1] == 0, "no interrupt while the ACQ is not armed");
	th_reg_write(h, WREN_REG_ACQ_CI, d->acq_ci | WREN_ARM);
	tap_ok(h->irqs[1] == 0, "arming an empty ACQ does not interrupt");
	td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0);
	tap_ok(h->irqs[1] == 1, "armed ACQ: one interrupt on the next entry");
	td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0);
	tap_ok(h->irqs[1] == 1, "arming is one-shot");
	/* Arm with an entry already pending: interrupt at once. */
	d->auto_ack = false;
	td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0);
	th_reg_write(h, WREN_REG_ACQ_CI, (d->acq_ci - 1) | WREN_ARM);
	tap_ok(h->irqs[1] == 2, "arming with entries pending interrupts now");
	th_reg_write(h, WREN_REG_ACQ_CI, d->acq_ci);
	d->auto_ack = true;

	/* AEQ arm. */
	base = h->irqs[1];
	th_reg_write(h, WREN_REG_AEQ_CI, d->aeq_ci | WREN_ARM);
	th_reg_write(h, WREN_REG_AQ_PI, d->aq_pi + 100);
	tap_ok(h->irqs[1] == base + 1 && td_aeq_poll(d, &e) &&
	       e.type == WREN_EVENT_AQ_ERR && e.data == d->aq_pi + 100 &&
	       e.sub == WREN_AQ_STATUS_BAD_PARAM,
	       "armed AEQ interrupts on AQ_ERR with the bad PI in data");
	td_free(d);
}

static void aeq_overflow(void)
{
	struct td *d = td_new(NULL);
	struct wren_eqe e;
	unsigned int n = 0;

	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	d->aeq_log = 1;			/* two entries */
	td_enable(d);
	for (int i = 0; i < 5; i++)
		th_reg_write(d->h, WREN_REG_AQ_PI, 1000 + i);
	/* Read without acknowledging: only two were written. */
	for (int i = 0; i < 4; i++) {
		uint32_t slot = (d->aeq_ci + i) & 1;

		th_mem_read(d->h, d->aeq + slot * 16, &e, sizeof(e));
		if (wren_ring_owned(e.owner, d->aeq_ci + i, 1))
			n++;
	}
	tap_ok(n == 2, "AEQ of 2 holds 2 events, no overrun of the ring");
	tap_ok(td_aeq_poll(d, &e) && e.type == WREN_EVENT_AQ_ERR &&
	       e.data == 1000, "first event intact");
	/* Space appeared: the overrun report follows. */
	tap_ok(td_aeq_poll(d, &e) && e.type == WREN_EVENT_AQ_ERR &&
	       e.data == 1001, "second event intact");
	tap_ok(td_aeq_poll(d, &e) && e.type == WREN_EVENT_EQ_OVERRUN &&
	       e.data == WREN_EQN_AEQ && e.data2 == 3,
	       "EQ_OVERRUN reports the AEQ's 3 dropped events");
	tap_ok(!td_aeq_poll(d, &e), "nothing else");
	td_free(d);
}

static struct td_res diag(struct td *d, uint32_t fault, uint32_t arg)
{
	struct wren_aq_diag_fault f = { .fault = fault, .arg = arg };

	return td_cmd(d, WREN_AQ_OP_DIAG_FAULT, &f, sizeof(f), NULL, 0, NULL, 0);
}

static void diag_faults(void)
{
	struct td *d = td_new(NULL);
	struct wren_aq_diag_fault f = { .fault = WREN_DIAG_FATAL };
	struct wren_eqe e;
	struct td_res r;
	uint32_t hb;

	expect(diag(d, 9, 0), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(u.diag_fault.fault), "DIAG unknown fault -> BAD_PARAM");
	f.rsvd[2] = 1;
	expect(td_cmd(d, WREN_AQ_OP_DIAG_FAULT, &f, sizeof(f), NULL, 0, NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_CMD(u.diag_fault.rsvd) + 8,
	       "DIAG reserved word -> BAD_PARAM");
	expect(diag(d, WREN_DIAG_LINK_FLAP, 0), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(u.diag_fault.arg), "LINK_FLAP of 0 ms -> BAD_PARAM");

	/* FATAL */
	expect(diag(d, WREN_DIAG_FATAL, 0), WREN_AQ_STATUS_OK, 0,
	       "DIAG FATAL completes OK");
	tap_ok((th_reg_read(d->h, WREN_REG_STATUS) & WREN_STATUS_FATAL) &&
	       th_reg_read(d->h, WREN_REG_FATAL_SYNDROME) ==
	       WREN_FATAL_INJECTED, "... then the device is fatal (INJECTED)");
	tap_ok(td_aeq_poll(d, &e) && e.type == WREN_EVENT_DEVICE_FATAL &&
	       e.data == WREN_FATAL_INJECTED, "DEVICE_FATAL event");
	r = td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0);
	tap_ok(!r.completed, "a fatal device answers no more commands");
	hb = th_reg_read(d->h, WREN_REG_HEARTBEAT);
	th_advance(d->h, 10000000);
	tap_ok(th_reg_read(d->h, WREN_REG_HEARTBEAT) == hb,
	       "the heartbeat stops while fatal");
	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_AQ_ENABLE);
	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	tap_ok(th_reg_read(d->h, WREN_REG_STATUS) == WREN_STATUS_READY &&
	       th_reg_read(d->h, WREN_REG_FATAL_SYNDROME) == 0,
	       "reset leaves the fatal state");
	td_enable(d);
	expect(td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "commands work again after reset");

	/* AQ_STALL */
	expect(diag(d, WREN_DIAG_AQ_STALL, 0), WREN_AQ_STATUS_OK, 0,
	       "DIAG AQ_STALL completes OK");
	r = td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0);
	tap_ok(!r.completed, "the next command never completes");
	r = td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0);
	tap_ok(!r.completed, "... nor the ones behind it");
	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	td_enable(d);
	expect(td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "reset recovers a stalled AQ");

	/* DROP_EQE */
	expect(diag(d, WREN_DIAG_DROP_EQE, 1), WREN_AQ_STATUS_OK, 0,
	       "DIAG DROP_EQE 1");
	th_reg_write(d->h, WREN_REG_AQ_PI, d->aq_pi + 1000);
	th_reg_write(d->h, WREN_REG_AQ_PI, d->aq_pi + 1001);
	tap_ok(td_aeq_count(d, WREN_EVENT_AQ_ERR) == 1,
	       "one of two events dropped");

	/* LINK_FLAP */
	wrenhw_set_link(d->h->hw, true, 25000);
	tap_ok(td_aeq_poll(d, &e) && e.type == WREN_EVENT_PORT_STATE &&
	       e.sub == WREN_PORT_ACTIVE && e.data == 25000,
	       "link up -> PORT_STATE ACTIVE at 25000");
	expect(diag(d, WREN_DIAG_LINK_FLAP, 10), WREN_AQ_STATUS_OK, 0,
	       "DIAG LINK_FLAP 10 ms");
	tap_ok(td_aeq_poll(d, &e) && e.type == WREN_EVENT_PORT_STATE &&
	       e.sub == WREN_PORT_DOWN &&
	       !(th_reg_read(d->h, WREN_REG_STATUS) & WREN_STATUS_LINK_UP),
	       "flap: link down");
	th_advance(d->h, 9000000);
	tap_ok(!td_aeq_poll(d, &e), "still down after 9 ms");
	th_advance(d->h, 2000000);
	tap_ok(td_aeq_poll(d, &e) && e.type == WREN_EVENT_PORT_STATE &&
	       e.sub == WREN_PORT_ACTIVE &&
	       (th_reg_read(d->h, WREN_REG_STATUS) & WREN_STATUS_LINK_UP),
	       "flap over: link up again");
	td_free(d);
}

struct gated_op {
	uint8_t op;
	uint64_t caps;		/* any one admits it */
	const char *name;
};

static const struct gated_op gated_ops[] = {
	{ WREN_AQ_OP_SET_ETS, WREN_CAP_DCB_ETS, "SET_ETS" },
	{ WREN_AQ_OP_SET_PFC, WREN_CAP_DCB_PFC, "SET_PFC" },
	{ WREN_AQ_OP_SET_TRUST, WREN_CAP_DCB_DSCP_TRUST, "SET_TRUST" },
	{ WREN_AQ_OP_SET_BUFFER, WREN_CAP_DCB_BUFFER, "SET_BUFFER" },
	{ WREN_AQ_OP_SET_MAXRATE, WREN_CAP_DCB_MAXRATE, "SET_MAXRATE" },
	{ WREN_AQ_OP_SET_PFC_WD, WREN_CAP_PFC_STORM_WD, "SET_PFC_WD" },
	{ WREN_AQ_OP_QUERY_DCB, WHW_CAPS_DCB, "QUERY_DCB" },
	{ WREN_AQ_OP_SET_CC, WREN_CAP_ECN | WREN_CAP_DCQCN, "SET_CC" },
	{ WREN_AQ_OP_QUERY_CC, WREN_CAP_ECN | WREN_CAP_DCQCN, "QUERY_CC" },
	{ WREN_AQ_OP_DIAG_FAULT, WREN_CAP_DIAG_FAULT, "DIAG_FAULT" },
	{ WREN_AQ_OP_RESIZE_CQ, WREN_CAP_CQ_RESIZE, "RESIZE_CQ" },
	{ WREN_AQ_OP_RESIZE_SRQ, WREN_CAP_SRQ_RESIZE, "RESIZE_SRQ" },
};

/* Answers NOT_SUPPORTED (for the opcode) before any other check? */
static bool refused(struct td *d, uint8_t op)
{
	struct wren_aq_cmd c;
	struct td_res r;

	memset(&c, 0, sizeof(c));
	c.opcode = op;
	c.flags = 1;		/* would be BAD_PARAM if it got that far */
	r = td_submit(d, &c);
	return r.completed && r.status == WREN_AQ_STATUS_NOT_SUPPORTED &&
	       r.synd == SYND_CMD(opcode);
}

/* Commands of optional features are NOT_SUPPORTED without their bit. */
/*
 * AQ_LATE: the next command runs arg ms after it was fetched, writing its
 * output buffer then; the commands behind it wait, and a reset forgets it.
 */
static void diag_aq_late(void)
{
	struct td *d = td_new(NULL);
	struct wren_aq_cmd cmd;
	struct wren_device_attr a;
	uint8_t fill[sizeof(a)];
	uint64_t buf = td_alloc(d, sizeof(a), 8);
	struct td_res r;

	expect(diag(d, WREN_DIAG_AQ_LATE, 0), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(u.diag_fault.arg), "AQ_LATE of 0 ms -> BAD_PARAM");
	expect(diag(d, WREN_DIAG_AQ_LATE, WHW_MAX_LATE_MS + 1),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_CMD(u.diag_fault.arg),
	       "AQ_LATE beyond its maximum -> BAD_PARAM");
	expect(diag(d, WREN_DIAG_AQ_LATE, 100), WREN_AQ_STATUS_OK, 0,
	       "DIAG AQ_LATE 100 ms completes OK");

	memset(fill, 0xa5, sizeof(fill));
	th_mem_write(d->h, buf, fill, sizeof(fill));
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = WREN_AQ_OP_QUERY_DEVICE;
	cmd.out_addr = buf;
	cmd.out_len = sizeof(a);
	td_queue(d, &cmd);
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = WREN_AQ_OP_NOP;
	td_queue(d, &cmd);
	td_ring(d);
	tap_ok(!td_poll(d, &r), "the held command does not complete at once");
	th_mem_read(d->h, buf, &a, sizeof(a));
	tap_ok(!memcmp(&a, fill, sizeof(a)),
	       "... and its output buffer is untouched");
	th_advance(d->h, 99000000);
	tap_ok(!td_poll(d, &r), "nor after 99 ms");
	th_advance(d->h, 2000000);
	tap_ok(td_poll(d, &r) && r.status == 0 && r.out_len == sizeof(a),
	       "after 100 ms it completes OK");
	th_mem_read(d->h, buf, &a, sizeof(a));
	tap_ok(a.fw_version == 0x01020003 && a.contract_major == 1,
	       "... and only then writes its output buffer");
	tap_ok(td_poll(d, &r) && r.status == 0,
	       "the command behind it completes next, in order");
	expect(td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "AQ_LATE is one-shot");

	expect(diag(d, WREN_DIAG_AQ_LATE, 100), WREN_AQ_STATUS_OK, 0,
	       "AQ_LATE again");
	th_mem_write(d->h, buf, fill, sizeof(fill));
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = WREN_AQ_OP_QUERY_DEVICE;
	cmd.out_addr = buf;
	cmd.out_len = sizeof(a);
	td_queue(d, &cmd);
	td_ring(d);
	tap_ok(!td_poll(d, &r), "held");
	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	td_enable(d);
	th_advance(d->h, 200000000);
	th_mem_read(d->h, buf, &a, sizeof(a));
	tap_ok(!memcmp(&a, fill, sizeof(a)),
	       "a reset drops the held command: no late write after it");
	expect(td_cmd(d, WREN_AQ_OP_NOP, NULL, 0, NULL, 0, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "the queue works after the reset");
	td_free(d);
}

static void caps_gating(void)
{
	/* A board without DCB, so that their commands' gates are seen. */
	struct wrenhw_config cfg = { .mac = { 2, 0, 0, 0, 0, 1 }, .no_dcb = 1 };
	struct td *d = td_new(&cfg);
	uint64_t caps = (uint64_t)th_reg_read(d->h, WREN_REG_CAPS_HI) << 32 |
			th_reg_read(d->h, WREN_REG_CAPS_LO);
	struct wren_device_attr a;

	d->auto_ack = true;
	for (size_t i = 0; i < sizeof(gated_ops) / sizeof(gated_ops[0]); i++) {
		const struct gated_op *g = &gated_ops[i];

		if (caps & g->caps)
			continue;	/* advertised: tested with its feature */
		tap_ok(refused(d, g->op),
		       "%s without its capability -> NOT_SUPPORTED", g->name);
	}
	tap_ok(!(caps & (WHW_CAPS_DCB | WHW_CAPS_CC)) &&
	       (caps & WREN_CAP_DIAG_FAULT) && (caps & WREN_CAP_CQ_RESIZE),
	       "no_dcb caps: DIAG_FAULT and CQ_RESIZE yes; DCB, ECN/DCQCN no");
	memset(&a, 0, sizeof(a));
	td_cmd(d, WREN_AQ_OP_QUERY_DEVICE, NULL, 0, NULL, 0, &a, sizeof(a));
	tap_ok(a.caps == caps, "QUERY_DEVICE caps == CAPS_HI:CAPS_LO");

	/* Each bit admits its own commands only. */
	whw_test_set_caps(d->h->hw, WREN_CAP_DCB_PFC);
	tap_ok(!refused(d, WREN_AQ_OP_SET_PFC) &&
	       !refused(d, WREN_AQ_OP_QUERY_DCB) &&
	       refused(d, WREN_AQ_OP_SET_ETS) && refused(d, WREN_AQ_OP_SET_CC) &&
	       refused(d, WREN_AQ_OP_DIAG_FAULT),
	       "DCB_PFC alone admits SET_PFC and QUERY_DCB only");
	whw_test_set_caps(d->h->hw, WREN_CAP_DCQCN);
	tap_ok(!refused(d, WREN_AQ_OP_SET_CC) &&
	       !refused(d, WREN_AQ_OP_QUERY_CC) &&
	       refused(d, WREN_AQ_OP_QUERY_DCB),
	       "DCQCN admits SET_CC and QUERY_CC");
	whw_test_set_caps(d->h->hw, WREN_CAP_CQ_RESIZE);
	tap_ok(!refused(d, WREN_AQ_OP_RESIZE_CQ) &&
	       refused(d, WREN_AQ_OP_DIAG_FAULT) &&
	       (th_reg_read(d->h, WREN_REG_CAPS_LO) & WREN_CAP_CQ_RESIZE),
	       "CQ_RESIZE admits RESIZE_CQ, and CAPS_LO says so");
	td_free(d);
}

void test_aq(void)
{
	common_checks();
	growth_rule();
	dma_faults();
	flow_control();
	interrupts();
	aeq_overflow();
	diag_faults();
	diag_aq_late();
	caps_gating();
}
