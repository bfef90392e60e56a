# SPDX-License-Identifier: GPL-2.0
"""KCONFIG_JOURNAL, as reworked for issue 21.

Each answer typed is appended to the journal as .config lines (a choice as
all its members) and is on disk before the next question; '<' cuts it off.
Run again with the journal, conf says how many answers it read before
anything else and takes them as if typed (a refused one is refused as a
typed one is, two members of a choice set to y are asked), says where they
end, warns of unknown symbols but not of lines it wrote itself, and at the
end names the answers not asked for.  The
journal is opened at the first question (nothing is created when nothing
is asked), on a descriptor above stderr, and read from that descriptor;
a symbolic link, a file another conf holds, one that is not a regular file
and one whose last line has no end are refused before the first question.
Changed, replaced, removed or full while conf runs: conf says so and goes
on without it, losing no answer.  Kills in the middle of an answer (an
LD_PRELOAD shim, tests/journal_shim.c) leave an unfinished line that the
resume refuses until it is taken off; the resumed session then ends with
the .config of the uninterrupted one.  Also: strings through kills, real
trees killed and resumed, the lock released by a kill, Ctrl-D, and a copy
for another flavour."""

import fcntl
import os
import random
import re
import shutil
import stat
import subprocess

import pytest

from conftest import BASES, REAL_TREES, seeds, real_tree_for
import conflib

HERE = os.path.dirname(os.path.abspath(__file__))
NO_END = 'its last line has no end (cut off by a kill?): end or remove it'
GONE = 'changed, replaced or removed by someone else'


def reworked(base):
    """Whether the base's journal series is the one of issue 21 (6.12 and
    6.1 still have the earlier one, which these tests do not describe)."""
    for p in base.part('journal'):
        with open(p, errors='replace') as f:
            if 'answers no longer kept there' in f.read():
                return True
    return False


@pytest.fixture
def series(base):
    """A base whose series has the reworked journal."""
    if not base.has_journal:
        pytest.skip('patches/%s has no journal series' % base.series)
    if not reworked(base):
        pytest.skip('patches/%s has the journal from before issue 21'
                    % base.series)
    return base


@pytest.fixture(scope='module', params=sorted(REAL_TREES))
def real_journal(request, tmp_path_factory):
    """Each real tree whose base has the reworked journal series."""
    version = request.param
    base = next((b for b in BASES if b.version.startswith(version + '.')),
                None)
    if base is None or not base.has_journal or not reworked(base):
        pytest.skip('no built base with the reworked journal for %s'
                    % version)
    return real_tree_for(version, tmp_path_factory)


@pytest.fixture(scope='session')
def shim(tmp_path_factory):
    """tests/journal_shim.c, built for LD_PRELOAD."""
    so = str(tmp_path_factory.mktemp('shim') / 'journal_shim.so')
    subprocess.run(['gcc', '-shared', '-fPIC', '-O1', '-Wall', '-Werror',
                    '-o', so, os.path.join(HERE, 'journal_shim.c'), '-ldl'],
                   check=True)
    return so


# ---------------------------------------------------------------------------
# Helpers

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


def plain_env():
    env = dict(os.environ)
    for k in ('KCONFIG_JOURNAL', 'KCONFIG_WARN_UNKNOWN_SYMBOLS',
              'KCONFIG_WERROR', 'LD_PRELOAD'):
        env.pop(k, None)
    return env


def demo_env(journal, **extra):
    return dict(plain_env(), KCONFIG_JOURNAL=str(journal), **extra)


def demo_run(series, demo, tmp_path, journal, data=b'\n' * 40, conf=None,
             dot_config=None, env=None):
    """The patched conf --oldconfig on the demo in a fresh directory (gone
    after the run); the Result has the .config it left."""
    kconfig, srctree, old = demo
    return conflib.run_conf(conf or series.patched, '--oldconfig', kconfig,
                            srctree, tmp_path,
                            old if dot_config is None else dot_config, data,
                            env if env is not None else demo_env(journal),
                            timeout=20)


def run_in(conf, d, env, data, mode='--oldconfig', redirect='',
           kconfig=None, srctree=conflib.DEMO, timeout=20):
    """conf run in directory d, which it leaves as it is, with a shell
    redirection (such as '>&-') on it; on the demo unless told."""
    if kconfig is None:
        # conf is build/<version>/<variant>/scripts/kconfig/conf
        kconfig = conflib.demo_kconfig(
            os.path.join(os.path.dirname(conf), '..', '..', '..'))
    env = dict(env, srctree=srctree)
    env.setdefault('KCONFIG_DEFCONFIG_LIST', '')
    return subprocess.run(['bash', '-c', 'exec "$0" "$@" ' + redirect,
                           conf, mode, kconfig], input=data, cwd=str(d),
                          env=env, capture_output=True, timeout=timeout)


def without_report(stdout, journal):
    """stdout without the lines that the journal adds."""
    j = re.escape(str(journal).encode())
    stdout = re.sub(rb'\* \d+ answers? read from ' + j + rb'\n', b'', stdout)
    stdout = re.sub(rb'\* The answers read from the journal end here\n', b'',
                    stdout)
    return re.sub(rb'\* \d+ answers? in ' + j + rb' not asked for, .*\n', b'',
                  stdout)


def read_line(n, journal):
    """What conf says when it has read n answers from the journal."""
    return '* %d answer%s read from %s\n' % (n, 's' if n != 1 else '', journal)


