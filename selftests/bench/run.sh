#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The bench's own test (make check-bench): boots guests for real and checks
# that scripts run in every guest, that the guests reach each other over the
# fabric, that the results share works, that failures and hangs make vmrun
# fail, that IOMMU=1 gives the guest an active intel-iommu, and that GPU=1
# puts the NIC and a test GPU under one PCIe switch.
#
# usage: run.sh   (environment as for tools/testbench/vmrun.sh, plus
#                  BENCH_OUT: directory for the runs' logs)
# TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/selftests/lib/tap.sh"
. "$top/selftests/lib/perftest.sh"
vmrun=$top/tools/testbench/vmrun.sh
out=${BENCH_OUT:?BENCH_OUT not set}
kver=${KVER:-6.1}

# guest_tap RUN_DIR GUEST LABEL: re-emit the guest's TAP results as our
# own, prefixed so they read as coming from that guest and run.
guest_tap() {
	tap_relay "g$2/$3: " "$1/guest$2.out" 2>/dev/null
	[ "$TAP_RELAY_COUNT" -gt 0 ] || not_ok "g$2/$3: guest produced TAP results"
}

# 0. On the host: how the bench reads perftest's output (perftest.sh), on
# the lines perftest 4.5 printed in bench guests.  A run perftest could not
# time reports 0 MB/s; counted, it halved a mean (bench.rst).
pt=$out/perftest-parse
mkdir -p "$pt"
pt_bw() { # pt_bw FILE BW [PREAMBLE]: a bandwidth test's output
	{
		[ -n "${3:-}" ] && echo "$3"
		echo " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]"
		echo " 65536      1525             0.00               $2  		   0.000508"
		echo "---------------------------------------------------------------------------------------"
	} >"$pt/$1"
}
pt_bw timed.out 31.73
pt_bw untimed.out 0.00 "Correlation coefficient r^2: 0.878717 < 0.9"
pt_bw zero.out 0.00
cat >"$pt/lat.out" <<'PT'
 #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]
 8       1000          261.92         214649.85      960.09   	       3009.28     	-nan   		22108.73 		214649.85
---------------------------------------------------------------------------------------
PT
printf 'Correlation coefficient r^2: 0.61 < 0.9\n' | cat - "$pt/lat.out" >"$pt/lat-untimed.out"
pt_timed() { ! perftest_untimed "$@"; }
check "perftest: the BW average of a bandwidth run" \
	test "$(perftest_figure "$pt/timed.out" ib_write_bw)" = 31.73
check "perftest: t_typical of a latency run" \
	test "$(perftest_figure "$pt/lat.out" ib_send_lat)" = 960.09
check "perftest: a timed run is a figure" pt_timed "$pt/timed.out" ib_read_bw
check "perftest: a run whose clock fit failed is no figure" \
	perftest_untimed "$pt/untimed.out" ib_write_bw
check "perftest: a bandwidth of 0 is no figure" \
	perftest_untimed "$pt/zero.out" ib_read_bw
check "perftest: a latency run whose clock fit failed is no figure" \
	perftest_untimed "$pt/lat-untimed.out" ib_send_lat

# 1. Two guests run the basic checks and ping each other.
run=$out/basics
N=2 IOMMU=0 TIMEOUT=300 RUN_DIR=$run "$vmrun" "$here/guest-basics.sh" >"$out/basics.log" 2>&1
rc=$?
diag "$(cat "$out/basics.log")"
if [ $rc = 0 ]; then ok "vmrun: two guests ran the basics script"; else not_ok "vmrun: two guests ran the basics script (exit $rc)"; fi
for g in 0 1; do
	check "g$g: exit status 0 came back to the host" test "$(cat "$run/guest$g.rc" 2>/dev/null)" = 0
	check "g$g: file written to the results share is on the host" \
		test "$(cat "$run/g$g/hello" 2>/dev/null)" = "guest$g"
	guest_tap "$run" "$g" "$kver"
	[ -s "$run/guest$g.boot" ] && diag "g$g booted to the script in $(cat "$run/guest$g.boot") s"
done

# 2. A failing script, a hanging one and a QEMU that crashes must each make
# vmrun and vmtest fail, and vmtest must file "not ok" lines for them (in a
# private check directory: these failures are expected, the summary must
# not count them).  The timeout is what the hanging guest costs the check:
# guest 0 boots, fails and powers off in about 7 s.  Guest 2's QEMU gets
# SIGSEGV from here once its script runs: the crash report (vmrun.sh)
# must keep its core and backtrace.
mkdir -p "$out/failure-check"
run=$out/failure-build/bench/vmtest-$kver-bench_guest-fail.sh
rm -rf "$run"
(
	for ((i = 0; i < 180; i++)); do
		if [ -e "$run/g2/crash-me" ]; then
			pkill -SEGV -f -- "path=$run/guest2.log"
			exit 0
		fi
		sleep 0.1
	done
) &
crasher=$!
N=3 IOMMU=0 TIMEOUT=18 BUILD=$out/failure-build "$top/tools/testbench/vmtest.sh" \
	bench/guest-fail.sh "$out/failure-check" >"$out/failure.log" 2>&1
