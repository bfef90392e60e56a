# SPDX-License-Identifier: GPL-2.0
"""Running kconfig's conf, driving it question by question, and checking
that a session with '<' is equivalent to stock conf fed the answers that
survived."""

import fcntl
import os
import random
import re
import select
import selectors
import shutil
import struct
import subprocess
import tempfile
import termios
import time
from dataclasses import dataclass, field

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get('BUILD_ROOT', os.path.join(TOP, 'build'))
DEMO = os.path.join(TOP, 'kconfig', 'demo')
# the line of the mainline series (scripts/lib.sh says which)
with open(os.path.join(TOP, 'scripts', 'lib.sh')) as _f:
    MAINLINE = re.search(r'^mainline=(\S+)$', _f.read(), re.M).group(1)


class Base:
    """One built upstream base: build/<version> with stock and patched conf
    (or the stock one alone: scripts/build --stock-only)."""

    def __init__(self, path):
        self.path = path
        self.env = {}
        with open(os.path.join(path, 'base.env')) as f:
            for line in f:
                k, _, v = line.rstrip('\n').partition('=')
                self.env[k] = v
        self.version = self.env['VERSION']
        self.series = self.env['SERIES']
        # the project (scripts/lib.sh: tree_kind) and its kconfig folder
        self.kind = self.env.get('KIND') or 'linux'
        self.kconfig_dir = self.env.get('KCONFIG_DIR') or 'scripts/kconfig'

    @property
    def line(self):
        """What make check's depth is given by (tests/conftest.py): the
        line X.Y of a Linux version, the project of another tree."""
        if self.kind != 'linux':
            return self.kind
        return '.'.join(self.version.split('.')[:2])

    def conf(self, variant='patched'):
        return os.path.join(self.path, variant, self.kconfig_dir, 'conf')

    @property
    def stock(self):
        return self.conf('stock')

    @property
    def patched(self):
        return self.conf('patched')

    @property
    def pristine(self):
        return os.path.join(self.path, 'pristine')

    def part(self, name):
        """The patches of patches/<series>/<name> in order, without the
        cover letter."""
        d = os.path.join(TOP, 'patches', self.series, name)
        if not os.path.isdir(d):
            return []
        return sorted(os.path.join(d, f) for f in os.listdir(d)
                      if f.endswith('.patch') and not f.startswith('0000-'))

    @property
    def patches(self):
        """The fixes posted alone, the '<' series, then the journal series
        on top of it."""
        return self.part('0-fixes') + self.part('back') + self.part('journal')

    @property
    def has_journal(self):
        return bool(self.part('journal'))

    @property
    def has_series(self):
        return bool(self.patches)

    def fixtures(self, variant='pristine'):
        """The Kconfig trees of the base's own kconfig tests, as
        (name, directory, .config contents or None)."""
        tests = os.path.join(self.path, variant, self.kconfig_dir, 'tests')
        found = []
        for dirpath, _, files in sorted(os.walk(tests)):
            if 'Kconfig' not in files:
                continue
            cfg = read_file(os.path.join(dirpath, 'config'))
            found.append((os.path.relpath(dirpath, tests), dirpath, cfg))
        return found

    @property
    def source_args(self):
        """The arguments that give scripts/build (and scripts/demo) this
        base: its Debian package, or the kernel tree it was built from."""
        if self.env.get('DEBIAN'):
            return ['--debian', self.env['DEBIAN']]
        if self.env.get('PROJECT'):
            return ['--project', self.env['PROJECT']]
        return ['--kernel-src', self.env['SOURCE']]

    def __repr__(self):
        return self.version


def shell_env(**extra):
    """The environment of a command typed at a shell, not run by a make
    (make check's MAKEFLAGS would reach the tree's make), with extra
    variables."""
    env = {k: v for k, v in os.environ.items()
           if k not in ('MAKEFLAGS', 'MAKELEVEL', 'MFLAGS', 'MAKEOVERRIDES')}
    env.update(extra)
    return env


def script(name):
    return os.path.join(TOP, 'scripts', name)


def shown_demo_config():
    """build/demo/.config as scripts/demo names it when run from the top:
    relative to it when below it."""
    path = os.path.join(BUILD, 'demo', '.config')
    return os.path.relpath(path, TOP) if path.startswith(TOP + '/') else path


