# shellcheck shell=bash
# verdicts.sh: a check that judges several items (the docs check's books,
# the selftests check's directories) one at a time, and sums them up.
# Sourced by checks/*/run, which set $log (the check's log).
: "${log:?verdicts.sh: the check sets log first}"

# verdicts FUNC ITEM...: FUNC's verdict line ("error|fail|warn|pass
# DETAIL") for each ITEM.  FUNC runs with errexit in a subshell of its own:
# one that stops half-way (its errors go to the log), or prints anything
# but one verdict, is an error line naming ITEM, never a missing line
# (which would read as a pass).
verdicts() {
	local f=$1 item v_rc v_line
	shift
	for item in "$@"; do
		set +e
		v_line=$(
			set -e
			"$f" "$item" 2>>"$log"
		)
		v_rc=$?
		set -e
		if ((v_rc != 0)) || [[ $v_line == *$'\n'* || ! $v_line =~ ^(error|fail|warn|pass)\  ]]; then
			echo "error $item: the check stopped before its verdict (exit $v_rc; see the log)"
		else
			echo "$v_line"
		fi
	done
}

# sum_verdicts FILE: the verdict lines of FILE (verdicts' output) into the
# log; the first line of the worst kind, with how many more there are, as
# the check's summary, and its exit status: 1 for an error or a failure,
# 250 for a warning.  Nothing, and 0, when every item passed.  An empty or
# unreadable FILE is an error: no item was judged.
sum_verdicts() {
	local r n
	local -a results hit
	mapfile -t results <"$1" || { echo "the verdicts could not be read ($1)"; return 1; }
	((${#results[@]} > 0)) || { echo "no item was judged"; return 1; }
	printf 'result: %s\n' "${results[@]}" >>"$log"
	for r in error fail warn; do
		hit=()
		for n in "${results[@]}"; do
			[[ $n != "$r "* ]] || hit+=("${n#"$r "}")
		done
		((${#hit[@]} > 0)) || continue
		echo "${hit[0]}$( ((${#hit[@]} == 1)) || echo " (and $((${#hit[@]} - 1)) more)")"
		if [[ $r == warn ]]; then return 250; fi
		return 1
	done
}
