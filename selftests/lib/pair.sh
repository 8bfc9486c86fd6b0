# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# For guest tests run by both guests at once: who we are, where the peer's
# results are, and a barrier through marker files in the results share.
# Each test names its markers with its own TAG, so tests can share a boot.
# Needs tap.sh and wait.sh.
#
# pair_init TAG LABEL: sets me, peer, nguests, res, peer_res; LABEL names the
# checks bail() skips ("UDP" -> "remaining UDP checks").
pair_init() {
	pair_tag=$1
	pair_label=$2
	me=${WREN_GUEST_INDEX:-0}
	# With more than two guests (WREN_NGUESTS) every other guest's peer
	# is guest 0, as vmrun.sh sets WREN_PEER_IP.
	peer=$((me == 0 ? 1 : 0))
	nguests=${WREN_NGUESTS:-2}
	res=$WREN_RESULTS
	# shellcheck disable=SC2034 # what callers read
	peer_res=$(dirname "$WREN_RESULTS")/g$peer
}

# guest_res I: guest I's results directory.
guest_res() {
	echo "$(dirname "$WREN_RESULTS")/g$1"
}

# bail DESC [DIAG]: fail, skip what is left of the plan, tell the peer.
bail() {
	not_ok "$1"
	[ -n "${2:-}" ] && diag "$2"
	while [ "$TAP_COUNT" -lt "$TAP_PLANNED" ]; do
		skip "remaining $pair_label checks" "setup failed"
	done
	: >"$res/abort-$pair_tag"
	# The next test of the boot loads the modules itself, and fails at
	# once ("File exists") if a test that gave up left them in.
	if declare -F wren_unload >/dev/null; then
		wren_unload >/dev/null 2>&1
	fi
	tap_done
	exit 1
}

# barrier NAME [SECONDS]: every guest of the boot got here; bails if one
# gave up or did not come within SECONDS (default 600).
barrier() {
	local i d
	: >"$res/barrier-$pair_tag-$1"
	for ((i = 0; i < nguests; i++)); do
		[ "$i" = "$me" ] && continue
		d=$(guest_res "$i")
		wait_for "${2:-600}" test -e "$d/barrier-$pair_tag-$1" -o -e "$d/abort-$pair_tag" ||
			bail "peer reached barrier $1" "guest $i did not come"
		[ ! -e "$d/abort-$pair_tag" ] || bail "peer reached barrier $1" "guest $i gave up"
	done
}
