#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Packages for make lint's checks of the tree's shell and Python files
# (the kernel code's checkpatch and sparse come with deps/kernel.sh):
#   - shellcheck, for every shell file (lint/shellcheck.sh)
#   - pyflakes3, for every Python file (lint/pyflakes.sh; python3-pyflakes
#     under the pyflakes3 command)
. "$(dirname "$0")/../lib/common.sh"

exec "$SCRIPTS/lib/apt-install.sh" shellcheck pyflakes3 python3-pyflakes
