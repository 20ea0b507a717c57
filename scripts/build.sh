#!/usr/bin/env bash
# build.sh: build kernels in a persistent O= directory per config.
#
#   build.sh series NAME...    build the base and every commit of each series
#                              in order (make bisect-build)
#   build.sh commit SHA        build one commit; print "built" or "cached",
#                              then its artifact directory
#   build.sh artifact SHA      the artifact directory of a commit already
#                              built; fails, naming it, when it is not
#   build.sh naive             the naive way's cost, for make bench: one
#                              full build of the base without ccache into
#                              report/naive.tsv (once; NAIVE=1 measures again)
#
# BOOT_ARCH=x86_64|arm64 picks the architecture (scripts/bootarch.sh has
# every fact about each); arm64 merges qemu/configs/arm64.config where
# x86_64 merges smoke.config, and keeps its builds and artifacts apart
# (build/arm64-<config>, artifacts/arm64-<config>).
#
# CONFIG=smoke|debug picks qemu/configs/smoke.config (merged on tinyconfig)
# or that plus debug.config, then the lines of features.config whose
# feature the commit's Kconfig defines (see that file).  Builds go
# through ccache and check out into a dedicated worktree ($WORKDIR/src), so
# the user's checkout is never touched and consecutive commits build
# incrementally.  A commit's result is cached by tree id and config, so an
# unchanged commit is never built twice.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/bootarch.sh
source "$(dirname "$0")/bootarch.sh"

CONFIG=${CONFIG:-smoke}
JOBS=${JOBS:-$(nproc)}
MAKE_KERNEL=${MAKE_KERNEL:-make}
BUILD_TARGET=${BUILD_TARGET:-$BA_TARGET}
IMAGE=${IMAGE:-$BA_IMAGE}
OUT=$WORKDIR/build/$BA_PREFIX$CONFIG
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}	# CCACHE_DIR, depend mode: lib.sh
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2015"
export KBUILD_BUILD_USER=workspace KBUILD_BUILD_HOST=qemu

CONFIG_DIR=${CONFIG_DIR:-$WS_ROOT/qemu/configs}

# fragments: the config's own fragments, in merge order.
fragments() {
	case $CONFIG in
	smoke) echo "$CONFIG_DIR/$BA_FRAGMENT" ;;
	debug) echo "$CONFIG_DIR/$BA_FRAGMENT $CONFIG_DIR/debug.config" ;;
	*) die "unknown CONFIG '$CONFIG' (known: smoke, debug; see qemu/configs/)" ;;
	esac
}

