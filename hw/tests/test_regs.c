// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* BAR0 registers: reset values, access rules, queue enables, reset. */
#include "tests.h"
#include "wrenhw_int.h"

static void identity(void)
{
	struct th *h = th_create(NULL);
	struct wrenhw *hw = h->hw;
	uint32_t caps_lo;

	tap_ok(th_reg_read(h, WREN_REG_MAGIC) == WREN_MAGIC, "MAGIC reads WREN");
	tap_ok(th_reg_read(h, WREN_REG_CONTRACT) ==
	       (WREN_CONTRACT_MAJOR << 16 | WREN_CONTRACT_MINOR),
	       "CONTRACT is 1.0");
	tap_ok(th_reg_read(h, WREN_REG_FW_VERSION) == 0x01020003,
	       "FW_VERSION is 1.2.3");
	tap_ok(th_reg_read(h, WREN_REG_FW_BUILD) != 0, "FW_BUILD is set");
	caps_lo = th_reg_read(h, WREN_REG_CAPS_LO);
	tap_ok((caps_lo & WREN_CAP_FLR) && (caps_lo & WREN_CAP_DIAG_FAULT) &&
	       (caps_lo & WREN_CAP_ETH) && (caps_lo & WREN_CAP_ETH_TSO) &&
	       (caps_lo & WREN_CAP_CQ_MODERATION) &&
	       (caps_lo & WREN_CAP_RDMA_RC) && (caps_lo & WREN_CAP_RDMA_UD) &&
	       (caps_lo & WREN_CAP_CQ_RESIZE),
	       "CAPS advertise FLR, DIAG_FAULT, Ethernet, moderation, CQ resize, RDMA RC and UD");
	tap_ok(th_reg_read(h, WREN_REG_CAPS_HI) ==
	       (uint32_t)((WREN_CAP_RDMA_MW | WREN_CAP_RDMA_MCAST |
			   WREN_CAP_RDMA_FLUSH |
			   WREN_CAP_RDMA_ATOMIC_WRITE |
			   WREN_CAP_TIMESTAMP | WREN_CAP_SRQ_RESIZE |
			   WREN_CAP_RDMA_XRC) >> 32),
	       "CAPS_HI advertises windows, multicast, FLUSH, ATOMIC WRITE, timestamps, SRQ resize and XRC, nothing else");
	tap_ok((caps_lo & (WHW_CAPS_DCB | WHW_CAPS_CC)) ==
	       (WHW_CAPS_DCB | WHW_CAPS_CC),
	       "CAPS: DCB and ECN/DCQCN");
	tap_ok(th_reg_read(h, WREN_REG_STATUS) == WREN_STATUS_READY,
	       "STATUS after power-on is READY only");
	tap_ok(th_reg_read(h, WREN_REG_CONTROL) == 0, "CONTROL is 0");
	tap_ok(th_reg_read(h, WREN_REG_NUM_MSIX) == 16, "NUM_MSIX default 16");
	tap_ok(th_reg_read(h, WREN_REG_NUM_DB_PAGES) == 256,
	       "NUM_DB_PAGES default 256");
	tap_ok(th_reg_read(h, WREN_REG_RESET_TIMEOUT_MS) &&
	       th_reg_read(h, WREN_REG_AQ_TIMEOUT_MS),
	       "reset and AQ timeouts advertised");
	tap_ok(th_reg_read(h, WREN_REG_SERIAL_HI) == WREN_MAGIC &&
	       th_reg_read(h, WREN_REG_SERIAL_LO) == 0x00575201,
	       "SERIAL derives from the MAC");
	tap_ok(th_reg_read(h, WREN_REG_FATAL_SYNDROME) == 0,
	       "no fatal syndrome");
	tap_ok(wrenhw_bar_size(hw, 0) == 0x10000 &&
	       wrenhw_bar_size(hw, 2) == 256 * 4096 &&
	       wrenhw_bar_size(hw, 4) == 0, "BAR sizes");

	/* Read-only registers ignore writes. */
	th_reg_write(h, WREN_REG_MAGIC, 0);
	th_reg_write(h, WREN_REG_STATUS, 0);
	th_reg_write(h, WREN_REG_CAPS_LO, 0xffffffff);
	th_reg_write(h, WREN_REG_NUM_MSIX, 1);
	th_reg_write(h, WREN_REG_AQ_ERROR, 5);
	tap_ok(th_reg_read(h, WREN_REG_MAGIC) == WREN_MAGIC &&
	       th_reg_read(h, WREN_REG_STATUS) == WREN_STATUS_READY &&
	       th_reg_read(h, WREN_REG_CAPS_LO) == caps_lo &&
	       th_reg_read(h, WREN_REG_NUM_MSIX) == 16 &&
	       th_reg_read(h, WREN_REG_AQ_ERROR) == 0,
	       "read-only registers ignore writes");
	/* Unknown offsets and odd accesses. */
	th_reg_write(h, 0x8000, 0x1234);
	tap_ok(th_reg_read(h, 0x8000) == 0 && th_reg_read(h, 0x3c) == 0,
	       "unknown offsets read 0");
	tap_ok(wrenhw_mmio_read(hw, 0, 2, 4) == UINT64_MAX &&
	       wrenhw_mmio_read(hw, 0, 0, 2) == UINT64_MAX &&
	       wrenhw_mmio_read(hw, 0, 0, 1) == UINT64_MAX &&
	       wrenhw_mmio_read(hw, 0, 0x10000, 4) == UINT64_MAX,
	       "misaligned, narrow and out-of-BAR reads are all-ones");
	tap_ok(wrenhw_mmio_read(hw, 0, 0, 8) ==
	       ((uint64_t)0x00010000 << 32 | WREN_MAGIC),
	       "8-byte read is two registers, low first");
	wrenhw_mmio_write(hw, 0, WREN_REG_AQ_BASE_LO, 0x1234567000ull, 8);
	tap_ok(th_reg_read(h, WREN_REG_AQ_BASE_LO) == 0x34567000 &&
	       th_reg_read(h, WREN_REG_AQ_BASE_HI) == 0x12,
	       "8-byte write fills both halves of AQ_BASE");
	wrenhw_mmio_write(hw, 0, WREN_REG_AQ_LOG_SIZE, 5, 2);
	wrenhw_mmio_write(hw, 0, WREN_REG_AQ_LOG_SIZE + 1, 5, 4);
	tap_ok(th_reg_read(h, WREN_REG_AQ_LOG_SIZE) == 0,
	       "narrow and misaligned writes are ignored");
	th_reg_write(h, WREN_REG_AQ_PI, 3);
	tap_ok(th_reg_read(h, WREN_REG_AQ_PI) == 0 &&
	       th_reg_read(h, WREN_REG_ACQ_CI) == 0, "doorbells read 0");
	th_reg_write(h, WREN_REG_MGMT_VECTOR, 16);
	tap_ok(th_reg_read(h, WREN_REG_MGMT_VECTOR) == 16,
	       "MGMT_VECTOR stores any value (enable validates it)");
	th_reg_write(h, WREN_REG_MGMT_VECTOR, 15);
	tap_ok(th_reg_read(h, WREN_REG_MGMT_VECTOR) == 15,
	       "MGMT_VECTOR takes a valid vector");
	tap_ok(wrenhw_mmio_read(hw, 2, 0, 8) == 0, "doorbell pages read 0");

	/* Heartbeat: +1 per ms. */
	{
		uint32_t hb = th_reg_read(h, WREN_REG_HEARTBEAT);

		th_advance(h, 5000000);
		tap_ok(th_reg_read(h, WREN_REG_HEARTBEAT) == hb + 5,
		       "HEARTBEAT counts milliseconds");
	}
	th_destroy(h);
}

