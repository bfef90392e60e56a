# SPDX-License-Identifier: GPL-2.0
"""The kconfig trees of other projects as bases (docs/bases.md): the build
finds a tree's kind, kconfig folder, version and series itself; a tree of
no line names the nearest series; a base without a series builds its stock
conf alone; a missing fixture is named, with the status the tests and make
check skip on."""

import os
import re
import shutil
import subprocess

import pytest

import conflib

BUILD = conflib.script('build')


def run(*args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def env_of(broot):
    d = next(os.path.join(broot, n) for n in os.listdir(broot)
             if os.path.isfile(os.path.join(broot, n, 'base.env')))
    with open(os.path.join(d, 'base.env')) as f:
        return dict(line.rstrip('\n').split('=', 1) for line in f)


# (files of a fake tree, what the build reads of it: kind, kconfig
# folder, version, series)
TREES = {
    'u-boot': ({'Makefile': 'VERSION = 2025\nPATCHLEVEL = 01\nSUBLEVEL =\n'
                            'EXTRAVERSION =\nNAME =\nUBOOTVERSION = x\n',
                'scripts/kconfig/conf.c': ''},
               'u-boot', 'scripts/kconfig', 'u-boot-2025.01', 'u-boot'),
    'buildroot': ({'Makefile': 'export BR2_VERSION := 2026.08-rc1\n',
                   'support/kconfig/conf.c': ''},
                  'buildroot', 'support/kconfig', 'buildroot-2026.08-rc1',
                  'buildroot'),
    'coreboot': ({'.coreboot-version': '25.09-07df08836e-c78a02fd56\n',
                  'util/kconfig/conf.c': ''},
                 'coreboot', 'util/kconfig', 'coreboot-25.09', 'coreboot'),
    'crosstool-ng': ({'.tarball-version': '1.29.0-rc2\n',
                      'kconfig/conf.c': '', 'kconfig/Makefile.am': ''},
                     'crosstool-ng', 'kconfig', 'crosstool-ng-1.29.0-rc2',
                     'crosstool-ng'),
    'linux-6.6': ({'Makefile': 'VERSION = 6\nPATCHLEVEL = 6\nSUBLEVEL = 17\n'
                               'EXTRAVERSION =\n',
                   'scripts/kconfig/conf.c': ''},
                  'linux', 'scripts/kconfig', '6.6.17', '6.6'),
}


@pytest.mark.parametrize('name', sorted(TREES))
def test_kind_folder_and_version_of_a_tree(tmp_path, name):
    """scripts/build --kernel-src (or --kconfig-src) on the top folder of a
    tree finds its kind, its kconfig folder, its version in the project's
    own way and the series of its line, and keeps its layout."""
    files, kind, kdir, version, series = TREES[name]
    tree = tmp_path / name
    for path, text in files.items():
        (tree / path).parent.mkdir(parents=True, exist_ok=True)
        (tree / path).write_text(text)
    broot = tmp_path / 'b'
    r = run(BUILD, '--kconfig-src', str(tree), '--prepare-only',
            env=dict(os.environ, BUILD_ROOT=str(broot)))
    assert r.returncode == 0, r.stderr
    env = env_of(broot)
    assert (env['KIND'], env['KCONFIG_DIR'], env['VERSION'],
            env['SERIES']) == (kind, kdir, version, series)
    assert os.path.isfile(os.path.join(r.stdout.strip(), 'pristine', kdir,
                                       'conf.c'))


def test_tree_of_no_line_names_the_nearest_series(tmp_path):
    """A Linux version between lines stops on one line naming the series
    of the nearest line that has patches."""
    tree = tmp_path / 'linux'
    (tree / 'scripts' / 'kconfig').mkdir(parents=True)
    (tree / 'scripts' / 'kconfig' / 'conf.c').write_text('')
    (tree / 'Makefile').write_text('VERSION = 6\nPATCHLEVEL = 9\n'
                                   'SUBLEVEL = 1\nEXTRAVERSION =\n')
    r = run(BUILD, '--kernel-src', str(tree),
            env=dict(os.environ, BUILD_ROOT=str(tmp_path / 'b')))
    assert r.returncode == 1 and r.stderr.count('\n') == 1, r.stderr
    # 6.9 is two releases from the line of patches/6.12 (6.11 to 6.17),
    # three from 6.6
    assert 'Linux 6.9.1 is of no line a series is for; the nearest series ' \
        'is patches/6.12 (' in r.stderr, r.stderr


def test_missing_fixture_is_named(tmp_path):
    """Without the fixtures folder, the tree of a release of it is named
    as missing (status 4: the tests of that base skip, make check leaves
    it out), by scripts/project-tree and by scripts/build."""
    env = dict(os.environ, KCONFIG_BACK_FIXTURES=str(tmp_path / 'none'),
               BUILD_ROOT=str(tmp_path / 'b'))
    r = run(conflib.script('project-tree'), 'buildroot-2026.08-rc1', env=env)
    assert r.returncode == 4 and r.stderr.count('\n') == 1, r.stderr
    assert 'no fixture buildroot-2026.08-rc1-kconfig.tar.xz' in r.stderr
    r = run(BUILD, '--project', 'buildroot-2026.08-rc1', env=env)
    assert r.returncode == 4
    assert 'no tree of buildroot-2026.08-rc1 here' in r.stderr
    r = run(conflib.script('project-tree'), 'buildroot-9', env=env)
    assert r.returncode == 1 and 'is not a release of another tree' in \
        r.stderr


def test_base_without_a_series_builds_stock_alone(tmp_path):
    """A base whose series does not exist yet stops on one line saying so
    and naming --stock-only, which builds its stock conf alone (make check
    builds it with --or-stock)."""
    env = dict(os.environ, BUILD_ROOT=str(tmp_path / 'b'))
    release = 'crosstool-ng-1.29.0-rc2'
    series = os.path.join(conflib.TOP, 'patches', 'crosstool-ng')
    if any(f.endswith('.patch') for _, _, files in os.walk(series)
           for f in files):
        pytest.skip('patches/crosstool-ng has patches now')
    r = run(conflib.script('project-tree'), release, env=env)
    if r.returncode == 4:
        pytest.skip(r.stderr.strip())
    r = run(BUILD, '--project', release, env=env)
    assert r.returncode == 1 and r.stderr.count('\n') == 1, r.stderr
    assert 'there is no series for crosstool-ng 1.29.0-rc2 yet' in r.stderr
    assert '--stock-only' in r.stderr
    r = run(BUILD, '--project', release, '--or-stock', '--quiet', env=env)
    assert r.returncode == 0, r.stderr
    base = conflib.Base(r.stdout.strip())
    assert os.access(base.stock, os.X_OK)
    assert not os.path.exists(base.patched)
    assert base.stock.endswith('/stock/kconfig/conf')
    assert base.kind == 'crosstool-ng' and base.line == 'crosstool-ng'


def test_own_oldconfig_refuses_crosstool_ng(tmp_path):
    tree = tmp_path / 'ct'
    (tree / 'kconfig').mkdir(parents=True)
    (tree / 'kconfig' / 'conf.c').write_text('')
    (tree / 'kconfig' / 'Makefile.am').write_text('')
    r = run(conflib.script('own-oldconfig'), str(tree))
    assert r.returncode == 1 and r.stderr.count('\n') == 1, r.stderr
    assert "ct-ng's, which needs its own bootstrap" in r.stderr


NEW_LINES = ['6.6', '5.15', 'u-boot', 'buildroot', 'coreboot', 'crosstool-ng']


@pytest.mark.parametrize('line', NEW_LINES)
def test_another_release_is_checked_on_the_spot(tmp_path, line):
    """Another release of a new base (6.6.17 for 6.6: its SUBLEVEL
    changed; for each a comment added to conf.c, since sources identical
    to a listed release's are that release's, whatever their version
    says) gets the series of its base, which is checked on the spot and
    used.  6.6 in make check, each in make check-long."""
    from conftest import BASES, LONG
    if line != '6.6' and not LONG:
        pytest.skip('6.6 in make check; each base in check-long')
    base = next((b for b in BASES if b.line == line), None)
    if base is None:
        pytest.skip('no base of %s with a series built' % line)
    tree = tmp_path / 'tree'
    shutil.copytree(base.pristine, tree, symlinks=True)
    if base.kind == 'linux':
        mk = tree / 'Makefile'
        mk.write_text(re.sub(r'^SUBLEVEL = \d+', 'SUBLEVEL = 17',
                             mk.read_text(), flags=re.M))
        version = re.sub(r'\.\d+$', '.17', base.version)
    else:
        version = base.version
    with open(tree / base.kconfig_dir / 'conf.c', 'a') as f:
        f.write('/* another release */\n')
    env = dict(os.environ, BUILD_ROOT=str(tmp_path / 'b'))
    r = run(BUILD, '--kernel-src', str(tree), '--quiet', env=env)
    assert r.returncode == 0, r.stderr
    assert re.search(r" \(%s\): kconfig sources patches/known-bases does "
                     r"not know; patches/%s applies at fuzz 0 and passed the "
                     r"check on the spot: .*; using its patched conf$"
                     % (re.escape(str(tree)), re.escape(base.series)),
                     r.stderr, re.M), r.stderr
    if base.kind == 'linux':
        assert 'build: Linux %s (' % version in r.stderr
    assert os.access(os.path.join(r.stdout.strip(), 'patched',
                                  base.kconfig_dir, 'conf'), os.X_OK)


def stock_bases():
    from conftest import STOCK_BASES
    return STOCK_BASES


@pytest.mark.parametrize('stock_base', stock_bases(),
                         ids=[b.version for b in stock_bases()])
def test_random_trees_parse_on_a_stock_conf(stock_base, tmp_path):
    """On a base without its series yet (its stock conf alone), the random
    Kconfig trees of the campaigns parse cleanly (the features of its
    parser probed right: 4.17's and 4.20's too), and the campaign without
    '<' runs on it (stock against stock)."""
    import kconfig_gen
    features = kconfig_gen.probe(stock_base.stock)
    for seed in range(12):
        tree = kconfig_gen.generate(seed, features)
        src = tmp_path / str(seed)
        src.mkdir()
        tree.write(src)
        r = conflib.run_conf(stock_base.stock, '--oldconfig', 'Kconfig',
                             str(src), tmp_path, tree.config, b'',
                             kconfig_gen.clean_env(), timeout=10,
                             max_output=1 << 20)
        assert r.returncode == 0 and not kconfig_gen.PARSE_PROBLEM.search(
            r.stderr), 'tree %d: %s' % (seed, r.stderr[-500:])
    c = kconfig_gen.run_campaign(stock_base, range(12), 5, False,
                                 str(tmp_path),
                                 confs={'patched': stock_base.stock,
                                        'asan': stock_base.stock})
    assert c.runs >= 60 and not c.failures, c.report()
