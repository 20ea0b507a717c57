# shellcheck shell=bash
# shellcheck disable=SC2034 # the paths below are used by the scripts that source this file
# Shared helpers for the workspace scripts.  Sourced, never executed.
#
# Every path the scripts use is derived here from three variables, which the
# Makefile exports: WORKDIR (all state, outside the repository), KVER (the
# linux-source version) and WS_ROOT (this repository).

WS_ROOT=${WS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
WORKDIR=${WORKDIR-$HOME/.cache/vstatus-workspace}
KVER=${KVER:-6.1}
SERIES_DIR=${SERIES_DIR:-$WS_ROOT/series}
# git's repository variables (GIT_DIR, GIT_INDEX_FILE, GIT_WORK_TREE, ...,
# as git rev-parse --local-env-vars lists them, but the GIT_CONFIG* ones,
# which are configuration) from a hook or a shell that runs this would
# point every git command of the workspace at another repository: none
# reaches anything the workspace runs.
# shellcheck disable=SC2046 # one variable name a word
unset $(git rev-parse --local-env-vars 2>/dev/null | grep -v '^GIT_CONFIG')
# A WORKDIR with whitespace is refused for any work (kbuild cannot build
# there); make clean and distclean may still tidy one an older workspace
# made.
case ${0##*/}:$WORKDIR in
clean.sh:* | distclean.sh:*) ;;
*:*[[:space:]]*)
	printf "error: WORKDIR must not contain a space, a tab or a newline (got '%s'): the kernel's build cannot use such a path; pick another, such as %s\n" \
		"$WORKDIR" "$HOME/.cache/vstatus-workspace" >&2
	exit 1
	;;
esac
case $WORKDIR in
/*) ;;
"") printf 'error: WORKDIR is empty; give it an absolute path\n' >&2; exit 1 ;;
"~"*) printf "error: WORKDIR '%s' starts with a ~ the shell did not expand (it was quoted): write it as \$HOME%s\n" "$WORKDIR" "${WORKDIR#\~}" >&2; exit 1 ;;
*) printf "error: WORKDIR must be an absolute path (got '%s'; try WORKDIR=\$PWD/%s)\n" "$WORKDIR" "$WORKDIR" >&2; exit 1 ;;
esac

TREE=$WORKDIR/linux            # the throwaway tree the user edits
SRC_ROOT=$WORKDIR/src          # detached worktrees that builds check out,
SRC=$SRC_ROOT                  # one per kernel line (line_dir): src-6.12
REPORT=$WORKDIR/report
RESULTS=$REPORT/results.tsv
LOGS=$WORKDIR/logs
ARTIFACTS=$WORKDIR/artifacts
BASE_BRANCH=linux-source        # import's branch: the tarball plus the ignore fix
WS_START=${WS_START:-$EPOCHSECONDS}
export WS_ROOT WORKDIR KVER SERIES_DIR WS_START

# ccache, for build.sh's kernels and for the build checks (check.sh runs
# them, and they inherit this).  Depend mode: ccache takes the headers from
# the compiler's -MMD output instead of running the preprocessor first, so
# a miss (every object a commit to include/linux/signal.h touches) costs
# one compile, not a preprocessor pass and a compile.  CCACHE_DEPEND=0,
# which ccache itself rejects, turns it off here.
export CCACHE_DIR=${CCACHE_DIR:-$WORKDIR/ccache}
if [[ ${CCACHE_DEPEND-1} == 0 || -n ${CCACHE_NODEPEND:-} ]]; then
	unset CCACHE_DEPEND
else
	export CCACHE_DEPEND=1
fi

# The git helpers (worktrees, touched files), shared with checks/ and
# cocci/: scripts/gitlib.sh.
# shellcheck source=scripts/gitlib.sh
source "$WS_ROOT/scripts/gitlib.sh"
# Cache keys (key_from), shared with them too: scripts/keys.sh.
# shellcheck source=scripts/keys.sh
source "$WS_ROOT/scripts/keys.sh"

# Scaling out (icecc, a shared ccache): scripts/scaleout.sh, set up at the
# end of this file once validate_variables has checked the variables.
# shellcheck source=scripts/scaleout.sh
source "$WS_ROOT/scripts/scaleout.sh"

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

warn() {
	printf 'warning: %s\n' "$*" >&2
}

# mmss SECONDS: as M:SS.
mmss() {
	printf '%d:%02d' $(($1 / 60)) $(($1 % 60))
}

elapsed() {
	mmss $((EPOCHSECONDS - WS_START))
}

# progress STAGE WHAT...: one line per step, with time since the run began.
progress() {
	local stage=$1
	shift
	printf '[%s] %-10s %s\n' "$(elapsed)" "$stage" "$*"
}

# The tree is shared by every target, so only one run may touch it at a time.
# The lock is held by a helper process (flock(1) running `tail --pid`), not
# by a descriptor of this shell: a descriptor would be inherited by every
# child (QEMU, make, a check), and a child orphaned when this shell is
# killed would keep the lock.  The helper ends within a tenth of a second
# of this shell.  Nested scripts inherit the lock through WS_LOCK_HELD.
take_lock() {
	trap 'echo "interrupted: $0 stopped; the next run picks up from here" >&2; exit 130' INT TERM
	mkdir -p "$WORKDIR"
	lock_inherited && return 0
	if ! lock_hold 1; then
		printf 'another workspace run holds %s (%s); waiting for it...\n' \
			"$WORKDIR/lock" "$(sed -n 1p "$WORKDIR/lock.owner" 2>/dev/null || echo unknown)" >&2
		lock_hold "${WS_LOCK_TIMEOUT:-3600}" ||
			die "gave up waiting for $WORKDIR/lock after ${WS_LOCK_TIMEOUT:-3600}s"
	fi
	# The owner line, and the token a nested script shows: written beside
	# lock.owner and renamed over it, so that a symlink there is replaced,
	# never followed.
	local token=$$.$SRANDOM.$SRANDOM
	if ! { printf 'pid %s: %s since %s\n%s\n' "$$" "${0##*/}" "$(date +%T)" "$token" >"$WORKDIR/.lock.owner.$$" &&
		mv -f "$WORKDIR/.lock.owner.$$" "$WORKDIR/lock.owner"; }; then
		die "could not write $WORKDIR/lock.owner"
	fi
	export WS_LOCK_HELD=$token
}

