# SPDX-License-Identifier: GPL-2.0
"""KCONFIG_JOURNAL on the real tree: a session killed with SIGKILL at any
point and resumed with the same journal ends like the uninterrupted one;
a journal answers another flavour's questions; the journal is a .config
fragment for KCONFIG_ALLCONFIG and merge_config.sh; bad journals give their
documented messages and lose nothing."""

import os
import random
import shutil
import subprocess

import pytest

from conftest import seeds
import conflib


@pytest.fixture
def series(base):
    """A base whose series has the journal (patches/<series>/journal)."""
    if not base.has_journal:
        pytest.skip('patches/%s has no journal series' % base.series)
    return base


def fresh(tmp_path, name, old):
    d = tmp_path / name
    d.mkdir()
    (d / '.config').write_bytes(old)
    return d


def session(tree, d, person, kill_after=None, sent=None):
    env = dict(tree.env, KCONFIG_JOURNAL=str(d / 'journal'))
    s, killed = conflib.person_session(tree.base.patched, person, 'Kconfig',
                                       tree.path, str(d), env, kill_after,
                                       sent=sent)
    return s, killed


def test_kill_and_resume(real, tmp_path):
    old = real.old_config()
    for seed in seeds(1, 10):
        ref = fresh(tmp_path, 'ref%d' % seed, old)
        sent = []
        s, _ = session(real, ref, conflib.Person(seed),
                       sent=sent)
        assert s.p.returncode == 0
        assert sent.count('<') >= 5
        want = (ref / '.config').read_bytes()
        rng = random.Random(seed)
        # kill points: random ones, right after a '<' and right after a
        # mistake (the answer before a '<')
        backs = [i + 1 for i, line in enumerate(sent) if line == '<']
        points = [rng.randrange(1, len(sent)), rng.choice(backs),
                  rng.choice(backs) - 1]
        for kill in points:
            d = fresh(tmp_path, 'kill%d-%d' % (seed, kill), old)
            person = conflib.Person(seed)
            s, killed = session(real, d, person, kill)
            assert killed
            # the journal is whole after the kill: every line an answer
            lines = (d / 'journal').read_text().splitlines()
            assert lines[0].startswith('# KCONFIG_JOURNAL:')
            assert all(l.startswith(('CONFIG_', '# CONFIG_')) for l in lines[2:])
            assert (d / '.config').read_bytes() == old
            s, killed = session(real, d, person)
            assert not killed and s.p.returncode == 0
            assert (d / '.config').read_bytes() == want, 'seed %d, killed after %d' % (seed, kill)
            assert (d / 'journal').read_bytes() == (ref / 'journal').read_bytes()


def test_reuse_on_another_flavour(real612, tmp_path):
    """A journal made with the generic amd64 config answers the cloud
    flavour's oldconfig: the questions it has answers for are not asked,
    and the answers never asked for are reported by name."""
    x86 = fresh(tmp_path, 'x86', real612.old_config('amd64_none_amd64'))
    s, _ = session(real612, x86, conflib.Person(5))
    assert s.p.returncode == 0
    journal = (x86 / 'journal').read_text()
    answered = {l.split('=')[0][len('CONFIG_'):] if not l.startswith('#')
                else l.split()[1][len('CONFIG_'):]
                for l in journal.splitlines()[2:]}
    cloud = fresh(tmp_path, 'cloud', real612.old_config('amd64_none_cloud-amd64'))
    shutil.copy(x86 / 'journal', cloud / 'journal')
    asked = []

    class Recorder(conflib.Person):
        def answer(self, q):
            asked.append(q.key)
            return super().answer(q)

    s, _ = session(real612, cloud, Recorder(6, p_mistake=0))
    assert s.p.returncode == 0
    out = s.out.decode()
    err = s.err.decode()
    used = out.count('  # %s:' % (cloud / 'journal'))
    refused = err.count('here, asking')
    waited = [k[1] for k in asked if k[0] == 'sym']
    assert used > 100
    # a question with an answer in the journal waits only if refused
    assert len([k for k in waited if k in answered]) == refused
    report = [l for l in err.splitlines() if 'not asked for:' in l]
    assert len(report) == 1
    names = report[0].split('not asked for:')[1].split()
    assert int(report[0].split(': ')[1].split()[0]) == len(names)
    assert names and all(n[len('CONFIG_'):] in answered for n in names)
    for n in names:
        assert n + '=' in out or '(%s)' % n[len('CONFIG_'):] not in out


