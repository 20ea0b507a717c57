#!/usr/bin/env bats
# ICECC=1 and CCACHE_REMOTE (README, "Scaling out: icecc and a shared
# ccache") on the fixture kernel, with an icecc-scheduler, an iceccd and a
# redis-server of the test's own: on loopback, on free ports, with their
# logs and state in $BATS_TEST_TMPDIR, stopped by teardown.  Whether a
# compile went through icecc is read from icecc's own record of it: the
# scheduler's log of each job, "NEW <id> client=<node> ... <file> C" when
# a daemon asks where to compile it and "END <id> status=0 ... server=<node>"
# with its statistics when it is done.  A compile icecc did not get, or
# built locally on its own, has no such pair.
# shellcheck disable=SC2030,SC2031 # bats runs each test in a subshell

load helpers

NODE=vstatus-test

setup() {
	setup_workspace
	# The fixture's compiles go through ccache here (helpers turn it off).
	unset CCACHE_DISABLE
	export CCACHE_DIR=$BATS_TEST_TMPDIR/ccache
	ICE=$BATS_TEST_TMPDIR/icecc
	PIDS=()
	local tool
	for tool in icecc iceccd icecc-scheduler redis-server redis-cli; do
		command -v "$tool" >/dev/null ||
			fail_with "$tool is not installed: make test installs icecc and redis-server (scripts/deps.sh)"
	done
}

