// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* wrenhw-tests: every libwrenhw host test group, one TAP stream. */
#include <stdio.h>

#include "tests.h"

bool expect(struct td_res r, int status, uint32_t synd, const char *what)
{
	bool ok = r.completed && r.status == status &&
		  (synd == ANY_SYND || r.synd == synd);

	if (!ok && synd != ANY_SYND)
		tap_diag("%s: wanted status %d synd 0x%x, got %s%d synd 0x%x",
			 what, status, synd, r.completed ? "" : "(none) ",
			 r.status, r.synd);
	return tap_ok(ok, "%s", what);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_regs();
	test_aq();
	test_eq();
	test_objects();
	test_qp();
	test_mr();
	test_eth_dcb();
	test_phy();
	test_eth_tx();
	test_eth_rx();
	test_eth_err();
	test_roce_wire();
	test_roce_rc();
	test_roce_ops();
	test_roce_err();
	test_roce_loss();
	test_roce_window();
	test_roce_ud();
	test_roce_fuzz();
	test_fuzz();
	test_eth_fuzz();
	return tap_done();
}
