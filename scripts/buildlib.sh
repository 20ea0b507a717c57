# shellcheck shell=bash
# shellcheck disable=SC2034 # ART, ART_CACHED: read by the scripts that source this
# buildlib.sh: one commit's kernel, from commit to artifact: the config
# (fragments, features, config key), the build in the persistent O=
# directory of each config ($WORKDIR/build/<arch-><config>) and the
# artifact it leaves.  Sourced, after lib.sh and bootarch.sh, by build.sh
# (bisect-build, one commit, the naive build) and boot.sh (the kernels it
# boots), which call artifact_build and artifact_lookup as functions.
#
# BOOT_ARCH=x86_64|arm64|i386|mips64el picks the architecture
# (scripts/bootarch.sh has every fact about each); another than x86_64
# merges its own fragment (qemu/configs/<arch>.config) where x86_64 merges
# smoke.config, and keeps its builds and artifacts apart
# (build/<arch>-<config>, artifacts/<arch>-<config>).
#
# CONFIG=smoke|debug picks qemu/configs/smoke.config (merged on tinyconfig)
# or that plus debug.config, then the lines of features.config whose
# feature the commit's Kconfig defines (see that file).  Builds go
# through ccache and check out into a dedicated worktree per kernel line
# ($WORKDIR/src-6.12, with an O= directory per line: lib.sh's line_dir), so
# the user's checkout is never touched and consecutive commits build
# incrementally.  A commit's result is cached by tree id and config key, so
# an unchanged commit is never built twice.  CONFIG is read when a function
# runs (CONFIG=debug artifact_build ... in a script that builds several).

CONFIG=${CONFIG:-smoke}
# ARTIFACTS/<arch-><config>/<tree>-<config key>: what artifact_build leaves.
ART="" ART_CACHED=0
JOBS=${JOBS:-$(nproc)}
MAKE_KERNEL=${MAKE_KERNEL:-make}
BUILD_TARGET=${BUILD_TARGET:-$BA_TARGET}
IMAGE=${IMAGE:-$BA_IMAGE}
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

# texts_of FILE...: the text of each FILE that is there, in order.
texts_of() {
	local f
	for f; do
		[[ ! -f $f ]] || cat "$f" || return 1
	done
}