teardown() {
	local pid
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null || continue
		for _ in $(seq 1 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null || true
	done
}

fail_with() {
	echo "$*" >&2
	return 1
}

# wait_for WHAT CMD...: CMD succeeds within 60 seconds, or the daemons'
# logs are shown and the test fails.
wait_for() {
	local what=$1
	shift
	for _ in $(seq 1 300); do
		"$@" 2>/dev/null && return 0
		sleep 0.2
	done
	tail -n 20 "$ICE"/*.log "$BATS_TEST_TMPDIR"/redis.log 2>/dev/null >&2 || true
	fail_with "timed out waiting for: $what"
}

# scheduler_port: a port P of 127.0.0.1 free for TCP and UDP, with P+1 free
# for TCP too (the scheduler listens on P, broadcasts on P, and takes text
# commands on P+1).
scheduler_port() {
	/usr/bin/python3 - <<-'PY'
		import socket
		for _ in range(100):
		    socks = [socket.socket()]
		    socks[0].bind(("127.0.0.1", 0))
		    port = socks[0].getsockname()[1]
		    try:
		        for kind, p in ((socket.SOCK_STREAM, port + 1), (socket.SOCK_DGRAM, port)):
		            socks.append(socket.socket(socket.AF_INET, kind))
		            socks[-1].bind(("127.0.0.1", p))
		    except OSError:
		        continue
		    print(port)
		    break
	PY
}

# daemon_cmd: the start of the daemons' command lines.  Started by root,
# iceccd and icecc-scheduler would switch to the icecc user themselves,
# after making /var/run/icecc that user's; here they start as that user
# (setpriv), so that nothing outside $BATS_TEST_TMPDIR changes, and the
# directories they write are made the icecc user's.  ICECC_TESTS: icecc's
# own test mode, in which they broadcast only on loopback.
daemon_cmd=()
setup_daemon_user() {
	daemon_cmd=(env ICECC_TESTS=1 TMPDIR="$ICE/tmp")
	mkdir -p "$ICE/run" "$ICE/envs" "$ICE/tmp"
	((EUID == 0)) || return 0
	id icecc >/dev/null 2>&1 || fail_with "no icecc user (the icecc package makes it)" || return 1
	chown icecc:icecc "$ICE/run" "$ICE/envs" "$ICE/tmp"
	# bats makes its directories 0700; the icecc user must pass through.
	local d=$ICE
	while [[ $d == "$BATS_RUN_TMPDIR"* ]]; do
		chmod o+x "$d"
		d=${d%/*}
	done
	if ! setpriv --reuid=icecc --regid=icecc --clear-groups test -w "$ICE/run"; then
		skip "iceccd runs as the icecc user here (the tests run as root), and a directory above $BATS_RUN_TMPDIR is closed to it: run the tests with TMPDIR set to a directory others can pass through"
	fi
	daemon_cmd=(setpriv --reuid=icecc --regid=icecc --clear-groups "${daemon_cmd[@]}")
}

# start_icecc: a scheduler on 127.0.0.1 and an iceccd connected to it that
# takes no jobs from other machines (so it opens no TCP port at all: only
# the socket $ICECC_TEST_SOCKET, where the icecc client looks for it).  A
# network name of its own keeps them apart from any icecc on this machine.
# Not being root, they write no pid file (into /var/run) either.  The
# scheduler's port is $SCHED_PORT.
start_icecc() {
	setup_daemon_user
	start_scheduler scheduler
	SCHED_PORT=$SCHEDULER_PORT
	export ICECC_TEST_SOCKET=$ICE/run/iceccd.socket
	"${daemon_cmd[@]}" ICECC_TEST_SOCKET="$ICECC_TEST_SOCKET" iceccd -s "127.0.0.1:$SCHED_PORT" \
		-n "vstatus-test-$$" --no-remote -b "$ICE/envs" -N "$NODE" -vvv >"$ICE/iceccd.log" 2>&1 3>&- &
	PIDS+=("$!")
	wait_for "iceccd to connect to the scheduler" grep -q 'Connected to scheduler' "$ICE/iceccd.log"
}

# start_scheduler NAME: an icecc-scheduler on a free port of 127.0.0.1
# ($SCHEDULER_PORT), with the network name of this test, logging to
# $ICE/NAME.log.
start_scheduler() {
	SCHEDULER_PORT=$(scheduler_port)
	[[ -n $SCHEDULER_PORT ]] || fail_with "no free port for the scheduler" || return 1
	"${daemon_cmd[@]}" icecc-scheduler -p "$SCHEDULER_PORT" -i lo -n "vstatus-test-$$" -vvv \
		>"$ICE/$1.log" 2>&1 3>&- &
	PIDS+=("$!")
	wait_for "$1 to listen" grep -q 'scheduler ready' "$ICE/$1.log"
}

# start_redis: a redis-server on a free port of 127.0.0.1 that keeps
# nothing on disk.
start_redis() {
	REDIS_PORT=$(free_port)
	mkdir -p "$BATS_TEST_TMPDIR/redis"
	redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no \
		--dir "$BATS_TEST_TMPDIR/redis" >"$BATS_TEST_TMPDIR/redis.log" 2>&1 3>&- &
	PIDS+=("$!")
	wait_for "redis-server to answer" redis_answers
}

redis_answers() {
	[[ $(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping) == PONG ]]
}

# icecc_jobs FILE: the ids of the jobs of source FILE (a basename) that the
# scheduler gave to the test's daemon and that ended with status 0, from
# its log: "NEW <id> client=<node> versions=[...] <path>/FILE C ..." then
# "END <id> status=0 in=... out=... real=... server=<node>".
icecc_jobs() {
	awk -v file="$1" -v node="$NODE" '
		{ sub(/^\[[0-9]+\] [0-9-]+ [0-9:]+: /, "") }
		$1 == "NEW" && $3 == "client=" node {
			for (i = 4; i <= NF; i++) if ($i == "C" && ($(i - 1) == file || $(i - 1) ~ "/" file "$")) new[$2] = 1
		}
		$1 == "END" && ($2 in new) && $3 == "status=0" && $NF == "server=" node { print $2 }
	' "$ICE/scheduler.log"
}

# compiles_in_logs FILE: how many times the builds' logs show FILE compiled.
compiles_in_logs() {
	cat "$WORKDIR"/artifacts/smoke/*/build.log | grep -c "^  CC      $1\$"
}

applied_fixture() {
	run ws import.sh
	[ "$status" -eq 0 ]
	make_series one linux-source "$@"
	ws apply.sh
}

@test "ICECC=1: each compile of a build is a job of the test's own scheduler and iceccd" {
	start_icecc
	applied_fixture "main.c:int fixture_main(void) { return 1; }:fixture: change main"
	ICECC=1 ICECC_SCHEDULER=127.0.0.1:$SCHED_PORT run ws build.sh series
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"compiles go through iceccd at $ICE/run/iceccd.socket to the scheduler at 127.0.0.1:$SCHED_PORT"* ]]
	[[ $(results_row one 1 build) == pass* ]]
	# main.c was compiled twice (the base and the commit), and the
	# scheduler's statistics hold two finished main.c jobs of the daemon.
	[ "$(compiles_in_logs main.o)" -eq 2 ]
	run icecc_jobs main.c
	echo "scheduler's main.c jobs: $output"
	[ "${#lines[@]}" -eq 2 ]
	# None of them was a local build icecc fell back to.
	[ "$(grep -c 'handle_local_job' "$ICE/scheduler.log")" -eq 0 ]
	# The daemon, too, saw each job end.
	[ "$(grep -c 'handle_job_done [0-9]* 0$' "$ICE/iceccd.log")" -ge 2 ]
}