rc=$?
kill "$crasher" 2>/dev/null
wait "$crasher" 2>/dev/null
diag "$(cat "$out/failure.log")"
check "vmrun/vmtest exit non-zero when a guest's script fails" test $rc != 0
check "kselftest's runner reports the failing script's status (3)" \
	grep -q '^not ok 1 selftests: bench: guest-fail.sh # exit=3' "$run/guest0.out"
check "vmrun reports the failure" grep -q 'guest0 script FAILED with exit status' "$out/failure.log"
check "a hanging guest is killed at TIMEOUT and reported" grep -q 'guest1 TIMED OUT' "$out/failure.log"
tap0=$out/failure-check/guest-$kver-bench_guest-fail.sh-g0.tap
tap1=$out/failure-check/guest-$kver-bench_guest-fail.sh-g1.tap
check "vmtest keeps the guest's own result, prefixed" grep -qx "ok 1 - g0/$kver: guest-fail: before failing" "$tap0"
check "vmtest files a failing exit status as not ok" grep -q "^not ok .*exited with status 3" "$tap0"
check "vmtest files an unmet plan as not ok" grep -q "^not ok .*planned 3 results" "$tap0"
check "vmtest files a hang as not ok" grep -q "^not ok .*did not finish: timeout" "$tap1"
check "a QEMU that crashed is reported as such" \
	grep -q 'guest2 gave no exit status (QEMU exit 139' "$out/failure.log"
# vmrun.sh keeps a core where core_pattern is a plain file name and the
# hard limit lets it raise ulimit -c.
pattern=$(cat /proc/sys/kernel/core_pattern)
why=
case $pattern in
*/* | "|"*) why="core_pattern '$pattern' sends cores elsewhere" ;;
esac
( ulimit -c unlimited ) 2>/dev/null || why="ulimit -c is capped at $(ulimit -H -c)"
case $why in
?*)
	skip "the crashed QEMU's core is kept" "$why"
	skip "its backtrace is kept, every thread" "$why"
	skip "the crashing thread's backtrace is printed" "$why"
	;;
*)
	check "the crashed QEMU's core is kept" test -s "$run/guest2.core"
	check "its backtrace is kept, every thread" grep -q '^Thread 1 ' "$run/guest2.qemu-bt.txt"
	check "the crashing thread's backtrace is printed" \
		grep -q -- '^---- the crashing thread' "$out/failure.log"
	;;
esac
# About 400 MB that nothing reads after this.
rm -f "$run/guest2.core"

# 3. IOMMU=1: the basics again in one guest, with intel-iommu active.
run=$out/iommu
N=1 IOMMU=1 TIMEOUT=300 RUN_DIR=$run "$vmrun" "$here/guest-basics.sh" >"$out/iommu.log" 2>&1
rc=$?
diag "$(cat "$out/iommu.log")"
if [ $rc = 0 ]; then ok "vmrun IOMMU=1: guest ran the basics script"; else not_ok "vmrun IOMMU=1: guest ran the basics script (exit $rc)"; fi
guest_tap "$run" 0 "$kver-iommu"

# 4. GPU=1, with and without intel-iommu: the NIC and a wren-gpu under one
# PCIe switch (checked in the guest), and a pattern the guest writes
# through the GPU's BAR2 found by the host in the BAR's backing file.
for iommu in 0 1; do
	label=gpu$([ $iommu = 1 ] && echo -iommu)
	run=$out/$label
	N=1 IOMMU=$iommu GPU=1 TIMEOUT=300 RUN_DIR=$run "$vmrun" "$here/guest-gpu.sh" >"$out/$label.log" 2>&1
	rc=$?
	diag "$(cat "$out/$label.log")"
	if [ $rc = 0 ]; then ok "vmrun GPU=1 IOMMU=$iommu: guest ran the GPU script"; else not_ok "vmrun GPU=1 IOMMU=$iommu: guest ran the GPU script (exit $rc)"; fi
	guest_tap "$run" 0 "$kver-$label"
	pattern=$(cat "$run/g0/gpu-pattern" 2>/dev/null)
	mem=$run/gpu0.mem
	check "$label: the GPU's memory file is on the host, 256 MiB" \
		test "$(stat -c %s "$mem" 2>/dev/null)" = $((256 << 20))
	check "$label: the guest's pattern is in the file (first page)" \
		test -n "$pattern" -a "$(head -c ${#pattern} "$mem" 2>/dev/null)" = "$pattern"
	check "$label: the guest's pattern is in the file (last page)" \
		test -n "$pattern" -a "$(tail -c 4096 "$mem" 2>/dev/null | head -c ${#pattern})" = "$pattern"
	# The file is sparse: only the pages the guest touched take space.
	diag "$label: $(du -k "$mem" 2>/dev/null | cut -f1) KiB of the file allocated"
done

tap_done
