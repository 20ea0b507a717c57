// SPDX-License-Identifier: GPL-2.0
/*
 * not-built.c - the stand-in for a guest program that this architecture's
 * boot does not build (scripts/boot.sh, not_built): a 32-bit program where
 * there is no 32-bit user space, a selftest for another architecture.  It
 * prints one KTAP document that skips as a whole, with the reason given at
 * compile time (-DWS_NOT_BUILT="..."), and exits with KSFT_SKIP, so that
 * the absence is a skip in the boot's KTAP, which qemu/expected-skips must
 * allow, and not a test that silently is not there.
 */
#include <stdio.h>

#ifndef WS_NOT_BUILT
#error "compile with -DWS_NOT_BUILT=\"reason\""
#endif

int main(void)
{
	printf("TAP version 13\n1..0 # SKIP %s\n", WS_NOT_BUILT);
	return 4;	/* KSFT_SKIP */
}