def assert_refused(r, journal, why):
    """Refused before the first question: exit 1, the one error line, no
    question, no .config written."""
    assert r.returncode == 1
    assert r.stderr == ('%s: error: %s\n' % (journal, why)).encode()
    assert b'(NEW)' not in r.stdout


def assert_answer_lines(text):
    assert all(line.startswith(('CONFIG_', '# CONFIG_'))
               for line in text.splitlines()), text[:2000]


def take_off_unfinished(conf, kconfig, srctree, d, env, old=None):
    """If a kill left the journal of d with an unfinished last line, check
    that conf refuses it and leaves it alone, then take the line off as a
    user would.  Whether there was one."""
    journal = d / 'journal'
    if not journal.exists():
        return False
    text = journal.read_bytes()
    if not text or text.endswith(b'\n'):
        return False
    cfg = conflib.read_file(d / '.config')
    r = run_in(conf, d, env, b'\n' * 5, kconfig=kconfig, srctree=srctree)
    assert_refused(r, journal, NO_END)
    assert journal.read_bytes() == text
    assert conflib.read_file(d / '.config') == cfg
    with open(journal, 'r+b') as f:
        f.truncate(text.rfind(b'\n') + 1)
    return True


# ---------------------------------------------------------------------------
# What is kept, and how: on the demo

def test_kept_before_the_next_question(series, demo, tmp_path):
    """Each answer is in the file when the next question is asked, a choice
    as all its members; '<' cuts the file back; the defaults taken at the
    end of the input are not written; the end line counts 0."""
    kconfig, srctree, old = demo
    d = fresh(tmp_path, 'd', old)
    journal = d / 'journal'
    s = conflib.start(series.patched, '--oldconfig', kconfig, srctree,
                      str(d), None, with_journal(plain_env(), d), 20,
                      fresh=False)
    host = 'CONFIG_DEFAULT_HOSTNAME="my \\"host\\" #=\\\\"\n'
    log = 'CONFIG_LOG_BUF_SHIFT=%d\n'
    steps = [('my "host" #=\\', ('sym', 'LOG_BUF_SHIFT'), host),
             ('13', ('sym', 'PHYSICAL_START'), host + log % 13),
             ('<', ('sym', 'LOG_BUF_SHIFT'), host),
             ('14', ('sym', 'PHYSICAL_START'), host + log % 14),
             ('', None, host + 'CONFIG_LOG_BUF_SHIFT=14\n'
              'CONFIG_PHYSICAL_START=0x1000000\n'),
             ('3', ('sym', 'HZ_TUNING'), host + 'CONFIG_LOG_BUF_SHIFT=14\n'
              'CONFIG_PHYSICAL_START=0x1000000\n# CONFIG_HZ_100 is not set\n'
              '# CONFIG_HZ_250 is not set\nCONFIG_HZ_1000=y\n')]
    q = next(s.questions())
    assert q.key == ('sym', 'DEFAULT_HOSTNAME')
    assert not journal.exists() or journal.read_bytes() == b''
    for line, key, kept in steps:
        s.send(line)
        q = next(s.questions())
        if key is not None:
            assert q.key == key, line
        assert journal.read_text() == kept, line
    # the rest at the end of the input: defaults, not answers
    assert s.close() == 0
    assert journal.read_text() == kept
    out = s.out.decode()
    assert out.endswith('(NEW) \n#\n# configuration written to .config\n#\n')
    assert 'answers read' not in out and 'not asked for' not in out


def test_resume_takes_the_answers(series, demo, tmp_path):
    """Run again with the journal: the answers are taken as if typed, in
    the transcript too, and the questions without one are asked; nothing
    taken is written again, '<' over a taken answer and a new answer
    appends it, and it wins the next time."""
    kconfig, srctree, old = demo
    journal = tmp_path / 'journal'
    typed = b'myhost\n13\n0x1000000\n3\ny\ny\nm\ny\nde\nn\n'
    first = demo_run(series, demo, tmp_path, journal, typed)
    assert first.returncode == 0
    kept = journal.read_bytes()
    assert_answer_lines(kept.decode())
    again = demo_run(series, demo, tmp_path, journal, b'')
    assert again.returncode == 0 and again.config == first.config
    assert journal.read_bytes() == kept
    n = kept.count(b'\n') - 2    # a choice is three lines, one answer
    assert again.stdout.startswith(read_line(n, journal).encode())
    assert without_report(again.stdout, journal) == \
        without_report(first.stdout, journal)
    # without the last answer, '<' at its question goes back over two
    # answers taken (nothing to cut), given again: appended, and they win
    base = kept[:kept.rstrip(b'\n').rfind(b'\n') + 1]
    assert kept[len(base):] == b'# CONFIG_DEBUG_KERNEL is not set\n'
    journal.write_bytes(base)
    third = demo_run(series, demo, tmp_path, journal, b'<\n<\nn\n\nn\n')
    assert third.returncode == 0
    assert journal.read_bytes() == base + (
        b'# CONFIG_WLAN_DEMO_DEBUG is not set\nCONFIG_WLAN_REGDOM="de"\n'
        b'# CONFIG_DEBUG_KERNEL is not set\n')
    assert b'# CONFIG_WLAN_DEMO_DEBUG is not set\n' in third.config
    fourth = demo_run(series, demo, tmp_path, journal, b'')
    assert fourth.config == third.config
    # lines that conf wrote are read back without a warning
    assert str(journal).encode() + b':' not in fourth.stderr