def built_bases(stock_only=False):
    """The bases whose stock and patched conf are built, by version; with
    stock_only, those whose stock conf alone is built (--stock-only)."""
    bases = []
    if os.path.isdir(BUILD):
        for name in sorted(os.listdir(BUILD)):
            path = os.path.join(BUILD, name)
            if os.path.islink(path) or not os.path.isfile(
                    os.path.join(path, 'base.env')):
                continue
            b = Base(path)
            if not os.access(b.stock, os.X_OK):
                continue
            if os.access(b.patched, os.X_OK) != stock_only:
                bases.append(b)
    return bases


@dataclass
class Result:
    stdout: bytes
    stderr: bytes
    returncode: int
    config: bytes = None
    autoconf: bytes = None
    include: dict = None    # what conf wrote under include/, by path

    def differences(self, other):
        """The fields that differ from another result."""
        return [f for f in ('stdout', 'stderr', 'returncode', 'config',
                            'autoconf', 'include')
                if getattr(self, f) != getattr(other, f)]


def read_tree(path):
    """The files under a directory, by relative path (None if there is no
    such directory)."""
    if not os.path.isdir(path):
        return None
    files = {}
    for dirpath, _, names in os.walk(path):
        for n in names:
            full = os.path.join(dirpath, n)
            files[os.path.relpath(full, path)] = read_file(full)
    return files


def run_capped(argv, data, cwd, env, timeout, max_output):
    """Run a command with data as its input; (stdout, stderr, exit
    status).  Raises Hang when it prints more than max_output bytes (a
    loop that prints for ever would fill memory before its timeout) and
    subprocess.TimeoutExpired after timeout seconds."""
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=cwd, env=env)
    out = {p.stdout: bytearray(), p.stderr: bytearray()}
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as sel:
        sel.register(p.stdout, selectors.EVENT_READ)
        sel.register(p.stderr, selectors.EVENT_READ)
        if data:
            os.set_blocking(p.stdin.fileno(), False)
            sel.register(p.stdin, selectors.EVENT_WRITE)
        else:
            p.stdin.close()
        view = memoryview(data)
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                p.kill()
                p.wait()
                raise subprocess.TimeoutExpired(argv, timeout)
            for key, _ in sel.select(left):
                f = key.fileobj
                if f is p.stdin:
                    try:
                        view = view[os.write(f.fileno(), view[:65536]):]
                    except BrokenPipeError:
                        view = view[:0]
                    if not view:
                        sel.unregister(f)
                        f.close()
                    continue
                chunk = os.read(f.fileno(), 65536)
                if not chunk:
                    sel.unregister(f)
                    continue
                out[f] += chunk
                if len(out[p.stdout]) + len(out[p.stderr]) > max_output:
                    p.kill()
                    p.wait()
                    raise Hang('%s printed more than %d bytes; the end:\n%s'
                               % (argv[0], max_output,
                                  out[p.stdout][-2000:].decode(
                                      errors='replace')))
    p.stdout.close()
    p.stderr.close()
    return bytes(out[p.stdout]), bytes(out[p.stderr]), p.wait()


def in_tree(env, run, cwd, files):
    """conf run in cwd (a tree's top, as its make runs it) rather than in
    its run's directory: files names, by variable, the files conf writes
    there, relative to the run's directory (.config, include/...)."""
    if cwd is None:
        return run
    env.update({k: os.path.join(run, v) for k, v in (files or {}).items()})
    return cwd


def run_conf(conf, mode, kconfig, srctree, workdir, dot_config=None,
             input_bytes=b'', env=None, timeout=60, extra=(),
             max_output=None, cwd=None, files=None):
    """Run conf once with piped input in a fresh directory under workdir.
    The result has .config and, where conf wrote them, auto.conf and
    everything under include/.  max_output: conf printing more than that
    many bytes raises Hang.  cwd, files: see in_tree()."""
    run = tempfile.mkdtemp(dir=workdir)
    try:
        if dot_config is not None:
            with open(os.path.join(run, '.config'), 'wb') as f:
                f.write(dot_config)
        full_env = dict(env if env is not None else os.environ)
        full_env['srctree'] = srctree
        full_env.setdefault('KCONFIG_DEFCONFIG_LIST', '')
        where = in_tree(full_env, run, cwd, files)
        argv = [conf, *extra, mode, kconfig]
        if max_output is None:
            p = subprocess.run(argv, input=input_bytes, capture_output=True,
                               cwd=where, env=full_env, timeout=timeout)
            r = Result(p.stdout, p.stderr, p.returncode)
        else:
            r = Result(*run_capped(argv, input_bytes, cwd=where, env=full_env,
                                   timeout=timeout, max_output=max_output))
        r.config = read_file(os.path.join(run, '.config'))
        r.autoconf = read_file(os.path.join(run, 'include', 'config',
                                            'auto.conf'))
        r.include = read_tree(os.path.join(run, 'include'))
        return r
    finally:
        shutil.rmtree(run, ignore_errors=True)


