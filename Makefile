# The workspace's whole user interface.  `make help` explains every target
# and variable.  All state lives in $(WORKDIR), outside this repository.

WORKDIR ?= $(HOME)/.cache/vstatus-workspace
KVER ?= 6.1
SERIES ?=
CHECKS ?=
DEBUG ?= 1
CONFIG ?= smoke
ACCEL ?= auto
BOOT_TIMEOUT ?= 300
TEST_TIMEOUT ?= 120
# Empty: nproc, or ICECC_JOBS with ICECC=1 (scripts/lib.sh, scale_out_env).
JOBS ?=
CHECK_JOBS ?= $(shell nproc)
CHECKS_BESIDE ?= 1
BOOTS_BESIDE ?= 1
FORCE ?= 0
E2E ?= 1
BENCH_BOOTS ?= 3
NAIVE ?= 0
NO_DEPS ?= 0
FRESH ?= 0
JOB_MEMO ?= 1
BOOT_ARCH ?= x86_64
ARCH_BOOTS ?= arm64
ICECC ?= 0
ICECC_SCHEDULER ?=
ICECC_JOBS ?=
CCACHE_REMOTE ?=
LINUX_GIT ?=

export WORKDIR KVER SERIES CHECKS DEBUG CONFIG ACCEL BOOT_TIMEOUT TEST_TIMEOUT JOBS CHECK_JOBS CHECKS_BESIDE BOOTS_BESIDE FORCE E2E BENCH_BOOTS NAIVE NO_DEPS FRESH JOB_MEMO BOOT_ARCH ARCH_BOOTS
export ICECC ICECC_SCHEDULER ICECC_JOBS CCACHE_REMOTE LINUX_GIT
export WS_ROOT := $(CURDIR)
# The kernel builds set their own ARCH and CROSS_COMPILE (scripts/arches);
# ones exported in the user's shell for other work must not reach them.
unexport ARCH CROSS_COMPILE
# Nor do git's repository variables (a pre-commit hook that runs make sets
# GIT_INDEX_FILE and GIT_DIR): git's own list of them, less its GIT_CONFIG*
# ones (configuration, not a repository), as scripts/lib.sh clears them.
unexport $(filter-out GIT_CONFIG%,$(shell git rev-parse --local-env-vars 2>/dev/null))

S := $(CURDIR)/scripts

.DEFAULT_GOAL := all
.PHONY: all deps import apply export check cocci-inventory bisect-build cross-compile cross bisect boot-test boot-arm64 boot-i386 boot-mips64el matrix bench test help clean distclean

all: ## deps, import, then apply, check, bisect-build, cross-compile and boot-test every series; debug boots of the heads; boots of bases and heads on ARCH_BOOTS; the matrix
	@bash $(S)/all.sh

deps: ## install the Debian packages (apt-get; idempotent)
	@bash $(S)/deps.sh

import: deps ## unpack /usr/src/linux-source-<version>.tar.xz (KVER's, and those the series' bases name) into $(WORKDIR)/linux, tag debian/<version>
	@bash $(S)/import.sh

apply: deps ## git am series/$(SERIES)/ onto its base as branch $(SERIES) (all series if unset)
	@bash $(S)/apply.sh

export: deps ## write branch $(SERIES) back into series/$(SERIES)/ after editing it in the tree
	@bash $(S)/export.sh

check: deps ## run checks/*/run (or $(CHECKS)) on every commit of $(SERIES)
	@bash $(S)/check.sh

cocci-inventory: deps ## every cocci/ script over the whole tree (all arches) at the base and each series head: report/cocci-inventory.md
	@bash $(S)/cocci-inventory.sh

bisect-build: deps ## build the base and every commit of $(SERIES) in order, with $(CONFIG)
	@bash $(S)/build.sh series

cross-compile: deps ## compile what each commit of $(SERIES) touches on every architecture it concerns (scripts/arches)
	@bash $(S)/cross.sh series

cross: deps ## full builds (vmlinux) of each head of $(SERIES) on every architecture the series concern; a failing head is bisected
	@bash $(S)/cross.sh heads

bisect: deps ## the first commit of SERIES=<one series> that does not build on ARCH=<name in scripts/arches>, or with TEST=<name> where that guest test fails
	@test -n "$(SERIES)" -a -n "$(ARCH)" || { echo "usage: make bisect SERIES=<series> ARCH=<architecture> [TEST=<guest test>] (see scripts/arches)" >&2; exit 2; }
	@env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u ARCH TEST="$(TEST)" bash $(S)/cross.sh bisect "$(SERIES)" "$(ARCH)"

