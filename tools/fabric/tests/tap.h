/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Minimal TAP producer for the fabric tests: plan printed at the end. */
#ifndef WREN_FABRIC_TAP_H
#define WREN_FABRIC_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int tap_count;
static int tap_failed;

static bool tap_ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), unused));

static bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		tap_failed++;
	return cond;
}

static void tap_diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), unused));

static void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static int __attribute__((unused)) tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
