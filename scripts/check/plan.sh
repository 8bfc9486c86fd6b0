#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-plan`: what `make check` runs, from selftests/plan - the
# layers in order, then for each guest pair its kernel, bench settings,
# guest environment and each guest's tests.
. "$(dirname "$0")/../lib/common.sh"
. "$SCRIPTS/lib/plan.sh"

echo "make check: layers in order (make check-<layer>), from selftests/plan"
n=0
for l in $(plan_layers); do
	n=$((n + 1))
	printf '  %2d. %-9s %s\n' "$n" "$l" "$(plan_layer_text "$l")"
done
# make check-debug's boots (layer "debug") come after make check's.
for l in $(plan_layers) debug; do
	boots=$(plan_boots "$l")
	[ -n "$boots" ] || continue
	echo
	echo "check-$l: guest pairs in order (make vmtest B=<boot>)"
	for b in $boots; do
		plan_boot "$b" >/dev/null
		echo "  $b: KVER=$PLAN_KVER ${PLAN_MAKEVARS% }" | sed 's/ *$//'
		[ -z "$PLAN_GUESTENV" ] || echo "      env: ${PLAN_GUESTENV% }"
		# N=<guests> among the bench variables, else a pair.
		ng=$(echo " $PLAN_MAKEVARS" | sed -n 's/.* N=\([0-9]*\).*/\1/p')
		g=0
		while [ "$g" -lt "${ng:-2}" ]; do
			echo "      g$g: $(plan_tests "$b" "$g" | tr '\n' ' ' | sed 's/ *$//')"
			g=$((g + 1))
		done
	done
done
echo
echo "guest matrix (* both guests, gN guest N only, - not run):"
awk '$1 == "boot" { b[++n] = $2 }
     $1 == "test" { t[++m] = $0 }
     END {
	line = sprintf("  %-30s", "test")
	for (i = 1; i <= n; i++) line = line sprintf(" %-8s", b[i])
	sub(/ +$/, "", line)
	print line
	for (j = 1; j <= m; j++) {
		k = split(t[j], f)
		line = sprintf("  %-30s", f[2])
		for (i = 1; i <= n; i++) line = line sprintf(" %-8s", f[i + 2])
		sub(/ +$/, "", line)
		print line
	}
     }' "$PLAN"
