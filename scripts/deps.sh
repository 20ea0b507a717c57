#!/usr/bin/env bash
# deps.sh: install the Debian packages the workspace needs (make deps).
#
# Idempotent: only missing packages are installed, and a machine that has
# them all costs one dpkg-query.  linux-source-<version> for KVER and for
# each version a series' base names (scripts/lib.sh, base_versions).  The
# Sphinx packages are what scripts/sphinx-pre-install asks of Debian for
# make htmldocs (checks/docs): Sphinx, its Read the Docs theme, and dot for
# the figures.  The cross compilers are those scripts/arches names;
# the boot architectures' (scripts/bootarch.sh: QEMU, and the compilers
# and C libraries of mips64el's n64, n32 and o32 guest programs);
# gcc-12-multilib (gcc -m32, for the 32-bit guest tests), unlike the
# gcc-multilib meta-package, can be installed beside them.  icecc only
# with ICECC=1 and redis-server only with CCACHE_REMOTE (for the machine
# that serves the shared cache), or both for make test (WS_TEST_SUITE:
# tests/icecc.bats starts its own scheduler, daemon and Redis server).
# Nothing here enables or starts a service; the README ("Scaling out")
# says what Debian's packages start by themselves.  apt-get's own output
# goes to $WORKDIR/logs/deps.log, one progress line here; its last lines
# when it fails.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

packages() {
	base_versions | sed 's/^/linux-source-/'
	cat <<-PKGS
		git b4 git-filter-repo
		gcc gcc-12-multilib libc6-dev make flex bison bc libelf-dev libssl-dev
		cpio xz-utils ccache sparse coccinelle python3-ply python3-git codespell
		qemu-system-x86 bats shellcheck shfmt dwarves kmod rsync python3-aiosmtpd python3-pytest
		python3-sphinx python3-sphinx-rtd-theme graphviz
		qemu-system-arm libc6-dev-arm64-cross libc6-dev-armel-cross
		qemu-system-mips gcc-mips64el-linux-gnuabi64 gcc-mipsel-linux-gnu
		libc6-dev-mips64el-cross libc6-dev-mipsel-cross
		libc6-dev-mipsn32-mips64el-cross libn32gcc-12-dev-mips64el-cross
		busybox-static libgc-dev
	PKGS
	awk -F'\t' '!/^#/ && NF >= 6 && $4 != "-" { print $4 }' "$WS_ROOT/scripts/arches" | sort -u
	scale_out_packages
	# make test renders the report's page (tests/e2e.sh).
	[[ ${WS_TEST_SUITE:-0} != 1 ]] || echo chromium
}

# scale_out_packages: icecc and redis-server, when this run or the test
# suite uses them.
scale_out_packages() {
	local tests=${WS_TEST_SUITE:-0}
	if [[ ${ICECC:-0} == 1 || $tests == 1 ]]; then echo icecc; fi
	if [[ -n ${CCACHE_REMOTE:-} || $tests == 1 ]]; then echo redis-server; fi
}

# missing_packages: the packages of packages() that dpkg does not have
# installed, in one dpkg-query (one per package cost a warm make 2 s).  A
# name dpkg never heard of is named on its stderr, not its stdout: missing.
missing_packages() {
	local -a want
	local text
	text=$(packages) || return 1
	read -ra want -d '' <<<"$text" || true
	((${#want[@]})) || return 0
	{ dpkg-query -W -f='${Package} ${Status}\n' "${want[@]}" 2>/dev/null || true; } |
		awk -v want="${want[*]}" '$2 == "install" && $3 == "ok" && $4 == "installed" { have[$1] = 1 }
			END { n = split(want, w, " "); for (i = 1; i <= n; i++) if (!(w[i] in have)) print w[i] }'
}

# apt_logged SUDO ARGS...: apt-get ARGS, its output into $DEPS_LOG; on failure,
# the log's last lines on stderr.
DEPS_LOG=$LOGS/deps.log
apt_logged() {
	local sudo=$1
	shift
	if ! $sudo apt-get "$@" >>"$DEPS_LOG" 2>&1; then
		tail -n 15 "$DEPS_LOG" | sed 's/^/  apt-get: /' >&2
		return 1
	fi
}

main() {
	if [[ ${NO_DEPS:-0} == 1 ]]; then
		progress deps "not checked (NO_DEPS=1)"
		return 0
	fi
	local -a missing
	capture missing missing_packages
	if ((${#missing[@]} == 0)); then
		progress deps "all packages are installed"
		return 0
	fi
	{ mkdir -p "$LOGS" && : >"$DEPS_LOG"; } || die "cannot write $DEPS_LOG"
	progress deps "installing ${#missing[@]} package(s) with apt-get (its output: $DEPS_LOG): ${missing[*]}"
	local sudo="" t0=$SECONDS
	if ((EUID != 0)); then
		command -v sudo >/dev/null || die "need root to install ${missing[*]} (no sudo)"
		sudo=sudo
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt_logged "$sudo" update -qq || die "apt-get update failed (its output: $DEPS_LOG)"
	local p
	local -a installable=()
	for p in "${missing[@]}"; do
		if apt-cache show "$p" >/dev/null 2>&1; then
			installable+=("$p")
		elif [[ $p == linux-source-* && $p != "linux-source-$KVER" ]]; then
			# A base only some series name: those fail to apply, naming
			# it; the others go on.
			warn "package $p is not available from the configured apt sources: series $(version_users "${p#linux-source-}") (their base file) cannot be applied; the others go on (try: apt-cache search linux-source)"
		else
			die "package $p is not available from the configured apt sources${p/linux-source-*/ (is the version right: KVER=$KVER? try: apt-cache search linux-source)}"
		fi
	done
	((${#installable[@]})) || return 0
	apt_logged "$sudo" install -y -qq --no-install-recommends "${installable[@]}" ||
		die "apt-get install failed for: ${installable[*]} (its output: $DEPS_LOG)"
	progress deps "installed ${#installable[@]} package(s) in $((SECONDS - t0))s"
}

main "$@"
