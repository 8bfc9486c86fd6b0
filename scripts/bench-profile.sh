#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# make bench-profile: where the host's CPU goes for each RoCE frame of a
# Wren RDMA WRITE stream between the two bench guests.  Boots them through
# `make bench-rdma` in its profile mode (Wren's ib_write_bw 64 KiB alone,
# selftests/bench/rdma-bench.sh BENCH_RDMA_PROFILE=1); once guest 0's
# client starts (and WARMUP seconds later), for SECS seconds:
#
#   - `perf record -a` samples every CPU of the host (flat profile: the
#     model, QEMU and wren-fabric are plain C with symbols; code QEMU's
#     TCG generated for the guests shows as perf's [unknown]);
#   - the CPU time each QEMU and the Wren fabric used (/proc/PID/stat);
#   - the frames the Wren fabric forwarded (`wren-fabric ctl stats`).
#
# Prints frames/s, host CPU ns a frame by process, and each process's
# symbols above 1% of its samples, as ns a frame too; kept in OUT.
#
# usage: bench-profile.sh OUT_DIR RUN_DIR [SECS] [WARMUP]
#   the caller's environment has MAKE, KVER and what `make bench-rdma`
#   needs; run through `make bench-profile`.
set -u
out=${1:?usage: bench-profile.sh OUT_DIR RUN_DIR [SECS] [WARMUP]}
run=${2:?usage: bench-profile.sh OUT_DIR RUN_DIR [SECS] [WARMUP]}
secs=${3:-15}
warmup=${4:-4}
: "${MAKE:=make}" "${KVER:=6.1}"

command -v perf >/dev/null || { echo "bench-profile: perf is not installed (linux-perf)" >&2; exit 2; }
rm -rf "$out" "$run"
mkdir -p "$out"
say() { echo "bench-profile: $*" | tee -a "$out/summary.txt"; }

# The guests run twice the window and the warm-up, so that the window
# falls inside the steady stream whatever the boot's pace.
$MAKE --no-print-directory bench-rdma KVER="$KVER" BENCH_RDMA_RUN="$run" \
	BENCH_RDMA_ROUNDS=1 BENCH_RDMA_BW_SECS=$((2 * (secs + warmup))) \
	APPEND="${APPEND:-} BENCH_RDMA_PROFILE=1" >"$out/bench-rdma.log" 2>&1 &
bench=$!

for ((i = 0; i < 6000; i++)); do
	[ -e "$run/g0/profile.go" ] && break
	kill -0 "$bench" 2>/dev/null || break
	sleep 0.1
done
if [ ! -e "$run/g0/profile.go" ]; then
	wait "$bench"
	echo "bench-profile: the guests did not start the stream; see $out/bench-rdma.log" >&2
	tail -n 20 "$out/bench-rdma.log" >&2
	exit 1
fi
sleep "$warmup"

# This run's processes: its QEMUs name RUN_DIR in their arguments, its
# Wren fabric is the newest one serving a .../wren directory.
# (timeout(1) wrappers name it too: keep QEMU's own processes).
mapfile -t qemus < <(for p in $(pgrep -f "qemu-system-x86_64 .*$run/"); do
	[ "$(cat "/proc/$p/comm" 2>/dev/null)" = qemu-system-x86 ] && echo "$p"
done)
fabric=$(pgrep -n -f 'wren-fabric serve --dir /tmp/wren-bench\.[^ ]*/wren ')
fdir=$(tr '\0' '\n' <"/proc/$fabric/cmdline" 2>/dev/null | sed -n '/^--dir$/{n;p}')
if [ "${#qemus[@]}" -lt 2 ] || [ -z "$fabric" ] || [ -z "$fdir" ]; then
	echo "bench-profile: cannot find the run's QEMUs (${qemus[*]:-none}) or fabric (${fabric:-none})" >&2
	kill "$bench" 2>/dev/null
	wait "$bench"
	exit 1
fi
fabric_bin=$(readlink "/proc/$fabric/exe")
# Names: each QEMU by the console log it writes (guest0 is the client,
# the requester of the WRITEs; guest1 the responder).
: >"$out/names"
for p in "${qemus[@]}"; do
	g=$(tr '\0' ' ' <"/proc/$p/cmdline" | grep -o 'guest[0-9]*\.log' | head -n 1)
	echo "$p qemu-${g%.log}" >>"$out/names"
