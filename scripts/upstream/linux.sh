#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Write the drivers as a patch series against Linux 7.3 (Debian's
# linux-source-7.3, upstream/linux-source.sh) into OUT (default
# $BUILD/upstream/linux): git format-patch files with a cover letter.
#
#   1 the hardware contract headers (include/linux/wren/) and the
#     MAINTAINERS entry
#   2 wren.ko in drivers/net/ethernet/wren/, its Kconfig and Makefile,
#     and the ethernet Kconfig and Makefile lines
#   3 wren_peer_mem.ko in drivers/infiniband/peer_mem/ with
#     include/rdma/peer_mem.h and wren_peer_mem.h, and the infiniband
#     Kconfig and Makefile lines
#   4 wren_ib.ko in drivers/infiniband/hw/wren/ with the uapi header
#     include/uapi/rdma/wren-abi.h, and the hw Kconfig and Makefile lines
#   5 the Documentation pages (networking/device_drivers/wren/, less the
#     ns-3 simulation) in the device drivers' index
#
# No compatibility code goes upstream: every C file and header is run
# through unifdef with the feature probes' answers for 7.3
# (upstream/answers.sh, scripts/kernel-config.sh against Debian's 7.3
# headers), so the series holds the 7.3 branch of every HAVE_* and
# nothing else; a HAVE_ or a mention of wren_config.h left over fails.
# Each driver's in-tree Makefile is its Kbuild file as it is (one list
# of objects for both builds); its Kconfig is the one beside it.
#
# Author and Signed-off-by: WREN_UPSTREAM_AUTHOR ("Name <mail>"), else
# the tree's git user.name and user.email, else "Wren maintainers
# <maintainers@wren.invalid>".  Dates are the tree's HEAD commit's, so
# the same tree writes the same series.
#
# usage: upstream/linux.sh [OUT]
# shellcheck disable=SC2016 # make and Kconfig lines, written as they are
. "$(dirname "$0")/../lib/common.sh"

out=${1:-$BUILD/upstream/linux}
work=$BUILD/upstream/work
ksrc=$("$SCRIPTS/upstream/linux-source.sh")
command -v unifdef >/dev/null || die "unifdef is missing (scripts/deps/upstream.sh)"

mkdir -p "$work"
answers=$work/wren_config-7.3.h
"$SCRIPTS/upstream/answers.sh" "$answers"
# -DHAVE_X=1 for each probe present, -UHAVE_X for each absent.
defs=$(sed -n -e 's|^#define \(HAVE_[A-Z0-9_]*\) \(.*\)|-D\1=\2|p' \
	-e 's|^/\* #undef \(HAVE_[A-Z0-9_]*\) \*/|-U\1|p' "$answers" | tr '\n' ' ')
[ -n "$defs" ] || die "no HAVE_* answers in $answers"

aname='' amail='' date=''
eval "$("$SCRIPTS/upstream/author.sh")"

repo=$work/linux
rm -rf "$repo"
mkdir -p "$repo"
g() { git -C "$repo" "$@"; }

# The files the series changes, as 7.3 has them: the base commit.
edited="MAINTAINERS drivers/net/ethernet/Kconfig drivers/net/ethernet/Makefile
drivers/infiniband/Kconfig drivers/infiniband/Makefile
drivers/infiniband/hw/Makefile Documentation/networking/device_drivers/index.rst"
for f in $edited; do
	mkdir -p "$repo/$(dirname "$f")"
	cp "$ksrc/$f" "$repo/$f"
done
export GIT_AUTHOR_NAME="$aname" GIT_AUTHOR_EMAIL="$amail" GIT_AUTHOR_DATE="$date"
export GIT_COMMITTER_NAME="$aname" GIT_COMMITTER_EMAIL="$amail" GIT_COMMITTER_DATE="$date"
g init -q
g config core.autocrlf false
g add -A
g commit -q -m "Linux 7.3 (linux-source-7.3), the files the series edits"

# plain SRC DEST: a C file or header with the 7.3 answers resolved.
plain() {
	mkdir -p "$(dirname "$2")"
	# shellcheck disable=SC2086 # one word per -D/-U
	unifdef -B $defs -o "$2" "$1" || [ $? -eq 1 ] || die "unifdef failed on $1"
	if grep -n 'HAVE_[A-Z0-9_]*\|wren_config' "$2" >&2; then
		die "$1 keeps compatibility code that 7.3's answers do not resolve"
	fi
}

