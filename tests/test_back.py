# SPDX-License-Identifier: GPL-2.0
"""Going back with '<' is exact: a session with '<' ends with the same
.config, and asks the same questions in the same order, as the stock conf
fed only the answers that survived (seeded random sessions on the demo and
on the base's kconfig test trees, in oldconfig, oldaskconfig and
syncconfig).  And '<' never makes conf loop or lose input."""

import os
import random

import pytest

from conftest import seeds
import conflib


def equivalent(series, tmp_path, mode, kconfig, srctree, cfg, seed, **kw):
    t, problems = conflib.check_equivalence(
        series.patched, series.stock, mode, kconfig, srctree, tmp_path, cfg,
        os.environ, seed, **kw)
    assert not problems, 'seed %d: %s' % (seed, problems)
    return t


@pytest.mark.parametrize('mode', conflib.INTERACTIVE_MODES)
def test_demo_sessions(series, demo, tmp_path, mode):
    kconfig, srctree, old = demo
    backs = 0
    for seed in seeds(40, 400):
        t = equivalent(series, tmp_path, mode, kconfig, srctree, old, seed,
                       p_back=0.3)
        backs += t.backs
    assert backs > 100


def test_fixture_sessions(series, tmp_path):
    tried = 0
    for name, path, cfg in series.fixtures('patched'):
        for mode in ('--oldconfig', '--oldaskconfig'):
            for seed in seeds(5, 50):
                t = equivalent(series, tmp_path, mode, 'Kconfig', path, cfg,
                               seed, p_back=0.3)
                tried += bool(t.backs)
    assert tried > 20


def test_flood_of_back_ends_at_eof(series, demo, tmp_path):
    """Piped '<' lines, however many, end like any other input."""
    kconfig, srctree, old = demo
    for data in (b'<\n' * 5000, b'foo\n' + b'<\n' * 5000, b'<'):
        r = conflib.run_conf(series.patched, '--oldconfig', kconfig, srctree,
                             tmp_path, old, data, timeout=30)
        assert r.returncode == 0
        assert b'Error in reading or end of file' in r.stderr
    assert r.config is not None


def test_random_streams_with_back_terminate(series, demo, tmp_path):
    kconfig, srctree, old = demo
    for seed in seeds(100, 1000):
        data = conflib.random_stream(random.Random(seed), max_lines=80,
                                     back=True)
        for mode in conflib.INTERACTIVE_MODES:
            r = conflib.run_conf(series.patched, mode, kconfig, srctree,
                                 tmp_path, old, data, timeout=30)
            # an invalid int as the last, unterminated line stops conf
            # with an error, as it stops the stock conf
            assert r.returncode == 0 or (
                r.returncode == 1 and b'at end of input' in r.stderr), (
                seed, mode, r.stderr[-500:])


def test_equivalence_check_catches_a_wrong_undo(series, demo, tmp_path):
    """The equivalence check is not vacuous: the stock conf, which takes
    '<' as an invalid answer or as a string, fails it."""
    kconfig, srctree, old = demo
    failed = 0
    for seed in range(10):
        _, problems = conflib.check_equivalence(
            series.stock, series.stock, '--oldconfig', kconfig, srctree,
            tmp_path, old, os.environ, seed, p_back=0.3)
        failed += bool(problems)
    assert failed >= 8


def test_back_then_end_of_input(series, demo, tmp_path):
    """'<' and then the end of the input: the usual defaults apply, as in
    the stock conf fed the answers that survived, not the undone answers
    that the questions offer again."""
    kconfig, srctree, old = demo
    for typed, survived in ((b'myhost\n<\n', b''),
                            (b'myhost\n20\n<\n<\n', b''),
                            (b'myhost\n20\n<\n', b'myhost\n')):
        r = conflib.run_conf(series.patched, '--oldconfig', kconfig, srctree,
                             tmp_path, old, typed)
        s = conflib.run_conf(series.stock, '--oldconfig', kconfig, srctree,
                             tmp_path, old, survived)
        assert (r.returncode, r.config) == (s.returncode, s.config), typed
        assert b'myhost' in r.stdout


def test_back_recalculates_the_question(series, tmp_path):
    """Going back two questions to B, whose visibility the answer to the
    later question A took away (and D, calculated after it, saw): B is
    asked as it was, not with the visibility calculated after A."""
    (tmp_path / 'Kconfig').write_text(
        'config B\n\tbool "B"\n\tdepends on A\n\n'
        'config A\n\tbool "A"\n\tdefault y\n\n'
        'config D\n\tbool "D"\n\tdepends on B\n\n'
        'config C\n\tbool "C"\n')
    work = tmp_path / 'work'
    work.mkdir()
    t, problems = conflib.check_equivalence(
        series.patched, series.stock, '--oldconfig', 'Kconfig', tmp_path,
        work, None, os.environ, 0, p_back=0,
        script=['y', 'n', '<', '<', 'y', '', 'y', ''])
    assert t.backs == 2 and not problems, problems
    assert b'B (B) [Y/n/?] (NEW) y\nA (A)' in t.result.stdout
