# SPDX-License-Identifier: GPL-2.0
"""The patched conf built with -fsanitize=address,undefined runs the
'<' sessions, random input and the kconfig test suite without a report
(any report aborts conf; LeakSanitizer is on)."""

import os
import random
import shutil
import subprocess
import sys

import pytest

from conftest import build_variant, seeds, ASAN_FLAGS
from kconfig_gen import LSAN_SUPPRESSIONS
import conflib


@pytest.fixture(scope='module')
def asan(request):
    def build(base):
        return build_variant(base, 'asan', '--cflags', ASAN_FLAGS)
    return build


def clean(r):
    assert b'Sanitizer' not in r.stderr and b'runtime error' not in r.stderr


def test_sessions(series, demo, asan, tmp_path):
    conf = asan(series)
    kconfig, srctree, old = demo
    for mode in conflib.INTERACTIVE_MODES:
        for seed in seeds(10, 100):
            t, problems = conflib.check_equivalence(
                conf, series.stock, mode, kconfig, srctree, tmp_path, old,
                os.environ, seed, p_back=0.3)
            assert not problems
            clean(t.result)


def test_random_input(series, demo, asan, tmp_path):
    conf = asan(series)
    kconfig, srctree, old = demo
    for seed in seeds(40, 400):
        data = conflib.random_stream(random.Random(seed), 80, back=True)
        r = conflib.run_conf(conf, '--oldconfig', kconfig, srctree, tmp_path,
                             old, data)
        clean(r)
        assert r.returncode in (0, 1)


def test_kconfig_suite(series, asan, tmp_path):
    conf = asan(series)
    tree = tmp_path / 'tree'
    shutil.copytree(os.path.join(series.path, 'patched'), tree, symlinks=True)
    if not os.path.isdir(tree / series.kconfig_dir / 'tests'):
        pytest.skip('%s keeps no kconfig suite' % series.version)
    shutil.copy(conf, tree / series.kconfig_dir / 'conf')
    # 5.10's stock leak of its unmet dependency warning, which the '<'
    # cases show, as the other ASan runs take it
    env = dict(os.environ, LSAN_OPTIONS='suppressions=' + LSAN_SUPPRESSIONS)
    r = subprocess.run([sys.executable, '-B', '-m', 'pytest', '-q',
                        '-p', 'no:cacheprovider',
                        series.kconfig_dir + '/tests'],
                       cwd=tree, capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stdout[-3000:]


def test_real_session(real612, asan, tmp_path):
    conf = asan(real612.base)
    t, problems = conflib.check_equivalence(
        conf, real612.base.stock, '--oldconfig', 'Kconfig', real612.path,
        tmp_path, real612.old_config(), real612.env, 7, p_back=0.05,
        max_backs=40, timeout=900)
    assert not problems
    clean(t.result)