@test "the same build without ICECC=1 leaves no main.c job in the scheduler's log (the check above can fail)" {
	start_icecc
	applied_fixture "main.c:int fixture_main(void) { return 1; }:fixture: change main"
	run ws build.sh series
	[ "$status" -eq 0 ]
	[ "$(compiles_in_logs main.o)" -eq 2 ]
	run icecc_jobs main.c
	[ "${#lines[@]}" -eq 0 ]
}

@test "ICECC=1 with no iceccd (or no icecc at all) stops before building, saying what to install or start" {
	applied_fixture "main.c:int fixture_main(void) { return 1; }:fixture: change main"
	# Where icecc itself looks first when this is set, and nothing listens.
	export ICECC_TEST_SOCKET=$BATS_TEST_TMPDIR/no-iceccd.socket
	ICECC=1 ICECC_SCHEDULER=127.0.0.1:$(free_port) run ws build.sh series
	[ "$status" -ne 0 ]
	[[ $output == *"ICECC=1, but no iceccd answers on this machine (icecc looked at $ICECC_TEST_SOCKET)"* ]]
	[[ $output == *"start it: iceccd -d -s 127.0.0.1:"* ]]
	[ ! -e "$WORKDIR/artifacts" ]
	ICECC=1 run ws cross.sh series
	[ "$status" -ne 0 ]
	[[ $output == *"no iceccd answers"* ]]
	# Without the icecc client.
	# shellcheck disable=SC2016 # the inner shell's
	run env ICECC=1 bash -c 'source "$1/scripts/lib.sh"; PATH=/nonexistent icecc_ready' _ "$WS"
	[ "$status" -ne 0 ]
	[[ $output == *"the icecc client is not installed: run make deps ICECC=1 (apt-get install icecc)"* ]]
}

@test "ICECC=1 with a scheduler that does not answer stops, naming it" {
	start_icecc
	applied_fixture "main.c:int fixture_main(void) { return 1; }:fixture: change main"
	ICECC=1 ICECC_SCHEDULER=127.0.0.1:$(free_port) run ws build.sh series
	[ "$status" -ne 0 ]
	[[ $output == *"nothing answers at 127.0.0.1:"*", the icecc scheduler ICECC_SCHEDULER names"* ]]
}