def read_file(path):
    try:
        with open(path, 'rb') as f:
            return f.read()
    except FileNotFoundError:
        return None


def random_stream(rng, max_lines=40, back=False, pool=None):
    """Random answer lines, valid and invalid, maybe ending early (EOF)
    or without a final newline; pool: the lines to draw from."""
    pool = list(pool or [
        '', '', '', 'y', 'n', 'm', 'Y', 'N', 'M', 'yes', 'no', '?', 'x',
        '1', '2', '3', '0', '9', '42', '-3', '0x10', 'ff', 'foo', 'a b c',
        '  y  ', '1?', '\t'])
    if back:
        pool += ['<', '<', ' < ']
    lines = [rng.choice(pool) for _ in range(rng.randint(0, max_lines))]
    if rng.random() < 0.05:
        lines.append('z' * rng.randint(4000, 9000))
    data = ''.join(line + '\n' for line in lines)
    if data and rng.random() < 0.1:
        data = data[:-1]
    return data.encode()


# ---------------------------------------------------------------------------
# Driving conf one question at a time

class Hang(Exception):
    pass


class Session:
    """conf on pipes: wait() returns the output up to the next read of
    stdin (conf is then blocked reading fd 0), or None once conf exited."""

    def __init__(self, argv, cwd, env, timeout=120, max_output=1 << 26):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, cwd=cwd, env=env)
        for f in (self.p.stdout, self.p.stderr):
            fl = fcntl.fcntl(f, fcntl.F_GETFL)
            fcntl.fcntl(f, fcntl.F_SETFL, fl | os.O_NONBLOCK)
        self.deadline = time.monotonic() + timeout
        self.max_output = max_output
        self.out = bytearray()
        self.err = bytearray()
        self.mark = 0
        self.sent = []

    def _drain(self, wait):
        fds = [self.p.stdout, self.p.stderr]
        r, _, _ = select.select(fds, [], [], wait)
        got = False
        for f in r:
            try:
                data = os.read(f.fileno(), 65536)
            except BlockingIOError:
                continue
            if data:
                got = True
                (self.out if f is self.p.stdout else self.err).extend(data)
        if len(self.out) + len(self.err) > self.max_output:
            self.p.kill()
            raise Hang('conf printed more than %d bytes; output:\n%s' % (
                self.max_output, self.out[-2000:].decode(errors='replace')))
        return got

    def _reading_stdin(self):
        """conf is blocked reading stdin, and has read all that was sent."""
        buf = fcntl.ioctl(self.p.stdin.fileno(), termios.FIONREAD,
                          struct.pack('i', 0))
        if struct.unpack('i', buf)[0]:
            return False
        try:
            with open('/proc/%d/syscall' % self.p.pid) as f:
                fields = f.read().split()
        except OSError:
            return False
        return len(fields) > 1 and fields[0] == '0' and fields[1] == '0x0'

    def wait(self):
        # wait for output a short time first, then longer (up to 2 ms):
        # small trees ask their next question within a fraction of that
        pause = 0.0002
        while True:
            if time.monotonic() > self.deadline:
                self.p.kill()
                raise Hang('conf did not ask or exit in time; output:\n' +
                           self.out[-2000:].decode(errors='replace'))
            if self._drain(pause):
                pause = 0.0002
                continue
            pause = min(2 * pause, 0.002)
            if self.p.poll() is not None:
                while self._drain(0):
                    pass
                return None
            if self._reading_stdin():
                while self._drain(0):
                    pass
                text = self.out[self.mark:].decode(errors='replace')
                return text

    def questions(self):
        """The questions conf asks, parsed, until it exits."""
        while True:
            text = self.wait()
            if text is None:
                return
            yield parse_question(text)

    def kill(self):
        self.p.kill()
        self.p.wait()

    def result(self, workdir):
        """What conf printed, its exit status, and the .config and what is
        under include/ in workdir."""
        r = Result(bytes(self.out), bytes(self.err), self.p.returncode,
                   read_file(os.path.join(workdir, '.config')))
        r.autoconf = read_file(os.path.join(workdir, 'include', 'config',
                                            'auto.conf'))
        r.include = read_tree(os.path.join(workdir, 'include'))
        return r

    def send(self, line):
        self.sent.append(line)
        self.p.stdin.write(line.encode() + b'\n')
        self.p.stdin.flush()
        self.mark = len(self.out)

    def close(self):
        """End the input and wait for conf to exit."""
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        while self.p.poll() is None:
            if time.monotonic() > self.deadline:
                self.p.kill()
                raise Hang('conf did not exit at the end of its input')
            self._drain(0.01)
        while self._drain(0):
            pass
        return self.p.returncode


