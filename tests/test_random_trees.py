# SPDX-License-Identifier: GPL-2.0
"""Random Kconfig trees (tests/kconfig_gen.py), each with an old .config,
and seeded sessions on them in oldconfig, oldaskconfig and syncconfig,
with KCONFIG_WERROR, KCONFIG_WARN_UNKNOWN_SYMBOLS and
KCONFIG_WARN_CHANGED_INPUT set at random:

- with '<': the exit status, .config, everything under include/ and the
  questions asked equal those of stock conf fed the answers that survived,
  and stdout after the last '<' is the end of what stock prints when given
  the same lines from there on;
- without '<': stdout, stderr, exit status, .config and include/ are those
  of stock conf, byte for byte.

Part of the sessions run the patched conf built with ASan and UBSan.  A
failure names the tree seed, the session seed, the mode and variables,
and a command that replays it."""


import pytest

from conftest import build_variant, seeds, ASAN_FLAGS
import conflib
import kconfig_gen

SESSIONS = 5    # per tree, with '<' and without


def trees(base):
    """The tree seeds: 60 trees of 5 sessions each (300 sessions of each
    campaign), 2000 in make check-long; 12 on a shallow base."""
    return seeds(60, 2000, base)


@pytest.fixture
def variants(series):
    """The variant of patched conf part of the sessions run: 'asan'."""
    build_variant(series, 'asan', '--cflags', ASAN_FLAGS)
    return series


@pytest.mark.shallow
def test_trees_parse(base, tmp_path):
    """Every tree parses cleanly with the base's stock conf (its features
    are probed right), and most ask oldconfig 5 to 40 questions."""
    features = kconfig_gen.probe(base.stock)
    bad = []
    asked = []
    for seed in trees(base):
        tree = kconfig_gen.generate(seed, features)
        src = tmp_path / str(seed)
        src.mkdir()
        tree.write(src)
        r = conflib.run_conf(base.stock, '--oldconfig', 'Kconfig', str(src),
                             tmp_path, tree.config, b'',
                             kconfig_gen.clean_env(), timeout=10,
                             max_output=1 << 20)
        if r.returncode or kconfig_gen.PARSE_PROBLEM.search(r.stderr):
            bad.append('tree %d: exit %d\n%s' % (
                seed, r.returncode, r.stderr.decode(errors='replace')[-500:]))
        asked.append(r.stderr.count(b'Error in reading or end of file'))
    assert not bad, '\n'.join(bad[:5])
    assert sum(5 <= n <= 40 for n in asked) >= len(asked) / 2, sorted(asked)


@pytest.mark.shallow
def test_back_sessions(variants, tmp_path):
    c = kconfig_gen.run_campaign(variants, trees(variants), SESSIONS, True,
                                 str(tmp_path))
    assert c.runs >= SESSIONS * len(trees(variants))
    assert not c.failures, c.report()
    # the sessions did go back, on both confs
    assert c.backs > c.runs and {'asan', 'patched'} <= set(c.by_conf)


@pytest.mark.shallow
def test_plain_sessions(variants, tmp_path):
    c = kconfig_gen.run_campaign(variants, trees(variants), SESSIONS, False,
                                 str(tmp_path))
    assert c.runs >= SESSIONS * len(trees(variants))
    assert not c.failures, c.report()


def test_campaign_catches_a_wrong_conf(series, tmp_path):
    """The campaign with '<' is not vacuous: the stock conf, which takes
    '<' as an invalid answer or a string, fails it."""
    features = kconfig_gen.probe(series.stock)
    failed = tried = 0
    for seed in range(10):
        tree = kconfig_gen.generate(seed, features)
        src = tmp_path / str(seed)
        src.mkdir()
        tree.write(src)
        spec = kconfig_gen.Spec(seed, seed, '--oldconfig', {}, 'stock', True,
                                0.3)
        problems, mine, _ = kconfig_gen.run_session(
            series, tree, spec, str(tmp_path), str(src),
            {'stock': series.stock})
        if mine is not None and '<' in [x.strip() for x in mine.sent]:
            tried += 1
            failed += bool(problems)
    assert tried >= 5 and failed >= 0.8 * tried
