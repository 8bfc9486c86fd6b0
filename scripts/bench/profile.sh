#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# make bench-profile: where the host's CPU goes for each RoCE frame of a
# Wren RDMA WRITE stream (or the READ or SEND stream of BENCH_RDMA_PROFILE_TEST
# in APPEND) between the two bench guests.  Boots them through
# `make bench-rdma` in its profile mode (Wren's ib_write_bw 64 KiB alone,
# selftests/bench/rdma-bench.sh BENCH_RDMA_PROFILE=1); once guest 0's
# client starts (and WARMUP seconds later), for SECS seconds:
#
#   - `perf record -a` samples every CPU of the host (flat profile: the
#     model, QEMU and wren-fabric are plain C with symbols; code QEMU's
#     TCG generated for the guests shows as perf's [unknown]);
#   - the CPU time each QEMU and the Wren fabric used (/proc/PID/stat);
#   - the frames the Wren fabric forwarded (`wren-fabric ctl stats`);
#   - each thread's voluntary and involuntary context switches
#     (/proc/PID/task/TID/status).
#
# Prints frames/s, host CPU ns a frame by process, each thread's sleeps
# and preemptions a frame, and each process's threads and symbols above
# 1% of its samples, as ns a frame too; all of it is kept in OUT.
#
# usage: bench/profile.sh OUT_DIR RUN_DIR [SECS] [WARMUP]
#   the caller's environment has MAKE, KVER and what `make bench-rdma`
#   needs; run through `make bench-profile`.
. "$(dirname "$0")/../lib/common.sh"
set +e # failures are handled here, one by one
out=${1:?usage: bench/profile.sh OUT_DIR RUN_DIR [SECS] [WARMUP]}
run=${2:?usage: bench/profile.sh OUT_DIR RUN_DIR [SECS] [WARMUP]}
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
# switches: each thread's times asleep (voluntary context switches: it
# waited and was woken) and preempted, "PID TID COMM VOLUNTARY PREEMPTED".
switches() {
	local p t
	for p in "${qemus[@]}" "$fabric"; do
		for t in /proc/"$p"/task/*; do
			awk -v p="$p" -v t="${t##*/}" -v c="$(cat "$t/comm" 2>/dev/null)" '
				$1 == "voluntary_ctxt_switches:" { v = $2 }
				$1 == "nonvoluntary_ctxt_switches:" { n = $2 }
				END { gsub(/ /, "_", c); print p, t, c, v + 0, n + 0 }' \
				"$t/status" 2>/dev/null
		done
	done
}

switches >"$out/switches.before"
snapshot >"$out/before"
perf record -a -F 499 -o "$out/perf.data" -- sleep "$secs" >"$out/perf-record.log" 2>&1
snapshot >"$out/after"
switches >"$out/switches.after"
wait "$bench"
rc=$?

# The frames the window saw, the divisor of every figure below.
snap() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
frames_in=$(($(snap frames "$out/after") - $(snap frames "$out/before")))