def test_choice_by_its_member(series, demo, tmp_path):
    """A choice is answered by the number of its member set to y, and what
    follows from it is asked; an answer to a question not asked is counted
    at the end."""
    journal = tmp_path / 'journal'
    journal.write_text('CONFIG_DEFAULT_HOSTNAME="h"\nCONFIG_LOG_BUF_SHIFT=13\n'
                       'CONFIG_PHYSICAL_START=0x2000\nCONFIG_HZ_1000=y\n'
                       '# CONFIG_DEBUG_KERNEL is not set\n'
                       'CONFIG_DEBUG_LEVEL=5\n')
    r = demo_run(series, demo, tmp_path, journal, b'y\n\n')
    assert r.returncode == 0
    assert b'choice[1-3?]: 3\n* The answers read from the journal end here\n' \
        b'Fine-tune the 1000 HZ timer (HZ_TUNING) [N/y/?] (NEW) y\n' \
        in r.stdout
    assert b'CONFIG_HZ_1000=y\nCONFIG_HZ_TUNING=y\n' in r.config
    assert r.stdout.startswith(read_line(6, journal).encode())
    assert ('* 1 answer in %s not asked for, kept there for a later run: '
            'CONFIG_DEBUG_LEVEL\n' % journal).encode() in r.stdout


# ---------------------------------------------------------------------------
# Issue 21, item by item

@pytest.mark.parametrize('content', [
    b'CONFIG_DEFAULT_HOSTNAME="a"',
    b'CONFIG_DEFAULT_HOSTNAME="a"\nCONFIG_LOG_BUF_SH',
    b'#'])
def test_unfinished_last_line_refused(series, demo, tmp_path, content):
    """Item 1: a last line with no end, as a kill while writing leaves it,
    is refused before the first question, and the file is left alone
    (an answer was once glued to it)."""
    journal = tmp_path / 'journal'
    journal.write_bytes(content)
    r = demo_run(series, demo, tmp_path, journal, b'myhost\n13\n' + b'\n' * 40)
    assert_refused(r, journal, NO_END)
    assert r.config == demo[2]
    assert journal.read_bytes() == content


@pytest.mark.parametrize('kind', ['fifo', 'devnull', 'directory'])
def test_not_a_regular_file_refused(series, demo, tmp_path, kind):
    """Item 2: a FIFO (conf hung on it), /dev/null (accepted, then failed
    at the first answer) and a directory are refused before the first
    question, at once."""
    journal = tmp_path / 'journal'
    why = 'not a regular file'
    if kind == 'fifo':
        os.mkfifo(journal)
    elif kind == 'devnull':
        journal = '/dev/null'
    else:
        journal.mkdir()
        why = os.strerror(21)       # EISDIR, from open()
    r = demo_run(series, demo, tmp_path, journal, b'myhost\n13\n' + b'\n' * 40)
    assert_refused(r, journal, why)
    assert r.config == demo[2]
    if kind == 'fifo':
        assert stat.S_ISFIFO(os.lstat(journal).st_mode)
    elif kind == 'directory':
        assert os.listdir(journal) == []


# the last three questions get their defaults at the end of the input,
# which conf says on stderr
TYPED = b'myhost\n13\n\n3\ny\ny\nm\n'


@pytest.mark.parametrize('closed', ['stdout', 'stderr'])
def test_closed_stdout_or_stderr(series, tmp_path, demo, closed):
    """Item 3: with stdout or stderr closed, the journal is not opened on
    it: it holds the answers and nothing else (not the transcript, not the
    messages at the end of the input), and .config is the one stock conf
    writes with the same descriptor closed."""
    redirect = {'stdout': '>&-', 'stderr': '2>&-'}[closed]
    old = demo[2]
    ref = fresh(tmp_path, 'ref', old)
    r = run_in(series.patched, ref, with_journal(plain_env(), ref), TYPED)
    assert r.returncode == 0
    want = (ref / 'journal').read_bytes()
    d = fresh(tmp_path, 'closed', old)
    r = run_in(series.patched, d, with_journal(plain_env(), d), TYPED,
               redirect=redirect)
    assert r.returncode == 0
    assert (d / 'journal').read_bytes() == want
    assert_answer_lines(want.decode())
    stock = fresh(tmp_path, 'stock', old)
    r = run_in(series.stock, stock, plain_env(), TYPED, redirect=redirect)
    assert r.returncode == 0
    assert (d / '.config').read_bytes() == (stock / '.config').read_bytes()
    assert (d / '.config').read_bytes() == (ref / '.config').read_bytes()
    # and resumed that way, from a journal that holds the answers
    d2 = fresh(tmp_path, 'closed2', old)
    shutil.copy(ref / 'journal', d2 / 'journal')
    r = run_in(series.patched, d2, with_journal(plain_env(), d2), b'',
               redirect=redirect)
    assert r.returncode == 0
    assert (d2 / 'journal').read_bytes() == want
    assert (d2 / '.config').read_bytes() == (ref / '.config').read_bytes()


def closed_stdin(series, tmp_path, demo):
    old = demo[2]
    d = fresh(tmp_path, 'd', old)
    (d / 'journal').write_bytes(b'CONFIG_DEFAULT_HOSTNAME="fromj"\n'
                                b'CONFIG_LOG_BUF_SHIFT=13\n')
    r = run_in(series.patched, d, with_journal(plain_env(), d), b'',
               redirect='<&-')
    assert r.returncode == 0
    stock = fresh(tmp_path, 'stock', old)
    run_in(series.stock, stock, plain_env(), b'fromj\n13\n')
    assert (d / '.config').read_bytes() == (stock / '.config').read_bytes()
    return (d / 'journal').read_bytes()


