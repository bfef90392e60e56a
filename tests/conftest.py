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


ASAN_FLAGS = ('-fsanitize=address,undefined -fno-sanitize-recover=all '
              '-fno-omit-frame-pointer -g')


def build_variant(base, name, *args):
    """Build a variant of a base's patched conf (scripts/build --variant
    NAME ARGS...) if it is not built yet; its path."""
    subprocess.run([os.path.join(conflib.TOP, 'scripts', 'build'), '--quiet',
                    '--kernel-src', base.env['SOURCE'], '--variant', name,
                    *args], check=True, capture_output=True)
    return base.conf(name)


def seeds(short, long):
    """Seeds for a scenario: SEEDS=N overrides, check-long uses more."""
    n = int(os.environ.get('SEEDS') or (long if LONG else short))
    return range(n)


def pytest_generate_tests(metafunc):
    if 'base' in metafunc.fixturenames:
        metafunc.parametrize('base', BASES, ids=[b.version for b in BASES])


def pytest_collection_modifyitems(config, items):
    if not BASES:
        raise pytest.UsageError('no built base under build/: run make check')


@pytest.fixture
def series(base):
    """A base whose series exists (the feature can be tested on it)."""
    if not base.has_series:
        pytest.skip('patches/%s has no patches yet' % base.series)
    return base


@pytest.fixture
def demo(base):
    """The demo's Kconfig in the syntax of the base's parser, its srctree
    and old .config."""
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