@test "ICECC=1 with an iceccd that is not connected to the scheduler ICECC_SCHEDULER names stops, saying so" {
	start_icecc
	# A second scheduler that answers, but that the daemon does not use.
	start_scheduler other-scheduler
	applied_fixture "main.c:int fixture_main(void) { return 1; }:fixture: change main"
	ICECC=1 ICECC_SCHEDULER=127.0.0.1:$SCHEDULER_PORT run ws build.sh series
	[ "$status" -ne 0 ]
	[[ $output == *"a test compile went to iceccd at $ICE/run/iceccd.socket, but not to the scheduler at 127.0.0.1:$SCHEDULER_PORT (its job count stayed at 0)"* ]]
	[[ $output == *"iceccd -d -s 127.0.0.1:$SCHEDULER_PORT"* ]]
	[ ! -e "$WORKDIR/artifacts" ]
}

@test "ICECC=1: make -j is ICECC_JOBS (4 x nproc) unless JOBS is given; LOCAL_JOBS stays the machine's" {
	local n
	n=$(nproc)
	# shellcheck disable=SC2016 # the inner shell's
	show='source "$1/scripts/lib.sh"; echo "$JOBS $LOCAL_JOBS ${CCACHE_PREFIX:-none} ${CCACHE_REMOTE_STORAGE:-none}"'
	run env -u JOBS ICECC=1 bash -c "$show" _ "$WS"
	[ "$output" = "$((4 * n)) $n icecc none" ]
	run env -u JOBS ICECC=1 ICECC_JOBS=40 bash -c "$show" _ "$WS"
	[ "$output" = "40 $n icecc none" ]
	run env JOBS=3 ICECC=1 ICECC_JOBS=40 bash -c "$show" _ "$WS"
	[ "$output" = "3 3 icecc none" ]
	run env -u JOBS ICECC=0 CCACHE_REMOTE=redis://cache.example.org bash -c "$show" _ "$WS"
	[ "$output" = "$n $n none redis://cache.example.org" ]
	for v in ICECC=2 ICECC_JOBS=0 CCACHE_REMOTE=http://x 'ICECC_SCHEDULER=a b'; do
		run env "$v" bash -c "$show" _ "$WS"
		[ "$status" -ne 0 ]
		[[ $output == *"${v%%=*} must be"* ]]
	done
}

@test "CCACHE_REMOTE: a second machine with an empty cache of its own takes the first one's compiles from Redis" {
	start_redis
	export CCACHE_REMOTE=redis://127.0.0.1:$REDIS_PORT
	applied_fixture "main.c:int fixture_main(void) { return 1; }:fixture: change main"
	CCACHE_DIR=$BATS_TEST_TMPDIR/ccache-a run ws build.sh series
	[ "$status" -eq 0 ]
	[ "$(compiles_in_logs main.o)" -eq 2 ]
	# The second machine: the same WORKDIR path (the default, for the same
	# user), nothing of the first one's there, an empty local cache.
	mv "$WORKDIR" "$BATS_TEST_TMPDIR/machine-a"
	run ws import.sh
	[ "$status" -eq 0 ]
	ws apply.sh
	CCACHE_DIR=$BATS_TEST_TMPDIR/ccache-b run ws build.sh series
	[ "$status" -eq 0 ]
	[ "$(compiles_in_logs main.o)" -eq 2 ]
	stat_a() { CCACHE_DIR=$BATS_TEST_TMPDIR/ccache-a ccache --print-stats | awk -v k="$1" '$1 == k { print $2 }'; }
	stat_b() { CCACHE_DIR=$BATS_TEST_TMPDIR/ccache-b ccache --print-stats | awk -v k="$1" '$1 == k { print $2 }'; }
	CCACHE_DIR=$BATS_TEST_TMPDIR/ccache-b ccache -s
	# The first machine missed both compiles and wrote them to Redis...
	[ "$(stat_a remote_storage_miss)" -eq 2 ]
	[ "$(stat_a remote_storage_write)" -ge 2 ]
	# ...and the second one found both there, and had nothing locally.
	[ "$(stat_b remote_storage_hit)" -eq 2 ]
	[ "$(stat_b local_storage_hit)" -eq 0 ]
	[ "$(stat_b cache_miss)" -eq 0 ]
}

