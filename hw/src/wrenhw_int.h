/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Every internal header of libwrenhw, for the host tests (hw/tests), which
 * reach into any part of the model.  The files of hw/src include only the
 * whw_*.h they use.  Nothing here is seen by the host: it uses
 * hw/include/wrenhw.h only.
 *
 * Every non-static symbol is prefixed whw_ because these files are linked
 * into QEMU, whose own symbols must never collide with ours.
 */
#ifndef WRENHW_INT_H
#define WRENHW_INT_H

#include "whw_board.h"
#include "whw_byteorder.h"
#include "whw_cmd.h"
#include "whw_control.h"
#include "whw_device.h"
#include "whw_err.h"
#include "whw_eth.h"
#include "whw_events.h"
#include "whw_handlers.h"
#include "whw_objects.h"
#include "whw_port.h"
#include "whw_ring.h"
#include "whw_roce_api.h"
#include "whw_services.h"
#include "whw_table.h"
#include "whw_timer.h"

#endif /* WRENHW_INT_H */
