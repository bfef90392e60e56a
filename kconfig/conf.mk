# SPDX-License-Identifier: GPL-2.0
#
# Build the kconfig 'conf' of an upstream tree the way that project builds
# it (its flags, its flex and bison invocations or its shipped parser).
# Run from the top of the tree:
#   make -f .../conf.mk [KIND=linux] [K=scripts/kconfig] [EXTRA_CFLAGS=...]
# KIND is the project (scripts/lib.sh: tree_kind), K its kconfig folder.

HOSTCC		?= gcc
LEX		?= flex
YACC		?= bison
EXTRA_CFLAGS	?=
EXTRA_LDFLAGS	?=
KIND		?= linux
k		:= $(or $(K),scripts/kconfig)
.DEFAULT_GOAL	:= $(k)/conf

HOST_LFS_CFLAGS	:= $(shell getconf LFS_CFLAGS 2>/dev/null)
ifeq ($(KIND),buildroot)
# support/kconfig/Makefile.br: HOST_EXTRACFLAGS (-I$(obj) -DCONFIG_=""
# and what check.sh says) and HOSTCFLAGS, which the top Makefile leaves
# empty; the parser and lexer are the shipped ones
HOSTCFLAGS	:= -I $(k) -DCONFIG_=\"\" $(shell sh $(k)/check.sh $(HOSTCC))
SHIPPED		:= 1
else ifeq ($(KIND),coreboot)
# util/kconfig/Makefile.mk: $(HOSTCC) -I $(srck) -I $(objk) -c, and the
# shipped parser and lexer (unless CONFIG_UTIL_GENPARSER=y)
HOSTCFLAGS	:= -I $(k)
SHIPPED		:= 1
else ifeq ($(KIND),crosstool-ng)
# kconfig/Makefile.am: AM_CPPFLAGS -DCONFIG_=\"CT_\" (and -include its
# configure's config.h, of which the kconfig sources use nothing), with
# autoconf's default CFLAGS; flex -L, bison -t -l
HOSTCFLAGS	:= -g -O2 -DCONFIG_=\"CT_\"
else ifeq ($(KIND),u-boot)
# U-Boot's top Makefile: KBUILD_HOSTCFLAGS and CSTD_FLAG
HOSTCFLAGS	:= -Wall -Wstrict-prototypes -O2 -fomit-frame-pointer \
		   $(HOST_LFS_CFLAGS) -std=gnu11
else
# Linux: KBUILD_USERHOSTCFLAGS of the top-level Makefile, plus HOST_LFS_CFLAGS
HOSTCFLAGS	:= -Wall -Wmissing-prototypes -Wstrict-prototypes -O2 \
		   -fomit-frame-pointer -std=gnu11 $(HOST_LFS_CFLAGS)
endif

# 6.1 keeps its list headers in scripts/kconfig, later Linux in scripts/include
INCLUDES	:= $(if $(wildcard scripts/include),-I ./scripts/include)

ifneq ($(wildcard $(k)/zconf.y),)
# up to Linux 4.20 (U-Boot, Buildroot): zconf.tab.c includes the lexer and
# every other source but conf.c
objs		:= $(k)/conf.o $(k)/zconf.tab.o
lexer		:= $(k)/zconf.lex.c
$(k)/zconf.tab.o: $(k)/zconf.lex.c $(wildcard $(k)/*.c)
else
# parser.y includes menu.c up to 5.10 (then no object of its own);
# preprocess.c came in 4.18
menu.o		:= $(if $(shell grep -s '^\#include "menu.c"' $(k)/parser.y),,menu.o)
objs		:= $(addprefix $(k)/,conf.o confdata.o expr.o lexer.lex.o \
		   $(menu.o) parser.tab.o \
		   $(if $(wildcard $(k)/preprocess.c),preprocess.o) symbol.o util.o)
lexer		:= $(k)/lexer.lex.c
$(k)/lexer.lex.o: $(k)/parser.tab.h
endif

$(k)/conf: $(objs)
	$(HOSTCC) $(EXTRA_CFLAGS) $(EXTRA_LDFLAGS) -o $@ $(objs)

$(k)/%.o: $(k)/%.c
	$(HOSTCC) $(HOSTCFLAGS) $(EXTRA_CFLAGS) $(INCLUDES) \
		$(if $(filter %.lex.o %.tab.o,$@),-I $(k)) -c -o $@ $<

ifeq ($(SHIPPED),1)
$(k)/%: $(k)/%_shipped
	cp $< $@
$(k)/parser.tab.c: | $(k)/parser.tab.h
else
$(k)/zconf.lex.c: $(k)/zconf.l
	$(LEX) -o$@ -L $<

$(k)/zconf.tab.c: $(k)/zconf.y
	$(YACC) -o$@ -t -l $<

$(k)/lexer.lex.c: $(k)/lexer.l
	$(LEX) -o$@ -L $<

$(k)/parser.tab.c $(k)/parser.tab.h &: $(k)/parser.y
	$(YACC) -o $(k)/parser.tab.c --defines=$(k)/parser.tab.h -t -l $<
endif

# (the generated parser.tab.h is not among them: only the lexer includes it)
$(objs): $(filter-out $(k)/parser.tab.h,$(wildcard $(k)/*.h)) \
	 $(wildcard scripts/include/*.h)

.DELETE_ON_ERROR:
