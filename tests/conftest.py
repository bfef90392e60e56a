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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conflib  # noqa: E402

LONG = os.environ.get('KCONFIG_BACK_LONG') == '1'
BASES = conflib.built_bases()


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


@pytest.fixture(scope='session')
def demo():
    with open(os.path.join(conflib.DEMO, 'old.config'), 'rb') as f:
        old = f.read()
    return os.path.join(conflib.DEMO, 'Kconfig'), conflib.DEMO, old


def thin_config(cfg):
    """Debian's 6.1 config without one symbol in twenty (chosen by a hash of
    the name): run through 6.1's own oldconfig, it asks a few hundred NEW
    questions, as the 6.1 config does through 6.12's."""
    out = []
    for line in cfg.decode().splitlines(True):
        m = re.match(r'(?:# )?CONFIG_(\w+)[= ]', line)
        if m and zlib.crc32(m.group(1).encode()) % 20 == 0:
            continue
        out.append(line)
    return ''.join(out).encode()


class RealTree:
    """An unpacked kernel tree, the environment its make gives conf, and
    the built base of its version."""

    def __init__(self, path, env, base, thin):
        self.path = path
        self.env = env
        self.base = base
        self.thin = thin

    def old_config(self, flavour='amd64_none_amd64'):
        name = '/usr/src/linux-config-6.1/config.%s.xz' % flavour
        cfg = lzma.open(name).read()
        return thin_config(cfg) if self.thin else cfg


# Debian's 6.12 tree with Debian's 6.1 configs, and Debian's 6.1 tree
# with those configs thinned
REAL_TREES = {'6.12': ('linux-source-6.12', False),
              '6.1': ('linux-source-6.1', True)}


def real_tree_for(version, tmp_path_factory):
    name, thin = REAL_TREES[version]
    base = next((b for b in BASES if b.version.startswith(version + '.')),
                None)
    if base is None or not base.has_series:
        pytest.skip('no built base with a series for %s' % version)
    path = os.path.join(conflib.BUILD, 'src', name)
    if not os.path.isfile(os.path.join(path, 'Kconfig')):
        pytest.fail('no real tree at %s: run scripts/kernel-tree --debian %s'
                    % (path, version))
    envfile = tmp_path_factory.mktemp('env') / 'env'
    subprocess.run([os.path.join(conflib.TOP, 'scripts', 'oldconfig'),
                    '--print-env', str(envfile), path], check=True)
    env = dict(v.split('=', 1)
               for v in envfile.read_text().split('\0') if v)
    return RealTree(path, env, base, thin)


@pytest.fixture(scope='session', params=sorted(REAL_TREES))
def real(request, tmp_path_factory):
    """Each real tree with its base."""
    return real_tree_for(request.param, tmp_path_factory)


@pytest.fixture(scope='session')
def real612(tmp_path_factory):
    """The 6.12 tree, for what only runs there."""
    return real_tree_for('6.12', tmp_path_factory)
