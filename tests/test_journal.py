# SPDX-License-Identifier: GPL-2.0
"""KCONFIG_JOURNAL: string answers survive kills and resumes byte for byte;
a session killed with SIGKILL at seeded points of a real tree (right after
a '<' too) and resumed with the same journal ends with the same .config as
the uninterrupted one; planted symbolic links are refused and their targets
untouched; a second session on a journal is refused; Ctrl-D journals no
default; a journal copied for another flavour leaves the original alone."""

import fcntl
import os
import random
import re
import shutil

import pytest

from conftest import BASES, REAL_TREES, seeds, real_tree_for
import conflib


@pytest.fixture
def series(base):
    """A base whose series has the journal (patches/<series>/journal)."""
    if not base.has_journal:
        pytest.skip('patches/%s has no journal series' % base.series)
    return base


@pytest.fixture(scope='module', params=sorted(REAL_TREES))
def real_journal(request, tmp_path_factory):
    """Each real tree whose base has a journal series."""
    version = request.param
    base = next((b for b in BASES if b.version.startswith(version + '.')),
                None)
    if base is None or not base.has_journal:
        pytest.skip('no built base with a journal series for %s' % version)
    return real_tree_for(version, tmp_path_factory)


def fresh(tmp_path, name, old):
    d = tmp_path / name
    d.mkdir()
    if old is not None:
        (d / '.config').write_bytes(old)
    return d


def drive(conf, kconfig, srctree, d, env, answer, kill_after=None,
          timeout=300):
    """conf --oldconfig in d on d's .config, answer(q) giving each line;
    SIGKILL right after the kill_after-th line.  Returns (Session, killed)."""
    s = conflib.start(conf, '--oldconfig', kconfig, srctree, str(d), None,
                      env, timeout, fresh=False)
    n = 0
    for q in s.questions():
        s.send(answer(q))
        n += 1
        if kill_after is not None and n >= kill_after:
            s.kill()
            return s, True
    return s, False


def with_journal(env, d):
    return dict(env, KCONFIG_JOURNAL=str(d / 'journal'))


# ---------------------------------------------------------------------------
# Strings: any value, through three kills and resumes

NAMES = ['S%d' % i for i in range(12)]
ALPHABET = ['"', '\\', '#', '=', ' ', "'", '$', '`', 'a', 'Z', '0', '<',
            '?', '\u00e9', '\u65e5', '\u20ac', '\U0001F600', '\\"', '\\\\']


def string_tree(tmp_path):
    d = tmp_path / 'strings'
    d.mkdir()
    (d / 'Kconfig').write_text(''.join(
        'config %s\n\tstring "%s"\n\tdefault "d%d"\n\n' % (n, n, i)
        for i, n in enumerate(NAMES)))
    return d


def random_value(rng):
    """A value that can be typed: not empty (Enter keeps the default), not
    just '?' (help), not '<' with blanks (going back), at most 2 KB."""
    size = rng.choice([1, 2, 3, 8, 40, 600, 2040])
    v = ''
    while len((v + 'x').encode()) <= size:
        v += rng.choice(ALPHABET)
    v = v or 'x'
    if v == '?' or v.strip(' \t') == '<':
        v += 'x'
    return v


def unquote(value):
    assert value[0] == '"' and value[-1] == '"'
    return re.sub(r'\\(.)', r'\1', value[1:-1])


