// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the KCONFIG_JOURNAL reader of the patched conf.c,
 * which is included so that its static functions can be reached.  Each
 * input is read as a journal, with the symbols of the Kconfig tree in
 * $FUZZ_KCONFIG (under $srctree), written back, and freed.
 */
#include <stdint.h>

#define main conf_main
#include "conf.c"
#undef main

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char in_path[] = "/tmp/kconfig-journal-fuzz-XXXXXX";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = mkstemp(in_path);

	if (fd < 0)
		exit(1);
	close(fd);
	conf_parse(getenv("FUZZ_KCONFIG"));
	journal = in_path;
	journal_new = xmalloc(strlen(in_path) + sizeof(".new"));
	sprintf(journal_new, "%s.new", in_path);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(in_path, "w");
	size_t i;

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		exit(1);
	journal_bad = 10;		/* no warnings: they would flood */
	journal_read();
	journal_write();
	for (i = 0; i < nr_entries; i++) {
		free(entries[i].text);
		free(entries[i].value);
	}
	nr_entries = 0;
	entries_seen = 0;
	return 0;
}