# The figures: per process, CPU seconds in the window and ns per frame.
: >"$out/procs"
awk -v hz="$hz" -v procs="$out/procs" -v f="$frames_in" '
	FILENAME ~ /names$/ { nm[$1] = $2; next }
	FILENAME ~ /before$/ { b[$1] = $2; next }
	{ a[$1] = $2 }
	END {
		ns = a["time"] - b["time"]
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

# Wake-ups: how often each thread slept (and so was woken) or was
# preempted, per frame, for the threads that did either in the window.
say "sleeps and preemptions a frame, by thread (threads that did either):"
awk -v f="$frames_in" -v names="$out/names" '
	BEGIN { while ((getline l < names) > 0) { split(l, w, " "); nm[w[1]] = w[2] } }
	FILENAME ~ /before$/ { v[$2] = $4; n[$2] = $5; next }
	($2 in v) && f > 0 && ($4 > v[$2] || $5 > n[$2]) {
		printf "  %-14s %-16s %6.3f asleep %6.3f preempted\n", nm[$1], $3, ($4 - v[$2]) / f, ($5 - n[$2]) / f
	}' "$out/switches.before" "$out/switches.after" | while read -r l; do say "  $l"; done

# Per process: its threads, then its symbols above 1% of its own
# samples, each also as ns a frame (its share of the process's CPU time
# in the window).  Code QEMU's TCG generated for the guest counts as one
# symbol, "[TCG guest code]".  From perf script: perf report's --pid and
# --comm filters proved unreliable with named threads.
perf script -i "$out/perf.data" -F comm,pid,tid,ip,sym,dso >"$out/samples.txt" \
	2>>"$out/perf-report.log"
awk '
	# What a symbol is part of, for the table in bench.rst.
	function part(sym, dso) {
		if (sym == "[TCG guest code]" || sym ~ /^(helper_|tb_|cpu_exec|cpu_tb|qht_|tcg_)/)
			return "guest code under TCG (code, TB lookups, helpers)"
		if (sym ~ /crc32|crc_slice8|whw_roce_icrc/)
			return "model: ICRC (CRC-32)"
		if (sym ~ /^(whw_|wrenhw_)/)
			return "model: the rest (WQEs, headers, parse, CQEs, EQs)"
		if (sym ~ /^wren_wire/ && dso ~ /^qemu/)
			return "QEMU cable (-netdev stream, or the device wire=)"
		if (sym ~ /^wren_/ && dso ~ /^qemu/)
			return "QEMU device glue (DMA, MSI-X, MMIO, netdev hooks)"
		if (sym ~ /^(address_space_|flatview_|qemu_ram_|memory_region_|pci_dma|dma_memory|dma_buf)/)
			return "QEMU memory API (DMA of the model)"
		if (sym ~ /^(net_|qemu_net|qemu_send|qemu_deliver|qemu_can_send|qemu_get_queue|qio_|nc_|filter_|wire_out|iov_)/)
			return "QEMU cable (-netdev stream, or the device wire=)"
		if (dso ~ /kallsyms/)
			return "host kernel (syscalls, sockets, wakeups)"
		if (sym ~ /memmove|memcpy|memset/)
			return "libc memcpy/memmove"
		if (dso ~ /glib|vdso/ || sym ~ /poll|aio_|qemu_bh|timerlist|main_loop|event_notifier|qemu_mutex|qemu_event|qemu_clock|qemu_cond|_clock/)
			return "main loops (poll, glib, timers, clocks)"
		if (dso == "wren-fabric")
			return "wren-fabric switching and queues"
		if (dso ~ /^lib(c|pthread)/)
			return "libc (send, recv, malloc)"
		if (sym ~ /^object_/)
			return "QEMU object casts"
		return "other"
	}
	FILENAME ~ /procs$/ { name[$1] = $2; ns[$1] = $3; next }
	{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\/[0-9]+$/)
				break
		split($i, pt, "/")
		pid = pt[1]
		if (!(pid in name))
			next
		comm = $1
		for (j = 2; j < i; j++)
			comm = comm " " $j
		dso = "?"
		if (match($0, /\([^()]*\)$/))
			dso = substr($0, RSTART + 1, RLENGTH - 2)
		sym = ""
		for (j = i + 2; j <= NF && substr($j, 1, 1) != "("; j++)
			sym = sym (sym == "" ? "" : " ") $j
		sub(/.*\//, "", dso)
		if (dso ~ /^\[JIT\]/ || dso ~ /^perf-[0-9]+\.map$/)
			sym = "[TCG guest code]"
		else if (sym == "" || sym == "[unknown]")
			sym = "[unknown]"
		tot[pid]++
		thr[pid SUBSEP comm]++
		sy[pid SUBSEP sym " (" dso ")"]++
		pa[pid SUBSEP part(sym, dso)]++
	}
	END {
		for (pid in name) {
			printf "%s (pid %s): %d samples, %s ns a frame; threads:\n", name[pid], pid, tot[pid], ns[pid]
			for (k in thr) {
				split(k, kk, SUBSEP)
				if (kk[1] == pid && thr[k] * 100 >= tot[pid])
					printf "T %s %.1f %.0f %s\n", pid, 100 * thr[k] / tot[pid], ns[pid] * thr[k] / tot[pid], kk[2]
			}
			for (k in pa) {
				split(k, kk, SUBSEP)
				if (kk[1] == pid)
					printf "P %s %.1f %.0f %s\n", pid, 100 * pa[k] / tot[pid], ns[pid] * pa[k] / tot[pid], kk[2]
			}
			for (k in sy) {
				split(k, kk, SUBSEP)
				if (kk[1] == pid && sy[k] * 100 >= tot[pid])
					printf "S %s %.1f %.0f %s\n", pid, 100 * sy[k] / tot[pid], ns[pid] * sy[k] / tot[pid], kk[2]
			}
		}
	}' "$out/procs" "$out/samples.txt" >"$out/breakdown.raw"
while read -r pid name ns; do
	say "$name (pid $pid), $ns ns a frame; its threads:"
	awk -v p="$pid" '$1 == "T" && $2 == p' "$out/breakdown.raw" | sort -k3,3nr |
		while read -r _ _ pct nsf rest; do say "$(printf '  %5.1f%% %6s ns  %s' "$pct" "$nsf" "$rest")"; done
	say "$name: by part:"
	awk -v p="$pid" '$1 == "P" && $2 == p' "$out/breakdown.raw" | sort -k3,3nr |
		while read -r _ _ pct nsf rest; do say "$(printf '  %5.1f%% %6s ns  %s' "$pct" "$nsf" "$rest")"; done
	say "$name: symbols above 1% of its samples:"
	awk -v p="$pid" '$1 == "S" && $2 == p' "$out/breakdown.raw" | sort -k3,3nr | head -n 25 |
		while read -r _ _ pct nsf rest; do say "$(printf '  %5.1f%% %6s ns  %s' "$pct" "$nsf" "$rest")"; done
done <"$out/procs"
grep -h '^bench-rdma:' "$run/guest0.out" 2>/dev/null | while read -r l; do say "$l"; done
exit "$rc"
