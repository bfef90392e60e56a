# SPDX-License-Identifier: GPL-2.0
"""The standalone build: the series applies to its base, the stock conf is
the pristine one, and a wrong or missing base stops with a clear message."""

import filecmp
import hashlib
import os
import re
import shutil
import subprocess
import sys

import pytest

import conflib
from conftest import LONG, build_variant

BUILD = os.path.join(conflib.TOP, 'scripts', 'build')


def run(*args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def title(series, tree):
    """How scripts/build names a copy of a base's tree (scripts/lib.sh:
    tree_title): 'Linux 6.6.57', 'U-Boot 2025.01', ..."""
    if series.kind == 'crosstool-ng' and \
            not os.path.exists(os.path.join(tree, '.tarball-version')):
        return 'crosstool-ng (a kconfig/ without a version)'
    if series.kind == 'linux':
        return 'Linux ' + series.version
    project = {'u-boot': 'U-Boot', 'buildroot': 'Buildroot'}.get(
        series.kind, series.kind)
    return '%s %s' % (project, series.version[len(series.kind) + 1:])


def linux_only(series, covered_by):
    """A test of what a Linux version's SUBLEVEL and a Linux tree's
    messages give: the projects' trees skip it, naming what covers them."""
    if series.kind != 'linux':
        pytest.skip('%s: a Linux tree\'s version and messages; the '
                    'projects\' trees: %s' % (series.version, covered_by))


def apply_series(series, tree):
    """Apply every patch of the series at fuzz 0 to tree, asserting each
    applies; their outputs."""
    out = []
    for p in series.patches:
        r = run('patch', '-p1', '--fuzz=0', '--no-backup-if-mismatch', '-d',
                str(tree), '-i', p)
        assert r.returncode == 0, os.path.basename(p) + ': ' + r.stdout + \
            r.stderr
        out.append(r.stdout)
    return out


@pytest.mark.shallow
def test_series_applies_with_fuzz_0(series, tmp_path):
    """At fuzz 0; on the release the series is made on, without an offset
    too (on another release of its line, 7.2 for the mainline series, a
    hunk may sit a few lines away)."""
    tree = tmp_path / 'tree'
    shutil.copytree(series.pristine, tree, symlinks=True)
    for stdout in apply_series(series, tree):
        assert 'offset' not in stdout or not made_on(series), stdout


# Stable's fix that prints "" for a NULL def in conf_askvalue(): 5.10.262,
# 6.1.187 and 6.12.107 have it, 5.10.251, 6.1.176, 6.12.95, 6.6.57 and
# 5.15.85 do not.
NULL_DEF_FIX = (
    ('\t\tprintf("%s\\n", def);\n\t\tline[0] = \'\\n\';\n\t\tline[1] = 0;\n'
     '\t\treturn 0;\n',
     '\t\tprintf("%s\\n", def ?: "");\n\t\treturn 0;\n'),
    ('\t\t\tprintf("%s\\n", def);\n\t\t\treturn 0;\n',
     '\t\t\tprintf("%s\\n", def ?: "");\n\t\t\treturn 0;\n'),
)


@pytest.mark.shallow
def test_applies_on_both_sides_of_the_null_def_fix(series, tmp_path):
    """A Linux stable line's series leaves the two printf() lines of
    conf_askvalue() that stable's NULL-def fix changes as they are: every
    patch applies at fuzz 0 to the base with and without that fix."""
    if series.kind != 'linux' or series.series == 'mainline':
        pytest.skip('no stable release of %s differs by the NULL-def fix'
                    % series.series)
    src = tmp_path / 'src'
    shutil.copytree(series.pristine, src, symlinks=True)
    conf_c = src / series.kconfig_dir / 'conf.c'
    text = conf_c.read_text()
    for without, with_fix in NULL_DEF_FIX:
        assert (text.count(without), text.count(with_fix)) in ((1, 0), (0, 1))
        if without in text:
            text = text.replace(without, with_fix)
        else:
            text = text.replace(with_fix, without)
    conf_c.write_text(text)
    apply_series(series, src)


@pytest.mark.shallow
def test_series_applies_with_git_am(series, tmp_path):
    tree = tmp_path / 'tree'
    shutil.copytree(series.pristine, tree, symlinks=True)
    env = dict(os.environ, GIT_AUTHOR_NAME='t', GIT_AUTHOR_EMAIL='t@t',
               GIT_COMMITTER_NAME='t', GIT_COMMITTER_EMAIL='t@t')
    for cmd in (['git', 'init', '-q'], ['git', 'add', '-A'],
                ['git', 'commit', '-q', '-m', 'base'],
                ['git', 'am', '-q', *series.patches]):
        r = run(*cmd, cwd=tree, env=env)
        assert r.returncode == 0, r.stdout + r.stderr
    log = run('git', 'log', '--format=%s', cwd=tree).stdout.splitlines()
    assert len(log) == len(series.patches) + 1


@pytest.mark.shallow
def test_stock_is_pristine_with_the_fixes(base, tmp_path):
    """The stock conf is built from the pristine sources with exactly the
    fixes posted alone (0-fixes), which the series needs."""
    pristine = os.path.join(base.path, 'pristine', base.kconfig_dir)
    with open(os.path.join(pristine, 'conf.c'), 'rb') as f:
        assert hashlib.sha256(f.read()).hexdigest() == base.env['CONF_SHA256']
    tree = tmp_path / 'tree'
    shutil.copytree(os.path.join(base.path, 'pristine'), tree)
    for p in base.part('0-fixes'):
        with open(p, 'rb') as f:
            subprocess.run(['patch', '-p1', '-s', '--fuzz=0', '-d', str(tree)],
                           stdin=f, check=True)
    stock = os.path.join(base.path, 'stock', base.kconfig_dir)
    for name in sorted(os.listdir(pristine)):
        if name.endswith(('.c', '.h', '.y', '.l')):
            with open(os.path.join(stock, name), 'rb') as a, \
                    open(tree / base.kconfig_dir / name, 'rb') as b:
                assert a.read() == b.read(), name


@pytest.mark.shallow
def test_patched_differs_from_stock(series):
    with open(series.stock, 'rb') as a, open(series.patched, 'rb') as b:
        assert a.read() != b.read()


def made_on(base):
    """Whether the series was made on the sources of this base: Debian's
    source of the series' own line (7.3 for mainline; 7.2 takes the
    mainline series too, with offsets)."""
    line = conflib.MAINLINE if base.series == 'mainline' else base.series
    return base.env.get('DEBIAN') == line


def fake_tree(path, version, patchlevel, conf_c=b'/* conf.c */\n'):
    os.makedirs(path / 'scripts' / 'kconfig')
    (path / 'Makefile').write_text(
        'VERSION = %d\nPATCHLEVEL = %d\nSUBLEVEL = 0\nEXTRAVERSION =\n'
        % (version, patchlevel))
    (path / 'scripts' / 'kconfig' / 'conf.c').write_bytes(conf_c)


def test_unknown_base_is_refused(tmp_path):
    """A version of no line says so on one line (every line has a series
    now, so none can say that it has none yet)."""
    env = dict(os.environ, BUILD_ROOT=str(tmp_path / 'b'))
    fake_tree(tmp_path / 'old', 4, 19)
    r = run(BUILD, '--kernel-src', str(tmp_path / 'old'), env=env)
    assert r.returncode == 1 and r.stderr.count('\n') == 1, r.stderr
    assert 'Linux 4.19.0 is of no line a series is for' in r.stderr
    # it names the nearest series: 5.10's, the oldest line
    assert 'the nearest series is patches/5.10 (' in r.stderr
    assert 'point KERNEL_SRC= at a tree of its line' in r.stderr
    assert not (tmp_path / 'b' / '4.19.0').exists()


def test_missing_sources_name_the_fix(tmp_path):
    r = run(BUILD, '--kernel-src', str(tmp_path / 'nowhere'))
    assert r.returncode == 1
    assert 'is not a directory' in r.stderr
    (tmp_path / 'empty').mkdir()
    r = run(BUILD, '--kernel-src', str(tmp_path / 'empty'))
    assert r.returncode == 1 and 'is not a kconfig tree' in r.stderr
    # not a base: say which there are, suggest no package
    for name in ('9.99', '5.4', 'mainline'):
        r = run(BUILD, '--debian', name)
        assert r.returncode == 1
        assert r.stderr.count('\n') == 1, r.stderr
        assert 'BASE= is one of 7.3, 7.2, 6.12, 6.1, 5.10' in r.stderr
        assert 'apt-get' not in r.stderr
    # a release that is none, or not fetched
    for name in ('6', 'x', '6.12.1x'):
        r = run(BUILD, '--debian-release', name)
        assert r.returncode == 1 and r.stderr.count('\n') == 1, r.stderr
        assert 'give a kernel release such as 6.12.115' in r.stderr
    # Debian's "7.9-1" is the release 7.9.0
    for name, release in (('6.12.9999', '6.12.9999'), ('7.9', '7.9.0')):
        r = run(BUILD, '--debian-release', name,
                env=dict(os.environ, BUILD_ROOT=str(tmp_path / 'b')))
        assert r.returncode == 1
        assert r.stderr == ("build: error: no kconfig sources of Debian's "
                            '%s here: run scripts/install-deps --release '
                            '%s\n' % (release, release))


@pytest.mark.parametrize('name', ['7.3', '7.2', '5.10'])
def test_missing_download_names_the_command(tmp_path, name):
    """Debian 12 has no linux-source-7.3, -7.2 or -5.10: the one line names
    the command that downloads it."""
    if os.path.exists('/usr/src/linux-source-%s.tar.xz' % name):
        pytest.skip('linux-source-%s is installed here' % name)
    r = run(BUILD, '--debian', name,
            env=dict(os.environ, BUILD_ROOT=str(tmp_path / 'b')))
    assert r.returncode == 1
    assert r.stderr.count('\n') == 1, r.stderr
    assert 'run scripts/install-deps --base %s (downloads' % name in r.stderr
    assert 'apt-get install' not in r.stderr


def with_version(tree, sublevel):
    mk = tree / 'Makefile'
    mk.write_text(re.sub(r'(?m)^SUBLEVEL = .*$', 'SUBLEVEL = %d' % sublevel,
                         mk.read_text()))


def env_of(broot):
    """base.env of the one build under broot"""
    envs = list(broot.glob('*/base.env'))
    assert len(envs) == 1, envs
    return dict(line.split('=', 1) for line in envs[0].read_text().splitlines())


def newest_alike(release):
    """The newest release in patches/known-bases with the same sums as
    release: the one a tree with the sources of both is named after."""
    rows = [line.split() for line in open(os.path.join(
        conflib.TOP, 'patches', 'known-bases')) if not line.startswith('#')]
    sums = {}
    for rel, _, digest, name in rows:
        sums.setdefault(rel, set()).add((digest, name))
    alike = [r for r in sums if sums[r] == sums[release]]
    return max(alike, key=lambda r: [int(n) for n in re.findall(r'\d+', r)])


def prepared_with_local_change(series, broot, name):
    """The base.env of scripts/build --prepare-only in broot on a copy of
    the base's pristine tree with a line added to scripts/kconfig/name."""
    tree = broot / 'linux'
    shutil.copytree(series.pristine, tree, symlinks=True)
    with open(tree / 'scripts' / 'kconfig' / name, 'a') as f:
        f.write('/* a local change */\n')
    r = run(BUILD, '--kernel-src', str(tree), '--prepare-only',
            env=dict(os.environ, BUILD_ROOT=str(broot / 'build')))
    assert r.returncode == 0 and r.stderr == '', r.stderr
    return env_of(broot / 'build')


def test_recognised_by_content(series, tmp_path):
    """The series and whether it is verified come from the sums of the
    sources, not from the version: another version with the sources of a
    verified release is verified; the verified version with a file the
    series changes altered is unknown; with only another source of conf
    altered, the series is known but not verified."""
    known = series.env.get('KNOWN')
    if series.env.get('VERIFIED') != series.version or not known:
        pytest.skip('%s is not in patches/known-bases' % series.version)
    linux_only(series, 'tests/test_trees.py::'
               'test_another_release_is_checked_on_the_spot')
    tree = tmp_path / 'linux'
    shutil.copytree(series.pristine, tree, symlinks=True)
    with_version(tree, 97)
    version = re.sub(r'^(\d+\.\d+)\.\d+.*', r'\g<1>.97', series.version)
    broot = tmp_path / 'b1'
    r = run(BUILD, '--kernel-src', str(tree), '--prepare-only',
            env=dict(os.environ, BUILD_ROOT=str(broot)))
    assert r.returncode == 0, r.stderr
    # named after the newest release with those sources, not after 97
    alike = newest_alike(known)
    assert r.stderr == ('build: %s in %s has the kconfig sources of %s, on '
                        'which patches/%s is verified\n'
                        % (version, tree, alike, series.series))
    env = env_of(broot)
    assert (env['VERIFIED'], env['KNOWN'], env['SERIES']) == (
        version, alike, series.series)
    # a file the series changes, altered where no hunk is: unknown
    env = prepared_with_local_change(series, tmp_path / 'b2', 'confdata.c')
    assert (env['VERIFIED'], env['KNOWN'], env['SERIES']) == (
        'no', '', series.series)
    # another source of conf: the series is known, the sources are not
    changed = set()
    for p in series.patches:
        with open(p) as f:
            changed |= set(re.findall(r'^--- a/(\S+)', f.read(), re.M))
    other = next(f for f in ('menu.c', 'util.c', 'preprocess.c')
                 if 'scripts/kconfig/' + f not in changed)
    env = prepared_with_local_change(series, tmp_path / 'b3', other)
    assert (env['VERIFIED'], env['KNOWN'], env['SERIES']) == (
        'no', known, series.series)


def test_rejected_hunk_fails_the_build(series, tmp_path):
    """Sources whose conf.c differs where the series changes it are
    refused on one line naming the patch, the hunk and how to port it,
    and nothing is built from them."""
    tree = tmp_path / 'linux'
    shutil.copytree(series.pristine, tree, symlinks=True)
    conf_c = tree / series.kconfig_dir / 'conf.c'
    text = conf_c.read_text()
    assert 'static void check_conf(struct menu *menu)' in text
    conf_c.write_text(text.replace('\tif (!menu_is_visible(menu))\n\t\treturn;',
                                   '\tif (!menu_is_visible(menu))\n\t\treturn; /* */'))
    r = run(BUILD, '--kernel-src', str(tree),
            env=dict(os.environ, BUILD_ROOT=str(tmp_path / 'b')))
    assert r.returncode == 1
    assert r.stderr.count('\n') == 1, r.stderr
    assert re.match(r"build: error: %s \(%s\): kconfig sources "
                    r"patches/known-bases does not know, and patches/%s/\S+"
                    r"\.patch is rejected at fuzz 0 \(hunks? [0-9, ]+ of "
                    r"%s/conf.c\): to port the series, 'make "
                    r"worktree KERNEL_SRC=%s' and rebase it there \(docs/bases\.md: "
                    r"Update to a new kernel\)$"
                    % (re.escape(title(series, tree)), re.escape(str(tree)),
                       re.escape(series.series),
                       re.escape(series.kconfig_dir), re.escape(str(tree))),
                    r.stderr), r.stderr
    assert not list((tmp_path / 'b').glob('*/*/%s/conf' % series.kconfig_dir))


def applied(how, series):
    """What build and oldconfig say a tree with the series applied (how:
    'all' or 'drop-in') has."""
    return {'all': 'patches/%s applied (all of it, as git am or the patch '
                   'files give it)',
            'drop-in': "the kconfig files of patches/%s (make dist's drop-in"
                       ' files; its tests and documentation are not patched)'
            }[how] % series


def tree_with_series(series, path, how):
    """A copy of the base's sources with its series applied: 'all' of it
    (as git am or the patch files give it), or 'drop-in': the files of
    the kconfig folder the series changes, as make dist writes them."""
    shutil.copytree(series.pristine, path, symlinks=True)
    if how == 'all':
        for p in series.patches:
            subprocess.run(['patch', '-s', '-p1', '-d', str(path), '-i', p],
                           check=True)
        return
    kconfig = os.path.join(series.path, 'patched', series.kconfig_dir)
    for f in os.listdir(kconfig):
        new = os.path.join(kconfig, f)
        old = os.path.join(series.pristine, series.kconfig_dir, f)
        if (f.endswith(('.c', '.h')) and os.path.isfile(new) and
                not f.endswith(('.lex.c', '.tab.c', '.tab.h')) and
                not (os.path.isfile(old) and filecmp.cmp(old, new, False))):
            shutil.copy(new, path / series.kconfig_dir / f)


@pytest.mark.parametrize('how', ['all', 'drop-in'])
def test_tree_with_the_series_is_named(series, tmp_path, how):
    """A tree that has the series already (all of it, or make dist's
    drop-in files) is named as such on one line, saying what to run
    instead; nothing is tried or built."""
    tree = tmp_path / 'linux'
    tree_with_series(series, tree, how)
    broot = tmp_path / 'b'
    r = run(BUILD, '--kernel-src', str(tree),
            env=dict(os.environ, BUILD_ROOT=str(broot)))
    assert r.returncode == 1
    # a series that changes only the sources of conf (no kconfig tests,
    # no documentation: Buildroot's, coreboot's, crosstool-ng's) is the
    # same in both
    changed = set()
    for p in series.patches:
        with open(p) as f:
            changed |= set(re.findall(r'^\+\+\+ b/(\S+)', f.read(), re.M))
    if all(f.startswith(series.kconfig_dir + '/') and f.endswith(('.c', '.h'))
           for f in changed):
        how = 'all'
    what = applied(how, series.series)
    assert r.stderr == ("build: %s already has %s: its own conf has '<'; run "
                        "its own 'make oldconfig' instead (make -C %s "
                        'oldconfig)\n' % (tree, what, tree)), r.stderr
    assert not [p for p in broot.iterdir() if p.name != 'verdicts'] \
        if broot.exists() else True


def debian_build(base, broot):
    """base built from its Debian sources in BUILD_ROOT broot, reusing the
    sources extracted under build/src (no second extraction)."""
    debian = base.env.get('DEBIAN')
    if not debian:
        pytest.skip('%s is not built from a Debian package' % base.version)
    src = os.path.join(conflib.BUILD, 'src', 'debian-' + debian)
    os.makedirs(broot / 'src')
    subprocess.run(['cp', '-al', src, str(broot / 'src')], check=True)
    with open(src + '.stamp') as f:
        tarball, rest = f.read().split(' ', 1)
    if tarball.startswith(conflib.BUILD + '/'):
        # downloaded under build/debian: the same file under broot
        ours = str(broot) + tarball[len(conflib.BUILD):]
        os.makedirs(os.path.dirname(ours))
        os.link(tarball, ours)
        tarball = ours
    (broot / 'src' / ('debian-%s.stamp' % debian)).write_text(
        tarball + ' ' + rest)
    r = run(BUILD, '--debian', debian, env=dict(os.environ, BUILD_ROOT=str(broot)))
    assert r.returncode == 0, r.stderr
    assert 'extracting' not in r.stderr
    assert r.stdout.strip() == str(broot / base.version)
    return broot / base.version


def test_kernel_src_keeps_the_debian_build(series, tmp_path):
    """A KERNEL_SRC tree of the same version as a Debian build: with the
    same kconfig sources it shares that build, with others it gets its
    own; with the series already applied, the build says so; the Debian
    build is never touched."""
    broot = tmp_path / 'b'
    deb = debian_build(series, broot)
    confs = [deb / v / 'scripts' / 'kconfig' / 'conf' for v in ('stock', 'patched')]
    stamps = [c.stat().st_mtime_ns for c in confs]
    env = dict(os.environ, BUILD_ROOT=str(broot))
    # the same sources: the same build
    same = tmp_path / 'same'
    shutil.copytree(series.pristine, same, symlinks=True)
    r = run(BUILD, '--kernel-src', str(same), env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(deb)
    assert 'compiling' not in r.stderr
    # so do Debian's extracted sources given as a kernel tree; the build
    # stays Debian's
    debsrc = broot / 'src' / ('debian-' + series.env['DEBIAN'])
    r = run(BUILD, '--kernel-src', str(debsrc), env=env)
    assert r.returncode == 0 and r.stdout.strip() == str(deb), r.stderr
    with open(deb / 'base.env') as f:
        assert 'DEBIAN=%s\n' % series.env['DEBIAN'] in f.read()
    # other sources of that version: a build of their own
    other = tmp_path / 'other'
    shutil.copytree(series.pristine, other, symlinks=True)
    (other / 'scripts' / 'kconfig' / 'NOTES').write_text('a local file\n')
    r = run(BUILD, '--kernel-src', str(other), env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(broot / (series.version + '+other'))
    # the series applied already: named, and nothing built
    applied = tmp_path / 'applied'
    tree_with_series(series, applied, 'all')
    r = run(BUILD, '--kernel-src', str(applied), env=env)
    assert r.returncode == 1
    assert ' already has patches/%s applied ' % series.series in r.stderr
    assert [c.stat().st_mtime_ns for c in confs] == stamps
    with open(deb / 'base.env') as f:
        assert 'SOURCE=%s\n' % (broot / 'src' / ('debian-' + series.env['DEBIAN'])) in f.read()


def neutered_clear_all_valid(path):
    """symbol.c whose sym_clear_all_valid() no longer marks the symbols to
    be calculated again: conf still builds, and its answers act late."""
    f = path / 'scripts' / 'kconfig' / 'symbol.c'
    text = f.read_text()
    start = text.index('void sym_clear_all_valid(void)')
    end = text.index('\n}\n', start)
    body = text[start:end]
    assert '\t\tsym->flags &= ~SYMBOL_VALID;' in body
    f.write_text(text[:start] + body.replace(
        '\t\tsym->flags &= ~SYMBOL_VALID;', '\t\t;') + text[end:])


def progress(line):
    return line.startswith(('build: compiling ', 'build: checking '))


@pytest.mark.skipif(conflib.BUILD != os.path.join(conflib.TOP, 'build'),
                    reason='BUILD_ROOT is set')
def test_check_on_the_spot_ignores_the_persons_settings(series, tmp_path):
    """KCONFIG_JOURNAL and KCONFIG_CONFIG given to scripts/oldconfig (or
    build) reach none of the conf runs of the check: the check passes and
    neither file is written."""
    if not LONG and series.env.get('DEBIAN') != '6.12':
        pytest.skip('on the 6.12 base only; check-long runs it on each')
    journal, config = tmp_path / 'journal', tmp_path / 'config'
    env = dict(os.environ, KCONFIG_JOURNAL=str(journal),
               KCONFIG_CONFIG=str(config))
    r = run(sys.executable, os.path.join(conflib.TOP, 'verify', 'verify.py'),
            '--stock', series.stock, '--patched', series.patched,
            '--tree', os.path.join(series.path, 'patched'),
            '--stock-tree', os.path.join(series.path, 'stock'),
            '--seeds', '1', '--sessions', '1', env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert not journal.exists() and not config.exists()


def test_unknown_sources_are_checked_on_the_spot(series, tmp_path):
    """Sources patches/known-bases does not know, to which the series
    applies: the stock and patched conf built from them pass the check on
    the spot before the patched one is used, the figures on one line, and
    the verdict is kept; with a local change that breaks what the series
    relies on, the check fails, one line says which, and the patched conf
    is not left there.  While it runs, its expected length is said once,
    and a line says each step.  'make dist' takes the checked build
    (whose base.env has parentheses in CHECKED=).  (On the default base;
    on all with check-long.)"""
    if not LONG and series.env.get('DEBIAN') != '6.12':
        pytest.skip('on the 6.12 base only; check-long runs it on each')
    linux_only(series, 'tests/test_trees.py::'
               'test_another_release_is_checked_on_the_spot')
    tree = tmp_path / 'linux'
    shutil.copytree(series.pristine, tree, symlinks=True)
    menu = tree / 'scripts' / 'kconfig' / 'menu.c'
    menu.write_text('/* a local change */\n' + menu.read_text())
    env = dict(os.environ, BUILD_ROOT=str(tmp_path / 'b'))
    r = run(BUILD, '--kernel-src', str(tree), '--quiet', env=env)
    assert r.returncode == 0, r.stderr
    lines = [line for line in r.stderr.splitlines() if not progress(line)]
    assert len(lines) == 1, r.stderr
    m = re.match(
        r"build: Linux %s \(%s\): (.*); patches/%s applies at fuzz 0 and "
        r"passed the check on the spot: kconfig suite (\d+)/\2 passed \((\d+)"
        r" of the series' cases\); (\d+) runs without '<' byte-identical to "
        r"stock and (\d+) sessions with '<' \((\d+) '<'\) equivalent, on the "
        r"demo and (\d+) kconfig test trees; its own Kconfig: not in these "
        r"sources; \d+ s; using its patched conf$"
        % (re.escape(series.version), re.escape(str(tree)),
           re.escape(series.series)), lines[0])
    assert m, lines[0]
    assert m.group(1) in (
        'kconfig sources patches/known-bases does not know',
        'its files that patches/%s changes are those of %s, but not all the '
        'other sources of conf' % (series.series, series.env.get('KNOWN')))
    suite, cases, runs, sessions, backs, trees = map(int, m.groups()[1:])
    assert suite >= 16 and cases >= 8 and trees >= 10
    # the length once, then the steps (the demo and the test trees)
    assert ("build: checking patches/%s on Linux %s on the spot (under a "
            "minute; a line at least every 30 s): " % (
                series.series, series.version)) in r.stderr
    said = [line.split(': ', 2)[2] for line in r.stderr.splitlines()
            if line.startswith('build: checking on the spot, ')]
    steps = [s for s in dict.fromkeys(said)
             if not re.search(r'\(\d+ of \d+\)$', s)]
    assert steps == ['the kconfig test suite',
                     "runs without '<' on %d trees" % (trees + 1),
                     "sessions with '<' on %d trees" % (trees + 1)], said
    assert runs >= 10 * trees and sessions >= 3 * trees and backs > sessions
    built = r.stdout.strip()
    assert os.access(os.path.join(built, 'patched', 'scripts', 'kconfig',
                                  'conf'), os.X_OK)
    with open(os.path.join(built, 'base.env')) as f:
        benv = f.read()
    assert 'VERIFIED=%s\n' % series.version in benv
    assert 'CHECKED=kconfig suite ' in benv
    # the verdict is kept: no check again
    r = run(BUILD, '--kernel-src', str(tree), '--quiet', env=env)
    assert r.returncode == 0, r.stderr
    assert 'build: checking ' not in r.stderr
    assert 'passed the check on the spot (its verdict from ' in r.stderr
    # make dist after it: base.env is read, not run as shell (CHECKED=
    # has parentheses), and the checked base is written
    assert re.search(r"^CHECKED=.*\(\d+ of the series' cases\)", benv, re.M)
    r = run(os.path.join(conflib.TOP, 'scripts', 'dist'), '--out',
            str(tmp_path / 'dist'), env=env)
    assert r.returncode == 0, r.stderr
    assert 'syntax error' not in r.stderr
    assert (tmp_path / 'dist' / ('kconfig-back-%s' % series.version)).is_dir()
    # broken: the check fails, and says which
    broken = tmp_path / 'broken'
    shutil.copytree(series.pristine, broken, symlinks=True)
    neutered_clear_all_valid(broken)
    for again in (False, True):
        r = run(BUILD, '--kernel-src', str(broken), '--quiet', env=env)
        assert r.returncode == 1
        lines = [line for line in r.stderr.splitlines() if not progress(line)]
        assert len(lines) == 1, r.stderr
        assert ("patches/%s applies at fuzz 0, but its check on the spot "
                'failed: the kconfig test suite: ' % series.series) in lines[0]
        assert ": its patched conf is not used; to port the series, 'make " \
            "worktree KERNEL_SRC=%s' and fix it there (docs/bases.md: Update to a " \
            'new kernel)' % broken in lines[0]
        assert ('(its verdict from ' in lines[0]) == again
        assert not list((tmp_path / 'b').glob(
            '*+broken/patched/scripts/kconfig/conf'))


@pytest.mark.parametrize('how', ['all', 'drop-in'])
def test_oldconfig_on_a_patched_tree_says_what_to_run(real612, tmp_path,
                                                      how):
    """scripts/oldconfig on a tree that has the series (the patch files
    applied, or make dist's drop-in files copied over scripts/kconfig/)
    says, on one line, what the tree has and to run its own make
    oldconfig; it runs no conf and writes nothing."""
    base = real612.base
    tree = tmp_path / 'linux'
    subprocess.run(['cp', '-al', real612.path, str(tree)], check=True)
    patched = tmp_path / 'patched'
    tree_with_series(base, patched, how)
    for dirpath, _, files in os.walk(patched):
        for f in files:
            new = os.path.join(dirpath, f)
            old = os.path.join(tree, os.path.relpath(new, patched))
            if not os.path.isfile(old) or not filecmp.cmp(old, new, False):
                # a copy of its own: the real tree's file stays
                if os.path.exists(old):
                    os.unlink(old)
                os.makedirs(os.path.dirname(old), exist_ok=True)
                shutil.copy(new, old)
    env = {k: v for k, v in os.environ.items()
           if k not in ('MAKEFLAGS', 'MAKELEVEL', 'MFLAGS', 'MAKEOVERRIDES')}
    r = subprocess.run([os.path.join(conflib.TOP, 'scripts', 'oldconfig'),
                        str(tree)], capture_output=True, text=True, env=env,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 1
    what = applied(how, base.series)
    assert r.stderr == ("oldconfig: %s already has %s: its own conf has '<'; "
                        "run its own 'make oldconfig' instead (make -C %s "
                        'oldconfig)\n' % (tree, what, tree))
    assert r.stdout == ''
    assert not (tree / '.config').exists()


@pytest.mark.skipif(not LONG, reason='about a minute: check-long')
def test_whole_tree_is_checked_on_its_own_kconfig(real612, tmp_path):
    """A whole kernel tree with a local change is checked on its own
    Kconfig too, with the environment its make gives conf."""
    tree = tmp_path / 'linux'
    subprocess.run(['cp', '-al', real612.path, str(tree)], check=True)
    menu = tree / 'scripts' / 'kconfig' / 'menu.c'
    text = menu.read_text()
    menu.unlink()
    menu.write_text('/* a local change */\n' + text)
    env = {k: v for k, v in os.environ.items()
           if k not in ('MAKEFLAGS', 'MAKELEVEL', 'MFLAGS', 'MAKEOVERRIDES')}
    env['BUILD_ROOT'] = str(tmp_path / 'b')
    r = run(BUILD, '--kernel-src', str(tree), '--quiet', env=env)
    assert r.returncode == 0, r.stderr
    m = re.search(r"its own Kconfig: (\d+) runs and (\d+) sessions \((\d+) "
                  r"NEW questions, (\d+) answers kept; old config: its "
                  r"alldefconfig without one symbol in ten\)", r.stderr)
    assert m, r.stderr
    runs, sessions, new, kept = map(int, m.groups())
    assert runs >= 2 and sessions >= 2 and new >= 50 and kept >= 100


def test_variant_with_some_parts(series, tmp_path):
    """--variant NAME --parts builds the conf with only the patches named:
    the series without its last patch here (of the journal series, or of
    the '<' series on a base without the journal); a part that is not
    there, or too short, stops the build."""
    last = 'journal' if series.has_journal else 'back'
    parts = [p for p in ('0-fixes', 'back') if p != last and series.part(p)]
    if len(series.part(last)) > 1:
        parts.append(last + '~1')
    parts = ','.join(parts)
    conf = build_variant(series, 'parts', '--parts', parts)
    assert os.access(conf, os.X_OK)
    tree = tmp_path / 'tree'
    shutil.copytree(series.pristine, tree, symlinks=True)
    for p in (series.part('0-fixes') + series.part('back') +
              series.part('journal'))[:-1]:
        r = run('patch', '-p1', '--fuzz=0', '-s', '-d', str(tree), '-i', p)
        assert r.returncode == 0, r.stdout + r.stderr
    built = os.path.join(series.path, 'parts', series.kconfig_dir)
    sources = [f for f in os.listdir(tree / series.kconfig_dir)
               if f.endswith(('.c', '.h', '.y', '.l'))]
    assert 'conf.c' in sources
    for f in sources:
        with open(tree / series.kconfig_dir / f, 'rb') as a, \
                open(os.path.join(built, f), 'rb') as b:
            assert a.read() == b.read(), f
    n = len(series.part(last))
    for parts, message in (('nope', 'is not a part of the series'),
                           ('%s~%d' % (last, n), 'has no more than %d' % n),
                           ('%s~x' % last, 'is not a number')):
        r = run(BUILD, '--quiet', *series.source_args,
                '--variant', 'x', '--parts', parts)
        assert r.returncode == 1 and message in r.stderr, r.stderr
    assert not os.path.exists(os.path.join(series.path, 'x'))
