# SPDX-License-Identifier: GPL-2.0
"""The standalone build: the series applies to its base, the stock conf is
the pristine one, and a wrong or missing base stops with a clear message."""

import hashlib
import os
import re
import shutil
import subprocess

import pytest

import conflib
from conftest import build_variant

BUILD = os.path.join(conflib.TOP, 'scripts', 'build')


def run(*args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def test_series_applies_with_fuzz_0(series, tmp_path):
    tree = tmp_path / 'tree'
    shutil.copytree(series.pristine, tree, symlinks=True)
    for p in series.patches:
        r = run('patch', '-p1', '--fuzz=0', '--no-backup-if-mismatch', '-d',
                str(tree), '-i', p)
        assert r.returncode == 0, r.stdout + r.stderr
        assert 'offset' not in r.stdout, r.stdout


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


def test_stock_conf_is_pristine(base):
    stock = os.path.join(base.path, 'stock', 'scripts', 'kconfig', 'conf.c')
    with open(stock, 'rb') as f:
        assert hashlib.sha256(f.read()).hexdigest() == base.env['CONF_SHA256']
    with open(os.path.join(conflib.TOP, 'patches', 'known-bases')) as f:
        assert base.env['CONF_SHA256'] in f.read()


def test_patched_differs_from_stock(series):
    with open(series.stock, 'rb') as a, open(series.patched, 'rb') as b:
        assert a.read() != b.read()


def fake_tree(path, version, patchlevel, conf_c=b'/* conf.c */\n'):
    os.makedirs(path / 'scripts' / 'kconfig')
    (path / 'Makefile').write_text(
        'VERSION = %d\nPATCHLEVEL = %d\nSUBLEVEL = 0\nEXTRAVERSION =\n'
        % (version, patchlevel))
    (path / 'scripts' / 'kconfig' / 'conf.c').write_bytes(conf_c)


def test_unknown_base_is_refused(tmp_path):
    fake_tree(tmp_path / 'linux', 5, 10)
    r = run(BUILD, '--kernel-src', str(tmp_path / 'linux'),
            env=dict(os.environ, BUILD_ROOT=str(tmp_path / 'b')))
    assert r.returncode == 1
    assert 'kernel 5.10.0 is not a supported base' in r.stderr
    assert 'KERNEL_SRC=' in r.stderr


def test_missing_sources_name_the_fix(tmp_path):
    r = run(BUILD, '--kernel-src', str(tmp_path / 'nowhere'))
    assert r.returncode == 1
    assert 'is not a directory' in r.stderr
    (tmp_path / 'empty').mkdir()
    r = run(BUILD, '--kernel-src', str(tmp_path / 'empty'))
    assert r.returncode == 1 and 'is not a kernel tree' in r.stderr
    # not a base: say which there are, suggest no package
    for name in ('9.99', '5.10', 'mainline'):
        r = run(BUILD, '--debian', name)
        assert r.returncode == 1
        assert r.stderr.count('\n') == 1, r.stderr
        assert 'BASE= is one of 7.3, 6.12, 6.1' in r.stderr
        assert 'apt-get' not in r.stderr


def test_missing_mainline_names_the_command(tmp_path):
    """Debian 12 has no linux-source-7.3: the one line names the command
    that downloads it."""
    if os.path.exists('/usr/src/linux-source-7.3.tar.xz'):
        pytest.skip('linux-source-7.3 is installed here')
    r = run(BUILD, '--debian', '7.3',
            env=dict(os.environ, BUILD_ROOT=str(tmp_path / 'b')))
    assert r.returncode == 1
    assert r.stderr.count('\n') == 1, r.stderr
    assert 'run scripts/install-deps --base 7.3 ' in r.stderr
    assert 'apt-get install' not in r.stderr


def test_unverified_version_says_so(series, tmp_path):
    """A version the series was not verified on is tried after a line
    saying so, naming the verified ones."""
    tree = tmp_path / 'linux'
    shutil.copytree(series.pristine, tree, symlinks=True)
    mk = tree / 'Makefile'
    mk.write_text(re.sub(r'(?m)^SUBLEVEL = .*$', 'SUBLEVEL = 97', mk.read_text()))
    r = run(BUILD, '--kernel-src', str(tree), '--prepare-only',
            env=dict(os.environ, BUILD_ROOT=str(tmp_path / 'b')))
    assert r.returncode == 0, r.stderr
    version = re.sub(r'^(\d+\.\d+)\.\d+.*', r'\g<1>.97', series.version)
    assert ('%s is not a verified base of patches/%s (verified: '
            % (version, series.series)) in r.stderr
    assert series.version in r.stderr.split('verified: ', 1)[1]
    assert 'trying it anyway' in r.stderr


def test_rejected_hunk_fails_the_build(series, tmp_path):
    """A base whose conf.c differs where the series changes it is refused,
    naming the patch, and nothing is built from it."""
    tree = tmp_path / 'linux'
    shutil.copytree(series.pristine, tree, symlinks=True)
    conf_c = tree / 'scripts' / 'kconfig' / 'conf.c'
    text = conf_c.read_text()
    assert 'static void check_conf(struct menu *menu)' in text
    conf_c.write_text(text.replace('\tif (!menu_is_visible(menu))\n\t\treturn;',
                                   '\tif (!menu_is_visible(menu))\n\t\treturn; /* */'))
    r = run(BUILD, '--kernel-src', str(tree),
            env=dict(os.environ, BUILD_ROOT=str(tmp_path / 'b')))
    assert r.returncode == 1
    assert 'does not apply' in r.stderr and '.patch' in r.stderr
    assert not list((tmp_path / 'b').glob('*/patched/scripts/kconfig/conf'))
    # on a version the series is not verified on, the way to port it
    mk = tree / 'Makefile'
    mk.write_text(re.sub(r'(?m)^SUBLEVEL = .*$', 'SUBLEVEL = 97', mk.read_text()))
    r = run(BUILD, '--kernel-src', str(tree),
            env=dict(os.environ, BUILD_ROOT=str(tmp_path / 'b')))
    assert r.returncode == 1
    assert 'which is not a verified base' in r.stderr
    assert "'make worktree KERNEL_SRC=%s' and rebase" % tree in r.stderr


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
    # the series applied already
    applied = tmp_path / 'applied'
    shutil.copytree(series.pristine, applied, symlinks=True)
    for p in series.patches:
        subprocess.run(['patch', '-s', '-p1', '-d', str(applied), '-i', p],
                       check=True)
    r = run(BUILD, '--kernel-src', str(applied), env=env)
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1].endswith(
        '%s already has patches/%s applied: give a tree without it; a tree '
        "with the whole series needs no build here, its own 'make oldconfig' "
        "has '<'" % (applied, series.series)), r.stderr
    assert [c.stat().st_mtime_ns for c in confs] == stamps
    with open(deb / 'base.env') as f:
        assert 'SOURCE=%s\n' % (broot / 'src' / ('debian-' + series.env['DEBIAN'])) in f.read()


