# shellcheck shell=bash
# scaleout.sh: scaling out (README, "Scaling out: icecc and a shared
# ccache"), for every script.  Sourced by lib.sh, never executed; lib.sh
# calls scale_out_env once it has checked the variables.
#
# ICECC=1: ccache hands every compile it has to run to icecc
# (CCACHE_PREFIX=icecc), which asks the machine's iceccd, and through it
# the cluster's scheduler, where to compile it.  The kernel builds
# (build.sh, cross.sh) and the build checks (run by check.sh, which passes
# this environment on) all compile through ccache, so they all go to the
# cluster; make -j is then ICECC_JOBS (4 x nproc by default: the machine
# only preprocesses and links) unless JOBS was given.  LOCAL_JOBS keeps the
# machine's own count for the work icecc cannot take (spatch, the abi
# probes).  CCACHE_REMOTE, a redis:// URL, is ccache's remote storage, with
# or without icecc: machines that share it share their compiles.
scale_out_env() {
	export LOCAL_JOBS=${LOCAL_JOBS:-${JOBS:-$(nproc)}}
	if [[ ${ICECC:-0} == 1 ]]; then
		export CCACHE_PREFIX=icecc
		[[ -n ${JOBS:-} ]] || JOBS=${ICECC_JOBS:-$((4 * $(nproc)))}
	fi
	export JOBS=${JOBS:-$(nproc)}
	if [[ -n ${CCACHE_REMOTE:-} ]]; then
		export CCACHE_REMOTE_STORAGE=$CCACHE_REMOTE
	fi
}

# require_scale_out: before a script compiles anything, stop with what to
# install or start when ICECC=1 cannot reach icecc (icecc_ready) or
# CCACHE_REMOTE's server does not answer (remote_cache_ready): icecc and
# ccache would otherwise quietly do the work alone.  Checked once per run
# (WS_SCALE_OUT_OK is passed on to the scripts it runs).
require_scale_out() {
	[[ ${WS_SCALE_OUT_OK:-0} != 1 ]] || return 0
	if [[ ${ICECC:-0} == 1 ]]; then
		icecc_ready || exit 1
	fi
	if [[ -n ${CCACHE_REMOTE:-} ]]; then
		remote_cache_ready || exit 1
	fi
	export WS_SCALE_OUT_OK=1
}

# icecc_ready: the icecc client is installed, an iceccd answers where
# icecc looks for one, and a test compile through icecc was placed by the
# scheduler, not built locally (icecc_probe); with ICECC_SCHEDULER, that
# scheduler answers and placed it (its job count grew).  Each failure says
# what to install or start.
icecc_ready() {
	local dir rc=0
	if ! command -v icecc >/dev/null; then
		printf 'error: ICECC=1, but the icecc client is not installed: run make deps ICECC=1 (apt-get install icecc)\n' >&2
		printf '  and start iceccd here%s (README, "Scaling out"); ICECC=0 compiles on this machine alone\n' \
			"${ICECC_SCHEDULER:+ with -s $ICECC_SCHEDULER}" >&2
		return 1
	fi
	mkdir -p "$WORKDIR" && dir=$(mktemp -d "$WORKDIR/.icecc-probe.XXXXXX") || return 1
	icecc_verdict "$dir" || rc=$?
	rm -rf "$dir"
	return $rc
}

