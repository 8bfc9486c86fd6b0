# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=sh
#
# Readers of selftests/plan, the one declaration of `make check`'s layers,
# guest pairs and guest matrix.  Sourced (POSIX sh) by scripts/check.sh,
# scripts/check/driver.sh, scripts/check/interop.sh, scripts/check/apps.sh,
# scripts/check/plan.sh and tools/testbench/vmtest.sh.
#
#   plan_layers               layer names in order
#   plan_layer_text NAME      the layer's description
#   plan_boots [LAYER]        boot names in order (of one layer)
#   plan_boot NAME            "LAYER KVER" then its words, one line:
#                             PLAN_LAYER, PLAN_KVER, PLAN_MAKEVARS (bench
#                             variables) and PLAN_GUESTENV (WREN_* words,
#                             the layer's env first) are set
#   plan_kvers BOOT...        the kernel series those boots use, each once
#   plan_tests BOOT GUEST     that guest's tests in row order, one
#                             COLLECTION:TEST a line
#   plan_boot_tests BOOT      every row of the boot: "COLLECTION:TEST WHO"

PLAN=${PLAN:-${TOP:-$(cd "$(dirname "$0")/.." && pwd)}/selftests/plan}

plan_awk() {
	awk "$@" "$PLAN"
}

plan_layers() {
	plan_awk '$1 == "layer" { print $2 }'
}

plan_layer_text() {
	plan_awk -v n="$1" '$1 == "layer" && $2 == n { $1 = $2 = ""; sub(/^ +/, ""); print }'
}

plan_boots() {
	plan_awk -v l="${1:-}" '$1 == "boot" && (l == "" || $3 == l) { print $2 }'
}

plan_boot() {
	_pb=$(plan_awk -v b="$1" '$1 == "boot" && $2 == b { $1 = $2 = ""; sub(/^ +/, ""); print; exit }')
	[ -n "$_pb" ] || { echo "plan: no boot $1 in $PLAN" >&2; return 1; }
	# shellcheck disable=SC2086 # words of the plan
	set -- $_pb
	PLAN_LAYER=$1 PLAN_KVER=$2
	shift 2
	PLAN_MAKEVARS='' PLAN_GUESTENV=$(plan_awk -v l="$PLAN_LAYER" '$1 == "env" && $2 == l { $1 = $2 = ""; sub(/^ +/, ""); print }' | tr '\n' ' ')
	for _w in "$@"; do
		case $_w in
		WREN_*=*) PLAN_GUESTENV="$PLAN_GUESTENV$_w " ;;
		*=*) PLAN_MAKEVARS="$PLAN_MAKEVARS$_w " ;;
		*) echo "plan: boot $1: '$_w' is not VAR=value" >&2; return 1 ;;
		esac
	done
	echo "$PLAN_LAYER $PLAN_KVER $*"
}

plan_kvers() {
	for _b in "$@"; do
		plan_boot "$_b" | cut -d' ' -f2
	done | sort -u
}

# The column of BOOT in the "test" rows: its position among the boot lines.
plan_column() {
	plan_awk -v b="$1" '$1 == "boot" { n++; if ($2 == b) { print n + 2; exit } }'
}

plan_boot_tests() {
	_col=$(plan_column "$1")
	[ -n "$_col" ] || { echo "plan: no boot $1 in $PLAN" >&2; return 1; }
	plan_awk -v c="$_col" '$1 == "test" && $c != "-" && $c != "" { print $2, $c }'
}

plan_tests() {
	plan_boot_tests "$1" | awk -v g="g$2" '$2 == "*" || $2 == g { print $1 }'
}
