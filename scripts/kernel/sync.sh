#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Mirror the kernel module sources into DEST, touching only files whose
# content changed (so kbuild rebuilds only what changed) and deleting files
# that left the tree.  The source tree itself never sees a build product.
#
# usage: kernel/sync.sh DEST [--dkms]
#   --dkms also copies dkms.conf and the probe script dkms runs.
. "$(dirname "$0")/../lib/common.sh"

dest=${1:?usage: kernel/sync.sh DEST [--dkms]}

list() {
	cd "$TOP" || exit
	echo Kbuild
	find drivers/net/ethernet/wren drivers/infiniband/hw/wren \
		drivers/infiniband/peer_mem include/linux/wren include/rdma \
		include/uapi/rdma \
		-type f \( -name '*.[ch]' -o -name Kbuild \) \
		! -name '*.mod.c' 2>/dev/null | sort
	if [ "${1:-}" = --dkms ]; then
		echo dkms.conf
		echo scripts/kernel-config.sh
	fi
}

mkdir -p "$dest"
wanted=$(mktemp)
trap 'rm -f "$wanted"' EXIT INT TERM
list "${2:-}" >"$wanted"

while read -r f; do
	if ! cmp -s "$TOP/$f" "$dest/$f"; then
		mkdir -p "$dest/$(dirname "$f")"
		cp "$TOP/$f" "$dest/$f.tmp.$$"
		mv "$dest/$f.tmp.$$" "$dest/$f"
	fi
done <"$wanted"

# Sources that disappeared from the tree must not keep building.
(cd "$dest" && find drivers include -type f \( -name '*.[ch]' -o -name Kbuild \) \
	! -name '*.mod.c' 2>/dev/null) | while read -r f; do
	grep -qxF "$f" "$wanted" || rm -f "$dest/$f"
done
