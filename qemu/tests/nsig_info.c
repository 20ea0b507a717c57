// SPDX-License-Identifier: GPL-2.0
/*
 * nsig_info.c - SIGINFO: pending and taken by rt_sigtimedwait(),
 * SA_SIGINFO handlers, not queued like a realtime signal, ignored by
 * default; and, where it is the 65th signal (nsig), bit 65 in the signal
 * frame and in sa_mask.  Every frame keeps its 8-byte uc_sigmask where it
 * was and puts bit 65 where the frame ended, flagged by UC_SIGMASK_EXT in
 * uc_flags: after the siginfo on x86-64, after the retcode in the 32-bit
 * x86 frame, in uc_sigmask's room on arm64 (nsig.h, on_sig()).  A frame
 * without the flag (one user space built) restores SIGINFO unblocked.
 *
 * The first four cases hold for both designs, nsig's signal 65 and the
 * sigpwr series' SIGINFO as SIGPWR, and run for both; the frame cases
 * are about a signal past 64 and skip where SIGINFO is SIGPWR.
 *
 * What the nsig programs share, and how they treat headers and kernels
 * without the series: nsig.h.
 */
#include "nsig.h"

static int info_pending(void)
{
	int sig = KSIG_SIGINFO;
	struct ksig_set p, w;
	siginfo_t si;
	long r;

	block_sigs(&sig, 1);
	if (kill(getpid(), sig))
		return failf("kill(self, %d): %s", sig, strerror(errno));
	if (seen[sig])
		return failf("delivered although blocked");
	get_pending(&p);
	if (!ksig_has(&p, sig))
		return failf("not in rt_sigpending(16)");
	make_mask(&w, ksz, &sig, 1);
	memset(&si, 0, sizeof(si));
	guard();
	r = timedwait(w.b, &si, 2000, ksz);
	unguard();
	if (r != sig)
		return failf("rt_sigtimedwait returned %ld (%s)", r, r < 0 ? strerror(errno) : "");
	if (si.si_signo != sig || si.si_code != SI_USER || si.si_pid != getpid())
		return failf("siginfo signo %d code %d pid %d, want %d SI_USER %d",
			     si.si_signo, si.si_code, si.si_pid, sig, getpid());
	get_pending(&p);
	if (ksig_has(&p, sig))
		return failf("still pending after rt_sigtimedwait");
	return 0;
}

static int info_handler(void)
{
	int sig = KSIG_SIGINFO;
	struct ksig_set s;

	block_sigs(&sig, 1);
	if (queue_sig(sig, 0x51f0))
		return failf("rt_sigqueueinfo(self, %d): %s", sig, strerror(errno));
	if (seen[sig])
		return failf("delivered although blocked");
	make_mask(&s, ksz, &sig, 1);
	ksig_procmask(SIG_UNBLOCK, &s, NULL, ksz);
	if (seen[sig] != 1)
		return failf("handler ran %d times after unblocking", seen[sig]);
	if (seen_code[sig] != SI_QUEUE || seen_val[sig] != 0x51f0 ||
	    seen_pid[sig] != getpid())
		return failf("si_code %d si_value 0x%x si_pid %d, want SI_QUEUE 0x51f0 %d",
			     seen_code[sig], seen_val[sig], seen_pid[sig], getpid());
	/* and unblocked: straight to the handler */
	kill(getpid(), sig);
	if (seen[sig] != 2)
		return failf("unblocked kill() did not run the handler");
	return 0;
}

static int info_once(void)
{
	int sig = KSIG_SIGINFO;
	struct ksig_set s;

	block_sigs(&sig, 1);
	kill(getpid(), sig);
	queue_sig(sig, 1);
	kill(getpid(), sig);
	make_mask(&s, ksz, &sig, 1);
	ksig_procmask(SIG_UNBLOCK, &s, NULL, ksz);
	if (seen[sig] != 1)
		return failf("handler ran %d times, want 1", seen[sig]);
	return 0;
}


