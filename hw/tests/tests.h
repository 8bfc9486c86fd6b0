/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The test groups of wrenhw-tests and the checks they share. */
#ifndef WRENHW_TESTS_H
#define WRENHW_TESTS_H

#include <stddef.h>
#include <string.h>

#include "drv.h"
#include "tap.h"

#define ANY_SYND	0xffffffffu

/* Checks a completion's status and (unless ANY_SYND) its syndrome. */
bool expect(struct td_res r, int status, uint32_t synd, const char *what);

#define SYND_CMD(f)	(WREN_SYND_CMD | (uint32_t)offsetof(struct wren_aq_cmd, f))
#define SYND_IN(t, f)	(WREN_SYND_IN | (uint32_t)offsetof(t, f))

void test_host(void);
void test_regs(void);
void test_aq(void);
void test_eq(void);
void test_objects(void);
void test_cq_resize(void);
void test_srq_resize(void);
void test_xrc(void);
void test_timestamp(void);
void test_qp(void);
void test_mr(void);
void test_mw(void);
void test_mcast(void);
void test_iba15(void);
void test_eth_dcb(void);
void test_phy(void);
void test_eth_tx(void);
void test_eth_rx(void);
void test_eth_err(void);
void test_eth_fuzz(void);
void test_fuzz(void);
void test_crc32(void);
void test_roce_wire(void);
void test_roce_rc(void);
void test_roce_ops(void);
void test_roce_err(void);
void test_roce_loss(void);
void test_roce_window(void);
void test_roce_ud(void);
void test_roce_uc(void);
void test_roce_fuzz(void);
void test_dcqcn(void);
void test_roce_cc(void);
void test_rxbuf(void);
void test_sched(void);
void test_pause(void);

#endif