# ---------------------------------------------------------------------------
# Questions, as conf prints them

# the name is missing for the value of a 6.1 choice
RE_TRI = re.compile(r'^ *(.*?)(?: \((\w+)\))? \[([NMYnmy/]+)/\?\] (\(NEW\) )?$')
RE_STR = re.compile(r'^ *(.*) \((\w+)\) \[(.*)\] (\(NEW\) )?$')
RE_CHOICE = re.compile(r'^ *choice\[1-(\d+)\?\]: $')
RE_COMMENT = re.compile(r'^ *\* \S')
RE_MEMBER = re.compile(r'^ *(>?) +(\d+)\. (.*?) \((\w+)\)( \(NEW\))?$')


@dataclass
class Question:
    kind: str               # 'tri', 'str' or 'choice'
    key: tuple              # what identifies the question
    default: str            # the answer Enter gives
    options: list = field(default_factory=list)  # tri letters, choice numbers
    prompt: str = ''        # a symbol may have two prompts, asked in a row


def parse_question(text):
    """The question conf waits on, from the output printed before the read."""
    lines = text.split('\n')
    last = lines[-1]
    m = RE_TRI.match(last)
    if m:
        letters = m.group(3).split('/')
        default = [c for c in letters if c.isupper()]
        key = ('sym', m.group(2)) if m.group(2) else ('value', m.group(1))
        return Question('tri', key, default[0].lower(),
                        [c.lower() for c in letters], m.group(1).strip())
    m = RE_CHOICE.match(last)
    if m:
        members = []
        default = None
        at = len(lines) - 1
        for line in reversed(lines[:-1]):
            mm = RE_MEMBER.match(line)
            if not mm:
                # a comment among the members (Buildroot's choices have
                # them: "* systemd needs a glibc toolchain ...")
                if RE_COMMENT.match(line):
                    at -= 1
                    continue
                break
            at -= 1
            members.append(mm.group(4))
            if mm.group(1):
                default = mm.group(2)
        members.reverse()
        prompt = lines[at - 1].strip()
        if len(members) != int(m.group(1)) or (members and default is None):
            raise ValueError('unparsable choice:\n' + '\n'.join(lines[-12:]))
        return Question('choice', ('choice', prompt, tuple(members)),
                        default or '',
                        [str(i) for i in range(1, len(members) + 1)] or ['1'])
    m = RE_STR.match(last)
    if m:
        return Question('str', ('sym', m.group(2)), m.group(3),
                        prompt=m.group(1).strip())
    raise ValueError('not a question: %r' % last[-300:])


WORDS = ['foo', 'bar baz', 'x', '42', '0', '-7', '0x1f', '1000000', 'ab-c']


def random_answer(rng, q):
    """A random answer line: mostly valid, some help or invalid input."""
    r = rng.random()
    if q.kind == 'tri':
        if r < 0.35:
            return ''
        if r < 0.85:
            return rng.choice(q.options)
        if r < 0.90:
            return '?'
        return rng.choice(['x', 'yes', 'no', 'maybe', ' Y '])
    if q.kind == 'choice':
        if r < 0.35:
            return ''
        if r < 0.85:
            return rng.choice(q.options)
        if r < 0.90:
            return rng.choice(['?', q.options[0] + '?'])
        return rng.choice(['0', str(len(q.options) + 1), 'x'])
    # string, int or hex: an empty default cannot be given explicitly
    # to stock conf, so Enter is only used on a non-empty default
    if r < 0.4 and q.default != '':
        return ''
    if r < 0.95:
        return rng.choice(WORDS)
    return '?'