def test_strings_survive_three_kills(series, tmp_path):
    tree = string_tree(tmp_path)
    kconfig = str(tree / 'Kconfig')
    env = dict(os.environ)
    for seed in seeds(6, 40):
        rng = random.Random(seed)
        values = {n: random_value(rng) for n in NAMES}

        def answer(q):
            return values[q.key[1]]

        ref = fresh(tmp_path, 'ref%d' % seed, None)
        s, _ = drive(series.patched, kconfig, str(tree), ref, env, answer)
        assert s.p.returncode == 0
        want = (ref / '.config').read_bytes()
        got = {}
        for line in want.decode().splitlines():
            if line.startswith('CONFIG_'):
                name, _, value = line[len('CONFIG_'):].partition('=')
                got[name] = unquote(value)
        assert got == values, seed

        d = fresh(tmp_path, 'killed%d' % seed, None)
        env_j = with_journal(env, d)
        for cycle in range(3):
            s, killed = drive(series.patched, kconfig, str(tree), d, env_j,
                              answer, rng.randrange(1, 4))
            assert killed, (seed, cycle)
            assert not (d / '.config').exists()
        s, killed = drive(series.patched, kconfig, str(tree), d, env_j,
                          answer)
        assert not killed and s.p.returncode == 0
        assert (d / '.config').read_bytes() == want, seed
        assert 'Answers taken from %s' % (d / 'journal') in s.out.decode()


# ---------------------------------------------------------------------------
# On the demo: symbolic links, two sessions, Ctrl-D, nothing asked

def demo_env(journal):
    return dict(os.environ, KCONFIG_JOURNAL=str(journal))


def demo_run(series, demo, tmp_path, journal, data=b'\n' * 40):
    kconfig, srctree, old = demo
    return conflib.run_conf(series.patched, '--oldconfig', kconfig, srctree,
                            tmp_path, old, data, demo_env(journal))


@pytest.mark.parametrize('dangling', [False, True])
def test_planted_symlink(series, demo, tmp_path, dangling):
    """A symbolic link at the journal's name is refused before the first
    question; its target is neither written nor created.  Links at names
    near it (a temporary file of an older design) are never opened."""
    target = tmp_path / 'target'
    if not dangling:
        target.write_bytes(b'precious\n')
    journal = tmp_path / 'journal'
    journal.symlink_to(target)
    r = demo_run(series, demo, tmp_path, journal)
    assert r.returncode == 1
    assert r.stderr == ('%s: error: a symbolic link, not followed\n'
                        % journal).encode()
    assert b'(NEW)' not in r.stdout and r.config == demo[2]
    assert target.exists() != dangling
    if not dangling:
        assert target.read_bytes() == b'precious\n'
    journal.unlink()
    for other in ('journal.new', 'journal.tmp', 'journal~'):
        (tmp_path / other).symlink_to(target)
    r = demo_run(series, demo, tmp_path, journal)
    assert r.returncode == 0 and journal.is_file()
    assert target.exists() != dangling
    if not dangling:
        assert target.read_bytes() == b'precious\n'


def test_mode_and_owner_kept(series, demo, tmp_path):
    journal = tmp_path / 'journal'
    journal.write_bytes(b'')
    os.chmod(journal, 0o640)
    r = demo_run(series, demo, tmp_path, journal, b'myhost\n' + b'\n' * 40)
    assert r.returncode == 0
    assert os.stat(journal).st_mode & 0o777 == 0o640
    assert b'CONFIG_DEFAULT_HOSTNAME="myhost"\n' in journal.read_bytes()


def test_two_sessions(series, demo, tmp_path):
    """While one session waits at a question, a second one on the same
    journal is refused before its first question; the first loses
    nothing."""
    kconfig, srctree, old = demo
    journal = tmp_path / 'journal'
    a_dir = fresh(tmp_path, 'a', old)
    first = conflib.start(series.patched, '--oldconfig', kconfig, srctree,
                          str(a_dir), None, demo_env(journal), 60,
                          fresh=False)
    q = next(first.questions())
    first.send('host-a')
    next(first.questions())
    b_dir = fresh(tmp_path, 'b', old)
    r = conflib.run_conf(series.patched, '--oldconfig', kconfig, srctree,
                         b_dir, old, b'host-b\n' + b'\n' * 40,
                         demo_env(journal))
    assert r.returncode == 1
    assert r.stderr == ('%s: error: in use by another conf\n'
                        % journal).encode()
    assert b'(NEW)' not in r.stdout
    assert q.key == ('sym', 'DEFAULT_HOSTNAME')
    first.send('15')
    assert first.close() == 0
    assert journal.read_bytes() == (b'CONFIG_DEFAULT_HOSTNAME="host-a"\n'
                                    b'CONFIG_LOG_BUF_SHIFT=15\n')


