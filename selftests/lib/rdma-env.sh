# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=sh
#
# Use the bench's rdma-core build (rdma-core 56.1 with libwren, made by
# `make rdma-core`) instead of any libibverbs installed on the machine:
#
#   . "$WREN_TOP/selftests/lib/rdma-env.sh"    # host or guest
#   rdma_env_check || exit 1                   # optional: says what is wrong
#
# Sets LD_LIBRARY_PATH (libibverbs, librdmacm, ... of the build), PATH (its
# ibv_devinfo, ibv_rc_pingpong, rping, ...) and PYTHONPATH (pyverbs).
# Debian's perftest binaries (/usr/bin/ib_write_bw, ...) then run against
# that libibverbs unchanged.
#
# No provider variable is needed: the build is configured with IN_PLACE,
# which compiles the build's own etc/libibverbs.d into libibverbs as its
# config directory (rdma-core 56.1 reads IBV_CONFIG_DIR only at build
# time), and every *.driver file there names its provider by absolute path.
# RDMAV_DRIVERS is left alone: it only adds providers.

rdma_env_top=${WREN_TOP:-${TOP:-$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)}}
WREN_RDMA_CORE=
if [ -f "$rdma_env_top/build/rdma-core.env" ]; then
	WREN_RDMA_CORE=$(sed -n 's/^WREN_RDMA_CORE=//p' "$rdma_env_top/build/rdma-core.env")
fi
[ -n "$WREN_RDMA_CORE" ] || WREN_RDMA_CORE=$rdma_env_top/build/rdma-core
export WREN_RDMA_CORE

export LD_LIBRARY_PATH="$WREN_RDMA_CORE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$WREN_RDMA_CORE/bin:$PATH"
export PYTHONPATH="$WREN_RDMA_CORE/python${PYTHONPATH:+:$PYTHONPATH}"

# Check that the build is there and that programs would load its
# libibverbs and find libwren; prints what is wrong and returns 1.
rdma_env_check() {
	if [ ! -f "$WREN_RDMA_CORE/lib/libibverbs.so.1" ]; then
		echo "rdma-env: no rdma-core build at $WREN_RDMA_CORE (run make rdma-core)" >&2
		return 1
	fi
	if [ ! -f "$WREN_RDMA_CORE/etc/libibverbs.d/wren.driver" ] ||
	   [ ! -f "$WREN_RDMA_CORE/lib/libwren-rdmav34.so" ]; then
		echo "rdma-env: the build at $WREN_RDMA_CORE has no libwren" >&2
		return 1
	fi
	for rdma_env_bin in "$WREN_RDMA_CORE/bin/ibv_devinfo" /usr/bin/ib_write_bw; do
		[ -x "$rdma_env_bin" ] || continue
		for rdma_env_lib in libibverbs.so.1 librdmacm.so.1; do
			rdma_env_ldd=$(ldd "$rdma_env_bin" 2>/dev/null | grep "$rdma_env_lib =>")
			[ -z "$rdma_env_ldd" ] && continue
			case $rdma_env_ldd in
			*"=> $WREN_RDMA_CORE/lib/$rdma_env_lib "*) ;;
			*)
				echo "rdma-env: $rdma_env_bin does not load $WREN_RDMA_CORE/lib/$rdma_env_lib" >&2
				return 1 ;;
			esac
		done
	done
	return 0
}