def explicit(q, line):
    """The explicit answer stock conf needs for the same effect."""
    return q.default if line.strip() == '' else line


@dataclass
class Transcript:
    asked: list             # every question read, as keys, in order
    survived: list          # (question key, explicit answer) still in force
    backs: int
    result: Result
    sent: list              # the lines sent
    stock: Result = None    # stock fed the surviving answers, if compared
    # at the last '<': how many answers survived, and its index in sent
    last_back: tuple = None

    def input_after_last_back(self):
        """The input that makes stock print what conf printed after the
        last '<': the answers that survived it, explicit, then the lines
        conf read after it, as they were."""
        if self.last_back is None:
            lines = self.sent
        else:
            k, i = self.last_back
            lines = [a for _, a in self.survived[:k]] + self.sent[i + 1:]
        return ''.join(line + '\n' for line in lines).encode()


def start(conf, mode, kconfig, srctree, workdir, dot_config, env, timeout,
          fresh=True, cwd=None, files=None):
    """Start conf in workdir: with dot_config as its .config (none if it is
    None) and no include/ when fresh, else on the .config workdir has.
    cwd, files: see in_tree()."""
    cfg = os.path.join(workdir, '.config')
    if fresh:
        if os.path.exists(cfg):
            os.unlink(cfg)
        shutil.rmtree(os.path.join(workdir, 'include'), ignore_errors=True)
        if dot_config is not None:
            with open(cfg, 'wb') as f:
                f.write(dot_config)
    full_env = dict(env)
    full_env['srctree'] = srctree
    full_env.setdefault('KCONFIG_DEFCONFIG_LIST', '')
    where = in_tree(full_env, workdir, cwd, files)
    return Session([conf, mode, kconfig], where, full_env, timeout)


def back_session(conf, mode, kconfig, srctree, workdir, dot_config, env,
                 seed, p_back=0.12, max_backs=60, max_steps=20000,
                 timeout=240, focus=None, focus_after=None, script=None,
                 cwd=None, files=None):
    """Drive conf with random answers and runs of '<'. Track which answers
    survive: an answer is accepted when the next question is not the same
    one asked again, and '<' takes the last accepted answer back.
    focus: a regular expression; questions whose symbol or members match
    it get '<' runs eight times more often.  focus_after: likewise, but
    half of the questions that follow an accepted answer to one of those
    start a run (which undoes that answer first).  script: the lines to
    send first, one per question ('<' going back), before random ones."""
    rng = random.Random(seed)
    s = start(conf, mode, kconfig, srctree, workdir, dot_config, env, timeout,
              cwd=cwd, files=files)
    survived = []
    asked = []
    pending = None          # (question, explicit answer) awaiting acceptance
    backs = 0
    run = 0                 # '<' still to send in the current run
    steps = 0
    last_back = None
    script = list(script or [])
    for q in s.questions():
        asked.append(q.key)
        just = None         # the question whose answer was just accepted
        if pending is not None and (pending[0].key, pending[0].prompt) != \
                (q.key, q.prompt):
            survived.append((pending[0].key, pending[1]))
            just = pending[0].key
        pending = None
        steps += 1
        if steps > max_steps:
            s.kill()
            raise Hang('more than %d questions' % max_steps)
        p = p_back
        if focus and re.search(focus, repr(q.key)):
            p = min(1.0, 8 * p_back)
        if focus_after and just and re.search(focus_after, repr(just)):
            p = max(p, 0.5)
        line = script.pop(0) if script else None
        if line is None and run == 0 and backs < max_backs and \
                rng.random() < p:
            run = rng.choice([1, 1, 1, 2, 2, 3, 5, 8])
        if line is not None and line.strip() == '<' or \
                line is None and run > 0:
            run = max(run - 1, 0)
            backs += 1
            s.send(line if line is not None
                   else rng.choice(['<', ' < ', '<\t']))
            if survived:
                survived.pop()
            last_back = (len(survived), len(s.sent) - 1)
            continue
        if line is None:
            line = random_answer(rng, q)
        pending = (q, explicit(q, line))
        s.send(line)
    if pending is not None:
        survived.append((pending[0].key, pending[1]))
    return Transcript(asked, survived, backs, s.result(workdir), s.sent,
                      last_back=last_back)


