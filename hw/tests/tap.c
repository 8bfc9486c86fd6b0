// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <stdarg.h>
#include <stdio.h>

#include "tap.h"

static unsigned int tests, failed;

bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	tests++;
	if (!cond)
		failed++;
	printf("%sok %u - ", cond ? "" : "not ", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

int tap_done(void)
{
	printf("1..%u\n", tests);
	if (failed)
		printf("# %u of %u failed\n", failed, tests);
	return failed ? 1 : 0;
}
