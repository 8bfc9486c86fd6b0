# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=sh
#
# The one preamble of the scripts under scripts/, sourced as their first
# command:
#
#   . "$(dirname "$0")/../lib/common.sh"    scripts/<kind>/<name>.sh
#   . "$(dirname "$0")/lib/common.sh"       scripts/<name>.sh
#
# It sets -eu; a script that counts failures itself (a check runner)
# says `set +e` after it.  It sets, exported, the top Makefile's TOP,
# BUILD and WREN_CACHE where a script runs without make, and SCRIPTS
# (this folder's parent), through which scripts name each other.
# log and die print to stderr behind the script's tag: <kind>-<name>
# (qemu/build.sh: "qemu-build:"), or LOG_TAG when set before sourcing.
#
# Not sourced by scripts/kernel-config.sh, which ships in the wren-dkms
# source and runs without the tree, nor by scripts/demo-guest.sh, which
# runs in a guest.
set -eu

SCRIPTS=$(cd "$(dirname "$0")" && pwd)
case $SCRIPTS in
*/scripts) ;;
*) SCRIPTS=${SCRIPTS%/*} ;;
esac
TOP=${TOP:-$(cd "$SCRIPTS/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
# Caches live outside the clone, keyed by their inputs, never required.
WREN_CACHE=${WREN_CACHE:-/var/cache/wren}
export TOP BUILD WREN_CACHE

if [ -z "${LOG_TAG:-}" ]; then
	LOG_TAG=$(basename "$0" .sh)
	case $(basename "$(dirname "$0")") in
	scripts) ;;
	*) LOG_TAG=$(basename "$(dirname "$0")")-$LOG_TAG ;;
	esac
fi

log() { echo "$LOG_TAG: $*" >&2; }
die() { log "$@"; exit 1; }
