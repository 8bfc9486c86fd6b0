/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The model's shared headers and the faces of its blocks, for the host
 * tests (hw/tests), which reach into any part of the model; a test that
 * needs a block's internals names that header from hw/src as well
 * (roce/whw_roce.h, port/whw_sched.h, ...).  The files of hw/src include
 * only the whw_*.h they use.  Nothing here is seen by the host: it uses
 * hw/include/wrenhw.h only.
 *
 * Every non-static symbol is prefixed whw_ because these files are linked
 * into QEMU, whose own symbols must never collide with ours.
 */
#ifndef WRENHW_INT_H
#define WRENHW_INT_H

#include "cmd/whw_cmd.h"
#include "cmd/whw_handlers.h"
#include "core/whw_control.h"
#include "core/whw_events.h"
#include "core/whw_ring.h"
#include "core/whw_services.h"
#include "core/whw_table.h"
#include "core/whw_timer.h"
#include "eth/whw_eth.h"
#include "port/whw_port.h"
#include "roce/whw_roce_api.h"
#include "whw_board.h"
#include "whw_byteorder.h"
#include "whw_device.h"
#include "whw_err.h"
#include "whw_objects.h"

#endif /* WRENHW_INT_H */