# copy_dir DIR: the tree's DIR into the series: C files through unifdef,
# Kbuild as the Makefile, Kconfig as it is.
copy_dir() {
	d=$1
	mkdir -p "$repo/$d"
	for f in "$TOP/$d"/*; do
		[ -f "$f" ] || continue
		b=${f##*/}
		case $b in
		*.c | *.h) plain "$f" "$repo/$d/$b" ;;
		Kbuild) cp "$f" "$repo/$d/Makefile" ;;
		Kconfig) cp "$f" "$repo/$d/$b" ;;
		esac
	done
}

# insert FILE AFTER LINE: LINE after the first line that is AFTER,
# exactly once.
insert() {
	awk -v after="$2" -v line="$3" '
		{ print }
		$0 == after && !done { print line; done = 1 }
		END { if (!done) exit 1 }' "$repo/$1" >"$repo/$1.new" ||
		die "7.3's $1 changed shape: no line \"$2\""
	mv "$repo/$1.new" "$repo/$1"
}

# maintainers F...: the Wren entry of MAINTAINERS with these F: lines
# (added before the WWAN DRIVERS entry, in order).
maint_files=
maintainers() {
	# shellcheck disable=SC2086 # one word a path
	maint_files=$(printf '%s\n' $maint_files "$@" | sed '/^$/d' | LC_ALL=C sort -u)
	awk -v name="$aname" -v mail="$amail" -v files="$maint_files" '
		/^WREN ROCEV2 NIC DRIVERS$/ { skip = 1; next }
		skip && /^$/ { skip = 0; next }
		skip { next }
		/^WWAN DRIVERS$/ && !done {
			print "WREN ROCEV2 NIC DRIVERS"
			print "M:\t" name " <" mail ">"
			print "L:\tnetdev@vger.kernel.org"
			print "L:\tlinux-rdma@vger.kernel.org"
			print "S:\tMaintained"
			n = split(files, f, "\n")
			for (i = 1; i <= n; i++)
				print "F:\t" f[i]
			print ""
			done = 1
		}
		{ print }
		END { if (!done) exit 1 }' "$repo/MAINTAINERS" >"$repo/MAINTAINERS.new" ||
		die "7.3's MAINTAINERS changed shape: no WWAN DRIVERS entry"
	mv "$repo/MAINTAINERS.new" "$repo/MAINTAINERS"
}

commit() {
	g add -A
	g commit -q -s -F -
}

# 1: the contract
for f in "$TOP"/include/linux/wren/*.h; do
	plain "$f" "$repo/include/linux/wren/${f##*/}"
done
maintainers include/linux/wren/
commit <<'MSG'
net: wren: add the hardware interface headers

Wren is a PCI Express Ethernet NIC with RoCEv2 RDMA and GPUDirect RDMA
support. These headers are its hardware contract: the register map,
the admin commands and their error codes, the queue, descriptor and
completion formats, and the interface between the PCI core driver
(wren) and the RDMA driver on its auxiliary device (wren_ib).

The contract is described for people in
Documentation/networking/device_drivers/wren/, later in this series.
MSG

# 2: wren.ko
copy_dir drivers/net/ethernet/wren
insert drivers/net/ethernet/Kconfig 'source "drivers/net/ethernet/wiznet/Kconfig"' \
	'source "drivers/net/ethernet/wren/Kconfig"'
insert drivers/net/ethernet/Makefile 'obj-$(CONFIG_NET_VENDOR_WIZNET) += wiznet/' \
	'obj-$(CONFIG_NET_VENDOR_WREN) += wren/'
maintainers drivers/net/ethernet/wren/
commit <<'MSG'
net: wren: add the Wren PCI core and Ethernet driver

wren binds to the NIC's PCI function: it resets and enables the
device, runs the admin queue and the event queues, reports health and
parameters through devlink, registers the Ethernet netdev (page_pool
receive rings, ethtool, RSS, PFC storm prevention and, with DCB, the
dcbnl IEEE ops for ETS, PFC, DSCP trust and buffers) and creates the
"wren.rdma" auxiliary device for the RDMA driver.

Its exports to the RDMA driver are in the WREN_CORE namespace.
MSG

# 3: wren_peer_mem.ko
copy_dir drivers/infiniband/peer_mem
for f in "$TOP"/include/rdma/*.h; do
	plain "$f" "$repo/include/rdma/${f##*/}"
done
insert drivers/infiniband/Kconfig '	def_bool !HIGHMEM' '
source "drivers/infiniband/peer_mem/Kconfig"'
insert drivers/infiniband/Makefile 'obj-$(CONFIG_INFINIBAND)		+= core/' \
	'obj-$(CONFIG_INFINIBAND)		+= peer_mem/'
