#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Host check of the DKMS package `make deb` builds (scripts/deb/build.sh),
# without installing anything on the host: no dpkg -i, no /usr/src, no
# /var/lib/dkms, no /lib/modules.  It checks the control fields, that the
# file list is exactly the dkms source tree plus the docs, the maintainer
# scripts (shellcheck, and what they run, with dkms stubbed), lintian, and
# that the source as packaged builds with dkms and is removed again, in
# private dkms trees under $BUILD/deb/check.
# TAP to stdout and to TAPFILE.
#
# usage: check/deb.sh [TAPFILE [KVER]]   (default $BUILD/check/deb.tap; KVER
#                                        of the dkms build, default $KVER, 6.1)
. "$(dirname "$0")/../lib/common.sh"
set +e # failures are handled here, one by one
# shellcheck source=scripts/lib/check.sh
. "$SCRIPTS/lib/check.sh"

tap=${1:-$BUILD/check/deb.tap}
kver=${2:-${KVER:-6.1}}
work=$BUILD/deb/check
rm -rf "$work"
mkdir -p "$work" "$(dirname "$tap")"

name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$TOP/dkms.conf")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/dkms.conf")
pkg=$name-dkms
modules="wren wren_peer_mem wren_ib"


# field NAME: one field of the package's control file
field() { dpkg-deb --field "$deb" "$1"; }

check_control() {
	set -e
	[ "$(field Package)" = "$pkg" ]
	case $(field Version) in "$ver"-[0-9]*) ;; *) echo "Version $(field Version) is not $ver-REV"; exit 1 ;; esac
	[ "$(field Architecture)" = all ]
	field Depends | grep -Eq '(^|, )dkms( \(>= [0-9.]+\))?(,|$)'
	[ "$(field Section)" = kernel ]
	field Maintainer | grep -q '<.*@.*>'
	# dpkg-deb checked the syntax; the description names every module.
	for m in $modules; do field Description | grep -q "$m\.ko"; done
	echo "control fields ok"
}

# The package holds the dkms tree and the docs, nothing more or less.
check_files() {
	set -e
	TOP=$TOP "$SCRIPTS/kernel/sync.sh" "$work/expect/usr/src/$name-$ver" --dkms >/dev/null
	{
		(cd "$work/expect" && find usr -type f)
		echo "usr/share/doc/$pkg/copyright"
		echo "usr/share/doc/$pkg/changelog.Debian.gz"
		echo "usr/share/lintian/overrides/$pkg"
	} | sed 's|^|./|' | LC_ALL=C sort >"$work/files.expect"
	dpkg-deb --contents "$deb" >"$work/contents"
	awk '$1 ~ /^-/ { print $6 }' "$work/contents" | LC_ALL=C sort >"$work/files.got"
	diff -u "$work/files.expect" "$work/files.got"
	# root-owned, no links or device files, modes 0644/0755; the one
	# executable is dkms.conf's PRE_BUILD script (dkms skips it otherwise)
	awk -v x="./usr/src/$name-$ver/scripts/kernel-config.sh" '
		$2 != "root/root" { print "bad owner:", $0; bad = 1 }
		$6 == x && $1 != "-rwxr-xr-x" { print "not executable:", $0; bad = 1 }
		$6 != x && $1 !~ /^(-rw-r--r--|drwxr-xr-x)$/ { print "bad entry:", $0; bad = 1 }
		END { exit bad }' "$work/contents"
	# no build product travels (a stale wren_config.h would pin the
	# probe answers of the kernel the package was built on)
	if grep -E '\.(o|ko|mod|mod\.c|cmd)$|wren_config\.h' "$work/files.got"; then exit 1; fi
	echo "$(wc -l <"$work/files.got") files, as expected"
}

check_dkms_conf() {
	set -e
	dpkg-deb --extract "$deb" "$work/root"
	conf=$work/root/usr/src/$name-$ver/dkms.conf
	cmp "$TOP/dkms.conf" "$conf"
	grep -qx "PACKAGE_NAME=\"$name\"" "$conf"
	grep -qx "PACKAGE_VERSION=\"$ver\"" "$conf"
	for m in $modules; do grep -qE "^BUILT_MODULE_NAME\[[0-9]+\]=\"$m\"$" "$conf"; done
	grep -qx 'AUTOINSTALL="yes"' "$conf"
	# dkms adds -j<CPUs> only to a MAKE that starts with "make"
	grep -qE '^MAKE\[0\]="make ' "$conf"
	# shellcheck disable=SC2016 # dkms expands it, not this shell
	grep -qxF 'PRE_BUILD="scripts/kernel-config.sh ${kernel_source_dir} wren_config.h"' "$conf"
	echo "dkms.conf ok"
}