# kconfig_files SHA: the Kconfig files and the configs of commit SHA, as
# git ls-tree -r lists them.
kconfig_files() {
	local list
	list=$(git_tree ls-tree -r "$1") || return 1
	grep -E '(/|	)(Kconfig[^/]*|[a-z]*\.config)$' <<<"$list" || true
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
# Made once per commit and fragments: kept in
# $ARTIFACTS/keys/<arch-><config>/<SHA>-<fragments' key>, so that the steps
# after the build (a boot, another run) read it instead of walking the
# commit's tree again.  A commit's files never change; the fragments and
# features.config are in the name.
config_key() {
	local memo key
	local -a frags
	read -r -a frags <<<"$(fragments)"
	((${#frags[@]})) || return 1
	memo=$(config_memo "$1") || return 1
	if [[ $1 =~ ^[0-9a-f]{40}$ && -s $memo && -s $memo.inputs ]]; then
		cat "$memo"
		return 0
	fi
	local -a inputs=(--run cat "${frags[@]}" --run features "$1" --run kconfig_files "$1")
	if [[ $1 =~ ^[0-9a-f]{40}$ ]]; then
		# What the key read, kept beside it for the build cells (build_inputs).
		mkdir -p "${memo%/*}" && key=$(KEY_INPUTS=$memo.inputs key_from 16 "${inputs[@]}") || return 1
	else
		key=$(key_from 16 "${inputs[@]}") || return 1
	fi
	if [[ $1 =~ ^[0-9a-f]{40}$ ]] &&
		! { mkdir -p "${memo%/*}" && echo "$key" >"$memo.tmp" && mv "$memo.tmp" "$memo"; }; then
		warn "could not keep the config key of ${1:0:12} in $memo"
	fi
	echo "$key"
}

# config_memo SHA: where config_key keeps SHA's key (and, beside it as
# .inputs, what the key read): named by the commit and the fragments.
config_memo() {
	local key
	local -a frags
	read -r -a frags <<<"$(fragments)"
	((${#frags[@]})) || return 1
	key=$(key_from 16 --run texts_of "${frags[@]}" "$CONFIG_DIR/features.config") || return 1
	echo "$ARTIFACTS/keys/$BA_PREFIX$CONFIG/$1-$key"
}

# build_inputs SHA FILE: what commit SHA's kernel on $CONFIG is built from,
# into FILE, for its build cell: its tree, then its configuration's key
# and what that read (config_key keeps it beside the key).
build_inputs() {
	local treeid key memo
	treeid=$(git_tree rev-parse --verify -q "$1^{tree}") || return 1
	key=$(config_key "$1") || return 1
	memo=$(config_memo "$1") || return 1
	mkdir -p "${2%/*}" && {
		echo "tree $treeid"
		echo "config $key"
		[[ ! -f $memo.inputs ]] || sed 's/^/  /' "$memo.inputs"
	} >"$2"
}

# record_build NAME IDX SHA SUBJECT STAGE STATUS SECS DETAIL ART: the build
# cell of commit SHA, whose artifact is ART: what it read (build_inputs,
# in $LOGS/inputs), the CPU seconds the build took (art_cpu) and its log.
# Fails, saying why, when what it read cannot be written.
record_build() {
	local read_by=$LOGS/inputs/build-$BA_PREFIX$CONFIG-$3 art=$9
	build_inputs "$3" "$read_by" || { warn "cannot write what the build of ${3:0:12} read to $read_by"; return 1; }
	CELL_CPU=$(art_cpu "$art") CELL_INPUTS=$read_by record "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$art/build.log"
}

# artifact_dir SHA: where commit SHA's kernel on $CONFIG is kept, named by
# its tree and its config key; fails (printing nothing) when either cannot
# be had.
artifact_dir() {
	local treeid key
	treeid=$(git_tree rev-parse --verify -q "$1^{tree}") || return 1
	key=$(config_key "$1") && [[ -n $key ]] || return 1
	echo "$ARTIFACTS/$BA_PREFIX$CONFIG/$treeid-$key"
}

# checkout_src SHA: SRC, the worktree of SHA's kernel line (lib.sh's
# line_dir), at SHA.  The one worktree of every line that came before
# ($SRC_ROOT itself) goes, once: nothing builds in it any more.
checkout_src() {
	SRC=$(line_dir "$SRC_ROOT" "$1") || return 1
	if [[ $SRC != "$SRC_ROOT" && -e $SRC_ROOT/.git ]]; then
		rm -rf -- "$SRC_ROOT" || return 1
	fi
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
	# The caller's EXIT trap (boot.sh, say), if any, is put back after.
	local saved
	saved=$(trap -p EXIT)
	trap 'kill $hb 2>/dev/null || true' EXIT
	kmake "$@" >>"$log" 2>&1 || rc=$?
	kill "$hb" 2>/dev/null || true
	wait "$hb" 2>/dev/null || true
	eval "${saved:-trap - EXIT}"
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

# build_killed RC LOG: the kernel make ended by a signal, its own (RC past
# 128) or a recipe's (make's "Interrupt", "Terminated" or "Killed" for a
# recipe that died of SIGINT, SIGTERM or SIGKILL, or "Error 130", 143 or
# 137 from a sub-make that did): a Ctrl-C that reached only part of the
# run, the OOM killer.  That says nothing about the commit, and stored as
# its failure it would be taken for one by every later run.
build_killed() {
	(($1 > 128)) || grep -qE '(\] (Interrupt|Terminated|Killed)|Error (130|137|143))$' "$2"
}

# keep_cpu DIR MARK: the CPU seconds since MARK (lib.sh's cpu_mark) in
# DIR/cpu, for the build cell (art_cpu); none when they are not known.
keep_cpu() {
	local cpu
	cpu_spent cpu "$2"
	[[ -z $cpu ]] || echo "$cpu" >"$1/cpu"
}

# art_cpu ART: the CPU seconds the build kept in ART took (keep_cpu), or
# nothing: an artifact from before they were kept, or none.
art_cpu() {
	[[ ! -f $1/cpu ]] || sed -n '1{/^[0-9][0-9]*$/p}' "$1/cpu"
}

# build_commit SHA ART: build into $OUT, leave the result in ART, the
# commit's artifact_dir.  Prints nothing; the artifact's 'result' file
# holds "status seconds detail", its 'cpu' file the CPU seconds (keep_cpu).
# Returns non-zero only when the workspace itself failed (a checkout, a copy):
# then nothing is stored.  Called as `build_commit || ...`, so without
# errexit: every step checks its own status.
build_commit() {
	local sha=$1 art=$2 tmp t0 rc=0 key cpu0
	artifact_done "$art" && return 0
	key=$(config_key "$sha") || return 1
	tmp=$art.tmp
	rm -rf "$tmp" && mkdir -p "$tmp" || return 1
	t0=$(now)
	cpu_mark cpu0 || true
	checkout_src "$sha" || { warn "cannot check out ${sha:0:12} in $SRC"; return 1; }
	since_parent "$sha" || { warn "cannot mark what differs from the parent of ${sha:0:12} in $SRC"; return 1; }
	if ! configure "$sha" "$tmp/build.log" "$key"; then
		printf 'fail %s %s\n' $(($(now) - t0)) "config: $(grep -m1 -A1 '^error:' "$tmp/build.log" | tail -n1 | xargs)" >"$tmp/result" &&
			keep_cpu "$tmp" "$cpu0" && mv_artifact "$tmp" "$art"
		return
	fi
	if [[ ${CLEAN_FIRST:-0} == 1 ]]; then
		kmake clean >>"$tmp/build.log" 2>&1 || true
	fi
	kmake_with_heartbeat "$tmp/build.log" -k -j"$JOBS" "$BUILD_TARGET" || rc=$?
	if build_killed "$rc" "$tmp/build.log"; then
		warn "the build of ${sha:0:12} was killed by a signal (see $tmp/build.log): nothing is stored, the next run builds it again"
		return 1
	fi
	if ((rc == 0)); then
		kmake headers_install >>"$tmp/build.log" 2>&1 || rc=$?
	fi
	if ((rc == 0)) && [[ -n $BA_ARCH32 ]]; then
		install_headers32 "$tmp" || rc=$?
	fi
	# A make that succeeded with an empty kernel image built nothing that
	# boots.  (A missing one is the workspace's own error: store_kernel
	# stores nothing.)
	if ((rc == 0)) && [[ -e $OUT/$IMAGE && ! -s $OUT/$IMAGE ]]; then
		echo "error: make $BUILD_TARGET succeeded, but $IMAGE is empty" >>"$tmp/build.log"
		rc=1
	fi
	if ((rc == 0)); then
		store_kernel "$sha" "$tmp" || { warn "cannot store the kernel of ${sha:0:12} in $tmp"; return 1; }
		count_objects "$OUT" >"$tmp/objects" || return 1
		printf 'pass %s\n' $(($(now) - t0)) >"$tmp/result" || return 1
	else
		printf 'fail %s %s\n' $(($(now) - t0)) "$(first_error "$tmp/build.log")" >"$tmp/result" || return 1
	fi
	keep_cpu "$tmp" "$cpu0" || return 1
	mv_artifact "$tmp" "$art"
}

# since_parent SHA: make the build of SHA in $OUT compile again every
# object whose sources differ from SHA's parent, so that its log holds the
# messages of all of them (make bisect-build counts new warnings from the
# log, against the parent's).  $OUT/.ws-built-at names the commit $OUT was
# last built at; when that is neither SHA's parent nor SHA (another series,
# or this one before an edit of an earlier patch), the files that differ
# between it and the parent get a new time: without it, a file the same at
# both but changed since the parent is not compiled, and a warning in it
# is lost.  An $OUT built before the workspace kept the name is taken as it
# is.
since_parent() {
	local sha=$1 last parent f
	last=$(cat "$OUT/.ws-built-at" 2>/dev/null) || last=""
	if [[ -n $last && $last != "$sha" ]] && parent=$(git_tree rev-parse -q --verify "$sha^") &&
		[[ $last != "$parent" ]] && git_tree cat-file -e "$last^{commit}" 2>/dev/null; then
		git_tree diff -z --name-only --no-renames "$last" "$parent" |
			while IFS= read -r -d '' f; do
				[[ ! -f $SRC/$f ]] || touch -- "$SRC/$f" || exit 1
			done || return 1
	fi
	mkdir -p "$OUT" && echo "$sha" >"$OUT/.ws-built-at"
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

# build_dir SHA: the O= directory of $CONFIG on $BOOT_ARCH for SHA's
# kernel line (lib.sh's line_dir: build/smoke-6.12).
build_dir() {
	line_dir "$WORKDIR/build/$BA_PREFIX$CONFIG" "$1"
}

# artifact_build SHA LABEL: commit SHA's kernel on $CONFIG, built unless an
# earlier build left it; ART is its artifact directory, ART_CACHED 1 when
# it was there already.  The progress line says LABEL.  Returns non-zero
# only when the workspace itself failed (then nothing is stored); a kernel
# that does not build is an artifact whose result says so.  Called as
# `artifact_build || ...`, so without errexit: each step checks.
artifact_build() {
	local sha=$1 label=$2 OUT flat=$WORKDIR/build/$BA_PREFIX$CONFIG
	OUT=$(build_dir "$sha")
	# The O= directory of every line that came before goes, once.
	if [[ $OUT != "$flat" && -d $flat ]]; then
		rm -rf -- "$flat" "$flat-hdr"* || return 1
	fi
	ART=$(artifact_dir "$sha") || return 1
	ART_CACHED=0
	if artifact_done "$ART"; then
		ART_CACHED=1
		progress build "$label (cached)"
		return 0
	fi
	progress build "$label"
	build_commit "$sha" "$ART"
}

# artifact_lookup SHA: ART, commit SHA's artifact on $CONFIG, only when a
# build left it: nothing is built.  False, naming it on stderr, otherwise.
artifact_lookup() {
	ART=$(artifact_dir "$1") || return 1
	ART_CACHED=1
	artifact_done "$ART" && return 0
	echo "${1:0:12} is not built on the $BA_PREFIX$CONFIG config (no $ART)" >&2
	return 1
}