# lock_inherited: this script runs under a run that holds the lock (a
# nested script): WS_LOCK_HELD is the token that run wrote into
# lock.owner, and the lock is held.  A WS_LOCK_HELD of the user's own
# (WS_LOCK_HELD=1) is not a token, and takes no lock.
lock_inherited() {
	[[ -n ${WS_LOCK_HELD:-} && -f $WORKDIR/lock.owner ]] || return 1
	[[ $(sed -n 2p "$WORKDIR/lock.owner" 2>/dev/null) == "$WS_LOCK_HELD" ]] || return 1
	! flock -n "$WORKDIR/lock" true 2>/dev/null
}

# lock_hold SECONDS: start the helper that takes $WORKDIR/lock within
# SECONDS and holds it until this shell exits; true once it holds it.
lock_hold() {
	local wait=$1 fifo line=""
	fifo=$(mktemp -u "$WORKDIR/.lock-fifo.XXXXXX")
	mkfifo "$fifo" || return 1
	# shellcheck disable=SC2016 # $1 is the inner shell's
	flock -w "$wait" "$WORKDIR/lock" \
		sh -c 'echo locked; exec tail --pid="$1" -s 0.1 -f /dev/null >/dev/null 2>&1' sh "$$" \
		>"$fifo" 2>/dev/null </dev/null 9>&- &
	# Not a job of this shell: a later bare `wait` must not wait for it.
	disown "$!"
	read -r line <"$fifo" || true
	rm -f "$fifo"
	[[ $line == locked ]]
}

# lock_series_dir STAGE: series/ is shared by every WORKDIR of this
# checkout: one writer at a time (flock on the directory itself, held
# until the script ends), so that two workspaces neither overwrite each
# other unseen nor tidy away each other's staging directories.
lock_series_dir() {
	local fd
	exec {fd}<"$SERIES_DIR" || die "cannot open $SERIES_DIR"
	if ! flock -n "$fd"; then
		progress "$1" "another run is writing $SERIES_DIR (from another WORKDIR); waiting for it"
		flock -w "${WS_LOCK_TIMEOUT:-3600}" "$fd" ||
			die "gave up waiting for the other writer of $SERIES_DIR after ${WS_LOCK_TIMEOUT:-3600}s"
	fi
}