@test "CCACHE_REMOTE with nothing listening stops before building, naming the server" {
	applied_fixture "main.c:int fixture_main(void) { return 1; }:fixture: change main"
	port=$(free_port)
	CCACHE_REMOTE=redis://127.0.0.1:$port run ws build.sh series
	[ "$status" -ne 0 ]
	[[ $output == *"CCACHE_REMOTE: nothing answers at 127.0.0.1 port $port, the Redis server it names"* ]]
	[ ! -e "$WORKDIR/artifacts" ]
}

@test "CCACHE_REMOTE: a listener that is not Redis is refused, naming it; an IPv6 address in brackets is taken" {
	applied_fixture "main.c:int fixture_main(void) { return 1; }:fixture: change main"
	port=$(free_port)
	/usr/bin/python3 -m http.server --bind 127.0.0.1 "$port" >/dev/null 2>&1 3>&- &
	PIDS+=("$!")
	wait_for "the HTTP server to listen" bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null
	CCACHE_REMOTE=redis://127.0.0.1:$port run ws build.sh series
	[ "$status" -ne 0 ]
	[[ $output == *"CCACHE_REMOTE: 127.0.0.1 port $port answers, but not as a Redis server (no reply to PING)"* ]]
	[ ! -e "$WORKDIR/artifacts" ]
	if [[ ! -s /proc/net/if_inet6 ]]; then
		return 0 # no IPv6 here: the brackets are parsed above all the same
	fi
	REDIS_PORT=$(free_port)
	redis-server --port "$REDIS_PORT" --bind ::1 --save '' --appendonly no \
		--dir "$BATS_TEST_TMPDIR" >"$BATS_TEST_TMPDIR/redis6.log" 2>&1 3>&- &
	PIDS+=("$!")
	wait_for "redis-server on ::1 to answer" bash -c "[[ \$(redis-cli -h ::1 -p $REDIS_PORT ping) == PONG ]]"
	CCACHE_REMOTE="redis://[::1]:$REDIS_PORT" run ws build.sh series
	[ "$status" -eq 0 ]
}

@test "ICECC=1: cross-compile sends a cross compiler's jobs with an icecc environment of that compiler" {
	command -v aarch64-linux-gnu-gcc >/dev/null ||
		skip "aarch64-linux-gnu-gcc is not installed (make deps installs gcc-aarch64-linux-gnu)"
	start_icecc
	export ARCHES_FILE=$BATS_TEST_TMPDIR/arches SMOKE_OUT=$BATS_TEST_TMPDIR/smoke
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
		x86_64 x86_64 - gcc own defconfig \
		arm64 arm64 aarch64-linux-gnu- gcc-aarch64-linux-gnu rep defconfig >"$ARCHES_FILE"
	applied_fixture "lib/a.c:int lib_a(void) { return 0; }:fixture: generic code"
	ICECC=1 run ws cross.sh series
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q "making the icecc environment of aarch64-linux-gnu-gcc (once)" "$WORKDIR"/cross-cache/*/*/*.log
	file "$WORKDIR"/cross/*/arm64/lib/a.o | grep -q 'ARM aarch64'
	# The job named the aarch64 compiler's environment (the tarball's name
	# is its version), and the daemon took it.
	local env
	env=$(cat "$WORKDIR"/icecc-envs/aarch64-linux-gnu-gcc-*/env)
	env=${env%%.tar.*}
	grep -E "NEW [0-9]+ client=$NODE versions=\[$env\(x86_64\)\] .*/a\.c C" "$ICE/scheduler.log"
	run icecc_jobs a.c
	[ "${#lines[@]}" -eq 1 ]
	[ "$(grep -c 'handle_local_job' "$ICE/scheduler.log")" -eq 0 ]
}
