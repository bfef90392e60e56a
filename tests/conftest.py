# SPDX-License-Identifier: GPL-2.0
"""Fixtures: the built bases (build/<version>), the demo, a real kernel
tree with the environment its make gives conf, and seed counts."""

import lzma
import os
import re
import subprocess
import sys
import zlib

import pytest

# conflib lives with the check on the spot, in verify/
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'verify'))
import conflib  # noqa: E402

LONG = os.environ.get('KCONFIG_BACK_LONG') == '1'
BASES = conflib.built_bases()
# the bases built without a series yet (scripts/build --stock-only): only
# what runs on a stock conf alone runs on them (tests/test_projects.py)
STOCK_BASES = conflib.built_bases(stock_only=True)

# The depth of each base in make check, by its line (conflib.Base.line:
# X.Y of Linux, the project of another tree): 'full' runs every test at its
# depth; 'shallow' only the tests marked @pytest.mark.shallow (the build,
# the kconfig suite, the random-tree campaigns at a fifth of their size
# and one real session), so that make check fits in CI's time with every
# base.  make check-long (KCONFIG_BACK_LONG=1) runs every base at full
# depth, and KCONFIG_BACK_DEPTH=full make check too.  A base not named here
# (a KERNEL_SRC tree of a line of its own) is tested at full depth.
# Adding a base: one line here (and its tree in scripts/lib.sh).
DEPTH = {
    '7.3': 'full',
    '6.12': 'full',
    '7.2': 'shallow',
    '6.1': 'shallow',
    '5.10': 'shallow',
    '6.6': 'shallow',
    '5.15': 'shallow',
    'u-boot': 'shallow',
    'buildroot': 'shallow',
    'coreboot': 'shallow',
    'crosstool-ng': 'shallow',
}


def shallow(base):
    """Whether a base (a conflib.Base, or its line) is tested shallow."""
    if LONG or os.environ.get('KCONFIG_BACK_DEPTH') == 'full':
        return False
    line = base if isinstance(base, str) else base.line
    return DEPTH.get(line, 'full') == 'shallow'


ASAN_FLAGS = ('-fsanitize=address,undefined -fno-sanitize-recover=all '
              '-fno-omit-frame-pointer -g')


def build_variant(base, name, *args):
    """Build a variant of a base's patched conf (scripts/build --variant
    NAME ARGS...) if it is not built yet; its path."""
    subprocess.run([os.path.join(conflib.TOP, 'scripts', 'build'), '--quiet',
                    *base.source_args, '--variant', name, *args],
                   check=True, capture_output=True)
    return base.conf(name)