# validate_variables: every user-settable variable, checked once before any
# work, with a message that names it.
validate_variables() {
	local v
	for v in BOOT_TIMEOUT TEST_TIMEOUT BENCH_BOOTS COCCI_TIMEOUT WS_LOCK_TIMEOUT; do
		[[ -z ${!v:-} || ${!v} =~ ^[1-9][0-9]{0,5}$ ]] ||
			die "$v must be a positive whole number (got '${!v}')"
	done
	# Parallel jobs and object counts: a few thousand at most.
	for v in JOBS CHECK_JOBS DOCS_JOBS ICECC_JOBS CROSS_PAR CROSS_MAX_OBJS; do
		[[ -z ${!v:-} || ${!v} =~ ^[1-9][0-9]{0,3}$ ]] ||
			die "$v must be a whole number from 1 to 9999 (got '${!v}')"
	done
	[[ -z ${MIN_FREE_GB:-} || $MIN_FREE_GB =~ ^[0-9]{1,6}$ ]] ||
		die "MIN_FREE_GB must be a whole number of GiB (got '$MIN_FREE_GB')"
	for v in DEBUG FORCE E2E NO_DEPS FRESH JOB_MEMO ICECC; do
		[[ -z ${!v:-} || ${!v} == [01] ]] || die "$v must be 0 or 1 (got '${!v}')"
	done
	[[ -z ${ICECC_SCHEDULER:-} || $ICECC_SCHEDULER =~ ^[A-Za-z0-9._-]+(:[1-9][0-9]{0,4})?$ ]] ||
		die "ICECC_SCHEDULER must be the scheduler's host, with :PORT if not 8765 (got '$ICECC_SCHEDULER')"
	[[ -z ${CCACHE_REMOTE:-} || $CCACHE_REMOTE =~ ^redis(\+unix)?://[^[:space:]]+$ ]] ||
		die "CCACHE_REMOTE must be a Redis URL, redis://HOST[:PORT] (got '$CCACHE_REMOTE')"
	case ${CONFIG:-smoke} in
	smoke | debug) ;;
	*) die "CONFIG must be smoke or debug (got '$CONFIG'; see qemu/configs/)" ;;
	esac
	case ${ACCEL:-auto} in
	auto | kvm | tcg) ;;
	*) die "ACCEL must be auto, kvm or tcg (got '$ACCEL')" ;;
	esac
	[[ $KVER =~ ^[0-9]+\.[0-9]+$ ]] || die "KVER must be a version such as 6.1 (got '$KVER')"
	[[ ${SERIES:-} =~ ^[A-Za-z0-9._,-]*$ ]] ||
		die "SERIES must be series names separated by commas (got '$SERIES')"
	[[ ${CHECKS:-} =~ ^[A-Za-z0-9._,-]*$ ]] ||
		die "CHECKS must be check names separated by commas (got '$CHECKS')"
	[[ ${UAPI_GENERIC_ARCH:-arm64} =~ ^[a-z0-9_]+$ ]] ||
		die "UAPI_GENERIC_ARCH must be an architecture's directory name under arch/ (got '$UAPI_GENERIC_ARCH')"
}

# check_disk: refuse to start a run that would fill the disk half-way.
check_disk() {
	local need=${MIN_FREE_GB:-12} dir=$WORKDIR avail
	while [[ ! -d $dir ]]; do dir=$(dirname "$dir"); done
	avail=$(df -Pk "$dir" | awk 'NR == 2 { print int($4 / 1048576) }')
	if ((avail < need)); then
		die "only ${avail} GiB free on $(df -P "$dir" | awk 'NR == 2 { print $6 }') for $WORKDIR; a run needs ${need} GiB (kernel tree, worktrees, builds, ccache). Free some space or set WORKDIR (MIN_FREE_GB=$need)"
	fi
}

# publish_dir TMP DIR: TMP, made whole by this process, renamed to DIR,
# unless another process (a boot beside this one) published DIR first:
# then TMP goes and DIR, theirs, stands.  False when DIR is not there
# after all.
publish_dir() {
	mv -T "$1" "$2" 2>/dev/null && return 0
	rm -rf "$1"
	[[ -d $2 ]]
}

# keep_output FILE CMD...: CMD's output, from FILE when it is there, else
# run and kept in FILE (whole or not at all); printed without a process of
# its own (a warm run reads hundreds of them).
keep_output() {
	local f=$1 tmp out=""
	shift
	if [[ ! -f $f ]]; then
		mkdir -p "${f%/*}" || return 1
		tmp=$f.$BASHPID
		"$@" >"$tmp" || { rm -f "$tmp"; return 1; }
		mv "$tmp" "$f" || return 1
	fi
	IFS= read -r -d '' out <"$f" || [[ -n $out || ! -s $f ]] || return 1
	printf '%s' "$out"
}

