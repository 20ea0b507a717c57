# shellcheck shell=bash
# shellcheck disable=SC2154 # tree, scratch, commit, log, targets: set by the run script that sources this
# checks/lib/compare.sh: build the commit's objects (checks/lib/kbuild.sh)
# at the commit and, only when that shows anything, at its parent; count
# what the commit adds.  Sourced after kbuild.sh; uses $commit and $log.

# cached_messages REV OUT MAKEARG...: compile_messages, kept in the
# scratch directory by revision, .config, objects, arguments and compiler,
# so that the parent's build is free when the previous commit of the series
# built the same objects (a series that keeps touching kernel/signal.c).
# Only a build that succeeded is kept.  Returns compile_messages' status
# (125: REV could not be checked out or configured, the reason in OUT).
cached_messages() {
	local rev=$1 out=$2 key chash cc rc=0
	shift 2
	: >"$out" || return 125
	rev=$(git_tree rev-parse -q --verify "$rev^{commit}") ||
		{ echo "no commit $1 in $tree" >>"$out"; return 125; }
	chash=$(config_hash "$rev" "$@" 2>>"$out") || return 125
	cc=$(cc_version) || return 125
	key=$scratch/messages/$(key_from 32 --text "$rev $*" "${targets[*]}" "$cc" "config $chash") || return 125
	if [[ -f $key.txt && -f $key.out ]]; then
		cp "$key.out" "$out" || return 125
		cat "$key.txt"
		return 0
	fi
	mkdir -p "$scratch/messages" || return 125
	compile_messages "$rev" "$out" "$@" >"$key.txt.tmp" || rc=$?
	if ((rc == 0)); then
		cp "$out" "$key.out.tmp" && mv "$key.out.tmp" "$key.out" && mv "$key.txt.tmp" "$key.txt" ||
			return 125
		cat "$key.txt"
	else
		cat "$key.txt.tmp"
		rm -f "$key.txt.tmp"
	fi
	return "$rc"
}

# last_lines FILE: FILE's last two lines that are not make's own
# (Entering directory, *** [...] Error), on one line, for a summary.
last_lines() {
	{ grep -vE '^make(\[[0-9]+\])?: ' "$1" || tail -n1 "$1"; } | tail -n2 | paste -sd'|' |
		sed 's/|/ | /' | cut -c1-200
}

# compare_builds NAME WHAT MAKEARG...: the whole check.  NAME names the
# temporary files, WHAT the messages in the summary ("sparse warnings").
# Fails when the commit or its parent could not be checked out, configured
# or prepared, when the commit adds an error, and when make fails at the
# commit at all (the objects could not be checked).
compare_builds() {
	local name=$1 what=$2 tmp rc_new=0 rc_old=0 n_err n_warn text
	shift 2
	commit=$(git_tree rev-parse -q --verify "$commit^{commit}") ||
		{ echo "no commit $commit in $tree" | tee "$log"; exit 1; }
	text=$(objects) || { echo "could not list the objects of ${commit:0:12}" | tee "$log"; exit 1; }
	targets=()
	[[ -z $text ]] || mapfile -t targets <<<"$text"
	if ((${#targets[@]} == 0)); then
		echo "no object to build for the files this commit touches" | tee "$log"
		exit 0
	fi
	mkdir -p "$scratch"
	export CCACHE_DIR=${CCACHE_DIR:-${WORKDIR:-$scratch}/ccache}
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064 # expand now: tmp is local
	trap "rm -rf '$tmp'" EXIT
	cached_messages "$commit" "$tmp/new.out" "$@" >"$tmp/new.txt" || rc_new=$?
	if ((rc_new == 125)); then
		{ echo "objects: ${targets[*]}"; cat "$tmp/new.out"; } >"$log"
		echo "could not build at the commit: $(last_lines "$tmp/new.out")"
		exit 1
	fi
	if [[ -s $tmp/new.txt ]] || ((rc_new != 0)); then
		cached_messages "$commit^" "$tmp/old.out" "$@" >"$tmp/old.txt" || rc_old=$?
		if ((rc_old == 125)); then
			{ echo "objects: ${targets[*]}"; cat "$tmp/old.out"; } >"$log"
			echo "could not build the parent: $(last_lines "$tmp/old.out")"
			exit 1
		fi
	else
		: >"$tmp/old.txt"
	fi
	LC_ALL=C comm -13 "$tmp/old.txt" "$tmp/new.txt" >"$tmp/added.txt"
	{
		echo "objects: ${targets[*]}"
		echo "$name messages in the parent: $(wc -l <"$tmp/old.txt"), in the commit: $(wc -l <"$tmp/new.txt")"
		echo "new:"
		cat "$tmp/added.txt"
		echo "== make at the commit (exit $rc_new):"
		cat "$tmp/new.out"
		[[ ! -f $tmp/old.out ]] || { echo "== make at the parent (exit $rc_old):"; cat "$tmp/old.out"; }
	} >"$log"
	n_err=$(grep -c 'error: ' "$tmp/added.txt" || true)
	n_warn=$(grep -c 'warning: ' "$tmp/added.txt" || true)
	if ((n_err > 0)); then
		echo "${n_err} new errors, make exit $rc_new: $(grep -m1 'error: ' "$tmp/added.txt" | cut -c1-160)"
		exit 1
	elif ((rc_new != 0)); then
		echo "make failed at the commit (exit $rc_new, parent $rc_old), no new error: $(last_lines "$tmp/new.out")"
		exit 1
	elif ((n_warn > 0)); then
		echo "$n_warn new $what: $(head -n1 "$tmp/added.txt" | cut -c1-160)"
		exit 250
	fi
	echo "no new $what in ${#targets[@]} objects ($(wc -l <"$tmp/new.txt") in all)"
}
