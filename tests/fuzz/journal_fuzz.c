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
#ifdef CONF_HAS_TRANS
	trans_find();		/* as conf_walk() does */
#endif
#ifdef CONF_OLD_CHOICES
	choices_find();		/* 6.1: as conf_walk() does */
#endif
	journal.name = in_path;
	/* nothing is written: the answers taken are not appended */
	journal.file = fopen("/dev/null", "a");
	if (!journal.file || !freopen("/dev/null", "w", stdout))
		exit(1);
	return 0;
}

#ifdef CONF_OLD_CHOICES
static struct menu *next_menu(struct menu *m)
{
	if (m->list)
		return m->list;
	while (m && !m->next)
		m = m->parent;
	return m ? m->next : NULL;
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(in_path, "w");
	struct menu *menu;

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		exit(1);
	if (conf_read_simple(in_path, S_DEF_DEF3))
		exit(1);
#ifdef CONF_OLD_CHOICES
	/* 6.1: no menu_for_each_entry(); a choice has its value question */
	for (menu = rootmenu.list; menu; menu = next_menu(menu))
		if (menu->sym && menu->prompt && menu_is_visible(menu) &&
		    !sym_is_choice_value(menu->sym)) {
			journal_take(menu, false);
			if (sym_is_choice(menu->sym))
				journal_take(menu, true);
		}
#else
	menu_for_each_entry(menu)
		if (menu->sym && menu->prompt && menu_is_visible(menu) &&
		    !sym_is_choice_value(menu->sym))
			journal_take(menu);
#endif
	undo_to(0);
	back.nr_answers = 0;
#ifdef CONF_HAS_TRANS
	while (back.nr_kept)
		free(back.kept[--back.nr_kept]);
#endif
#ifdef CONF_HAS_VIS
	vis_undo_to(0);
	sym_clear_all_valid();
#endif
	return 0;
}