# stat_digest FILE: FILE's SHA-256 (keys.sh's file_sums), hashed once per
# content as git's index does it: kept as $WORKDIR/digests/<FILE's absolute path>/<its
# stat> (size, modification and change times in nanoseconds, inode,
# device), so that any write to FILE, which moves its change time, hashes
# it again; a link is taken by its target's stat, so another target is
# another digest.  One stat per call, no hash of the key: for the large
# files every run reads and seldom changes (the distro tarballs, QEMU's
# binary, each kernel image and initramfs a boot's key names).
stat_digest() {
	local path=$1 st
	[[ $path == /* ]] || path=$PWD/$path
	st=$(stat -L -c '%s-%.9Y-%.9Z-%i-%d' -- "$path") || return 1
	keep_output "$WORKDIR/digests$path/$st" file_sums "$path"
}

# capture ARRAY CMD...: CMD's output lines into ARRAY.  Unlike mapfile from
# a process substitution, a failing CMD (an unknown series, a missing patch)
# stops the script with CMD's message.
capture() {
	local -n _lines=$1
	local _text
	_text=$("${@:2}") || exit $?
	_lines=()
	[[ -z $_text ]] || mapfile -t _lines <<<"$_text"
}

git_tree() {
	git -C "$TREE" "$@"
}

# kernel_version SHA: VERSION.PATCHLEVEL.SUBLEVEL of SHA's Makefile, or
# "unknown" (a smoke build never has that release, so nothing is kept).
# cross.sh's plans are a function of this code (its plan_code).
kernel_version() {
	{ git -C "$TREE" show "$1:Makefile" 2>/dev/null || true; } |
		awk '$2 == "=" { v[$1] = $3 }
			END { print (v["SUBLEVEL"] == "" ? "unknown" : v["VERSION"] "." v["PATCHLEVEL"] "." v["SUBLEVEL"]) }'
}

# kernel_line REV: the kernel line of REV (its kernel_version without the
# SUBLEVEL: 6.12); fails when REV's Makefile names no version.
kernel_line() {
	local v
	v=$(kernel_version "$1") && [[ $v != unknown ]] || return 1
	printf '%s\n' "${v%.*}"
}

# check_scratch CHECK LINE: CHECK's scratch directory (check.sh's
# CHECK_SCRATCH) for the series on a base of kernel line LINE:
# $WORKDIR/check-work/LINE/CHECK, so that the checks of a 6.1 series and
# of a 6.12 one never switch one worktree and O= directory between the two
# trees (a switch checks out most of the tree and rebuilds prepare: 50-70 s
# for each compiling check).  cocci's stays $WORKDIR/check-work/cocci: its
# whole-tree scan is cached by tree id there, where make cocci-inventory
# reads it, and no build depends on which tree its worktree holds.
check_scratch() {
	if [[ $1 == cocci || -z $2 ]]; then
		echo "$WORKDIR/check-work/$1"
	else
		echo "$WORKDIR/check-work/$2/$1"
	fi
}

# line_dir DIR REV: DIR-<line> for REV's kernel line (src-6.12,
# build/smoke-6.1), DIR itself when the line cannot be read.  The
# worktrees and O= directories of builds and checks are kept per line, so
# that building or checking a 6.1 commit after a 6.12 one switches no tree
# (a switch checks out most files, so kbuild recompiles every object and
# prepare runs again).
line_dir() {
	local line
	line=$(kernel_line "$2") || line=""
	printf '%s\n' "$1${line:+-$line}"
}

# tree_git_lock: the user's tree is in the middle of a git command (or one
# crashed there): name the lock file and say what to do.
tree_git_lock() {
	local f
	f=$(git_tree rev-parse --path-format=absolute --git-path index.lock) || return 1
	[[ -e $f ]] || return 0
	printf 'error: %s exists: a git command is running in %s, or one was killed there.\n' "$f" "$TREE" >&2
	printf '  If no git command is running there, remove it and run this again.\n' >&2
	return 1
}

require_tree() {
	[[ -d $TREE/.git ]] || die "no kernel tree at $TREE: run 'make import' first"
}

# Seconds since the epoch, for stage timing.
now() {
	echo "$EPOCHSECONDS"
}

# cpu_mark VAR: VAR set to the CPU time, in clock ticks (user and system),
# of the children this shell has waited for, theirs included: /proc's
# cutime and cstime.  Two marks around a piece of work that runs in the
# foreground give its CPU time (cpu_spent); not in $(...), whose subshell
# has children of its own.  False, VAR empty, when /proc cannot say.
CLK_TCK=""
cpu_mark() {
	local -n _mark=$1
	local stat
	local -a f
	_mark=""
	[[ -n $CLK_TCK ]] || CLK_TCK=$(getconf CLK_TCK 2>/dev/null) || CLK_TCK=""
	[[ $CLK_TCK =~ ^[1-9][0-9]*$ ]] || return 1
	read -r stat <"/proc/$BASHPID/stat" 2>/dev/null || return 1
	# The fields after the command name: state is the 3rd of the line,
	# cutime and cstime the 16th and 17th.
	read -r -a f <<<"${stat##*) }"
	[[ ${f[13]:-} =~ ^[0-9]+$ && ${f[14]:-} =~ ^[0-9]+$ ]] || return 1
	_mark=$((f[13] + f[14]))
}

# cpu_spent VAR MARK: VAR set to the CPU seconds (rounded) this shell's
# children took since cpu_mark set MARK; empty when either mark is
# missing.  Not in $(...), as cpu_mark.
cpu_spent() {
	local -n _spent=$1
	local mark=$2 end
	_spent=""
	[[ -n $mark ]] && cpu_mark end || return 0
	_spent=$(((end - mark + CLK_TCK / 2) / CLK_TCK))
}

# sanitize: standard input without control characters (terminal escapes in
# mail or on a guest's console) other than tab and newline.
sanitize() {
	LC_ALL=C tr -d '\000-\010\013-\037\177'
}

RESULTS_HEADER=$'series\tindex\tcommit\tsubject\tstage\tstatus\tseconds\tdetail\tlog\tarch\tcached\tcpu'

# The cells of a run are owned by scripts/cells.py: the plan (what the run
# owes), the store (what each stage decided: one file per cell under
# report/cells/, which record below writes) and results.tsv, the table
# every report is written from.  CELLS_PY runs it.
CELLS_PY=$WS_ROOT/scripts/cells.py

# cells CMD ARG...: scripts/cells.py CMD on the report directory of
# $RESULTS (a bisect's boots have their own, boot.sh).
cells() {
	"$CELLS_PY" "$1" "${RESULTS%/*}" "${@:2}"
}

# cell_store: the directory of the cells of $RESULTS' run.
cell_store() {
	echo "${RESULTS%/*}/cells"
}

# record SERIES INDEX COMMIT SUBJECT STAGE STATUS SECONDS DETAIL [LOG [ARCH [CACHED]]]
# One cell of the run, into the store: its file (cells.py's row) is written
# beside its name and renamed, so a kill or a full disk leaves every earlier
# cell whole; a cell that cannot be stored stops the stage, saying so (the
# run's plan then counts what it did not decide as missing).  A second
# record of the same series, index, stage and arch replaces the first.
# STATUS is pass, warn, fail, skip, or untested (the work ran and verified
# nothing).  LOG is the cell's evidence: its log file, or the directory of
# a boot's logs.  ARCH is the architecture the cell compiled or booted: by
# default x86_64 for build, boot and boot-debug, the suffix of a stage such
# as boot-arm64, and none for the others (the checks pass it empty).
# CACHED is 1 for a result taken from a cache, 0 for one this run computed;
# a caller that does not say is read from its detail (", cached").  What
# the result read comes in the file CELL_INPUTS names, when the caller
# sets it (keys.sh's key_from writes it): kept beside the cell's file as
# .<name>.inputs (a dot file, which no reader of the store takes for a
# cell), written before it; a cell recorded without one has none.  The
# CPU seconds the work took (cpu_mark), when the stage measured them, come
# in CELL_CPU; a cell recorded without them has none.
record() {
	local series=$1 index=$2 commit=$3 subject=$4 stage=$5 status=$6 secs=$7 detail=$8 log=${9:-} arch=${10-} cached=${11-}
	local cpu=${CELL_CPU:-}
	[[ $cpu =~ ^[0-9]*$ ]] || die "record: bad CELL_CPU '$cpu'"
	if [[ -z $cached ]]; then
		cached=0
		[[ $detail != *"(cached)" && $detail != *", cached"* ]] || cached=1
	fi
	[[ $cached == [01] ]] || die "record: bad cached '$cached'"
	case $status in pass | warn | fail | skip | untested) ;; *) die "record: bad status '$status'" ;; esac
	[[ $index =~ ^[0-9]+$ ]] || die "record: bad index '$index'"
	[[ $stage =~ ^[a-z0-9][a-z0-9_.-]*$ ]] || die "record: bad stage '$stage'"
	if (($# < 10)); then
		case $stage in
		build | boot | boot-debug) arch=x86_64 ;;
		build-* | boot-*) arch=${stage#*-} ;;
		esac
	fi
	[[ $stage == apply || -n ${WS_JOB:-} ]] || forget_job_memos
	subject=${subject//[[:cntrl:]]/ }
	detail=${detail//[[:cntrl:]]/ }
	log=${log//[[:cntrl:]]/ }
	local store=${RESULTS%/*}/cells dir file tmp
	if [[ ! -d $store ]]; then
		cells import || die "could not read the results of an older workspace ($RESULTS) into $store"
	fi
	# The path cells.py's cell_path names.
	dir=$store/$series/$index
	file=$dir/$stage${arch:+@$arch}
	tmp=$dir/.${file##*/}.tmp.$BASHPID
	# A cell taken from a cache keeps the seconds of the run that computed
	# it, as bench's physical limit counts them: a cached boot comes with
	# 0 seconds, and would otherwise erase the cold run's.
	if [[ $cached == 1 && $secs == 0 && -f $file ]]; then
		local was_commit="" was_status="" was_secs=""
		IFS=$'\t' read -r _ _ was_commit _ _ was_status was_secs _ <"$file" || true
		[[ $was_commit != "$commit" || $was_status != "$status" || ! $was_secs =~ ^[0-9]+$ ]] || secs=$was_secs
	fi
	if ! { { [[ -d $dir ]] || mkdir -p "$dir"; } && store_inputs "$file"; }; then
		die "could not store what the $stage cell of $series [$index] read beside $file (is the disk full?); the cells stored before it are kept"
	fi
	if ! { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$series" "$index" "$commit" \
			"$subject" "$stage" "$status" "$secs" "$detail" "$log" "$arch" "$cached" "$cpu" >"$tmp" &&
		mv -f "$tmp" "$file"; }; then
		rm -f "$tmp"
		die "could not store the $stage cell of $series [$index] ($status) in $file (is the disk full?); the cells stored before it are kept"
	fi
	results_view
}

# store_inputs FILE: CELL_INPUTS copied to .<FILE's name>.inputs beside
# it (through a file beside that, renamed), or that removed when the
# caller gave none.
store_inputs() {
	local to=${1%/*}/.${1##*/}.inputs
	if [[ -n ${CELL_INPUTS:-} && ! -f $CELL_INPUTS ]]; then
		warn "no $CELL_INPUTS: the cell of $1 is kept without what it read"
	fi
	if [[ ! -f ${CELL_INPUTS:-} ]]; then
		rm -f "$to"
		return
	fi
	if ! { cp "$CELL_INPUTS" "$to.tmp.$BASHPID" && mv -f "$to.tmp.$BASHPID" "$to"; }; then
		rm -f "$to.tmp.$BASHPID"
		return 1
	fi
}

# forget_job_memos: every job memo of $WORKDIR/job-memo removed (once: the
# directory is gone after it): a stage run outside make's jobs (no WS_JOB)
# may decide a cell again, and differently, so no make may take the old
# one from a memo (scripts/jobmemo.py).
forget_job_memos() {
	[[ ! -e $WORKDIR/job-memo ]] || rm -rf "$WORKDIR/job-memo" ||
		die "could not remove the job memos in $WORKDIR/job-memo: a make would take cells from them that this run decides again"
}

# results_view: $RESULTS rewritten from the store (the decided cells; the
# matrix adds the planned ones no stage decided), for whoever reads it
# during a run.  Beside its name, then renamed: never half a table.  Two
# stages writing it at once may leave out the other's newest cell until
# the next record; make matrix writes it whole from the store.  A view
# that cannot be written (a full disk) is named; the store keeps the cells.
# Not inside make (all.sh sets WS_TABLE_AT_END): it writes the table once,
# at its end, from the store, not again at every cell a stage records or
# clears.
results_view() {
	[[ ${WS_TABLE_AT_END:-0} != 1 ]] || return 0
	local tmp=$RESULTS.new.$BASHPID f
	local -a files=()
	# Every cell file (a .tmp one starts with a dot, which * leaves out).
	for f in "${RESULTS%/*}"/cells/*/*/*; do
		[[ ! -f $f || $f == *.damaged ]] || files+=("$f")
	done
	if { printf '%s\n' "$RESULTS_HEADER" && { ((${#files[@]} == 0)) || cat -- "${files[@]}"; }; } >"$tmp" &&
		mv -f "$tmp" "$RESULTS"; then
		return 0
	fi
	rm -f "$tmp"
	warn "could not write $RESULTS (is the disk full?); its cells are kept in ${RESULTS%/*}/cells, and make matrix writes it again"
}

# clear_cells SERIES INDEX STAGE: forget the cells of one stage of one
# commit (all its architectures), before the stage records them again.
clear_cells() {
	local dir
	dir=${RESULTS%/*}/cells/$1/$2
	[[ -d $dir ]] || return 0
	rm -f "$dir/$3" "$dir/$3"@* "$dir/.$3.inputs" "$dir/.$3"@*.inputs || return 1
	results_view
}

# clear_series NAME: forget every cell of a series, and its plan (its
# commits changed).
clear_series() {
	local store
	store=$(cell_store)
	[[ -d $store/$1 || -f ${RESULTS%/*}/plan/$1 ]] || return 0
	rm -rf "${store:?}/$1" "${RESULTS%/*}/plan/$1" || return 1
	results_view
}

# bench PHASE WHAT SECONDS: one row of timing for `make bench`.
bench() {
	mkdir -p "$REPORT"
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$REPORT/bench-raw.tsv"
}

# workdir_state: "cold" when WORKDIR has no imported tree and ccache is
# empty (a new machine, or after make distclean), else "warm".
workdir_state() {
	if [[ ! -e $TREE/.git && -z $(find "$CCACHE_DIR" -type f -print -quit 2>/dev/null) ]]; then
		echo cold
	else
		echo warm
	fi
}

# bench_record WHAT SECONDS STATE: a row of report/bench-runs.tsv, the
# history make bench reads its targets from (scripts/bench.py --record).
bench_record() {
	mkdir -p "$REPORT"
	"$WS_ROOT/scripts/bench.py" "$REPORT" --record "$1" "$2" "$3" "${SERIES:-all}"
}

# series_names: every series directory, in dependency order (bases first).
# Stops (exit, not return: its callers run it in $(...) or capture) naming
# the series when a directory's name is not a usable branch name or is the
# base branch's, when a base is not a series, or when bases form a cycle.
series_names() {
	local -A state=()
	local -a order=() path=()
	local s
	visit() {
		local name=$1 base i
		case ${state[$name]:-} in
		visited) return 0 ;;
		active)
			local cycle=$name
			for ((i = ${#path[@]} - 1; i >= 0; i--)); do
				cycle="${path[i]} -> $cycle"
				[[ ${path[i]} != "$name" ]] || break
			done
			die "series/$name/: the base files form a dependency cycle ($cycle); one of these series must sit on a distro base (linux-source or linux-source-<version>) or on a series outside the cycle" ;;
		esac
		state[$name]=active
		path+=("$name")
		base=$(series_base "$name") || exit 1
		if ! is_distro_base "$base"; then
			[[ -f $SERIES_DIR/$base/series ]] ||
				die "series/$name/base names '$base', which is not a series ($BASE_FILE_HELP)"
			visit "$base"
		fi
		unset 'path[-1]'
		state[$name]=visited
		order+=("$name")
	}
	for s in "$SERIES_DIR"/*/; do
		s=${s%/}
		s=${s##*/}
		[[ -f $SERIES_DIR/$s/series ]] || continue
		if is_distro_base "$s" || [[ $s == b4 ]]; then
			die "series/$s/: a series cannot be named '$s', which is the workspace's own branch ($BASE_BRANCH and $BASE_BRANCH-<version> are the distro bases, b4/<name> are b4's); rename the directory"
		fi
		git check-ref-format --branch "$s" >/dev/null 2>&1 ||
			die "series/$s/: '$s' is not a valid git branch name, and the series is applied as branch <name>; rename the directory"
	done
	for s in "$SERIES_DIR"/*/; do
		s=${s%/}
		s=${s##*/}
		[[ -f $SERIES_DIR/$s/series ]] || continue
		visit "$s"
	done
	((${#order[@]} == 0)) || printf '%s\n' "${order[@]}"
}

# What a series' base file may hold, for the messages that name it.
BASE_FILE_HELP="it must hold linux-source (linux-source-\$KVER), linux-source-<version>, git:<ref> (a ref of the repository LINUX_GIT names) or the name of a series"

# series_base NAME: what series/NAME/base holds, checked for form: a distro
# base (is_distro_base) or a name (series_names checks that it is a series).
series_base() {
	local f=$SERIES_DIR/$1/base
	[[ -f $f ]] || die "series/$1 has no 'base' file ($BASE_FILE_HELP)"
	local b=""
	# read, not a command substitution: series_base runs for every
	# series in every step, and a fork each time shows in a warm make.
	IFS= read -r -d '' b <"$f" || [[ -n $b ]] || [[ -r $f ]] || exit 1
	b=${b//[[:space:]]/}
	[[ -n $b ]] || die "series/$1/base is empty ($BASE_FILE_HELP)"
	if [[ $b == linux-source-* ]] && ! is_distro_base "$b"; then
		die "series/$1/base names '$b', which is not a distro base: a version is two numbers, such as linux-source-6.12"
	fi
	if [[ $b == git:* ]] && ! git check-ref-format --branch "git/${b#git:}" >/dev/null 2>&1; then
		die "series/$1/base names '$b': what follows git: must be a branch or tag name of the repository LINUX_GIT names, such as git:v6.13 or git:tty-next"
	fi
	printf '%s\n' "$b"
}

# is_distro_base NAME: NAME is a base the workspace imports rather than a
# series: linux-source (the default base, KVER's), linux-source-X.Y
# (Debian's linux-source-X.Y package) or git:REF (is_git_base).
is_distro_base() {
	[[ $1 == linux-source || $1 =~ ^linux-source-[0-9]+\.[0-9]+$ ]] || is_git_base "$1"
}

# is_git_base NAME: NAME is git:REF, a branch or tag of the repository
# LINUX_GIT names (a path or a URL), which import.sh fetches into the tree
# as branch git/REF.
is_git_base() {
	[[ $1 == git:?* ]]
}

# distro_version BASE: the version of a distro base (KVER for linux-source).
distro_version() {
	if [[ $1 == linux-source ]]; then echo "$KVER"; else echo "${1#linux-source-}"; fi
}

# root_base NAME: the distro base under series NAME, through the series it
# sits on: the branch its commits' warnings and bases are counted from.
root_base() {
	local b
	b=$(series_base "$1") || exit 1
	while ! is_distro_base "$b"; do
		b=$(series_base "$b") || exit 1
	done
	distro_branch "$b"
}

# distro_branch BASE: the branch import.sh leaves a distro base on:
# linux-source for KVER's (also linux-source-$KVER), linux-source-X.Y for
# another version.
distro_branch() {
	local v
	if is_git_base "$1"; then
		echo "git/${1#git:}"
		return 0
	fi
	v=$(distro_version "$1")
	if [[ $v == "$KVER" ]]; then echo "$BASE_BRANCH"; else echo "$BASE_BRANCH-$v"; fi
}

# series_bases: "NAME BASE" of every series, BASE as its base file says.
series_bases() {
	local s b
	local -a names
	capture names series_names
	for s in "${names[@]}"; do
		b=$(series_base "$s") || exit 1
		echo "$s $b"
	done
}

# distro_series: "NAME VERSION" of every series whose base file names a
# linux-source base (VERSION is KVER's for linux-source).
distro_series() {
	local s b pairs
	pairs=$(series_bases) || exit 1
	while read -r s b; do
		if [[ -n $s ]] && is_distro_base "$b" && ! is_git_base "$b"; then echo "$s $(distro_version "$b")"; fi
	done <<<"$pairs"
}

# git_bases: "NAME REF" of every series whose base file names git:REF.
git_bases() {
	local pairs
	pairs=$(series_bases) || exit 1
	awk '$2 ~ /^git:./ { print $1, substr($2, 5) }' <<<"$pairs"
}

# base_versions: the linux-source versions import.sh imports and deps.sh
# installs: KVER's, and every version a series' base names (all series:
# one that is not selected now may be applied later).  One a line, KVER's
# first.
base_versions() {
	local pairs
	echo "$KVER"
	pairs=$(distro_series) || exit 1
	awk '{ print $2 }' <<<"$pairs" | grep -vxF "$KVER" | LC_ALL=C sort -uV || true
}

# version_users VERSION: the series whose base file names linux-source
# VERSION (linux-source itself for KVER), comma-separated, for messages.
version_users() {
	local pairs
	pairs=$(distro_series) || exit 1
	awk -v v="$1" '$2 == v { print $1 }' <<<"$pairs" | paste -sd,
}

# check_series NAME: die with the list of known series when NAME is not one
# of them (or when series/ itself is broken, with why).
check_series() {
	local name=$1 all
	local -a names=()
	all=$(series_names) || exit 1
	[[ -z $all ]] || mapfile -t names <<<"$all"
	if ! grep -qxF -- "$name" <<<"$all"; then
		printf 'error: unknown series "%s"; the series are:\n' "$name" >&2
		((${#names[@]} == 0)) || printf '  %s\n' "${names[@]}" >&2
		exit 1
	fi
}

# selected_series: $SERIES if set (checked), else all, in dependency order.
# Like series_names, it exits on error.
selected_series() {
	local all s
	local -a wanted
	all=$(series_names) || exit 1
	if [[ -n ${SERIES:-} ]]; then
		IFS=', ' read -ra wanted <<<"$SERIES"
		for s in "${wanted[@]}"; do
			check_series "$s"
		done
		for s in $all; do
			[[ ",${SERIES// /,}," != *",$s,"* ]] || echo "$s"
		done
		return 0
	fi
	[[ -z $all ]] || printf '%s\n' "$all"
}

# base_ref NAME: the ref a series is applied on.  Exits on a bad base.
base_ref() {
	local b
	b=$(series_base "$1") || exit 1
	if is_distro_base "$b"; then
		distro_branch "$b"
	else
		[[ -f $SERIES_DIR/$b/series ]] ||
			die "series/$1/base names '$b', which is not a series ($BASE_FILE_HELP)"
		echo "$b"
	fi
}

# series_entries DIR: the names DIR/series lists, one a line, as written:
# comments, blank lines, surrounding blanks and CRLF line ends dropped;
# nothing when there is no series file.
series_entries() {
	[[ -f $1/series ]] || return 0
	sed -e 's/\r$//' -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1/series"
}

# patch_files NAME: the patches listed in series/NAME/series, checked.
patch_files() {
	local name=$1 dir=$SERIES_DIR/$1 line entries
	[[ -f $dir/series ]] || die "series/$name has no 'series' file"
	entries=$(series_entries "$dir") || die "cannot read series/$name/series"
	while IFS= read -r line; do
		[[ -n $line ]] || continue
		[[ $line != */* && $line != .* ]] ||
			die "series/$name/series lists '$line': a patch is a file of series/$name/ itself, named without '/' or a leading '.'"
		[[ -f $dir/$line ]] || die "series/$name/series lists '$line', which is not in series/$name/"
		echo "$line"
	done <<<"$entries"
}

# applied_key NAME: the tree's git config key for what the last apply or
# export of series NAME left ("<inputs_hash> <head>").  NAME is the key's
# subsection, which holds any character a branch name may: the old key,
# workspace.applied.NAME, is not valid git config for a NAME with a dot
# (vstatus-6.1).
applied_key() {
	echo "workspace.$1.applied"
}

# applied_record NAME: that record; fails when there is none.  A tree from
# before applied_key is read under its old key.
applied_record() {
	git_tree config --get "$(applied_key "$1")" ||
		git_tree config --get "workspace.applied.$1" 2>/dev/null
}

# inputs_hash NAME BASE: what the branch is a function of.
inputs_hash() {
	local name=$1 base=$2 p
	local -a in=(--text "base $base")
	while read -r p; do
		[[ -z $p ]] || in+=(--text "patch $p" --run cat "$SERIES_DIR/$name/$p")
	done <<<"$(patch_files "$name")"
	key_from 64 "${in[@]}"
}

# series_commits NAME: base commit, then every commit of the branch, oldest
# first, one "index sha subject" line each.
series_commits() {
	local name=$1 base
	base=$(git_tree rev-parse --verify -q "$(base_ref "$name")^{commit}") ||
		die "base of series '$name' ($(base_ref "$name")) is not in the tree: apply it first"
	git_tree rev-parse --verify -q "refs/heads/$name^{commit}" >/dev/null ||
		die "series '$name' is not applied: run 'make apply SERIES=$name'"
	printf '0 %s %s\n' "$base" "$(git_tree log -1 --format=%s "$base")"
	git_tree log --reverse --format='%H %s' "$base..refs/heads/$name" | awk '{print NR, $0}'
}

validate_variables
scale_out_env
