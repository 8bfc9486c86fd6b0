// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libFuzzer harness: admin command sequences.  The input is a sequence of
 * records; a command record carries all 64 bytes of a wren_aq_cmd raw
 * (opcode, flags, lengths, addresses, inline parameters) and the bytes of
 * its input buffer, and goes through the real AQ ring, AQ_PI doorbell and
 * ACQ, as wren.ko submits it.  Other records ring raw producer and
 * consumer indexes, stop acknowledging completions (ACQ back-pressure),
 * let time pass (DIAG faults, moderation and link timers), write the
 * guest memory that commands point at (rings, page lists, MTT entries)
 * and make ranges of it fault.  Seeds are valid sequences that build
 * every kind of object (gen_seeds.c); mutations start from there.
 *
 * Record layout (fz.h reads missing bytes as zero):
 *   u8 kind, then
 *   FA_CMD     u8 how (FA_IN_SCRATCH, FA_OUT_SCRATCH, FA_QUEUE_ONLY),
 *              64 bytes command, u16 n, n bytes of input buffer
 *   FA_RING    -                  (AQ_PI = the driver's producer index)
 *   FA_AQ_PI   u32 raw AQ_PI value
 *   FA_ACQ     u8 what, u32 value (auto-ack on/off, raw ACQ_CI, arm)
 *   FA_AEQ     u8 what, u32 value (drain, raw AEQ_CI)
 *   FA_TIME    u32 microseconds
 *   FA_MEM     u32 playground offset, u8 n, n bytes
 *   FA_FAULT   u8 what, u32 offset, u16 length (in 8-byte units)
 */
#include <string.h>

#include "fuzz_admin.h"
#include "fz.h"

static void acq(struct td *d, struct fz_in *in)
{
	uint8_t what = fz_u8(in);
	uint32_t v = fz_u32(in);

	switch (what % 4) {
	case 0:
		d->auto_ack = !d->auto_ack;
		break;
	case 1:
		th_reg_write(d->h, WREN_REG_ACQ_CI, v);
		break;
	case 2:
		th_reg_write(d->h, WREN_REG_ACQ_CI, d->acq_ci | WREN_ARM);
		break;
	default:
		fz_acq_drain(d);
		break;
	}
	th_run(d->h);
}

static void aeq(struct td *d, struct fz_in *in)
{
	uint8_t what = fz_u8(in);
	uint32_t v = fz_u32(in);
	struct wren_eqe e;

	if (what & 1) {
		th_reg_write(d->h, WREN_REG_AEQ_CI, v);
		return;
	}
	for (unsigned int n = 0; n < (2u << d->aeq_log) && td_aeq_poll(d, &e);
	     n++)
		if (e.type > WREN_EVENT_CC_RATE)
			fz_fail("AEQ entry with an unknown event type");
}

static void cmd(struct td *d, struct fz_in *in)
{
	static uint8_t buf[FA_IN_MAX];
	uint8_t how = fz_u8(in);
	struct wren_aq_cmd c;
	size_t n;

	fz_bytes(in, &c, sizeof(c));
	n = fz_u16(in) % (FA_IN_MAX + 1);
	n = fz_bytes(in, buf, n);
	if (n)
		th_mem_write(d->h, d->scratch_in, buf, n);
	if (how & FA_IN_SCRATCH)
		c.in_addr = d->scratch_in;
	if (how & FA_OUT_SCRATCH)
		c.out_addr = d->scratch_out;
	td_queue(d, &c);
	if (!(how & FA_QUEUE_ONLY)) {
		td_ring(d);
		fz_acq_drain(d);
	}
}

static void fault(struct td *d, struct fz_in *in)
{
	uint8_t what = fz_u8(in);
	uint32_t off = fz_u32(in);
	uint64_t len = (uint64_t)fz_u16(in) * 8;

	if (!(what & 7)) {
		th_fault_clear(d->h);
		return;
	}
	th_fault_add(d->h, (what & 1 ? FZ_PLAY_BASE : d->scratch_in) +
		     off % FZ_PLAY_SIZE, len ? len : 8, what & 2, what & 4);
}

static void mem(struct td *d, struct fz_in *in)
{
	uint32_t off = fz_u32(in) % FZ_PLAY_SIZE;
	uint8_t buf[255];
	size_t n = fz_bytes(in, buf, fz_u8(in));

	th_mem_write(d->h, FZ_PLAY_BASE + off, buf, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	struct td *d = fz_new();

	while (fz_more(&in)) {
		switch (fz_u8(&in) % FA_KINDS) {
		case FA_CMD:
			cmd(d, &in);
			break;
		case FA_RING:
			td_ring(d);
			fz_acq_drain(d);
			break;
		case FA_AQ_PI:
			th_reg_write(d->h, WREN_REG_AQ_PI, fz_u32(&in));
			th_run(d->h);
			fz_acq_drain(d);
			break;
		case FA_ACQ:
			acq(d, &in);
			break;
		case FA_AEQ:
			aeq(d, &in);
			break;
		case FA_TIME:
			fz_settle(d, (uint64_t)fz_u32(&in) * 1000);
			fz_acq_drain(d);
			break;
		case FA_MEM:
			mem(d, &in);
			break;
		default:
			fault(d, &in);
			break;
		}
	}
	d->auto_ack = true;
	fz_check(d);
	fz_free(d);
	return 0;
}
