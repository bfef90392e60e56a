// SPDX-License-Identifier: GPL-2.0
/*
 * Preloaded by the benchmark: at exit, write the process's peak resident
 * set size (VmHWM, kB) to $KCONFIG_BACK_HWM.  Children started by conf's
 * $(shell ...) do not inherit it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char out[4096];

__attribute__((constructor)) static void hwm_init(void)
{
	const char *f = getenv("KCONFIG_BACK_HWM");

	if (f)
		snprintf(out, sizeof(out), "%s", f);
	unsetenv("LD_PRELOAD");
	unsetenv("KCONFIG_BACK_HWM");
}

__attribute__((destructor)) static void hwm_exit(void)
{
	char line[256];
	FILE *in, *o;

	if (!out[0] || !(in = fopen("/proc/self/status", "r")))
		return;
	while (fgets(line, sizeof(line), in))
		if (!strncmp(line, "VmHWM:", 6) && (o = fopen(out, "w"))) {
			fprintf(o, "%ld\n", strtol(line + 6, NULL, 10));
			fclose(o);
		}
	fclose(in);
}
