#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=dash disable=SC2013
#
# /init of a bench guest's tiny initramfs; busybox only, on purpose: under
# TCG every exec of a dynamically linked binary from the 9p root costs
# around 0.2 s, so the whole setup runs from this static busybox.
#
# Stage 1 (PID 1 in the initramfs): load the virtio/9p modules, mount the
# host's root read-only over 9p, lay tmpfs-backed overlays over the places a
# running system writes to, mount the results share, set up /dev, modules,
# hostname and network, then switch_root.
# With a root filesystem of its own (vmrun.sh ROOTFS=, wren.rootfs=1 on
# the command line) the 9p root is that one, under one tmpfs-backed
# overlay, and the host's paths the tests use (WREN_HOST_PATHS: the
# tree, its build folder, the kernel's modules) are bound into it from
# a second read-only share of the host's / at the same paths.
# Stage 2 (PID 1 on the new root, same file run by the same busybox copied
# to /run/wren): run the requested script with the bench environment, write
# its exit status to the results share, power off.
export PATH=/bin:/sbin
bb=/bin/busybox
share=/run/wren/results

say() { echo "wren-guest${guest:-?}: $*" >/dev/console; }
trace() { [ "${trace:-0}" = 1 ] && say "$(cut -d' ' -f1 /proc/uptime)s $*"; }

power_off() {
	$bb sync
	# PID 1 stays alive while the kernel powers off: if init exited
	# first, the kernel would panic with "Attempted to kill init".
	$bb poweroff -f
	while :; do $bb sleep 60; done
}

die() {
	local d
	say "$*"
	# The host reports this instead of a missing exit status.
	for d in "$share" "/newroot$share"; do
		[ -d "$d" ] && echo "$*" >"$d/guest$guest.error"
	done
	power_off
}

# Our parameters carry a dot so the kernel keeps them out of init's env.
parse_cmdline() {
	local w
	for w in $(cat /proc/cmdline); do
		case "$w" in
		wren.guest=*) guest=${w#wren.guest=} ;;
		wren.trace=*) trace=${w#wren.trace=} ;;
		wren.rootfs=*) rootfs=${w#wren.rootfs=} ;;
		esac
	done
}

mount_root() {
	local opts=trans=virtio,version=9p2000.L,msize=262144 d m
	for m in $(cat /modules.order); do
		insmod "/modules/$m" || die "insmod $m failed"
	done
	trace "modules loaded"
	# cache=loose: the root does not change under a running guest in
	# ways tests care about, and it makes exec from 9p much cheaper.
	mount -t tmpfs -o mode=0755 ovl /ovl
	if [ "${rootfs:-0}" = 1 ]; then
		# A root of the guest's own: writable as a whole, so that the
		# host's paths get their mount points wherever they are.
		mkdir -p /ovl/lower /ovl/root/upper /ovl/root/work
		mount -t 9p -o "$opts,ro,cache=loose" hostroot /ovl/lower ||
			die "cannot mount the guest root (9p tag hostroot)"
		mount -t overlay overlay \
			-o "lowerdir=/ovl/lower,upperdir=/ovl/root/upper,workdir=/ovl/root/work" \
			/newroot || die "overlay on the guest root failed"
	else
		mount -t 9p -o "$opts,ro,cache=loose" hostroot /newroot ||
			die "cannot mount the host root (9p tag hostroot)"
	fi
	# Writable places: an overlay with a tmpfs upper layer keeps the
	# host's files visible (/etc/passwd, /var/lib/..., a script under
	# /tmp) while writes stay in the guest.
	for d in etc var root home tmp; do
		[ "${rootfs:-0}" != 1 ] || break
		[ -d "/newroot/$d" ] || continue
		mkdir -p "/ovl/$d/upper" "/ovl/$d/work"
		mount -t overlay overlay \
			-o "lowerdir=/newroot/$d,upperdir=/ovl/$d/upper,workdir=/ovl/$d/work" \
			"/newroot/$d" || die "overlay on /$d failed"
	done
	mount -t tmpfs -o mode=0755 run /newroot/run
	mkdir -p "/newroot$share"
	mount -t 9p -o "$opts,rw,cache=none" results "/newroot$share" ||
		die "cannot mount the results share (9p tag results)"
	trace "root mounted"
}