done
echo "$fabric wren-fabric" >>"$out/names"
hz=$(getconf CLK_TCK)

# cpu_ticks PID: user + system ticks of the whole process.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# frames: frames the fabric received from both ports.
frames() {
	local p n=0 f
	for p in 0 1; do
		f=$("$fabric_bin" ctl "$fdir" stats "$p" 2>/dev/null |
			awk '$3 == "rx_frames" { print $4 }')
		n=$((n + ${f:-0}))
	done
	echo "$n"
}
snapshot() {
	local p
	for p in "${qemus[@]}" "$fabric"; do
		echo "$p $(cpu_ticks "$p")"
	done
	echo "frames $(frames)"
	echo "time $(date +%s%N)"
}

snapshot >"$out/before"
perf record -a -F 499 -o "$out/perf.data" -- sleep "$secs" >"$out/perf-record.log" 2>&1
snapshot >"$out/after"
wait "$bench"
rc=$?

# The figures: per process, CPU seconds in the window and ns per frame.
: >"$out/procs"
awk -v hz="$hz" -v procs="$out/procs" '
	FILENAME ~ /names$/ { nm[$1] = $2; next }
	FILENAME ~ /before$/ { b[$1] = $2; next }
	{ a[$1] = $2 }
	END {
		ns = a["time"] - b["time"]; f = a["frames"] - b["frames"]
		printf "window %.1f s, %d frames through the Wren fabric (%.0f/s)\n", ns / 1e9, f, f / (ns / 1e9)
		total = 0
		for (p in a) {
			if (p == "frames" || p == "time") continue
			t = (a[p] - b[p]) / hz; total += t
			name = nm[p]
			printf "%-14s %6.2f CPU s (%5.1f%% of one CPU), %7.0f ns a frame\n", name, t, 100 * t / (ns / 1e9), f ? t * 1e9 / f : 0
			printf "%s %s %.0f\n", p, name, f ? t * 1e9 / f : 0 >procs
		}
		printf "%-14s %6.2f CPU s, %7.0f ns a frame\n", "total", total, f ? total * 1e9 / f : 0
	}' "$out/names" "$out/before" "$out/after" | while read -r l; do say "$l"; done

# Per process: its symbols above 1% of its own samples, each also as ns
# a frame (its share of the process's CPU time in the window).
report() {
	local pid=$1 name=$2 ns_frame=$3
	perf report -i "$out/perf.data" --stdio --no-children --pid "$pid" \
		--sort dso,sym --percentage relative --percent-limit 1 \
		>"$out/report-$pid.txt" 2>>"$out/perf-report.log"
	perf report -i "$out/perf.data" --stdio --no-children --pid "$pid" \
		--sort comm --percentage relative --percent-limit 1 \
		>"$out/threads-$pid.txt" 2>>"$out/perf-report.log"
	say "$name (pid $pid): threads above 1% of its samples, ns a frame:"
	awk -v n="$ns_frame" '/^ +[0-9.]+%/ {
		pct = $1; sub(/%/, "", pct); t = $0; sub(/^ +[0-9.]+% +/, "", t)
		printf "  %5.1f%% %6.0f ns  %s\n", pct, pct * n / 100, t
	}' "$out/threads-$pid.txt" | while read -r l; do say "  $l"; done
	say "$name (pid $pid): symbols above 1% of its samples, ns a frame:"
	awk -v n="$ns_frame" '/^ +[0-9.]+%/ {
		pct = $1; sub(/%/, "", pct); dso = $2
		sym = $0; sub(/^.*\[[.k]\] /, "", sym)
		printf "  %5.1f%% %6.0f ns  %-22s %s\n", pct, pct * n / 100, dso, sym
	}' "$out/report-$pid.txt" | head -n 25 | while read -r l; do say "  $l"; done
}
while read -r pid name ns; do
	report "$pid" "$name" "$ns"
done <"$out/procs"
grep -h '^bench-rdma:' "$run/guest0.out" 2>/dev/null | while read -r l; do say "$l"; done
exit "$rc"
