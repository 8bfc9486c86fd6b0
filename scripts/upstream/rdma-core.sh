#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Write the provider as a patch series against rdma-core's source (the
# pristine 56.1 tree of rdma-core/fetch.sh) into OUT (default
# $BUILD/upstream/rdma-core): git format-patch files with a cover letter.
#
#   1 kernel-headers/rdma/wren-abi.h, the kernel's uapi header, in
#     kernel-headers' lists
#   2 providers/wren (its CMakeLists.txt, the sources, the hardware
#     contract headers it includes under contract/), registered in the
#     top CMakeLists.txt and libibverbs/verbs.h (the static library's
#     provider table), MAINTAINERS and README.md
#   3 the Debian packaging lines: ibverbs-providers' description and
#     debian/copyright (the .install globs and .symbols already cover a
#     private provider)
#
# The same registration as rdma-core/tree.sh (the bench's build) and
# deb/rdma-core.sh (the packages) make by hand.  providers/wren/tests and
# README.md stay out: they are the tree's own tests and notes.  Author
# and dates as upstream/linux.sh says.
#
# usage: upstream/rdma-core.sh [OUT]
. "$(dirname "$0")/../lib/common.sh"

out=${1:-$BUILD/upstream/rdma-core}
work=$BUILD/upstream/work
rsrc=$("$SCRIPTS/rdma-core/fetch.sh")
contract="wren_regs.h wren_queues.h wren_admin.h wren_hw.h"

aname='' amail='' date=''
eval "$("$SCRIPTS/upstream/author.sh")"

repo=$work/rdma-core
rm -rf "$repo"
mkdir -p "$repo"
g() { git -C "$repo" "$@"; }
edited="CMakeLists.txt kernel-headers/CMakeLists.txt libibverbs/verbs.h
MAINTAINERS README.md debian/control debian/copyright"
for f in $edited; do
	mkdir -p "$repo/$(dirname "$f")"
	cp "$rsrc/$f" "$repo/$f"
done
export GIT_AUTHOR_NAME="$aname" GIT_AUTHOR_EMAIL="$amail" GIT_AUTHOR_DATE="$date"
export GIT_COMMITTER_NAME="$aname" GIT_COMMITTER_EMAIL="$amail" GIT_COMMITTER_DATE="$date"
g init -q
g config core.autocrlf false
g add -A
g commit -q -m "rdma-core $(basename "$rsrc"), the files the series edits"

# insert FILE AFTER LINE: LINE after each line that is AFTER; COUNT of
# them must be found (default 1).
insert() {
	awk -v after="$2" -v line="$3" '
		{ print }
		$0 == after { print line; n++ }
		END { print n > "/dev/stderr" }' "$repo/$1" >"$repo/$1.new" 2>"$repo/$1.count"
	[ "$(cat "$repo/$1.count")" = "${4:-1}" ] ||
		die "rdma-core's $1 changed shape: \"$2\" found $(cat "$repo/$1.count") times"
	rm -f "$repo/$1.count"
	mv "$repo/$1.new" "$repo/$1"
}

commit() {
	g add -A
	g commit -q -s -F -
}

# 1: the kernel ABI header
mkdir -p "$repo/kernel-headers/rdma"
cp "$TOP/include/uapi/rdma/wren-abi.h" "$repo/kernel-headers/rdma/wren-abi.h"
insert kernel-headers/CMakeLists.txt '  rdma/vmw_pvrdma-abi.h' '  rdma/wren-abi.h' 2
commit <<'MSG'
Update kernel headers: add rdma/wren-abi.h

The driver-private ABI of wren_ib, the Wren RoCEv2 NIC's RDMA driver,
as its kernel series adds it in include/uapi/rdma/wren-abi.h.
MSG

# 2: the provider
mkdir -p "$repo/providers/wren/contract/linux/wren"
for f in "$TOP"/providers/wren/*; do
	[ -f "$f" ] || continue
	case ${f##*/} in
	README.md) ;;
	*) cp "$f" "$repo/providers/wren/${f##*/}" ;;
	esac
done
for h in $contract; do
	cp "$TOP/include/linux/wren/$h" "$repo/providers/wren/contract/linux/wren/$h"
done
insert CMakeLists.txt 'add_subdirectory(providers/vmw_pvrdma)' 'add_subdirectory(providers/wren)'
insert libibverbs/verbs.h 'extern const struct verbs_device_ops verbs_provider_vmw_pvrdma;' \
	'extern const struct verbs_device_ops verbs_provider_wren;'
insert README.md ' - vmw_pvrdma.ko' ' - wren_ib.ko'
insert MAINTAINERS 'F:	providers/vmw_pvrdma/' "
WREN USERSPACE PROVIDER (for wren_ib.ko)
M:	$aname <$amail>
L:	linux-rdma@vger.kernel.org
S:	Supported
F:	providers/wren/"
commit <<'MSG'
wren: Add the userspace provider of the Wren RoCEv2 NIC

libwren drives wren_ib's queues from user space: it maps the send,
receive, SRQ and completion rings and the doorbells the kernel hands
out through rdma_user_mmap_entry, builds WQEs and polls CQEs in the
formats of the hardware contract (contract/linux/wren/, the same
headers the kernel driver uses), and supports RC, UC, UD and XRC QPs,
SRQs, memory windows, dma-buf MRs and the extended CQ with completion
timestamps.

The device is matched by its PCI ID (VERBS_PCI_MATCH), so no
RDMA_DRIVER_ID is needed.
MSG

# 3: Debian packaging
insert debian/control '  - vmw_pvrdma: VMware paravirtual RDMA device' '  - wren: Wren RoCEv2 NIC'
# The stanza after vmw_pvrdma's (at the blank line that ends it).
awk '
	/^Files: providers\/vmw_pvrdma\/\*$/ { vmw = 1 }
	vmw && /^$/ && !done {
		print ""
		print "Files: providers/wren/*"
		print "       kernel-headers/rdma/wren-abi.h"
		print "Copyright: 2026 Wren maintainers"
		print "License: BSD-MIT or GPL-2"
		done = 1
	}
	{ print }
	END { if (!done) exit 1 }' "$repo/debian/copyright" >"$repo/debian/copyright.new" ||
	die "rdma-core's debian/copyright changed shape"
mv "$repo/debian/copyright.new" "$repo/debian/copyright"
commit <<'MSG'
debian: Add the wren provider to ibverbs-providers

libwren-rdmav34.so and wren.driver are installed by the package's
existing globs; name the provider in its description and its files in
debian/copyright.
MSG

rm -rf "$out"
mkdir -p "$out"
g format-patch -q --cover-letter --thread=shallow -o "$out" HEAD~3 >/dev/null
cover=$(find "$out" -name '0000-cover-letter.patch')
awk '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, "Add the Wren RoCEv2 NIC provider") }
	/^\*\*\* BLURB HERE \*\*\*$/ {
		print "libwren, the userspace provider of the Wren RoCEv2 NIC, for the"
		print "wren_ib kernel driver (a separate series against Linux), with its"
		print "kernel ABI header and the Debian packaging lines."
		next
	}
	{ print }' "$cover" >"$cover.new"
mv "$cover.new" "$cover"
log "$(find "$out" -name '*.patch' | wc -l) files in $out"