# Runs before /dev and /sys move to the new root (submounts move along).
setup_dev() {
	# devtmpfs has none of these; bash process substitution needs /dev/fd.
	mkdir -p /dev/pts /dev/shm
	mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
	mount -t tmpfs -o mode=1777 shm /dev/shm
	ln -sfn /proc/self/fd /dev/fd
	ln -sfn /proc/self/fd/0 /dev/stdin
	ln -sfn /proc/self/fd/1 /dev/stdout
	ln -sfn /proc/self/fd/2 /dev/stderr
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	# A debug kernel's DMA-API checks print only their first error: a
	# harmless one of another driver (wren-debug-reports.sh) would hide
	# every later one.
	[ -w /sys/kernel/debug/dma-api/all_errors ] &&
		echo 1 >/sys/kernel/debug/dma-api/all_errors
	mount -t configfs configfs /sys/kernel/config 2>/dev/null
	mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
	return 0
}

# The guest kernel's modules (extracted from the .deb, depmod'ed on the
# host) replace whatever the host has for this ABI, so modprobe works.
# /lib is a symlink to usr/lib on the host.  A package boot (WREN_PKG=1)
# lays a writable overlay there instead of a bind, for dkms to install
# into and depmod to rewrite, with the build link dkms compiles through
# pointing at the host's linux-headers package for this ABI.
setup_modules() {
	local dst=/newroot/usr/lib/modules/$WREN_KABI
	# A package boot shows dkms this kernel only, as on a server that
	# runs it, not every kernel whose headers the host has.
	if [ ! -d "$dst" ] || [ "${WREN_PKG:-0}" = 1 ]; then
		mount -t tmpfs -o mode=0755 modules /newroot/usr/lib/modules
		mkdir -p "$dst"
	fi
	if [ "${WREN_PKG:-0}" != 1 ]; then
		mount --bind "/newroot$WREN_KMODDIR" "$dst" || die "cannot bind $WREN_KMODDIR"
		return
	fi
	# The tree is on a disk when vmrun attached one (modules-image.sh):
	# dkms and depmod walk all of it, which over 9p is a round trip to
	# QEMU per lookup.
	local lower=/newroot$WREN_KMODDIR m
	if [ -n "${WREN_MODULES_DISK:-}" ]; then
		for m in $(cat /modules-disk.order); do
			insmod "/modules/$m" || die "insmod $m failed"
		done
		mkdir -p /ovl/modules/disk
		mount -t ext4 -o ro,noload "$WREN_MODULES_DISK" /ovl/modules/disk ||
			die "cannot mount the module disk $WREN_MODULES_DISK"
		lower=/ovl/modules/disk
		trace "modules on $WREN_MODULES_DISK"
	fi
	mkdir -p /ovl/modules/upper /ovl/modules/work
	mount -t overlay overlay \
		-o "lowerdir=$lower,upperdir=/ovl/modules/upper,workdir=/ovl/modules/work" \
		"$dst" || die "overlay on the modules of $WREN_KABI failed"
	[ -d "/newroot/usr/src/linux-headers-$WREN_KABI" ] &&
		ln -sfn "/usr/src/linux-headers-$WREN_KABI" "$dst/build"
	return 0
}

# A package boot (WREN_PKG=1) installs .debs with dpkg as an operator
# would: /usr (and /lib, /bin, /sbin through their merged-/usr links)
# takes writes too, kept in the guest like those to /etc and /var.
setup_pkg() {
	[ "${WREN_PKG:-0}" = 1 ] && [ "${rootfs:-0}" != 1 ] || return 0
	mkdir -p /ovl/usr/upper /ovl/usr/work
	mount -t overlay overlay \
		-o "lowerdir=/newroot/usr,upperdir=/ovl/usr/upper,workdir=/ovl/usr/work" \
		/newroot/usr || die "overlay on /usr failed"
	trace "/usr writable"
}

# A root of the guest's own: the host's paths that the tests name, bound
# at the same paths from the host's / (9p tag host, read-only).
setup_host_paths() {
	local p
	[ "${rootfs:-0}" = 1 ] || return 0
	mkdir -p /newroot/run/wren/host
	mount -t 9p -o "trans=virtio,version=9p2000.L,msize=262144,ro,cache=loose" \
		host /newroot/run/wren/host || die "cannot mount the host's / (9p tag host)"
	for p in ${WREN_HOST_PATHS:-}; do
		if ! mkdir -p "/newroot$p" ||
			! mount --bind "/newroot/run/wren/host$p" "/newroot$p"; then
			die "cannot bind the host's $p"
		fi
	done
	trace "host paths bound"
}

