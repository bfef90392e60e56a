# SPDX-License-Identifier: GPL-2.0
#
# Build scripts/kconfig/conf of an upstream kconfig tree the way kbuild
# builds host programs (same flags, same flex and bison invocations).
# Run from the top of the tree:  make -f .../conf.mk [EXTRA_CFLAGS=...]

HOSTCC		?= gcc
LEX		?= flex
YACC		?= bison
EXTRA_CFLAGS	?=
EXTRA_LDFLAGS	?=

# KBUILD_USERHOSTCFLAGS of the top-level Makefile, plus HOST_LFS_CFLAGS
HOST_LFS_CFLAGS	:= $(shell getconf LFS_CFLAGS 2>/dev/null)
KBUILD_HOSTCFLAGS := -Wall -Wmissing-prototypes -Wstrict-prototypes -O2 \
		     -fomit-frame-pointer -std=gnu11 $(HOST_LFS_CFLAGS)

k		:= scripts/kconfig
# 6.1 keeps its list headers in scripts/kconfig, later bases in scripts/include
INCLUDES	:= $(if $(wildcard scripts/include),-I ./scripts/include)

# 5.10's parser.y includes menu.c, which is then no object of its own
menu.o		:= $(if $(shell grep -s '^\#include "menu.c"' $(k)/parser.y),,menu.o)
objs		:= $(addprefix $(k)/,conf.o confdata.o expr.o lexer.lex.o \
		   $(menu.o) parser.tab.o preprocess.o symbol.o util.o)

$(k)/conf: $(objs)
	$(HOSTCC) $(EXTRA_CFLAGS) $(EXTRA_LDFLAGS) -o $@ $(objs)

$(k)/%.o: $(k)/%.c
	$(HOSTCC) $(KBUILD_HOSTCFLAGS) $(EXTRA_CFLAGS) $(INCLUDES) \
		$(if $(filter %.lex.o %.tab.o,$@),-I $(k)) -c -o $@ $<

$(k)/lexer.lex.c: $(k)/lexer.l
	$(LEX) -o$@ -L $<

$(k)/parser.tab.c $(k)/parser.tab.h &: $(k)/parser.y
	$(YACC) -o $(k)/parser.tab.c --defines=$(k)/parser.tab.h -t -l $<

$(k)/lexer.lex.o: $(k)/parser.tab.h
# (the generated parser.tab.h is not among them: only the lexer includes it)
$(objs): $(filter-out $(k)/parser.tab.h,$(wildcard $(k)/*.h)) \
	 $(wildcard scripts/include/*.h)

.DELETE_ON_ERROR:
