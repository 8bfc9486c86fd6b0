#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Host test of dcb/wren-qos, no guest: fake dcb, ethtool, devlink, ip and
# rdma (dcb/tests/fake, state in a temporary directory) stand in for the
# tools and a Wren port.  Each shipped profile applies and leaves the
# right state, a second apply runs no command that changes anything, bad
# profiles change nothing and exit 2 naming the key, missing features
# fail only the profiles that need them (exit 3), a change failing midway
# is undone, a dcb set that iproute2 6.1's stale ACK fails is read back
# (done if it took, run once more if not), and `show` prints the table;
# then the profile parser's unit test (test_profile.py).  TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck disable=SC1091 # ours
. "$top/selftests/lib/tap.sh"

qos=$top/dcb/wren-qos
fake=$here/fake
# The fakes and the test's own Python run on wren-qos's interpreter (its
# shebang), or else on the one behind python3, resolved once: a run makes
# ~600 fake tool calls, and a python3 on PATH may be a shim (pyenv's costs
# ~200 ms a start, twenty times Python's own) or a slower build (pyenv's
# 3.11 here spends half as much again as Debian's on each call).
read -r python <"$qos"
python=${python#\#!}
[ -x "$python" ] || python=$(python3 -c 'import sys; print(sys.executable)')
[ -x "$python" ] || python=python3
export WREN_QOS_FAKE_PYTHON=$python
export PATH="$fake:$PATH"
WREN_QOS_FAKE=$(mktemp -d "${TMPDIR:-/tmp}/wren-qos.XXXXXX")
export WREN_QOS_FAKE
# Bytecode (wren-qos's, the fake's, the stdlib's) cached in the temporary
# directory for the whole run: with PYTHONDONTWRITEBYTECODE set, or a
# stdlib installed without .pyc (pyenv's here), each of the hundreds of
# Python starts would compile it again.  The fakes pass -X pycache_prefix
# themselves, as they run with -E.
export PYTHONPYCACHEPREFIX=$WREN_QOS_FAKE/pyc
unset PYTHONDONTWRITEBYTECODE
trap 'rm -rf "$WREN_QOS_FAKE"' EXIT
profiles=$top/dcb/profiles
work=$WREN_QOS_FAKE/profiles
mkdir -p "$work"

# The fake's power-on state, written once (fakenic.py init); fresh
# copies it.
"$python" "$fake/fakenic.py" init &&
	cp "$WREN_QOS_FAKE/state.json" "$WREN_QOS_FAKE/init.json" || exit 1

# fresh [FEATURES]: the port at power-on, no failures, an empty log.
fresh() {
	rm -f "$WREN_QOS_FAKE"/count.* "$WREN_QOS_FAKE/fail"
	echo "${1:-}" >"$WREN_QOS_FAKE/features"
	cp "$WREN_QOS_FAKE/init.json" "$WREN_QOS_FAKE/state.json"
	: >"$WREN_QOS_FAKE/log"
}

# st EXPR: a Python expression over the fake's state s, printed.
st() {
	"$python" -c 'import json, sys
s = json.load(open(sys.argv[1] + "/state.json"))
print(eval(sys.argv[2]))' "$WREN_QOS_FAKE" "$1"
}

state_sum() { md5sum <"$WREN_QOS_FAKE/state.json"; }

# Commands in the log that change the device.
sets() {
	grep -E '^dcb .*( set | add | del | replace )|^ethtool -A |^ethtool --set-tunable|^devlink dev param set' \
		"$WREN_QOS_FAKE/log" || true
}

# run PROFILE [NETDEV]: apply; OUT and RC are set, the log starts empty.
run() {
	: >"$WREN_QOS_FAKE/log"
	RC=0
	OUT=$("$qos" apply "$1" "${2:-eth1}" 2>&1) || RC=$?
}

# expect DESC EXPR: the state expression is True.
expect() {
	local got
	got=$(st "$2" 2>&1)
	if [ "$got" = True ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "$2: $got" "$OUT"
	fi
}

# idempotent NAME: a second apply changes nothing and says so.
idempotent() {
	run "$1"
	if [ "$RC" = 0 ] && grep -q "nothing to change" <<<"$OUT" &&
		[ -z "$(sets)" ]; then
		ok "$1: a second apply runs no set command and says so"
	else
		not_ok "$1: a second apply runs no set command and says so"
		diag "rc $RC" "$OUT" "$(sets)"
	fi
}

# variant NAME KEY LINE: lossless.conf with KEY's line replaced by LINE
# (or LINE added when lossless.conf has no KEY line).
variant() {
	local f=$work/$1.conf
	if grep -q "^$2 =" "$profiles/lossless.conf"; then
		awk -v k="$2" -v l="$3" '$1 == k && $2 == "=" && !done { print l; done = 1; next } { print }' \
			"$profiles/lossless.conf" >"$f"
	else
		{ cat "$profiles/lossless.conf"; echo "$3"; } >"$f"
	fi
	echo "$f"
}

# refused DESC KEY PROFILE [WANT_RC]: apply exits 2 (or WANT_RC), names
# KEY, runs no set command and leaves the state as it was.
refused() {
	local desc=$1 key=$2 prof=$3 want=${4:-2} before
	before=$(state_sum)
	run "$prof"
	if [ "$RC" = "$want" ] && grep -q -- "$key" <<<"$OUT" &&
		[ -z "$(sets)" ] && [ "$before" = "$(state_sum)" ]; then
		ok "$desc: exit $want naming $key, nothing changed"
	else
		not_ok "$desc: exit $want naming $key, nothing changed"
		diag "rc $RC" "$OUT" "$(sets)"
	fi
}

# 18 of them test_profile.py: its 17 tests and the check that it ran them.
plan 73

# --- the profiles themselves ---------------------------------------
for p in lossless ecn-only default; do
	check "check $p: the profile parses and passes every check" "$qos" check "$p"
done
out=$("$qos" list)
if grep -q '^lossless ' <<<"$out" && grep -q '^ecn-only ' <<<"$out" &&
	grep -q '^default ' <<<"$out"; then
	ok "list names the three profiles with their descriptions"
else
	not_ok "list names the three profiles with their descriptions"
	diag "$out"
fi
check "each profile sets every key; default.conf is the NIC's power-on state" \
	"$python" - "$top/dcb/lib" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from wrenqos import profile
state = [k.name for k in profile.KEYS if k.group != "meta"]
for name in ("lossless", "ecn-only", "default"):
    p = profile.load(name)
    missing = [k for k in state if k not in p.values]
    assert not missing, f"{name} lacks {missing}"
d = profile.load("default")
bad = [k for k in state if d.values[k] != profile.KEY[k].default]
assert not bad, f"default.conf differs from the defaults in {bad}"
PY

# --- each profile applies, and only once ---------------------------
fresh
run lossless
# lossless's state from a clean apply, for the stale-ACK cases below.
cp "$WREN_QOS_FAKE/state.json" "$WREN_QOS_FAKE/lossless.json"
expect "lossless applies (exit $RC): ETS 40/60, TC 6 strict, PFC on 3 only, DSCP 26->3 48->6" \
	"$RC == 0 and s['prio_tc'] == [0,0,0,3,0,0,6,0] and s['tc_bw'][0] == 40 and s['tc_bw'][3] == 60 and s['tc_tsa'][6] == 'strict' and s['pfc_en'] == 8 and sorted(s['app']) == [[26,3],[48,6]] and s['trust'] == 'dscp'"
expect "lossless: buffer 1 (256K) for priority 3, delay 4096, pause off, storm prevention auto, ECN/NP/RP on 3" \
	"s['prio_buffer'][3] == 1 and s['buffer_size'][:2] == [262144, 262144] and s['delay'] == 4096 and not s['pause_rx'] and not s['pause_tx'] and s['tout'] == 65535 and [s['cc'][k] for k in ('cc_ecn_enable','cc_np_enable','cc_rp_enable')] == [8,8,8]"
idempotent lossless

run ecn-only
expect "ecn-only applies after lossless (exit $RC): no PFC, one buffer, storm prevention off, DCQCN still on 3, DSCP trust" \
	"$RC == 0 and s['pfc_en'] == 0 and s['prio_buffer'] == [0]*8 and s['buffer_size'][0] == 524288 and s['tout'] == 0 and s['cc']['cc_rp_enable'] == 8 and s['cc']['cc_ecn_enable'] == 8 and s['trust'] == 'dscp' and s['tc_bw'][3] == 60"
idempotent ecn-only

run default
expect "default applies after ecn-only (exit $RC): the state is exactly the power-on state" \
	"$RC == 0 and json.dumps(s, sort_keys=True) == json.dumps(json.load(open(sys.argv[1] + '/init.json')), sort_keys=True)"
idempotent default

# 802.3x pause and PFC exclude each other (the fake refuses PFC while
# pause is on, and pause while PFC is on): the order must follow.
fresh
"$python" - "$WREN_QOS_FAKE/state.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["pause_rx"] = s["pause_tx"] = True
json.dump(s, open(sys.argv[1], "w"))
PY
run lossless
expect "lossless on a port with 802.3x pause on: pause goes off before PFC goes on (exit $RC)" \
	"$RC == 0 and s['pfc_en'] == 8 and not s['pause_rx'] and not s['pause_tx']"
prof=$(variant pause-on pfc "pfc = none")
sed -i 's/^pause = off/pause = on/; s/^pfc_prevention_tout = .*/pfc_prevention_tout = off/' "$prof"
run "$prof"
expect "a pause-on profile after lossless: PFC goes off before pause goes on (exit $RC)" \
	"$RC == 0 and s['pfc_en'] == 0 and s['pause_rx'] and s['pause_tx']"

fresh
before=$(state_sum)
: >"$WREN_QOS_FAKE/log"
out=$("$qos" apply -n lossless eth1 2>&1)
if grep -q '^  dcb pfc set dev eth1 prio-pfc' <<<"$out" && [ -z "$(sets)" ] &&
	[ "$before" = "$(state_sum)" ]; then
	ok "apply -n lists the commands and changes nothing"
else
	not_ok "apply -n lists the commands and changes nothing"
	diag "$out"
fi

# --- bad profiles change nothing -------------------------------------
fresh
echo "no_such_knob = 1" >>"$(variant unknown description 'description = x')"
refused "unknown key" no_such_knob "$work/unknown.conf"
refused "ETS shares summing to 90" tc_bw "$(variant sum90 tc_bw 'tc_bw = all:0 0:30 3:60')"
refused "PFC on priority 8" pfc "$(variant prio8 pfc 'pfc = 3,8')"
refused "priority 3 mapped to TC 8" prio_tc "$(variant tc8 prio_tc 'prio_tc = all:0 3:8 6:6')"
refused "RoCE's DSCP 26 sent to priority 5" dscp_prio "$(variant roce5 dscp_prio 'dscp_prio = 26:5 48:6')"
refused "the CNP DSCP 48 sent to priority 2" dscp_prio "$(variant cnp2 dscp_prio 'dscp_prio = 26:3 48:2')"
refused "a strict TC with an ETS share" tc_bw "$(variant strictbw tc_tsa 'tc_tsa = all:ets 3:strict 6:strict')"
refused "802.3x pause with PFC" pause "$(variant pausepfc pause 'pause = on')"
refused "rp_gd 25 (10..20)" rp_gd "$(variant gd rp_gd 'rp_gd = 25')"
refused "pfc_prevention_tout 50 ms" pfc_prevention_tout "$(variant tout pfc_prevention_tout 'pfc_prevention_tout = 50')"
prof=$(variant dup pfc 'pfc = 3')
echo "pfc = 4" >>"$prof"
refused "a key given twice" "pfc (line [0-9]*): given twice" "$prof"
refused "a map missing priorities" prio_tc "$(variant partial prio_tc 'prio_tc = 0:0 1:1')"
refused "the vendor TSA" tc_tsa "$(variant vendor tc_tsa 'tc_tsa = all:vendor')"
refused "DSCP trust without DSCP entries" dscp_prio "$(variant nodscp dscp_prio 'dscp_prio = none')"
refused "buffers larger than the port's 512K" buffer_size "$(variant bigbuf buffer_size 'buffer_size = all:0 0:512K 1:256K')"
refused "rp_ai_rate above the 25000 Mb/s link" rp_ai_rate "$(variant ai rp_ai_rate 'rp_ai_rate = 40000')"
refused "a profile that does not exist" "no-such" no-such 2
run lossless eth9
if [ "$RC" = 2 ] && grep -q "no network device eth9" <<<"$OUT" && [ -z "$(sets)" ]; then
	ok "a netdev that does not exist: exit 2, nothing run"
else
	not_ok "a netdev that does not exist: exit 2, nothing run"
	diag "rc $RC" "$OUT"
fi

# --- devices that lack a feature -------------------------------------
fresh nocc
run default
if [ "$RC" = 0 ] && grep -q "cc_ecn_enable, .*: not supported by this device, not needed" <<<"$OUT"; then
	ok "no devlink CC params: default applies, the CC keys are not needed"
else
	not_ok "no devlink CC params: default applies, the CC keys are not needed"
	diag "rc $RC" "$OUT"
fi
refused "no devlink CC params: ecn-only needs them" \
	"cc_ecn_enable, .*: not supported by this device" ecn-only 3
fresh notunable
refused "no pfc-prevention-tout tunable: lossless needs it" \
	"pfc_prevention_tout: not supported by this device" lossless 3
run ecn-only
expect "no tunable: ecn-only (storm prevention off) applies (exit $RC)" \
	"$RC == 0 and s['pfc_en'] == 0 and s['cc']['cc_rp_enable'] == 8"
fresh apptrust
run lossless
if [ "$RC" = 0 ] && grep -q '^dcb apptrust set dev eth1 order dscp$' "$WREN_QOS_FAKE/log"; then
	ok "with dcb apptrust: lossless sets order dscp"
else
	not_ok "with dcb apptrust: lossless sets order dscp"
	diag "rc $RC" "$OUT"
fi
idempotent lossless
run default
expect "with dcb apptrust: default sets order pcp and drops the DSCP entries (exit $RC)" \
	"$RC == 0 and s['apptrust'] == ['pcp'] and s['app'] == []"

# --- a change that fails midway is undone ----------------------------
fresh
before=$(state_sum)
echo "devlink:cc_np_enable" >"$WREN_QOS_FAKE/fail"
run lossless
if [ "$RC" = 1 ] && grep -q "restored: the port is as it was" <<<"$OUT" &&
	[ "$before" = "$(state_sum)" ]; then
	ok "devlink refuses cc_np_enable after six groups changed: exit 1, all restored"
else
	not_ok "devlink refuses cc_np_enable after six groups changed: exit 1, all restored"
	diag "rc $RC" "$OUT"
fi
fresh
before=$(state_sum)
echo "dcb:buffer" >"$WREN_QOS_FAKE/fail"
run lossless
if [ "$RC" = 1 ] && grep -q "failed: buffer: read back" <<<"$OUT" &&
	grep -q "restored: the port is as it was" <<<"$OUT" &&
	[ "$before" = "$(state_sum)" ]; then
	ok "dcb buffer set exits 0 but does not take (dcb 6.1): caught on read-back, restored"
else
	not_ok "dcb buffer set exits 0 but does not take (dcb 6.1): caught on read-back, restored"
	diag "rc $RC" "$OUT"
fi
fresh
echo "devlink:cc_np_enable ethtool:tunable@2" >"$WREN_QOS_FAKE/fail"
run lossless
if [ "$RC" = 1 ] && grep -q "tunable: NOT restored" <<<"$OUT" &&
	grep -q "NOT fully restored" <<<"$OUT" &&
	[ "$(st "s['pfc_en'], s['app'], s['tout']")" = "(0, [], 65535)" ]; then
	ok "a restore that fails too: the others restored, the tunable named as not"
else
	not_ok "a restore that fails too: the others restored, the tunable named as not"
	diag "rc $RC" "$OUT"
fi

# --- iproute2 6.1's stale ACK (dcb.rst, Known issues) ----------------
# The fake's dcb:OBJ:eproto applies the set, then exits 1 with "Attribute
# write: Protocol error"; dcb:OBJ:eproto-lost exits so without applying.
# count SET: the commands in the log that start with SET.
count() { grep -c "^$1 " "$WREN_QOS_FAKE/log"; }
same_as() { cmp -s "$WREN_QOS_FAKE/state.json" "$WREN_QOS_FAKE/$1"; }
stale="but the port holds the change: iproute2 6.1's dcb read a stale netlink ACK"

fresh
echo "dcb:pfc:eproto" >"$WREN_QOS_FAKE/fail"
: >"$WREN_QOS_FAKE/log"
RC=0
OUT=$("$qos" apply lossless eth1 2>"$WREN_QOS_FAKE/stderr") || RC=$?
err=$(cat "$WREN_QOS_FAKE/stderr")
if [ "$RC" = 0 ] && same_as lossless.json && [ "$(count "dcb pfc set")" = 1 ] &&
	[ "$(grep -c . <<<"$err")" = 1 ] &&
	grep -q "^wren-qos: note: dcb pfc set: \"Protocol error\" $stale" <<<"$err" &&
	! grep -q "Protocol error" <<<"$OUT"; then
	ok "dcb pfc set applied but exits 1 with Protocol error: exit 0, lossless's state, no second set, one note on stderr"
else
	not_ok "dcb pfc set applied but exits 1 with Protocol error: exit 0, lossless's state, no second set, one note on stderr"
	diag "rc $RC" "$OUT" "stderr: $err"
fi
fresh apptrust
echo "dcb:app:eproto dcb:apptrust:eproto" >"$WREN_QOS_FAKE/fail"
run lossless
if [ "$RC" = 0 ] && [ "$(grep -c "$stale" <<<"$OUT")" = 2 ] &&
	[ "$(count "dcb app add") $(count "dcb apptrust set")" = "1 1" ] &&
	[ "$(st "sorted(s['app']), s['apptrust']")" = "([[26, 3], [48, 6]], ['dscp'])" ]; then
	ok "dcb app add and apptrust set applied but exit 1 with Protocol error: exit 0, entries and order dscp, two notes"
else
	not_ok "dcb app add and apptrust set applied but exit 1 with Protocol error: exit 0, entries and order dscp, two notes"
	diag "rc $RC" "$OUT" "$(cat "$WREN_QOS_FAKE/log")"
fi
run default
if [ "$RC" = 0 ] && [ "$(grep -c "$stale" <<<"$OUT")" = 2 ] &&
	[ "$(count "dcb app del")" = 1 ] &&
	[ "$(st "s['app'], s['apptrust']")" = "([], ['pcp'])" ]; then
	ok "then default, dcb app del and apptrust set the same: exit 0, no entries, order pcp, two notes"
else
	not_ok "then default, dcb app del and apptrust set the same: exit 0, no entries, order pcp, two notes"
	diag "rc $RC" "$OUT" "$(cat "$WREN_QOS_FAKE/log")"
fi
fresh
echo "dcb:pfc:eproto-lost@1-1" >"$WREN_QOS_FAKE/fail"
run lossless
if [ "$RC" = 0 ] && same_as lossless.json && [ "$(count "dcb pfc set")" = 2 ] &&
	grep -q 'dcb pfc set: "Protocol error" and the port does not hold the change: running it once more' <<<"$OUT" &&
	! grep -q "$stale" <<<"$OUT"; then
	ok "dcb pfc set exits 1 with Protocol error and did not apply: run once more, exit 0, lossless's state"
else
	not_ok "dcb pfc set exits 1 with Protocol error and did not apply: run once more, exit 0, lossless's state"
	diag "rc $RC" "$OUT"
fi
fresh
before=$(state_sum)
echo "dcb:pfc:eproto-lost" >"$WREN_QOS_FAKE/fail"
run lossless
if [ "$RC" = 1 ] && [ "$(count "dcb pfc set")" = 2 ] &&
	grep -q "failed: pfc: .*Protocol error" <<<"$OUT" &&
	grep -q "restored: the port is as it was" <<<"$OUT" &&
	[ "$before" = "$(state_sum)" ]; then
	ok "dcb pfc set fails with Protocol error twice, not applied: exit 1 after the second, all restored"
else
	not_ok "dcb pfc set fails with Protocol error twice, not applied: exit 1 after the second, all restored"
	diag "rc $RC" "$OUT"
fi
fresh
before=$(state_sum)
echo "dcb:app" >"$WREN_QOS_FAKE/fail"
run lossless
if [ "$RC" = 1 ] && [ "$(count "dcb app add")" = 1 ] &&
	grep -q "failed: app: .*Invalid argument" <<<"$OUT" &&
	! grep -q "note: " <<<"$OUT" && [ "$before" = "$(state_sum)" ]; then
	ok "dcb app add fails with another error: no read-back as done, no second run, exit 1, restored"
else
	not_ok "dcb app add fails with another error: no read-back as done, no second run, exit 1, restored"
	diag "rc $RC" "$OUT"
fi

# --- show ---------------------------------------------------------------
fresh
"$qos" apply lossless eth1 >/dev/null 2>&1
out=$("$qos" show eth1 2>&1)
rows=$(grep -cE '^[0-7] ' <<<"$out")
row3=$(grep -E '^3 ' <<<"$out" | tr -s ' ')
if grep -q '^prio  tc  tsa' <<<"$out" && [ "$rows" = 8 ] &&
	[ "$row3" = "3 3 ets 60 - on 1:256K 24-31 on on on 7 0 0 0" ]; then
	ok "show: one row per priority; priority 3: TC 3 ETS 60%, PFC, buffer 1, DSCP 24-31, ECN/NP/RP, pauses"
else
	not_ok "show: one row per priority; priority 3: TC 3 ETS 60%, PFC, buffer 1, DSCP 24-31, ECN/NP/RP, pauses"
	diag "$out"
fi
if grep -q '^trust  *dscp' <<<"$out" && grep -q '^802.3x pause  *off' <<<"$out" &&
	grep -q '^pfc-prevention-tout  *100 ms' <<<"$out" &&
	grep -q 'np_cnp_sent=11' <<<"$out" && grep -q 'rp_gd=11' <<<"$out" &&
	grep -q 'pfc_storm healthy' <<<"$out" &&
	grep -q 'tx_pause_storm_error_events=0' <<<"$out"; then
	ok "show: trust, pause, storm timeout, DCQCN, CC counters, storm state"
else
	not_ok "show: trust, pause, storm timeout, DCQCN, CC counters, storm state"
	diag "$out"
fi
fresh "nocc nohealth"
out=$("$qos" show eth1 2>&1)
if grep -q '^dcqcn  *not supported by this device' <<<"$out" &&
	grep -q 'pfc_storm not supported by this device' <<<"$out"; then
	ok "show on a device without CC params or health reporter says so"
else
	not_ok "show on a device without CC params or health reporter says so"
	diag "$out"
fi
RC=0
"$qos" show eth9 >/dev/null 2>&1 || RC=$?
check "show on a netdev that does not exist: exit 2" test "$RC" = 2

# --- the profile parser on its own (a unittest suite) ----------------
unit=$WREN_QOS_FAKE/test_profile.tap
RC=0
"$python" "$here/test_profile.py" >"$unit" 2>&1 || RC=$?
tap_relay "test_profile.py: " "$unit"
check "test_profile.py ran its plan ($TAP_RELAY_COUNT of ${TAP_RELAY_PLAN:-no plan}), exit $RC" \
	test "$TAP_RELAY_COUNT" = "${TAP_RELAY_PLAN:-none}" -a \
	\( "$RC" = 0 -o "$TAP_RELAY_FAILED" != 0 \)

# --- the code itself -------------------------------------------------
# From the top: shellcheck -x finds "$WREN_TOP/selftests/lib/..." there.
lint_sh() {
	cd "$top" && shellcheck -x dcb/tests/wren-qos-host.sh dcb/tests/fake/dcb \
		dcb/tests/fake/ethtool dcb/tests/fake/devlink dcb/tests/fake/ip \
		dcb/tests/fake/rdma selftests/driver/wren-qos.sh
}
if command -v shellcheck >/dev/null; then
	check "shellcheck: the host test, the fakes and the guest test" lint_sh
else
	skip "shellcheck" "shellcheck is not installed"
fi
py=("$qos" "$top"/dcb/lib/wrenqos/*.py "$fake/fakenic.py" "$here/test_profile.py")
if command -v pyflakes3 >/dev/null; then
	check "pyflakes3: wren-qos and the fake" pyflakes3 "${py[@]}"
else
	check "python3 compiles wren-qos and the fake" "$python" -m py_compile "${py[@]}"
fi
tap_done
