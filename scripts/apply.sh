#!/usr/bin/env bash
# apply.sh: build the branch of each selected series (SERIES=a,b, else
# every series, bases first) from its base with git am.  It takes no
# arguments.
#
# The patches are applied in a private worktree ($WORKDIR/apply) on a
# detached HEAD; the branch moves only once every patch applied, so a
# failure or a Ctrl-C never leaves a half-applied branch.  Commits keep the
# author, date and message of the patch; the committer date is the author
# date, so the same patches on the same base give the same commit ids (and
# the build cache keeps working across runs).
#
# A branch edited in the tree since the last apply or export is not thrown
# away: apply refuses until it is exported (or FORCE=1, which still keeps
# the old branch under refs/workspace/backup/).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

APPLY_WT=$WORKDIR/apply

patch_subject() {
	sed -n 's/^Subject: *//p' "$1" | head -n1 | sed 's/^\[[^]]*\] *//'
}

prepare_worktree() {
	local base=$1
	git_worktree "$TREE" "$APPLY_WT" "$base" || return 1
	# A Ctrl-C during an earlier git am leaves its state behind: drop it.
	if [[ -d $(git -C "$APPLY_WT" rev-parse --git-path rebase-apply) ]]; then
		progress apply "cleaning up an interrupted git am from an earlier run"
		git -C "$APPLY_WT" am --abort >/dev/null 2>&1 ||
			rm -rf "$(git -C "$APPLY_WT" rev-parse --git-path rebase-apply)" || return 1
	fi
	git -C "$APPLY_WT" checkout -q -f --detach "$base" &&
		git -C "$APPLY_WT" clean -fdxq
}

# explain_failure NAME PATCH: name the files and hunks that do not apply.
explain_failure() {
	local name=$1 patch=$2 out
	out=$(git -C "$APPLY_WT" apply --check -v "$SERIES_DIR/$name/$patch" 2>&1 || true)
	printf 'error: series/%s/%s does not apply on %s:\n' "$name" "$patch" \
		"$(git -C "$APPLY_WT" log -1 --format='%h ("%s")' HEAD)" >&2
	printf '%s\n' "$out" |
		sed -n -e 's/^error: patch failed: \(.*\):\([0-9]*\)$/  \1: hunk at line \2 does not apply/p' \
			-e 's/^error: \(.*\): does not exist in index$/  \1: file does not exist/p' \
			-e 's/^error: \(.*\): already exists in index$/  \1: file already exists/p' \
			-e 's/^error: \(.*\): patch does not apply$/  \1: patch does not apply/p' \
			-e 's/^error: corrupt patch at line \([0-9]*\)$/  corrupt patch at line \1/p' \
			-e 's/^error: \(No valid patches in input.*\)$/  \1/p' >&2
	printf '%s\n' "$out" | grep -E '^(error|Checking|Hunk)' >"$LOGS/apply-$name.log" || true
	local first
	first=$(printf '%s\n' "$out" | grep -m1 '^error:' || echo "does not apply")
	printf '%s' "$patch: ${first#error: }"
}

# guard_edits NAME: refuse to replace a branch that was edited in the tree.
guard_edits() {
	local name=$1 cur last
	cur=$(git_tree rev-parse -q --verify "refs/heads/$name" || true)
	[[ -z $cur ]] && return 0
	last=$(git_tree rev-parse -q --verify "refs/workspace/applied/$name" || true)
	[[ $cur == "$last" ]] && return 0
	if [[ ${FORCE:-0} != 1 ]]; then
		die "branch $name in $TREE has commits that are not in series/$name (edited in the tree?).
Run 'make export SERIES=$name' to keep them, or 'make apply SERIES=$name FORCE=1' to discard them (the old branch is kept under refs/workspace/backup/$name)."
	fi
}

# guard_checkout NAME: the user's checkout must not have uncommitted work on
# a branch we are about to move.
guard_checkout() {
	local name=$1
	if [[ $(git_tree symbolic-ref -q HEAD || true) == "refs/heads/$name" ]] &&
		[[ -n $(git_tree status --porcelain -uno) ]]; then
		die "$TREE has uncommitted changes on branch $name; commit or stash them first"
	fi
}

