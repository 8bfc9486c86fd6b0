#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Print the KABI= and KDIR= lines for a kernel series (kernel/series).
#
# The bench owns $BUILD/kernel-<KVER>.env (tools/testbench/kernel-fetch.sh
# writes it, together with the guest kernel image).  When that file exists we
# use it as is; when it does not, we ask the bench's fetcher to write it, so
# that there is one place that decides which kernel a series means.  Only a
# tree without the bench falls back to resolving the headers package here.
#
# A series built in a Debian build root (kernel/series' root column, 7.3
# in trixie) is resolved from the root's apt lists and its headers are
# installed there (the fetcher does both from this machine); its KDIR is
# a path inside the root, so the lines are printed from inside it.
#
# usage: kernel/env.sh KVER
. "$(dirname "$0")/../lib/common.sh"

kver=${1:?usage: kernel/env.sh KVER}
version=$("$SCRIPTS/kernel/series.sh" version "$kver")
suite=$("$SCRIPTS/kernel/series.sh" suite "$kver")
root=$("$SCRIPTS/kernel/series.sh" root "$kver")
envfile=$BUILD/kernel-$kver.env
fetch=$TOP/tools/testbench/kernel-fetch.sh
if [ "$root" != host ] && [ -z "${WREN_ROOT:-}" ]; then
	# The fetcher runs here: it extracts the image beside the others.
	if [ -x "$fetch" ] && [ -w "${WREN_CACHE:-/var/cache/wren}" ]; then
		"$fetch" "$kver" "$envfile" >&2
	fi
	exec "$SCRIPTS/kernel/root.sh" run "$root" "$0" "$kver"
fi
[ -z "${WREN_ROOT:-}" ] || fetch=

valid() {
	[ -f "$1" ] || return 1
	kdir=$(sed -n 's/^KDIR=//p' "$1")
	[ -n "$kdir" ] && [ -f "$kdir/Makefile" ]
}

if ! valid "$envfile" && [ -n "$fetch" ] && [ -x "$fetch" ]; then
	"$fetch" "$kver" "$envfile" >&2
fi

if ! valid "$envfile"; then
	# On the host, a backports suite's headers are asked for by their
	# suite; in a root, its apt entries are the root's own (kernel/root.sh)
	# and packages that exist only in backports have no other candidate.
	release=
	if [ "$root" = host ]; then
		case "$suite" in *-backports) release=$suite ;; esac
		"$TOP/scripts/lib/apt-sources.sh" >&2
	fi
	# linux-headers-amd64 of the series depends on the ABI package we need.
	abi=$(apt-cache show linux-headers-amd64 | awk -v pre="$version." '
		/^Version:/ { v = $2 }
		/^Depends:/ && index(v, pre) == 1 {
			if (match($0, /linux-headers-[^ ,]+-amd64/))
				print v, substr($0, RSTART + 14, RLENGTH - 14)
		}' | sort -k1,1 -V | tail -n 1 | cut -d' ' -f2)
	[ -n "$abi" ] || { echo "kernel-env: no linux-headers-amd64 $version.* known to apt" >&2; exit 1; }
	if ! dpkg -s "linux-headers-$abi" >/dev/null 2>&1; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			${release:+-t "$release"} "linux-headers-$abi" >&2
	fi
	mkdir -p "$BUILD"
	printf 'KABI=%s\nKDIR=%s\n' "$abi" "/lib/modules/$abi/build" >"$envfile.$$"
	mv "$envfile.$$" "$envfile"
fi

grep -E '^(KABI|KDIR)=' "$envfile"
