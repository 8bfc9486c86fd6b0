#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Dependencies of Documentation/ (check-docs.sh): Debian's docutils and
# Sphinx for /usr/bin/python3; a C compiler with the kernel's UAPI headers
# for check-contract.py (it compiles the contract headers to hold the
# structure tables against them); Universal Ctags for check-layout.py
# (every function of the tree's C files with its first and last line, for
# the call graph between files).  Idempotent: installs only what is
# missing.
. "$(dirname "$0")/../lib/common.sh"
exec "$SCRIPTS/lib/apt-install.sh" python3-docutils python3-sphinx gcc libc6-dev \
	linux-libc-dev universal-ctags