def seeds(short, long, base=None):
    """Seeds for a scenario: SEEDS=N overrides, check-long uses more; a
    shallow base (or line) a fifth of short, at least one."""
    if os.environ.get('SEEDS'):
        n = int(os.environ['SEEDS'])
    elif LONG:
        n = long
    elif base is not None and shallow(base):
        n = max(1, short // 5)
    else:
        n = short
    return range(n)


def pytest_configure(config):
    config.addinivalue_line(
        'markers', 'shallow(**params): the test runs on a shallow base too '
        '(tests/conftest.py: DEPTH); with params, only its items with those '
        'parameters do')


def pytest_generate_tests(metafunc):
    if 'base' in metafunc.fixturenames:
        metafunc.parametrize('base', BASES, ids=[b.version for b in BASES])


def item_line(item):
    """The line of the base an item runs on (its base, or its real tree's
    version), or None for a test that runs once."""
    params = getattr(getattr(item, 'callspec', None), 'params', {})
    if isinstance(params.get('base'), conflib.Base):
        return params['base'].line
    # the real trees (of the tests on them, and of the journal's) and the
    # projects are named by their line
    for name in ('real', 'real_journal', 'project'):
        if isinstance(params.get(name), str):
            return params[name]
    return None


def pytest_collection_modifyitems(config, items):
    if not BASES and not STOCK_BASES:
        raise pytest.UsageError('no built base under build/: run make check')
    # a shallow base runs only the tests marked shallow (and of those
    # with parameters, the items that have them)
    keep, dropped = [], []
    for item in items:
        line = item_line(item)
        if line is not None and shallow(line):
            mark = item.get_closest_marker('shallow')
            params = item.callspec.params
            if mark is None or any(params.get(k) != v
                                   for k, v in mark.kwargs.items()):
                dropped.append(item)
                continue
        keep.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


@pytest.fixture
def series(base):
    """A base whose series exists (the feature can be tested on it)."""
    if not base.has_series:
        pytest.skip('patches/%s has no patches yet' % base.series)
    return base


@pytest.fixture
def demo(base, monkeypatch):
    """The demo's Kconfig in the syntax of the base's parser, its srctree
    and old .config.  That .config names CONFIG_* symbols: the conf of
    Buildroot (no prefix) and of crosstool-ng (CT_) take the prefix that
    the variable CONFIG_ names, as Linux's does; KCONFIG_AUTOCONFIG is
    Linux's default, which Buildroot's conf does not have."""
    monkeypatch.setenv('CONFIG_', 'CONFIG_')
    if 'KCONFIG_AUTOCONFIG' not in os.environ:
        monkeypatch.setenv('KCONFIG_AUTOCONFIG', 'include/config/auto.conf')
    with open(os.path.join(conflib.DEMO, 'old.config'), 'rb') as f:
        old = f.read()
    return conflib.demo_kconfig(base.path), conflib.DEMO, old


def thin_config(cfg):
    """A Debian config without one symbol in twenty (chosen by a hash of
    the name): run through 6.1's own oldconfig, it asks a few hundred NEW
    questions, as the 6.1 config does through 6.12's."""
    out = []
    for line in cfg.decode().splitlines(True):
        m = re.match(r'(?:# )?CONFIG_(\w+)[= ]', line)
        if m and zlib.crc32(m.group(1).encode()) % 20 == 0:
            continue
        out.append(line)
    return ''.join(out).encode()


def debian_config(version, flavour):
    """Debian's config of a flavour, from linux-config-VERSION (installed,
    or unpacked under build/debian by scripts/install-deps --test)."""
    for root in ('/usr/src', os.path.join(conflib.BUILD, 'debian', 'root',
                                          'usr', 'src')):
        name = os.path.join(root, 'linux-config-' + version,
                            'config.%s.xz' % flavour)
        if os.path.isfile(name):
            return lzma.open(name).read()
    pytest.fail('no %s config of %s: run scripts/install-deps --test'
                % (flavour, version))


class RealTree:
    """An unpacked kernel tree, the environment its make gives conf, the
    built base of its version, and the old configs it is given."""

    def __init__(self, path, env, base, olds):
        self.path = path
        self.env = env
        self.base = base
        self.olds = olds

    def old_source(self, flavour='amd64_none_amd64'):
        """(Debian version of the config, its flavour name there, thinned)
        for a flavour named as in linux-config-6.1."""
        if flavour in self.olds:
            return self.olds[flavour]
        version, thin = self.olds[None]
        return version, flavour, thin

    def old_config(self, flavour='amd64_none_amd64'):
        version, name, thin = self.old_source(flavour)
        cfg = debian_config(version, name)
        return thin_config(cfg) if thin else cfg

    @property
    def thin(self):
        """Whether the default flavour's old config is thinned."""
        return self.old_source()[2]


# Each real tree and its old configs, by flavour (None: any other flavour,
# from the same Debian version under the same name): Debian's 6.12 tree
# with Debian's 6.1 configs (about 540 NEW questions); Debian's 6.1 tree
# with those configs thinned (a few hundred); Debian's 7.2 tree with
# Debian's 6.12 configs; Debian's 7.3 tree with the 6.1, 6.12 and its own
# (thinned) configs; Debian's 5.10 tree with its own configs thinned.
REAL_TREES = {
    '6.12': ('linux-source-6.12', {None: ('6.1', False)}),
    '5.10': ('linux-source-5.10', {None: ('5.10', True)}),
    '6.1': ('linux-source-6.1', {None: ('6.1', True)}),
    '7.2': ('linux-source-7.2', {None: ('6.12', False)}),
    '7.3': ('linux-source-7.3', {
        None: ('6.1', False),
        'amd64_none_cloud-amd64': ('6.12', 'amd64_none_cloud-amd64', False),
        'amd64_rt_amd64': ('7.3', 'amd64_none_rt-amd64', True)}),
}


def tree_version(path):
    """"6.12.118" from a kernel tree's top Makefile."""
    v = {}
    with open(os.path.join(path, 'Makefile')) as f:
        for line in f:
            k, sep, val = line.partition('=')
            if sep and k.strip() in ('VERSION', 'PATCHLEVEL', 'SUBLEVEL',
                                     'EXTRAVERSION'):
                v.setdefault(k.strip(), val.strip())
    return '%s.%s.%s%s' % (v['VERSION'], v['PATCHLEVEL'], v['SUBLEVEL'],
                           v.get('EXTRAVERSION', ''))


def real_tree_for(version, tmp_path_factory):
    name, olds = REAL_TREES[version]
    if not any(b.version.startswith(version + '.') and b.has_series
               for b in BASES):
        pytest.skip('no built base with a series for %s' % version)
    path = os.path.join(conflib.BUILD, 'src', name)
    if not os.path.isfile(os.path.join(path, 'Kconfig')):
        pytest.fail('no real tree at %s: run scripts/kernel-tree --debian %s'
                    % (path, version))
    # the built base of exactly the tree's version (an older build of the
    # same series, e.g. 7.3.0-rc7 beside 7.3.4, is not that tree's)
    base = next((b for b in BASES if b.version == tree_version(path)), None)
    if base is None:
        pytest.fail('the tree at %s is %s, and %s is not built: run make check'
                    % (path, tree_version(path), tree_version(path)))
    envfile = tmp_path_factory.mktemp('env') / 'env'
    subprocess.run([os.path.join(conflib.TOP, 'scripts', 'oldconfig'),
                    '--print-env', str(envfile), path], check=True)
    env = dict(v.split('=', 1)
               for v in envfile.read_text().split('\0') if v)
    return RealTree(path, env, base, olds)


@pytest.fixture(scope='session', params=sorted(REAL_TREES))
def real(request, tmp_path_factory):
    """Each real tree with its base."""
    return real_tree_for(request.param, tmp_path_factory)


@pytest.fixture(scope='session')
def real612(tmp_path_factory):
    """The 6.12 tree, for what only runs there."""
    return real_tree_for('6.12', tmp_path_factory)
