// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The one file of wrenhw-tests that holds the TAP counters (kselftest.h). */
#define TAP_IMPLEMENTATION
#include "tap.h"
