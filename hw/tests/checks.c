// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The checks every test group shares (tests.h), apart from main.c, which
 * only calls the groups.
 */
#include "tests.h"

bool expect(struct td_res r, int status, uint32_t synd, const char *what)
{
	bool ok = r.completed && r.status == status &&
		  (synd == ANY_SYND || r.synd == synd);

	if (!ok && synd != ANY_SYND)
		tap_diag("%s: wanted status %d synd 0x%x, got %s%d synd 0x%x",
			 what, status, synd, r.completed ? "" : "(none) ",
			 r.status, r.synd);
	return tap_ok(ok, "%s", what);
}
