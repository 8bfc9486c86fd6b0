// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Why a case of a one-node mode failed (mw, mcast, clock, import): the
 * case says it with why_set(), and the mode's runner prints it under the
 * case's TAP line with why_report().
 */
#include <stdarg.h>
#include <stdio.h>
#include "wvt.h"
#include "tap.h"

bool why_set(char *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, WVT_WHY, fmt, ap);
	va_end(ap);
	return false;
}

void why_report(char *why, bool ok, const char *what)
{
	tap_ok(ok, "%s", what);
	if (!ok && why[0])
		tap_diag("  %s", why);
	why[0] = 0;
}