def test_closed_stdin(series, tmp_path, demo):
    """Item 3 (stdin): a resume with stdin closed takes the journal's
    answers and ends with the .config of stock conf fed them; the journal
    is not opened on stdin: it keeps its answers, and holds only answers."""
    kept = closed_stdin(series, tmp_path, demo)
    assert kept.startswith(b'CONFIG_DEFAULT_HOSTNAME="fromj"\n'
                           b'CONFIG_LOG_BUF_SHIFT=13\n')
    assert_answer_lines(kept.decode())


def test_closed_stdin_writes_no_default(series, tmp_path, demo):
    """The defaults conf takes when stdin cannot be read are not answers:
    nothing is appended."""
    assert closed_stdin(series, tmp_path, demo) == \
        b'CONFIG_DEFAULT_HOSTNAME="fromj"\nCONFIG_LOG_BUF_SHIFT=13\n'


def test_closed_stderr_warnings_not_in_the_journal(series, tmp_path, demo):
    """With stderr closed, the warnings conf prints while reading the
    journal (here an unknown symbol and an answer given twice) must not
    land in the journal."""
    d = fresh(tmp_path, 'd', demo[2])
    content = (b'CONFIG_NO_SUCH=y\nCONFIG_DEFAULT_HOSTNAME="a"\n'
               b'CONFIG_DEFAULT_HOSTNAME="b"\n')
    (d / 'journal').write_bytes(content)
    r = run_in(series.patched, d, with_journal(plain_env(), d), b'13\n',
               redirect='2>&-')
    assert r.returncode == 0
    assert (d / 'journal').read_bytes() == \
        content + b'CONFIG_LOG_BUF_SHIFT=13\n'


def change(journal, how):
    if how == 'replaced':           # as an editor saves it
        new = journal.with_name('journal.new')
        new.write_bytes(b'CONFIG_DEFAULT_HOSTNAME="other"\n')
        os.replace(new, journal)
    elif how == 'removed':
        journal.unlink()
    elif how == 'emptied':
        with open(journal, 'r+b') as f:
            f.truncate(0)
    else:
        with open(journal, 'ab') as f:
            f.write(b'CONFIG_NET=y\n')


@pytest.mark.parametrize('how', ['replaced', 'removed', 'emptied',
                                 'appended'])
@pytest.mark.parametrize('then', ['<', 'answer'])
def test_changed_while_running(series, demo, tmp_path, how, then):
    """Item 4: the journal replaced, removed, emptied or appended to by
    someone else while conf waits: at its next write (an answer, or a cut
    by '<') conf says so once and goes on without it; the session ends with
    the .config of the same lines typed without a journal; the file at the
    name is not written to again (no NUL bytes after emptying and '<'), and
    a second conf on the name is not refused."""
    kconfig, srctree, old = demo
    d = fresh(tmp_path, 'd', old)
    journal = d / 'journal'
    env = with_journal(plain_env(), d)
    s = conflib.start(series.patched, '--oldconfig', kconfig, srctree,
                      str(d), None, env, 30, fresh=False)
    # the change comes after the second answer; the third line is the
    # first write after it
    lines = ['host-a', '13'] + (['<', '14', ''] if then == '<' else ['']) + \
        ['3', 'y']
    warning = ('%s: warning: %s: answers no longer kept there\n'
               % (journal, GONE)).encode()
    qs = s.questions()
    next(qs)
    for i, line in enumerate(lines):
        s.send(line)
        next(qs)
        if i == 1:
            assert journal.read_bytes() == (b'CONFIG_DEFAULT_HOSTNAME='
                                            b'"host-a"\nCONFIG_LOG_BUF_'
                                            b'SHIFT=13\n')
            change(journal, how)
            after = conflib.read_file(journal)
            assert warning not in bytes(s.err)
        if i == 2:
            assert warning in bytes(s.err)
            # a second conf on the name is not refused
            other = fresh(tmp_path, 'other', old)
            r = run_in(series.patched, other, env, b'')
            assert r.returncode == 0, r.stderr
            assert b'in use by another conf' not in r.stderr
            assert conflib.read_file(journal) == (after if after is not None
                                                  else b'')
            if after is None:       # the second conf created it: take it off
                journal.unlink()
    assert s.close() == 0
    assert bytes(s.err).count(b'answers no longer kept there') == 1
    # the first conf wrote nothing to the file at the name after the change
    assert conflib.read_file(journal) == after
    assert after is None or b'\0' not in after
    assert b'Answers in' not in bytes(s.out)
    plain = fresh(tmp_path, 'plain', old)
    r = run_in(series.patched, plain, plain_env(),
               ''.join(line + '\n' for line in s.sent).encode())
    assert r.returncode == 0
    assert (d / '.config').read_bytes() == (plain / '.config').read_bytes()


