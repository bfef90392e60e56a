# SPDX-License-Identifier: GPL-2.0
"""The series as a maintainer checks it (scripts/check-series: checkpatch
--strict clean, git am, every patch builds with -Werror and passes the
kconfig tests and the differential test), and it is generated: the work
tree regenerates patches/ byte for byte."""

import filecmp
import os
import re
import shutil
import subprocess

import pytest

import conflib
from test_build import made_on


def test_check_series(series):
    r = subprocess.run([os.path.join(conflib.TOP, 'scripts', 'check-series'),
                        *series.source_args, '--seeds', '3'],
                       capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    # checkpatch, where the tree has one (Buildroot and crosstool-ng do not)
    checkpatch = any('checkpatch.pl' in files
                     for _, _, files in os.walk(series.pristine))
    assert r.stdout.count(': clean\n') == \
        (len(series.patches) if checkpatch else 0)
    assert ('has no checkpatch: 1 is skipped' in r.stderr) != checkpatch
    assert 'ready' in r.stdout


def test_regenerated_series_is_identical(series, tmp_path):
    """A work tree made from patches/ gives back the same files, whoever
    regenerates them, and on any verified base of the series (7.3.4 and
    7.3.0-rc7 have the same kconfig sources; a series made from Debian's
    tarball names no base-commit:)."""
    if not made_on(series):
        pytest.skip('patches/%s is made on another release of the line'
                    % series.series)
    env = dict(os.environ, BUILD_ROOT=str(tmp_path / 'build'),
               GIT_AUTHOR_NAME='Somebody Else', GIT_AUTHOR_EMAIL='else@example.org',
               GIT_COMMITTER_NAME='Somebody Else',
               GIT_COMMITTER_EMAIL='else@example.org')
    src = series.source_args
    top = tmp_path / 'top'
    shutil.copytree(conflib.TOP, top, ignore=lambda d, names: [
        n for n in names if n in ('.git', '__pycache__') or
        (d == conflib.TOP and n == 'build')])
    # the packages scripts/install-deps downloaded (7.3's linux-source)
    os.makedirs(tmp_path / 'build')
    debian = os.path.join(conflib.BUILD, 'debian')
    if os.path.isdir(debian):
        os.symlink(debian, tmp_path / 'build' / 'debian')
    for script in ('worktree', 'regen-series'):
        r = subprocess.run([str(top / 'scripts' / script), *src],
                           capture_output=True, text=True, env=env)
        assert r.returncode == 0, r.stderr
    assert 'up to date' in r.stderr
    for part in ('', '0-fixes', 'back', 'journal'):
        d = os.path.join('patches', series.series, part)
        if not os.path.isdir(os.path.join(conflib.TOP, d)):
            continue
        cmp = filecmp.dircmp(os.path.join(conflib.TOP, d), str(top / d))
        assert not cmp.diff_files and not cmp.left_only and not cmp.right_only


def test_no_synthetic_base_commit(series):
    """A series made from a Debian tarball names no base-commit (its base
    commit is not upstream's); its cover letter names the release."""
    for p in series.patches + [os.path.join(conflib.TOP, 'patches',
                                            series.series, part,
                                            '0000-cover-letter.patch')
                               for part in ('back', 'journal')]:
        if os.path.exists(p):
            with open(p) as f:
                assert 'base-commit:' not in f.read(), p


def test_fixes_are_posted_alone(series):
    """Each fix of patches/<series>/0-fixes is a patch of its own, addressed
    to the kconfig maintainers where the base tree names them (its
    get_maintainer.pl and MAINTAINERS: the fixtures of 6.6, 5.15, Buildroot
    and crosstool-ng hold what make oldconfig needs alone, coreboot has no
    get_maintainer.pl), and the series that need it say so."""
    fixes = series.part('0-fixes')
    addressed = all(os.path.isfile(os.path.join(series.pristine, f)) for f in
                    ('scripts/get_maintainer.pl', 'MAINTAINERS'))
    for p in fixes:
        with open(p) as f:
            text = f.read()
        assert '\nSubject: [PATCH] ' in text
        assert 'Signed-off-by: ' in text
        assert ('\nTo: ' in text) == addressed, p
    cover = os.path.join(conflib.TOP, 'patches', series.series, 'back',
                         '0000-cover-letter.patch')
    if fixes and series.series == 'mainline':
        with open(cover) as f:
            text = f.read()
        assert 'kconfig: calculate the visibility of all choice members' in text


def test_no_new_fflush(base):
    """conf.c keeps exactly the upstream fflush(stdout) calls (downstream
    tools mark prompts by them)."""
    def count(tree):
        with open(os.path.join(base.path, tree, base.kconfig_dir,
                               'conf.c')) as f:
            return f.read().count('fflush(stdout);')
    assert count('patched') == count('pristine') == 2


def test_git_checkout_gives_a_real_base_commit(series, tmp_path):
    """With a kernel git checkout as KERNEL_SRC, the work tree is a linked
    work tree of it and base-commit: names its HEAD."""
    src = tmp_path / 'linux'
    shutil.copytree(series.pristine, src, symlinks=True)
    env = dict(os.environ, GIT_AUTHOR_NAME='t', GIT_AUTHOR_EMAIL='t@t',
               GIT_COMMITTER_NAME='t', GIT_COMMITTER_EMAIL='t@t',
               BUILD_ROOT=str(tmp_path / 'build'))
    for cmd in (['git', 'init', '-q'], ['git', 'add', '-A'],
                ['git', 'commit', '-q', '-m', 'Linux']):
        subprocess.run(cmd, cwd=src, env=env, check=True)
    head = subprocess.run(['git', 'rev-parse', 'HEAD'], cwd=src, text=True,
                          capture_output=True).stdout.strip()
    top = tmp_path / 'top'
    shutil.copytree(conflib.TOP, top, ignore=lambda d, names: [
        n for n in names if n in ('.git', '__pycache__') or
        (d == conflib.TOP and n == 'build')])
    for script in ('worktree', 'regen-series'):
        r = subprocess.run([str(top / 'scripts' / script), '--kernel-src',
                            str(src)], capture_output=True, text=True, env=env)
        assert r.returncode == 0, r.stderr
    cover = (top / 'patches' / series.series / 'back' /
             '0000-cover-letter.patch')
    assert 'base-commit: %s\n' % head in cover.read_text()
    branches = subprocess.run(['git', 'branch'], cwd=src, text=True,
                              capture_output=True).stdout
    # a crosstool-ng checkout has no .tarball-version: no version but its
    # project's name
    version = series.version
    if series.kind == 'crosstool-ng' and \
            not (src / '.tarball-version').exists():
        version = series.kind
    assert 'kconfig-back-%s-%s' % (series.series, version) in branches


def net_lines(patches):
    """Net lines each file gains in the patches (format-patch files)."""
    net = {}
    for p in patches:
        name = None
        with open(p) as f:
            for line in f:
                if line.startswith('diff --git '):
                    name = line.split()[-1][2:]
                elif line == '-- \n':
                    name = None
                elif name and line.startswith(('+', '-')) and \
                        not line.startswith(('+++ ', '--- ')):
                    step = 1 if line[0] == '+' else -1
                    net[name] = net.get(name, 0) + step
    return net


COVERS = sorted(d for d in os.listdir(os.path.join(conflib.TOP, 'patches'))
                if os.path.isfile(os.path.join(conflib.TOP, 'patches', d,
                                               'back.cover')))


@pytest.mark.parametrize('name', COVERS)
def test_cover_letter_line_counts(name):
    """The lines a cover letter says the '<' series adds are the patches':
    net lines to conf.c, confdata.c and symbol.c, and its kconfig tests,
    which issue 44 caps at 200 lines."""
    d = os.path.join(conflib.TOP, 'patches', name)
    patches = sorted(os.path.join(d, 'back', p)
                     for p in os.listdir(os.path.join(d, 'back'))
                     if not p.startswith('0000-'))
    net = net_lines(patches)
    c = {base: sum(n for f, n in net.items()
                   if f.endswith('kconfig/' + base + '.c'))
         for base in ('conf', 'confdata', 'symbol')}
    tests = sum(n for f, n in net.items() if '/tests/' in f)
    assert tests <= 200
    with open(os.path.join(d, 'back.cover')) as f:
        cover = ' '.join(f.read().split())
    m = re.search(r'Net lines added to conf\.c, confdata\.c and symbol\.c '
                  r'by patch 2: (\d+) \(conf\.c (\d+), confdata\.c (\d+), '
                  r'symbol\.c (\d+)\), and (\d+) lines of kconfig tests',
                  cover)
    if not m:
        assert tests == 0 or 'Net lines' not in cover, name
        return
    said = [int(x) for x in m.groups()]
    assert said == [sum(c.values()), c['conf'], c['confdata'], c['symbol'],
                    tests]