static int info_default_ignore(void)
{
	int ready[2], go[2], status = 0, sig = KSIG_SIGINFO;
	struct pollfd pfd;
	char c = 0;
	pid_t pid;

	if (pipe(ready) || pipe(go))
		return failf("pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return failf("fork: %s", strerror(errno));
	if (pid == 0) {
		struct ksig_set none;
		long long deadline = now_ms() + WAIT_MS;
		int intr = 0;

		alarm(0);
		set_disposition(sig, (unsigned long)SIG_DFL);
		ksig_empty(&none);
		set_blocked(&none);
		if (write(ready[1], "R", 1) != 1)
			_exit(2);
		pfd.fd = go[0];
		pfd.events = POLLIN;
		while (now_ms() < deadline) {
			int r = poll(&pfd, 1, 100);

			if (r < 0 && errno == EINTR)
				intr++;
			if (r == 1)
				_exit(intr ? 4 : 0);
		}
		_exit(3);
	}
	close(ready[1]);
	close(go[0]);
	pfd.fd = ready[0];
	pfd.events = POLLIN;
	if (poll(&pfd, 1, WAIT_MS) != 1 || read(ready[0], &c, 1) != 1) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return failf("child did not start");
	}
	if (kill(pid, sig) || kill(pid, sig)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return failf("kill(child, %d): %s", sig, strerror(errno));
	}
	usleep(100000);
	if (write(go[1], "G", 1) != 1)
		kill(pid, SIGKILL);
	close(go[1]);
	close(ready[0]);
	if (wait_child(pid, &status))
		return -1;
	if (WIFSIGNALED(status))
		return failf("child killed by signal %d", WTERMSIG(status));
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 3)
		return failf("child did not finish (status 0x%x)", status);
	if (WEXITSTATUS(status) == 4)
		return failf("the ignored SIGINFO interrupted the child's poll() (EINTR)");
	if (WEXITSTATUS(status))
		return failf("child exit status %d", WEXITSTATUS(status));
	return 0;
}

#if defined(__x86_64__)
#define MASK_PAST_64	"the mask word after the siginfo"
#elif defined(__i386__)
#define MASK_PAST_64	"the mask word after the retcode"
#else
#define MASK_PAST_64	"uc_sigmask bytes 8..15"
#endif

/*
 * The frame the kernel built says with UC_SIGMASK_EXT that it has the mask
 * past 64 (without it on_sig() neither sees nor edits bit 65); on x86-64
 * the siginfo is where it always was, right after the 8-byte uc_sigmask: a
 * frame whose uc_sigmask grew in place would move it.
 */
static int check_frame_flags(void)
{
#ifdef __x86_64__
	if (snap_si_off != 8)
		return failf("the siginfo is %ld bytes past uc_sigmask, want 8: the 64-bit frame's layout moved",
			     snap_si_off);
#endif
	if (!(snap_uc_flags & KSIG_UC_SIGMASK_EXT))
		return failf("uc_flags %#lx lack UC_SIGMASK_EXT (%#x): the frame has no mask past 64",
			     snap_uc_flags, KSIG_UC_SIGMASK_EXT);
	return 0;
}

static int info_frame(void)
{
	int sig = KSIG_SIGINFO;
	struct ksig_set cur;
	size_t i;

	/* SIGINFO blocked; the handler of SIGUSR1 finds it in its frame */
	block_sigs(&sig, 1);
	snap_sig = SIGUSR1;
	frame_del = sig;
	frame_add = SIGUSR2;
	kill(getpid(), SIGUSR1);
	snap_sig = 0;
	if (seen[SIGUSR1] != 1)
		return failf("SIGUSR1 handler ran %d times", seen[SIGUSR1]);
	if (check_frame_flags())
		return -1;
	if (!ksig_has(&snap_frame, sig))
		return failf("the frame's mask lacks bit 65 (" MASK_PAST_64 ": %02x %02x ...)",
			     snap_frame.b[8], snap_frame.b[9]);
	if (ksig_has(&snap_frame, SIGUSR1))
		return failf("uc_sigmask has SIGUSR1: not the mask from before the handler");
	for (i = 0; i < ksz; i++) {
		unsigned char want = i == (size_t)(sig - 1) / 8 ? 1u << ((sig - 1) % 8) : 0;

		if (snap_frame.b[i] != want)
			return failf("the frame's mask byte %zu is 0x%02x, want 0x%02x%s", i,
				     snap_frame.b[i], want, i >= 8 ? " (" MASK_PAST_64 ")" : "");
	}
	if (!ksig_has(&snap_blocked, sig) || !ksig_has(&snap_blocked, SIGUSR1))
		return failf("blocked inside the handler lacks SIGINFO or SIGUSR1");
	/* sigreturn took the edited frame: SIGINFO unblocked, SIGUSR2 blocked */
	get_blocked(&cur);
	if (ksig_has(&cur, sig))
		return failf("SIGINFO still blocked after sigreturn from a frame without it");
	if (!ksig_has(&cur, SIGUSR2))
		return failf("SIGUSR2 set in the frame but not blocked after sigreturn");
	return 0;
}

