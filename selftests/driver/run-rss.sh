#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# RSS over two channels (wren-eth-rss.sh needs SMP=2 and a peer), in a boot
# of its own: with two vCPUs the load loop's per-CPU page and slab noise
# outgrows its leak thresholds, so the other tests stay on one vCPU.
export WREN_DRIVER_TESTS="wren-eth-rss.sh"
exec "$(dirname "$0")/run-all.sh"