def test_end_of_input_journals_no_default(series, demo, tmp_path):
    """Piped input that ends, and Ctrl-D on a terminal: the defaults
    taken then are not answers."""
    journal = tmp_path / 'journal'
    r = demo_run(series, demo, tmp_path, journal, b'myhost\n14\n')
    assert r.returncode == 0
    assert journal.read_bytes() == (b'CONFIG_DEFAULT_HOSTNAME="myhost"\n'
                                    b'CONFIG_LOG_BUF_SHIFT=14\n')
    pexpect = pytest.importorskip('pexpect')
    kconfig, srctree, old = demo
    journal.unlink()
    d = fresh(tmp_path, 'tty', old)
    env = dict(demo_env(journal), srctree=srctree, KCONFIG_DEFCONFIG_LIST='')
    child = pexpect.spawn(series.patched, ['--oldconfig', kconfig],
                          cwd=str(d), env=env, timeout=30)
    child.expect_exact('(DEFAULT_HOSTNAME) [(none)] (NEW) ')
    child.sendline('tty-host')
    child.expect_exact('(LOG_BUF_SHIFT) [17] (NEW) ')
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert journal.read_bytes() == b'CONFIG_DEFAULT_HOSTNAME="tty-host"\n'


def test_nothing_asked_leaves_the_file(series, demo, tmp_path):
    """syncconfig as make runs it, with nothing to ask: the journal is
    neither written nor reported, even with answers never used."""
    kconfig, srctree, old = demo
    journal = tmp_path / 'journal'
    journal.write_bytes(b'CONFIG_DEFAULT_HOSTNAME="x"\n')
    first = demo_run(series, demo, tmp_path, tmp_path / 'other')
    assert first.returncode == 0
    os.utime(journal, (1, 1))
    r = conflib.run_conf(series.patched, '--syncconfig', kconfig, srctree,
                         tmp_path, first.config, b'', demo_env(journal))
    assert r.returncode == 0 and b'KCONFIG_JOURNAL' not in r.stdout
    assert b'Answers taken' not in r.stdout
    assert os.stat(journal).st_mtime == 1
    assert journal.read_bytes() == b'CONFIG_DEFAULT_HOSTNAME="x"\n'


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
    """With a new journal, conf says and writes what it does without one
    ('<' included), plus the report line at the end; the journal then
    gives the same .config without a question."""
    kconfig, srctree, old = demo
    for seed in seeds(30, 300):
        data = conflib.random_stream(random.Random(seed), 60, back=True)
        j = tmp_path / 'journal'
        if j.exists():
            j.unlink()
        plain = conflib.run_conf(series.patched, '--oldconfig', kconfig,
                                 srctree, tmp_path, old, data)
        with_j = conflib.run_conf(series.patched, '--oldconfig', kconfig,
                                  srctree, tmp_path, old, data, demo_env(j))
        report = re.compile(rb'\* Answers taken from .*\n')
        assert report.sub(b'', with_j.stdout) == plain.stdout, seed
        assert (with_j.stderr, with_j.returncode, with_j.config) == \
            (plain.stderr, plain.returncode, plain.config), seed
        # the defaults taken at the end of the input are not journaled,
        # and after '<' they may be undone answers, which a new conf does
        # not offer: replaying gives the same .config only without that
        if with_j.returncode or (b'* Back to the previous' in plain.stdout
                                 and b'end of file' in plain.stderr):
            continue
        again = conflib.run_conf(series.patched, '--oldconfig', kconfig,
                                 srctree, tmp_path, old, b'', demo_env(j))
        assert again.config == plain.config, seed


# ---------------------------------------------------------------------------
# Real trees