static int info_sa_mask(void)
{
	int sig = KSIG_SIGINFO;
	struct ksig_set mask, cur;

	/* sa_mask = { SIGINFO } for SIGUSR1, sigsetsize 16 */
	make_mask(&mask, ksz, &sig, 1);
	if (install(SIGUSR1, 0, &mask))
		return failf("rt_sigaction(SIGUSR1, sa_mask SIGINFO): %s", strerror(errno));
	snap_sig = SIGUSR1;
	kill(getpid(), SIGUSR1);
	if (seen[SIGUSR1] != 1)
		return failf("SIGUSR1 handler ran %d times", seen[SIGUSR1]);
	if (check_frame_flags())
		return -1;
	if (!ksig_has(&snap_blocked, sig))
		return failf("SIGINFO not blocked inside the handler (sa_mask)");
	if (ksig_has(&snap_frame, sig))
		return failf("the frame's mask has SIGINFO, which was not blocked before");
	get_blocked(&cur);
	if (ksig_has(&cur, sig))
		return failf("SIGINFO still blocked after the handler returned");
	/* now set bit 65 in the frame: sigreturn must block SIGINFO */
	frame_add = sig;
	kill(getpid(), SIGUSR1);
	snap_sig = 0;
	frame_add = 0;
	get_blocked(&cur);
	if (!ksig_has(&cur, sig))
		return failf("bit 65 set in the frame (" MASK_PAST_64 "), but SIGINFO not blocked after sigreturn");
	/* blocked for real: a kill() stays pending */
	kill(getpid(), sig);
	if (seen[sig])
		return failf("SIGINFO delivered although blocked by the frame");
	return 0;
}

/*
 * A frame without UC_SIGMASK_EXT, as user space builds one (CRIU's
 * restorer), has no mask past 64, and what is there is not one:
 * rt_sigreturn() must restore the signals past 64 unblocked, and the first
 * 64 from uc_sigmask as always.  SIGINFO is blocked and pending before the
 * handler, and its word after the siginfo still has it when the handler
 * clears the flag; sigreturn must unblock and so deliver it.  A low edit
 * (SIGRTMIN+2) shows uc_sigmask still counts.
 */
static int info_frame_no_ext(void)
{
	int sig = KSIG_SIGINFO, blk[] = { SIGUSR2, KSIG_SIGINFO };
	struct ksig_set cur;

	block_sigs(blk, 2);
	kill(getpid(), sig);
	if (seen[sig])
		return failf("SIGINFO delivered although blocked");
	snap_sig = SIGUSR1;
	frame_drop_ext = 1;
	frame_add = SIGRT2;
	kill(getpid(), SIGUSR1);
	snap_sig = 0;
	frame_drop_ext = 0;
	frame_add = 0;
	if (seen[SIGUSR1] != 1)
		return failf("SIGUSR1 handler ran %d times", seen[SIGUSR1]);
	if (check_frame_flags())
		return -1;
	if (!ksig_has(&snap_frame, sig))
		return failf("the frame's mask lacks bit 65 (" MASK_PAST_64 ": %02x): nothing for the cleared flag to hide",
			     snap_frame.b[8]);
	get_blocked(&cur);
	if (ksig_has(&cur, sig))
		return failf("SIGINFO still blocked after sigreturn from a frame without UC_SIGMASK_EXT");
	if (!ksig_has(&cur, SIGUSR2) || !ksig_has(&cur, SIGRT2) || ksig_has(&cur, SIGUSR1))
		return failf("the first 64 signals not restored from uc_sigmask: SIGUSR2 %s, SIGRTMIN+2 %s (added in the frame), SIGUSR1 %s",
			     ksig_has(&cur, SIGUSR2) ? "blocked" : "unblocked",
			     ksig_has(&cur, SIGRT2) ? "blocked" : "unblocked",
			     ksig_has(&cur, SIGUSR1) ? "blocked" : "unblocked");
	if (seen[sig] != 1)
		return failf("the pending SIGINFO ran its handler %d times after sigreturn unblocked it, want 1",
			     seen[sig]);
	return 0;
}

/* Why the frame cases skip in the 2019 design. */
#if KSIG_SIGINFO_IS_SIGPWR
#define PAST_64	"SIGINFO is SIGPWR here, not a signal past 64"
#else
#define PAST_64	NULL
#endif

static const struct nsig_case info_cases[] = {
	{ "SIGINFO: kill() of a blocked SIGINFO is pending and rt_sigtimedwait() takes it",
	  info_pending },
	{ "SIGINFO: SA_SIGINFO handler gets si_signo SIGINFO and the queued si_value",
	  info_handler },
	{ "SIGINFO: not a realtime signal, two sends while blocked deliver once",
	  info_once },
	{ "SIGINFO: default action is ignore, a child survives it",
	  info_default_ignore },
	{ "SIGINFO: bit 65 is in the frame (where it ended, with UC_SIGMASK_EXT) and restored from it",
	  info_frame, PAST_64 },
	{ "SIGINFO: sa_mask blocks it in the handler, a frame edit of bit 65 blocks it after",
	  info_sa_mask, PAST_64 },
	{ "SIGINFO: a frame without UC_SIGMASK_EXT restores it unblocked, the first 64 signals from uc_sigmask",
	  info_frame_no_ext, PAST_64 },
};

int main(void)
{
	return nsig_run(info_cases, ARRAY_SIZE(info_cases),
			have_info ? NULL : "SIGINFO not in this kernel's uapi headers");
}
