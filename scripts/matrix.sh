#!/usr/bin/env bash
# matrix.sh: the one matrix of a run, commits by stages, from results.tsv.
#
# Prints it to the terminal, writes $WORKDIR/report/summary.md (and, through
# scripts/report.py, results.json and results.junit.xml for CI systems), and
# exits 1 if any cell is fail.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

# Canonical stage order; checks other than checkpatch sort in between;
# the arm64 cells (make boot-arm64) come after x86_64's.
STAGE_ORDER="apply checkpatch @checks build cross full-build boot boot-debug build-arm64 boot-arm64"

# arch_order: the architectures of scripts/arches, in its order.
arch_order() {
	awk -F'\t' '!/^#/ && NF >= 6 { printf "%s ", $1 }' "$WS_ROOT/scripts/arches"
}

stages_present() {
	local -a present
	mapfile -t present < <(awk -F'\t' 'NR > 1 { print $5 }' "$RESULTS" | sort -u)
	local s p
	for s in $STAGE_ORDER; do
		if [[ $s == @checks ]]; then
			for p in "${present[@]}"; do
				[[ " $STAGE_ORDER " == *" $p "* ]] || echo "$p"
			done
		else
			for p in "${present[@]}"; do
				[[ $p == "$s" ]] && echo "$p"
			done
		fi
	done
}

