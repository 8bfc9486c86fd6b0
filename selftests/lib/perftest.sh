# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# Run one perftest (ib_write_bw, ib_send_lat, ...) between two bench
# guests: one side serves, the other connects over the virtio control
# network.  Needs wait.sh sourced first.
#
#   perftest_server KEY OUT CMD...   run CMD (the server) with output in OUT;
#                                    stops it when the peer's client is done
#   perftest_client KEY OUT HOST CMD...
#                                    run CMD HOST until the server listens
#
# KEY names the pair (unique within a boot): the client leaves
# $WREN_RESULTS/done-KEY when it finishes, whatever the outcome, so a
# server whose client gave up never waits for its own timeout and the two
# guests stay in step.  Give each pair its own -p port as well: a client
# must never reach the server of another pair.
#
# The server side also measures its guest's CPU from the moment the
# connection is set up (perftest prints "remote address") until it exits,
# from /proc/stat, and writes "BUSY_PCT SOFTIRQ_PCT SECONDS" to OUT.cpu:
# for READ and atomics the server is the passive side.
#
#   perftest_figure OUT NAME         the run's figure (bandwidth or latency)
#   perftest_untimed OUT NAME        true when perftest could not time it
#
# PERFTEST_TIMEOUT bounds one run (s, default 300); PERFTEST_CONNECT_WAIT how
# long a client retries to reach its server (s, default 120).

perftest_peer_results() {
	echo "$(dirname "$WREN_RESULTS")/g$((1 - ${WREN_GUEST_INDEX:-0}))"
}

# Busy jiffies (user+nice+system+irq+softirq), softirq+irq jiffies and all
# jiffies of all CPUs, with builtins only.
perftest_cpu_sample() {
	local _ user nice sys idle iowait irq softirq rest
	read -r _ user nice sys idle iowait irq softirq rest </proc/stat
	echo "$((user + nice + sys + irq + softirq)) $((irq + softirq))" \
		"$((user + nice + sys + idle + iowait + irq + softirq))"
}

# Is the connection set up?  (perftest prints the peer's QP after the
# exchange; stdout is line-buffered through stdbuf.)
perftest_connected() {
	local line
	while IFS= read -r line; do
		case $line in *"remote address"*) return 0 ;; esac
	done <"$1"
	return 1
}

perftest_server() {
	local key=$1 out=$2 pid rc b0 s0 t0 b1 s1 t1 peer i
	shift 2
	peer=$(perftest_peer_results)
	rm -f "$out.cpu"
	: >"$out"
	timeout "${PERFTEST_TIMEOUT:-300}" stdbuf -oL "$@" >"$out" 2>&1 &
	pid=$!
	# Until the connection is up: the waiting itself is idle time.
	read -r b0 s0 t0 < <(perftest_cpu_sample)
	while kill -0 "$pid" 2>/dev/null; do
		if perftest_connected "$out"; then
			read -r b0 s0 t0 < <(perftest_cpu_sample)
			break
		fi
		[ -e "$peer/done-$key" ] && break
		nap 0.1
	done
	# Then look for the end, or a client that gave up, five times a
	# second: nap needs no exec, and a sweep's next server starts sooner.
	while kill -0 "$pid" 2>/dev/null; do
		if [ -e "$peer/done-$key" ]; then
			# The client is done: a healthy server follows within seconds.
			for ((i = 0; i < 150; i++)); do
				kill -0 "$pid" 2>/dev/null || break
				nap 0.1
			done
			kill "$pid" 2>/dev/null
			break
		fi
		nap 0.2
	done
	wait "$pid"
	rc=$?
	read -r b1 s1 t1 < <(perftest_cpu_sample)
	t1=$((t1 - t0))
	[ "$t1" -gt 0 ] || t1=1
	# /proc/stat counts in USER_HZ (100) ticks per CPU.
	echo "$(((b1 - b0) * 100 / t1)) $(((s1 - s0) * 100 / t1))" \
		"$((t1 / $(nproc) / 100)).$((t1 / $(nproc) % 100 / 10))" >"$out.cpu.tmp"
	mv -f "$out.cpu.tmp" "$out.cpu"
	return "$rc"
}

perftest_client() {
	local key=$1 out=$2 host=$3 rc=1 deadline
	shift 3
	deadline=$((SECONDS + ${PERFTEST_CONNECT_WAIT:-120}))
	while :; do
		timeout "${PERFTEST_TIMEOUT:-300}" "$@" "$host" >"$out" 2>&1
		rc=$?
		[ "$rc" = 0 ] && break
		grep -qE "Couldn't connect|Unable to init the socket connection" "$out" || break
		[ "$SECONDS" -ge "$deadline" ] && break
		nap 0.5
	done
	: >"$WREN_RESULTS/done-$key"
	return "$rc"
}

# perftest_field OUT N: field N of the result line (the line after the
# "#bytes" header) of a perftest output, empty if there is none.
perftest_field() {
	awk -v n="$2" 'f && NF >= n && $1 ~ /^[0-9]+$/ { print $n; exit } /#bytes/ { f = 1 }' "$1"
}

# perftest_figure OUT NAME: what a run of test NAME (ib_write_bw, ...)
# measured: BW average (MB/s) of a bandwidth test, t_typical (us) of a
# latency test; empty if there is none.
perftest_figure() {
	case $2 in
	*_bw) perftest_field "$1" 4 ;;
	*) perftest_field "$1" 5 ;;
	esac
}

# perftest_untimed OUT NAME: did perftest fail to time a run that moved
# its data?  It fits the TSC's rate against gettimeofday() over a few
# milliseconds as it starts; when the vCPU is descheduled meanwhile (a TCG
# guest on a busy host) the fit fails, perftest says "Correlation
# coefficient r^2: ... < 0.9", takes the clock for 0 MHz and reports
# 0 MB/s, or no latency, for the whole run: no figure at all.
perftest_untimed() {
	local fig
	grep -q "Correlation coefficient" "$1" && return 0
	fig=$(perftest_figure "$1" "$2")
	[ -n "$fig" ] && awk -v f="$fig" 'BEGIN { exit !(f + 0 == 0) }'
}