setup_names() {
	local i=0
	hostname "guest$guest"
	echo "guest$guest" >/newroot/etc/hostname
	while [ $i -lt "$WREN_NGUESTS" ]; do
		echo "10.0.1.$((i + 1)) guest$i"
		i=$((i + 1))
	done >>/newroot/etc/hosts
}

# The virtio NIC is found by driver, not by name: the Wren NIC may probe
# first once its driver exists.  A virtio NIC on the Wren fabric (vmrun.sh
# RXE=, MAC 52:54:00:00:00:xx like a Wren NIC's) is not the control NIC.
setup_net() {
	local n ifc='' mac
	for n in /sys/class/net/*; do
		case "$(readlink "$n/device/driver")" in
		*/virtio_net)
			read -r mac <"$n/address"
			case $mac in 52:54:00:00:00:*) continue ;; esac
			ifc=${n##*/}
			;;
		esac
	done
	[ -n "$ifc" ] || die "no virtio-net interface"
	ip link set lo up
	ip addr add "$WREN_VIRTIO_IP/24" dev "$ifc" || die "ip addr on $ifc failed"
	ip link set "$ifc" up
	echo "WREN_VIRTIO_IFNAME=$ifc" >>"$conf"
}

stage1() {
	$bb mkdir -p /bin /proc /sys /dev /newroot /ovl
	$bb --install -s /bin
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	parse_cmdline
	[ -n "${guest:-}" ] || die "no wren.guest= on the kernel command line"
	trace "init"
	mount_root
	# The host wrote this guest's settings to the results share.
	conf=/newroot$share/guest$guest.env
	[ -f "$conf" ] || die "missing $conf"
	cp "$conf" /guest.env
	conf=/guest.env
	# shellcheck disable=SC1090 # written by vmrun.sh
	. "$conf"
	setup_host_paths
	setup_dev
	setup_pkg
	setup_modules
	setup_names
	setup_net
	# Stage 2 runs this same file with this same busybox from the new
	# root's /run (tmpfs), since switch_root empties the initramfs.
	mkdir -p /newroot/run/wren/bin
	cp "$bb" /newroot/run/wren/bin/busybox
	cp /init /newroot/run/wren/init
	cp "$conf" /newroot/run/wren/guest.env
	trace "switching root"
	mount --move /dev /newroot/dev
	mount --move /sys /newroot/sys
	mount --move /proc /newroot/proc
	exec switch_root /newroot /run/wren/bin/busybox sh /run/wren/init stage2 "$guest" "${trace:-0}"
}

stage2() {
	guest=$1
	trace=$2
	bb=/run/wren/bin/busybox
	export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	export HOME=/root TERM=dumb LANG=C.UTF-8
	set -a
	# shellcheck disable=SC1091 # copied there by stage 1
	. /run/wren/guest.env
	set +a
	unset WREN_KMODDIR
	$bb mkdir -p "$WREN_RESULTS"
	read -r up _ </proc/uptime
	echo "$up" >"$share/guest$guest.boot"
	say "up in ${up}s, running $WREN_SCRIPT"
	cd "$WREN_TOP" || die "no $WREN_TOP"
	# stdout is kept (TAP for vmtest) and echoed on the console; stderr
	# goes to the console, i.e. the guest's log on the host.
	set -o pipefail
	if [ -x "$WREN_SCRIPT" ]; then
		"$WREN_SCRIPT" </dev/null | $bb tee "$share/guest$guest.out" >/dev/console
	else
		/bin/bash "$WREN_SCRIPT" </dev/null | $bb tee "$share/guest$guest.out" >/dev/console
	fi
	rc=$?
	say "script exited with $rc"
	# The whole kernel log, for post-mortems (the console only gets
	# warnings and worse: the kernel runs with "quiet").
	$bb dmesg >"$share/guest$guest.dmesg" 2>/dev/null
	echo "$rc" >"$share/guest$guest.rc"
	power_off
}

if [ "${1:-}" = stage2 ]; then
	shift
	stage2 "$@"
else
	stage1
fi