def test_reads_the_file_it_locked(series, demo, tmp_path, shim):
    """Item 5: a symbolic link renamed over the journal right after conf
    locked it (an LD_PRELOAD shim does it in flock()) is not followed: conf
    reads the file it locked, not the link's target; at its first write it
    sees that the name is another file, says so and leaves it alone."""
    d = fresh(tmp_path, 'd', demo[2])
    journal = d / 'journal'
    journal.write_bytes(b'CONFIG_DEFAULT_HOSTNAME="mine"\n')
    target = d / 'target'
    target.write_bytes(b'CONFIG_DEFAULT_HOSTNAME="planted"\n'
                       b'CONFIG_LOG_BUF_SHIFT=20\n')
    (d / 'swap').symlink_to(target)
    env = with_journal(plain_env(), d)
    env.update(LD_PRELOAD=shim, SHIM_SWAP=str(d / 'swap'),
               SHIM_JOURNAL=str(journal))
    r = run_in(series.patched, d, env, b'14\n' + b'\n' * 20)
    assert r.returncode == 0
    assert os.path.islink(journal)          # the shim did swap it
    assert b'(DEFAULT_HOSTNAME) [(none)] (NEW) mine\n' in r.stdout
    assert b'planted' not in r.stdout and b'=20' not in r.stdout
    assert b'(LOG_BUF_SHIFT) [17] (NEW) 14\n' in r.stdout
    assert ('%s: warning: %s: answers no longer kept there\n'
            % (journal, GONE)).encode() in r.stderr
    assert target.read_bytes() == (b'CONFIG_DEFAULT_HOSTNAME="planted"\n'
                                   b'CONFIG_LOG_BUF_SHIFT=20\n')
    cfg = (d / '.config').read_bytes()
    assert b'CONFIG_DEFAULT_HOSTNAME="mine"\n' in cfg
    assert b'CONFIG_LOG_BUF_SHIFT=14\n' in cfg


def test_two_members_set_to_y_asked(series, demo, tmp_path):
    """Item 6: a journal with two members of a choice set to y does not say
    which came last: the choice is asked (it took the first in menu order),
    and the typed answer is kept as all the members."""
    journal = tmp_path / 'journal'
    head = (b'CONFIG_DEFAULT_HOSTNAME="h"\nCONFIG_LOG_BUF_SHIFT=13\n'
            b'CONFIG_PHYSICAL_START=0x2000\n')
    journal.write_bytes(head + b'CONFIG_HZ_1000=y\nCONFIG_HZ_100=y\n')
    r = demo_run(series, demo, tmp_path, journal, b'2\n' + b'\n' * 10)
    assert r.returncode == 0
    assert b'  3. 1000 HZ (HZ_1000) (NEW)\nchoice[1-3?]: 2\n' in r.stdout
    assert b'CONFIG_HZ_250=y\n' in r.config
    assert b'HZ_TUNING' not in r.stdout
    assert journal.read_bytes().startswith(head + b'CONFIG_HZ_1000=y\n'
                                           b'CONFIG_HZ_100=y\n'
                                           b'# CONFIG_HZ_100 is not set\n'
                                           b'CONFIG_HZ_250=y\n'
                                           b'# CONFIG_HZ_1000 is not set\n')
    stock = conflib.run_conf(series.stock, '--oldconfig', demo[0], demo[1],
                             tmp_path, demo[2],
                             b'h\n13\n0x2000\n2\n' + b'\n' * 10, plain_env())
    assert without_report(r.stdout, journal) == stock.stdout
    assert r.config == stock.config


@pytest.mark.parametrize('mode', ['--syncconfig', '--oldconfig'])
def test_nothing_asked_creates_nothing(series, demo, tmp_path, mode):
    """Item 7: with nothing to ask (syncconfig as make runs it, or
    oldconfig on a complete .config), no journal is created and none is
    mentioned."""
    kconfig, srctree, old = demo
    d = fresh(tmp_path, 'd', old)
    r = run_in(series.patched, d, plain_env(), b'\n' * 40)
    assert r.returncode == 0
    journal = d / 'journal'
    r = run_in(series.patched, d, with_journal(plain_env(), d), b'', mode=mode)
    assert r.returncode == 0
    assert not journal.exists() and not os.path.lexists(journal)
    assert b'journal' not in r.stdout + r.stderr


def test_one_member_choice_opens_the_journal(series, tmp_path):
    """syncconfig with only a new choice of one visible member: conf shows
    the question and chooses the member itself.  The journal is opened at
    the first question shown, so this one opens (creates) it, and writes
    nothing in it (documented in README and kconfig.rst)."""
    d = tmp_path / 'one'
    d.mkdir()
    (d / 'Kconfig').write_text('config A\n\tbool "A"\n\tdefault y\n\n'
                               'choice\n\tprompt "Pick"\n\nconfig P1\n'
                               '\tbool "P1"\n\nconfig P2\n\tbool "P2"\n'
                               '\tdepends on !A\n\nendchoice\n')
    (d / '.config').write_text('CONFIG_A=y\n')
    r = run_in(series.patched, d, with_journal(plain_env(), d), b'',
               mode='--syncconfig', kconfig='Kconfig', srctree=str(d))
    assert r.returncode == 0 and b'choice[1]: 1\n' in r.stdout
    assert (d / 'journal').read_bytes() == b''
    assert b'not asked for' not in r.stdout


def test_resume_said_before_the_first_question(series, demo, tmp_path):
    """Item 8: a resume says how many answers it read before the first
    question (a choice's members are one answer, its unset members none,
    and a symbol given twice one)."""
    kconfig, srctree, old = demo
    d = fresh(tmp_path, 'd', old)
    journal = d / 'journal'
    journal.write_bytes(b'CONFIG_DEFAULT_HOSTNAME="x"\nCONFIG_LOG_BUF_SHIFT=13'
                        b'\nCONFIG_LOG_BUF_SHIFT=14\n'
                        b'# CONFIG_HZ_100 is not set\nCONFIG_HZ_250=y\n'
                        b'# CONFIG_HZ_1000 is not set\n')
    s = conflib.start(series.patched, '--oldconfig', kconfig, srctree,
                      str(d), None, with_journal(plain_env(), d), 20,
                      fresh=False)
    first = s.wait()
    # before anything else, and where the answers taken end
    assert first.startswith(read_line(3, journal))
    assert first.index('* The answers read from the journal end here\n') < \
        first.rindex('(NEW)')
    assert first.count('(NEW)') == 3     # the two taken, then the question
    assert conflib.parse_question(first).key == ('sym', 'PHYSICAL_START')
    assert s.close() == 0
    assert 'not asked for' not in s.out.decode()