boot-test: deps ## boot every commit of $(SERIES) in QEMU; DEBUG=1 boots only the heads on the debug config
	@if [ "$(origin DEBUG)" = "command line" ] && [ "$(DEBUG)" = 1 ]; then \
		bash $(S)/boot.sh heads; else bash $(S)/boot.sh series; fi

boot-arm64: deps ## arm64: build and boot the base and the head of each series (qemu-system-aarch64 virt, TCG; arm 32-bit programs too)
	@BOOT_ARCH=arm64 bash $(S)/boot.sh arch-heads

boot-i386: deps ## i386: a 32-bit kernel built and booted at the base and the head of each series (qemu-system-i386; 32-bit programs)
	@BOOT_ARCH=i386 bash $(S)/boot.sh arch-heads

boot-mips64el: deps ## mips64el: build and boot the base and the head of each series (qemu-system-mips64el Malta, TCG; n64, o32 and n32 programs)
	@BOOT_ARCH=mips64el bash $(S)/boot.sh arch-heads

# make shell and make run: one commit's kernel booted by hand (scripts/guest.sh).
COMMIT ?=
CMD ?=
export COMMIT CMD
.PHONY: shell run

shell: deps ## boot commit $(COMMIT) (default: the head) of one $(SERIES) with its guest programs, and a shell on the console
	@bash $(S)/guest.sh shell

run: deps ## boot commit $(COMMIT) of one $(SERIES), run CMD='...' in it with busybox sh; fails, naming its status, when it does
	@bash $(S)/guest.sh run

matrix: ## print the matrix of the last run again (and rewrite summary.md and index.html)
	@bash $(S)/matrix.sh

bench: deps ## run everything; pty throughput base vs head, checks on a two-file commit, the cocci inventory, the naive way's cost once, the signal structures' sizes at each base and head; print all figures and the speed targets
	@FRESH=1 bash $(S)/all.sh || true
	@bash $(S)/boot.sh bench
	@bash $(S)/check.sh bench
	@bash $(S)/cocci-inventory.sh
	@bash $(S)/build.sh naive
	@bash $(S)/build.sh memory
	@bash $(S)/bench.sh

# make send, reroll and trailers: b4 on the throwaway tree (scripts/b4.sh).
# SEND=1 sends mail, so it counts only on make's command line: a SEND in the
# environment (a shell profile, a CI job) is passed on as 0, and as
# SEND_IGNORED, so that send.sh can say it was ignored.
ifneq ($(filter environment%,$(origin SEND)),)
export SEND_IGNORED := $(SEND)
endif
ifneq ($(origin SEND),command line)
override SEND := 0
endif
MBOX ?=
ACCEPT_UNTESTED ?=
SENDER ?= 0
export SEND MBOX ACCEPT_UNTESTED SENDER
.PHONY: send reroll trailers covers

send: deps ## make cross, then b4 prep and b4 send -o for $(SERIES): messages in $(WORKDIR)/outgoing/<name>-v<N>/, listed; SEND=1 sends them if the last make verified every cell of the series (or ACCEPT_UNTESTED names it)
	@bash $(S)/cross.sh heads || { echo "make send: a series head does not build on every architecture (make cross above); fix it first" >&2; exit 1; }
	@bash $(S)/send.sh

covers: ## write each $(SERIES)' cover letter's results block from the last make (series/<name>/cover-letter; make send SEND=1 asks for one of the branch's head)
	@bash $(S)/covers.sh

reroll: deps ## start v<N+1> of $(SERIES): bump series/<name>/version, range-diff against v<N> under "Changes in v<N+1>"
	@bash $(S)/reroll.sh

trailers: deps ## Reviewed/Acked/Tested-by from the replies in MBOX=<file> (without it, the thread of the last version sent, fetched from lore) onto $(SERIES) (b4 trailers -u), then export
	@bash $(S)/trailers.sh

# make test installs what the suite's own tests start (tests/icecc.bats):
# make deps sees WS_TEST_SUITE, which its prerequisite inherits.
test: export WS_TEST_SUITE := 1
test: deps ## the workspace's test suite: bats, shellcheck, then the real end-to-end make (E2E=0 skips it)
	@bash tests/run.sh

clean: ## remove build directories, boot logs, artifacts, the report and the check cache (keeps the tree, ccache and backups)
	@bash $(S)/clean.sh