def replay_session(conf, mode, kconfig, srctree, workdir, dot_config, env,
                   answers, timeout=240, cwd=None, files=None):
    """Feed stock conf the explicit answers, checking each question asked
    is the next one expected. Returns (keys asked, Result)."""
    s = start(conf, mode, kconfig, srctree, workdir, dot_config, env, timeout,
              cwd=cwd, files=files)
    asked = []
    i = 0
    for q in s.questions():
        asked.append(q.key)
        if i < len(answers) and answers[i][0] == q.key:
            s.send(answers[i][1])
            i += 1
        else:
            # not the question expected: stop here, the caller reports it
            s.kill()
            break
    return asked, s.result(workdir)


def check_equivalence(patched, stock, mode, kconfig, srctree, workdir,
                      dot_config, env, seed, **kw):
    """Run a seeded session with '<' on patched conf, replay the surviving
    answers on stock conf; return a list of problems (empty when equal)."""
    t = back_session(patched, mode, kconfig, srctree, workdir, dot_config,
                     env, seed, **kw)
    asked, r = replay_session(stock, mode, kconfig, srctree, workdir,
                              dot_config, env, t.survived,
                              cwd=kw.get('cwd'), files=kw.get('files'))
    problems = []
    want = [k for k, _ in t.survived]
    if asked != want:
        n = next((i for i, (a, b) in enumerate(zip(asked, want)) if a != b),
                 min(len(asked), len(want)))
        problems.append('question %d differs: stock asked %r, the session '
                        'had %r (of %d/%d)' % (n, asked[n:n + 1], want[n:n + 1],
                                               len(asked), len(want)))
    if r.config != t.result.config:
        problems.append('.config differs')
    if r.include != t.result.include:
        problems.append('include/ differs')
    if r.returncode != t.result.returncode:
        problems.append('exit status %d, stock %d' % (t.result.returncode,
                                                       r.returncode))
    t.stock = r
    return t, problems


# ---------------------------------------------------------------------------
# Differential runs: stock and patched conf on the same input

INTERACTIVE_MODES = ['--oldconfig', '--oldaskconfig', '--syncconfig']
OTHER_MODES = ['--olddefconfig', '--listnewconfig', '--helpnewconfig',
               '--alldefconfig', '--allnoconfig', '--allyesconfig',
               '--allmodconfig', '--randconfig', '--yes2modconfig',
               '--mod2yesconfig', '--mod2noconfig']


def demo_kconfig(build_dir):
    """The demo's Kconfig for the parser of build_dir (build/<version>):
    the copy in 5.10's syntax that scripts/build wrote there (demo_srctree
    in scripts/lib.sh), or DEMO's own."""
    kconfig = os.path.join(build_dir, 'demo', 'Kconfig')
    if os.path.isfile(kconfig):
        return kconfig
    return os.path.join(DEMO, 'Kconfig')


def fixture_trees(tree=None):
    """The demo and, given a built tree (build/<version>/<tree>), its
    kconfig test trees (the series' too), as (kconfig, srctree, old
    .config); the demo in the syntax of that build's parser."""
    kconfig = os.path.join(DEMO, 'Kconfig')
    if tree:
        kconfig = demo_kconfig(os.path.dirname(tree))
    found = [(kconfig, DEMO, read_file(os.path.join(DEMO, 'old.config')))]
    if tree:
        found += [('Kconfig', path, cfg) for _, path, cfg in
                  Base(os.path.dirname(tree)).fixtures(
                      os.path.basename(tree))]
    return found


def other_modes(conf):
    """The OTHER_MODES that conf has (5.10's has no --mod2noconfig):
    those named in its table of options."""
    with open(conf, 'rb') as f:
        data = f.read()
    return [m for m in OTHER_MODES if b'\0' + m[2:].encode() + b'\0' in data]