# publish_branch NAME NEW: move branch NAME to NEW, keeping the old one as
# a backup ref, and a checkout of NAME in the tree in step with it.  Called
# without errexit (apply_one runs as `apply_one || ...`): each step checks.
publish_branch() {
	local name=$1 new=$2 old on_branch=0
	old=$(git_tree rev-parse -q --verify "refs/heads/$name" || true)
	[[ $(git_tree symbolic-ref -q HEAD || true) != "refs/heads/$name" ]] || on_branch=1
	# Refuse before moving anything: a ref moved under a checkout that
	# cannot follow it would leave the user a staged revert.
	if ((on_branch)); then
		tree_git_lock || return 1
	fi
	if [[ -n $old && $old != "$new" ]]; then
		git_tree update-ref "refs/workspace/backup/$name/$(date +%Y%m%d-%H%M%S)" "$old" || return 1
	fi
	git_tree update-ref -m "workspace apply" "refs/heads/$name" "$new" ${old:+"$old"} || return 1
	git_tree update-ref "refs/workspace/applied/$name" "$new" || return 1
	if ((on_branch)); then
		git_tree reset -q --hard "$new" || return 1
	fi
}

# record_failed_apply NAME FAILED WHY: the patches before FAILED applied,
# FAILED did not, the ones after it were not tried.
record_failed_apply() {
	local name=$1 failed=$2 why=$3 i status detail
	local -a patches
	capture patches patch_files "$name"
	for ((i = 0; i < ${#patches[@]}; i++)); do
		if ((i < failed)); then
			status=pass detail=""
		elif ((i == failed)); then
			status=fail detail=$why
		else
			status=skip detail="after ${patches[failed]} failed"
		fi
		record "$name" $((i + 1)) - "$(patch_subject "$SERIES_DIR/$name/${patches[i]}")" \
			apply "$status" 0 "$detail" "$([[ $status == fail ]] && echo "$LOGS/apply-$name.log")"
	done
}

apply_one() {
	local name=$1 base_ref base hash t0
	t0=$(now)
	base_ref=$(base_ref "$name")
	base=$(git_tree rev-parse -q --verify "$base_ref^{commit}") ||
		die "series $name sits on '$base_ref', which is not in $TREE (apply it first)"
	patch_files "$name" >/dev/null
	hash=$(KEY_INPUTS=$LOGS/apply-$name.inputs inputs_hash "$name" "$base") ||
		die "cannot hash the inputs of series $name (its patches, its base); see above"
	guard_edits "$name"
	guard_checkout "$name"

	local cur
	cur=$(git_tree rev-parse -q --verify "refs/heads/$name" || true)
	if [[ -n $cur && $(applied_record "$name" || true) == "$hash $cur" ]]; then
		progress apply "$name: up to date ($(git_tree rev-list --count "$base..$cur") commits on $base_ref)"
		record_commits "$name" "$base" "$cur" "$t0"
		return 0
	fi

	local -a patches
	capture patches patch_files "$name"
	((${#patches[@]})) ||
		die "series/$name/series lists no patch: a series is at least one patch (list them in series/$name/series, one file name a line)"
	progress apply "$name: ${#patches[@]} patches on $base_ref ($(git_tree log -1 --format=%h "$base"))"
	prepare_worktree "$base" || { warn "cannot prepare the worktree $APPLY_WT"; return 1; }
	clear_series "$name" || return 1
	local i p
	for ((i = 0; i < ${#patches[@]}; i++)); do
		p=${patches[i]}
		progress apply "$name: [$((i + 1))/${#patches[@]}] $p"
		if ! git -C "$APPLY_WT" -c am.threeWay=false -c core.hooksPath=/dev/null \
			am -q --committer-date-is-author-date "$SERIES_DIR/$name/$p" >/dev/null 2>"$LOGS/am-$name.err"; then
			local why applies=0
			# Where the patch applies on the commits before it, git am
			# failed for another reason (a full disk, a file it could not
			# write): not the patch's fault.
			git -C "$APPLY_WT" apply --check "$SERIES_DIR/$name/$p" >/dev/null 2>&1 && applies=1
			((applies)) || why=$(explain_failure "$name" "$p")
			git -C "$APPLY_WT" am --abort >/dev/null 2>&1 || true
			git -C "$APPLY_WT" checkout -q -f --detach "$base" || true
			record "$name" 0 "$base" "$(git_tree log -1 --format=%s "$base")" apply pass 0 base
			if ((applies)); then
				why="$p applies, but git am failed: $(grep -m1 -E '^(error|fatal): ' "$LOGS/am-$name.err" || tail -n1 "$LOGS/am-$name.err")"
				cp "$LOGS/am-$name.err" "$LOGS/apply-$name.log" 2>/dev/null || true
				record_failed_apply "$name" "$i" "$why"
				printf 'error: series/%s/%s applies, but git am could not write it (is the disk full?): %s; branch %s is unchanged\n' \
					"$name" "$p" "${why#*git am failed: }" "$name" >&2
				return 2
			fi
			record_failed_apply "$name" "$i" "$why"
			printf 'error: branch %s is unchanged; fix series/%s/%s and run make apply again\n' \
				"$name" "$name" "$p" >&2
			return 2
		fi
	done
	local head
	head=$(git -C "$APPLY_WT" rev-parse HEAD) || return 1
	if ! publish_branch "$name" "$head"; then
		printf 'error: branch %s could not be moved to the applied series (%s); it is where it was\n' \
			"$name" "${head:0:12}" >&2
		return 1
	fi
	git_tree config "$(applied_key "$name")" "$hash $head" || return 1
	git -C "$APPLY_WT" checkout -q --detach "$base" || return 1
	progress apply "$name: branch $name is at $(git_tree log -1 --format='%h ("%s")' "$head")"
	record_commits "$name" "$base" "$head" "$t0"
}

# record_commits NAME BASE HEAD T0: one apply row per commit of the branch,
# each with what the branch was made from (apply_one's inputs_hash).
record_commits() {
	local name=$1 base=$2 head=$3 t0=$4 secs idx sha subj read_by=$LOGS/apply-$1.inputs
	secs=$(($(now) - t0))
	CELL_INPUTS=$read_by record "$name" 0 "$base" "$(git_tree log -1 --format=%s "$base")" apply pass 0 "base"
	while read -r idx sha subj; do
		CELL_INPUTS=$read_by record "$name" "$idx" "$sha" "$subj" apply pass "$secs" ""
	done < <(git_tree log --reverse --format='%H %s' "$base..$head" | awk '{print NR, $0}')
}

# refuse NAME WHY: series NAME was not applied: its apply cell fails with
# WHY (which names the file at fault), so that the run's matrix shows it.
refuse() {
	record "$1" 0 - "series/$1" apply fail 0 "$2" "${3:-}"
}

# apply_or_refuse NAME: apply_one, in a subshell of its own (its errors
# exit it).  Status 2 is a patch that did not apply, whose cells apply_one
# recorded; any other failure (a missing patch, an empty series, edits not
# exported, a branch that could not move) has its first error line made
# the series' failing apply cell.
apply_or_refuse() {
	local name=$1 log=$LOGS/apply-$1.err rc=0 why
	(apply_one "$name") 2>"$log" || rc=$?
	cat "$log" >&2
	((rc != 0)) || return 0
	if ((rc != 2)); then
		why=$(grep -m1 '^error: ' "$log" | sed 's/^error: //')
		refuse "$name" "${why:-apply.sh stopped (exit $rc) without saying why}" "$log"
	fi
	return "$rc"
}

main() {
	(($# == 0)) || die "apply.sh takes no arguments (got '$*'); name the series with SERIES=a,b"
	require_tree
	take_lock
	mkdir -p "$LOGS"
	local s rc=0
	local -A failed=()
	local -a selected_series_list
	capture selected_series_list selected_series
	for s in "${selected_series_list[@]}"; do
		local b
		b=$(series_base "$s")
		if is_distro_base "$b"; then
			b=$(distro_branch "$b")
			if ! git_tree rev-parse -q --verify "refs/heads/$b" >/dev/null; then
				warn "not applying $s: series/$s/base names $(series_base "$s"), which is not imported (no branch $b): run make import"
				refuse "$s" "series/$s/base names $(series_base "$s"), which is not imported (no branch $b): run make import"
				failed[$s]=1
				rc=1
				continue
			fi
		elif [[ -n ${failed[$b]:-} ]]; then
			warn "not applying $s: its base series $b failed"
			refuse "$s" "not applied: series/$s/base names $b, which did not apply"
			failed[$s]=1
			rc=1
			continue
		elif ! git_tree rev-parse -q --verify "refs/heads/$b" >/dev/null; then
			SERIES=$b apply_or_refuse "$b" || {
				refuse "$s" "not applied: series/$s/base names $b, which did not apply"
				failed[$s]=1 rc=1
				continue
			}
		fi
		apply_or_refuse "$s" || { failed[$s]=1; rc=1; }
	done
	return $rc
}

main "$@"