distclean: ## remove $(WORKDIR) entirely (the kernel tree too: export your edits first)
	@bash $(S)/distclean.sh

help: ## this text
	@echo "Usage: make [target] [VARIABLE=value ...]"
	@echo
	@echo "Targets:"
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z0-9-]+):.*## /\1\t/' | awk -F'\t' '{ printf "  %-16s %s\n", $$1, $$2 }'
	@echo
	@echo "Variables:"
	@echo "  WORKDIR       all state: kernel tree, builds, ccache, report ($(WORKDIR))"
	@echo "  KVER          the default base's linux-source version ($(KVER)), branch linux-source; a series whose"
	@echo "                base file says linux-source-X.Y sits on that version, imported beside it"
	@echo "  LINUX_GIT     import: a Linux git repository, a path or a URL; a series whose base file says git:<ref>"
	@echo "                (git:v6.13, git:tty-next) sits on that ref, fetched as branch git/<ref> ($(or $(LINUX_GIT),none))"
	@echo "  SERIES        series to act on, comma-separated (default: all, bases first): $$(ls series | xargs)"
	@echo "  CHECKS        checks to run, comma-separated (default: all): $$(for d in checks/*/run; do basename $${d%/run}; done | xargs)"
	@echo "  CONFIG        kernel config for bisect-build and boot-test: smoke or debug ($(CONFIG))"
	@echo "  DEBUG         make: 1 also boots each head on the debug config, 0 does not ($(DEBUG));"
	@echo "                make boot-test DEBUG=1: boot only the heads, on the debug config"
	@echo "  BOOT_ARCH     the architecture bisect-build and boot-test build and boot: x86_64, arm64, i386 or mips64el"
	@echo "                ($(BOOT_ARCH)); make boot-<arch> sets it itself (stages build-<arch>, boot-<arch>)"
	@echo "  ARCH_BOOTS    make: the architectures whose kernels are built and booted at the base and the head of"
	@echo "                each series beside x86_64's every commit ($(ARCH_BOOTS)); empty: none"
	@echo "  ACCEL         auto (KVM if a probe boot works, else TCG), kvm or tcg ($(ACCEL))"
	@echo "  FRESH         boot-test: 1 boots every commit again, even one identical to an earlier passing boot ($(FRESH))"
	@echo "  JOB_MEMO      make: 1 takes a stage job's cells back from its last run when nothing it depends on has"
	@echo "                changed (scripts/jobmemo.py: code, plans, environment, tools), 0 runs every job ($(JOB_MEMO))"
	@echo "  BOOT_TIMEOUT  seconds before a boot counts as hung ($(BOOT_TIMEOUT))"
	@echo "  TEST_TIMEOUT  seconds for one guest test program ($(TEST_TIMEOUT))"
	@echo "  JOBS          make -j for kernel builds ($(or $(JOBS),nproc = $(shell nproc)); with ICECC=1, ICECC_JOBS)"
	@echo "  CHECK_JOBS    check: how many checks of one commit run at once ($(CHECK_JOBS))"
	@echo "  CHECKS_BESIDE make: 1 runs the checks in the background beside the builds and boots, 0 before each series' builds ($(CHECKS_BESIDE))"
	@echo "  BOOTS_BESIDE  make: 1 runs the boots in one background lane beside the next builds, 0 after each build step ($(BOOTS_BESIDE))"
	@echo "  COCCI_TIMEOUT check: seconds one spatch run may take before the cocci check fails (300)"
	@echo "  DOCS_JOBS     check: Sphinx jobs of the docs check (1: parallel reads blame warnings on the wrong page)"
	@echo "  UAPI_GENERIC_ARCH check: the asm-generic architecture the uapi check also compiles generic headers for (arm64)"
	@echo "  WS_LOCK_TIMEOUT seconds a second run waits for the workspace lock before giving up (3600)"
	@echo "  CCACHE_DEPEND 1: ccache in depend mode, a miss is one compile (default); 0: preprocessor mode"
	@echo "  ICECC         1: every compile goes through icecc (ccache's CCACHE_PREFIX=icecc) to the cluster of the"
	@echo "                iceccd running here; it must answer, or the run stops ($(ICECC)); README, \"Scaling out\""
	@echo "  ICECC_SCHEDULER ICECC=1: the icecc scheduler's host[:port], checked before a run; empty: the one iceccd found"
	@echo "  ICECC_JOBS    ICECC=1: make -j unless JOBS is given ($(or $(ICECC_JOBS),4 x nproc = $(shell expr 4 '*' $$(nproc))));"
	@echo "                about the number of cores of the cluster"
	@echo "  CCACHE_REMOTE ccache's remote storage shared by the machines, redis://HOST[:PORT] (a redis-server; empty: none)"
	@echo "  ARCH          bisect: the architecture, a name from scripts/arches (only there: the kernel builds get their own)"
	@echo "  TEST          bisect: a guest test's KTAP name (nsig, or a case); the commit is booted instead of built"
	@echo "  CROSS_MAX_OBJS cross-compile: objects compiled per commit and architecture, at most (16; a commit's own files always)"
	@echo "  CROSS_PAR     cross-compile: architectures of one commit compiled at once, each with one job (JOBS)"
	@echo "  FORCE         apply: 1 replaces a branch edited in the tree (kept as a backup ref)"
	@echo "  BENCH_BOOTS   bench: boots of base and of head each, for the pty throughput ($(BENCH_BOOTS))"
	@echo "  NAIVE         bench: 1 measures the naive way's full build again (it is measured once, into report/naive.tsv) ($(NAIVE))"
	@echo "  E2E           test: 0 skips the end-to-end run on the real kernel ($(E2E))"
	@echo "  BATS_TEST_TIMEOUT test: seconds after which one bats test fails as hung (600)"
	@echo "  SEND          send: 1 sends through SMTP (your git config's sendemail.*, or b4-config's); 0 only writes ($(SEND));"
	@echo "                only on the command line: SEND in the environment is ignored"
	@echo "  ACCEPT_UNTESTED send: cells of the last make that failed or verified nothing which SEND=1 sends anyway, by"
	@echo "                architecture, stage or stage@arch (sparc64,full-build@alpha); the cover letter lists them"
	@echo "  SENDER        send: 1 sends the series as yours: where the project's placeholder identity (an address that"
	@echo "                cannot receive mail) authored or signed a commit, your git user.name/user.email does; others'"
	@echo "                authorship and sign-offs stay; shown per commit; series/ keeps the placeholder ($(SENDER))"
	@echo "  COMMIT        shell, run: the commit's index in SERIES, 0 (its base) to its head (default: the head)"
	@echo "  CMD           run: the command the guest runs with /bin/busybox sh (its exit status is make run's)"
	@echo "  MBOX          trailers: the review replies, a thread saved from lore as an mbox (gzipped or not); empty:"
	@echo "                b4 mbox fetches the thread of the last version sent (SEND=1), or says the machine is offline"
	@echo "  MIN_FREE_GB   free disk a run needs before it starts (12)"
	@echo "  NO_DEPS       every target: 1 skips make deps (a machine without apt-get) ($(NO_DEPS))"
	@echo
	@echo "Less common (environment variables the scripts read):"
	@echo "  SERIES_DIR    the series directory (series/ of this checkout)"
	@echo "  TARBALL_DIR   where linux-source-<version>'s tarball is (/usr/src)"
	@echo "  CCACHE_DIR    ccache's cache (\$$WORKDIR/ccache); CCACHE_MAXSIZE its size (8G)"
	@echo "  QEMU          the QEMU binary of BOOT_ARCH (qemu-system-x86_64, -aarch64, -i386, -mips64el)"
	@echo "  KVM_PROBE_TIMEOUT seconds the KVM probe boot may take before TCG is used (8; made once per host boot)"
	@echo "  GUEST_CC, GUEST_CC32, GUEST_CCN32 the guest programs' compilers, native, 32-bit and MIPS n32 (BOOT_ARCH's;"
	@echo "                gcc and gcc -m32 on x86_64; gcc -m32 on i386)"
	@echo "  GUEST_SHELL   the guests' shell, copied in as /bin/busybox (/bin/busybox, Debian's busybox-static)"
	@echo "  B4_CONFIG     the git config b4 reads for send and trailers (b4-config)"
	@echo "  SCAN_TIMEOUT  cocci-inventory: seconds one spatch run may take (120)"
	@echo "  ARCHES_FILE   the architectures cross-compile and cross work on (scripts/arches); a file of some of its"
	@echo "                lines makes them work on those only (ARCHES_FILE=my-arches make cross)"
	@echo "  FIXUPS        the base fixups the cross builds apply (fixups/ of this checkout; fixups/README.md)"
	@echo
	@echo "Reports: $(WORKDIR)/report/{index.html,summary.md,results.tsv,results.json,results.junit.xml,bench.tsv,bench-runs.tsv,naive.tsv,bench-pty.tsv}"
