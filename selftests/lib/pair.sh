# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# For guest tests run by both guests at once: who we are, where the peer's
# results are, and a barrier through marker files in the results share.
# Each test names its markers with its own TAG, so tests can share a boot.
# Needs tap.sh and wait.sh.
#
# pair_init TAG LABEL: sets me, peer, res, peer_res; LABEL names the
# checks bail() skips ("UDP" -> "remaining UDP checks").
pair_init() {
	pair_tag=$1
	pair_label=$2
	me=${WREN_GUEST_INDEX:-0}
	peer=$((1 - me))
	res=$WREN_RESULTS
	peer_res=$(dirname "$WREN_RESULTS")/g$peer
}

# bail DESC [DIAG]: fail, skip what is left of the plan, tell the peer.
bail() {
	not_ok "$1"
	[ -n "${2:-}" ] && diag "$2"
	while [ "$TAP_COUNT" -lt "$TAP_PLANNED" ]; do
		skip "remaining $pair_label checks" "setup failed"
	done
	: >"$res/abort-$pair_tag"
	tap_done
	exit 1
}

# barrier NAME [SECONDS]: both guests got here; bails if the peer gave up
# or did not come within SECONDS (default 600).
barrier() {
	: >"$res/barrier-$pair_tag-$1"
	wait_for "${2:-600}" test -e "$peer_res/barrier-$pair_tag-$1" -o -e "$peer_res/abort-$pair_tag" ||
		bail "peer reached barrier $1" "the peer did not come"
	[ ! -e "$peer_res/abort-$pair_tag" ] || bail "peer reached barrier $1" "the peer gave up"
}
