/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksig_case.h - what the nsig guest tests (nsig_*.c, nsig_compat.m32.c) share
 * to run a case: the failure reason, the alarm() guard, sending and
 * queueing a signal to oneself, a set from a list of signals, and the
 * sigsetsizes every call must refuse.  Include it after ksig.h, libc's
 * headers and kselftest.h.
 */
#ifndef WS_KSIG_CASE_H
#define WS_KSIG_CASE_H

#define GUARD_SECS	5

static const size_t bad_sizes[] = { 0, 7, 12, 129 };
#define NR_BAD_SIZES	ARRAY_SIZE(bad_sizes)

/* Why the case that returned -1 failed. */
static char why[1024];
static volatile sig_atomic_t alarm_fired;

static inline int failf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return -1;
}

static inline void on_alarm(int sig)
{
	(void)sig;
	alarm_fired = 1;
}

static inline void guard(void)
{
	alarm_fired = 0;
	alarm(GUARD_SECS);
}

static inline void unguard(void)
{
	alarm(0);
}

static inline void send_sig(int sig)
{
	kill(getpid(), sig);
}

/* Queue sig to ourselves with a value (rt_sigqueueinfo, SI_QUEUE). */
static inline int queue_sig(int sig, int val)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	si.si_uid = getuid();
	si.si_value.sival_int = val;
	return ksig_queueinfo(getpid(), sig, &si);
}

static inline void want_sigs(struct ksig_set *s, const int *sigs, int n)
{
	int i;

	ksig_empty(s);
	for (i = 0; i < n; i++)
		if (sigs[i])
			ksig_add(s, sigs[i]);
}

#endif /* WS_KSIG_CASE_H */
