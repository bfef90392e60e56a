// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for KCONFIG_JOURNAL in the patched conf.c, which is
 * included so that its static functions can be reached.  Each input is
 * written to a file, with a newline added if its last line has none (conf
 * refuses such a journal before reading it), and that file is the journal:
 * confdata.c opens it, locks it and checks it (conf_journal_open()), and
 * reads it with the .config reader into the S_DEF_DEF3 values
 * (conf_journal_read()), with the symbols of the Kconfig tree in
 * $FUZZ_KCONFIG (under $srctree).  Then every visible question of the
 * tree, as oldaskconfig asks them, is checked (journal_check(), which
 * refuses an answer out of range) and takes its answer (journal_gets()),
 * which is applied as conf applies a line typed and written back to the
 * journal (conf_journal_write()); the first answer taken is taken back
 * (conf_journal_take_back()) and the journal read again, the answers not
 * taken are named (conf_journal_left()), and the journal is cut back and
 * closed.  The configuration is read again before the next input.
 * What differs between the bases' series, from the compiler's -D flags
 * (scripts/fuzz-journal): CONF_OLD_CHOICES, 6.1's and 5.10's choices have
 * a value (y, m or n) of their own, asked before the member, and the
 * members of a choice set to m are asked as tristates.
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
	/* the answers taken are printed as if typed: not looked at here */
	if (!freopen("/dev/null", "w", stdout))
		exit(1);
	return 0;
}

#ifdef CONF_OLD_CHOICES
/*
 * 6.1 and 5.10: the member of a choice is its own question (journal_gets()
 * is told the choice's menu), set with sym_set_tristate_value(); there is
 * no menu_for_each_entry(), and for_all_symbols() takes an index
 */
static int fuzz_i;

#define gets_answer(menu, member) \
	journal_gets((menu)->sym, (member) ? (menu) : NULL)
#define set_member(menu, sym)		sym_set_tristate_value(sym, yes)
#define for_each_symbol(sym)		for_all_symbols(fuzz_i, sym)

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

/* The member of a choice set to m is asked as a tristate */
static bool asked_alone(struct symbol *sym)
{
	struct symbol *cs = prop_get_symbol(sym_get_choice_prop(sym));

	sym_calc_value(cs);
	return sym_get_tristate_value(cs) == mod;
}
#else
#define gets_answer(menu, member)	journal_gets(menu)
#define set_member(menu, sym)		choice_set_value(menu, sym)
#define for_each_symbol(sym)		for_all_symbols(sym)
#define for_each_menu(menu)		menu_for_each_entry(menu)
#define asked_alone(sym)		false
#endif

/*
 * Apply the line journal_gets() gave to the question of @menu (to its
 * member if @member), as conf does: whether there was one
 */
static bool take(struct menu *menu, bool member)
{
	struct symbol *sym = menu->sym;
	struct menu *child;
	int n;

	if (!gets_answer(menu, member))
		return false;
	if (member) {
		/* the number of the member, among the visible ones */
		n = atoi(line);
		for (child = menu->list; child; child = child->next)
			if (child->sym && menu_is_visible(child) && !--n)
				break;
		if (!child)
			return true;
		set_member(menu, child->sym);
	} else {
		line[strcspn(line, "\n")] = 0;
		sym_set_string_value(sym, line);
	}
	return true;
}

/* The question of the choice of @menu, as conf_choice() asks it */
static void take_choice(struct menu *menu)
{
	struct symbol *sym = menu->sym;

#ifdef CONF_OLD_CHOICES
	/* its value first, if it can be changed: the member only for y */
	if (sym_is_changeable(sym) && take(menu, false)) {
		sym_calc_value(sym);
		if (sym_get_tristate_value(sym) == mod)
			return;
		if (sym_get_tristate_value(sym) == no) {
			conf_journal_write(menu);
			return;
		}
	}
#endif
	if (take(menu, true))
		conf_journal_write(menu);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(in_path, "w");
	struct gstr names = str_new();
	struct symbol *sym;
	struct menu *menu, *first = NULL;

	if (!f || fwrite(data, 1, size, f) != size ||
	    (size && data[size - 1] != '\n' && fputc('\n', f) == EOF) ||
	    fclose(f))
		exit(1);
	/* start from the configuration, as '<' does, with no answer read */
	for_each_symbol(sym)
		sym->flags &= ~SYMBOL_DEF3;
	conf_read_simple("/dev/null", S_DEF_USER);
	conf_read(NULL);
	journal_name = in_path;
	input_mode = oldaskconfig;
	if (conf_journal_open(journal_name))
		exit(1);
	nr_pending = conf_journal_read();
	for_each_menu(menu) {
		if (!menu->sym || !menu->prompt || !menu_is_visible(menu) ||
		    (sym_is_choice_value(menu->sym) && !asked_alone(menu->sym)))
			continue;
		if (sym_is_choice(menu->sym)) {
			take_choice(menu);
			continue;
		}
		journal_check(menu->sym);
		if (take(menu, false)) {
			conf_journal_write(menu);
			first = first ?: menu;
		}
	}
	if (first) {
		conf_journal_take_back(first);
		nr_pending = conf_journal_read();
	}
	conf_journal_left(&names, 3);
	str_free(&names);
	conf_journal_cut(0);
	conf_journal_close();
	return 0;
}
