// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for tests/test_journal.py: it does to conf's
 * KCONFIG_JOURNAL what a race or a kill could do, at a chosen moment.
 * The test builds it with gcc.  $SHIM_JOURNAL is the journal's name,
 * as given to conf.
 *
 * SHIM_SWAP=<path>: right after conf has locked the journal with
 *	flock(), rename <path> (a symbolic link) over the journal's name,
 *	as someone racing conf could: conf must read the file it locked.
 *
 * SHIM_KILL_AT=<n> SHIM_KILL_BYTES=<k>: at the n-th fflush() of the
 *	journal that has something to write, write only the first
 *	k % (bytes pending) bytes of it, and raise SIGKILL: a kill in the
 *	middle of writing an answer.  Nothing else conf writes is touched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* Whether @fd is open on the file named $SHIM_JOURNAL */
static int is_journal(int fd)
{
	const char *want = getenv("SHIM_JOURNAL");
	char link[64], path[PATH_MAX];
	ssize_t n;

	if (!want || fd < 0)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return 0;
	path[n] = 0;
	return !strcmp(path, want);
}

int flock(int fd, int op)
{
	static int (*real)(int, int);
	static int swapped;
	const char *swap = getenv("SHIM_SWAP");
	const char *name = getenv("SHIM_JOURNAL");
	int ret;

	if (!real)
		real = (int (*)(int, int))dlsym(RTLD_NEXT, "flock");
	ret = real(fd, op);
	if (!ret && swap && name && !swapped && !(op & LOCK_UN)) {
		swapped = 1;
		if (rename(swap, name))
			abort();
	}
	return ret;
}

int fflush(FILE *f)
{
	static int (*real)(FILE *);
	static int nth;
	const char *at = getenv("SHIM_KILL_AT");

	if (!real)
		real = (int (*)(FILE *))dlsym(RTLD_NEXT, "fflush");
	if (f && at && is_journal(fileno(f))) {
		const char *p = f->_IO_write_base;
		size_t pending = f->_IO_write_ptr - f->_IO_write_base;
		size_t k;
		ssize_t w;

		if (pending && ++nth == atoi(at)) {
			k = strtoull(getenv("SHIM_KILL_BYTES") ?: "0", NULL, 10) %
			    pending;
			while (k) {
				w = write(fileno(f), p, k);
				if (w <= 0)
					abort();
				p += w;
				k -= w;
			}
			raise(SIGKILL);
		}
	}
	return real(f);
}
