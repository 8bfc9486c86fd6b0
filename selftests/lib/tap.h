/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * TAP for Wren's C test programs, host and guest, on the kernel's
 * kselftest.h (tools/testing/selftests, from linux-source-6.1 through
 * scripts/kernel/kselftest-tree.sh; build with -I$(BUILD)/kselftest-src).
 *
 *   tap_plan(n)                 "1..n" up front (ksft_set_plan)
 *   tap_ok(cond, fmt, ...)      "ok N - desc" / "not ok N - desc"; returns cond
 *   tap_vok(cond, fmt, ap)      the same with a va_list
 *   tap_skipped(reason, fmt, ...)  "ok N - desc # SKIP reason"
 *   tap_diag(fmt, ...)          "# ..." (a newline is added)
 *   tap_done()                  the plan if none was set (ksft_set_plan), the
 *                               kselftest totals; returns the exit status
 *                               (KSFT_PASS or KSFT_FAIL)
 *
 * kselftest.h keeps its counters in static variables, one set per
 * translation unit, so exactly one file of a program defines
 * TAP_IMPLEMENTATION before including this header; the others get the
 * declarations only.
 */
#ifndef WREN_SELFTESTS_TAP_H
#define WREN_SELFTESTS_TAP_H

#include <stdarg.h>
#include <stdbool.h>

void tap_plan(unsigned int n);
bool tap_ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool tap_vok(bool cond, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void tap_skipped(const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int tap_done(void);

#ifdef TAP_IMPLEMENTATION
#include <stdio.h>
#include <kselftest.h>

static void tap_header(void)
{
	static bool started;

	if (!started) {
		started = true;
		ksft_print_header();
	}
}

void tap_plan(unsigned int n)
{
	tap_header();
	ksft_set_plan(n);
}

bool tap_vok(bool cond, const char *fmt, va_list ap)
{
	char desc[512];

	tap_header();
	vsnprintf(desc, sizeof(desc), fmt, ap);
	/* "ok N - desc": the " - " the shell consumers of older output expect. */
	if (cond)
		ksft_test_result_pass("- %s\n", desc);
	else
		ksft_test_result_fail("- %s\n", desc);
	fflush(stdout);
	return cond;
}

bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vok(cond, fmt, ap);
	va_end(ap);
	return cond;
}

void tap_skipped(const char *reason, const char *fmt, ...)
{
	char desc[512];
	va_list ap;

	tap_header();
	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	/* kselftest.h's own skip puts the directive before the description. */
	ksft_inc_xskip_cnt();
	printf("ok %u - %s # SKIP %s\n", ksft_test_num(), desc, reason);
	fflush(stdout);
}

void tap_diag(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	tap_header();
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ksft_print_msg("%s\n", msg);
	fflush(stdout);
}

int tap_done(void)
{
	tap_header();
	if (!ksft_plan) {
		ksft_plan = ksft_test_num();
		printf("1..%u\n", ksft_plan);
	}
	ksft_print_cnts();
	fflush(stdout);
	return ksft_get_fail_cnt() || ksft_get_error_cnt() ||
	       ksft_plan != ksft_test_num() ? KSFT_FAIL : KSFT_PASS;
}
#endif /* TAP_IMPLEMENTATION */

#endif
