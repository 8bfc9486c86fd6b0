/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Minimal TAP producer for the libwrenhw host tests. */
#ifndef WRENHW_TEST_TAP_H
#define WRENHW_TEST_TAP_H

#include <stdbool.h>

/* Prints "ok N - ..." or "not ok N - ..."; returns cond. */
bool tap_ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the plan; returns the process exit status. */
int tap_done(void);

#endif
