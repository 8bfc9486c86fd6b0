#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Stage 1 of a bench guest: /init of the tiny initramfs (busybox only).
# It loads the virtio/9p modules, mounts the host's root read-only over 9p,
# lays writable tmpfs-backed overlays over the places a running system
# writes to, and hands over to stage 2 (guest-run.sh in the repo, run by the
# host's bash) with switch_root.  Everything that may change often lives in
# stage 2, so the cached initramfs rarely needs rebuilding.
/bin/busybox mkdir -p /bin /sbin /proc /sys /dev /newroot /ovl
/bin/busybox --install -s /bin
export PATH=/bin:/sbin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

die() {
	echo "wren-init: $*" >&2
	# PID 1 must not exit (that panics); power off from here instead.
	poweroff -f
	while :; do sleep 60; done
}

# Our parameters carry a dot so the kernel keeps them out of init's env.
guest=
for w in $(cat /proc/cmdline); do
	case "$w" in
	wren.guest=*) guest=${w#wren.guest=} ;;
	esac
done
[ -n "$guest" ] || die "no wren.guest= on the kernel command line"

for m in $(cat /modules.order); do
	insmod "/modules/$m" || die "insmod $m failed"
done

opts=trans=virtio,version=9p2000.L,msize=262144
mount -t 9p -o "$opts,ro,cache=loose" hostroot /newroot ||
	die "cannot mount the host root (9p tag hostroot)"

# Writable places: an overlay with a tmpfs upper layer keeps the host's
# files visible (/etc/passwd, /var/lib/..., a script under /tmp) while
# writes stay in the guest.
mount -t tmpfs -o mode=0755 ovl /ovl
for d in etc var root home tmp; do
	[ -d "/newroot/$d" ] || continue
	mkdir -p "/ovl/$d/upper" "/ovl/$d/work"
	mount -t overlay overlay \
		-o "lowerdir=/newroot/$d,upperdir=/ovl/$d/upper,workdir=/ovl/$d/work" \
		"/newroot/$d" || die "overlay on /$d failed"
done
mount -t tmpfs -o mode=0755 run /newroot/run
mkdir -p /newroot/run/wren/results
mount -t 9p -o "$opts,rw,cache=none" results /newroot/run/wren/results ||
	die "cannot mount the results share (9p tag results)"

conf=/newroot/run/wren/results/guest$guest.env
[ -f "$conf" ] || die "missing $conf"
stage2=$(sed -n 's/^WREN_STAGE2=//p' "$conf")
[ -n "$stage2" ] && [ -f "/newroot$stage2" ] || die "no stage 2 script ($stage2)"

mount --move /dev /newroot/dev
mount --move /sys /newroot/sys
mount --move /proc /newroot/proc
exec switch_root /newroot /bin/bash "$stage2" "$guest"