static void program(struct th *h, uint64_t aq, uint32_t aql, uint64_t acq,
		    uint32_t acql)
{
	th_reg_write(h, WREN_REG_AQ_BASE_LO, (uint32_t)aq);
	th_reg_write(h, WREN_REG_AQ_BASE_HI, (uint32_t)(aq >> 32));
	th_reg_write(h, WREN_REG_AQ_LOG_SIZE, aql);
	th_reg_write(h, WREN_REG_ACQ_BASE_LO, (uint32_t)acq);
	th_reg_write(h, WREN_REG_ACQ_BASE_HI, (uint32_t)(acq >> 32));
	th_reg_write(h, WREN_REG_ACQ_LOG_SIZE, acql);
}

static bool aq_enable_fails(uint64_t aq, uint32_t aql, uint64_t acq,
			    uint32_t acql, uint32_t want)
{
	struct th *h = th_create(NULL);
	bool ok;

	program(h, aq, aql, acq, acql);
	th_reg_write(h, WREN_REG_CONTROL, WREN_CONTROL_AQ_ENABLE);
	ok = !(th_reg_read(h, WREN_REG_STATUS) & WREN_STATUS_AQ_READY) &&
	     th_reg_read(h, WREN_REG_AQ_ERROR) == want &&
	     !(th_reg_read(h, WREN_REG_CONTROL) & WREN_CONTROL_AQ_ENABLE);
	th_destroy(h);
	return ok;
}

