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
 * SHIM_KILL_AT=<n> SHIM_KILL_BYTES=<k>: when conf puts the n-th answer
 *	on disk (the n-th fdatasync() of the journal after it grew), cut
 *	the file to the first k % (bytes of that answer) bytes of the
 *	answer, and raise SIGKILL: a kill in the middle of writing it.
 *	glibc's stdio writes with a write() of its own, which a shim does
 *	not see: the answer is cut here instead, where it is whole.
 *	Nothing else is touched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* the journal's size when it was locked, then after each answer */
static off_t last_size = -1;

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

static off_t size_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : st.st_size;
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
	if (!ret && !(op & LOCK_UN) && is_journal(fd))
		last_size = size_of(fd);
	if (!ret && swap && name && !swapped && !(op & LOCK_UN)) {
		swapped = 1;
		if (rename(swap, name))
			abort();
	}
	return ret;
}

int fdatasync(int fd)
{
	static int (*real)(int);
	static int nth;
	const char *at = getenv("SHIM_KILL_AT");
	off_t size;

	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
	if (at && last_size >= 0 && is_journal(fd)) {
		size = size_of(fd);
		/* an answer written, not a cut */
		if (size > last_size && ++nth == atoi(at)) {
			if (ftruncate(fd, last_size +
				      strtoull(getenv("SHIM_KILL_BYTES") ?: "0",
					       NULL, 10) % (size - last_size)))
				abort();
			raise(SIGKILL);
		}
		last_size = size;
	}
	return real(fd);
}
