# SPDX-License-Identifier: GPL-2.0
"""Without '<' in the input, the patched conf is indistinguishable from the
stock conf: same stdout, stderr, exit status, .config and auto.conf, in
every mode, for seeded random answer streams (valid and invalid answers,
'?', long lines, the end of the input at any point)."""

import random

import pytest

from conftest import seeds
import conflib


@pytest.mark.parametrize('mode', conflib.INTERACTIVE_MODES)
def test_demo_streams(base, demo, tmp_path, mode):
    kconfig, srctree, old = demo
    problem = conflib.compare_streams(base.stock, base.patched, mode, kconfig,
                                      srctree, tmp_path, old, seeds(100, 1000))
    assert problem is None


def test_demo_other_modes(base, demo, tmp_path):
    kconfig, srctree, old = demo
    for mode in conflib.other_modes(base.stock):
        diff, _ = conflib.compare(base.stock, base.patched, mode, kconfig,
                                  srctree, tmp_path, old, b'y\n')
        assert not diff, '%s: %s differ' % (mode, diff)


def test_upstream_fixtures(base, tmp_path):
    fixtures = base.fixtures()
    if not fixtures and base.kind in ('buildroot', 'coreboot',
                                      'crosstool-ng'):
        pytest.skip('%s keeps no kconfig suite' % base.version)
    # Linux's suite has 10 trees or more, U-Boot's (4.20's) 9
    assert len(fixtures) >= (10 if base.kind == 'linux' else 9)
    modes = conflib.INTERACTIVE_MODES + conflib.other_modes(base.stock)
    for name, path, cfg in fixtures:
        for mode in modes:
            n = 15 if mode in conflib.INTERACTIVE_MODES else 1
            problem = conflib.compare_streams(base.stock, base.patched, mode,
                                              'Kconfig', path, tmp_path, cfg,
                                              seeds(n, 10 * n))
            assert problem is None, name


def test_streams_exercise_conf(base, demo, tmp_path):
    """The streams reach what they are meant to: help, re-asked questions
    after invalid answers, and the end of the input."""
    kconfig, srctree, old = demo
    seen = set()
    for seed in range(100):
        data = conflib.random_stream(random.Random(seed))
        _, r = conflib.compare(base.stock, base.patched, '--oldconfig',
                               kconfig, srctree, tmp_path, old, data)
        if b'Error in reading or end of file' in r.stderr:
            seen.add('eof')
        if b'Symbol: ' in r.stdout:
            seen.add('help')
        if r.stdout.count(b'(LOG_BUF_SHIFT)') > 1:
            seen.add('reasked')
    assert seen == {'eof', 'help', 'reasked'}


def test_differential_catches_a_difference(series, demo, tmp_path):
    """The comparison is not vacuous: with '<' in the input, it differs."""
    kconfig, srctree, old = demo
    diff, _ = conflib.compare(series.stock, series.patched, '--oldconfig',
                              kconfig, srctree, tmp_path, old, b'foo\n<\n')
    assert 'stdout' in diff
