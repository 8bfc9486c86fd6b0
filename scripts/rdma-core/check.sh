#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-provider`: libwren's host-side checks, as TAP in
# $BUILD/check/provider.tap:
#   - the WQE/CQE encoding unit test (providers/wren/tests, compiled
#     against include/linux/wren with ASan/UBSan), one TAP line per case;
#   - the data path test (providers/wren/tests/datapath_test.c: the
#     provider posting into rings in plain memory, the test playing the
#     NIC), compiled against the rdma-core build;
#   - rdma-core 56.1 builds with libwren (-Werror) and the result is what
#     the guests need: the provider plugin and its driver file, pyverbs,
#     and Debian's perftest resolving libibverbs from the build.
. "$(dirname "$0")/../lib/common.sh"
set +e # failures are handled here, one by one

out=$BUILD/check
mkdir -p "$out" "$BUILD/provider"
tap=$out/provider.tap
log=$out/provider-build.log

# TAP through selftests/lib/tap.sh; the C tests' own TAP (kselftest.h,
# selftests/lib/tap.h) is relayed into this file, renumbered.
# shellcheck disable=SC1091 # ours
. "$TOP/selftests/lib/tap.sh"
TAP_PREFIX="provider: "
"$TOP/scripts/kernel/kselftest-tree.sh" "$BUILD/kselftest-src" || exit 1
tap_cflags="-I$TOP/selftests/lib -I$BUILD/kselftest-src"
result() {
	if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi
}

# shellcheck disable=SC1091 # rdma-env.sh is ours, checked on its own
{
	# The unit test prints its own TAP; renumber it into this file.
	bin=$BUILD/provider/wqe_test
	# shellcheck disable=SC2086 # $tap_cflags is a list of flags
	if gcc -std=gnu11 -Wall -Wextra -Werror -g \
		-fsanitize=address,undefined -fno-sanitize-recover=all \
		-I"$TOP/include" -I"$TOP/providers/wren" $tap_cflags \
		-o "$bin" "$TOP/providers/wren/tests/wqe_test.c" >"$log" 2>&1; then
		"$bin" >"$BUILD/provider/wqe_test.tap" 2>&1
		rc=$?
		tap_relay "wqe: " "$BUILD/provider/wqe_test.tap"
		result "$rc" "wqe unit test exits 0"
	else
		cat "$log" >&2
		result 1 "wqe unit test compiles warning-free"
	fi

	if "$TOP/scripts/rdma-core/build.sh" >>"$log" 2>&1; then
		result 0 "rdma-core 56.1 builds with libwren (-Werror)"
	else
		tail -30 "$log" >&2
		result 1 "rdma-core 56.1 builds with libwren (-Werror)"
	fi
	R=$BUILD/rdma-core
	# The data path against rings and a doorbell page in plain memory,
	# compiled with rdma-core's own warning flags and the sanitizers.
	bin=$BUILD/provider/datapath_test
	# shellcheck disable=SC2086 # $tap_cflags is a list of flags
	if gcc -std=gnu11 -O1 -g -Werror -Wall -Wextra -Wno-sign-compare \
		-Wno-unused-parameter -Wmissing-prototypes -Wmissing-declarations \
		-Wwrite-strings -Wformat=2 -Wshadow -Wstrict-prototypes \
		-Wold-style-definition -Wredundant-decls \
		-fsanitize=address,undefined -fno-sanitize-recover=all \
		-include "$R/include/config.h" -I"$R/include" -I"$TOP/include" \
		-I"$TOP/providers/wren" $tap_cflags -o "$bin" \
		"$TOP/providers/wren/tests/datapath_test.c" -L"$R/lib" -libverbs \
		-lpthread -Wl,-rpath,"$(readlink -f "$R/lib")" >>"$log" 2>&1; then
		"$bin" >"$BUILD/provider/datapath_test.tap" 2>&1
		rc=$?
		tap_relay "datapath: " "$BUILD/provider/datapath_test.tap"
		result "$rc" "datapath test exits 0"
	else
		tail -30 "$log" >&2
		result 1 "datapath test compiles warning-free against the build"
	fi

	# Providers export nothing (a constructor registers them); what ties
	# one to its libibverbs is the private ABI it imports.
	readelf -W --dyn-syms "$R/lib/libwren-rdmav34.so" 2>/dev/null |
		grep -q 'verbs_register_driver_34@IBVERBS_PRIVATE_34'
	result $? "libwren-rdmav34.so registers through IBVERBS_PRIVATE_34"
	grep -q "^driver /.*/lib/libwren$" \
		"$R/etc/libibverbs.d/wren.driver" 2>/dev/null
	result $? "etc/libibverbs.d/wren.driver names the in-place plugin"

	(. "$TOP/selftests/lib/rdma-env.sh" && rdma_env_check) >>"$log" 2>&1
	result $? "ibv_devinfo and perftest's ib_write_bw load the build's libibverbs"
	(. "$TOP/selftests/lib/rdma-env.sh" &&
	 python3 -c 'import pyverbs.device, pyverbs.qp') >>"$log" 2>&1
	result $? "pyverbs imports from the build"
	# libibverbs loads providers only when sysfs has RDMA devices, which
	# the host lacks; load the plugin the way it would (RTLD_NOW, over
	# the build's libibverbs) so that any unresolved symbol shows here.
	python3 - "$R/lib" >>"$log" 2>&1 <<'PY'
import ctypes, os, sys
lib = sys.argv[1]
ctypes.CDLL(os.path.join(lib, 'libibverbs.so.1'), mode=os.RTLD_NOW | os.RTLD_GLOBAL)
ctypes.CDLL(os.path.join(lib, 'libwren-rdmav34.so'), mode=os.RTLD_NOW)
PY
	result $? "libwren-rdmav34.so loads over the build's libibverbs (all symbols resolve)"
	tap_done
} >"$tap"
rc=$?

cat "$tap"
exit $rc
