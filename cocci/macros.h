/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Extra macro hints for running the cocci/ scripts on a kernel tree:
 *
 *	spatch --macro-file cocci/macros.h --no-includes --include-headers ...
 *
 * Coccinelle's own standard.h knows SYSCALL_DEFINE1..6 but not
 * SYSCALL_DEFINE0 or COMPAT_SYSCALL_DEFINE0..6, so without these hints
 * the bodies of the compat rt_sig*() system calls in kernel/signal.c are
 * not parsed and nothing in them is reported.  The test files in
 * cocci/tests/ do not need this file.
 */
#define SYSCALL_DEFINE0(func) \
	asmlinkage long func(void)
#define COMPAT_SYSCALL_DEFINE0(func) \
	asmlinkage long func(void)
#define COMPAT_SYSCALL_DEFINE1(func, t1, a1) \
	asmlinkage long func(t1 a1)
#define COMPAT_SYSCALL_DEFINE2(func, t1, a1, t2, a2) \
	asmlinkage long func(t1 a1, t2 a2)
#define COMPAT_SYSCALL_DEFINE3(func, t1, a1, t2, a2, t3, a3) \
	asmlinkage long func(t1 a1, t2 a2, t3 a3)
#define COMPAT_SYSCALL_DEFINE4(func, t1, a1, t2, a2, t3, a3, t4, a4) \
	asmlinkage long func(t1 a1, t2 a2, t3 a3, t4 a4)
#define COMPAT_SYSCALL_DEFINE5(func, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5) \
	asmlinkage long func(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5)
#define COMPAT_SYSCALL_DEFINE6(func, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6) \
	asmlinkage long func(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6)
/* include/linux/sched/signal.h: the ia64 extra arguments of force_sig_fault() */
#define ___ARCH_SI_IA64(_a1, _a2, _a3)