# render FORMAT: FORMAT is "text" or "md".
render() {
	local fmt=$1
	awk -F'\t' -v fmt="$fmt" -v stages="$(stages_present | xargs)" -v archorder="$(arch_order)" '
	BEGIN { rank["skip"] = 0; rank["pass"] = 1; rank["warn"] = 2; rank["fail"] = 3 }
	NR == 1 { next }
	{
		key = $1 SUBSEP $2
		if (!(key in seen)) {
			seen[key] = 1
			order[++nrows] = key
			if (!($1 in sname)) { sname[$1] = 1; series[++nseries] = $1 }
		}
		if ($3 != "-" && $3 != "") commit[key] = substr($3, 1, 12)
		else if (!(key in commit)) commit[key] = "-"
		subj[key] = $4
		st = $6
		# A stage with a row per architecture (cross) shows its worst
		# status and its total time.
		if (!((key, $5) in status) || rank[st] > rank[status[key, $5]]) status[key, $5] = st
		secs[key, $5] += $7
		fig = ""
		if ($5 != "apply" && secs[key, $5] > 0) fig = " " secs[key, $5] "s"
		cell[key, $5] = (status[key, $5] == "fail" ? "FAIL" : status[key, $5]) fig
		if ($5 == "cross" && $10 != "") {
			xs = (st == "fail" ? "FAIL" : st == "skip" ? (index($8, "not covered") == 1 ? "n/c" : "skip") : st)
			xcell[key, $10] = xs
			xany[$1] = 1
			if (!($10 in xseen)) { xseen[$10] = 1; xextra = xextra " " $10 }
		}
		if (st == "fail") nfail++
		if (st == "fail" || st == "warn") {
			d = $8
			if (index(d, st ":") != 1) d = st ": " d
			notes[++nnotes] = $1 " " $2 " " substr($3, 1, 12) " " $5 ($5 == "cross" && $10 != "" ? " " $10 : "") ": " d
			notelog[nnotes] = $9
		}
	}
	END {
		ns = split(stages, stage, " ")
		# Architectures in the order of scripts/arches, then any other.
		nx = 0
		na = split(archorder, ao, " ")
		for (i = 1; i <= na; i++) if (ao[i] in xseen) { xarch[++nx] = ao[i]; xdone[ao[i]] = 1 }
		ne = split(xextra, xe, " ")
		for (i = 1; i <= ne; i++) if (!(xe[i] in xdone)) xarch[++nx] = xe[i]
		for (s = 1; s <= nseries; s++) {
			if (fmt == "md") {
				printf "\n### %s\n\n| # | commit | subject |", series[s]
				for (j = 1; j <= ns; j++) printf " %s |", stage[j]
				printf "\n|---|---|---|"
				for (j = 1; j <= ns; j++) printf "---|"
				printf "\n"
			} else {
				printf "\n== %s ==\n%-3s %-12s %-44s", series[s], "#", "commit", "subject"
				for (j = 1; j <= ns; j++) printf " %-11s", stage[j]
				printf "\n"
			}
			# Rows in index order.
			delete idx
			n = 0
			for (r = 1; r <= nrows; r++) {
				split(order[r], kk, SUBSEP)
				if (kk[1] == series[s]) idx[++n] = kk[2] + 0
			}
			for (a = 1; a <= n; a++) for (b = a + 1; b <= n; b++)
				if (idx[b] < idx[a]) { t = idx[a]; idx[a] = idx[b]; idx[b] = t }
			for (a = 1; a <= n; a++) {
				key = series[s] SUBSEP idx[a]
				sub_ = subj[key]
				if (fmt == "md") {
					gsub(/\|/, "\\|", sub_)
					printf "| %d | %s | %s |", idx[a], commit[key], sub_
					for (j = 1; j <= ns; j++) printf " %s |", ((key, stage[j]) in cell) ? cell[key, stage[j]] : ""
					printf "\n"
				} else {
					if (length(sub_) > 44) sub_ = substr(sub_, 1, 41) "..."
					printf "%-3d %-12s %-44s", idx[a], commit[key], sub_
					for (j = 1; j <= ns; j++) printf " %-11s", ((key, stage[j]) in cell) ? cell[key, stage[j]] : "-"
					printf "\n"
				}
			}
			if (series[s] in xany) {
				if (fmt == "md") {
					printf "\n%s, cross-compiled by architecture (n/c: not covered, no compiler):\n\n| # |", series[s]
					for (j = 1; j <= nx; j++) printf " %s |", xarch[j]
					printf "\n|---|"
					for (j = 1; j <= nx; j++) printf "---|"
					printf "\n"
				} else {
					printf "\n%s, cross-compiled by architecture (n/c: not covered, no compiler):\n%-3s", series[s], "#"
					for (j = 1; j <= nx; j++) printf " %-7s", xarch[j]
					printf "\n"
				}
				for (a = 1; a <= n; a++) {
					key = series[s] SUBSEP idx[a]
					if (!((key, "cross") in status)) continue
					printf (fmt == "md" ? "| %d |" : "%-3d"), idx[a]
					for (j = 1; j <= nx; j++) {
						v = ((key, xarch[j]) in xcell) ? xcell[key, xarch[j]] : "-"
						printf (fmt == "md" ? " %s |" : " %-7s"), v
					}
					printf "\n"
				}
			}
		}
		if (nnotes) {
			printf (fmt == "md" ? "\n### Failures and warnings\n\n" : "\nfailures and warnings:\n")
			for (i = 1; i <= nnotes; i++) {
				printf (fmt == "md" ? "- %s\n" : "  %s\n"), notes[i]
				if (notelog[i] != "") printf (fmt == "md" ? "  (log: `%s`)\n" : "      log: %s\n"), notelog[i]
			}
		}
		printf (fmt == "md" ? "\n**%d failing cell(s)**\n" : "\n%d failing cell(s)\n"), nfail
		exit(nfail > 0)
	}' "$RESULTS"
}

main() {
	[[ -s $RESULTS ]] || die "no results yet ($RESULTS): run make first"
	local damage
	damage=$(results_damage "$RESULTS")
	[[ -z $damage ]] || die "$RESULTS is damaged ($damage): run make again to rebuild it"
	local rc=0
	{
		echo "# Workspace report"
		echo
		echo "Generated $(date -u '+%Y-%m-%d %H:%M UTC') from \`$RESULTS\`, kernel tree \`$TREE\`."
		render md || true
	} >"$REPORT/summary.md"
	"$WS_ROOT/scripts/report.py" "$RESULTS" "$REPORT" ||
		die "scripts/report.py could not write results.json and results.junit.xml from $RESULTS"
	render text || rc=$?
	echo "report: $REPORT/summary.md, $RESULTS (and results.json, results.junit.xml beside it)"
	return $rc
}

main "$@"
