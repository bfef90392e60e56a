# SPDX-License-Identifier: GPL-2.0
"""KCONFIG_JOURNAL, the answers that '<' answers again, kept in a file
(issues 37 and 45).

Only oldconfig and oldaskconfig use it: every other mode, syncconfig in a
build above all, neither opens, locks nor reads it.  Once a question takes
an answer, it is appended to the journal as .config lines (a choice as its
visible members) and is on disk before anything else happens; '<' takes
the answer it drops back at once: its lines are cut off, or, for an answer
read from the journal (or one that such a line follows), a line
'# CONFIG_X is taken back' is added, so that a kill right after '<'
resumes where the session stood.  Run again with the journal, conf says on
stderr how many answers it read, and each question with an answer there
takes it (printed followed by '(from FILE)', also on a pipe, and answered
again by '<'), so that a resume on the same tree asks the same questions
and ends with the same .config; another flavour takes the answers of the
questions it shares.  At the end conf names on stderr the answers not
asked for (all of them on a pipe).  An answer its question refuses is not
taken: one warning names the file, the line and why, and the question is
asked.  At a terminal only, conf says that a new journal keeps the
answers, and where the answers read end (once, after the last one taken).
The file is opened and locked before the Kconfig files are parsed, and a
symbolic link, a file that is not a regular one, one in use, one that
cannot be read and written, one whose last line has no end and one in a
folder that does not exist are refused then, each on one line that says
what to do.  Changed, replaced, removed or full while conf runs: conf says
so and goes on without it.  Also what issues 14, 21 and 28 asked: strings
through kills, a kill within an answer (an LD_PRELOAD shim,
tests/journal_shim.c), closed descriptors, the lock, Ctrl-D, and on the
real trees a kill -9 campaign and a copy for another flavour."""

import fcntl
import os
import random
import re
import select
import shutil
import signal
import stat
import subprocess
import tempfile
import termios
import time

import pytest

from conftest import BASES, LONG, REAL_TREES, seeds, real_tree_for
import conflib

HERE = os.path.dirname(os.path.abspath(__file__))
NO_END = 'its last line has no end (cut off by a kill?): end or remove it'
NOT_REGULAR = 'not a regular file: give the name of a file'
SYMLINK = 'a symbolic link, not followed: give the real path'
IN_USE = 'in use by another conf: let that one end first'
GONE = 'changed, replaced or removed by someone else'
END = '* The answers read from the journal end here\n'


def no_folder(journal):
    return 'folder %s does not exist: create it first' % \
        os.path.dirname(journal)


def mark(journal):
    """What follows an answer taken from the journal in the transcript."""
    return (' (from %s)' % journal).encode()


def read_line(journal, n):
    """The line a resume starts stderr with."""
    return ('* %d answer%s read from %s\n'
            % (n, '' if n == 1 else 's', journal)).encode()


@pytest.fixture
def series(base):
    """A base whose series has the journal."""
    if not base.has_journal:
        pytest.skip('patches/%s has no journal series' % base.series)
    return base


@pytest.fixture(scope='module', params=sorted(REAL_TREES))
def real_journal(request, tmp_path_factory):
    """Each real tree whose base has the journal series."""
    version = request.param
    base = next((b for b in BASES if b.version.startswith(version + '.')),
                None)
    if base is None or not base.has_journal:
        pytest.skip('no built base with the journal for %s' % version)
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
             dot_config=None, env=None, kconfig=None):
    """The patched conf --oldconfig on the demo in a fresh directory (gone
    after the run); the Result has the .config it left."""
    demo_kconfig, srctree, old = demo
    return conflib.run_conf(conf or series.patched, '--oldconfig',
                            kconfig or demo_kconfig, srctree, tmp_path,
                            old if dot_config is None else dot_config, data,
                            env if env is not None else demo_env(journal),
                            timeout=20)


def run_in(conf, d, env, data, mode='--oldconfig', redirect='',
           kconfig=None, srctree=conflib.DEMO, timeout=20, user=None):
    """conf run in directory d, which it leaves as it is, with a shell
    redirection (such as '>&-') on it; on the demo unless told; as the
    user id user if given."""
    if kconfig is None:
        # conf is build/<version>/<variant>/<kconfig folder>/conf
        top = os.path.dirname(os.path.abspath(conf))
        while not os.path.isfile(os.path.join(top, 'base.env')) and \
                top != os.path.dirname(top):
            top = os.path.dirname(top)
        kconfig = conflib.demo_kconfig(top)
    env = dict(env, srctree=srctree)
    env.setdefault('KCONFIG_DEFCONFIG_LIST', '')
    return subprocess.run(['bash', '-c', 'exec "$0" "$@" ' + redirect,
                           conf, mode, kconfig], input=data, cwd=str(d),
                          env=env, capture_output=True, timeout=timeout,
                          user=user)


def assert_refused(r, journal, why):
    """Refused before anything else: exit 1, the one error line, nothing
    on stdout (the parse, which prints nothing, did not start either: see
    test_refused_before_the_parse)."""
    assert r.returncode == 1
    assert r.stderr == ('%s: error: %s\n' % (journal, why)).encode()
    assert r.stdout == b''


def assert_answer_lines(text):
    assert all(line.startswith(('CONFIG_', '# CONFIG_'))
               for line in text.splitlines()), text[:2000]


def take_off_unfinished(conf, kconfig, srctree, d, env):
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


# a question in conf's output at a terminal: a new symbol, or a choice
# with a new member (conf shows the others' answers)
QUESTION = re.compile(rb'\(NEW\) |((?:[ >]+\d+\. [^\r\n]*\r\n)+) *'
                      rb'choice\[1-\d+\?\]: ')


