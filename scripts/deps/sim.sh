#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build dependencies of the ns-3 simulation (sim/): Debian's ns-3
# libraries and headers, a C++ compiler, matplotlib for the plots and
# valgrind for sim/tools/profile.sh, time for E4's wall time and memory.
. "$(dirname "$0")/../lib/common.sh"
exec "$SCRIPTS/lib/apt-install.sh" libns3-dev g++ make python3-matplotlib valgrind time
