// SPDX-License-Identifier: GPL-2.0
/*
 * posix_masks.m32.c - posix_masks.c built as a 32-bit program (<name>_32:
 * i386 or arm on a 64-bit kernel's compat layer, MIPS o32; <name>_n32: MIPS
 * n32): the same POSIX and ABI promises about the blocked mask, through
 * the compat system calls, with the legacy one-word calls (sigprocmask,
 * sigsuspend) those ABIs have.  On a 32-bit kernel (i386, WS_NATIVE_32BIT)
 * it is the native program again.
 */
#include "posix_masks.c"