static void enables(void)
{
	struct th *h;

	tap_ok(aq_enable_fails(0, 4, 0x20000, 4, WREN_AQ_STATUS_BAD_ADDR),
	       "AQ enable: zero AQ base -> BAD_ADDR");
	tap_ok(aq_enable_fails(0x10000, 4, 0, 4, WREN_AQ_STATUS_BAD_ADDR),
	       "AQ enable: zero ACQ base -> BAD_ADDR");
	tap_ok(aq_enable_fails(0x10040, 4, 0x20000, 4, WREN_AQ_STATUS_BAD_ADDR),
	       "AQ enable: unaligned AQ base -> BAD_ADDR");
	tap_ok(aq_enable_fails(0x10000, 4, 0x20800, 4, WREN_AQ_STATUS_BAD_ADDR),
	       "AQ enable: unaligned ACQ base -> BAD_ADDR");
	tap_ok(aq_enable_fails(0x10000, 0, 0x20000, 4, WREN_AQ_STATUS_BAD_SIZE),
	       "AQ enable: log size 0 -> BAD_SIZE");
	tap_ok(aq_enable_fails(0x10000, 13, 0x200000, 4,
			       WREN_AQ_STATUS_BAD_SIZE),
	       "AQ enable: log size 13 -> BAD_SIZE");
	tap_ok(aq_enable_fails(0x10000, 4, 0x10000, 13,
			       WREN_AQ_STATUS_BAD_SIZE),
	       "AQ enable: ACQ log size 13 -> BAD_SIZE");
	/* 2^8 64-byte commands = 16 KiB: an ACQ 4 KiB in overlaps. */
	tap_ok(aq_enable_fails(0x10000, 8, 0x11000, 4, WREN_AQ_STATUS_BAD_ADDR),
	       "AQ enable: AQ and ACQ overlap -> BAD_ADDR");
	h = th_create(NULL);
	program(h, 0x10000, 8, 0x14000, 4);	/* ACQ right after the AQ */
	th_reg_write(h, WREN_REG_CONTROL, WREN_CONTROL_AQ_ENABLE);
	tap_ok(th_reg_read(h, WREN_REG_STATUS) & WREN_STATUS_AQ_READY,
	       "AQ enable: adjacent AQ and ACQ are fine");
	th_destroy(h);
	tap_ok(aq_enable_fails(0xfffffffffffff000ull, 8, 0x11000, 4,
			       WREN_AQ_STATUS_BAD_ADDR),
	       "AQ enable: ring wrapping the bus -> BAD_ADDR");

	h = th_create(NULL);
	program(h, 0x10000, 4, 0x20000, 4);
	th_reg_write(h, WREN_REG_AEQ_BASE_LO, 0x20000);
	th_reg_write(h, WREN_REG_AEQ_LOG_SIZE, 4);
	th_reg_write(h, WREN_REG_CONTROL, WREN_CONTROL_AQ_ENABLE);
	tap_ok(th_reg_read(h, WREN_REG_STATUS) & WREN_STATUS_AQ_READY,
	       "AQ enable with valid rings sets AQ_READY");
	th_reg_write(h, WREN_REG_CONTROL,
		     WREN_CONTROL_AQ_ENABLE | WREN_CONTROL_AEQ_ENABLE);
	tap_ok(!(th_reg_read(h, WREN_REG_STATUS) & WREN_STATUS_AEQ_READY) &&
	       th_reg_read(h, WREN_REG_AQ_ERROR) == WREN_AQ_STATUS_BAD_ADDR,
	       "AEQ overlapping the ACQ is refused");
	th_reg_write(h, WREN_REG_AEQ_LOG_SIZE, 17);
	th_reg_write(h, WREN_REG_AEQ_BASE_LO, 0x30000);
	th_reg_write(h, WREN_REG_CONTROL,
		     WREN_CONTROL_AQ_ENABLE | WREN_CONTROL_AEQ_ENABLE);
	tap_ok(!(th_reg_read(h, WREN_REG_STATUS) & WREN_STATUS_AEQ_READY) &&
	       th_reg_read(h, WREN_REG_AQ_ERROR) == WREN_AQ_STATUS_BAD_SIZE,
	       "AEQ log size 17 -> BAD_SIZE");
	th_reg_write(h, WREN_REG_AEQ_LOG_SIZE, 16);
	th_reg_write(h, WREN_REG_CONTROL,
		     WREN_CONTROL_AQ_ENABLE | WREN_CONTROL_AEQ_ENABLE);
	tap_ok((th_reg_read(h, WREN_REG_STATUS) & WREN_STATUS_AEQ_READY) &&
	       th_reg_read(h, WREN_REG_AQ_ERROR) == 0 &&
	       th_reg_read(h, WREN_REG_CONTROL) ==
	       (WREN_CONTROL_AQ_ENABLE | WREN_CONTROL_AEQ_ENABLE),
	       "AEQ enable with a valid ring sets AEQ_READY");
	th_reg_write(h, WREN_REG_AQ_BASE_LO, 0x50000);
	th_reg_write(h, WREN_REG_AQ_LOG_SIZE, 2);
	tap_ok(th_reg_read(h, WREN_REG_AQ_BASE_LO) == 0x10000 &&
	       th_reg_read(h, WREN_REG_AQ_LOG_SIZE) == 4,
	       "AQ base and size are frozen while enabled");
	th_reg_write(h, WREN_REG_CONTROL, WREN_CONTROL_AEQ_ENABLE);
	tap_ok(!(th_reg_read(h, WREN_REG_STATUS) & WREN_STATUS_AQ_READY) &&
	       (th_reg_read(h, WREN_REG_STATUS) & WREN_STATUS_AEQ_READY),
	       "clearing AQ_ENABLE disables the AQ only");
	th_reg_write(h, WREN_REG_CONTROL, 0);
	tap_ok(th_reg_read(h, WREN_REG_STATUS) == WREN_STATUS_READY &&
	       th_reg_read(h, WREN_REG_CONTROL) == 0,
	       "clearing AEQ_ENABLE disables the AEQ");
	/* One write enabling both: a bad AQ is not hidden by a good AEQ. */
	th_reg_write(h, WREN_REG_AQ_LOG_SIZE, 0);
	th_reg_write(h, WREN_REG_CONTROL,
		     WREN_CONTROL_AQ_ENABLE | WREN_CONTROL_AEQ_ENABLE);
	tap_ok(th_reg_read(h, WREN_REG_STATUS) ==
	       (WREN_STATUS_READY | WREN_STATUS_AEQ_READY) &&
	       th_reg_read(h, WREN_REG_AQ_ERROR) == WREN_AQ_STATUS_BAD_SIZE,
	       "AQ rejected, AEQ enabled in the same write: AQ_ERROR keeps BAD_SIZE");
	th_reg_write(h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	tap_ok(th_reg_read(h, WREN_REG_STATUS) == WREN_STATUS_READY &&
	       th_reg_read(h, WREN_REG_CONTROL) == 0 &&
	       th_reg_read(h, WREN_REG_AQ_BASE_LO) == 0 &&
	       th_reg_read(h, WREN_REG_AEQ_LOG_SIZE) == 0,
	       "CONTROL.RESET: registers back to power-on, READY again");
	th_destroy(h);
}

static bool enable_refused(struct th *h, uint32_t control)
{
	th_reg_write(h, WREN_REG_CONTROL, control);
	return !(th_reg_read(h, WREN_REG_STATUS) &
		 (WREN_STATUS_AQ_READY | WREN_STATUS_AEQ_READY)) &&
	       th_reg_read(h, WREN_REG_CONTROL) == 0 &&
	       th_reg_read(h, WREN_REG_AQ_ERROR) == WREN_AQ_STATUS_BAD_PARAM;
}

/* The management vector is checked when a queue that signals it is enabled. */
static void mgmt_vector(void)
{
	struct th *h = th_create(NULL);

	program(h, 0x10000, 4, 0x20000, 4);
	th_reg_write(h, WREN_REG_AEQ_BASE_LO, 0x30000);
	th_reg_write(h, WREN_REG_AEQ_LOG_SIZE, 4);
	th_reg_write(h, WREN_REG_MGMT_VECTOR, 16);	/* == NUM_MSIX */
	tap_ok(enable_refused(h, WREN_CONTROL_AQ_ENABLE),
	       "MGMT_VECTOR = NUM_MSIX: AQ enable -> BAD_PARAM in AQ_ERROR");
	tap_ok(enable_refused(h, WREN_CONTROL_AEQ_ENABLE),
	       "MGMT_VECTOR = NUM_MSIX: AEQ enable -> BAD_PARAM in AQ_ERROR");
	th_reg_write(h, WREN_REG_MGMT_VECTOR, 0xffffffff);
	tap_ok(enable_refused(h, WREN_CONTROL_AQ_ENABLE |
			      WREN_CONTROL_AEQ_ENABLE),
	       "MGMT_VECTOR 0xffffffff: both enables refused");
	th_reg_write(h, WREN_REG_MGMT_VECTOR, 15);
	th_reg_write(h, WREN_REG_CONTROL,
		     WREN_CONTROL_AQ_ENABLE | WREN_CONTROL_AEQ_ENABLE);
	tap_ok((th_reg_read(h, WREN_REG_STATUS) &
		(WREN_STATUS_AQ_READY | WREN_STATUS_AEQ_READY)) ==
	       (WREN_STATUS_AQ_READY | WREN_STATUS_AEQ_READY) &&
	       th_reg_read(h, WREN_REG_AQ_ERROR) == 0,
	       "MGMT_VECTOR = NUM_MSIX - 1: both enable");
	th_reg_write(h, WREN_REG_MGMT_VECTOR, 16);
	tap_ok(th_reg_read(h, WREN_REG_MGMT_VECTOR) == 15,
	       "MGMT_VECTOR is frozen while a queue signals it");
	th_reg_write(h, WREN_REG_CONTROL, WREN_CONTROL_AQ_ENABLE);
	th_reg_write(h, WREN_REG_MGMT_VECTOR, 3);
	tap_ok(th_reg_read(h, WREN_REG_MGMT_VECTOR) == 15,
	       "... by the AQ alone too");
	th_destroy(h);
}

/* wren_device_attr.num_db_pages is 16 bits: the board never has more. */
static void db_pages_limit(void)
{
	struct wrenhw_config cfg = { .mac = { 2, 0, 0, 0, 0, 1 },
				     .num_db_pages = 65536 };
	struct td *d = td_new(&cfg);
	struct wren_device_attr a;

	tap_ok(th_reg_read(d->h, WREN_REG_NUM_DB_PAGES) == 65535 &&
	       wrenhw_bar_size(d->h->hw, WREN_BAR_DB) == 65535ull * 4096,
	       "num_db_pages 65536 is clamped to 65535 (register, BAR2)");
	memset(&a, 0, sizeof(a));
	expect(td_cmd(d, WREN_AQ_OP_QUERY_DEVICE, NULL, 0, NULL, 0, &a,
		      sizeof(a)), WREN_AQ_STATUS_OK, 0, "QUERY_DEVICE");
	tap_ok(a.num_db_pages == 65535,
	       "QUERY_DEVICE num_db_pages agrees with NUM_DB_PAGES");
	th_db_write(d->h, 65534, WREN_DB_CQ, WREN_DB_VAL(0, 0, 0));
	tap_ok(td_aeq_count(d, WREN_EVENT_DB_ERR) == 1,
	       "the last page (65534) decodes (DB_ERR for a missing CQ)");
	td_free(d);
}

/* no_dcb takes exactly the DCB and CC caps away, also after a reset. */
static void no_dcb_caps(void)
{
	struct wrenhw_config cfg = { .mac = { 2, 0, 0, 0, 0, 1 }, .no_dcb = 1 };
	const uint64_t want = WHW_CAPS & ~(uint64_t)(WHW_CAPS_DCB | WHW_CAPS_CC);
	struct td *d = td_new(&cfg);
	struct td *full = td_new(NULL);
	struct wren_ets ets = { .tc_tsa = { WREN_TSA_STRICT } };
	struct wren_device_attr a;
	uint32_t caps_lo = th_reg_read(d->h, WREN_REG_CAPS_LO);

	tap_ok((th_reg_read(full->h, WREN_REG_CAPS_LO) & (WHW_CAPS_DCB | WHW_CAPS_CC)) ==
	       (WHW_CAPS_DCB | WHW_CAPS_CC),
	       "default board: DCB and CC caps advertised");
	tap_ok(caps_lo == (uint32_t)want,
	       "no_dcb: CAPS are WHW_CAPS without the DCB and CC bits");
	memset(&a, 0, sizeof(a));
	expect(td_cmd(d, WREN_AQ_OP_QUERY_DEVICE, NULL, 0, NULL, 0, &a,
		      sizeof(a)), WREN_AQ_STATUS_OK, 0, "QUERY_DEVICE");
	tap_ok(a.caps == want, "no_dcb: QUERY_DEVICE caps agree");
	expect(td_cmd(d, WREN_AQ_OP_SET_ETS, NULL, 0, &ets, sizeof(ets), NULL,
		      0), WREN_AQ_STATUS_NOT_SUPPORTED, WHW_SYND_CMD(opcode),
	       "no_dcb: SET_ETS -> NOT_SUPPORTED");
	wrenhw_reset(d->h->hw);
	tap_ok(th_reg_read(d->h, WREN_REG_CAPS_LO) == caps_lo,
	       "no_dcb: CAPS unchanged by FLR");
	td_free(full);
	td_free(d);
}

static void reset_clears_objects(void)
{
	struct td *d = td_new(NULL);
	int64_t pd, pd2, eq;

	pd = td_alloc_pd(d);
	eq = td_create_eq(d, 4, 1, NULL);
	tap_ok(pd == 1 && eq == 0, "objects before reset (pd %lld, eq %lld)",
	       (long long)pd, (long long)eq);
	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	tap_ok(td_enable(d) & WREN_STATUS_AQ_READY, "re-enabled after reset");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEALLOC_PD, (uint32_t)pd, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, SYND_CMD(u.handle.handle),
	       "PD from before the reset is gone");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_EQ, (uint32_t)eq, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, ANY_SYND,
	       "EQ from before the reset is gone");
	pd2 = td_alloc_pd(d);
	tap_ok(pd2 == 1, "handles restart after reset");
	/* Bus reset (FLR) does the same. */
	wrenhw_reset(d->h->hw);
	tap_ok(th_reg_read(d->h, WREN_REG_STATUS) == WREN_STATUS_READY,
	       "wrenhw_reset: READY, queues disabled");
	td_enable(d);
	expect(td_handle_cmd(d, WREN_AQ_OP_DEALLOC_PD, (uint32_t)pd2, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, ANY_SYND, "FLR cleared the PD");
	td_free(d);
}

void test_regs(void)
{
	identity();
	enables();
	mgmt_vector();
	db_pages_limit();
	no_dcb_caps();
	reset_clears_objects();
}