def compare(stock, patched, mode, kconfig, srctree, workdir, dot_config,
            data, env=None):
    """Run both on the same input; return the differing fields and the
    stock result."""
    full = dict(env if env is not None else os.environ, KCONFIG_SEED='0x1234')
    a = run_conf(stock, mode, kconfig, srctree, workdir, dot_config, data,
                 full)
    b = run_conf(patched, mode, kconfig, srctree, workdir, dot_config, data,
                 full)
    return a.differences(b), a


def compare_streams(stock, patched, mode, kconfig, srctree, workdir,
                    dot_config, seed_range):
    """Seeded random streams without '<'; the first difference as a
    message, or None."""
    for seed in seed_range:
        data = random_stream(random.Random(seed))
        diff, _ = compare(stock, patched, mode, kconfig, srctree, workdir,
                          dot_config, data)
        if diff:
            return '%s seed %d: %s differ for input %r' % (mode, seed, diff,
                                                           data[:300])
    return None


def main():
    """Command line: the differential check used for every patch."""
    import argparse
    ap = argparse.ArgumentParser(description='Check that a patched conf '
                                 'behaves exactly like the stock conf without '
                                 "'<' on the demo and on kconfig test trees.")
    ap.add_argument('--stock', required=True)
    ap.add_argument('--patched', required=True)
    ap.add_argument('--tests', help="a built tree's kconfig tests "
                    "(build/<version>/<tree>/scripts/kconfig/tests)")
    ap.add_argument('--seeds', type=int, default=30)
    args = ap.parse_args()
    args.stock = os.path.abspath(args.stock)
    args.patched = os.path.abspath(args.patched)
    with tempfile.TemporaryDirectory() as work:
        # args.tests is build/<version>/<tree>/<kconfig folder>/tests
        tree = None
        if args.tests:
            tree = os.path.abspath(args.tests)
            while not os.path.isfile(os.path.join(os.path.dirname(tree),
                                                  'base.env')):
                if tree == os.path.dirname(tree):
                    ap.error('%s is not in a built base' % args.tests)
                tree = os.path.dirname(tree)
        trees = fixture_trees(tree)
        for kconfig, srctree, cfg in trees:
            for mode in INTERACTIVE_MODES + other_modes(args.stock):
                n = args.seeds if mode in INTERACTIVE_MODES else 1
                problem = compare_streams(args.stock, args.patched, mode,
                                          kconfig, srctree, work, cfg,
                                          range(n))
                if problem:
                    print('%s: %s' % (srctree, problem))
                    return 1
    print('no difference in %d trees' % len(trees))
    return 0


if __name__ == '__main__':
    raise SystemExit(main())


# ---------------------------------------------------------------------------
# A person answering by the question, for journal tests across kills

class Person:
    """Answers depend only on the question key and the seed; some keys get
    a mistake first, corrected with '<' at the next question.  The state
    (mistakes made, correction pending) survives a killed conf."""

    def __init__(self, seed, p_mistake=0.08):
        self.seed = seed
        self.p_mistake = p_mistake
        self.made = set()
        self.pending = None

    def _pick(self, q, salt):
        rng = random.Random('%s:%s:%r' % (self.seed, salt, q.key))
        if q.kind == 'str':
            return ''
        # not by position: the default comes first in a [N/m/y] prompt
        return rng.choice(sorted(q.options))

    def answer(self, q):
        if self.pending is not None:
            if q.key == self.pending:
                self.pending = None
                return self._pick(q, 'right')
            return '<'
        right = self._pick(q, 'right')
        if (q.kind != 'str' and len(q.options) > 1 and q.key not in self.made
                and random.Random('%s:m:%r' % (self.seed, q.key)).random()
                < self.p_mistake):
            self.made.add(q.key)
            self.pending = q.key
            return next(o for o in sorted(q.options) if o != right)
        return right


def person_session(conf, person, kconfig, srctree, workdir, env, kill_after=None,
                   timeout=300, sent=None):
    """Run conf in workdir (its .config and the journal in env are used as
    they are) with a person answering; kill it with SIGKILL right after the
    kill_after-th line sent.  Returns (Session, killed)."""
    s = start(conf, '--oldconfig', kconfig, srctree, workdir, None, env,
              timeout, fresh=False)
    n = 0
    for q in s.questions():
        line = person.answer(q)
        s.send(line)
        if sent is not None:
            sent.append(line)
        n += 1
        if kill_after is not None and n >= kill_after:
            s.kill()
            return s, True
    return s, False
