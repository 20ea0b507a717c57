# shellcheck shell=bash
# keys.sh: how the workspace makes a cache key, shared by its scripts
# (through lib.sh), its checks (through checks/lib/worktree.sh, or
# directly) and its Coccinelle scan (cocci/scan-tree.sh).  Sourced, never
# executed.

# key_from LEN INPUT...: the cache key of a result, LEN hex digits (16 for
# most, 32 for a boot, 64 for a series' inputs), made from the inputs the
# result declares, in the order given.  Every cache key of the workspace's
# shell code is made here; scripts/keys.py's Key makes those of its
# Python code (the job memos) the same way; nothing else computes a hash
# (tests/py/test_keys.py).  An INPUT is a kind, then its words, up to the
# next kind:
#   --text WORD...   each WORD on a line of its own: a sha, a variable's
#                    value, a tool's version line, the key of a result
#                    this one depends on
#   --files FILE...  each FILE's content, by its SHA-256 (file_sums)
#   --run CMD ARG... what the command prints: a listing (git ls-tree), the
#                    code that decides the result (declare -f), a digest
#                    kept by stat (stat_digest), a file's text (cat)
# A word that is one of the three kinds starts the next input, so no
# argument may be one.  When an input cannot be read or its command fails,
# key_from prints nothing, says which on stderr and fails: a key is never
# made from part of its inputs.  With KEY_INPUTS set to a file, key_from
# also writes there what the result read, in the same pass (key_inputs'
# fd 3), then "key KEY": the cell that the result decides keeps it
# (lib.sh's record, CELL_INPUTS).
key_from() {
	local len=$1 key manifest=${KEY_INPUTS:-} sink=/dev/null
	shift
	[[ $len =~ ^[1-9][0-9]*$ ]] || { echo "key_from: '$len' is not a length" >&2; return 1; }
	if [[ -n $manifest ]]; then
		sink=$manifest.tmp
		: 2>/dev/null >"$sink" || { echo "key_from: cannot write what the key read to $manifest" >&2; return 1; }
	fi
	key=$(
		set -o pipefail
		# A key made by one of the commands writes no manifest of its own.
		unset KEY_INPUTS
		exec 3>>"$sink"
		key_inputs "$@" | key_of "$len"
	) || { [[ -z $manifest ]] || rm -f "$manifest.tmp"; return 1; }
	if [[ -n $manifest ]] && ! { echo "key $key" >>"$manifest.tmp" && mv -f "$manifest.tmp" "$manifest"; }; then
		rm -f "$manifest.tmp"
		echo "key_from: cannot write what the key read to $manifest" >&2
		return 1
	fi
	printf '%s\n' "$key"
}

# key_inputs INPUT...: what key_from hashes, as described there, on
# stdout; and on fd 3 the same inputs as a reader sees them, one a line:
# "text LINE" (for each line of a WORD), "file PATH SHA256", "run CMD
# ARG..." (what the command printed is in the key, not there).
key_inputs() {
	local kind=""
	local -a words=()
	while (($#)); do
		case $1 in
		--text | --files | --run)
			key_input "$kind" "${words[@]}" || return 1
			kind=$1
			words=()
			;;
		*)
			[[ -n $kind ]] || { echo "key_from: '$1' is not --text, --files or --run" >&2; return 1; }
			words+=("$1")
			;;
		esac
		shift
	done
	key_input "$kind" "${words[@]}"
}

# key_input KIND WORD...: one input of key_from (key_inputs).
key_input() {
	local kind=$1 w line i sums
	local -a each
	shift
	case $kind in
	"") ;;
	--text)
		((!$#)) || printf '%s\n' "$@"
		for w; do
			while IFS= read -r line; do printf 'text %s\n' "$line"; done <<<"$w"
		done >&3
		;;
	--files)
		(($#)) || return 0
		sums=$(file_sums "$@") || { echo "key_from: cannot read $*" >&2; return 1; }
		printf '%s\n' "$sums"
		mapfile -t each <<<"$sums"
		for ((i = 0; i < $#; i++)); do
			printf 'file %s %s\n' "${@:i+1:1}" "${each[i]}"
		done >&3
		;;
	--run)
		(($#)) || { echo "key_from: --run names no command" >&2; return 1; }
		printf 'run%s\n' "$(printf ' %s' "$@")" >&3
		"$@" 3>&- || { echo "key_from: $* failed" >&2; return 1; }
		;;
	esac
}

# key_of LEN: the first LEN hex digits of the SHA-256 of standard input;
# key_from's hash, called by nothing else.
key_of() {
	sha256sum | cut -c1-"$1"
}

# file_sums FILE...: the SHA-256 of each FILE, alone on a line, in order:
# the files a key covers by content (a key made from them, not from their
# paths, is the same in any checkout).  Fails, printing nothing, when a
# FILE cannot be read, whatever the caller's pipefail.
file_sums() {
	local out
	out=$(sha256sum "$@") || return 1
	printf '%s\n' "$out" | cut -d' ' -f1
}

# tree_sums_of DIR: the SHA-256 of every file under DIR, as sha256sum
# prints them, by their paths from DIR, sorted: a directory a key covers
# by content.  Nothing for an empty DIR (xargs -r: sha256sum would hash
# its standard input); a path with a space is one file.
tree_sums_of() {
	(cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum)
}

# script_code FILE: what in a shell script decides what it does: its code
# without comments or layout (shfmt -mn, which parses it), so that a
# comment-only edit keeps every key made from it; the file whole when
# shfmt cannot parse it.
script_code() {
	shfmt -mn "$1" 2>/dev/null || cat "$1"
}