check_scripts() {
	set -e
	dpkg-deb --control "$deb" "$work/control"
	for s in postinst prerm; do
		f=$work/control/$s
		[ "$(stat -c %a "$f")" = 755 ]
		if grep -n '@[A-Z]*@' "$f"; then exit 1; fi
		grep -qx "DKMS_NAME=$name" "$f"
		grep -qx "DKMS_VERSION=$ver" "$f"
		shellcheck -s sh "$f"
	done
	(cd "$work/root" && md5sum -c --quiet "$work/control/md5sums")
	# every shipped file has its md5sum (dpkg --verify relies on it)
	[ "$(wc -l <"$work/control/md5sums")" -eq "$(find "$work/root" -type f | wc -l)" ]
	echo "maintainer scripts ok"
}

# A stub dkms that logs its arguments; `dkms status` prints $STUB_STATUS.
make_stubs() {
	mkdir -p "$work/stub"
	cat >"$work/stub/dkms" <<'STUB'
#!/bin/sh
echo "dkms $*" >>"$STUB_LOG"
[ "$1" = status ] && [ -n "${STUB_STATUS:-}" ] && echo "$STUB_STATUS"
exit 0
STUB
	cat >"$work/stub/common.postinst" <<'STUB'
#!/bin/sh
echo "common.postinst $# $*" >>"$STUB_LOG"
STUB
	chmod 0755 "$work/stub/dkms" "$work/stub/common.postinst"
	# The only change to the packaged postinst is where common.postinst is.
	sed "s|/usr/lib/dkms/common.postinst|$work/stub/common.postinst|g" \
		"$work/control/postinst" >"$work/stub/postinst"
	chmod 0755 "$work/stub/postinst"
}

# run SCRIPT ARGS...: log of what it ran (empty when nothing), its rc last
run() {
	: >"$work/stub.log"
	rc=0
	STUB_LOG=$work/stub.log PATH=$work/stub:$PATH "$@" >/dev/null 2>&1 || rc=$?
	cat "$work/stub.log"
	echo "rc=$rc"
}

expect() { # expect WHAT GOT WANT
	if [ "$2" != "$3" ]; then
		printf '%s:\n got:  %s\n want: %s\n' "$1" "$2" "$3"
		return 1
	fi
}

check_postinst() {
	set -e
	grep -q '^	/usr/lib/dkms/common.postinst ' "$work/control/postinst"
	# the helper the postinst calls is the one Debian's dkms ships
	dpkg -S /usr/lib/dkms/common.postinst | grep -q '^dkms:'
	p=$work/stub/postinst
	expect "first install" "$(run "$p" configure)" \
		"$(printf 'common.postinst 5 %s %s /usr/share/%s  \nrc=0' "$name" "$ver" "$pkg")"
	expect "upgrade from 0.0.9-1" "$(run "$p" configure 0.0.9-1)" \
		"$(printf 'common.postinst 5 %s %s /usr/share/%s  0.0.9-1\nrc=0' "$name" "$ver" "$pkg")"
	for a in abort-upgrade abort-remove abort-deconfigure; do
		expect "$a" "$(run "$p" "$a" 0.0.9-1)" "rc=0"
	done
	expect "unknown argument" "$(run "$p" bogus)" "rc=1"
	echo "postinst runs common.postinst (dkms add, build, install) on configure only"
}

check_prerm() {
	set -e
	p=$work/control/prerm
	added="$name/$ver: added"
	for a in remove upgrade deconfigure; do
		expect "$a while dkms knows it" "$(STUB_STATUS=$added run "$p" "$a")" \
			"$(printf 'dkms status -m %s -v %s\ndkms remove -m %s -v %s --all\nrc=0' \
				"$name" "$ver" "$name" "$ver")"
		expect "$a after dkms forgot it" "$(run "$p" "$a")" \
			"$(printf 'dkms status -m %s -v %s\nrc=0' "$name" "$ver")"
	done
	expect "failed-upgrade" "$(STUB_STATUS=$added run "$p" failed-upgrade 0.0.9-1)" "rc=0"
	expect "unknown argument" "$(run "$p" bogus)" "rc=1"
	echo "prerm runs dkms remove --all on remove, upgrade and deconfigure"
}

check_lintian() {
	if ! command -v lintian >/dev/null; then
		echo "lintian is not installed (scripts/deps/deb.sh)" >"$work/lintian.skip"
		return 77
	fi
	# lintian's own "running with root privileges" notice is no finding
	rc=0
	lintian --fail-on error,warning -I --pedantic "$deb" >"$work/lintian.out" 2>&1 || rc=$?
	grep -v 'running with root privileges' "$work/lintian.out"
	return "$rc"
}

# The source as packaged, through dkms add, build, mktarball and remove
# --all in private source and dkms trees, against KVER's headers: the
# archive the package boot's guests install (deb/dkms-binaries.sh, which
# caches it by the package's bytes, so the apps layer does not build it
# again).
check_dkms_build() {
	set -e
	tgz=$("$SCRIPTS/deb/dkms-binaries.sh" "$deb" "$kver")
	tar -tzf "$tgz" | grep '\.ko$'
	echo "built $modules for $kver, archived them and removed the build: $tgz"
}