class TtySession:
    """conf at a terminal: stdin, stdout and stderr on one pseudo-terminal,
    which echoes what is typed, as a person's shell gives them.  wait()
    returns what the terminal showed since the last line typed, once conf
    waits for a line from it (and has read all that was typed), or None
    once conf exited: a question conf answers from the journal never
    waits."""

    def __init__(self, argv, cwd, env, timeout=60):
        self.master, self.slave = os.openpty()
        # a background job inherits SIGINT ignored: Ctrl-C must work
        self.p = subprocess.Popen(
            argv, stdin=self.slave, stdout=self.slave, stderr=self.slave,
            cwd=cwd, env=env,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.deadline = time.monotonic() + timeout
        self.out = bytearray()
        self.mark = 0
        self.waits = []     # where the output was each time conf waited

    def _drain(self, wait):
        r, _, _ = select.select([self.master], [], [], wait)
        if not r:
            return False
        data = os.read(self.master, 65536)
        self.out += data
        return bool(data)

    def _reading(self):
        pending = fcntl.ioctl(self.slave, termios.FIONREAD, b'\0' * 4)
        if pending != b'\0' * 4:
            return False
        try:
            with open('/proc/%d/syscall' % self.p.pid) as f:
                fields = f.read().split()
        except OSError:
            return False
        return len(fields) > 1 and fields[0] == '0' and fields[1] == '0x0'

    def wait(self):
        pause = 0.0002
        while True:
            if time.monotonic() > self.deadline:
                self.p.kill()
                raise conflib.Hang('conf did not ask or exit in time:\n' +
                                   self.text()[-2000:])
            if self._drain(pause):
                pause = 0.0002
                continue
            pause = min(2 * pause, 0.002)
            if self.p.poll() is not None:
                while self._drain(0):
                    pass
                return None
            if self._reading():
                while self._drain(0):
                    pass
                # nothing since the line typed, not even its echo: the
                # terminal has not passed it on yet (a loaded machine), and
                # conf still waits in the read before it
                if self.mark and len(self.out) == self.mark:
                    continue
                self.waits.append(len(self.out))
                return self.text(self.mark)

    def questions(self):
        while True:
            text = self.wait()
            if text is None:
                return
            yield conflib.parse_question(text)

    def send(self, line):
        os.write(self.master, line.encode() + b'\n')
        self.mark = len(self.out)

    def send_eof(self):
        """Ctrl-D at the start of a line: the end of the input."""
        os.write(self.master, b'\x04')
        self.mark = len(self.out)

    def close(self):
        """Ctrl-D at every question left; the exit status."""
        while self.wait() is not None:
            self.send_eof()
        os.close(self.master)
        os.close(self.slave)
        return self.p.returncode

    def kill(self, sig=signal.SIGKILL):
        self.p.send_signal(sig)
        self.p.wait()
        while self._drain(0):
            pass
        os.close(self.master)
        os.close(self.slave)

    def text(self, start=0):
        return self.out[start:].decode(errors='replace').replace('\r\n', '\n')

    def taken_after(self, marker):
        """How many questions after the first marker conf answered itself:
        prompts where it did not wait."""
        start = self.out.find(marker.replace('\n', '\r\n').encode())
        assert start >= 0, marker
        return sum(1 for m in QUESTION.finditer(self.out, start)
                   if (m.group(1) is None or b'(NEW)' in m.group(1)) and
                   m.end() not in self.waits)


def tty_start(conf, d, journal, kconfig, srctree, timeout=60, env=None):
    """conf --oldconfig at a terminal in d, on its .config, with the
    journal."""
    env = dict(env or plain_env(), srctree=srctree)
    if journal is not None:
        env['KCONFIG_JOURNAL'] = str(journal)
    env.setdefault('KCONFIG_DEFCONFIG_LIST', '')
    return TtySession([conf, '--oldconfig', kconfig], str(d), env, timeout)


def tty_run(series, demo, d, journal, lines):
    """The demo at a terminal: each of lines typed at the next question
    that waits, then Ctrl-D at each one left.  (transcript, exit status,
    the questions read from the terminal)."""
    kconfig, srctree, _ = demo
    s = tty_start(series.patched, d, journal, kconfig, srctree)
    lines = list(lines)
    asked = []
    for q in s.questions():
        asked.append(q.key)
        if not lines:
            break
        s.send(lines.pop(0))
    status = s.close()
    return s, status, asked


# ---------------------------------------------------------------------------
# What is kept, and when: on the demo

def test_kept_before_the_next_question(series, demo, tmp_path):
    """Each answer is in the file when the next question is asked, a choice
    as its members; '<' cuts the file back; the defaults taken at the end
    of the input are not written; nothing is said on a pipe."""
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
    assert journal.read_bytes() == b''
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
    for said in ('Answers are kept', 'answers read', 'end here',
                 'not asked for'):
        assert said not in out


def test_resume_takes_the_answers(series, demo, tmp_path):
    """Run again with the journal: the answers are taken as if typed, in
    the transcript too, and nothing is written again; '<' over answers
    taken and answers given again appends them, and they win the next
    time; lines conf wrote are read back without a warning."""
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
    # the transcript: each answer followed by where it was taken from
    assert again.stdout.replace(mark(journal), b'') == first.stdout
    assert again.stdout.count(mark(journal)) == typed.count(b'\n')
    assert again.stderr == read_line(journal, 10)
    # without the last answer, '<' at its question goes back over two
    # answers taken (nothing to cut: they are taken back), given again:
    # appended, and they win
    base = kept[:kept.rstrip(b'\n').rfind(b'\n') + 1]
    assert kept[len(base):] == b'# CONFIG_DEBUG_KERNEL is not set\n'
    journal.write_bytes(base)
    third = demo_run(series, demo, tmp_path, journal, b'<\n<\nn\nde\nn\n')
    assert third.returncode == 0
    assert journal.read_bytes() == base + (
        b'# CONFIG_WLAN_REGDOM is taken back\n'
        b'# CONFIG_WLAN_DEMO_DEBUG is taken back\n'
        b'# CONFIG_WLAN_DEMO_DEBUG is not set\nCONFIG_WLAN_REGDOM="de"\n'
        b'# CONFIG_DEBUG_KERNEL is not set\n')
    assert b'# CONFIG_WLAN_DEMO_DEBUG is not set\n' in third.config
    fourth = demo_run(series, demo, tmp_path, journal, b'')
    assert fourth.config == third.config
    assert fourth.stderr == read_line(journal, 10)


def test_resume_is_stock_fed_the_answers(series, demo, tmp_path):
    """A journal written by a session with '<', refused lines and help,
    killed nowhere: resumed with no input, conf asks the same questions,
    and ends with the .config and exit status of stock conf fed the
    answers that survived."""
    kconfig, srctree, old = demo
    for seed in seeds(10, 100):
        rng = random.Random('resume%d' % seed)
        journal = tmp_path / ('journal%d' % seed)
        t = conflib.back_session(series.patched, '--oldconfig', kconfig,
                                 srctree, str(tmp_path), old,
                                 demo_env(journal), seed=rng.randrange(10**6),
                                 timeout=60)
        if t.result.returncode or b'end of file' in t.result.stderr:
            continue
        again = demo_run(series, demo, tmp_path, journal, b'')
        stock = conflib.run_conf(series.stock, '--oldconfig', kconfig,
                                 srctree, tmp_path, old,
                                 ''.join(a + '\n' for _, a in t.survived)
                                 .encode(), plain_env())
        assert (again.returncode, again.config) == \
            (stock.returncode, stock.config), seed
        # the same questions (the answers shown aside: a hex value typed
        # without its 0x is kept with it)
        assert unanswered(again.stdout) == unanswered(stock.stdout), seed


def unanswered(out):
    """A transcript without what follows the prompts."""
    return re.sub(rb'(\] |\]: |\(NEW\) ).*', rb'\1', out)


def test_choice_by_its_member(series, demo, tmp_path):
    """A choice is answered by the number of its member set to y, and what
    follows from it is asked."""
    journal = tmp_path / 'journal'
    journal.write_text('CONFIG_DEFAULT_HOSTNAME="h"\nCONFIG_LOG_BUF_SHIFT=13\n'
                       'CONFIG_PHYSICAL_START=0x2000\nCONFIG_HZ_1000=y\n'
                       '# CONFIG_DEBUG_KERNEL is not set\n'
                       'CONFIG_DEBUG_LEVEL=5\n')
    r = demo_run(series, demo, tmp_path, journal, b'y\n\n')
    assert r.returncode == 0
    assert b'choice[1-3?]: 3' + mark(journal) + \
        b'\nFine-tune the 1000 HZ timer (HZ_TUNING) [N/y/?] (NEW) y\n' \
        in r.stdout
    assert b'CONFIG_HZ_1000=y\nCONFIG_HZ_TUNING=y\n' in r.config


def test_first_visible_member_set_to_y(series, demo, tmp_path):
    """Two members of a choice set to y (conf writes a choice as all its
    visible members, so only an edit by hand does that): the first one in
    the menu is taken, the other is left."""
    journal = tmp_path / 'journal'
    head = (b'CONFIG_DEFAULT_HOSTNAME="h"\nCONFIG_LOG_BUF_SHIFT=13\n'
            b'CONFIG_PHYSICAL_START=0x2000\n')
    journal.write_bytes(head + b'CONFIG_HZ_1000=y\nCONFIG_HZ_100=y\n')
    r = demo_run(series, demo, tmp_path, journal, b'\n' * 10)
    assert r.returncode == 0
    assert b'  3. 1000 HZ (HZ_1000) (NEW)\nchoice[1-3?]: 1' + \
        mark(journal) + b'\n' in r.stdout
    assert b'CONFIG_HZ_100=y\n' in r.config


# ---------------------------------------------------------------------------
# Refusals: before the parse, on one line that says what to do

def refusal_cases(tmp_path):
    """(name, journal, what is refused); the files made."""
    (tmp_path / 'dir').mkdir()
    os.mkfifo(tmp_path / 'fifo')
    (tmp_path / 'link').symlink_to(tmp_path / 'target')
    (tmp_path / 'cut').write_bytes(b'CONFIG_DEFAULT_HOSTNAME="a"\nCONFIG_LO')
    (tmp_path / 'held').write_bytes(b'')
    return [('directory', tmp_path / 'dir', NOT_REGULAR),
            ('fifo', tmp_path / 'fifo', NOT_REGULAR),
            ('device', '/dev/null', NOT_REGULAR),
            ('symlink', tmp_path / 'link', SYMLINK),
            ('cut line', tmp_path / 'cut', NO_END),
            ('in use', tmp_path / 'held', IN_USE),
            ('missing folder', tmp_path / 'none' / 'journal',
             no_folder(tmp_path / 'none' / 'journal'))]


def test_refused_before_the_parse(series, tmp_path):
    """Issue 37, items 3 and 5: every refusal comes before the Kconfig
    files are parsed (here a Kconfig that does not exist: the parse would
    say so first), on one line that names the file and says what to do;
    a directory was refused after the parse, with the bare strerror,
    and the symbolic link without saying what to do.  Issue 45, item 8:
    a file in a folder that does not exist names the folder (it said
    "No such file or directory: give a file you can read and write")."""
    d = fresh(tmp_path, 'd', None)
    with open(tmp_path / 'held', 'w') as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        for name, journal, why in refusal_cases(tmp_path):
            r = run_in(series.patched, d, demo_env(journal), b'',
                       kconfig='no-such-Kconfig')
            assert_refused(r, journal, why)
            assert ': ' in why, name       # what to do
    assert not (tmp_path / 'target').exists()
    assert os.listdir(d) == []


@pytest.mark.parametrize('kind', ['directory', 'fifo', 'device', 'symlink',
                                  'cut line', 'in use', 'missing folder'])
def test_refusal_leaves_everything(series, demo, tmp_path, kind):
    """Refused: no question, .config and the file as they were, and the
    target of a symbolic link neither written nor created."""
    cases = {name: (j, why) for name, j, why in refusal_cases(tmp_path)}
    journal, why = cases[kind]
    before = (conflib.read_file(journal) if os.path.isfile(journal)
              and not os.path.islink(journal) else None)
    with open(tmp_path / 'held', 'w') as held:
        if kind == 'in use':
            fcntl.flock(held, fcntl.LOCK_EX)
        r = demo_run(series, demo, tmp_path, journal,
                     b'myhost\n13\n' + b'\n' * 40)
    assert_refused(r, journal, why)
    assert r.config == demo[2]
    if before is not None:
        assert conflib.read_file(journal) == before
    if kind == 'fifo':
        assert stat.S_ISFIFO(os.lstat(journal).st_mode)
    assert not (tmp_path / 'target').exists()
    assert not (tmp_path / 'none').exists()


def test_refuse_unreadable(series, demo, tmp_path):
    """A file conf cannot read and write (someone else's): refused before
    the parse, with errno's words and what to do."""
    if os.getuid() != 0:
        pytest.skip('needs root, to run conf as another user')
    # pytest's own temporary directories are root's alone
    d = tempfile.mkdtemp()
    try:
        os.chmod(d, 0o777)
        # conf copied there: the clone may be under a folder that other
        # users cannot enter (mktemp -d, a home of mode 0700)
        conf = os.path.join(d, 'conf')
        shutil.copy(series.patched, conf)
        os.chmod(conf, 0o755)
        try:
            r = subprocess.run([conf, '--help'], user=65534,
                               capture_output=True)
        except PermissionError as e:
            pytest.skip('uid 65534 cannot run conf in %s (%s): give a '
                        'TMPDIR that others can enter' % (d, e))
        if r.returncode != 1:
            pytest.skip('conf cannot be run as uid 65534 here: %r'
                        % r.stderr[-200:])
        journal = os.path.join(d, 'journal')
        with open(journal, 'w') as f:
            f.write('CONFIG_DEFAULT_HOSTNAME="root"\n')
        r = run_in(conf, d, demo_env(journal), b'',
                   kconfig='no-such-Kconfig', user=65534)
        assert_refused(r, journal, '%s: give a file you can read and write'
                       % os.strerror(13))
    finally:
        shutil.rmtree(d)


def test_unfinished_last_line_left_alone(series, demo, tmp_path):
    """A last line with no end is refused, and the file left alone (an
    answer was once glued to it)."""
    for content in (b'CONFIG_DEFAULT_HOSTNAME="a"', b'#',
                    b'CONFIG_DEFAULT_HOSTNAME="a"\nCONFIG_LOG_BUF_SH'):
        journal = tmp_path / 'journal'
        journal.write_bytes(content)
        r = demo_run(series, demo, tmp_path, journal, b'myhost\n13\n')
        assert_refused(r, journal, NO_END)
        assert journal.read_bytes() == content


# ---------------------------------------------------------------------------
# Descriptors, and the file changed under conf

# the last three questions get their defaults at the end of the input,
# which conf says on stderr
TYPED = b'myhost\n13\n\n3\ny\ny\nm\n'


@pytest.mark.parametrize('closed', ['stdout', 'stderr'])
def test_closed_stdout_or_stderr(series, tmp_path, demo, closed):
    """With stdout or stderr closed, the journal is not opened on it: it
    holds the answers and nothing else, and .config is the one stock conf
    writes with the same descriptor closed; resumed that way too."""
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
    d2 = fresh(tmp_path, 'closed2', old)
    shutil.copy(ref / 'journal', d2 / 'journal')
    r = run_in(series.patched, d2, with_journal(plain_env(), d2), b'',
               redirect=redirect)
    assert r.returncode == 0
    assert (d2 / 'journal').read_bytes() == want
    assert (d2 / '.config').read_bytes() == (ref / '.config').read_bytes()


def test_closed_stdin(series, tmp_path, demo):
    """A resume with stdin closed takes the journal's answers and ends with
    the .config of stock conf fed them; the defaults conf takes when stdin
    cannot be read are not written."""
    old = demo[2]
    d = fresh(tmp_path, 'd', old)
    kept = b'CONFIG_DEFAULT_HOSTNAME="fromj"\nCONFIG_LOG_BUF_SHIFT=13\n'
    (d / 'journal').write_bytes(kept)
    r = run_in(series.patched, d, with_journal(plain_env(), d), b'',
               redirect='<&-')
    assert r.returncode == 0
    stock = fresh(tmp_path, 'stock', old)
    run_in(series.stock, stock, plain_env(), b'fromj\n13\n')
    assert (d / '.config').read_bytes() == (stock / '.config').read_bytes()
    assert (d / 'journal').read_bytes() == kept


def test_closed_stderr_warnings_not_in_the_journal(series, tmp_path, demo):
    """With stderr closed, the warnings conf prints while reading the
    journal (an unknown symbol) must not land in the journal."""
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
    """The journal replaced, removed, emptied or appended to by someone
    else while conf waits: at its next write (an answer, or a cut by '<')
    conf says so once and goes on without it; the session ends with the
    .config of the same lines typed without a journal; the file at the
    name is not written to again, and a second conf on the name is not
    refused."""
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
            other = fresh(tmp_path, 'other', old)
            r = run_in(series.patched, other, env, b'')
            assert r.returncode == 0, r.stderr
            assert b'in use by another conf' not in r.stderr
            assert conflib.read_file(journal) == after
    assert s.close() == 0
    assert bytes(s.err).count(b'answers no longer kept there') == 1
    assert conflib.read_file(journal) == after
    assert after is None or b'\0' not in after
    plain = fresh(tmp_path, 'plain', old)
    r = run_in(series.patched, plain, plain_env(),
               ''.join(line + '\n' for line in s.sent).encode())
    assert r.returncode == 0
    assert (d / '.config').read_bytes() == (plain / '.config').read_bytes()


def test_reads_the_file_it_locked(series, demo, tmp_path, shim):
    """A symbolic link renamed over the journal right after conf locked it
    (an LD_PRELOAD shim does it in flock()) is not followed: conf reads the
    file it locked; at its first write it sees that the name is another
    file, says so and leaves it alone."""
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
    assert b'(DEFAULT_HOSTNAME) [(none)] (NEW) mine' + mark(journal) + \
        b'\n' in r.stdout
    assert b'planted' not in r.stdout and b'=20' not in r.stdout
    assert b'(LOG_BUF_SHIFT) [17] (NEW) 14\n' in r.stdout
    assert ('%s: warning: %s: answers no longer kept there\n'
            % (journal, GONE)).encode() in r.stderr
    assert target.read_bytes() == (b'CONFIG_DEFAULT_HOSTNAME="planted"\n'
                                   b'CONFIG_LOG_BUF_SHIFT=20\n')
    cfg = (d / '.config').read_bytes()
    assert b'CONFIG_DEFAULT_HOSTNAME="mine"\n' in cfg
    assert b'CONFIG_LOG_BUF_SHIFT=14\n' in cfg


# ---------------------------------------------------------------------------
# Nothing asked, nothing kept

@pytest.mark.parametrize('mode', ['--syncconfig', '--oldconfig'])
def test_nothing_asked_creates_nothing(series, demo, tmp_path, mode):
    """With nothing to ask (syncconfig as make runs it, or oldconfig on a
    complete .config), no journal is left and a new one is not
    mentioned."""
    kconfig, srctree, old = demo
    d = fresh(tmp_path, 'd', old)
    r = run_in(series.patched, d, plain_env(), b'\n' * 40)
    assert r.returncode == 0
    journal = d / 'journal'
    r = run_in(series.patched, d, with_journal(plain_env(), d), b'', mode=mode)
    assert r.returncode == 0
    assert not os.path.lexists(journal)
    assert b'journal' not in r.stdout + r.stderr


def test_one_member_choice_keeps_nothing(series, tmp_path):
    """oldconfig with only a new choice of one visible member: conf shows
    the question and chooses the member itself, which is no answer: no
    journal is left."""
    d = tmp_path / 'one'
    d.mkdir()
    (d / 'Kconfig').write_text('config A\n\tbool "A"\n\tdefault y\n\n'
                               'choice\n\tprompt "Pick"\n\nconfig P1\n'
                               '\tbool "P1"\n\nconfig P2\n\tbool "P2"\n'
                               '\tdepends on !A\n\nendchoice\n')
    (d / '.config').write_text('CONFIG_A=y\n')
    r = run_in(series.patched, d, with_journal(plain_env(), d), b'',
               kconfig='Kconfig', srctree=str(d))
    assert r.returncode == 0 and b'choice[1]: 1\n' in r.stdout
    assert not (d / 'journal').exists()


def test_oldconfig_asking_nothing_names_the_answers(series, demo,
                                                   tmp_path):
    """oldconfig on a complete .config with a journal that has answers:
    nothing is asked, and stderr says how many answers were read and
    that none was asked for; the file is left as it was."""
    kconfig, srctree, old = demo
    first = demo_run(series, demo, tmp_path, tmp_path / 'other')
    journal = tmp_path / 'journal'
    journal.write_bytes(b'CONFIG_DEFAULT_HOSTNAME="x"\n')
    os.utime(journal, (1, 1))
    r = demo_run(series, demo, tmp_path, journal, b'',
                 dot_config=first.config)
    stock = conflib.run_conf(series.stock, '--oldconfig', kconfig, srctree,
                             tmp_path, first.config, b'', plain_env())
    assert r.returncode == 0 and r.stdout == stock.stdout
    assert r.stderr == read_line(journal, 1) + (
        '* 1 answer in %s not asked for: CONFIG_DEFAULT_HOSTNAME\n'
        % journal).encode()
    assert os.stat(journal).st_mtime == 1
    assert journal.read_bytes() == b'CONFIG_DEFAULT_HOSTNAME="x"\n'


def test_other_modes_leave_the_journal_alone(series, demo, tmp_path):
    """Issue 45, item 1: every mode but oldconfig and oldaskconfig
    (syncconfig, which make runs in every build, above all) neither opens,
    creates, locks nor reads KCONFIG_JOURNAL: exported, and naming a file
    of stale answers that another conf holds (a second make in the tree),
    the same file not held (its answers were taken inside the build), a
    symbolic link or a file in a folder that does not exist (both were
    refused), each mode prints and writes exactly what it does without it,
    on an old .config with new questions and on a complete one, and the
    file is left as it was."""
    kconfig, srctree, old = demo
    complete = demo_run(series, demo, tmp_path, tmp_path / 'other').config
    journal = tmp_path / 'journal'
    stale = (b'CONFIG_DEFAULT_HOSTNAME="stale"\nCONFIG_LOG_BUF_SHIFT=20\n'
             b'CONFIG_HZ_100=y\nCONFIG_WIRELESS=y\n')
    journal.write_bytes(stale)
    os.utime(journal, (1, 1))
    (tmp_path / 'link').symlink_to(tmp_path / 'target')
    defconfig = tmp_path / 'defconfig'
    defconfig.write_bytes(old)
    saved = tmp_path / 'saved'
    modes = ['--syncconfig', '--defconfig=%s' % defconfig,
             '--savedefconfig=%s' % saved] + \
        conflib.other_modes(series.patched)
    env = dict(plain_env(), KCONFIG_SEED='0x1234')
    cases = [(journal, True), (journal, False), (tmp_path / 'link', False),
             (tmp_path / 'none' / 'journal', False)]
    for mode in modes:
        for dot_config in (old, complete):
            want = conflib.run_conf(series.patched, mode, kconfig, srctree,
                                    tmp_path, dot_config, b'\n' * 20, env)
            want_saved = conflib.read_file(saved)
            for j, held in cases:
                with open(journal) as f:
                    if held:
                        fcntl.flock(f, fcntl.LOCK_EX)
                    r = conflib.run_conf(series.patched, mode, kconfig,
                                         srctree, tmp_path, dot_config,
                                         b'\n' * 20,
                                         dict(env, KCONFIG_JOURNAL=str(j)))
                assert not want.differences(r), (mode, j, held,
                                                 want.differences(r),
                                                 r.stderr[-300:])
                assert conflib.read_file(saved) == want_saved, (mode, j)
    assert journal.read_bytes() == stale
    assert os.stat(journal).st_mtime == 1
    assert not os.path.lexists(tmp_path / 'target')
    assert not os.path.lexists(tmp_path / 'none')


def test_unknown_symbol_warned(series, demo, tmp_path):
    """An unknown symbol in the journal is warned of with its line, without
    KCONFIG_WARN_UNKNOWN_SYMBOLS (an answer another tree had); .config's
    are not (as before)."""
    journal = tmp_path / 'journal'
    journal.write_bytes(b'CONFIG_DEFAULT_HOSTNAME="x"\nCONFIG_NO_SUCH=y\n'
                        b'# CONFIG_GONE_TOO is not set\n')
    r = demo_run(series, demo, tmp_path, journal,
                 dot_config=demo[2] + b'CONFIG_OLD_GONE=y\n')
    assert r.returncode == 0
    assert r.stderr.startswith((
        '%s:2:warning: unknown symbol: NO_SUCH\n'
        '%s:3:warning: unknown symbol: GONE_TOO\n'
        % (journal, journal)).encode())
    assert b'OLD_GONE' not in r.stderr


MODULES_OFF = (b'# CONFIG_MODULES is not set\nCONFIG_LOCALVERSION=""\n'
               b'CONFIG_NET=y\n')


@pytest.mark.parametrize('journal_text,typed,stock_typed,dot_config,key', [
    # an int out of its range
    (b'CONFIG_LOG_BUF_SHIFT=99\n', b'myhost\n13\n', b'myhost\n13\n', None,
     'LOG_BUF_SHIFT'),
    # 'm' where modules are off
    (b'CONFIG_WLAN_DEMO=m\n', b'h\n13\n\n\ny\ny\n', b'h\n13\n\n\ny\ny\n',
     MODULES_OFF, 'WLAN_DEMO'),
], ids=['int-out-of-range', 'm-without-modules'])
def test_refused_answer_not_taken(series, demo, tmp_path, journal_text,
                                  typed, stock_typed, dot_config, key):
    """Issue 37, item 2 (on a pipe): an answer the question refuses is not
    shown as typed: one warning names the file, the line and why, the
    question is asked as it is without a journal (stdout is stock conf's
    for the lines typed, no help), and the answer typed is kept."""
    journal = tmp_path / 'journal'
    journal.write_bytes(journal_text)
    r = demo_run(series, demo, tmp_path, journal, typed + b'\n' * 20,
                 dot_config=dot_config)
    stock = conflib.run_conf(series.stock, '--oldconfig', demo[0], demo[1],
                             tmp_path, dot_config or demo[2],
                             stock_typed + b'\n' * 20, plain_env())
    assert r.returncode == stock.returncode == 0
    line = journal_text.decode().strip()
    assert r.stderr == read_line(journal, 1) + (
        '%s: warning: %s is out of range here, not taken\n'
        % (journal, line)).encode()
    assert r.stdout == stock.stdout
    assert r.config == stock.config
    assert journal.read_bytes().startswith(journal_text)
    assert journal.read_bytes().count(b'\n') > 1


# ---------------------------------------------------------------------------
# At a terminal, and only there

def test_terminal_new_journal_says_how_to_resume(series, demo, tmp_path):
    """Issue 37, item 4: at a terminal, one line before the first question
    says that the answers are kept and how to resume, so that it is on the
    screen when Ctrl-C or a kill ends conf; run again, one line says how
    many answers were read, they are shown as taken from the journal, and
    one line where they end, before the first question read from the
    terminal."""
    kconfig, srctree, old = demo
    d = fresh(tmp_path, 'd', old)
    journal = d / 'journal'
    s = tty_start(series.patched, d, journal, kconfig, srctree)
    first = s.wait()
    assert first.startswith('* Answers are kept in %s; run again with it '
                            'to resume\n*\n* Restart config...\n' % journal)
    assert first.count('* Answers are kept') == 1
    s.send('tty-host')
    s.wait()
    s.send('14')
    s.wait()
    s.kill(signal.SIGINT)
    assert s.p.returncode == -signal.SIGINT
    assert journal.read_bytes() == (b'CONFIG_DEFAULT_HOSTNAME="tty-host"\n'
                                    b'CONFIG_LOG_BUF_SHIFT=14\n')
    assert (d / '.config').read_bytes() == old
    s = tty_start(series.patched, d, journal, kconfig, srctree)
    first = s.wait()
    assert first.startswith('* 2 answers read from %s\n*\n' % journal)
    assert first.endswith('(DEFAULT_HOSTNAME) [(none)] (NEW) tty-host (from '
                          '%s)\nKernel log buffer size (16 => 64KB, 17 => '
                          '128KB) (LOG_BUF_SHIFT) [17] (NEW) 14 (from %s)\n'
                          % (journal, journal) + END +
                          'Physical address where the kernel is loaded '
                          '(PHYSICAL_START) [0x1000000] (NEW) ')
    assert 'Answers are kept' not in first
    assert s.close() == 0
    assert 'not asked for' not in s.text()


def test_terminal_back_then_ctrl_c(series, demo, tmp_path):
    """Issue 45, item 2, at a terminal as it happens: two answers typed,
    Ctrl-C, a resume takes them; '<' at the next question goes back over
    the second, Ctrl-C: the next run reads one answer, says that the
    answers end after it, and asks the question gone back to (the answer
    taken back came back, shown as typed, with the end line after it)."""
    kconfig, srctree, old = demo
    d = fresh(tmp_path, 'd', old)
    journal = d / 'journal'
    s = tty_start(series.patched, d, journal, kconfig, srctree)
    s.wait()
    s.send('tty-host')
    s.wait()
    s.send('14')
    s.wait()
    s.kill(signal.SIGINT)
    s = tty_start(series.patched, d, journal, kconfig, srctree)
    assert s.wait().endswith('(PHYSICAL_START) [0x1000000] (NEW) ')
    s.send('<')
    assert s.wait().endswith('* Back to the previous question\n'
                             'Kernel log buffer size (16 => 64KB, 17 => '
                             '128KB) (LOG_BUF_SHIFT) [17] (NEW) ')
    assert journal.read_bytes().endswith(
        b'# CONFIG_LOG_BUF_SHIFT is taken back\n')
    s.kill(signal.SIGINT)
    s = tty_start(series.patched, d, journal, kconfig, srctree)
    first = s.wait()
    assert first.startswith('* 1 answer read from %s\n' % journal)
    assert first.endswith('(DEFAULT_HOSTNAME) [(none)] (NEW) tty-host (from '
                          '%s)\n%sKernel log buffer size (16 => 64KB, 17 => '
                          '128KB) (LOG_BUF_SHIFT) [17] (NEW) '
                          % (journal, END))
    s.send('15')
    assert s.close() == 0
    assert 'CONFIG_LOG_BUF_SHIFT=15\n' in (d / '.config').read_text()


def test_back_kept_at_once(series, demo, tmp_path):
    """Issue 45, item 2, on a pipe as it happens: three answers taken from
    the journal, '<' twice goes back over two of them, and one is answered
    again: the file takes them back at once, and after a kill while conf
    waits the resume waits at the question the killed conf waited at,
    takes the answer given again and not the other, and, given no more
    input, ends with the .config of stock conf given the answers that
    stood."""
    kconfig, srctree, old = demo
    d = fresh(tmp_path, 'd', old)
    journal = d / 'journal'
    text = (b'CONFIG_DEFAULT_HOSTNAME="h"\nCONFIG_LOG_BUF_SHIFT=13\n'
            b'CONFIG_PHYSICAL_START=0x2000\n')
    journal.write_bytes(text)
    env = with_journal(plain_env(), d)
    s = conflib.start(series.patched, '--oldconfig', kconfig, srctree,
                      str(d), None, env, 30, fresh=False)
    qs = s.questions()
    assert next(qs).kind == 'choice'
    s.send('<')
    assert next(qs).key == ('sym', 'PHYSICAL_START')
    assert journal.read_bytes() == text + \
        b'# CONFIG_PHYSICAL_START is taken back\n'
    s.send('<')
    assert next(qs).key == ('sym', 'LOG_BUF_SHIFT')
    s.send('14')
    assert next(qs).key == ('sym', 'PHYSICAL_START')
    assert journal.read_bytes() == text + (
        b'# CONFIG_PHYSICAL_START is taken back\n'
        b'# CONFIG_LOG_BUF_SHIFT is taken back\nCONFIG_LOG_BUF_SHIFT=14\n')
    s.kill()
    s = conflib.start(series.patched, '--oldconfig', kconfig, srctree,
                      str(d), None, env, 30, fresh=False)
    qs = s.questions()
    assert next(qs).key == ('sym', 'PHYSICAL_START')
    assert s.out.endswith(b'(LOG_BUF_SHIFT) [17] (NEW) 14' + mark(journal) +
                          b'\nPhysical address where the kernel is loaded '
                          b'(PHYSICAL_START) [0x1000000] (NEW) ')
    assert s.close() == 0
    assert bytes(s.err).startswith(read_line(journal, 2))
    stock = conflib.run_conf(series.stock, '--oldconfig', kconfig, srctree,
                             tmp_path, old, b'h\n14\n', plain_env())
    assert (d / '.config').read_bytes() == stock.config


def test_kill_after_back_resumes_where_it_stood(series, demo, tmp_path):
    """Issue 45, item 2, seeded: a journal with some of the answers of an
    earlier session (any of them, not only the first ones), a session on
    it that takes them, answers, goes back with runs of '<' over answers
    taken and typed, and is killed while it waits at a question: the
    resume waits at that question, and given no input ends as the killed
    session would have ended given no more (exit status and .config).
    Sessions whose '<' took back an answer that the file could not cut
    off are counted: they must be a good part."""
    kconfig, srctree, old = demo
    crossed = 0
    for seed in seeds(30, 300):
        rng = random.Random('stood%d' % seed)
        full = tmp_path / ('full%d' % seed)
        demo_run(series, demo, tmp_path, full, conflib.random_stream(rng))
        lines = full.read_bytes().splitlines(True) if full.exists() else []
        kept = b''.join(x for x in lines if rng.random() < 0.6)
        d = fresh(tmp_path, 'd%d' % seed, old)
        journal = d / 'journal'
        journal.write_bytes(kept)
        env = with_journal(plain_env(), d)
        s = conflib.start(series.patched, '--oldconfig', kconfig, srctree,
                          str(d), None, env, 30, fresh=False)
        n = rng.randint(1, 12)
        at = None
        for q in s.questions():
            if len(s.sent) == n:
                at = q.key
                break
            s.send('<' if rng.random() < 0.3 else
                   conflib.random_answer(rng, q))
        if at is None:
            s.close()
            continue
        s.kill()
        crossed += b'taken back' in journal.read_bytes()
        # the killed session, given no more input
        (tmp_path / ('copy%d' % seed)).write_bytes(kept)
        want = conflib.run_conf(series.patched, '--oldconfig', kconfig,
                                srctree, tmp_path, old,
                                ''.join(x + '\n' for x in s.sent).encode(),
                                demo_env(tmp_path / ('copy%d' % seed)))
        r = conflib.start(series.patched, '--oldconfig', kconfig, srctree,
                          str(d), None, env, 30, fresh=False)
        assert next(r.questions(), None).key == at, (seed, s.sent)
        assert r.close() == want.returncode, seed
        assert (d / '.config').read_bytes() == want.config, (seed, s.sent)
    print('\n%d sessions took back answers that the file could not cut off'
          % crossed)
    assert crossed >= len(seeds(30, 300)) // 4


def test_resume_said_on_a_pipe(series, demo, tmp_path):
    """Issue 45, item 3, on a pipe (as in CI): a resume says on stderr,
    before anything else (here an unknown symbol of .config), how many
    answers it read from which file; each answer it takes is followed by
    '(from FILE)' in the transcript, which is otherwise stock conf's for
    the same answers; at the end one line names every answer of the file
    that no question asked for (all of them, not three).  The lines for a
    terminal are not said."""
    kconfig, srctree, old = demo
    journal = tmp_path / 'journal'
    journal.write_bytes(b'CONFIG_DEFAULT_HOSTNAME="h"\n'
                        b'CONFIG_LOG_BUF_SHIFT=13\n'
                        b'# CONFIG_HZ_100 is not set\n'
                        b'# CONFIG_HZ_250 is not set\nCONFIG_HZ_1000=y\n'
                        b'CONFIG_DEBUG_LEVEL=5\nCONFIG_WLAN_REGDOM="de"\n'
                        b'CONFIG_EXPERT_TRACING=y\nCONFIG_WLAN_DEMO=m\n')
    dot_config = old + b'CONFIG_GONE=y\n'
    env = dict(plain_env(), KCONFIG_WARN_UNKNOWN_SYMBOLS='1')
    r = demo_run(series, demo, tmp_path, journal, b'0x2000\n\n\n\n',
                 dot_config=dot_config, env=dict(env, KCONFIG_JOURNAL=str(
                     journal)))
    stock = conflib.run_conf(series.stock, '--oldconfig', kconfig, srctree,
                             tmp_path, dot_config, b'h\n13\n0x2000\n3\n\n\n\n',
                             env)
    assert r.returncode == stock.returncode == 0 and r.config == stock.config
    assert r.stdout.replace(mark(journal), b'') == stock.stdout
    for taken in (b'(NEW) h', b'(NEW) 13', b'choice[1-3?]: 3'):
        assert taken + mark(journal) + b'\n' in r.stdout
    assert r.stdout.count(mark(journal)) == 3
    head = read_line(journal, 7)
    assert r.stderr.startswith(head + stock.stderr)
    tail = r.stderr[len(head + stock.stderr):].decode()
    m = re.fullmatch(r'\* 4 answers in %s not asked for: (.*)\n'
                     % re.escape(str(journal)), tail)
    assert m and sorted(m.group(1).split(', ')) == [
        'CONFIG_DEBUG_LEVEL', 'CONFIG_EXPERT_TRACING', 'CONFIG_WLAN_DEMO',
        'CONFIG_WLAN_REGDOM']
    for said in ('Answers are kept', END.strip()):
        assert said.encode() not in r.stdout + r.stderr
    # a new journal on a pipe, where nothing was read: stock's output
    r = demo_run(series, demo, tmp_path, tmp_path / 'new', b'x\n',
                 dot_config=dot_config, env=dict(env, KCONFIG_JOURNAL=str(
                     tmp_path / 'new')))
    stock = conflib.run_conf(series.stock, '--oldconfig', kconfig, srctree,
                             tmp_path, dot_config, b'x\n', env)
    assert not stock.differences(r)


def test_terminal_end_line_once_where_the_answers_end(series, demo,
                                                      tmp_path):
    """Issue 37, item 1: answers of another flavour, with a question
    between them that the journal has no answer for: the line where the
    answers read end comes once, right after the last answer taken, and
    no answer is taken after it; every question before it that the
    journal has no answer for is read from the terminal."""
    kconfig, srctree, old = demo
    d = fresh(tmp_path, 'd', old)
    journal = d / 'journal'
    journal.write_text('CONFIG_DEFAULT_HOSTNAME="h"\n'
                       'CONFIG_PHYSICAL_START=0x2000\n'
                       '# CONFIG_HZ_100 is not set\n'
                       '# CONFIG_HZ_250 is not set\nCONFIG_HZ_1000=y\n'
                       '# CONFIG_WIRELESS is not set\n'
                       'CONFIG_DEBUG_KERNEL=y\nCONFIG_NO_SUCH_HERE=y\n')
    s, status, asked = tty_run(series, demo, d, journal,
                               ['15', 'y', '5', 'n'])
    out = s.text()
    assert status == 0
    assert out.count(END) == 1
    assert s.taken_after(END) == 0
    before, after = out.split(END)
    # the last answer taken, then the first question after it
    assert before.endswith('Kernel debugging (DEBUG_KERNEL) [N/y/?] (NEW) '
                           'y (from %s)\n' % journal)
    assert asked == [('sym', 'LOG_BUF_SHIFT'), ('sym', 'HZ_TUNING'),
                     ('sym', 'DEBUG_LEVEL'), ('sym', 'EXPERT_TRACING')]
    # questions were read from the terminal before it, and after it
    assert after.count('(NEW) ') == 2
    assert '(LOG_BUF_SHIFT) [17] (NEW) 15\n' in before
    config = (d / '.config').read_text()
    for line in ('CONFIG_DEFAULT_HOSTNAME="h"', 'CONFIG_LOG_BUF_SHIFT=15',
                 'CONFIG_PHYSICAL_START=0x2000', 'CONFIG_HZ_1000=y',
                 'CONFIG_HZ_TUNING=y', '# CONFIG_WIRELESS is not set',
                 'CONFIG_DEBUG_KERNEL=y', 'CONFIG_DEBUG_LEVEL=5'):
        assert line + '\n' in config


def test_terminal_names_the_answers_not_asked_for(series, demo, tmp_path):
    """At the end, at a terminal, one line names the answers in the file
    that no question took; they stay in the file, and no end line comes
    (they never ended)."""
    kconfig, srctree, old = demo
    d = fresh(tmp_path, 'd', old)
    journal = d / 'journal'
    text = ('CONFIG_DEFAULT_HOSTNAME="h"\nCONFIG_DEBUG_LEVEL=5\n'
            'CONFIG_WLAN_REGDOM="de"\nCONFIG_EXPERT_TRACING=y\n'
            'CONFIG_WLAN_DEMO=m\n')
    journal.write_text(text)
    s, status, _ = tty_run(series, demo, d, journal, [])
    out = s.text()
    assert status == 0
    assert out.startswith('* 5 answers read from %s\n' % journal)
    assert ('\n* 4 answers in %s not asked for: CONFIG_' % journal) in out
    assert re.search(r'not asked for: CONFIG_\w+, CONFIG_\w+, CONFIG_\w+ '
                     r'and 1 more\n', out)
    assert END not in out
    assert journal.read_text() == text


def test_terminal_refused_answer(series, demo, tmp_path):
    """Issue 37, item 2, at a terminal: the refused answer is not shown
    after its prompt; the warning comes before the question, which is
    read from the terminal once, without the help."""
    kconfig, srctree, old = demo
    d = fresh(tmp_path, 'd', old)
    journal = d / 'journal'
    journal.write_text('CONFIG_DEFAULT_HOSTNAME="h"\n'
                       'CONFIG_LOG_BUF_SHIFT=99\n')
    s, status, asked = tty_run(series, demo, d, journal, ['16'])
    out = s.text()
    assert status == 0
    assert asked[0] == ('sym', 'LOG_BUF_SHIFT')
    # it was the last answer read: they end there
    assert ('(DEFAULT_HOSTNAME) [(none)] (NEW) h (from %s)\n%s: warning: '
            'CONFIG_LOG_BUF_SHIFT=99 is out of range here, not taken\n%s'
            'Kernel log buffer size (16 => 64KB, 17 => 128KB) (LOG_BUF_SHIFT) '
            '[17] (NEW) 16\n' % (journal, journal, END)) in out
    assert '99\n' not in out.split('not taken\n')[1]
    assert 'Select the minimal' not in out
    assert out.count(END) == 1
    assert 'CONFIG_LOG_BUF_SHIFT=16\n' in (d / '.config').read_text()


def test_terminal_ctrl_d_journals_no_default(series, demo, tmp_path):
    """Ctrl-D on a terminal, like piped input that ends: the defaults
    taken then are not answers."""
    journal = tmp_path / 'journal'
    r = demo_run(series, demo, tmp_path, journal, b'myhost\n14\n')
    assert r.returncode == 0
    assert journal.read_bytes() == (b'CONFIG_DEFAULT_HOSTNAME="myhost"\n'
                                    b'CONFIG_LOG_BUF_SHIFT=14\n')
    journal.unlink()
    d = fresh(tmp_path, 'tty', demo[2])
    _, status, _ = tty_run(series, demo, d, journal, ['tty-host'])
    assert status == 0
    assert journal.read_bytes() == b'CONFIG_DEFAULT_HOSTNAME="tty-host"\n'


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
    """A write that fails (ENOSPC): conf says so, takes back what it wrote
    of that answer (no unfinished line is left), goes on without the
    journal and writes the complete .config; the resume takes the answers
    that were whole."""
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
    kept = journal.read_bytes()
    assert kept == (text if cut else text + host)
    again = demo_run(series, demo, tmp_path, journal, b'')
    assert again.returncode == 0
    assert (b'CONFIG_DEFAULT_HOSTNAME="a-hostname-long-enough-to-be-cut"'
            in again.config) != cut


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


# ---------------------------------------------------------------------------
# Kills in the middle of writing an answer (the shim)

CAMPAIGN_NAMES = ['L%d' % i for i in range(6)]
CAMPAIGN_EXTRA = ('config FLAG\n\tbool "Flag"\n\n'
                  'choice\n\tprompt "Pick"\n\nconfig PICK_A\n\tbool "A"\n\n'
                  'config PICK_B\n\tbool "B"\n\nconfig PICK_C\n\tbool "C"\n\n'
                  'endchoice\n\n')


def test_kill_within_long_answers(series, tmp_path, shim):
    """SIGKILL at seeded byte offsets within long answers (strings of
    3-4 KB, and a choice's three lines): the shim leaves only the first k
    bytes of the answer, then kills conf.  An unfinished line is refused
    by the resume until taken off; every resume ends with the .config of
    the uninterrupted session."""
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
    print('\nkills within answers: %d kills, %d left a partial line, %d '
          'resumes ended equal' % (kills, partial, equal))
    assert kills >= len(seeds(12, 100)) and partial >= kills // 2


# ---------------------------------------------------------------------------
# On the demo: links, mode, two sessions, the lock, no journal

def test_planted_symlink_near_the_name(series, demo, tmp_path):
    """Symbolic links at names near the journal's (a temporary file of an
    older design) are never opened: the journal is created, the targets
    are untouched."""
    target = tmp_path / 'target'
    target.write_bytes(b'precious\n')
    journal = tmp_path / 'journal'
    for other in ('journal.new', 'journal.tmp', 'journal~'):
        (tmp_path / other).symlink_to(target)
    r = demo_run(series, demo, tmp_path, journal, b'myhost\n' + b'\n' * 40)
    assert r.returncode == 0 and journal.is_file()
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
    journal is refused at once; the first loses nothing."""
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
    assert_refused(r, journal, IN_USE)
    assert q.key == ('sym', 'DEFAULT_HOSTNAME')
    first.send('15')
    assert first.close() == 0
    assert journal.read_bytes() == (b'CONFIG_DEFAULT_HOSTNAME="host-a"\n'
                                    b'CONFIG_LOG_BUF_SHIFT=15\n')


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
    assert b'(DEFAULT_HOSTNAME) [(none)] (NEW) killed-host' + \
        mark(journal) + b'\n' in r.stdout


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
    """With a new journal, on a pipe, conf says and writes what it does
    without one ('<' included); the journal then gives the same .config
    without a line typed."""
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
        assert not plain.differences(with_j), seed
        # the defaults taken at the end of the input are not journaled, nor
        # is a last line without its end
        if with_j.returncode or not data.endswith(b'\n') or \
                b'end of file' in plain.stderr:
            continue
        again = conflib.run_conf(series.patched, '--oldconfig', kconfig,
                                 srctree, tmp_path, old, b'', demo_env(j))
        assert again.config == plain.config, seed


def test_conf_c_share(series):
    """Issue 37: conf.c's share of the journal series is at most 150 net
    lines (the file handling is confdata.c's); 160 since issue 45 ('<'
    kept at once, a resume said on a pipe) for 6.1, 6.6, 5.15 and 5.10,
    whose tristate choices ask a value and a member."""
    net = 0
    for p in series.part('journal'):
        with open(p) as f:
            for line in f.read().split('\ndiff --git ')[1:]:
                if line.startswith('a/%s/conf.c ' % series.kconfig_dir):
                    net += sum(1 for x in line.split('\n')
                               if x.startswith('+') and
                               not x.startswith('+++'))
                    net -= sum(1 for x in line.split('\n')
                               if x.startswith('-') and
                               not x.startswith('---'))
    assert 0 < net <= (160 if series.series in ('6.1', '6.6', '5.15', '5.10')
                        else 150)


# ---------------------------------------------------------------------------
# Real trees

# the old config that asks the fewest questions of each tree, for the
# campaign (about 175 on 7.3)
CAMPAIGN_FLAVOUR = 'amd64_none_cloud-amd64'


def person_run(tree, d, person, kill_after=None, sent=None, timeout=1200):
    env = with_journal(tree.env, d)
    return conflib.person_session(tree.base.patched, person, 'Kconfig',
                                  tree.path, str(d), env, kill_after,
                                  timeout=timeout, sent=sent)


def test_kill_campaign(real_journal, tmp_path):
    """kill -9 at random answers (right after a line is sent, so that conf
    may be anywhere in taking it, keeping it or asking the next question),
    resumed with the journal by the same person (answers by question,
    mistakes corrected with '<'), killed again further on, until a run
    ends: it ends with the .config of the uninterrupted session, every
    time (a line that a kill cut is refused, then taken off).  KILLS kills
    in all (100 in make check-long, 8 in make check: one chain, about 100 s
    a tree), in chains of about ten."""
    real = real_journal
    old = real.old_config(CAMPAIGN_FLAVOUR)
    target = int(os.environ.get('KILLS') or (100 if LONG else 8))
    kills = chains = cuts = 0
    seed = 0
    while kills < target:
        seed += 1
        ref = fresh(tmp_path, 'ref%d' % seed, old)
        sent = []
        s, _ = person_run(real, ref, conflib.Person(seed, p_mistake=0.03),
                          sent=sent)
        assert s.p.returncode == 0, bytes(s.err)[-2000:]
        want = (ref / '.config').read_bytes()
        rng = random.Random('campaign%d' % seed)
        gap = max(2, len(sent) // 5)
        d = fresh(tmp_path, 'kill%d' % seed, old)
        person = conflib.Person(seed, p_mistake=0.03)
        while True:
            s, killed = person_run(real, d, person, rng.randint(1, gap))
            if not killed:
                break
            kills += 1
            assert s.p.returncode == -9
            assert (d / '.config').read_bytes() == old
            # a kill within a write() that crosses a page of the file can
            # cut its line: the resume refuses the file until the line is
            # taken off, as a user would
            if take_off_unfinished(real.base.patched, 'Kconfig', real.path,
                                   d, with_journal(real.env, d)):
                cuts += 1
            assert_answer_lines((d / 'journal').read_text())
        assert s.p.returncode == 0, bytes(s.err)[-2000:]
        assert (d / '.config').read_bytes() == want, \
            'seed %d, after %d kills' % (seed, kills)
        # answers given again are read back without a warning
        assert str(d / 'journal').encode() + b':' not in bytes(s.err)
        chains += 1
    print('\nkill campaign on %s: %d kills in %d chains (%d cut a line), '
          'each ended with the uninterrupted .config'
          % (real.base.version, kills, chains, cuts))


def test_reuse_on_another_flavour(real_journal, tmp_path):
    """The answers of one flavour (amd64), copied, for another (cloud) at a
    terminal, with Debian's configs of the releases of REAL_TREES: the
    copy answers the questions the two share, the others are read from
    the terminal; one line says how many answers were read, the end line
    comes at most once with no answer taken after it, one line names the
    answers not asked for; the original stays byte for byte."""
    real = real_journal
    amd64 = fresh(tmp_path, 'amd64', real.old_config())
    s, _ = person_run(real, amd64, conflib.Person(5, p_mistake=0))
    assert s.p.returncode == 0
    original = (amd64 / 'journal').read_bytes()
    mtime = os.stat(amd64 / 'journal').st_mtime_ns
    cloud = fresh(tmp_path, 'cloud', real.old_config(CAMPAIGN_FLAVOUR))
    shutil.copy(amd64 / 'journal', cloud / 'journal')
    journal = cloud / 'journal'
    t = tty_start(real.base.patched, cloud, journal, 'Kconfig', real.path,
                  timeout=1200, env=real.env)
    person = conflib.Person(6, p_mistake=0)
    for q in t.questions():
        t.send(person.answer(q))
    assert t.close() == 0
    assert (amd64 / 'journal').read_bytes() == original
    assert os.stat(amd64 / 'journal').st_mtime_ns == mtime
    out = t.text()
    name = re.escape(str(journal))
    read = re.findall(r'^\* (\d+) answers? read from %s\n' % name, out, re.M)
    left = re.findall(r'^\* (\d+) answers? in %s not asked for: CONFIG_\w+'
                      r'(?:, CONFIG_\w+)*(?: and \d+ more)?\n' % name, out,
                      re.M)
    assert len(read) == 1 and len(left) <= 1
    # the answers read end once: where the last one is taken, or at the
    # end, where the rest are named
    assert out.count(END) + len(left) == 1
    if left:
        assert int(read[0]) > int(left[0]) > 0
    else:
        assert t.taken_after(END) == 0
    # questions were taken from the copy, and others read at the terminal
    questions = sum(1 for m in QUESTION.finditer(t.out)
                    if m.group(1) is None or b'(NEW)' in m.group(1))
    assert 0 < len(t.waits) < questions
    print('\n%s: %s answers of amd64 read for cloud, %d questions, %d read '
          'at the terminal, %s not asked for' % (
              real.base.version, read[0], questions, len(t.waits),
              left[0] if left else 0))
