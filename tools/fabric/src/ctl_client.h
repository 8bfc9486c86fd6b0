/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef WREN_FABRIC_CTL_CLIENT_H
#define WREN_FABRIC_CTL_CLIENT_H

/*
 * `wren-fabric ctl <dir> <command...>`: send one command to <dir>/ctl.sock,
 * print the answer, exit 0 on "ok", 1 on "error: ...", 2 if unreachable.
 */
int ctl_client_main(const char *dir, int argc, char **argv);

#endif
