# shellcheck shell=bash
# shellcheck disable=SC2154 # tree, scratch, commit, log, targets: set by the run script that sources this
# checks/lib/compare.sh: build the commit's objects (checks/lib/kbuild.sh)
# at the commit and, only when that shows anything, at its parent; count
# what the commit adds.  Sourced after kbuild.sh; uses $commit and $log.

# cached_messages REV OUT MAKEARG...: compile_messages, kept in the
# scratch directory by revision, objects, arguments and compiler, so that
# the parent's build is free when the previous commit of the series built
# the same objects (a series that keeps touching kernel/signal.c).
cached_messages() {
	local rev=$1 out=$2 key rc=0
	shift 2
	rev=$(git_tree rev-parse "$rev")
	key=$scratch/messages/$({
		echo "$rev $*" "${targets[@]}"
		${CHECK_CC:-gcc} --version | head -n1
	} | sha256sum | cut -c1-32)
	if [[ -f $key.rc ]]; then
		cp "$key.out" "$out"
		cat "$key.txt"
		return "$(cat "$key.rc")"
	fi
	mkdir -p "$scratch/messages"
	compile_messages "$rev" "$out" "$@" >"$key.txt.tmp" || rc=$?
	cp "$out" "$key.out"
	mv "$key.txt.tmp" "$key.txt"
	echo "$rc" >"$key.rc"
	cat "$key.txt"
	return "$rc"
}

# compare_builds NAME WHAT MAKEARG...: the whole check.  NAME names the
# temporary files, WHAT the messages in the summary ("sparse warnings").
compare_builds() {
	local name=$1 what=$2 tmp rc_new=0 rc_old=0 n_err n_warn
	shift 2
	commit=$(git_tree rev-parse -q --verify "$commit^{commit}") ||
		{ echo "no commit $commit in $tree"; exit 1; }
	mapfile -t targets < <(objects)
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
	if [[ -s $tmp/new.txt ]] || ((rc_new != 0)); then
		cached_messages "$commit^" "$tmp/old.out" "$@" >"$tmp/old.txt" || rc_old=$?
	else
		: >"$tmp/old.txt"
	fi
	comm -13 "$tmp/old.txt" "$tmp/new.txt" >"$tmp/added.txt"
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
	if ((n_err > 0)) || ((rc_new != 0 && rc_old == 0)); then
		echo "${n_err} new errors, make exit $rc_new: $(grep -m1 'error: ' "$tmp/added.txt" || tail -n1 "$tmp/new.out")"
		exit 1
	elif ((n_warn > 0)); then
		echo "$n_warn new $what: $(head -n1 "$tmp/added.txt" | cut -c1-160)"
		exit 250
	fi
	echo "no new $what in ${#targets[@]} objects ($(wc -l <"$tmp/new.txt") in all)"
}