def person_run(tree, d, person, kill_after=None, sent=None):
    env = with_journal(tree.env, d)
    return conflib.person_session(tree.base.patched, person, 'Kconfig',
                                  tree.path, str(d), env, kill_after,
                                  sent=sent)


def test_kill_and_resume(real_journal, tmp_path):
    """SIGKILL at seeded points, right after a '<' and right after a
    mistake (the answer before a '<') too: resumed with the journal, the
    session ends with the .config of the uninterrupted one."""
    real = real_journal
    old = real.old_config()
    for seed in seeds(1, 10):
        ref = fresh(tmp_path, 'ref%d' % seed, old)
        sent = []
        s, _ = person_run(real, ref, conflib.Person(seed), sent=sent)
        assert s.p.returncode == 0
        assert sent.count('<') >= 5
        want = (ref / '.config').read_bytes()
        rng = random.Random(seed)
        backs = [i + 1 for i, line in enumerate(sent) if line == '<']
        points = [rng.randrange(1, len(sent)), rng.choice(backs),
                  rng.choice(backs) - 1]
        for kill in points:
            d = fresh(tmp_path, 'kill%d-%d' % (seed, kill), old)
            person = conflib.Person(seed)
            s, killed = person_run(real, d, person, kill)
            assert killed
            # whole lines only, each one an answer
            text = (d / 'journal').read_text()
            assert text == '' or text.endswith('\n')
            assert all(line.startswith(('CONFIG_', '# CONFIG_'))
                       for line in text.splitlines())
            assert (d / '.config').read_bytes() == old
            s, killed = person_run(real, d, person)
            assert not killed and s.p.returncode == 0
            assert (d / '.config').read_bytes() == want, \
                'seed %d, killed after %d' % (seed, kill)
            # the journal's warnings: only answers given again
            assert all(b'override: reassigning' in line
                       for line in s.err.splitlines() if b'journal:' in line)


def test_reuse_on_another_flavour(real_journal, tmp_path):
    """The documented way to reuse a journal for another flavour: copy
    it.  The copy answers the questions the flavour shares, the others
    are counted as left, and the original stays byte for byte."""
    real = real_journal
    x86 = fresh(tmp_path, 'x86', real.old_config())
    s, _ = person_run(real, x86, conflib.Person(5))
    assert s.p.returncode == 0
    original = (x86 / 'journal').read_bytes()
    stat = os.stat(x86 / 'journal')
    cloud = fresh(tmp_path, 'cloud',
                  real.old_config('amd64_none_cloud-amd64'))
    shutil.copy(x86 / 'journal', cloud / 'journal')
    s, _ = person_run(real, cloud, conflib.Person(6, p_mistake=0))
    assert s.p.returncode == 0
    assert (x86 / 'journal').read_bytes() == original
    assert os.stat(x86 / 'journal').st_mtime_ns == stat.st_mtime_ns
    m = re.search(r'\* Answers taken from %s: (\d+), left there not asked '
                  r'for: (\d+)\n' % re.escape(str(cloud / 'journal')),
                  s.out.decode())
    assert m and int(m.group(1)) > 0
    assert len([l for l in s.out.decode().splitlines()
                if l.startswith('* Answers taken')]) == 1
    assert 'cannot be taken here' not in s.err.decode()


def test_journal_lock_released_by_kill(series, demo, tmp_path):
    """The lock goes with the process: after a SIGKILL, the next session
    takes the journal."""
    kconfig, srctree, old = demo
    journal = tmp_path / 'journal'
    d = fresh(tmp_path, 'a', old)
    s = conflib.start(series.patched, '--oldconfig', kconfig, srctree,
                      str(d), None, demo_env(journal), 60, fresh=False)
    next(s.questions())
    s.send('killed-host')
    next(s.questions())
    s.kill()
    with open(journal) as f:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    r = demo_run(series, demo, tmp_path, journal)
    assert r.returncode == 0
    assert b'(DEFAULT_HOSTNAME) [(none)] (NEW) killed-host\n' in r.stdout
