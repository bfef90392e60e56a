// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for KCONFIG_JOURNAL in the patched conf.c, which is
 * included so that its static functions can be reached.  Each input is
 * written to a file, with a newline added if its last line has none (conf
 * refuses such a journal before reading it), and that file is opened as
 * the journal is, by journal_open(): created, locked, checked and read by
 * conf_read_file() into the S_DEF_DEF3 values, with the symbols of the
 * Kconfig tree in $FUZZ_KCONFIG (under $srctree).  Then every visible
 * question of the tree takes its answer with journal_take(), which is
 * applied as conf applies a line typed, after a mark of symbol.c's undo
 * log (sym_undo_mark()); the answers are undone (sym_undo()) and the
 * journal closed before the next input.  What differs between the bases'
 * series, from the compiler's -D flags (scripts/fuzz-journal):
 * CONF_OLD_CHOICES, 6.1's choices have a value (y, m or n) of their own,
 * asked before the member.
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
	/* the answers taken are printed as if typed: not looked at here */
	if (!freopen("/dev/null", "w", stdout))
		exit(1);
	return 0;
}

#ifdef CONF_OLD_CHOICES
/*
 * 6.1: a choice has a question for its value (y, m or n) and one for its
 * member, each answered from the journal; and there is no
 * menu_for_each_entry()
 */
#define take_answer(menu, member)	journal_take(menu, member)
#define set_member(menu, sym)		sym_set_tristate_value(sym, yes)

static struct menu *next_menu(struct menu *m)
{
	if (m->list)
		return m->list;
	while (m && !m->next)
		m = m->parent;
	return m ? m->next : NULL;
}
#define for_each_menu(menu) \
	for (menu = rootmenu.list; menu; menu = next_menu(menu))
#else
#define take_answer(menu, member)	journal_take(menu)
#define set_member(menu, sym)		choice_set_value(menu, sym)
#define for_each_menu(menu)		menu_for_each_entry(menu)
#endif

static int marks;	/* of symbol.c's undo log, one per answer taken */

/*
 * Take the journal's answer to @menu (its member if @member) and apply
 * it as conf applies a line typed
 */
static void take(struct menu *menu, bool member)
{
	struct symbol *sym = menu->sym;
	struct menu *child;
	size_t len;
	int n;

	if (!take_answer(menu, member))
		return;
	sym_undo_mark();
	marks++;
	if (member) {
		/* the number of the member, among the visible ones */
		n = atoi(line);
		for (child = menu->list; child; child = child->next)
			if (child->sym && menu_is_visible(child) && !--n)
				break;
		if (!child)
			return;
		set_member(menu, child->sym);
	} else {
		len = strlen(line);
		if (len && line[len - 1] == '\n')
			line[len - 1] = 0;
		sym_set_string_value(sym, line);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(in_path, "w");
	struct menu *menu;

	if (!f || fwrite(data, 1, size, f) != size ||
	    (size && data[size - 1] != '\n' && fputc('\n', f) == EOF) ||
	    fclose(f))
		exit(1);
	journal_name = in_path;
	journal_open();
	if (!journal)
		exit(1);
	for_each_menu(menu)
		if (menu->sym && menu->prompt && menu_is_visible(menu) &&
		    !sym_is_choice_value(menu->sym)) {
#ifdef CONF_OLD_CHOICES
			/* 6.1: the value of a choice, then its member */
			if (sym_is_choice(menu->sym))
				take(menu, false);
#endif
			take(menu, sym_is_choice(menu->sym));
		}
	journal_answers(NULL);
	for (; marks; marks--)
		sym_undo();
	/* unlocked and closed, for the next input to open it again */
	flock(fileno(journal), LOCK_UN);
	fclose(journal);
	journal = NULL;
	return 0;
}
