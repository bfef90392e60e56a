// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for reading KCONFIG_JOURNAL in the patched conf.c, which
 * is included so that its static functions can be reached.  Each input is
 * read as the journal is, by conf_read_simple() into the S_DEF_DEF3 values,
 * with the symbols of the Kconfig tree in $FUZZ_KCONFIG (under $srctree);
 * then every question of the tree takes its answer from it, as in a
 * session, and the answers are undone.
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
	conf_read(NULL);
	/*
	 * As conf_walk() does; and never NULL: the '<' series computes
	 * back.trans + 0, which UBSan reports when no symbol has a
	 * transitional default (its own issue, not the journal's)
	 */
	trans_find();
	back.trans = grow(back.trans, 0, &back.trans_size, sizeof(*back.trans));
	journal.name = in_path;
	/* nothing is written: the answers taken are not appended */
	journal.file = fopen("/dev/null", "a");
	if (!journal.file || !freopen("/dev/null", "w", stdout))
		exit(1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(in_path, "w");
	struct menu *menu;

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		exit(1);
	if (conf_read_simple(in_path, S_DEF_DEF3))
		exit(1);
	menu_for_each_entry(menu)
		if (menu->sym && menu->prompt && menu_is_visible(menu) &&
		    !sym_is_choice_value(menu->sym))
			journal_take(menu);
	undo_to(0);
	back.nr_answers = 0;
	while (back.nr_kept)
		free(back.kept[--back.nr_kept]);
	return 0;
}
