// SPDX-License-Identifier: GPL-2.0
/*
 * nsig_info.c - SIGINFO, the 65th signal: pending and taken by
 * rt_sigtimedwait(), SA_SIGINFO handlers, not queued like a realtime
 * signal, ignored by default, bit 65 in the frame's uc_sigmask and in
 * sa_mask.
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
	if (!ksig_has(&snap_frame, sig))
		return failf("uc_sigmask lacks bit 65 (bytes 8..15: %02x %02x ...)",
			     snap_frame.b[8], snap_frame.b[9]);
	if (ksig_has(&snap_frame, SIGUSR1))
		return failf("uc_sigmask has SIGUSR1: not the mask from before the handler");
	for (i = 0; i < ksz; i++) {
		unsigned char want = i == (size_t)(sig - 1) / 8 ? 1u << ((sig - 1) % 8) : 0;

		if (snap_frame.b[i] != want)
			return failf("uc_sigmask byte %zu is 0x%02x, want 0x%02x", i,
				     snap_frame.b[i], want);
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
	if (!ksig_has(&snap_blocked, sig))
		return failf("SIGINFO not blocked inside the handler (sa_mask)");
	if (ksig_has(&snap_frame, sig))
		return failf("uc_sigmask has SIGINFO, which was not blocked before");
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
		return failf("bit 65 set in uc_sigmask, but SIGINFO not blocked after sigreturn");
	/* blocked for real: a kill() stays pending */
	kill(getpid(), sig);
	if (seen[sig])
		return failf("SIGINFO delivered although blocked by the frame");
	return 0;
}

static const struct nsig_case info_cases[] = {
	{ "SIGINFO: kill() of a blocked SIGINFO is pending and rt_sigtimedwait() takes it",
	  info_pending },
	{ "SIGINFO: SA_SIGINFO handler gets si_signo 65 and the queued si_value",
	  info_handler },
	{ "SIGINFO: not a realtime signal, two sends while blocked deliver once",
	  info_once },
	{ "SIGINFO: default action is ignore, a child survives it",
	  info_default_ignore },
	{ "SIGINFO: bit 65 is in the frame's uc_sigmask and restored from it",
	  info_frame },
	{ "SIGINFO: sa_mask blocks it in the handler, a frame edit blocks it after",
	  info_sa_mask },
};

int main(void)
{
	return nsig_run(info_cases, ARRAY_SIZE(info_cases),
			have_info ? NULL : "SIGINFO not in this kernel's uapi headers");
}