@pytest.mark.parametrize('how', ['merge_config.sh -m, olddefconfig',
                                 'merge_config.sh (KCONFIG_ALLCONFIG)',
                                 'KCONFIG_ALLCONFIG, alldefconfig'])
def test_journal_is_a_config_fragment(real612, tmp_path, how):
    """The old .config with the journal on top gives the session's .config:
    merged by merge_config.sh, or given to KCONFIG_ALLCONFIG."""
    old = real612.old_config()
    d = fresh(tmp_path, 'session', old)
    s, _ = session(real612, d, conflib.Person(9))
    assert s.p.returncode == 0
    want = (d / '.config').read_bytes()
    if how.startswith('KCONFIG_ALLCONFIG'):
        (d / 'all.config').write_bytes(old + (d / 'journal').read_bytes())
        r = conflib.run_conf(real612.base.patched, '--alldefconfig', 'Kconfig',
                             real612.path, tmp_path, None, b'',
                             dict(real612.env, KCONFIG_ALLCONFIG=str(d / 'all.config')))
        assert r.returncode == 0 and r.config == want
        return
    tree = tmp_path / 'linux'
    subprocess.run(['cp', '-al', real612.path, str(tree)], check=True)
    env = {k: v for k, v in os.environ.items()
           if k not in ('MAKEFLAGS', 'MAKELEVEL', 'MFLAGS', 'MAKEOVERRIDES')}
    (tree / 'old.config').write_bytes(old)
    merge = ['scripts/kconfig/merge_config.sh']
    if how.startswith('merge_config.sh -m'):
        merge.append('-m')
    r = subprocess.run(merge + ['old.config', str(d / 'journal')], cwd=tree,
                       env=env, capture_output=True)
    assert r.returncode == 0, r.stderr[-2000:]
    if how.startswith('merge_config.sh -m'):
        r = subprocess.run(['make', '-s', 'olddefconfig'], cwd=tree, env=env,
                           capture_output=True)
        assert r.returncode == 0
    assert (tree / '.config').read_bytes() == want
    shutil.rmtree(tree)


# ---------------------------------------------------------------------------
# Bad journals, on the demo: the documented message, and nothing lost

def demo_run(series, demo, tmp_path, journal, data=b'\n' * 40):
    kconfig, srctree, old = demo
    env = dict(os.environ, KCONFIG_JOURNAL=str(journal))
    return conflib.run_conf(series.patched, '--oldconfig', kconfig, srctree,
                            tmp_path, old, data, env)


def test_unwritable_path(series, demo, tmp_path):
    """A journal that cannot be written stops conf before the first
    question, with the reason."""
    r = demo_run(series, demo, tmp_path, '/sys/kconfig-journal')
    assert r.returncode == 1
    assert r.stderr == (b'/sys/kconfig-journal: error: cannot write the '
                        b'answers: Permission denied\n')
    assert b'(NEW)' not in r.stdout and r.config == demo[2]
    bad = tmp_path / 'a-file'
    bad.write_text('x')
    r = demo_run(series, demo, tmp_path, bad / 'journal')
    assert r.returncode == 1
    assert r.stderr == ('%s/journal: error: cannot read the answers: Not a '
                        'directory\n' % bad).encode()
    assert b'(NEW)' not in r.stdout and bad.read_text() == 'x'


def test_directory_as_path(series, demo, tmp_path):
    (tmp_path / 'dir').mkdir()
    r = demo_run(series, demo, tmp_path, tmp_path / 'dir')
    assert r.returncode == 1
    assert r.stderr == ('%s/dir: error: cannot read the answers: Is a '
                        'directory\n' % tmp_path).encode()
    assert b'(NEW)' not in r.stdout