def test_end_of_taken_answers_marks_a_question_asked(series, demo,
                                                    tmp_path):
    """Item 2: the line where the answers taken end comes before a question
    conf reads from its input (one whose value is new), not before a value
    it only shows."""
    journal = tmp_path / 'journal'
    journal.write_bytes(b'CONFIG_DEFAULT_HOSTNAME="x"\nCONFIG_HZ_250=y\n')
    r = demo_run(series, demo, tmp_path, journal, data=b'')
    marker = '* The answers read from the journal end here\n'
    out = r.stdout.decode()
    assert r.returncode == 0 and out.count(marker) == 2
    # the lines up to the next question asked show no value ('[Y/n/?] y')
    for after in out.split(marker)[1:]:
        shown = after.split('(NEW)')[0].rpartition('\n')[0]
        assert '[' not in shown, after


def test_unknown_symbol_warned(series, demo, tmp_path):
    """Item 9: an unknown symbol in the journal is warned of with its line,
    without KCONFIG_WARN_UNKNOWN_SYMBOLS; .config's are not (as before)."""
    journal = tmp_path / 'journal'
    journal.write_bytes(b'CONFIG_DEFAULT_HOSTNAME="x"\nCONFIG_NO_SUCH=y\n'
                        b'# CONFIG_GONE_TOO is not set\n')
    r = demo_run(series, demo, tmp_path, journal,
                 dot_config=demo[2] + b'CONFIG_OLD_GONE=y\n')
    assert r.returncode == 0
    assert ('%s:2:warning: unknown symbol: NO_SUCH\n' % journal).encode() \
        in r.stderr
    assert ('%s:3:warning: unknown symbol: GONE_TOO\n' % journal).encode() \
        in r.stderr
    assert b'OLD_GONE' not in r.stderr
    assert r.stdout.startswith(read_line(1, journal).encode())


MODULES_OFF = (b'# CONFIG_MODULES is not set\nCONFIG_LOCALVERSION=""\n'
               b'CONFIG_NET=y\n')


@pytest.mark.parametrize('journal_text,typed,stock_typed,dot_config', [
    # an int out of its range: shown, asked again, no help
    (b'CONFIG_LOG_BUF_SHIFT=99\n', b'myhost\n13\n', b'myhost\n99\n13\n',
     None),
    # 'm' where modules are off: help, asked again, as when typed
    (b'CONFIG_WLAN_DEMO=m\n', b'h\n13\n\n\ny\ny\n', b'h\n13\n\n\ny\nm\ny\n',
     MODULES_OFF),
    # a string that is just '?': help, as when typed
    (b'CONFIG_DEFAULT_HOSTNAME="?"\n', b'myhost\n', b'?\nmyhost\n', None),
], ids=['int-out-of-range', 'm-without-modules', 'question-mark'])
def test_refused_answer_as_if_typed(series, demo, tmp_path, journal_text,
                                    typed, stock_typed, dot_config):
    """Item 10: an answer the question refuses is handled as the same line
    typed: the transcript is stock conf's for the typed lines (the journal's
    two report lines aside), and so is .config."""
    journal = tmp_path / 'journal'
    journal.write_bytes(journal_text)
    r = demo_run(series, demo, tmp_path, journal, typed + b'\n' * 20,
                 dot_config=dot_config)
    stock = conflib.run_conf(series.stock, '--oldconfig', demo[0], demo[1],
                             tmp_path, dot_config or demo[2],
                             stock_typed + b'\n' * 20, plain_env())
    assert r.returncode == stock.returncode == 0
    assert without_report(r.stdout, journal) == stock.stdout
    assert r.config == stock.config
    if b'99' in journal_text:
        assert b'Select the minimal kernel log buffer size' not in r.stdout
        assert b'(LOG_BUF_SHIFT) [17] (NEW) 99\nKernel log buffer size ' \
            b'(16 => 64KB, 17 => 128KB) (LOG_BUF_SHIFT) [17] (NEW) 13\n' \
            in r.stdout
    # the refused answer is not written; the one typed is
    assert journal.read_bytes().startswith(journal_text)
    assert journal.read_bytes().count(b'\n') > journal_text.count(b'\n')


# ---------------------------------------------------------------------------
# A full disk

@pytest.fixture
def small_tmpfs(tmp_path):
    """A 64 KB tmpfs, mounted for the test and unmounted after it."""
    mnt = tmp_path / 'mnt'
    mnt.mkdir()
    r = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=64k,mode=0755',
                        'kconfig-journal-test', str(mnt)], capture_output=True)
    if r.returncode:
        pytest.skip('cannot mount a tmpfs (needs root): %s'
                    % r.stderr.decode(errors='replace').strip())
    try:
        yield mnt
    finally:
        subprocess.run(['umount', '-l', str(mnt)], check=True)


def fill(mnt, journal, room):
    """Write the journal (comment lines) so that its page has room bytes
    left, then fill the file system."""
    size = 4096 - room
    text = b''
    while len(text) < size - 80:
        text += b'# a comment, to fill the page\n'
    text += b'#' * (size - len(text) - 1) + b'\n'
    journal.write_bytes(text)
    fd = os.open(mnt / 'filler', os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b'x' * 4096)
    except OSError as e:
        assert e.errno == 28
    finally:
        os.close(fd)
    return text


