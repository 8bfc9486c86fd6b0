// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* wrenhw-tests: every libwrenhw host test group, one TAP stream. */
#include <stdio.h>

#include "tests.h"

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_host();
	test_regs();
	test_aq();
	test_eq();
	test_objects();
	test_cq_resize();
	test_timestamp();
	test_qp();
	test_mr();
	test_eth_dcb();
	test_phy();
	test_eth_tx();
	test_eth_rx();
	test_eth_err();
	test_rxbuf();
	test_crc32();
	test_roce_wire();
	test_roce_rc();
	test_roce_ops();
	test_roce_err();
	test_roce_loss();
	test_roce_window();
	test_roce_ud();
	test_srq_resize();
	test_xrc();
	test_roce_uc();
	test_mw();
	test_mcast();
	test_iba15();
	test_roce_fuzz();
	test_dcqcn();
	test_roce_cc();
	test_sched();
	test_pause();
	test_fuzz();
	test_eth_fuzz();
	return tap_done();
}
