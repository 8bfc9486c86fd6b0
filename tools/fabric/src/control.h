/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Control protocol: one text command per line, answered with zero or more
 * output lines and then "ok" or "error: <why>".  Commands live in one table
 * (control.c); a new knob is one handler and one table entry.
 */
#ifndef WREN_FABRIC_CONTROL_H
#define WREN_FABRIC_CONTROL_H

#include <stdbool.h>

#include "fabric.h"
#include "stream.h"

#define CONTROL_MAX_LINE 1024
#define CONTROL_MAX_ARGS 16

/*
 * Run one command line (no trailing newline needed) and append the answer,
 * ending in "ok\n" or "error: ...\n", to @out.  Returns true on "ok".
 */
bool control_execute(struct fabric *f, const char *line, struct outbuf *out);

#endif