@pytest.mark.parametrize('cut', [True, False], ids=['line-cut', 'line-whole'])
def test_disk_full(series, demo, tmp_path, small_tmpfs, cut):
    """A write that fails (ENOSPC): conf says so, goes on without the
    journal, and writes the complete .config.  A short write leaves an
    unfinished line, which the resume refuses; if the full answers fit,
    the resume takes them."""
    journal = small_tmpfs / 'journal'
    host = b'CONFIG_DEFAULT_HOSTNAME="a-hostname-long-enough-to-be-cut"\n'
    text = fill(small_tmpfs, journal, 20 if cut else len(host))
    typed = b'a-hostname-long-enough-to-be-cut\n14\n\n3\ny\n' + b'\n' * 20
    r = demo_run(series, demo, tmp_path, journal, typed)
    plain = demo_run(series, demo, tmp_path, None, typed, env=plain_env())
    assert r.returncode == 0
    assert r.stderr.count(b'answers no longer kept there') == 1
    assert ('%s: warning: %s: answers no longer kept there\n'
            % (journal, os.strerror(28))).encode() in r.stderr
    assert r.config == plain.config
    assert b'Answers in' not in r.stdout
    kept = journal.read_bytes()
    if cut:
        assert kept.startswith(text) and not kept.endswith(b'\n')
        assert len(kept) == 4096
        again = demo_run(series, demo, tmp_path, journal, typed)
        assert_refused(again, journal, NO_END)
        assert journal.read_bytes() == kept
    else:
        assert kept == text + host
        again = demo_run(series, demo, tmp_path, journal, b'')
        assert again.returncode == 0
        assert again.stdout.startswith(read_line(1, journal).encode())
        assert b'CONFIG_DEFAULT_HOSTNAME="a-hostname-long-enough-to-be-cut"' \
            in again.config


# ---------------------------------------------------------------------------
# Strings: any value, through three kills and resumes

NAMES = ['S%d' % i for i in range(12)]
ALPHABET = ['"', '\\', '#', '=', ' ', "'", '$', '`', 'a', 'Z', '0', '<',
            '?', '\u00e9', '\u65e5', '\u20ac', '\U0001F600', '\\"', '\\\\']


def string_tree(tmp_path, names=NAMES, extra=''):
    d = tmp_path / 'strings'
    d.mkdir()
    (d / 'Kconfig').write_text(extra + ''.join(
        'config %s\n\tstring "%s"\n\tdefault "d%d"\n\n' % (n, n, i)
        for i, n in enumerate(names)))
    return d


def random_value(rng, sizes=(1, 2, 3, 8, 40, 600, 2040)):
    """A value that can be typed: not empty (Enter keeps the default), not
    just '?' (help), not '<' with blanks (going back), at most 4 KB."""
    size = rng.choice(sizes)
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
    env = plain_env()
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
            take_off_unfinished(series.patched, kconfig, str(tree), d, env_j)
        s, killed = drive(series.patched, kconfig, str(tree), d, env_j,
                          answer)
        assert not killed and s.p.returncode == 0
        assert (d / '.config').read_bytes() == want, seed
        assert re.match(r'\* \d+ answers? read from %s\n'
                        % re.escape(str(d / 'journal')), s.out.decode())
        assert 'not asked for' not in s.out.decode()


# ---------------------------------------------------------------------------
# Kills in the middle of writing an answer (the shim)

CAMPAIGN_NAMES = ['L%d' % i for i in range(6)]
CAMPAIGN_EXTRA = ('config FLAG\n\tbool "Flag"\n\n'
                  'choice\n\tprompt "Pick"\n\nconfig PICK_A\n\tbool "A"\n\n'
                  'config PICK_B\n\tbool "B"\n\nconfig PICK_C\n\tbool "C"\n\n'
                  'endchoice\n\n')


def test_kill_within_long_answers(series, tmp_path, shim):
    """SIGKILL at seeded byte offsets within long answers (strings of
    3-4 KB, and a choice's three lines): the shim writes only the first k
    bytes of the answer, then kills conf.  An unfinished line is refused by
    the resume until taken off; every resume ends with the .config of the
    uninterrupted session."""
    tree = string_tree(tmp_path, CAMPAIGN_NAMES, CAMPAIGN_EXTRA)
    kconfig = str(tree / 'Kconfig')
    env = plain_env()
    kills = partial = equal = 0
    for seed in seeds(12, 100):
        rng = random.Random('kill%d' % seed)
        values = {n: random_value(rng, (3000, 3500, 4000))
                  for n in CAMPAIGN_NAMES}
        values['FLAG'] = rng.choice('yn')
        pick = rng.choice('123')

        def answer(q):
            return pick if q.kind == 'choice' else values[q.key[1]]

        ref = fresh(tmp_path, 'ref%d' % seed, None)
        s, _ = drive(series.patched, kconfig, str(tree), ref, env, answer)
        assert s.p.returncode == 0
        want = (ref / '.config').read_bytes()

        d = fresh(tmp_path, 'killed%d' % seed, None)
        journal = os.path.realpath(d / 'journal')
        env_j = dict(env, KCONFIG_JOURNAL=journal)
        for cycle in range(3):
            env_k = dict(env_j, LD_PRELOAD=shim, SHIM_JOURNAL=journal,
                         SHIM_KILL_AT=str(rng.randint(1, 3)),
                         SHIM_KILL_BYTES=str(rng.randrange(1 << 40)))
            s, _ = drive(series.patched, kconfig, str(tree), d, env_k, answer)
            if s.p.returncode == 0:
                break               # fewer answers left than the kill point
            assert s.p.returncode == -9, bytes(s.err)
            kills += 1
            assert not (d / '.config').exists()
            text = (d / 'journal').read_bytes()
            assert_answer_lines(text[:text.rfind(b'\n') + 1].decode())
            if take_off_unfinished(series.patched, kconfig, str(tree), d,
                                   env_j):
                partial += 1
        s, killed = drive(series.patched, kconfig, str(tree), d, env_j,
                          answer)
        assert s.p.returncode == 0, bytes(s.err)
        assert (d / '.config').read_bytes() == want, seed
        equal += 1
    print('\nkill campaign: %d kills, %d left a partial line, %d resumes '
          'ended equal' % (kills, partial, equal))
    assert kills >= len(seeds(12, 100)) and partial >= kills // 2