# icecc_verdict DIR: icecc_ready's checks, around a test compile in DIR.
# An iceccd without a scheduler places the job on its own machine, and its
# client's log says the same as when the scheduler did: only the
# scheduler's count of jobs tells them apart.
icecc_verdict() {
	local dir=$1 log=$1/icecc.log daemon rc=0 host="" port="" up=1 before="" after="" where
	if [[ -n ${ICECC_SCHEDULER:-} ]]; then
		host=${ICECC_SCHEDULER%:*}
		port=8765
		[[ $ICECC_SCHEDULER != *:* ]] || port=${ICECC_SCHEDULER##*:}
		# The text port first: a bare connection to the scheduler's own
		# port holds it up for seconds.
		before=$(scheduler_jobs "$host" "$port") || tcp_answers "$host" "$port" || up=0
	fi
	icecc_probe "$dir" || rc=$?
	daemon=$(sed -n 's/.*: connected to \(.*\)$/\1/p' "$log" 2>/dev/null | head -n1)
	if [[ -z $daemon ]] || grep -qE 'no local daemon found|test socket error' "$log"; then
		printf 'error: ICECC=1, but no iceccd answers on this machine (icecc looked at %s)\n' \
			"${ICECC_TEST_SOCKET:-/var/run/icecc/iceccd.socket, ~/.iceccd.socket and 127.0.0.1:10245}" >&2
		printf '  start it: iceccd -d%s (or systemctl start iceccd, with ICECC_SCHEDULER_HOST in /etc/icecc/icecc.conf);\n' \
			"${ICECC_SCHEDULER:+ -s $ICECC_SCHEDULER}" >&2
		printf '  README, "Scaling out"; ICECC=0 compiles on this machine alone\n' >&2
		return 1
	fi
	if ((up == 0)); then
		printf 'error: ICECC=1: nothing answers at %s:%s, the icecc scheduler ICECC_SCHEDULER names\n' "$host" "$port" >&2
		printf '  start icecc-scheduler there (systemctl enable --now icecc-scheduler), or fix ICECC_SCHEDULER\n' >&2
		return 1
	fi
	if ((rc != 0)) || grep -q '<building_local>' "$log" ||
		! grep -qE 'building myself, but telling localhost|Have to use host' "$log"; then
		printf 'error: ICECC=1: iceccd at %s answers, but a test compile did not go to the cluster (status %s); icecc said:\n' "$daemon" "$rc" >&2
		grep -viE 'invoked as|^\s*$' "$log" | sed 's/^ICECC\[[0-9]*\] [0-9-]* [0-9:]*: /  /' | tail -n 8 >&2
		printf '  is iceccd connected to a scheduler (iceccd -s HOST, or ICECC_SCHEDULER_HOST in /etc/icecc/icecc.conf)?\n' >&2
		return 1
	fi
	where="the scheduler iceccd found (ICECC_SCHEDULER names none, so it is not checked)"
	if [[ -n $before ]]; then
		after=$(scheduler_jobs "$host" "$port") || after=$before
		if ((after <= before)); then
			printf 'error: ICECC=1: a test compile went to iceccd at %s, but not to the scheduler at %s:%s (its job count stayed at %s)\n' \
				"$daemon" "$host" "$port" "$before" >&2
			printf '  connect iceccd to it: iceccd -d -s %s (or ICECC_SCHEDULER_HOST in /etc/icecc/icecc.conf, then restart iceccd)\n' \
				"$ICECC_SCHEDULER" >&2
			return 1
		fi
		where="the scheduler at $host:$port"
	elif [[ -n $host ]]; then
		warn "ICECC=1: cannot read the job count of the scheduler at $host:$port (its text port, $((port + 1))), so whether iceccd uses it is not checked"
		where="the scheduler iceccd found"
	fi
	# On stderr: the stdout of build.sh commit and boot.sh commit is data.
	progress icecc "compiles go through iceccd at $daemon to $where; make -j$JOBS" >&2
}

# scheduler_jobs HOST PORT: how many jobs the icecc scheduler at HOST:PORT
# has placed since it started, from the greeting of its text interface on
# PORT+1 ("200-ICECC 1.4.0: 5s uptime, 2 hosts, 0 jobs in queue (57 total).").
scheduler_jobs() {
	local line
	# shellcheck disable=SC2016 # $1 and $2 are the inner shell's
	line=$(timeout 5 bash -c 'exec 3<>"/dev/tcp/$1/$2" && head -n1 <&3' sh "$1" "$(($2 + 1))" 2>/dev/null) ||
		return 1
	[[ $line =~ \(([0-9]+)\ total\) ]] || return 1
	echo "${BASH_REMATCH[1]}"
}

# tcp_answers HOST PORT: something accepts a connection there within 5s.
tcp_answers() {
	# shellcheck disable=SC2016 # $1 and $2 are the inner shell's
	timeout 5 bash -c 'exec 3<>"/dev/tcp/$1/$2"' sh "$1" "$2" 2>/dev/null
}

# icecc_probe DIR: compile a one-line file in DIR through icecc, as ccache
# does, with icecc's debug log in DIR/icecc.log; icecc's status.  icecc
# looks for iceccd where the client always does: $ICECC_TEST_SOCKET if set
# (icecc's own test hook, which tests/icecc.bats uses), else
# /var/run/icecc/iceccd.socket, ~/.iceccd.socket, 127.0.0.1:10245.  Its log
# says which daemon answered, and whether the scheduler placed the job
# ("building myself" on this machine, or "Have to use host") or icecc
# built it locally.
icecc_probe() {
	local dir=$1
	printf 'int vstatus_icecc_probe(void) { return 0; }\n' >"$dir/probe.c" || return 1
	: >"$dir/icecc.log" || return 1
	(cd "$dir" && ICECC_DEBUG=debug ICECC_LOGFILE=$dir/icecc.log timeout 300 icecc gcc -c -o probe.o probe.c) \
		>"$dir/out" 2>&1
}

# icecc_run CC CMD...: CMD, a kernel make whose compiler is CC.  With
# ICECC=1 and a cross compiler, under an ICECC_VERSION that names the
# icecc environments (icecc_env) of gcc and of CC: iceccd makes an
# environment by itself only for a gcc with its g++ beside it, which
# Debian's cross compilers lack, and icecc compiles locally when it has
# none.  The machine's own gcc needs nothing (iceccd makes its
# environment); an ICECC_VERSION of the user's own is kept.
icecc_run() {
	local cc=$1 spec native cross
	shift
	if [[ ${ICECC:-0} != 1 || -n ${ICECC_VERSION:-} || ${cc##*/} == gcc ]]; then
		"$@"
		return
	fi
	# The native gcc's first, then CC's for the jobs of CC's prefix (the
	# name before its last "-", as icecc reads it).
	native=$(icecc_env gcc) && cross=$(icecc_env "$cc") || return 1
	cc=${cc##*/}
	spec="$native,$cross=${cc%-*}"
	(export ICECC_VERSION=$spec && "$@")
}

# icecc_env CC: the tarball of compiler CC, its assembler and libraries
# (icecc-create-env) that the cluster's daemons compile CC's jobs in.  Made
# once, in $WORKDIR/icecc-envs/, keyed by the compiler's files (a new
# compiler makes a new one); two runs making the same one at once are fine.
icecc_env() {
	local cc key dir tmp gxx tarball
	cc=$(command -v "$1") || { warn "icecc: no compiler '$1'"; return 1; }
	key=$(icecc_env_key "$cc") || { warn "icecc: cannot read the files of $cc"; return 1; }
	dir=$WORKDIR/icecc-envs/${cc##*/}-$key
	if [[ ! -f $dir/env ]]; then
		progress icecc "making the icecc environment of ${cc##*/} (once)" >&2
		mkdir -p "$WORKDIR/icecc-envs" && tmp=$(mktemp -d "$dir.XXXXXX") || return 1
		# Without the matching g++ (a cross compiler), gcc stands in for it.
		gxx=${cc%gcc}g++
		[[ -x $gxx ]] || gxx=$cc
		if ! (cd "$tmp" && icecc-create-env --gcc "$cc" "$gxx") >"$tmp/log" 2>&1; then
			warn "icecc-create-env failed for $cc (log: $tmp/log):"
			tail -n 5 "$tmp/log" >&2
			return 1
		fi
		tarball=$(cd "$tmp" && compgen -G '*.tar.*' | head -n1)
		if [[ -z $tarball ]]; then
			warn "icecc-create-env made no tarball for $cc (log: $tmp/log)"
			return 1
		fi
		echo "$tarball" >"$tmp/env" || return 1
		publish_dir "$tmp" "$dir" || return 1
	fi
	echo "$dir/$(cat "$dir/env")"
}

# icecc_env_key CC: what an icecc environment of CC is a function of: the
# driver, its cc1 and its assembler (found as gcc finds them).
icecc_env_key() {
	local cc=$1 prog path
	local -a files=("$cc")
	for prog in cc1 as; do
		path=$("$cc" -print-prog-name="$prog") || return 1
		[[ $path == */* ]] || path=$(command -v "$path") || return 1
		files+=("$path")
	done
	key_from 16 --run stat -L -c '%n %s %Y' "${files[@]}"
}

# remote_cache_ready: CCACHE_REMOTE's Redis server answers (ccache would
# otherwise only count remote storage errors and compile everything here).
remote_cache_ready() {
	local url=${CCACHE_REMOTE%%|*} hostport host port
	case $url in
	redis+unix://*)
		[[ -S ${url#redis+unix://} ]] && return 0
		printf 'error: CCACHE_REMOTE: no Redis socket at %s\n' "${url#redis+unix://}" >&2
		return 1
		;;
	esac
	hostport=${url#redis://}
	hostport=${hostport##*@}
	hostport=${hostport%%/*}
	port=6379
	if [[ $hostport == \[* ]]; then
		# An IPv6 address, in brackets: [::1]:6379.
		host=${hostport%%]*}
		host=${host#[}
		[[ ${hostport#*]} != :* ]] || port=${hostport#*]:}
	else
		host=${hostport%:*}
		[[ $hostport != *:* ]] || port=${hostport##*:}
	fi
	if ! tcp_answers "$host" "$port"; then
		printf 'error: CCACHE_REMOTE: nothing answers at %s port %s, the Redis server it names\n' "$host" "$port" >&2
		printf '  start the shared Redis server there (Debian: redis-server, listening beyond 127.0.0.1; README, "Scaling out"), or leave CCACHE_REMOTE empty\n' >&2
		return 1
	fi
	redis_answers "$host" "$port" && return 0
	printf 'error: CCACHE_REMOTE: %s port %s answers, but not as a Redis server (no reply to PING)\n' "$host" "$port" >&2
	return 1
}

# redis_answers HOST PORT: a Redis server is there: PING gets +PONG, or an
# error that only a Redis server gives (-NOAUTH, -ERR ..., a server that
# wants a password or is loading).
redis_answers() {
	# shellcheck disable=SC2016 # $1 and $2 are the inner shell's
	timeout 5 bash -c 'exec 3<>"/dev/tcp/$1/$2" && printf "PING\r\n" >&3 && IFS= read -r line <&3 &&
		[[ $line == "+PONG"* || $line == -NOAUTH* || $line == -ERR* || $line == -LOADING* ]]' sh "$1" "$2" 2>/dev/null
}