# features SHA: the options of qemu/configs/features.config that apply to
# commit SHA, one a line.  Each line there is a feature: its first option,
# then the options it needs.  A feature applies where the commit's Kconfig
# files define its first option; before that commit it does not exist.
features() {
	local sha=$1 first sym found i alt
	local -a opts lines=() syms=()
	[[ -f $CONFIG_DIR/features.config ]] || return 0
	while read -r -a opts; do
		((${#opts[@]})) || continue
		first=${opts[0]}
		[[ $first == CONFIG_*=* ]] ||
			die "qemu/configs/features.config: '$first' is not a CONFIG_NAME=value option"
		sym=${first%%=*}
		syms+=("${sym#CONFIG_}")
		lines+=("${opts[*]}")
	done < <(sed 's/#.*//' "$CONFIG_DIR/features.config")
	((${#syms[@]})) || return 0
	# One pass over the commit's Kconfig files for every feature.
	alt=$(IFS='|' && echo "${syms[*]}")
	found=$(git_tree grep -hE "^[[:space:]]*(menu)?config ($alt)[[:space:]]*\$" \
		"$sha" -- '*Kconfig*' 2>/dev/null | awk '{ print $2 }') || true
	for i in "${!syms[@]}"; do
		grep -qxF "${syms[$i]}" <<<"$found" || continue
		tr ' ' '\n' <<<"${lines[$i]}"
	done
}

# config_key SHA: what the .config is a function of: the fragments, the
# features the commit defines (none: the fragments alone), its Kconfig files.
config_key() {
	local f
	{
		for f in $(fragments); do cat "$f"; done
		features "$1"
		git_tree ls-tree -r "$1" | grep -E '(/|	)(Kconfig[^/]*|[a-z]*\.config)$' || true
	} | key_of 16
}

artifact_dir() {
	echo "$ARTIFACTS/$BA_PREFIX$CONFIG/$(git_tree rev-parse "$1^{tree}")-$(config_key "$1")"
}

checkout_src() {
	git_worktree_at "$TREE" "$SRC" "$1"
}

# kmake ARGS...: make in $SRC into $OUT, compiling through ccache (and, with
# ICECC=1, icecc: scaleout.sh's icecc_run).
kmake() {
	icecc_run "$BA_CC" "$MAKE_KERNEL" -C "$SRC" O="$OUT" "${BA_KMAKE[@]}" CC="ccache $BA_CC" HOSTCC="ccache gcc" "$@"
}

# verify_config FRAGMENT...: every option the fragments ask for is in the
# final .config.
verify_config() {
	local f line sym missing=()
	for f in "$@"; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*)
				grep -qxF -- "$line" "$OUT/.config" || missing+=("$line (${f##*/})")
				;;
			"# CONFIG_"*" is not set")
				sym=${line#\# }
				sym=${sym%% *}
				grep -q "^$sym=" "$OUT/.config" && missing+=("$line (${f##*/})")
				;;
			esac
		done <"$f"
	done
	if ((${#missing[@]})); then
		printf 'error: the %s config does not have what its fragments ask for:\n' "$CONFIG" >&2
		printf '  %s\n' "${missing[@]}" >&2
		printf '  (a dependency is missing, or the option does not exist in this tree)\n' >&2
		return 1
	fi
}

# configure SHA LOG KEY: $OUT's .config for commit SHA, whose config_key
# is KEY; kept when the last one was made for the same key.
configure() {
	local sha=$1 log=$2 key=$3 feat=$OUT/.ws/features.config
	[[ -f $OUT/.config && $(cat "$OUT/.ws-config-key" 2>/dev/null) == "$key" ]] && return 0
	mkdir -p "$OUT/.ws"
	rm -f "$OUT/.ws-config-key"
	local -a frags
	read -r -a frags <<<"$(fragments)"
	features "$sha" >"$feat"
	[[ -s $feat ]] && frags+=("$feat")
	progress config "$BA_PREFIX$CONFIG: tinyconfig + $(fragments | xargs -n1 basename | xargs)$([[ -s $feat ]] && echo " + features: $(xargs <"$feat")")"
	{
		kmake tinyconfig &&
			"$SRC/scripts/kconfig/merge_config.sh" -m -O "$OUT" "$OUT/.config" "${frags[@]}" &&
			kmake olddefconfig
	} >>"$log" 2>&1 || { tail -n 20 "$log" >&2; return 1; }
	verify_config "${frags[@]}" 2>&1 | tee -a "$log" >&2
	[[ ${PIPESTATUS[0]} == 0 ]] || return 1
	echo "$key" >"$OUT/.ws-config-key"
}

# kmake_with_heartbeat LOG ARGS...: kmake into LOG, with a progress line
# every HEARTBEAT seconds so that a long build is visibly alive.  make runs
# in the foreground, so Ctrl-C reaches it.
kmake_with_heartbeat() {
	local log=$1 hb rc=0
	shift
	# Without fd 9 (the workspace lock): its last "sleep 1" may outlive
	# the kill below, and must not hold the lock for the next run.
	heartbeat "$log" 9>&- &
	hb=$!
	trap 'kill $hb 2>/dev/null || true' EXIT
	kmake "$@" >>"$log" 2>&1 || rc=$?
	kill "$hb" 2>/dev/null || true
	wait "$hb" 2>/dev/null || true
	trap - EXIT
	return $rc
}

heartbeat() {
	local log=$1 t0=$SECONDS next=$((SECONDS + ${HEARTBEAT:-30}))
	while sleep 1; do
		((SECONDS >= next)) || continue
		progress build "  ... $((SECONDS - t0))s, $(grep -c '^  CC ' "$log" || true) files compiled, now: $(grep -E '^  [A-Z]+ ' "$log" | tail -n1 | xargs)"
		next=$((SECONDS + ${HEARTBEAT:-30}))
	done
}

first_error() {
	grep -m1 -E '(: error: |: fatal error: |undefined reference|Error [0-9]+|No rule to make target)' "$1" ||
		tail -n1 "$1"
}

# artifact_done ART: ART holds a finished build.  A kernel that built has its
# .config there too (boot.sh reads it); one without it is built again,
# from ccache.  A damaged entry (an empty or unreadable
# result, a passing build without its kernel) is discarded, naming it.
artifact_done() {
	local art=$1 status
	[[ -e $art ]] || return 1
	status=$(cut -d' ' -f1 "$art/result" 2>/dev/null || true)
	case $status in
	fail) return 0 ;;
	pass) [[ -f $art/config ]] || return 1 ;;
	*)
		warn "discarding the damaged build result $art (result: '$status'); building it again"
		rm -rf "$art"
		return 1
		;;
	esac
	if [[ ! -s $art/$BA_KERNEL || ! -d $art/headers ]] || [[ -n $BA_ARCH32 && ! -d $art/headers32 ]]; then
		warn "discarding the damaged build result $art (no kernel or headers); building it again"
		rm -rf "$art"
		return 1
	fi
}

# build_commit SHA ART: build into $OUT, leave the result in ART, the
# commit's artifact_dir (its name ends in the config key).  Prints nothing; the artifact's 'result' file holds "status seconds detail".
# Returns non-zero only when the workspace itself failed (a checkout, a copy):
# then nothing is stored.  Called as `build_commit || ...`, so without
# errexit: every step checks its own status.
build_commit() {
	local sha=$1 art=$2 tmp t0 rc=0
	artifact_done "$art" && return 0
	tmp=$art.tmp
	rm -rf "$tmp" && mkdir -p "$tmp" || return 1
	t0=$(now)
	checkout_src "$sha" || { warn "cannot check out ${sha:0:12} in $SRC"; return 1; }
	if ! configure "$sha" "$tmp/build.log" "${art##*-}"; then
		printf 'fail %s %s\n' $(($(now) - t0)) "config: $(grep -m1 -A1 '^error:' "$tmp/build.log" | tail -n1 | xargs)" >"$tmp/result" &&
			mv_artifact "$tmp" "$art"
		return
	fi
	if [[ ${CLEAN_FIRST:-0} == 1 ]]; then
		kmake clean >>"$tmp/build.log" 2>&1 || true
	fi
	kmake_with_heartbeat "$tmp/build.log" -k -j"$JOBS" "$BUILD_TARGET" || rc=$?
	if ((rc == 0)); then
		kmake headers_install >>"$tmp/build.log" 2>&1 || rc=$?
	fi
	if ((rc == 0)) && [[ -n $BA_ARCH32 ]]; then
		install_headers32 "$tmp" || rc=$?
	fi
	if ((rc == 0)); then
		store_kernel "$sha" "$tmp" || { warn "cannot store the kernel of ${sha:0:12} in $tmp"; return 1; }
		count_objects "$OUT" >"$tmp/objects" || return 1
		printf 'pass %s\n' $(($(now) - t0)) >"$tmp/result" || return 1
	else
		printf 'fail %s %s\n' $(($(now) - t0)) "$(first_error "$tmp/build.log")" >"$tmp/result" || return 1
	fi
	mv_artifact "$tmp" "$art"
}

# install_headers32 TMP: the uapi headers of BOOT_ARCH's 32-bit programs
# (ARCH=$BA_ARCH32, from the same checkout) into TMP/headers32, through an
# O= of their own; headers_install needs no .config.
install_headers32() {
	local tmp=$1 out32=$OUT-hdr$BA_ARCH32
	mkdir -p "$out32" || return 1
	"$MAKE_KERNEL" -C "$SRC" O="$out32" ARCH="$BA_ARCH32" HOSTCC="ccache gcc" headers_install \
		>>"$tmp/build.log" 2>&1 || return 1
	cp -r "$out32/usr/include" "$tmp/headers32"
}

# store_kernel SHA TMP: the kernel, its headers, .config and kselftest.h
# into the artifact being made.
store_kernel() {
	local sha=$1 tmp=$2
	cp "$OUT/$IMAGE" "$tmp/$BA_KERNEL" &&
		cp -r "$OUT/usr/include" "$tmp/headers" &&
		cp "$OUT/.config" "$tmp/config" || return 1
	if git_tree cat-file -e "$sha:tools/testing/selftests/kselftest.h" 2>/dev/null; then
		git_tree show "$sha:tools/testing/selftests/kselftest.h" >"$tmp/kselftest.h" || return 1
	fi
}

# count_objects DIR: the objects a build left in DIR (make bench scales the
# naive way's cost per commit by it).
count_objects() {
	find "$1" -name '*.o' | wc -l
}

mv_artifact() {
	rm -rf "$2" && mv "$1" "$2"
}

cmd_commit() {
	local sha
	sha=$(git_tree rev-parse -q --verify "$1^{commit}") || die "no commit '$1' in $TREE"
	take_lock
	# Progress goes to stderr; stdout is only the artifact directory.
	exec 3>&1 1>&2
	require_scale_out
	local art
	art=$(artifact_dir "$sha")
	if artifact_done "$art"; then
		progress build "${sha:0:12} ($BA_PREFIX$CONFIG config, cached)"
		echo cached >&3
	else
		progress build "${sha:0:12} ($BA_PREFIX$CONFIG config)"
		build_commit "$sha" "$art"
		echo built >&3
	fi
	echo "$art" >&3
}

# cmd_artifact SHA: the artifact directory of commit SHA on $CONFIG, only
# when a build left it there: nothing is built (a boot beside the builds
# takes its kernel this way, never building in $SRC itself).
cmd_artifact() {
	local sha art
	sha=$(git_tree rev-parse -q --verify "$1^{commit}") || die "no commit '$1' in $TREE"
	art=$(artifact_dir "$sha")
	artifact_done "$art" || die "${sha:0:12} is not built on the $BA_PREFIX$CONFIG config (no $art)"
	echo "$art"
}

WARNINGS_PY=$WS_ROOT/scripts/build_warnings.py

# chain_logs SHA: the build logs from the imported base up to commit SHA,
# oldest first: what the warning state at SHA is made of, for a series
# that sits on another series.  A commit of the chain that was never built
# is left out, with a warning.
chain_logs() {
	local sha=$1 root c art
	root=$(git_tree rev-parse -q --verify "$BASE_BRANCH^{commit}") || return 1
	for c in "$root" $(git_tree rev-list --reverse --first-parent "$root..$sha"); do
		art=$(artifact_dir "$c") || return 1
		if [[ -f $art/build.log ]]; then
			echo "$art/build.log"
		else
			warn "the warning state at ${sha:0:12} leaves out ${c:0:12}, which was never built"
		fi
	done
}

# build_row NAME IDX N SHA SUBJECT: build one commit of a series (the base
# whole, so that all its warnings are known); sets row_art to its artifact
# and row_cached to " (cached)" if it was built before.
row_art="" row_cached=""
build_row() {
	local name=$1 idx=$2 n=$3 sha=$4 subj=$5
	row_art=$(artifact_dir "$sha") || return 1
	row_cached=""
	if artifact_done "$row_art"; then
		row_cached=" (cached)"
		progress build "$name [$idx/$n] ${sha:0:12} $subj$row_cached"
	else
		progress build "$name [$idx/$n] ${sha:0:12} $subj"
		CLEAN_FIRST=$((idx == 0 ? 1 : 0)) build_commit "$sha" "$row_art" || return 1
	fi
}

# warnings_start SHA STATE: the warning state of the whole tree at SHA.
warnings_start() {
	local logs
	local -a chain
	logs=$(chain_logs "$1") || return 1
	mapfile -t chain <<<"$logs"
	"$WARNINGS_PY" state "$SRC" "${chain[@]}" >"$2"
}

# warnings_step STATE LOG: STATE moves on by one build log; prints the
# warnings that this adds.
warnings_step() {
	local wstate=$1 log=$2
	"$WARNINGS_PY" state --from "$wstate" "$SRC" "$log" >"$wstate.next" || return 1
	"$WARNINGS_PY" new "$wstate" "$wstate.next" || return 1
	mv "$wstate.next" "$wstate"
}

# bisect_series NAME: base, then every commit, each reported as it ends.
# A commit's new warnings are those of the whole tree at the commit that its
# parent's does not have (scripts/build_warnings.py).  Called as `... || rc=1`:
# every step checks its own status.
bisect_series() {
	local name=$1 idx sha subj status secs detail n new nnew wstate
	local -a rows
	capture rows series_commits "$name"
	n=$((${#rows[@]} - 1))
	wstate=$(mktemp) || return 1
	local first_fail=""
	for row in "${rows[@]}"; do
		read -r idx sha subj <<<"$row"
		if ! build_row "$name" "$idx" "$n" "$sha" "$subj"; then
			rm -f "$wstate"
			warn "$name [$idx/$n]: the workspace could not build ${sha:0:12}; nothing was stored"
			return 1
		fi
		read -r status secs detail <"$row_art/result" || { rm -f "$wstate"; return 1; }
		new="" nnew=0
		if ((idx == 0)); then
			warnings_start "$sha" "$wstate" || { rm -f "$wstate"; return 1; }
		else
			new=$(warnings_step "$wstate" "$row_art/build.log") || { rm -f "$wstate"; return 1; }
			nnew=$(grep -c . <<<"$new" || true)
		fi
		if [[ $status == fail ]]; then
			[[ -n $first_fail ]] || first_fail="$name [$idx/$n] ${sha:0:12} \"$subj\": $detail (log: $row_art/build.log)"
			printf '  FAIL %s\n       log: %s\n' "$detail" "$row_art/build.log"
		elif ((nnew > 0)); then
			status=warn
			detail="$nnew new warning(s) against the parent: $(head -n1 <<<"$new")"
			printf '  WARN %s\n' "$detail"
			printf '%s\n' "$new" >"$LOGS/$name-$idx-new-warnings.txt"
		elif ((idx == 0)); then
			detail="base, $("$WARNINGS_PY" count "$wstate") warnings"
		else
			detail="no new warnings"
		fi
		detail+=${row_cached:+, cached}
		printf '  %s in %ss%s\n' "$status" "$secs" "$row_cached"
		record "$name" "$idx" "$sha" "$subj" "$(arch_stage build)" "$status" "$secs" "$detail" "$row_art/build.log"
		bench build "$name/$idx ${sha:0:12}$row_cached" "$secs"
		if [[ -s $row_art/objects ]]; then
			bench objects "$name/$idx ${sha:0:12}" "$(cat "$row_art/objects")"
		fi
	done
	rm -f "$wstate"
	if [[ -n $first_fail ]]; then
		printf 'first failing commit: %s\n' "$first_fail" >&2
		return 1
	fi
}

cmd_series() {
	require_tree
	take_lock
	require_scale_out
	mkdir -p "$LOGS"
	local s rc=0
	local -a selected_series_list
	capture selected_series_list selected_series
	for s in "${selected_series_list[@]}"; do
		bisect_series "$s" || rc=1
	done
	return $rc
}

# cmd_naive: what `git rebase --exec 'make clean && make'` pays a commit:
# the base on the smoke config, built from clean without ccache in a
# scratch O= that is removed afterwards.  report/naive.tsv gets the seconds
# and the objects; make bench estimates every other commit from them.
cmd_naive() {
	local base t0 secs objs log
	require_tree
	take_lock
	if [[ -s $REPORT/naive.tsv && ${NAIVE:-0} != 1 ]]; then
		progress naive "measured before: $(tail -n1 "$REPORT/naive.tsv" | cut -f1,2 | tr '\t' ' ') (s, objects; NAIVE=1 measures again)"
		return 0
	fi
	base=$(git_tree rev-parse --verify -q "$BASE_BRANCH^{commit}") || die "no $BASE_BRANCH in $TREE: run make import"
	OUT=$WORKDIR/build/naive
	log=$WORKDIR/build/naive.log
	rm -rf "$OUT" && mkdir -p "$OUT" "$REPORT" && : >"$log"
	checkout_src "$base" || die "cannot check out ${base:0:12} in $SRC"
	configure "$base" "$log" "$(config_key "$base")" || die "the naive build's config failed (log: $log)"
	progress naive "${base:0:12}: make clean && make -j$JOBS $BUILD_TARGET, without ccache (once, for make bench)"
	t0=$(now)
	kmake clean >>"$log" 2>&1 || die "make clean failed (log: $log)"
	CCACHE_DISABLE=1 kmake_with_heartbeat "$log" -j"$JOBS" "$BUILD_TARGET" ||
		die "the naive build of ${base:0:12} failed (log: $log)"
	secs=$(($(now) - t0))
	objs=$(count_objects "$OUT")
	printf 'seconds\tobjects\tcommit\tconfig\tdate\n%s\t%s\t%s\t%s\t%s\n' \
		"$secs" "$objs" "$base" "$BA_PREFIX$CONFIG" "$(date +%F)" >"$REPORT/naive.tsv"
	rm -rf "$OUT" "$log"
	progress naive "${secs}s for $objs objects: $REPORT/naive.tsv"
}

case ${1:-series} in
series) shift || true; cmd_series "$@" ;;
commit) cmd_commit "${2:?usage: build.sh commit SHA}" ;;
artifact) cmd_artifact "${2:?usage: build.sh artifact SHA}" ;;
naive) cmd_naive ;;
*) die "usage: build.sh series | build.sh commit SHA | build.sh artifact SHA | build.sh naive" ;;
esac
