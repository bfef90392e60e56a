# SPDX-License-Identifier: GPL-2.0
"""Fixtures: the built bases (build/<version>), the demo, a real kernel
tree with the environment its make gives conf, and seed counts."""

import lzma
import os
import subprocess
import sys

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


class RealTree:
    """An unpacked kernel tree and the environment its make gives conf."""

    def __init__(self, path, env):
        self.path = path
        self.env = env

    def old_config(self, flavour='amd64_none_amd64', version='6.1'):
        name = '/usr/src/linux-config-%s/config.%s.xz' % (version, flavour)
        return lzma.open(name).read()


@pytest.fixture(scope='session')
def real_tree(tmp_path_factory):
    path = os.path.join(conflib.BUILD, 'src', 'linux-source-6.12')
    if not os.path.isfile(os.path.join(path, 'Kconfig')):
        pytest.fail('no real tree at %s: run scripts/kernel-tree' % path)
    envfile = tmp_path_factory.mktemp('env') / 'env'
    subprocess.run([os.path.join(conflib.TOP, 'scripts', 'oldconfig'),
                    '--print-env', str(envfile), path], check=True)
    env = dict(v.split('=', 1)
               for v in envfile.read_text().split('\0') if v)
    return RealTree(path, env)


@pytest.fixture
def real_base():
    """The built base of the real tree's version."""
    for b in BASES:
        if b.version.startswith('6.12.'):
            if not b.has_series:
                pytest.skip('patches/%s has no patches yet' % b.series)
            return b
    pytest.fail('the 6.12 base is not built: run make check')
