# SPDX-License-Identifier: GPL-2.0
"""The standalone build: the series applies to its base, the stock conf is
the pristine one, and a wrong or missing base stops with a clear message."""

import hashlib
import os
import shutil
import subprocess

import conflib

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
    r = run(BUILD, '--debian', '9.99')
    assert r.returncode == 1
    assert 'apt-get install linux-source-9.99' in r.stderr


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
    assert not os.path.exists(tmp_path / 'b' / series.version / 'patched' /
                              'scripts' / 'kconfig' / 'conf')