def test_variant_with_some_parts(series, tmp_path):
    """--variant NAME --parts builds the conf with only the patches named:
    the '<' series without its last patch here (what the random trees
    compare stdout on); a part that is not there, or too short, stops the
    build."""
    conf = build_variant(series, 'rfc', '--parts', '0-fixes,back~1')
    assert os.access(conf, os.X_OK)
    tree = tmp_path / 'tree'
    shutil.copytree(series.pristine, tree, symlinks=True)
    for p in series.part('0-fixes') + series.part('back')[:-1]:
        r = run('patch', '-p1', '--fuzz=0', '-s', '-d', str(tree), '-i', p)
        assert r.returncode == 0, r.stdout + r.stderr
    built = os.path.join(series.path, 'rfc', 'scripts', 'kconfig')
    sources = [f for f in os.listdir(tree / 'scripts' / 'kconfig')
               if f.endswith(('.c', '.h', '.y', '.l'))]
    assert 'conf.c' in sources
    for f in sources:
        with open(tree / 'scripts' / 'kconfig' / f, 'rb') as a, \
                open(os.path.join(built, f), 'rb') as b:
            assert a.read() == b.read(), f
    n = len(series.part('back'))
    for parts, message in (('nope', 'is not a part of the series'),
                           ('back~%d' % n, 'has no more than %d' % n),
                           ('back~x', 'is not a number')):
        r = run(BUILD, '--quiet', '--kernel-src', series.env['SOURCE'],
                '--variant', 'x', '--parts', parts)
        assert r.returncode == 1 and message in r.stderr, r.stderr
    assert not os.path.exists(os.path.join(series.path, 'x'))