# The rdma-core source tree deb/rdma-core.sh prepares (the package build
# itself is too long for this check): the Debian package set an operator
# needs, under bookworm's names, versioned above bookworm's, with libwren.
check_rdma_core_src() {
	set -e
	s=$("$SCRIPTS/deb/rdma-core.sh")
	v=$(cd "$s" && dpkg-parsechangelog -S Version)
	[ "$(cd "$s" && dpkg-parsechangelog -S Distribution)" = bookworm ]
	sed -n 's/^Package: //p' "$s/debian/control" >"$work/rdma-core.packages"
	for p in libibverbs1 ibverbs-providers librdmacm1 ibverbs-utils rdmacm-utils \
		rdma-core python3-pyverbs; do
		grep -qx "$p" "$work/rdma-core.packages" || { echo "no package $p"; exit 1; }
		# what apt would install for it today, from bookworm (44.0-2)
		old=$(apt-cache policy "$p" 2>/dev/null | sed -n 's/^  Candidate: //p')
		case $old in "" | "(none)") continue ;; esac
		dpkg --compare-versions "$v" gt "$old" || { echo "$p: $v does not replace $old"; exit 1; }
		echo "$p $v replaces $old"
	done
	if grep -n 't64' "$s/debian/control"; then exit 1; fi
	grep -qx 'add_subdirectory(providers/wren)' "$s/CMakeLists.txt"
	grep -q 'rdma_provider(wren' "$s/providers/wren/CMakeLists.txt"
	[ -s "$s/kernel-headers/rdma/wren-abi.h" ]
	# libwren's files fall under ibverbs-providers' globs
	grep -qx 'usr/lib/\*/libibverbs/lib\*-rdmav\*.so' "$s/debian/ibverbs-providers.install"
	grep -qx 'etc/libibverbs.d/' "$s/debian/ibverbs-providers.install"
	[ ! -e "$s/debian/compat" ]
}

{
	echo "1..10"
	start=$(date +%s)
	"$SCRIPTS/deps/deb.sh" >"$work/deps.log" 2>&1 || echo "# deps/deb.sh failed, see $work/deps.log"
	deb=$("$SCRIPTS/deb/build.sh" 2>"$work/build.log") && cp "$deb" "$work/first.deb" &&
		deb=$("$SCRIPTS/deb/build.sh" 2>>"$work/build.log") && cmp "$work/first.deb" "$deb" >>"$work/build.log" 2>&1
	check_result $? "make deb builds $pkg, twice byte-identical" "$work/build.log"
	[ -f "${deb:-/nonexistent}" ] || deb=$work/first.deb
	(check_control) >"$work/control.log" 2>&1
	check_result $? "control: Package, Version $ver-REV, Architecture all, Depends dkms" "$work/control.log"
	(check_files) >"$work/files.log" 2>&1
	check_result $? "files: the dkms source tree under /usr/src/$name-$ver and the docs, root-owned" "$work/files.log"
	(check_dkms_conf) >"$work/dkms-conf.log" 2>&1
	check_result $? "packaged dkms.conf is the tree's, names $modules" "$work/dkms-conf.log"
	(check_scripts) >"$work/scripts.log" 2>&1
	check_result $? "maintainer scripts: 0755, filled in, shellcheck clean, md5sums match" "$work/scripts.log"
	make_stubs 2>/dev/null
	(check_postinst) >"$work/postinst.log" 2>&1
	check_result $? "postinst configure runs dkms's common.postinst (add, build, install), nothing else" "$work/postinst.log"
	(check_prerm) >"$work/prerm.log" 2>&1
	check_result $? "prerm remove/upgrade/deconfigure run dkms remove --all" "$work/prerm.log"
	check_lintian >"$work/lintian.log" 2>&1
	rc=$?
	if [ "$rc" -eq 77 ]; then
		check_result 77 "lintian --pedantic: no error or warning" "$work/lintian.skip"
	else
		check_result "$rc" "lintian --pedantic: no error or warning" "$work/lintian.log"
	fi
	(check_dkms_build) >"$work/dkms-build.log" 2>&1
	check_result $? "packaged source: dkms add, build ($kver), mktarball, remove --all in private trees" "$work/dkms-build.log"
	(check_rdma_core_src) >"$work/rdma-core-src.log" 2>&1
	check_result $? "rdma-core source: Debian's packages, bookworm names, version above 44, libwren registered" \
		"$work/rdma-core-src.log"
	echo "# deb-check: $(($(date +%s) - start)) s"
	[ "$check_failed" -eq 0 ]
} | tee "$tap.tmp"
mv "$tap.tmp" "$tap"
! grep -q '^not ok' "$tap"