def test_empty_file(series, demo, tmp_path):
    j = tmp_path / 'journal'
    j.write_text('')
    r = demo_run(series, demo, tmp_path, j)
    assert r.returncode == 0 and r.stderr == b''
    assert j.read_text().startswith('# KCONFIG_JOURNAL:')
    assert 'CONFIG_DEFAULT_HOSTNAME="(none)"\n' in j.read_text()


def test_binary_garbage(series, demo, tmp_path):
    j = tmp_path / 'journal'
    garbage = bytes(random.Random(1).randrange(256) for _ in range(5000))
    j.write_bytes(garbage + b'\nCONFIG_LOG_BUF_SHIFT=14\n')
    r = demo_run(series, demo, tmp_path, j)
    assert r.returncode == 0
    assert b'journal:1: ' in r.stderr and b'kept as it is' in r.stderr
    assert b'(LOG_BUF_SHIFT) [17] (NEW) 14  # ' in r.stdout
    text = j.read_bytes()
    # the garbage is kept for the user, after the answers in force
    assert garbage in text and text.index(b'# not asked yet:') < text.index(garbage)


def test_line_over_the_buffer_size(series, demo, tmp_path):
    j = tmp_path / 'journal'
    long = 'CONFIG_LOCALVERSION="%s"\n' % ('x' * 70000)
    j.write_text(long + 'CONFIG_LOG_BUF_SHIFT=14\n')
    r = demo_run(series, demo, tmp_path, j)
    assert r.returncode == 0
    assert ('%s:1: not a line of text, kept as it is' % j).encode() in r.stderr
    assert b'(LOG_BUF_SHIFT) [17] (NEW) 14  # ' in r.stdout
    assert long in j.read_text()


def test_journal_from_another_version(series, demo, tmp_path):
    j = tmp_path / 'journal'
    j.write_text('# KCONFIG_JOURNAL: the answers, in the order given\n'
                 '# Linux/x86 6.1.192 Kernel Configuration\n'
                 'CONFIG_LOG_BUF_SHIFT=14\nCONFIG_GONE=y\n')
    r = demo_run(series, demo, tmp_path, j)
    assert r.returncode == 0
    assert ('%s:2: the answers were given to "Linux/x86 6.1.192 Kernel '
            'Configuration", this is "Demo kernel configuration"' % j).encode() in r.stderr
    assert ('%s:4: CONFIG_GONE is not a symbol here, kept as it is' % j).encode() in r.stderr
    assert b'(LOG_BUF_SHIFT) [17] (NEW) 14  # ' in r.stdout
    assert 'CONFIG_GONE=y\n' in j.read_text()


def test_without_journal_nothing_changes(series, demo, tmp_path):
    """KCONFIG_JOURNAL unset or empty: no file, output as without it."""
    kconfig, srctree, old = demo
    data = b'foo\n<\n\n3\n'
    plain = conflib.run_conf(series.patched, '--oldconfig', kconfig, srctree,
                             tmp_path, old, data)
    empty = conflib.run_conf(series.patched, '--oldconfig', kconfig, srctree,
                             tmp_path, old, data,
                             dict(os.environ, KCONFIG_JOURNAL=''))
    assert not plain.differences(empty)


def test_fresh_journal_changes_nothing_else(series, demo, tmp_path):
    """With a new journal, conf says and writes exactly what it does
    without one, '<' included."""
    kconfig, srctree, old = demo
    for seed in seeds(30, 300):
        data = conflib.random_stream(random.Random(seed), 60, back=True)
        j = tmp_path / 'journal'
        if j.exists():
            j.unlink()
        plain = conflib.run_conf(series.patched, '--oldconfig', kconfig,
                                 srctree, tmp_path, old, data)
        with_j = conflib.run_conf(series.patched, '--oldconfig', kconfig,
                                  srctree, tmp_path, old, data,
                                  dict(os.environ, KCONFIG_JOURNAL=str(j)))
        assert not plain.differences(with_j), seed
        assert j.read_text().startswith('# KCONFIG_JOURNAL:')