maintainers drivers/infiniband/peer_mem/ include/rdma/peer_mem.h include/rdma/wren_peer_mem.h
commit <<'MSG'
RDMA/peer_mem: add a peer-memory client registry

GPU drivers that export their memory for GPUDirect RDMA through the
peer-memory client interface (nvidia-peermem's
ib_register_peer_memory_client() and struct peer_memory_client) need a
registry to register with. This adds one, <rdma/peer_mem.h>, with the
clients' sysfs under /sys/kernel/mm/memory_peers, and the interface an
RDMA driver uses to register a memory region over peer memory,
<rdma/wren_peer_mem.h>: the pages are pinned and mapped through the
owning client, and its invalidation tears the region down through the
driver's callback.

Its exports are in the WREN_PEER namespace.
MSG

# 4: wren_ib.ko
copy_dir drivers/infiniband/hw/wren
plain "$TOP/include/uapi/rdma/wren-abi.h" "$repo/include/uapi/rdma/wren-abi.h"
insert drivers/infiniband/Kconfig 'source "drivers/infiniband/hw/vmw_pvrdma/Kconfig"' \
	'source "drivers/infiniband/hw/wren/Kconfig"'
insert drivers/infiniband/hw/Makefile 'obj-$(CONFIG_INFINIBAND_VMWARE_PVRDMA)	+= vmw_pvrdma/' \
	'obj-$(CONFIG_INFINIBAND_WREN)		+= wren/'
maintainers drivers/infiniband/hw/wren/ include/uapi/rdma/wren-abi.h
commit <<'MSG'
RDMA/wren: add the Wren RoCEv2 driver

wren_ib binds to the "wren.rdma" auxiliary device of the wren driver
and registers the RoCEv2 ib device wren_%d: PDs, CQs, RC, UC, UD and
XRC QPs, SRQs, MRs (user, dma-buf and peer memory), fast registration,
memory windows, address handles, multicast, the kernel data path for
in-kernel users and restrack and counter reports.

User space maps its queues and doorbells through rdma_user_mmap_entry;
the driver-private ABI with the rdma-core provider libwren is
include/uapi/rdma/wren-abi.h, and the provider matches the device by
its PCI ID.
MSG

# 5: Documentation
docs=Documentation/networking/device_drivers/wren
mkdir -p "$repo/$docs"
for f in "$TOP/$docs"/*.rst; do
	b=${f##*/}
	case $b in
	simulation.rst) ;;
	index.rst) grep -vx '   simulation' "$f" >"$repo/$docs/$b" ;;
	*) cp "$f" "$repo/$docs/$b" ;;
	esac
done
insert Documentation/networking/device_drivers/index.rst '   wifi/index' '   wren/index'
maintainers "$docs/"
commit <<'MSG'
Documentation: networking: add the Wren NIC pages

The hardware contract of the Wren NIC (PCI identity, registers, admin
queue, queue and descriptor formats, what goes on the wire) and how
wren, wren_ib and wren_peer_mem drive it: the netdev, DCB, RDMA,
GPUDirect RDMA and the provider ABI.
MSG

# The series, with its cover letter.
rm -rf "$out"
mkdir -p "$out"
g format-patch -q --cover-letter --thread=shallow -o "$out" HEAD~5 >/dev/null
cover=$(find "$out" -name '0000-cover-letter.patch')
subject="Wren RoCEv2 NIC drivers"
awk -v subject="$subject" -v base="$(basename "$ksrc")" -v ksrc="$ksrc" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
	/^\*\*\* BLURB HERE \*\*\*$/ {
		print "This series adds the drivers of Wren, a PCI Express Ethernet NIC with"
		print "RoCEv2 RDMA and GPUDirect RDMA support:"
		print ""
		print "  wren           the PCI core and the Ethernet netdev (net/ethernet)"
		print "  wren_peer_mem  a peer-memory client registry for GPUDirect RDMA"
		print "  wren_ib        the RoCEv2 ib device on wren'"'"'s auxiliary device"
		print ""
		print "with the hardware contract headers, the uapi header of the provider"
		print "ABI and the Documentation pages. The rdma-core provider, libwren,"
		print "is a separate series against rdma-core."
		print ""
		print "The series applies to Linux 7.3 (Debian'"'"'s linux-source-7.3); each"
		print "driver builds as a module with W=1."
		next
	}
	{ print }' "$cover" >"$cover.new"
mv "$cover.new" "$cover"
log "$(find "$out" -name '*.patch' | wc -l) files in $out"