# ---------------------------------------------------------------------------
# On the demo: symbolic links, two sessions, Ctrl-D, nothing asked

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
    assert_refused(r, journal, 'a symbolic link, not followed')
    assert r.config == demo[2]
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
    os.chown(journal, 1234, 5678)
    r = demo_run(series, demo, tmp_path, journal, b'myhost\n' + b'\n' * 40)
    assert r.returncode == 0
    st = os.stat(journal)
    assert st.st_mode & 0o777 == 0o640
    assert (st.st_uid, st.st_gid) == (1234, 5678)
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
    r = demo_run(series, demo, tmp_path, journal, b'host-b\n' + b'\n' * 40)
    assert_refused(r, journal, 'in use by another conf')
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
    assert r.returncode == 0 and str(journal).encode() not in r.stdout
    assert os.stat(journal).st_mtime == 1
    assert journal.read_bytes() == b'CONFIG_DEFAULT_HOSTNAME="x"\n'


def test_without_journal_nothing_changes(series, demo, tmp_path):
    """KCONFIG_JOURNAL unset or empty: no file, output as without it."""
    kconfig, srctree, old = demo
    data = b'foo\n<\n\n3\n'
    plain = conflib.run_conf(series.patched, '--oldconfig', kconfig, srctree,
                             tmp_path, old, data, plain_env())
    empty = conflib.run_conf(series.patched, '--oldconfig', kconfig, srctree,
                             tmp_path, old, data,
                             dict(plain_env(), KCONFIG_JOURNAL=''))
    assert not plain.differences(empty)
    assert os.listdir(tmp_path) == []


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
                                 srctree, tmp_path, old, data, plain_env())
        with_j = conflib.run_conf(series.patched, '--oldconfig', kconfig,
                                  srctree, tmp_path, old, data, demo_env(j))
        assert without_report(with_j.stdout, j) == plain.stdout, seed
        assert b'not asked for' not in with_j.stdout, seed
        assert (with_j.stderr, with_j.returncode, with_j.config) == \
            (plain.stderr, plain.returncode, plain.config), seed
        # the defaults taken at the end of the input are not journaled,
        # and after '<' they may be undone answers, which a new conf does
        # not offer: replaying gives the same .config only without that;
        # a last line without its end is not journaled either
        if with_j.returncode or not data.endswith(b'\n') or (
                b'* Back to the previous' in plain.stdout
                and b'end of file' in plain.stderr):
            continue
        again = conflib.run_conf(series.patched, '--oldconfig', kconfig,
                                 srctree, tmp_path, old, b'', demo_env(j))
        assert again.config == plain.config, seed


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
            take_off_unfinished(real.base.patched, 'Kconfig', real.path, d,
                                with_journal(real.env, d))
            # whole lines only, each one an answer
            text = (d / 'journal').read_text()
            assert text == '' or text.endswith('\n')
            assert_answer_lines(text)
            assert (d / '.config').read_bytes() == old
            s, killed = person_run(real, d, person)
            assert not killed and s.p.returncode == 0
            assert (d / '.config').read_bytes() == want, \
                'seed %d, killed after %d' % (seed, kill)
            # answers given again are read back without a warning
            assert b'journal:' not in s.err


def test_reuse_on_another_flavour(real_journal, tmp_path):
    """The documented way to reuse a journal for another flavour: copy
    it.  The copy answers the questions the flavour shares, the others
    are counted as not asked for, and the original stays byte for byte."""
    real = real_journal
    x86 = fresh(tmp_path, 'x86', real.old_config())
    s, _ = person_run(real, x86, conflib.Person(5))
    assert s.p.returncode == 0
    original = (x86 / 'journal').read_bytes()
    stat_before = os.stat(x86 / 'journal')
    cloud = fresh(tmp_path, 'cloud',
                  real.old_config('amd64_none_cloud-amd64'))
    shutil.copy(x86 / 'journal', cloud / 'journal')
    s, _ = person_run(real, cloud, conflib.Person(6, p_mistake=0))
    assert s.p.returncode == 0
    assert (x86 / 'journal').read_bytes() == original
    assert os.stat(x86 / 'journal').st_mtime_ns == stat_before.st_mtime_ns
    out = s.out.decode()
    name = re.escape(str(cloud / 'journal'))
    read = re.findall(r'\* (\d+) answers? read from %s\n' % name, out)
    left = re.findall(r'\* (\d+) answers? in %s not asked for, kept there for '
                      r'a later run: CONFIG_\w+(?:, CONFIG_\w+)*(?: and \d+ more)?\n'
                      % name, out)
    assert len(read) == 1 and len(left) == 1
    assert int(read[0]) > int(left[0]) > 0
    assert b'unknown symbol' not in bytes(s.err)
