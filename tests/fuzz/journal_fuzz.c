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
 * journal (conf_journal_write()); the answers not taken are named
 * (conf_journal_left()), and the journal is cut back and closed.  The
 * configuration is read again before the next input, as '<' reads it.
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

/* Apply the line journal_gets() gave to the question of @menu, as conf does */
static void take(struct menu *menu)
{
	struct symbol *sym = menu->sym;
	struct menu *child;
	int n;

	if (!journal_gets(sym))
		return;
	if (sym_is_choice(sym)) {
		/* the number of the member, among the visible ones */
		n = atoi(line);
		for (child = menu->list; child; child = child->next)
			if (child->sym && menu_is_visible(child) && !--n)
				break;
		if (!child)
			return;
		choice_set_value(menu, child->sym);
	} else {
		line[strcspn(line, "\n")] = 0;
		sym_set_string_value(sym, line);
	}
	conf_journal_write(menu);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(in_path, "w");
	struct gstr names = str_new();
	struct symbol *sym;
	struct menu *menu;

	if (!f || fwrite(data, 1, size, f) != size ||
	    (size && data[size - 1] != '\n' && fputc('\n', f) == EOF) ||
	    fclose(f))
		exit(1);
	/* start from the configuration, as '<' does, with no answer read */
	for_all_symbols(sym)
		sym->flags &= ~SYMBOL_DEF3;
	conf_read_simple("/dev/null", S_DEF_USER);
	conf_read(NULL);
	journal_name = in_path;
	input_mode = oldaskconfig;
	if (conf_journal_open(journal_name))
		exit(1);
	nr_pending = conf_journal_read();
	menu_for_each_entry(menu) {
		if (!menu->sym || !menu->prompt || !menu_is_visible(menu) ||
		    sym_is_choice_value(menu->sym))
			continue;
		if (!sym_is_choice(menu->sym))
			journal_check(menu->sym);
		take(menu);
	}
	conf_journal_left(&names);
	str_free(&names);
	conf_journal_cut(0);
	conf_journal_close();
	return 0;
}
