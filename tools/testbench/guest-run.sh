#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Stage 2 of a bench guest, PID 1 after switch_root, run by the host's bash
# from the read-only 9p root.  Finishes the system setup (devices, modules,
# hostname, network), runs the requested script with the bench environment,
# writes its exit status to the results share and powers the guest off.
set -u
guest=${1:?guest index}
share=/run/wren/results
# shellcheck disable=SC1090 # written by vmrun.sh for this guest
. "$share/guest$guest.env"
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LANG=C.UTF-8

say() { echo "wren-guest$guest: $*" >/dev/console; }

power_off() {
	sync
	# PID 1 stays alive while the kernel powers off: if init exited first,
	# the kernel would panic with "Attempted to kill init".
	if [ -x /bin/busybox ]; then
		/bin/busybox poweroff -f
	fi
	echo o >/proc/sysrq-trigger
	while :; do sleep 60; done
}

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
	mount -t configfs configfs /sys/kernel/config 2>/dev/null
	mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
}

setup_modules() {
	# The guest kernel's modules (extracted from the .deb, depmod'ed on the
	# host) replace whatever the host has for this ABI, so modprobe works.
	local dst=/usr/lib/modules/$WREN_KABI
	if [ ! -d "$dst" ]; then
		mount -t tmpfs -o mode=0755 modules /usr/lib/modules
		mkdir -p "$dst"
	fi
	mount --bind "$WREN_KMODDIR" "$dst"
}

setup_names() {
	local i
	hostname "guest$guest"
	echo "guest$guest" >/etc/hostname
	for ((i = 0; i < WREN_NGUESTS; i++)); do
		echo "10.0.1.$((i + 1)) guest$i"
	done >>/etc/hosts
}

# The virtio NIC is found by driver, not by name: the Wren NIC may probe
# first once its driver exists.
virtio_ifname() {
	local n
	for n in /sys/class/net/*; do
		[ "$(readlink "$n/device/driver")" ] || continue
		case "$(readlink "$n/device/driver")" in
		*/virtio_net) echo "${n##*/}"; return 0 ;;
		esac
	done
	return 1
}

setup_net() {
	local ifc
	ip link set lo up
	ifc=$(virtio_ifname) || { say "no virtio-net interface"; return 1; }
	ip addr add "$WREN_VIRTIO_IP/24" dev "$ifc"
	ip link set "$ifc" up
	export WREN_VIRTIO_IFNAME=$ifc
}

setup_dev
setup_modules || say "modules bind failed"
setup_names
setup_net || { echo 1 >"$share/guest$guest.rc"; power_off; }

mkdir -p "$WREN_RESULTS"
read -r up _ </proc/uptime
echo "$up" >"$share/guest$guest.boot"
say "up in ${up}s, running $WREN_SCRIPT"

export WREN_GUEST_INDEX WREN_NGUESTS WREN_PEER_VIRTIO_IP WREN_PEER_IP \
	WREN_VIRTIO_IP WREN_IP WREN_RESULTS WREN_TOP WREN_KABI WREN_KVER
cd "$WREN_TOP" || exit 1
set -o pipefail
# stdout is kept (TAP for vmtest) and echoed on the console; stderr goes to
# the console, i.e. the guest's log on the host.
if [ -x "$WREN_SCRIPT" ]; then
	"$WREN_SCRIPT" </dev/null | tee "$share/guest$guest.out" >/dev/console
else
	bash "$WREN_SCRIPT" </dev/null | tee "$share/guest$guest.out" >/dev/console
fi
rc=${PIPESTATUS[0]}
say "script exited with $rc"
echo "$rc" >"$share/guest$guest.rc"
power_off
