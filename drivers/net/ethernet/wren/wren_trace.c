// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The one place wren.ko's tracepoints are instantiated (wren_trace.h). */
#define CREATE_TRACE_POINTS
#include "wren_trace.h"
